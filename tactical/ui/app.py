"""The play screen: a pygame-ce window where people set up a table and play a game on it.

`App` owns the window (or an offscreen surface when headless), the pygame_gui
UIManager, the loop and which mode is active: `PlayScreen` (tactical.ui.play_mode,
the game over a `Session`) or `SetupMode` (tactical.ui.setup_mode, the table
before the game). Each mode owns its panels and input and reaches the window's
shared services (`tactical.ui.services.Services`, which `App` implements) without
importing this module. Around them: the top bar, status line and help
(tactical.ui.chrome), the hover card and pair panel (tactical.ui.hover_panels),
the table picture (tactical.ui.table_view) and the window's files: opening, saving,
exporting (tactical.ui.window_files). Every number shown comes from the
model, geometry and rules layers (`TableGeometry.pair` for the hover numbers, the
ruler from table inches).

Drivable by tests: `App(state, size, headless=True)`, then `handle(event)`,
`pump()` (the events pygame_gui posts), `step()` and `frame() -> Surface`.
"""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pygame
import pygame_gui
from pygame_gui.elements import UITextEntryLine
from pygame_gui.windows import UIFileDialog, UIMessageWindow

from tactical.errors import UserError
from tactical.model import GameState, Unit
from tactical.net.client import RemoteSession
from tactical.net.hosting import Invite
from tactical.net.server import GameServer
from tactical.rules import registry
from tactical.rules.base import last_seen
from tactical.rules.measuring import PairReport, TableGeometry
from tactical.session.controller import Session
from tactical.session.saving import Autosave
from tactical.ui.adjust_mode import AdjustMode
from tactical.ui.camera import Camera, Margins
from tactical.ui.chrome import (
    HelpOverlay,
    IdlePacer,
    StatusLine,
    TopBar,
)
from tactical.ui.fonts import widget_fonts, widget_theme
from tactical.ui.hover_panels import PairPanel, UnitCard, card_html, table_area, unit_names
from tactical.ui.play_mode import PlayScreen
from tactical.ui.scene import SceneRenderer
from tactical.ui.services import LEGEND_BAND, PANEL_WIDTH, STATUS_BAR, TICK_BAND, TOP_BAR
from tactical.ui.setup_mode import SIDE_PANEL, SetupMode
from tactical.ui.table_view import TableScene, TableView
from tactical.ui.view import Ruler, UnitIndex, ViewState, snap_tolerance
from tactical.ui.window_files import WindowFiles

# Where an exception escaping an event handler is logged (the screen shows one line of it).
EVENT_LOG = logging.getLogger("tactical.ui.events")
DEFAULT_SIZE = (1280, 800)
FPS = 60
PAN_STEP = 60  # pixels per arrow key press
ZOOM_STEP = 1.15  # per wheel notch
CLICK_SLOP = 4  # pixels a press may move and still be a click
FUNCTION_KEYS = (pygame.K_F1, pygame.K_F2, pygame.K_F12)


class App(WindowFiles):
    """The play screen over one table; `run()` is the interactive loop (its files:
    `WindowFiles`)."""

    def __init__(
        self,
        state: GameState,
        size: tuple[int, int] = DEFAULT_SIZE,
        *,
        headless: bool = False,
        path: str | os.PathLike[str] | None = None,
        seed: int = 1,
        autosave: Autosave | None = None,
        session: Session | None = None,
        catalogue: str | os.PathLike[str] | None = None,
    ) -> None:
        self.headless = headless
        if headless:
            os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        pygame.display.init()
        pygame.font.init()
        size = (max(320, int(size[0])), max(240, int(size[1])))
        if headless:
            if pygame.display.get_surface() is None:
                pygame.display.set_mode((1, 1))
            self.screen = pygame.Surface(size)
        else:
            pygame.display.set_caption("tactical")
            self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        self.size = size
        self.manager = pygame_gui.UIManager(size, widget_theme())
        self.manager.preload_fonts(widget_fonts())
        self.renderer = SceneRenderer()
        self.table = TableView(self.renderer)
        self.clock = pygame.time.Clock()
        self.path = Path(path) if path is not None else None
        self.running = True
        self.state = state
        self.system = registry.get(state.rules)
        self.view = ViewState(camera=self.fitted_camera(), mode="play")
        self.game_seed = seed
        self.map_state = state  # the table as set up, before the game's first action
        self._geometry: tuple[GameState, TableGeometry] | None = None
        self._index: tuple[tuple[Unit, ...], UnitIndex] | None = None
        self._pair: tuple[tuple, PairReport | None] | None = None
        self._mouse = (size[0] // 2, size[1] // 2)
        self._pan_from: tuple[int, int] | None = None
        self._press: tuple[int, int] | None = None
        self._dialog: tuple[str, UIFileDialog] | None = None
        self.message: UIMessageWindow | None = None
        self.top = TopBar(self.manager)
        self.status = StatusLine(self.manager)
        self.pair_panel = PairPanel(self.manager)
        self.help = HelpOverlay(self.manager, self.system.result_key)
        self.setup = SetupMode(self)
        if session is None:
            session = Session.new(state, seed, autosave)
        else:
            self.map_state = session.game.initial
        self.play = PlayScreen(self, session)
        self.adjust = AdjustMode(self, self.play, catalogue)
        self.adjust.loaded(self.path)
        # created last so that it lies over the panels
        self.card = UnitCard(self.manager)
        self._layout()
        self._show_mode()
        self.play.sync()

    # ------------------------------------------------------------------ loop

    def run(self) -> int:
        """The interactive loop, capped at FPS; returns when the window closes."""
        self.play.warm_odds()
        pacer = IdlePacer(self.animating, lambda: self.play.online.listening)
        last_failure = ""
        while self.running:
            for event in pacer.events():
                self.handle(event)
            try:
                self.step(self.clock.tick(FPS) / 1000)
                if pacer.idle and not self.play.online.news:
                    continue  # online, a wake to look for news: none came
                self.frame()
                pacer.drawn()
            except Exception as error:  # a frame that cannot be drawn must not end the game
                failure = f"{type(error).__name__}: {error}"
                if failure != last_failure:  # said once, not 60 times a second
                    EVENT_LOG.error("the play screen's frame failed", exc_info=error)
                    said = failure.splitlines()[0][:160]
                    self.set_status(
                        f"Something went wrong drawing the screen ({said}); the game is "
                        "unchanged, the details are in the log"
                    )
                last_failure = failure
                continue
            last_failure = ""
            if not self.headless:
                pygame.display.flip()
        self.play.close()
        return 0

    def animating(self) -> bool:
        """Whether frames must keep coming without events: odds being computed appear when
        ready, a drag or a text being typed follows the pointer and keys."""
        moving = self.play.busy or self._pan_from is not None or self.table.fades.active
        return moving or self._typing()

    def pump(self) -> None:
        """Handle what is waiting in pygame's queue (pygame_gui posts its events there)."""
        for event in pygame.event.get():
            self.handle(event)

    def step(self, seconds: float = 1 / FPS) -> None:
        self.play.update()
        self.top.show_auto(self.play.session.take_single)
        self.top.show_online(self.play.online.headline())
        self.manager.update(seconds)

    # ------------------------------------------------------------------ model helpers

    def fitted_camera(self) -> Camera:
        bottom = STATUS_BAR + TICK_BAND + LEGEND_BAND
        right = TICK_BAND + PANEL_WIDTH + 8
        margins = Margins(TICK_BAND, TOP_BAR + TICK_BAND, right, bottom)
        return Camera.fit(self.state.board.bounds, self.size, margins)

    @property
    def geometry(self) -> TableGeometry:
        """`TableGeometry` of the current state (what `tactical check` prints), cached."""
        if self._geometry is None or self._geometry[0] is not self.state:
            self._geometry = (self.state, TableGeometry.of(self.state, self.system))
        return self._geometry[1]

    @property
    def index(self) -> UnitIndex:
        if self._index is None or self._index[0] is not self.state.units:
            self._index = (self.state.units, UnitIndex(self.state))
        return self._index[1]

    @property
    def pair_report(self) -> PairReport | None:
        """The selected unit (during an attack, the attacker) against the hovered one, or
        None; while a move is drawn, from where that move ends (the numbers `tactical check`
        gives with the unit moved)."""
        hovered = self.view.hovered
        attacker = self.play.pair_source() if self.view.mode == "play" else None
        selected = attacker or self.view.selected
        if selected is None or hovered is None or selected == hovered:
            return None
        moved = self.play.moved_state() if self._moving else None
        state = moved or self.state
        key = (state, selected, hovered)
        if self._pair is None or self._pair[0] != key:
            try:
                geometry = self.geometry if moved is None else self.play.moved_geometry()
                report = geometry.pair(selected, hovered)
            except UserError:
                report = None
            self._pair = (key, report)
        return self._pair[1]

    def set_state(self, state: GameState) -> None:
        """Replace the model; the selection and hover survive only if their units do."""
        self.state = state
        view = self.view
        self.view = replace(
            view,
            selected=view.selected if view.selected and state.has_unit(view.selected) else None,
            hovered=view.hovered if view.hovered and state.has_unit(view.hovered) else None,
        )
        self.setup.update_pose_entries()

    def set_view(self, view: ViewState) -> None:
        self.view = view

    def set_status(self, message: str) -> None:
        self.view = replace(self.view, status=message)
        self.status.set_text(message)

    def world(self, pos: tuple[int, int]) -> tuple[float, float]:
        return self.view.camera.to_world(*pos)

    # ------------------------------------------------------------------ widgets

    def _layout(self) -> None:
        self.top.layout(self.size)
        self.top.set_title(self._title())
        self.status.layout(self.size, PANEL_WIDTH + 8)
        self.setup.layout(self.size)
        self.adjust.layout(self.size)
        self.play.layout()
        self.pair_panel.layout(self._mouse, self.table_area())
        self.help.layout(self.size)

    def _show_mode(self) -> None:
        mode = self.view.mode
        self.play.show(mode == "play")
        self.setup.show(mode == "setup")
        self.adjust.show(mode == "adjust")
        self.top.show_mode(self.view.mode, self.view.tool == "measure")

    def _title(self) -> str:
        return f"{self.state.title or 'untitled map'} · {self.system.title}"

    def _over_widget(self, pos: tuple[int, int]) -> bool:
        # the card and the pair panel are not here: they keep away from the pointer, and a
        # click where they are goes to the table
        widgets = [self.top.panel, *self.help.widgets(), self.status.label]
        widgets.extend(self.setup.widgets())
        widgets.extend(self.play.widgets())
        if self.view.mode == "adjust":
            widgets.extend(self.adjust.widgets())
        if self._dialog is not None:
            widgets.append(self._dialog[1])
        if self.message is not None and self.message.alive():
            widgets.append(self.message)
        return any(w.visible and w.get_abs_rect().collidepoint(pos) for w in widgets)

    def _typing(self) -> bool:
        typing_elsewhere = any(
            isinstance(element, UITextEntryLine) for element in self.manager.get_focus_set() or ()
        )
        typing = self.setup.typing() or self.adjust.typing() or typing_elsewhere
        return typing or self._dialog is not None

    # ------------------------------------------------------------------ events

    def handle(self, event: pygame.event.Event) -> None:
        """One event. No event ends the play screen with a traceback: an exception escaping a
        handler is logged and shown as an error line; the game (immutable snapshots, replaced
        only by a finished action) stays as it was and the window open."""
        try:
            self._handle(event)
        except Exception as error:  # the screen must outlive any one bug
            self._handler_failed(event, error)

    def _handler_failed(self, event: pygame.event.Event, error: Exception) -> None:
        if isinstance(error, UserError):
            self.set_status(error.describe())
            return
        EVENT_LOG.error(
            "the play screen's %s handler failed",
            pygame.event.event_name(event.type),
            exc_info=error,
        )
        text = f"{type(error).__name__}: {error}".splitlines()[0][:160]
        self.set_status(
            f"Something went wrong with that input ({text}); the game is unchanged, "
            "the details are in the log"
        )

    def _handle(self, event: pygame.event.Event) -> None:
        """One event: the widgets first, then the table."""
        if event.type == pygame.QUIT:
            self.running = False
            return
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            # VIDEORESIZE has w, h; WINDOWSIZECHANGED x, y (a size of 0 is clamped by resize)
            wide, high = ("w", "h") if event.type == pygame.VIDEORESIZE else ("x", "y")
            self.resize((int(getattr(event, wide, 0)), int(getattr(event, high, 0))))
            return
        if self.view.mode == "play" and self.play.covering(event):
            return  # a hot-seat screen changing hands: Space lifts the cover
        if event.type == pygame.USEREVENT or event.type >= pygame.USEREVENT:
            self._ui_event(event)
        # function keys type nothing: they work while a text entry has the focus too, and
        # so does Ctrl+S (a save must not wait for the player to leave a field)
        if (
            event.type == pygame.KEYDOWN
            and (event.key in FUNCTION_KEYS or self._saving_key(event) or not self._typing())
            and self._shortcut(event)
        ):
            return
        try:
            consumed = self.manager.process_events(event)
        except IndexError as error:
            # pygame_gui's text lines (the file dialog's path) can lose track of their
            # selection and raise "No selected rows." on an edit: that one edit is dropped
            EVENT_LOG.warning("a text field dropped an edit: %s", error)
            consumed = True
        if event.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            self._mouse = tuple(int(v) for v in event.pos)  # type: ignore[assignment]
        if consumed and event.type != pygame.MOUSEMOTION:
            return
        if event.type == pygame.MOUSEBUTTONDOWN and not self._over_widget(event.pos):
            self._mouse_down(event)
        elif event.type == pygame.MOUSEBUTTONUP:
            self._mouse_up(event)
        elif event.type == pygame.MOUSEMOTION:
            self._mouse_motion(event)
        elif event.type == pygame.MOUSEWHEEL and not self._over_widget(self._mouse):
            self._wheel(event)
        elif event.type == pygame.MOUSEWHEEL:
            self.play.wheel(self._mouse, event.y)
        elif event.type == pygame.KEYDOWN and not self._typing():
            self._key(event)

    def _ui_event(self, event: pygame.event.Event) -> None:
        if self.play.online.ui_event(event):  # its windows answer in any mode
            return
        if self.view.mode == "play" and self.play.handle_ui_event(event):
            return
        if self.view.mode == "setup" and self.setup.ui_event(event):
            return
        # "Save map as…" over a file asks in any mode, and the answer is the adjust mode's
        answer = event.type == pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED
        if (self.view.mode == "adjust" or answer) and self.adjust.ui_event(event):
            return
        if (
            event.type == pygame_gui.UI_BUTTON_PRESSED
            and self.adjust.panel.command(event.ui_element) == "done"
        ):
            self.toggle_adjust()
            return
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            actions = {
                "mode": self.toggle_mode,
                "measure": self.toggle_measure,
                "fit": self.fit,
                "open": self.ask_open,
                "save": self.save_for_mode,
                "png": self.export_png,
                "help": self.toggle_help,
                "adjust": self.toggle_adjust,
                "auto": self.play.toggle_take_single,
                "host": lambda: self._in_play(self.play.online.ask_host),
                "join": lambda: self._in_play(self.play.online.ask_join),
            }
            name = self.top.command(event.ui_element)
            if name is not None:
                actions[name]()
        else:
            self.dialog_event(event)

    def _in_play(self, then: Callable[[], None]) -> None:
        """Host… and Join… act on the game: from setup or adjust mode, play mode first."""
        if self.view.mode != "play":
            self.toggle_mode()
        if self.view.mode == "play":
            then()

    def _saving_key(self, event: pygame.event.Event) -> bool:
        """Ctrl+S (Ctrl+Shift+S), typed in a field of the window; not in a file dialog."""
        ctrl = event.mod & pygame.KMOD_CTRL
        return bool(ctrl) and event.key == pygame.K_s and self._dialog is None

    def _shortcut(self, event: pygame.event.Event) -> bool:
        ctrl = event.mod & pygame.KMOD_CTRL
        shift = event.mod & pygame.KMOD_SHIFT
        playing = self.view.mode == "play"
        adjusting = self.view.mode == "adjust"
        if event.key == pygame.K_F2:
            self.toggle_adjust()
        elif ctrl and adjusting and event.key in (pygame.K_z, pygame.K_y):
            self.adjust.undo() if event.key == pygame.K_z else self.adjust.redo()
        elif ctrl and event.key == pygame.K_s and (shift or not playing):
            self.save()
        elif ctrl and event.key == pygame.K_s:
            self.play.save_game()
        elif ctrl and event.key == pygame.K_z and playing:
            self.play.undo()
        elif ctrl and event.key == pygame.K_y and playing:
            self.play.redo()
        elif ctrl and event.key == pygame.K_r and playing:
            self.play.reset_activation()
        elif ctrl and event.key == pygame.K_o:
            self.ask_open()
        elif event.key == pygame.K_F12 and event.mod & pygame.KMOD_SHIFT:
            self.ask_file("png", "Export the view as PNG", False)
        elif event.key == pygame.K_F12:
            self.export_png()
        elif event.key == pygame.K_F1:
            self.toggle_help()
        else:
            return False
        return True

    def _key(self, event: pygame.event.Event) -> None:
        key = event.key
        arrows = {
            pygame.K_LEFT: (PAN_STEP, 0),
            pygame.K_RIGHT: (-PAN_STEP, 0),
            pygame.K_UP: (0, PAN_STEP),
            pygame.K_DOWN: (0, -PAN_STEP),
        }
        if self.view.mode == "play" and self.play.key(event):
            return
        if self.view.mode == "setup" and self.setup.key(event):
            return
        if self.view.mode == "adjust" and self.adjust.key(event):
            return
        if key in arrows:
            self.view = replace(self.view, camera=self.view.camera.panned(*arrows[key]))
        elif key in (pygame.K_f, pygame.K_HOME):
            self.fit()
        elif key == pygame.K_m:
            self.toggle_measure()
        elif key == pygame.K_TAB:
            self.toggle_mode()
        elif key == pygame.K_ESCAPE:
            self.setup.escape()
            self.adjust.escape()
            self.play.escape()
            self.view = replace(self.view, ruler=None, help_visible=False)
            self.help.show(False)

    def _mouse_down(self, event: pygame.event.Event) -> None:
        pos = tuple(event.pos)
        if event.button in (2, 3):
            self._pan_from = pos
            return
        if event.button != 1:
            return
        self._press = pos
        point = self.world(pos)
        if self.view.tool == "measure":
            snapped, _ = self.index.snap(point, snap_tolerance(self.view.camera))
            ruler = self.view.ruler
            if ruler is None or ruler.done:
                self.view = replace(self.view, ruler=Ruler(snapped, None))
            else:
                self._finish_ruler(Ruler(ruler.start, snapped, done=True))
            return
        unit_id = self.index.unit_at(point)
        if self.view.mode == "setup":
            self.setup.press(point, unit_id)
        elif self.view.mode == "adjust":
            self.adjust.press(point, unit_id, pygame.key.get_mods())
        elif not self.play.press(point, unit_id):
            self.select(unit_id)

    def _mouse_up(self, event: pygame.event.Event) -> None:
        pos = tuple(event.pos)
        if event.button in (2, 3):
            self._pan_from = None
            return
        if event.button != 1:
            return
        press, self._press = self._press, None
        self.play.release()
        moved = press is not None and math.dist(press, pos) > CLICK_SLOP
        ruler = self.view.ruler
        if self.view.tool == "measure" and ruler is not None and not ruler.done and moved:
            snapped, _ = self.index.snap(self.world(pos), snap_tolerance(self.view.camera))
            self._finish_ruler(Ruler(ruler.start, snapped, done=True))
            return
        self.setup.release(self.world(pos), moved)
        self.adjust.release(self.world(pos), moved)

    def _mouse_motion(self, event: pygame.event.Event) -> None:
        pos = tuple(event.pos)
        if self._pan_from is not None:
            dx, dy = pos[0] - self._pan_from[0], pos[1] - self._pan_from[1]
            self._pan_from = pos
            self.view = replace(self.view, camera=self.view.camera.panned(dx, dy))
            return
        point = self.world(pos)
        ruler = self.view.ruler
        if self.view.tool == "measure" and ruler is not None and not ruler.done:
            snapped, _ = self.index.snap(point, snap_tolerance(self.view.camera))
            self.view = replace(self.view, ruler=Ruler(ruler.start, snapped))
        self.setup.drag(point)
        self.adjust.drag(point)
        self.play.drag(point)
        hovered = None if self._over_widget(pos) else self.index.unit_at(point)
        if hovered != self.view.hovered:
            self.view = replace(self.view, hovered=hovered)
            self.play.hover(hovered)
        self._update_card(pos)

    def _wheel(self, event: pygame.event.Event) -> None:
        notches = event.y
        if not notches:
            return
        under = self.index.unit_at(self.world(self._mouse))
        if self.view.mode == "setup" and self.setup.wheel(notches, under):
            return
        if self.view.mode == "adjust" and self.adjust.wheel(notches, under):
            return
        camera = self.view.camera.zoomed(ZOOM_STEP**notches, self._mouse)
        self.view = replace(self.view, camera=camera)

    # ------------------------------------------------------------------ actions

    def resize(self, size: tuple[int, int]) -> None:
        """A new window size: the UI manager follows; a table shown whole is fitted to the
        new window, a zoomed or panned view keeps its centre and scale."""
        size = (max(320, int(size[0])), max(240, int(size[1])))
        if size == self.size:
            return
        fitted = self.view.camera == self.fitted_camera()
        self.size = size
        if self.headless:
            self.screen = pygame.Surface(size)
        else:
            self.screen = pygame.display.get_surface() or pygame.display.set_mode(
                size, pygame.RESIZABLE
            )
            if self.screen.get_size() != size:
                self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        self.manager.set_window_resolution(size)
        camera = self.fitted_camera() if fitted else self.view.camera.resized(size)
        self.view = replace(self.view, camera=camera)
        self._layout()

    def fit(self) -> None:
        self.view = replace(self.view, camera=self.fitted_camera())

    def toggle_mode(self) -> None:
        """Play <-> setup. Setup changes the table before the game; leaving it starts the game
        on the table as set up. Once the game has steps, setup is closed (the game's start is
        part of its save): adjust mode (F2) changes the table at any moment. Tab in adjust
        mode goes back to play."""
        if self.view.mode == "adjust":
            self.toggle_adjust()
            return
        if self.view.mode == "play":
            session = self.play.session
            if session.online:
                self.set_status("a game played with someone elsewhere has no setup here")
                return
            if session.history.length > 0 or self.play.replaying:
                self.set_status(
                    f"setup is over: the game has {session.history.length} step(s); "
                    "F2 adjusts the table at any moment"
                )
                return
            self.play.cancel_move()
            self.view = replace(self.view, mode="setup")
            self.set_state(self.map_state)
        else:
            self.map_state = self.state
            self.view = replace(self.view, mode="play")
            session = self.play.session
            if self.state is not session.game.initial:
                self.play.new_game(Session.new(self.state, self.game_seed, session.autosave))
            else:
                self.play.sync()
        self._show_mode()
        self.setup.update_pose_entries()

    def toggle_adjust(self) -> None:
        """Adjust mode (F2) from play or setup, and back to play."""
        if self.view.mode == "adjust":
            if not self.adjust.leave():
                return
            self.view = replace(self.view, mode="play")
            self.play.sync()
        else:
            if self.view.mode == "setup":
                self.toggle_mode()
                if self.view.mode != "play":
                    return
            if self.play.session.online:
                self.set_status(
                    "an online game takes no adjustments by hand: ask the other player for "
                    "an undo instead"
                )
                return
            if not self.adjust.enter():
                return
            self.view = replace(self.view, mode="adjust")
        self._show_mode()

    def toggle_measure(self) -> None:
        tool = "select" if self.view.tool == "measure" else "measure"
        self.view = replace(self.view, tool=tool, ruler=None)
        self._show_mode()

    def toggle_help(self) -> None:
        visible = not self.view.help_visible
        self.view = replace(self.view, help_visible=visible)
        self.help.show(visible)

    def select(self, unit_id: str | None) -> None:
        self.view = replace(self.view, selected=unit_id)
        self.setup.update_pose_entries()
        if self.view.mode == "play":
            self.play.selection_changed()
        elif self.view.mode == "adjust":
            self.adjust.selection_changed()

    def _finish_ruler(self, ruler: Ruler) -> None:
        self.view = replace(self.view, ruler=ruler)
        self.set_status(
            f'ruler: {ruler.length:.2f}" from ({ruler.start[0]:.2f}, {ruler.start[1]:.2f}) '
            f"to ({ruler.end[0]:.2f}, {ruler.end[1]:.2f})"  # type: ignore[index]
        )

    # ------------------------------------------------------------------ panels

    def refresh_card(self) -> None:
        """Re-word the hover card (after a roll: the result appears on the target's card)."""
        self.card.forget()
        self._update_card(self._mouse)

    def _update_card(self, pos: tuple[int, int]) -> None:
        hovered = self.view.hovered
        if hovered is None:
            self.card.hide()
        else:
            key = (hovered, self.state, self.play.result)
            unit = self.state.unit(hovered)

            def html() -> str:
                status = self.table.tokens.statuses(self.state, self.system).get(hovered)
                roll = self.play.card_lines(hovered)
                hits = tuple(h for h in self.play.last_hits(hovered) if h not in roll)
                name = self.state.shown_names[hovered]
                seen_only = hovered in last_seen(self.state)  # a side's view: where last seen
                return card_html(unit, status, roll, hits, name, seen_only)

            self.card.show(key, html, pos, self.table_area())
        report = self.pair_report
        names = unit_names(self.state, (report.source, report.target) if report else ())
        card = self.card.box.rect if self.card.box.visible else None
        self.pair_panel.show(report, self._moving, pos, self.table_area(), names, card)

    def table_area(self) -> pygame.Rect:
        """The window between the bars and left of the mode's panel: where the cards go."""
        return table_area(self.size, PANEL_WIDTH if self.view.mode == "play" else SIDE_PANEL)

    # ------------------------------------------------------------------ drawing

    def frame(self) -> pygame.Surface:
        """Draw one frame of the table, the mode's overlays and the widgets; returns it."""
        surface = self.screen
        state = self.state
        if self.view.hovered is not None and not state.has_unit(self.view.hovered):
            # the unit pointed at is gone (deleted by hand, undone): so is its card
            self.view = replace(self.view, hovered=None)
            self.play.hover(None)
        if self.view.hovered is None and self.card.box.visible:
            self.card.hide()  # (it stayed up until the pointer moved)
        if self.pair_panel.box.visible and self.pair_report is None:
            self.pair_panel.hide()  # its unit deleted or undone: its numbers go with it
        if self.view.mode == "setup":
            state = self.setup.preview_state(state)
        elif self.view.mode == "adjust":
            state = self.adjust.preview_state(state)
        scene = TableScene(
            state,
            self.system,
            self.setup.deployment,
            moving=self._moving,
            panning=self._pan_from is not None,
            legend=self.play.overlays.scene_legend(state, self.view, self.play.session.side_to_act),
        )
        moved = self.play.moved_state() if self._moving else None

        def pair() -> PairReport | None:
            return self.pair_report if state is self.state else None

        def overlay(surface: pygame.Surface) -> None:
            if self.view.mode == "play":
                self.play.draw(surface)
            elif self.view.mode == "adjust":
                self.adjust.draw(surface)
            elif self.view.mode == "setup":
                self.setup.draw(surface)

        # the unit declaring an attack is the one highlighted, with its arcs and rings
        attacker = self.play.pair_source() if self.view.mode == "play" else None
        shown = replace(self.view, selected=attacker) if attacker else self.view
        self.table.draw(surface, scene, shown, pair, moved, overlay)
        self.manager.draw_ui(surface)
        if self.view.mode == "play":
            self.play.draw_cover(surface)
        return surface

    @property
    def _moving(self) -> bool:
        """A move is being drawn: the selection's arcs are shown where it ends, not here."""
        return self.view.mode == "play" and self.play.move_tool is not None


def run_online(
    session: RemoteSession,
    size: tuple[int, int] = DEFAULT_SIZE,
    server: GameServer | None = None,
    invite: Invite | None = None,
    *,
    headless: bool = False,
) -> int:
    """The play screen on an online game (`tactical join`, `tactical host`): the lines to
    give the other players shown when `invite` is given; returns when the window closes,
    with the server (if this window serves the game) and the link stopped."""
    from tactical.ui.stopping import stop_on_signals

    try:
        app = App(session.game.initial, size, headless=headless, session=session,
                  seed=session.game.seed)  # fmt: skip
    except pygame.error as error:
        session.close()
        if server is not None:
            server.stop()
        raise UserError(f"cannot open a window: {error} (no display?)") from None
    app.play.online.attach(server, invite)
    quit_event = pygame.event.Event(pygame.QUIT)
    try:
        with stop_on_signals(lambda: pygame.event.post(quit_event)):
            return app.run()
    finally:
        app.play.online.close()  # also when the loop ended by an exception
