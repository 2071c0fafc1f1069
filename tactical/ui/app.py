"""The play screen: a pygame-ce window where people set up a table and play a game on it.

`App` owns the window (or an offscreen surface when headless), the pygame_gui
UIManager, the loop, the table shown and which mode is active: `PlayScreen`
(tactical.ui.play_mode, the game over a `Session`), `SetupMode` (tactical.ui.setup_mode,
the table before the game) or `AdjustMode` (tactical.ui.adjust_mode, the table changed by
hand). Each mode owns its panels and input and reaches the window's shared services
(`tactical.ui.services.Services`, which `App` implements) without importing this module.
The window's own parts are objects of their own, reaching it through
`tactical.ui.app_window.Window`: its input (tactical.ui.app_input: which event goes
where), the words under the pointer (tactical.ui.app_hover: the hover card and the pair
panel) and its files: opening, saving, exporting (tactical.ui.window_files). Around them:
the top bar, status line and help (tactical.ui.chrome) and the table picture
(tactical.ui.table_view). Every number shown comes from the model, geometry and rules
layers (`TableGeometry.pair` for the hover numbers, the ruler from table inches).

Drivable by tests: `App(state, size, headless=True)`, then `handle(event)`,
`pump()` (the events pygame_gui posts), `step()` and `frame() -> Surface`.
"""

from __future__ import annotations

import logging
import os
from dataclasses import replace
from pathlib import Path

import pygame
import pygame_gui

from tactical.errors import UserError
from tactical.model import GameState
from tactical.net.client import RemoteSession
from tactical.net.hosting import Invite
from tactical.net.server import GameServer
from tactical.rules import registry
from tactical.rules.base import RuleSystem
from tactical.rules.measuring import PairReport
from tactical.session.controller import Session
from tactical.session.saving import Autosave
from tactical.ui.adjust_mode import AdjustMode
from tactical.ui.app_hover import HoverWords
from tactical.ui.app_input import WindowInput
from tactical.ui.camera import Camera, Margins
from tactical.ui.chrome import (
    HelpOverlay,
    IdlePacer,
    StatusLine,
    TopBar,
)
from tactical.ui.fonts import widget_fonts, widget_theme
from tactical.ui.hover_panels import PairPanel, UnitCard, table_area
from tactical.ui.play_mode import PlayScreen
from tactical.ui.scene import SceneRenderer
from tactical.ui.services import LEGEND_BAND, PANEL_WIDTH, STATUS_BAR, TICK_BAND, TOP_BAR
from tactical.ui.setup_mode import SIDE_PANEL, SetupMode
from tactical.ui.table_view import TableScene, TableView
from tactical.ui.view import ViewState
from tactical.ui.window_files import WindowFiles

# Where an exception escaping the drawing of a frame is logged (the screen shows one line).
EVENT_LOG = logging.getLogger("tactical.ui.events")
DEFAULT_SIZE = (1280, 800)
FPS = 60


def window_title(state: GameState, system: RuleSystem) -> str:
    """The top bar's title: the map's and the rule system's."""
    return f"{state.title or 'untitled map'} · {system.title}"


class App:
    """The play screen over one table; `run()` is the interactive loop. Its parts: `input`,
    `hover` and `files` (see the module docstring)."""

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
        self.files = WindowFiles(self)
        self.hover = HoverWords(self)
        self.input = WindowInput(self, self.files, self.hover)
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
        self.show_mode()
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
        panning = self.input.pan_from is not None
        moving = self.play.busy or panning or self.table.fades.active
        return moving or self.input.typing()

    def handle(self, event: pygame.event.Event) -> None:
        """One event (`WindowInput.handle`: never a traceback)."""
        self.input.handle(event)

    def pump(self) -> None:
        """Handle what is waiting in pygame's queue (pygame_gui posts its events there)."""
        for event in pygame.event.get():
            self.handle(event)

    def step(self, seconds: float = 1 / FPS) -> None:
        self.play.update()
        self.top.show_auto(self.play.session.take_single)
        self.top.show_online(self.play.online.headline())
        self.manager.update(seconds)

    # ------------------------------------------------------------------ the services

    def fitted_camera(self) -> Camera:
        bottom = STATUS_BAR + TICK_BAND + LEGEND_BAND
        right = TICK_BAND + PANEL_WIDTH + 8
        margins = Margins(TICK_BAND, TOP_BAR + TICK_BAND, right, bottom)
        return Camera.fit(self.state.board.bounds, self.size, margins)

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

    def ask_file(self, purpose: str, title: str, existing: bool) -> None:
        """A file dialog; its answer comes back by `purpose` (`WindowFiles.ask_file`)."""
        self.files.ask_file(purpose, title, existing)

    def show_message(self, title: str, message: str) -> None:
        """A message window (`WindowFiles.show_message`)."""
        self.files.show_message(title, message)

    def adopt_map(self, state: GameState, path: Path | None) -> None:
        """The table a game starts from (a new map, an opened save)."""
        self.state = self.map_state = state
        self.system = registry.get(state.rules)
        if path is not None or self.adjust.drafting:
            self.path = path  # a table made from nothing has no file yet
        self.setup.forget_table()
        self.adjust.loaded(self.path)
        self.view = replace(self.view, selected=None, hovered=None, ruler=None, area_rolls=())
        self.top.set_title(window_title(self.state, self.system))
        self.setup.update_pose_entries()

    def map_saved(self, path: Path) -> None:
        """The map now lives at `path` (also after a confirmed overwrite): Ctrl+S saves there."""
        self.path = path

    def refresh_card(self) -> None:
        """Re-word the hover card (after a roll: the result appears on the target's card)."""
        self.hover.refresh(self.input.mouse)

    def table_area(self) -> pygame.Rect:
        """The window between the bars and left of the mode's panel: where the cards go."""
        return table_area(self.size, PANEL_WIDTH if self.view.mode == "play" else SIDE_PANEL)

    # ------------------------------------------------------------------ widgets

    def _layout(self) -> None:
        self.top.layout(self.size)
        self.top.set_title(window_title(self.state, self.system))
        self.status.layout(self.size, PANEL_WIDTH + 8)
        self.setup.layout(self.size)
        self.adjust.layout(self.size)
        self.play.layout()
        self.pair_panel.layout(self.input.mouse, self.table_area())
        self.help.layout(self.size)

    def show_mode(self) -> None:
        """The active mode's panels shown, the others hidden; the top bar says which."""
        mode = self.view.mode
        self.play.show(mode == "play")
        self.setup.show(mode == "setup")
        self.adjust.show(mode == "adjust")
        self.top.show_mode(self.view.mode, self.view.tool == "measure")

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
        self.show_mode()
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
        self.show_mode()

    def toggle_measure(self) -> None:
        tool = "select" if self.view.tool == "measure" else "measure"
        self.view = replace(self.view, tool=tool, ruler=None)
        self.show_mode()

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

    # ------------------------------------------------------------------ drawing

    def frame(self) -> pygame.Surface:
        """Draw one frame of the table, the mode's overlays and the widgets; returns it."""
        surface = self.screen
        self.hover.tidy()  # the unit pointed at is gone (deleted by hand, undone): its card too
        state = self.state
        if self.view.mode == "setup":
            state = self.setup.placing.preview_state(state)
        elif self.view.mode == "adjust":
            state = self.adjust.pointer.preview_state(state)
        scene = TableScene(
            state,
            self.system,
            self.setup.deployment,
            moving=self.hover.moving,
            panning=self.input.pan_from is not None,
            legend=self.play.overlays.scene_legend(state, self.view, self.play.session.side_to_act),
        )
        moved = self.play.moved_state() if self.hover.moving else None

        def pair() -> PairReport | None:
            return self.hover.pair_report if state is self.state else None

        def overlay(surface: pygame.Surface) -> None:
            if self.view.mode == "play":
                self.play.draw(surface)
            elif self.view.mode == "adjust":
                self.adjust.pointer.draw(surface)
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
    from tactical.ui.stopping import run_stoppable

    try:
        app = App(session.game.initial, size, headless=headless, session=session,
                  seed=session.game.seed)  # fmt: skip
    except pygame.error as error:
        session.close()
        if server is not None:
            server.stop()
        raise UserError(f"cannot open a window: {error} (no display?)") from None
    app.play.online.attach(server, invite)
    try:
        return run_stoppable(app)
    finally:
        app.play.online.close()  # also when the loop ended by an exception
