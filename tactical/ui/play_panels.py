"""The phase tracker and the log/history panel of the play screen.

`PhaseTracker` shows where play stands: the turn, every phase of the rule
system's `TurnSequence` with the current one marked (its SPEC id, whether it
alternates), the side to act in its colour, the acting order and who should
have the mouse; its Next button passes the go. `LogPanel` shows the game's log
and the history controls: undo, redo, reset to the start of the activation, a
slider to any step, files and replay (and, while replaying, previous / next /
exit).

Both are driven by the App: `update(...)` with pure values after every change
(nothing is rebuilt when nothing changed), `command(event)` for every
pygame_gui event (a name, or a `LogCommand`, when the event was theirs),
`set_rect` on resize, `kill`. Nothing here names a rule system: everything
comes from `Phase`, `TurnPosition` and the `Session`.

The log is drawn with pygame's own font into an image inside a scrolling
container rather than as a UITextBox: pygame_gui lays out HTML at about 1.5 ms
a line, so a 300-line log took a second to show after every step; rendered
lines are cached, so a new step costs only its own lines.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import pygame
import pygame_gui
from pygame_gui.core import ObjectID
from pygame_gui.elements import (
    UIButton,
    UIHorizontalSlider,
    UIImage,
    UILabel,
    UIPanel,
    UIScrollingContainer,
    UITextBox,
)

from tactical.present.log import LOG_LINES, LogCommand, LogCommandName, log_tail, step_label
from tactical.present.log import wrap_text as wrap_text
from tactical.present.tracker import (
    CURRENT_PHASE_BACK,
    CURRENT_PHASE_TEXT,
    ReplayView,
    TrackerView,
    hex_colour,
    hot_seat_text,
    tracker_html,
)
from tactical.ui import palette
from tactical.ui.fonts import font_path
from tactical.ui.palette import Colour

PAD = 4
ROW = 26  # height of a button row
NEXT_WIDTH = 72
NEXT_TIP = "N: end this side's go (pass)"
STEP_LABEL_WIDTH = 100
FILE_BUTTON_WIDTH = 66
TRACKER_LINE = 20  # pixels per tracker text line (line spacing 1.0 of the 14 px theme font)
TRACKER_TEXT_MARGIN = 20  # the text box's border and padding, top and bottom together
# pygame_gui 0.6.14: a scrolled view exactly this tall has a scroll bar with no track, and
# the bar divides by the track's length
TRACKLESS_SCROLL_VIEW = 46
LOG_FONT_SIZE = 13
LOG_LINE_GAP = 3
LOG_INDENT = 12  # pixels a wrapped line's continuation is indented
LOG_TEXT: Colour = palette.TEXT
LOG_BACK: Colour = (30, 33, 38)
WRAP_CACHE = 1024  # rendered log lines kept (a line is a few kB of pixels)
SCROLL_BAR = 20  # UIScrollingContainer's vertical bar: the log is drawn narrower by it
TRACKER_ID = "#phase_tracker_text"
SIDE_LABEL_ID = "#phase_tracker_side"
PANEL_BORDERS = 6  # a UIPanel's border and shadow, top and bottom together


class _PanelBox:
    """A play panel: a UIPanel at `rect` whose widgets its own `_layout` places."""

    rect: pygame.Rect
    panel: UIPanel

    def set_rect(self, rect: pygame.Rect) -> None:
        self.rect = pygame.Rect(rect)
        self.panel.set_relative_position(self.rect.topleft)
        self.panel.set_dimensions(self.rect.size)
        self._layout()

    def kill(self) -> None:
        self.panel.kill()


class PhaseTracker(_PanelBox):
    """Turn, phases, side to act, order and the Next button (see the module docstring)."""

    def __init__(self, manager: pygame_gui.UIManager, rect: pygame.Rect) -> None:
        self.manager = manager
        self.rect = pygame.Rect(rect)
        self.panel = UIPanel(self.rect, manager=manager)
        self.text = UITextBox(
            "",
            pygame.Rect(0, 0, 10, 10),
            manager,
            container=self.panel,
            object_id=ObjectID(object_id=TRACKER_ID),
        )
        # one line per phase must fit the panel: the theme's 1.25 line spacing wastes a line in four
        self.text.update_theming(json.dumps({"misc": {"line_spacing": "1.0", "padding": "4,1"}}))
        self.side_label = UILabel(
            pygame.Rect(0, 0, 10, ROW),
            " ",
            manager,
            container=self.panel,
            object_id=ObjectID(object_id=SIDE_LABEL_ID),
        )
        self.next_button = UIButton(
            pygame.Rect(0, 0, NEXT_WIDTH, ROW),
            "Next",
            manager,
            container=self.panel,
            tool_tip_text=NEXT_TIP,
        )
        self._next_tip = NEXT_TIP
        self.view: TrackerView | None = None
        self.html = ""
        self.text_builds = 0  # how often the text was laid out again (tests watch it)
        self._side_colour: Colour | None = None
        self._layout()

    def update(
        self, view: TrackerView, *, can_pass: bool = True, pass_refused: str | None = None
    ) -> None:
        """Show `view`; Next is enabled when `can_pass` (not while replaying); its tool tip
        says why a pass is refused now (`pass_refused`: the rules oblige a step first; a
        click says it too). The text is laid out again only when it changed."""
        _enable(self.next_button, can_pass)
        tip = NEXT_TIP if pass_refused is None else f"{NEXT_TIP}. Not now: {pass_refused}"
        if tip != self._next_tip:
            self._next_tip = tip
            self.next_button.set_tooltip(tip)
        if view == self.view:
            return
        self.view = view
        html = tracker_html(view)
        if html != self.html:
            self.html = html
            self.text.set_text(html)
            self.text_builds += 1
            self._show_current_phase()
        winner = view.outcome.winner if view.outcome is not None else None
        colour = view.colour(winner or view.side_to_act)  # once over, the winner's colour
        if colour != self._side_colour:
            self._side_colour = colour
            theming = {
                "colours": {"normal_text": hex_colour(colour)},
                "misc": {"text_horiz_alignment": "left"},
            }
            self.side_label.update_theming(json.dumps(theming))
        room = self.side_label.rect.width - 2 * PAD
        label = hot_seat_text(view, lambda text: self.side_label.font.size(text)[0] <= room)
        if self.side_label.text != label:
            self.side_label.set_text(label)

    def _show_current_phase(self) -> None:
        """Where the text is taller than the panel, scroll it so that the current phase is its
        top line in view (its stage and the order under it)."""
        bar, view = self.text.scroll_bar, self.view
        if bar is not None and bar.scrollable_height > 0 and view is not None:
            # the current phase's line at the top: its stage and the order follow under it
            layout = self.text.text_box_layout
            rows = layout.layout_rows if layout is not None else []
            total = layout.layout_rect.height if layout is not None else 0
            line = view.phase_index + 1  # under the turn's line, one row per phase
            if total > 0 and line < len(rows):
                bar.set_scroll_from_start_percentage(min(1.0, rows[line].y / total))

    def wanted_height(self) -> int:
        """The panel height that shows the whole text without scrolling (after `update`): the
        App's layout may ask, as long phase names wrap."""
        layout = self.text.text_box_layout
        text_height = layout.layout_rect.height if layout is not None else TRACKER_LINE
        return text_height + TRACKER_TEXT_MARGIN + ROW + 3 * PAD + PANEL_BORDERS

    def command(self, event: pygame.event.Event) -> str | None:
        """The name "next" when the event is a press of the Next button, else None."""
        pressed = event.type == pygame_gui.UI_BUTTON_PRESSED
        if pressed and getattr(event, "ui_element", None) is self.next_button:
            return "next"
        return None

    def _layout(self) -> None:
        width, height = _inner_size(self.panel)
        inner = width - 2 * PAD
        button_top = height - PAD - ROW
        size = (inner, max(ROW, button_top - 2 * PAD))
        self.text.set_relative_position((PAD, PAD))
        if self.text.rect.size != size:
            self.text.set_dimensions(size)
            # a resized text box keeps its scroll bar (or its lack of one) until rebuilt
            self.text.rebuild()
            self._show_current_phase()
        self.side_label.set_relative_position((PAD, button_top))
        self.side_label.set_dimensions((max(20, inner - NEXT_WIDTH - PAD), ROW))
        self.next_button.set_relative_position((width - PAD - NEXT_WIDTH, button_top))


# --------------------------------------------------------------------------- the log panel

# button key -> (label, tool tip, command) in play, then while replaying
_PLAY_BUTTONS: dict[str, tuple[str, str, LogCommandName]] = {
    "undo": ("Undo", "Ctrl+Z: undo the last step", "undo"),
    "redo": ("Redo", "Ctrl+Y: redo the step undone", "redo"),
    "reset": ("Reset", "Ctrl+R: back to the start of this activation", "reset"),
    "replay": ("Replay", "replay the game from the start (Page Up / Page Down step)", "replay"),
}
_REPLAY_BUTTONS: dict[str, tuple[str, str, LogCommandName]] = {
    "undo": ("Previous", "Page Up: the replay's previous step", "replay-prev"),
    "redo": ("Next", "Page Down: the replay's next step", "replay-next"),
    "reset": ("Start", "back to the replay's start (or drag the slider)", "goto"),
    "replay": ("Exit replay", "leave the replay, back to the game", "replay-end"),
}
_FILE_BUTTONS: tuple[tuple[str, str, LogCommandName], ...] = (
    ("Log .txt", "export the log as text (tactical-log-N.txt)", "export-text"),
    ("Log .json", "export the log as JSON (tactical-log-N.json)", "export-json"),
)  # the game's Save and Open are the top bar's (Ctrl+S, Ctrl+O): the log keeps its room


@dataclass(frozen=True)
class _Controls:
    """What the panel's controls show: compared whole, so unchanged updates touch nothing."""

    step: int
    length: int
    can_undo: bool
    can_redo: bool
    replay: ReplayView | None


class LogPanel(_PanelBox):
    """The log, the history controls and the file buttons (see the module docstring)."""

    def __init__(
        self,
        manager: pygame_gui.UIManager,
        rect: pygame.Rect,
        *,
        max_lines: int = LOG_LINES,
    ) -> None:
        self.manager = manager
        self.rect = pygame.Rect(rect)
        self.font = log_font()
        self.max_lines = max_lines
        self.panel = UIPanel(self.rect, manager=manager)
        m, c = manager, self.panel
        self.log_area = UIScrollingContainer(
            pygame.Rect(0, 0, 40, 40), m, container=c, allow_scroll_x=False
        )
        blank = pygame.Surface((1, 1), pygame.SRCALPHA)
        self.log_image = UIImage(pygame.Rect(0, 0, 1, 1), blank, m, container=self.log_area)
        self.buttons: dict[str, UIButton] = {}
        for key, (label, tip, _) in _PLAY_BUTTONS.items():
            self.buttons[key] = UIButton(
                pygame.Rect(0, 0, 10, ROW), label, m, container=c, tool_tip_text=tip
            )
        for label, tip, name in _FILE_BUTTONS:
            self.buttons[name] = UIButton(
                pygame.Rect(0, 0, 10, ROW), label, m, container=c, tool_tip_text=tip
            )
        self.slider = UIHorizontalSlider(pygame.Rect(0, 0, 40, ROW), 0, (0, 1), m, container=c)
        self.slider.set_tooltip("drag: undo and redo to any step")
        self.step_text = UILabel(pygame.Rect(0, 0, STEP_LABEL_WIDTH, ROW), " ", m, container=c)
        self.lines: tuple[str, ...] = ()
        self.text_builds = 0  # how often the log picture was drawn again (tests watch it)
        self.controls: _Controls | None = None
        self._rows: OrderedDict[tuple[str, int], tuple[tuple[pygame.Surface, int], ...]] = (
            OrderedDict()
        )
        self._log_width = self._log_height = 0
        self._layout()
        self._show_controls(_Controls(0, 0, False, False, None))

    # ------------------------------------------------------------------ showing

    def update(
        self,
        lines: Sequence[str],
        *,
        step: int,
        length: int,
        can_undo: bool,
        can_redo: bool,
        replay: ReplayView | None = None,
    ) -> None:
        """Show the log `lines` (its last `max_lines`) and the history at `step` of `length`;
        in a replay the controls step through it. Only what changed is redrawn."""
        tail = log_tail(lines, self.max_lines)
        if tail != self.lines:
            self.lines = tail
            self._draw_log()
        self._show_controls(_Controls(step, length, can_undo, can_redo, replay))

    @property
    def replaying(self) -> bool:
        return self.controls is not None and self.controls.replay is not None

    def _show_controls(self, controls: _Controls) -> None:
        if controls == self.controls:
            return
        before = self.controls
        self.controls = controls
        replay = controls.replay
        labels = _REPLAY_BUTTONS if replay is not None else _PLAY_BUTTONS
        if before is None or (before.replay is None) != (replay is None):
            for key, (label, tip, _) in labels.items():
                button = self.buttons[key]
                button.set_text(label)
                button.set_tooltip(tip)
        if replay is not None:
            step, length = replay.step, replay.length
            usable = {
                "undo": step > 0,
                "redo": step < length,
                "reset": step > 0,
                "replay": True,
            }
        else:
            step, length = controls.step, controls.length
            usable = {
                "undo": controls.can_undo,
                "redo": controls.can_redo,
                "reset": controls.can_undo,
                "replay": step > 0,
            }
        for key, enabled in usable.items():
            _enable(self.buttons[key], enabled)
        self.step_text.set_text(step_label(step, length, replay))
        slider = self.slider
        # the slider keeps its range on an empty history: pygame_gui needs two distinct ends
        top = max(1, length)
        if slider.value_range != (0, top):
            slider.value_range = (0, top)
        if not slider.grabbed_slider and slider.current_value != step:
            slider.set_current_value(min(max(step, 0), top), warn=False)
        _enable(slider, length > 0)

    def _draw_log(self) -> None:
        """The log picture: the wrapped lines, scrolled to the end."""
        width = self._log_width
        rows: list[tuple[pygame.Surface, int]] = []
        for line in self.lines:
            rows.extend(self._line_rows(line, width))
        step = self.font.get_linesize() + LOG_LINE_GAP
        height = max(1, len(rows) * step + LOG_LINE_GAP)
        picture = pygame.Surface((max(1, width), height))
        picture.fill(LOG_BACK)
        for index, (row, indent) in enumerate(rows):
            picture.blit(row, (PAD + indent, LOG_LINE_GAP + index * step))
        # a new image rather than set_image: resizing an UIImage smooth-scales the old picture
        # first, which costs more than drawing the log; the picture is opaque, so it is its own
        # premultiplied form
        self.log_image.kill()
        self.log_image = UIImage(
            picture.get_rect(),
            picture,
            self.manager,
            image_is_alpha_premultiplied=True,
            container=self.log_area,
        )
        # back to the top first: a shorter log would otherwise stay scrolled past its end
        self.log_area.scrollable_container.set_relative_position((0, 0))
        self.log_area.set_scrollable_area_dimensions((width, height))
        bar = self.log_area.vert_scroll_bar
        if bar is not None:
            # the end in view; a log shorter than its area from its top (a bar left from a
            # smaller area would otherwise keep it scrolled up out of sight)
            bar.set_scroll_from_start_percentage(1.0 if height > self.log_area.rect.height else 0)
        self.text_builds += 1

    def _line_rows(self, line: str, width: int) -> tuple[tuple[pygame.Surface, int], ...]:
        """A log line as rendered rows and their indents (cached: a new step renders only its
        own lines)."""
        key = (line, width)
        rows = self._rows.get(key)
        if rows is not None:
            self._rows.move_to_end(key)
            return rows
        font = self.font

        def measure(text: str) -> int:
            return font.size(text)[0]

        room = width - 2 * PAD
        first, *rest = wrap_text(line, room, measure)
        more = wrap_text(" ".join(rest), room - LOG_INDENT, measure) if rest else ()
        rows = tuple(
            (font.render(piece, True, LOG_TEXT, LOG_BACK), 0 if index == 0 else LOG_INDENT)
            for index, piece in enumerate((first, *more))
        )
        self._rows[key] = rows
        if len(self._rows) > WRAP_CACHE:
            self._rows.popitem(last=False)
        return rows

    # ------------------------------------------------------------------ events

    def command(self, event: pygame.event.Event) -> LogCommand | None:
        """The panel's reading of a pygame_gui event, or None when it is not the panel's."""
        element = getattr(event, "ui_element", None)
        if element is None or self.controls is None:
            return None
        if event.type == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED and element is self.slider:
            controls = self.controls
            current = controls.replay.step if controls.replay else controls.step
            length = controls.replay.length if controls.replay else controls.length
            wanted = min(max(int(event.value), 0), length)
            return LogCommand("goto", wanted) if wanted != current else None
        if event.type != pygame_gui.UI_BUTTON_PRESSED:
            return None
        labels = _REPLAY_BUTTONS if self.replaying else _PLAY_BUTTONS
        for key, (_, _, name) in labels.items():
            if element is self.buttons[key]:
                return LogCommand(name, 0) if name == "goto" else LogCommand(name)
        for _, _, name in _FILE_BUTTONS:
            if element is self.buttons[name]:
                return LogCommand(name)
        return None

    # ------------------------------------------------------------------ layout

    def kill(self) -> None:
        super().kill()
        self._rows.clear()

    def _layout(self) -> None:
        width, height = _inner_size(self.panel)
        inner = width - 2 * PAD
        slider_top = height - PAD - ROW
        history_top = slider_top - PAD - ROW
        _row(list(self.buttons[k] for k in _PLAY_BUTTONS), PAD, history_top, inner)
        files = [self.buttons[name] for _, _, name in _FILE_BUTTONS]
        files_width = len(files) * (FILE_BUTTON_WIDTH + PAD)
        slider_width = max(40, inner - STEP_LABEL_WIDTH - files_width - PAD)
        self.slider.set_relative_position((PAD, slider_top))
        self.slider.set_dimensions((slider_width, ROW))
        self.step_text.set_relative_position((PAD * 2 + slider_width, slider_top))
        self.step_text.set_dimensions((STEP_LABEL_WIDTH, ROW))
        _row(files, PAD + inner - files_width + PAD, slider_top, files_width - PAD)
        log_height = max(8, history_top - 2 * PAD)
        if log_height == TRACKLESS_SCROLL_VIEW:
            log_height -= 1
        self.log_area.set_relative_position((PAD, PAD))
        self.log_area.set_dimensions((inner, log_height))
        log_width = max(40, inner - SCROLL_BAR)
        if (log_width, log_height) != (self._log_width, self._log_height):
            self._log_width, self._log_height = log_width, log_height
            self._draw_log()


_log_fonts: dict[int, pygame.font.Font] = {}


def log_font(size: int = LOG_FONT_SIZE) -> pygame.font.Font:
    """The widgets' face (the bundled DejaVu Sans) for the log, opened once: pygame_gui's
    own Noto Sans has no arrow, and the log writes "Hull 4/4 → 3/4"."""
    font = _log_fonts.get(size)
    if font is None:
        if not pygame.font.get_init():
            pygame.font.init()
        font = pygame.font.Font(font_path(), size)
        _log_fonts[size] = font
    return font


def _inner_size(panel: UIPanel) -> tuple[int, int]:
    rect = panel.get_container().get_rect()
    return max(60, rect.width), max(60, rect.height)


def _row(buttons: Sequence[UIButton], left: int, top: int, width: int) -> None:
    """Buttons side by side, sharing `width` (the last takes the rounding)."""
    count = len(buttons)
    each = (width - PAD * (count - 1)) // count
    for index, button in enumerate(buttons):
        x = left + index * (each + PAD)
        button.set_relative_position((x, top))
        size = width - (x - left) if index == count - 1 else each
        button.set_dimensions((size, ROW))


def _enable(element: UIButton | UIHorizontalSlider, enabled: bool) -> None:
    if enabled and not element.is_enabled:
        element.enable()
    elif not enabled and element.is_enabled:
        element.disable()


__all__ = [  # the tracker's and the log's words are the presenter's, found here too
    "CURRENT_PHASE_BACK",
    "CURRENT_PHASE_TEXT",
    "LogCommand",
    "LogPanel",
    "PhaseTracker",
    "ReplayView",
    "TrackerView",
    "hex_colour",
    "hot_seat_text",
    "log_tail",
    "step_label",
    "tracker_html",
    "wrap_text",
]
