"""The play screen: a pygame-ce window where people set up a table and play a game on it.

`App` owns the window (or an offscreen surface when headless), the pygame_gui
UIManager and the loop. Input handlers turn events into new `ViewState` values
and into new immutable `GameState` values through the session and model APIs;
`frame()` draws the model and the view through the shared `SceneRenderer`.
The game itself (turn, choices, moves, odds, rolls, log, saves, replay) is the
`PlayScreen` of tactical.ui.play_mode, over a `Session`.
Every number shown comes from the model, geometry and rules layers
(`TableGeometry.pair` for the hover numbers, the ruler from table inches).

Drivable by tests: `App(state, size, headless=True)`, then `handle(event)`,
`pump()` (the events pygame_gui posts), `step()` and `frame() -> Surface`.
"""

from __future__ import annotations

import logging
import math
import os
import tempfile
from dataclasses import replace
from html import escape
from pathlib import Path

import pygame
import pygame_gui
from pygame_gui.elements import (
    UIButton,
    UIDropDownMenu,
    UILabel,
    UIPanel,
    UITextBox,
    UITextEntryLine,
)
from pygame_gui.windows import UIFileDialog, UIMessageWindow

from tactical.dice import SeededDice
from tactical.errors import UserError
from tactical.geometry.shapes import Pose, normalise_heading
from tactical.io.maps import load_map, save_map
from tactical.model import Circle, GameState, Terrain, Unit
from tactical.physics.overlap import overlapping_pairs
from tactical.rules import registry
from tactical.rules.measuring import PairReport, TableGeometry
from tactical.session.controller import Session
from tactical.session.deployment import (
    DEPLOYMENT_RULES,
    OVERLAP_RULE,
    ROLL_OFF_RULE,
    ZONE_RULE,
    Deployment,
    RollOff,
    choose_edges,
    is_deployed_in,
    roll_off,
)
from tactical.session.saving import Autosave
from tactical.session.terrain_setup import TERRAIN_RULE, seeded_setup
from tactical.ui import palette
from tactical.ui.camera import Camera, Margins
from tactical.ui.draw import text
from tactical.ui.layers import (
    draw_deployment_zone,
    draw_legend,
    highlight_terrain,
    layout_legend,
    legend_entries,
    legend_height,
)
from tactical.ui.play_mode import PANEL_WIDTH, PlayScreen
from tactical.ui.scene import SceneRenderer
from tactical.ui.selection import SelectionView
from tactical.ui.view import Ruler, UnitIndex, ViewState, snap_tolerance, terrain_at

# Where an exception escaping an event handler is logged (the screen shows one line of it).
EVENT_LOG = logging.getLogger("tactical.ui.events")
DEFAULT_SIZE = (1280, 800)
FPS = 60
TOP_BAR = 36
STATUS_BAR = 26
TICK_BAND = 36
SIDE_PANEL = 270
TITLE_WIDTH = 420
TITLE_CHAR_PIXELS = 8  # a generous average glyph width of the theme's 14 px font
OVERLAY_HEIGHT = 20  # pygame_gui layer of the card and the help: above the setup panel
LEGEND_BAND = 40  # pixels kept under the fitted table for the legend
PAN_STEP = 60  # pixels per arrow key press
ZOOM_STEP = 1.15  # per wheel notch
ROTATE_STEP = 5.0  # degrees per Q/E or wheel notch; 1 with Shift
CLICK_SLOP = 4  # pixels a press may move and still be a click
EDGES = ("bottom", "top", "left", "right")
ZONE_ALPHA = 60

CONTROLS = (
    ("Mouse", ""),
    ("Left click", "select a unit: its actions on the panel; empty table clears"),
    ("Click a ringed unit", "fill the declaration's target (or other unit field)"),
    ("Hover a ringed unit", "its exact odds as a bar chart on the panel"),
    ("Enter / Roll", "resolve the declaration with the seeded dice"),
    ("N / Next", "end this side's go (pass); the tracker shows who acts"),
    ("Ctrl+Z / Ctrl+Y", "undo / redo (the log's slider goes to any step)"),
    ("Ctrl+R", "reset to the start of the activation"),
    ("Move tool", 'drag ahead, W/S ±1" (Shift ±0.1"), A/D turn by the template'),
    ("Move tool: Enter / Esc", "confirm (illegal moves refused with the rule) / cancel"),
    ("Page Up / Page Down", "replay: previous / next step"),
    ("Hover", "unit card; with a unit selected: distances, arcs, LOS, range band"),
    ("Right/middle drag, arrows", "pan"),
    ("Wheel", "zoom about the cursor (setup: rotate the unit under the cursor)"),
    ("F / Home", "fit the table to the window"),
    ("M", "measure tool: drag or two clicks; snaps to centres and base edges"),
    ("Esc", "cancel the ruler / drag, close help"),
    ("Tab", "switch play / setup mode (setup only before the first action)"),
    ("Setup: drag", "move a unit (companion) or a terrain piece"),
    ("Setup: Q / E", "rotate the selected unit 5° (Shift: 1°)"),
    ("Setup: x, y, heading", "type the exact pose, Enter sets it"),
    ("Setup: Roll / New seed", f"terrain procedure {TERRAIN_RULE} with every area's rolls"),
    ("Setup: Roll-off, edge", f"deployment {DEPLOYMENT_RULES}: zones; drops are checked"),
    ("Ctrl+O", "open a map (.toml) or a saved game (.json)"),
    ("Ctrl+S / Ctrl+Shift+S", "save the game (JSON) / save the map (TOML)"),
    ("F12", "export the view as PNG (Shift+F12: choose the file)"),
    ("F1", "this help"),
)


class App:
    """The play screen over one table; `run()` is the interactive loop."""

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
        self.manager = pygame_gui.UIManager(size)
        self.manager.preload_fonts(
            [
                {"name": "noto_sans", "point_size": 14, "style": style, "antialiased": "1"}
                for style in ("bold", "italic")
            ]
        )
        self.renderer = SceneRenderer()
        self.clock = pygame.time.Clock()
        self.path = Path(path) if path is not None else None
        self.running = True
        self.top_bar, self.status_bar = TOP_BAR, STATUS_BAR
        self.state = state
        self.system = registry.get(state.rules)
        self.view = ViewState(camera=self.fitted_camera(), mode="play")
        self.seed = 1
        self.game_seed = seed
        self.map_state = state  # the table as set up, before the game's first action
        self._rolloff_count = 0
        self.rolloff: RollOff | None = None
        self.deployment: Deployment | None = None
        self._geometry: tuple[GameState, TableGeometry] | None = None
        self._index: tuple[tuple[Unit, ...], UnitIndex] | None = None
        self._pair: tuple[tuple, PairReport | None] | None = None
        self._base: tuple[GameState, tuple, pygame.Surface] | None = None
        self._composite: tuple[GameState, tuple, pygame.Surface] | None = None
        self._mouse = (size[0] // 2, size[1] // 2)
        self._pan_from: tuple[int, int] | None = None
        self._press: tuple[int, int] | None = None
        self._drag: tuple[str, str, tuple[float, float]] | None = None  # kind, id, grab offset
        self._drag_to: tuple[float, float] | None = None
        self._card_for: str | None = None
        self._dialog: tuple[str, UIFileDialog] | None = None
        self.message: UIMessageWindow | None = None
        self._build_widgets()
        if session is None:
            session = Session.new(state, seed, autosave)
        else:
            self.map_state = session.game.initial
        self.play = PlayScreen(self, session)
        self._layout()
        self._show_mode()
        self.play.sync()

    # ------------------------------------------------------------------ loop

    def run(self) -> int:
        """The interactive loop, capped at FPS; returns when the window closes."""
        while self.running:
            for event in pygame.event.get():
                self.handle(event)
            self.step(self.clock.tick(FPS) / 1000)
            self.frame()
            if not self.headless:
                pygame.display.flip()
        self.play.close()
        return 0

    def pump(self) -> None:
        """Handle what is waiting in pygame's queue (pygame_gui posts its events there)."""
        for event in pygame.event.get():
            self.handle(event)

    def step(self, seconds: float = 1 / FPS) -> None:
        self.play.update()
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
        """The selected unit against the hovered one, or None; while a move is drawn, from
        where that move ends (the numbers `tactical check` gives with the unit moved)."""
        selected, hovered = self.view.selected, self.view.hovered
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
        self._update_pose_entries()

    def set_status(self, message: str) -> None:
        self.view = replace(self.view, status=message)
        self.status.set_text(message or " ")

    def world(self, pos: tuple[int, int]) -> tuple[float, float]:
        return self.view.camera.to_world(*pos)

    # ------------------------------------------------------------------ widgets

    def _build_widgets(self) -> None:
        m = self.manager
        r = pygame.Rect(0, 0, 10, 10)
        self.top = UIPanel(r, manager=m)
        names = [
            ("mode", "Mode: play", "Tab: switch play / setup mode"),
            ("measure", "Measure", "M: ruler from any point to any point"),
            ("fit", "Fit", "F: fit the table to the window"),
            ("open", "Open", "Ctrl+O: open a map (.toml) or a saved game (.json)"),
            ("save", "Save", "Ctrl+S: save the game (Ctrl+Shift+S: the map)"),
            ("png", "PNG", "F12: export the view as PNG"),
            ("help", "Help", "F1: every control"),
        ]
        self.buttons: dict[str, UIButton] = {}
        for i, (key, label, tip) in enumerate(names):
            width = 130 if key == "mode" else 80
            left = 4 + sum(134 if k == "mode" else 84 for k, *_ in names[:i])
            self.buttons[key] = UIButton(
                pygame.Rect(left, 2, width, 28),
                label,
                manager=m,
                container=self.top,
                tool_tip_text=tip,
            )
        self.title = UILabel(pygame.Rect(620, 2, TITLE_WIDTH, 28), " ", m, container=self.top)
        self.status = UILabel(pygame.Rect(0, 0, self.size[0], STATUS_BAR), " ", m)
        self.pair_panel = UITextBox("", pygame.Rect(0, 0, 350, -1), m)  # as tall as its lines
        self.pair_panel.hide()
        self.help = UITextBox(
            self._help_html(), pygame.Rect(0, 0, 640, 520), m, starting_height=OVERLAY_HEIGHT
        )
        self.help.hide()
        # setup panel: terrain, deployment, pose
        self.setup = UIPanel(pygame.Rect(0, 0, SIDE_PANEL, 420), manager=m)
        c = self.setup
        UILabel(pygame.Rect(8, 6, 250, 22), f"Terrain ({TERRAIN_RULE})", m, container=c)
        UILabel(pygame.Rect(4, 32, 48, 28), "Seed", m, container=c)
        self.seed_entry = UITextEntryLine(pygame.Rect(52, 32, 68, 28), m, container=c)
        self.seed_entry.set_text("1")
        self.roll_button = UIButton(pygame.Rect(124, 32, 56, 28), "Roll", m, container=c)
        self.reroll_button = UIButton(
            pygame.Rect(182, 32, 78, 28),
            "New seed",
            m,
            container=c,
            tool_tip_text="re-roll the terrain with the next seed",
        )
        UILabel(pygame.Rect(8, 70, 250, 22), f"Deployment ({DEPLOYMENT_RULES})", m, container=c)
        self.rolloff_button = UIButton(pygame.Rect(8, 96, 90, 28), "Roll-off", m, container=c)
        self.edge_menu = UIDropDownMenu(
            ["edge…", *EDGES], "edge…", pygame.Rect(104, 96, 100, 28), m, container=c
        )
        self.clear_zones = UIButton(pygame.Rect(208, 96, 54, 28), "Free", m, container=c)
        self.rolloff_label = UITextBox("", pygame.Rect(8, 128, 254, 72), m, container=c)
        UILabel(pygame.Rect(8, 204, 254, 22), "Selected unit pose", m, container=c)
        self.pose_entries: dict[str, UITextEntryLine] = {}
        for i, key in enumerate(("x", "y", "heading")):
            UILabel(pygame.Rect(8 + i * 84, 228, 80, 20), key, m, container=c)
            self.pose_entries[key] = UITextEntryLine(
                pygame.Rect(8 + i * 84, 250, 80, 28), m, container=c
            )
        # created last so that it lies over the panels
        # height -1: the card is as tall as its lines (pygame_gui sizes it on each set_text)
        self.card = UITextBox("", pygame.Rect(0, 0, 300, -1), m, starting_height=OVERLAY_HEIGHT)
        self.card.hide()

    def _layout(self) -> None:
        width, height = self.size
        self.top.set_relative_position((0, 0))
        self.top.set_dimensions((width, TOP_BAR))
        self.title.set_relative_position((max(620, width - TITLE_WIDTH - 8), 2))
        self.title.set_text(self._title())
        self.status.set_relative_position((0, height - STATUS_BAR))
        self.status.set_dimensions((width, STATUS_BAR))
        self.setup.set_relative_position((width - SIDE_PANEL - 4, TOP_BAR + 4))
        if hasattr(self, "play"):
            self.play.layout()
        self._place_pair_panel()
        self.help.set_relative_position(((width - 640) // 2, max(TOP_BAR, (height - 520) // 2)))

    def _show_mode(self) -> None:
        setup = self.view.mode == "setup"
        self.play.show(not setup)
        self.buttons["mode"].set_text(f"Mode: {self.view.mode}")
        self.buttons["measure"].set_text("Measuring" if self.view.tool == "measure" else "Measure")
        if setup:
            self.setup.show()
        else:
            self.setup.hide()

    def _title(self) -> str:
        """The map's title and rule system, shortened to what the top bar has room for."""
        title = f"{self.state.title or 'untitled map'} · {self.system.title}"
        room = max(8, (min(TITLE_WIDTH, self.size[0] - 628)) // TITLE_CHAR_PIXELS)
        return title if len(title) <= room else title[: room - 3] + "..."

    def _help_html(self) -> str:
        rows = "".join(
            f"<b>{escape(key)}</b>  {escape(what)}<br>" if what else "" for key, what in CONTROLS
        )
        return "<b>tactical play: controls</b> (F1 closes)<br><br>" + rows

    def _over_widget(self, pos: tuple[int, int]) -> bool:
        widgets = [self.top, self.setup, self.help, self.pair_panel, self.status]
        widgets.extend(self.play.widgets())
        if self._dialog is not None:
            widgets.append(self._dialog[1])
        if self.message is not None and self.message.alive():
            widgets.append(self.message)
        return any(w.visible and w.get_abs_rect().collidepoint(pos) for w in widgets)

    def _typing(self) -> bool:
        entries = [self.seed_entry, *self.pose_entries.values()]
        focused = any(entry.is_focused for entry in entries)
        typing_elsewhere = any(
            isinstance(element, UITextEntryLine) for element in self.manager.get_focus_set() or ()
        )
        return focused or typing_elsewhere or self._dialog is not None

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
        self.set_status(f"error: {text} (logged; the game is unchanged)")

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
        if event.type == pygame.USEREVENT or event.type >= pygame.USEREVENT:
            self._ui_event(event)
        if event.type == pygame.KEYDOWN and not self._typing() and self._shortcut(event):
            return
        consumed = self.manager.process_events(event)
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
        elif event.type == pygame.KEYDOWN and not self._typing():
            self._key(event)

    def _ui_event(self, event: pygame.event.Event) -> None:
        if self.play.handle_ui_event(event):
            return
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            actions = {
                self.buttons["mode"]: self.toggle_mode,
                self.buttons["measure"]: self.toggle_measure,
                self.buttons["fit"]: self.fit,
                self.buttons["open"]: self.ask_open,
                self.buttons["save"]: self.save_for_mode,
                self.buttons["png"]: self.export_png,
                self.buttons["help"]: self.toggle_help,
                self.roll_button: lambda: self.roll_terrain(self._seed_from_entry()),
                self.reroll_button: lambda: self.roll_terrain(self._seed_from_entry() + 1),
                self.rolloff_button: self.do_roll_off,
                self.clear_zones: self.free_placement,
            }
            action = actions.get(event.ui_element)
            if action is not None:
                action()
        elif event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            if event.ui_element is self.edge_menu and event.text in EDGES:
                self.choose_edge(event.text)
        elif event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED:
            if event.ui_element in self.pose_entries.values():
                self.apply_pose_entries()
            elif event.ui_element is self.seed_entry:
                self.roll_terrain(self._seed_from_entry())
        elif event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED and self._dialog is not None:
            purpose, dialog = self._dialog
            if event.ui_element is dialog:
                self._dialog = None
                if dialog.alive():
                    dialog.kill()
                if purpose == "open":
                    self.open_file(event.text)
                elif purpose == "save":
                    self.save(event.text)
                elif purpose == "save-game":
                    self.play.save_game(event.text)
                elif purpose == "png":
                    self.export_png(event.text)
        elif (
            event.type == pygame_gui.UI_WINDOW_CLOSE
            and self._dialog is not None
            and event.ui_element is self._dialog[1]
        ):
            self._dialog = None

    def _shortcut(self, event: pygame.event.Event) -> bool:
        ctrl = event.mod & pygame.KMOD_CTRL
        shift = event.mod & pygame.KMOD_SHIFT
        playing = self.view.mode == "play"
        if ctrl and event.key == pygame.K_s and (shift or not playing):
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
            self._file_dialog("png", "Export the view as PNG", False)
        elif event.key == pygame.K_F12:
            self.export_png()
        elif event.key == pygame.K_F1:
            self.toggle_help()
        else:
            return False
        return True

    def _key(self, event: pygame.event.Event) -> None:
        key = event.key
        shift = bool(event.mod & pygame.KMOD_SHIFT)
        arrows = {
            pygame.K_LEFT: (PAN_STEP, 0),
            pygame.K_RIGHT: (-PAN_STEP, 0),
            pygame.K_UP: (0, PAN_STEP),
            pygame.K_DOWN: (0, -PAN_STEP),
        }
        if self.view.mode == "play" and self._play_key(event):
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
            self._drag = self._drag_to = None
            self.play.escape()
            self.view = replace(self.view, ruler=None, help_visible=False)
            self.help.hide()
        elif key in (pygame.K_q, pygame.K_e) and self.view.mode == "setup":
            step = 1.0 if shift else ROTATE_STEP
            self.rotate_selected(-step if key == pygame.K_q else step)

    def _play_key(self, event: pygame.event.Event) -> bool:
        """The game's keys in play mode: the move tool first, then Next, Roll, replay."""
        play = self.play
        if play.move_key(event):
            return True
        key = event.key
        if key == pygame.K_n:
            play.next_go()
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            play.apply_current()
        elif key == pygame.K_PAGEDOWN and play.replaying:
            play.replay_step(1)
        elif key == pygame.K_PAGEUP and play.replaying:
            play.replay_step(-1)
        else:
            return False
        return True

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
        if self.view.mode == "play" and self.play.press(point):
            return
        unit_id = self.index.unit_at(point)
        if self.view.mode == "play" and unit_id is not None and self.play.click_unit(unit_id):
            return
        self.select(unit_id)
        if self.view.mode == "setup":
            if unit_id is not None:
                unit = self.state.unit(unit_id)
                self._drag = ("unit", unit_id, (unit.x - point[0], unit.y - point[1]))
            else:
                piece = terrain_at(self.state, point)
                if piece is not None:
                    self._drag = ("terrain", piece, point)
            self._drag_to = None

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
        drag, self._drag = self._drag, None
        self._drag_to = None
        if drag is None or not moved:
            return
        kind, item, grab = drag
        point = self.world(pos)
        if kind == "unit":
            self.place_unit(item, (point[0] + grab[0], point[1] + grab[1]))
        else:
            self.move_terrain(item, (point[0] - grab[0], point[1] - grab[1]))

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
        if self._drag is not None:
            self._drag_to = point
        if self.play.dragging:
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
        if self.view.mode == "setup" and under is not None:
            shift = bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)
            self.select(under)
            self.rotate_selected(notches * (1.0 if shift else ROTATE_STEP))
            return
        camera = self.view.camera.zoomed(ZOOM_STEP**notches, self._mouse)
        self.view = replace(self.view, camera=camera)

    # ------------------------------------------------------------------ actions

    def resize(self, size: tuple[int, int]) -> None:
        """A new window size: the UI manager follows, the camera keeps its centre."""
        size = (max(320, int(size[0])), max(240, int(size[1])))
        if size == self.size:
            return
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
        self.view = replace(self.view, camera=self.view.camera.resized(size))
        self._layout()

    def fit(self) -> None:
        self.view = replace(self.view, camera=self.fitted_camera())

    def toggle_mode(self) -> None:
        """Play <-> setup. Setup changes the table before the game; leaving it starts the game
        on the table as set up. Once the game has steps, setup is closed (the game's start is
        part of its save)."""
        if self.view.mode == "play":
            session = self.play.session
            if session.history.length > 0 or self.play.replaying:
                self.set_status(
                    f"setup is over: the game has {session.history.length} step(s); "
                    "undo to step 0 and start anew by opening the map (Ctrl+O)"
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
        self._update_pose_entries()

    def toggle_measure(self) -> None:
        tool = "select" if self.view.tool == "measure" else "measure"
        self.view = replace(self.view, tool=tool, ruler=None)
        self._show_mode()

    def toggle_help(self) -> None:
        visible = not self.view.help_visible
        self.view = replace(self.view, help_visible=visible)
        if visible:
            self.help.show()
        else:
            self.help.hide()

    def select(self, unit_id: str | None) -> None:
        self.view = replace(self.view, selected=unit_id)
        self._update_pose_entries()
        if self.view.mode == "play":
            self.play.selection_changed()

    def _finish_ruler(self, ruler: Ruler) -> None:
        self.view = replace(self.view, ruler=ruler)
        self.set_status(
            f'ruler: {ruler.length:.2f}" from ({ruler.start[0]:.2f}, {ruler.start[1]:.2f}) '
            f"to ({ruler.end[0]:.2f}, {ruler.end[1]:.2f})"  # type: ignore[index]
        )

    def _seed_from_entry(self) -> int:
        try:
            return int(self.seed_entry.get_text().strip())
        except ValueError:
            return self.seed

    def roll_terrain(self, seed: int) -> None:
        """R002.9 with dice and placement seeded from `seed`; every area's rolls shown."""
        avoid = tuple(self.deployment.zones.values()) if self.deployment else ()
        setup = seeded_setup(self.state.board, seed, avoid=avoid)
        self.seed = seed
        self.seed_entry.set_text(str(seed))
        self.set_state(self.state.with_terrain(setup.terrain))
        labels = tuple(
            (area.area, " / ".join(f"{side} {roll}" for side, roll in area.rolls.items()))
            for area in setup.areas
        )
        self.view = replace(self.view, area_rolls=labels)
        self.set_status(f"terrain seed {seed}: {len(setup.terrain)} pieces placed ({TERRAIN_RULE})")

    def do_roll_off(self) -> None:
        """R002.16: 2D6 each, ties re-roll; the dice shown, the winner picks an edge."""
        sides = self.state.sides[:2] if len(self.state.sides) >= 2 else ("A", "B")
        # a fresh, reproducible throw each press: the terrain seed and the press count
        self._rolloff_count += 1
        self.rolloff = roll_off(SeededDice(self.seed * 7919 + self._rolloff_count), sides)
        lines = [
            ", ".join(f"{side} {a}+{b}={a + b}" for side, (a, b) in rnd.dice.items())
            for rnd in self.rolloff.rounds
        ]
        self.rolloff_label.set_text(
            "<br>".join(lines[-2:]) + f" <b>{self.rolloff.winner} picks an edge</b>"
        )
        self.set_status(f"roll-off: {self.rolloff.winner} wins and picks an edge ({ROLL_OFF_RULE})")

    def choose_edge(self, edge: str) -> None:
        if self.rolloff is None:
            self.set_status(f"roll off first: the winner picks the edge ({ROLL_OFF_RULE})")
            return
        sides = tuple(self.rolloff.rounds[0].dice)
        self.deployment = choose_edges(self.state.board, self.rolloff.winner, edge, sides)
        edges = ", ".join(f"{s}: {e}" for s, e in self.deployment.edges.items())
        self.set_status(f"deployment zones {edges}: drag units into their zone ({ZONE_RULE})")

    def free_placement(self) -> None:
        self.deployment = None
        self.set_status("free placement: units move anywhere on the table")

    def place_unit(self, unit_id: str, centre: tuple[float, float], heading: float | None = None):
        """Move a unit (setup); refused with the reason when illegal. True when placed."""
        unit = self.state.unit(unit_id)
        pose = Pose(centre[0], centre[1], unit.heading if heading is None else heading)
        moved = unit.moved_to(pose)
        reason = self.placement_problem(moved)
        if reason:
            self.set_status(f"refused: {reason}")
            return False
        self.set_state(self.state.replace_unit(moved))
        self.set_status(
            f"{unit_id} placed at ({pose.x:.2f}, {pose.y:.2f}) heading {pose.heading:g}°"
        )
        return True

    def placement_problem(self, unit: Unit) -> str:
        """Why `unit` may not stand where it is ("" when it may)."""
        x0, y0, x1, y1 = unit.footprint.bounds
        bx0, by0, bx1, by1 = self.state.board.bounds
        if x0 < bx0 - 1e-9 or y0 < by0 - 1e-9 or x1 > bx1 + 1e-9 or y1 > by1 + 1e-9:
            return f"{unit.id} would stand off the table"
        if self.deployment is None:
            return ""
        zone = self.deployment.zones.get(unit.side)
        if zone is not None and not is_deployed_in(unit, zone):
            return (
                f"{unit.id} is not wholly inside side {unit.side}'s deployment zone "
                f"({zone.edge} edge) [{ZONE_RULE}]"
            )
        units = tuple(unit if u.id == unit.id else u for u in self.state.units)
        clash = overlapping_pairs(units, self.system.los_level, among=(unit.id,))
        if clash:
            a, b = clash[0]
            return f"{a} and {b} would overlap [{OVERLAP_RULE}]"
        return ""

    def rotate_selected(self, degrees: float) -> None:
        unit_id = self.view.selected
        if unit_id is None:
            self.set_status("select a unit to rotate it")
            return
        unit = self.state.unit(unit_id)
        self.place_unit(unit_id, (unit.x, unit.y), normalise_heading(unit.heading + degrees))

    def apply_pose_entries(self) -> None:
        """The typed x, y and heading set the selected unit's exact pose."""
        unit_id = self.view.selected
        if unit_id is None:
            self.set_status("select a unit first, then type its x, y and heading")
            return
        try:
            x, y, heading = (float(self.pose_entries[k].get_text()) for k in ("x", "y", "heading"))
        except ValueError:
            self.set_status("x, y and heading must be numbers (inches, degrees)")
            return
        if not all(math.isfinite(v) for v in (x, y, heading)):
            self.set_status("x, y and heading must be finite numbers")
            return
        self.place_unit(unit_id, (x, y), normalise_heading(heading))

    def _update_pose_entries(self) -> None:
        unit_id = self.view.selected
        if unit_id is None or not self.state.has_unit(unit_id):
            values = ("", "", "")
        else:
            unit = self.state.unit(unit_id)
            values = (f"{unit.x:.2f}", f"{unit.y:.2f}", f"{unit.heading:g}")
        for entry, value in zip(self.pose_entries.values(), values, strict=True):
            if not entry.is_focused:
                entry.set_text(value)

    def move_terrain(self, terrain_id: str, offset: tuple[float, float]) -> bool:
        """Shift a terrain piece by `offset` inches; refused off the table or onto another."""
        moved = shifted_terrain(self.state.terrain_piece(terrain_id), offset)
        bx0, by0, bx1, by1 = self.state.board.bounds
        x0, y0, x1, y1 = moved.geometry.bounds
        if x0 < bx0 or y0 < by0 or x1 > bx1 or y1 > by1:
            self.set_status(f"refused: terrain {terrain_id} would lie off the table")
            return False
        for other in self.state.terrain:
            if other.id != terrain_id and other.geometry.intersects(moved.geometry):
                self.set_status(f"refused: terrain {terrain_id} would overlap {other.id}")
                return False
        terrain: tuple[Terrain, ...] = tuple(
            moved if t.id == terrain_id else t for t in self.state.terrain
        )
        self.set_state(self.state.with_terrain(terrain))
        self.set_status(f"terrain {terrain_id} moved by ({offset[0]:.2f}, {offset[1]:.2f})")
        return True

    # ------------------------------------------------------------------ files

    def ask_open(self) -> None:
        self._file_dialog("open", "Open a map", True)

    def _file_dialog(self, purpose: str, title: str, existing: bool) -> None:
        if self._dialog is not None:
            self._dialog[1].kill()
        start = str(self.path.parent if self.path else Path.cwd())
        rect = pygame.Rect(0, 0, min(520, self.size[0] - 20), min(420, self.size[1] - 20))
        rect.center = (self.size[0] // 2, self.size[1] // 2)
        dialog = UIFileDialog(
            rect, self.manager, title, initial_file_path=start, allow_existing_files_only=existing
        )
        self._dialog = (purpose, dialog)

    def ask_file(self, purpose: str, title: str, existing: bool) -> None:
        self._file_dialog(purpose, title, existing)

    def open_file(self, path: str | os.PathLike[str]) -> bool:
        """A saved game (.json) or a map (anything else)."""
        if Path(path).suffix.lower() == ".json":
            return self.play.open_game(path)
        return self.open_map(path)

    def open_map(self, path: str | os.PathLike[str]) -> bool:
        """Load a map and start a new game on it; a bad one shows the loader's message and
        keeps the current table and game."""
        try:
            state = load_map(path)
            session = Session.new(state, self.game_seed, self.play.session.autosave)
        except UserError as error:
            self.show_message("Cannot open map", error.describe())
            return False
        self.adopt_map(state, Path(path))
        self.view = ViewState(camera=self.fitted_camera(), mode="play")
        self._show_mode()
        self.play.new_game(session)
        self.set_status(f"opened {path}: a new game, seed {self.game_seed}")
        return True

    def adopt_map(self, state: GameState, path: Path | None) -> None:
        """The table a game starts from (a new map, an opened save)."""
        self.state = self.map_state = state
        self.system = registry.get(state.rules)
        if path is not None:
            self.path = path
        self.rolloff = self.deployment = None
        self.view = replace(self.view, selected=None, hovered=None, ruler=None, area_rolls=())
        self.title.set_text(self._title())
        self._update_pose_entries()

    def save_for_mode(self) -> bool:
        """The Save button, as Ctrl+S: the game in play mode, the map in setup mode."""
        if self.view.mode == "play":
            return self.play.save_game()
        return self.save()

    def save(self, path: str | os.PathLike[str] | None = None) -> bool:
        """Save the map to `path`, the current path, or ask for one (a file dialog).

        In play mode the map is the table the game started from: the game's moves and
        the rule system's state belong to the game's save, not to the map."""
        target = Path(path) if path is not None else self.path
        if target is None:
            self._file_dialog("save", "Save the map as", False)
            return False
        table = self.state if self.view.mode == "setup" else self.map_state
        try:
            save_map(table, target)
        except (UserError, OSError) as error:
            message = error.describe() if isinstance(error, UserError) else str(error)
            self.show_message("Cannot save map", message)
            return False
        self.path = target
        self.set_status(f"saved {target}")
        return True

    def export_png(self, path: str | os.PathLike[str] | None = None) -> Path | None:
        """The current view as a PNG (atomic write); a free name in the current folder."""
        if path is None:
            number = 1
            while (target := Path.cwd() / f"tactical-view-{number}.png").exists():
                number += 1
        else:
            target = Path(path)
        if target.suffix.lower() != ".png":
            target = target.with_suffix(target.suffix + ".png")
        surface = self.frame()
        try:
            handle, temporary = tempfile.mkstemp(suffix=".png", dir=target.parent or Path("."))
            os.close(handle)
            pygame.image.save(surface, temporary)
            os.replace(temporary, target)
        except (OSError, pygame.error) as error:
            self.show_message("Cannot export PNG", f"cannot write {target}: {error}")
            return None
        self.set_status(f"wrote {target}")
        return target

    def show_message(self, title: str, message: str) -> None:
        if self.message is not None and self.message.alive():
            self.message.kill()
        rect = pygame.Rect(0, 0, min(520, self.size[0] - 20), 240)
        rect.center = (self.size[0] // 2, self.size[1] // 2)
        self.message = UIMessageWindow(rect, escape(message), self.manager, window_title=title)
        self.set_status(message)

    # ------------------------------------------------------------------ panels

    def refresh_card(self) -> None:
        """Re-word the hover card (after a roll: the result appears on the target's card)."""
        self._card_for = None
        self._update_card(self._mouse)

    def _update_card(self, pos: tuple[int, int]) -> None:
        hovered = self.view.hovered
        if hovered is None:
            if self.card.visible:
                self.card.hide()
            self._card_for = None
            self._update_pair_panel()
            return
        card_key = (hovered, self.state.units, self.play.result)
        if self._card_for != card_key:
            self.card.set_text(self.card_html(self.state.unit(hovered)))
            self._card_for = card_key  # type: ignore[assignment]
        x = min(pos[0] + 18, self.size[0] - 304)
        y = min(pos[1] + 18, self.size[1] - STATUS_BAR - 4 - self.card.rect.height)
        self.card.set_relative_position((max(0, x), max(TOP_BAR, y)))
        if not self.card.visible:
            self.card.show()
        self._update_pair_panel()

    def card_html(self, unit: Unit) -> str:
        """The hover card: name, side, classes and the rule system's stats with their docs."""
        docs = {f.name: f.doc for f in self.system.stats_fields}
        lines = [
            f"<b>{escape(unit.name or unit.id)}</b> ({escape(unit.id)})",
            f"side {escape(unit.side)} · {unit.movement.value} · {unit.size.value}",
            f"at ({unit.x:.2f}, {unit.y:.2f}) heading {unit.heading:g}°",
        ]
        for key, value in unit.stats.items():
            doc = docs.get(key, "")
            shown = value if not isinstance(value, (tuple, list)) else f"{len(value)} entries"
            tail = f" <i>{escape(doc[:60])}</i>" if doc else ""
            lines.append(f"{escape(str(key))}: {escape(str(shown))}{tail}")
        result = self.play.card_lines(unit.id)
        if result:
            lines.append("<b>last roll</b>")
            lines.extend(escape(line) for line in result)
        return "<br>".join(lines)

    def _update_pair_panel(self) -> None:
        report = self.pair_report
        if report is None:
            if self.pair_panel.visible:
                self.pair_panel.hide()
            return
        margins = ", ".join(
            f"{name} {m.value:+.2f}{'°' if m.unit == 'degrees' else chr(34)}"
            for name, m in report.arc_margins
            if math.isfinite(m.value)
        )
        html = "<br>".join(
            [
                f"<b>{escape(report.source)} to {escape(report.target)}</b>"
                + (" <i>where the move ends</i>" if self._moving else ""),
                f'centre {report.centre_distance:.2f}"  edge {report.edge_distance:.2f}"',
                f"bearing {report.bearing:.1f}°  centre arc {escape(report.centre_arc)}",
                f"in arcs: {escape(', '.join(report.arcs) or 'none')}",
                f"margins: {escape(margins or '-')}",
                "LOS clear"
                if report.los
                else f"LOS blocked by {escape(', '.join(report.blocked_by))}",
                f'range {report.distance:.2f}": {escape(report.range_band or "out of range")}',
            ]
        )
        if self.pair_panel.html_text != html:
            self.pair_panel.set_text(html)
            self._place_pair_panel()
        if not self.pair_panel.visible:
            self.pair_panel.show()

    def _place_pair_panel(self) -> None:
        """Bottom left, above the legend: its bottom edge stays put as its height follows
        its lines."""
        bottom = self.size[1] - STATUS_BAR - LEGEND_BAND - 8
        self.pair_panel.set_relative_position((8, bottom - self.pair_panel.rect.height))

    # ------------------------------------------------------------------ drawing

    def frame(self) -> pygame.Surface:
        """Draw one frame of the table, the overlays and the widgets; returns the surface.

        The table with its selection, zones, roll labels and hover pair is kept as one
        picture until the model or the view under it changes; a frame is then a blit,
        the ruler and the widgets.
        """
        surface = self.screen
        state = self._preview_state()
        size = surface.get_size()
        base_key = (
            self.view.camera,
            size,
            self.view.selected,
            self.view.area_rolls,
            self.deployment,
            self.system.id,
            self._moving,
        )
        base = self._base
        if self._pan_from is not None and base is not None and self._pans(base, state, base_key):
            # while the view is dragged, slide the last table picture; redrawn on release
            old = base[1][0]
            offset = (
                round(self.view.camera.origin[0] - old.origin[0]),
                round(self.view.camera.origin[1] - old.origin[1]),
            )
            surface.fill(palette.SURROUND)
            surface.blit(base[2], offset)
            if self.view.mode == "play":
                self.play.draw(surface)
            self._draw_ruler(surface)
            self.manager.draw_ui(surface)
            return surface
        if base is None or base[0] is not state or base[1] != base_key:
            picture = base[2] if base and base[2].get_size() == size else pygame.Surface(size)
            self._draw_table(picture, state)
            self._base = base = (state, base_key, picture)
            self._composite = None
        # the hover pair on a copy of the table, so that hovering never redraws the table
        moved = self.play.moved_state() if self._moving else None
        hover_key = (base_key, self.view.hovered, moved)
        top = self._composite
        if top is None or top[0] is not state or top[1] != hover_key:
            report = self.pair_report if state is self.state else None
            picture = base[2]
            if report is not None:
                picture = picture.copy()
                self._draw_pair(picture, report)
            self._composite = top = (state, hover_key, picture)
        surface.blit(top[2], (0, 0))
        if self.view.mode == "play":
            self.play.draw(surface)
        self._draw_ruler(surface)
        self.manager.draw_ui(surface)
        return surface

    @property
    def _moving(self) -> bool:
        """A move is being drawn: the selection's arcs are shown where it ends, not here."""
        return self.view.mode == "play" and self.play.move_tool is not None

    @staticmethod
    def _pans(base: tuple, state: GameState, key: tuple) -> bool:
        """Whether `key` differs from the cached table's only by where the camera is."""
        old = base[1]
        return (
            base[0] is state
            and old[1:] == key[1:]
            and old[0].scale == key[0].scale
            and old[0].viewport == key[0].viewport
        )

    def _draw_table(self, surface: pygame.Surface, state: GameState) -> None:
        camera = self.view.camera
        view = self.renderer.draw(
            surface, state, camera, self.system, selected=self.view.selected,
            overlay=not self._moving,
        )  # fmt: skip
        if self.deployment is not None:
            colours = palette.side_colours(state.sides)
            for side, zone in self.deployment.zones.items():
                depth = zone.y1 - zone.y0 if zone.edge in ("bottom", "top") else zone.x1 - zone.x0
                tint = (*colours.get(side, (200, 200, 200)), ZONE_ALPHA)
                draw_deployment_zone(surface, camera, state.board, zone.edge, depth, tint)
        self._draw_area_rolls(surface)
        self._draw_legend(surface, state, view)

    def _draw_legend(
        self, surface: pygame.Surface, state: GameState, view: SelectionView | None
    ) -> None:
        """Terrain kinds and heights, sides and the selection's overlays, above the status."""
        colours = palette.side_colours(state.sides)
        width, height = surface.get_size()
        fonts = self.renderer.fonts
        rows = layout_legend(fonts, legend_entries(state, colours, view), width - 2 * TICK_BAND)
        top = height - STATUS_BAR - legend_height(rows) - 4
        surface.fill(palette.SURROUND, (0, top - 4, width, height - top + 4))
        draw_legend(surface, fonts, (TICK_BAND, top), rows)

    def _preview_state(self) -> GameState:
        if self._drag is None or self._drag_to is None:
            return self.state
        kind, item, grab = self._drag
        if kind == "terrain":
            offset = (self._drag_to[0] - grab[0], self._drag_to[1] - grab[1])
            moved = shifted_terrain(self.state.terrain_piece(item), offset)
            return self.state.with_terrain(
                tuple(moved if t.id == item else t for t in self.state.terrain)
            )
        unit = self.state.unit(item)
        pose = Pose(self._drag_to[0] + grab[0], self._drag_to[1] + grab[1], unit.heading)
        return self.state.replace_unit(unit.moved_to(pose))

    def _draw_area_rolls(self, surface: pygame.Surface) -> None:
        if not self.view.area_rolls:
            return
        areas = {area.name: area for area in self.state.board.areas}
        for name, rolls in self.view.area_rolls:
            area = areas.get(name)
            if area is None:
                continue
            centre = self.view.camera.to_screen((area.x0 + area.x1) / 2, (area.y0 + area.y1) / 2)
            label = f"{name}: {rolls}"
            fonts = self.renderer.fonts
            position = (round(centre[0]), round(centre[1]) + 16)
            text(surface, fonts, label, position, 14, palette.TEXT, "center")

    def _draw_pair(self, surface: pygame.Surface, report: PairReport) -> None:
        camera = self.view.camera
        fonts = self.renderer.fonts
        source = self.state.unit(report.source)
        target = self.state.unit(report.target)
        if not report.los and report.blocked_by:
            pieces = [p for p in self.state.terrain if p.id in set(report.blocked_by)]
            highlight_terrain(surface, camera, pieces, palette.BLOCKING_HIGHLIGHT)
        colour = (60, 210, 90) if report.los else (230, 60, 60)
        pygame.draw.line(
            surface,
            colour,
            camera.to_screen(source.x, source.y),
            camera.to_screen(target.x, target.y),
            2,
        )
        witnesses = ((report.edge_witness, (255, 220, 80), -12), (report.witness, None, 12))
        for witness, tint, lift in witnesses:
            if witness is None:
                continue
            start = camera.to_screen(*witness.start)
            end = camera.to_screen(*witness.end)
            pygame.draw.line(surface, tint or (255, 255, 255), start, end, 2)
            middle = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2 + lift)
            label = f'{witness.distance:.2f}"'
            text(surface, fonts, label, (round(middle[0]), round(middle[1])), 14, palette.TEXT)

    def _draw_ruler(self, surface: pygame.Surface) -> None:
        ruler = self.view.ruler
        if ruler is None:
            return
        camera = self.view.camera
        start = camera.to_screen(*ruler.start)
        pygame.draw.circle(surface, (255, 230, 0), start, 4)
        if ruler.end is None:
            return
        end = camera.to_screen(*ruler.end)
        pygame.draw.line(surface, (255, 230, 0), start, end, 2)
        pygame.draw.circle(surface, (255, 230, 0), end, 4)
        middle = (round((start[0] + end[0]) / 2), round((start[1] + end[1]) / 2) - 14)
        text(surface, self.renderer.fonts, f'{ruler.length:.2f}"', middle, 16, (255, 230, 0))


def shifted_terrain(piece: Terrain, offset: tuple[float, float]) -> Terrain:
    """The piece moved by `offset` inches (a new value; the shape is unchanged)."""
    dx, dy = offset
    if piece.circle is not None:
        c = piece.circle
        return replace(piece, circle=Circle(c.x + dx, c.y + dy, c.radius))
    assert piece.polygon is not None
    return replace(piece, polygon=tuple((x + dx, y + dy) for x, y in piece.polygon))
