"""The window's own widgets around the table: the top bar, the status line and the help.

Each lays itself out from the window size (`layout(size)`); none knows a mode.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable, Sequence
from html import escape
from pathlib import Path

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UIPanel, UITextBox
from pygame_gui.windows import UIFileDialog, UIMessageWindow

from tactical.session.deployment import DEPLOYMENT_RULES
from tactical.session.terrain_setup import TERRAIN_RULE
from tactical.ui.fonts import cut_to_fit
from tactical.ui.services import OVERLAY_HEIGHT, PANEL_WIDTH, STATUS_BAR, TOP_BAR

TITLE_WIDTH = 420
TITLE_CHAR_PIXELS = 8  # a generous average glyph width of the theme's 14 px font
HELP_SIZE = (680, 660)
HELP_MARGIN = 10
IDLE_TICK_MS = 500  # idle, the loop wakes this often (tool tips, a blinking cursor)
LISTEN_TICK_MS = 10  # online, this often: what the server sent is drawn at once
SETTLE_SECONDS = 1.5  # full frame rate this long after the last event

BUTTONS = (
    ("mode", "Mode: play", "Tab: switch play / setup mode"),
    ("adjust", "Adjust", "F2: adjust the table at any moment (also mid-game)"),
    ("measure", "Measure", "M: ruler from any point to any point"),
    ("fit", "Fit", "F: fit the table to the window"),
    ("open", "Open", "Ctrl+O: open a map (.toml) or a saved game (.json)"),
    ("save", "Save", "Ctrl+S: save the game (Ctrl+Shift+S: the map)"),
    ("png", "PNG", "F12: export the view as PNG"),
    ("host", "Host…", "serve this game to players elsewhere: the lines they type to join"),
    ("join", "Join…", "join a game served elsewhere: its address and your seat's token"),
    ("help", "Help", "F1: every control"),
    ("auto", "Auto: on", ""),  # the game's "Take forced steps for me" (`show_auto` words it)
)
BUTTON_WIDTHS = {"mode": 130, "host": 64, "join": 64}  # the rest: 80 pixels
AUTO_LABELS = {True: "Auto: on", False: "Auto: off"}
AUTO_TIPS = {
    True: "Take forced steps for me: on. A step that is the only one open (End movement, "
    "Resolve all Break Tests...) is taken at once and logged with why; click to take "
    "every step yourself",
    False: "Take forced steps for me: off. You take every step yourself; click to let the "
    "game take a step that is the only one open",
}

CONTROLS = (
    ("Mouse", ""),
    ("Left click", "select a unit: its actions on the panel; empty table clears"),
    ("Click a ringed unit", "fill the declaration's target (or other unit field)"),
    ("Hover a ringed unit", "its exact odds as a bar chart on the panel"),
    ("Enter / panel button", "declare the action picked (Attack, Move...): dice are seeded"),
    ("Wheel over the form", "scroll a declaration with many fields (the odds keep their size)"),
    ("N / Next", "end this side's go (pass); asks first if a unit can still fire or move"),
    ("Shift+N", "pass without asking"),
    ("Auto (top bar)", "Take forced steps for me: a step that is the only one open is taken"),
    ("Side menus (top right)", "each side: Human, or the computer at random, greedy, search"),
    ("Space / P", "the computer's next action now / its pace: 0.6 s, 2 s, none, Space steps"),
    ("Ctrl+Z / Ctrl+Y", "undo your last decision, with what followed on its own / redo"),
    ("Log slider", "any step, the ones the game took by itself included"),
    ("Ctrl+R", "reset to the start of the activation"),
    ("Move tool", 'drag ahead, W/S ±1" (Shift ±0.1"), A/D turn by the template'),
    ("Move tool: Enter / Esc", "confirm (illegal moves refused with the rule) / cancel"),
    ("Page Up / Page Down", "replay: previous / next step"),
    ("Hover", "unit card; with a unit selected: distances, arcs, LOS, range band"),
    ("K", "adjudication card (PNG) of the selected unit firing on the hovered one"),
    ("R", "reach: every legal end position of the selected unit this activation"),
    ("T", "threat map of the side to act: weapons bearing, expected damage, off"),
    ("Shift+T", "threat map of the other side (each press: the next side)"),
    ("V", "move advice: the selected unit's best ends, damage dealt and taken"),
    ("Right/middle drag, arrows", "pan"),
    ("Wheel", "zoom about the cursor (setup: rotate the unit under the cursor)"),
    ("F / Home", "fit the table to the window"),
    ("M", "measure tool: drag or two clicks; snaps to centres and base edges"),
    ("Esc", "cancel the ruler / drag, close help"),
    ("Tab", "switch play / setup mode (setup only before the first action)"),
    ("F2 / Adjust", "adjust the table at any moment: every change is a step, undone by Ctrl+Z"),
    ("Adjust: drag", 'move a unit or piece to 0.1" (Shift: freely); a corner dot reshapes'),
    ("Adjust: turning handle", "the dot ahead of the selection: drag it to turn it"),
    ("Adjust: Shift+click / Ctrl+click", "add a corner on an edge / remove a corner"),
    ("Adjust: Q / E, wheel", "turn the selection 5° (Shift: 1°)"),
    ("Adjust: Rectangle, Circle", "drag out a new terrain piece of the kind and height chosen"),
    ("Adjust: palette", "pick a class, click the table to place it (Esc stops)"),
    ("Adjust: quick entry", "ruler 12 6 0 places or moves a unit; rect, circle, poly, delete, set"),
    ("Adjust: Delete", "take the selection off the table"),
    ("Setup: drag", "move a unit (companion) or a terrain piece"),
    ("Setup: Q / E", "rotate the selected unit 5° (Shift: 1°)"),
    ("Setup: x, y, heading", "type the exact pose, Enter sets it"),
    ("Setup: Roll / New seed", f"terrain procedure {TERRAIN_RULE} with every area's rolls"),
    ("Setup: Roll-off, edge", f"deployment {DEPLOYMENT_RULES}: zones; drops are checked"),
    ("Host… (top bar)", "serve this game: who plays where, then the lines to give out"),
    ("Join… (top bar)", "join a game served elsewhere: address and token, or watch only"),
    ("Say… (under the log)", "online: one line to the other players, Enter sends it"),
    ("Ctrl+O", "open a map (.toml) or a saved game (.json)"),
    ("Ctrl+S / Ctrl+Shift+S", "save the game (JSON) / save the map (TOML)"),
    ("F12", "export the view as PNG (Shift+F12: choose the file)"),
    ("F1", "this help"),
)


def help_html(result_key: Sequence[tuple[str, str]] = ()) -> str:
    """Every control; then, where the rule system writes its results in codes, what each
    code means (`RuleSystem.result_key`)."""
    rows = "".join(
        f"<b>{escape(key)}</b>  {escape(what)}<br>" if what else "" for key, what in CONTROLS
    )
    codes = "".join(f"<b>{escape(code)}</b>  {escape(what)}<br>" for code, what in result_key)
    if codes:
        codes = "<br><b>Result codes</b> (the odds chart and the log write results so)<br>" + codes
    return "<b>tactical play: controls</b> (F1 closes)<br><br>" + rows + codes


class TopBar:
    """The buttons (mode, measure, fit, files, help) and the map's title."""

    def __init__(self, manager: pygame_gui.UIManager) -> None:
        self.panel = UIPanel(pygame.Rect(0, 0, 10, TOP_BAR), manager=manager)
        self.buttons: dict[str, UIButton] = {}
        left = 4
        for key, label, tip in BUTTONS:
            width = BUTTON_WIDTHS.get(key, 80)
            self.buttons[key] = UIButton(
                pygame.Rect(left, 2, width, 28),
                label,
                manager=manager,
                container=self.panel,
                tool_tip_text=tip or AUTO_TIPS[True],
            )
            left += width + 4
        self._auto = True
        self._start = left + 4  # the title starts after the buttons
        self.title = UILabel(
            pygame.Rect(self._start, 2, TITLE_WIDTH, 28), " ", manager, container=self.panel
        )
        self._title = ""
        self._online = ""  # "hosting on ADDRESS" while online: shown before the title
        self._width = 0

    def layout(self, size: tuple[int, int]) -> None:
        self._width = size[0]
        self.panel.set_relative_position((0, 0))
        self.panel.set_dimensions((size[0], TOP_BAR))
        left = max(self._start, size[0] - TITLE_WIDTH - 8)
        self.title.set_relative_position((left, 2))
        self.title.set_dimensions((max(40, min(TITLE_WIDTH, size[0] - 8 - left)), 28))
        self.set_title(self._title)

    def set_title(self, title: str) -> None:
        """The map's title and rule system, shortened to what the bar has room for."""
        self._title = title
        room = max(8, (min(TITLE_WIDTH, self._width - self._start - 8)) // TITLE_CHAR_PIXELS)
        online = self._online
        if online:  # said whole; the title has what room is left
            room -= len(online) + 3
        shown = title if len(title) <= room else title[: max(0, room - 3)] + "..."
        if online:
            shown = f"{online} · {shown}" if room > 6 else online
        self.title.set_text(shown or " ")

    def show_online(self, words: str) -> None:
        """Where this window's online game is ("hosting on 127.0.0.1:8765"), "" for none."""
        if words != self._online:
            self._online = words
            self.set_title(self._title)

    def show_mode(self, mode: str, measuring: bool) -> None:
        self.buttons["mode"].set_text(f"Mode: {mode}")
        self.buttons["measure"].set_text("Measuring" if measuring else "Measure")

    def show_auto(self, on: bool) -> None:
        """The game's "Take forced steps for me" setting on its toggle."""
        if on != self._auto:
            self._auto = on
            self.buttons["auto"].set_text(AUTO_LABELS[on])
            self.buttons["auto"].set_tooltip(AUTO_TIPS[on])

    def command(self, element: object) -> str | None:
        """The name of the button `element` is, if it is one of ours."""
        for key, button in self.buttons.items():
            if button is element:
                return key
        return None


class StatusLine:
    """One line of text along the bottom of the window."""

    def __init__(self, manager: pygame_gui.UIManager) -> None:
        self.label = UILabel(pygame.Rect(0, 0, 100, STATUS_BAR), " ", manager)

    def layout(self, size: tuple[int, int], right: int = 0) -> None:
        """Along the bottom, left of a column `right` pixels wide (the play panels run down
        to the window's edge)."""
        self.label.set_relative_position((0, size[1] - STATUS_BAR))
        self.label.set_dimensions((max(100, size[0] - right), STATUS_BAR))

    def set_text(self, message: str) -> None:
        """One line: a message longer than the bar is cut with an ellipsis (the log keeps it
        whole, and the tool tip shows it)."""
        shown = message or " "
        font = self.label.font
        room = self.label.rect.width - 16
        if font is not None:
            shown = cut_to_fit(shown, room, lambda text: font.size(text)[0])
        self.label.set_text(shown)
        self.label.set_tooltip(message if shown != (message or " ") else None)


class HelpOverlay:
    """F1: every control, centred over the window (the text box scrolls). Made the first
    time it is shown: a long text box is slow to build, and most windows open without it."""

    def __init__(
        self, manager: pygame_gui.UIManager, result_key: Sequence[tuple[str, str]] = ()
    ) -> None:
        self.manager = manager
        self.result_key = tuple(result_key)  # the rule system's result codes, explained
        self.rect = pygame.Rect(0, 0, *HELP_SIZE)
        self.panel: UIPanel | None = None
        self.box: UITextBox | None = None

    def _build(self, visible: bool) -> None:
        # a panel lifted over the play panels holds the text: a text box lifted on its own
        # leaves its scroll bar under it, unseen
        self.panel = UIPanel(self.rect, OVERLAY_HEIGHT, self.manager, visible=visible)
        inner = self.panel.get_container().get_rect()
        self.box = UITextBox(
            help_html(self.result_key), pygame.Rect(0, 0, inner.width, inner.height), self.manager,
            container=self.panel,
        )  # fmt: skip

    def widgets(self) -> list[UIPanel]:
        return [self.panel] if self.panel is not None else []

    def layout(self, size: tuple[int, int]) -> None:
        """Centred over the table, as tall as it allows; the text scrolls (a text box sizes its
        scroll bar when it is made: one of another size is made again)."""
        room = size[0] - PANEL_WIDTH - 8  # over the table, left of the panels
        if room < HELP_SIZE[0] // 2:
            room = size[0]
        width = max(200, min(HELP_SIZE[0], room - 2 * HELP_MARGIN))
        height = max(120, min(HELP_SIZE[1], size[1] - TOP_BAR - STATUS_BAR - 2 * HELP_MARGIN))
        left = max(0, (room - width) // 2)
        top = max(TOP_BAR, TOP_BAR + (size[1] - TOP_BAR - STATUS_BAR - height) // 2)
        rect = pygame.Rect(left, top, width, height)
        if rect != self.rect:
            self.rect = rect
            if self.panel is not None:
                visible = bool(self.panel.visible)
                self.panel.kill()
                self._build(visible)

    def show(self, visible: bool) -> None:
        if self.panel is None:
            if visible:
                self._build(True)
        elif visible:
            self.panel.show()
        else:
            self.panel.hide()


def file_dialog(
    manager: pygame_gui.UIManager, size: tuple[int, int], title: str, start: Path, existing: bool
) -> UIFileDialog:
    """A file dialog centred in the window, opened at `start`."""
    rect = pygame.Rect(0, 0, min(520, size[0] - 20), min(420, size[1] - 20))
    rect.center = (size[0] // 2, size[1] // 2)
    return UIFileDialog(
        rect, manager, title, initial_file_path=str(start), allow_existing_files_only=existing
    )


def message_window(
    manager: pygame_gui.UIManager, size: tuple[int, int], title: str, message: str
) -> UIMessageWindow:
    """A message centred in the window (a file that cannot be read or written)."""
    rect = pygame.Rect(0, 0, min(520, size[0] - 20), 240)
    rect.center = (size[0] // 2, size[1] // 2)
    return UIMessageWindow(rect, escape(message), manager, window_title=title)


def png_bytes(surface: pygame.Surface) -> bytes:
    """The picture as a PNG file's bytes (pygame.error when it cannot be encoded)."""
    picture = io.BytesIO()
    pygame.image.save(surface, picture, "view.png")
    return picture.getvalue()


class IdlePacer:
    """The loop's events: at once while something moves, else a wait for the next event
    (or a slow tick for the widgets' own timers: tool tips, a blinking cursor) instead of
    drawing 60 frames a second of the same picture. The widgets settle (hover, tool tips)
    at the full rate for a moment after each event.

    While `listening` (an online game: news comes from the network, not as events) the
    wait is short, so that a step played elsewhere is drawn at once; such a wake with no
    event is `idle`: the loop draws only if something came in, or once a slow tick."""

    def __init__(
        self, animating: Callable[[], bool], listening: Callable[[], bool] = lambda: False
    ) -> None:
        self.animating = animating
        self.listening = listening
        self.last_event = time.monotonic()
        self.last_drawn = 0.0
        self.idle = False

    def events(self) -> list[pygame.event.Event]:
        events = pygame.event.get()
        quiet = time.monotonic() - self.last_event
        self.idle = False
        if not events and quiet >= SETTLE_SECONDS and not self.animating():
            listening = self.listening()
            event = pygame.event.wait(LISTEN_TICK_MS if listening else IDLE_TICK_MS)
            if event.type != pygame.NOEVENT:
                events = [event, *pygame.event.get()]
            elif listening:
                self.idle = time.monotonic() - self.last_drawn < IDLE_TICK_MS / 1000
        if events:
            self.last_event = time.monotonic()
        return events

    def drawn(self) -> None:
        """A frame was drawn now."""
        self.last_drawn = time.monotonic()
