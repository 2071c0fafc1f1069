"""The phase tracker and the log/history panel of the play screen.

Views are built from real Sessions of the five scenarios advanced by the stand-in player;
the widgets are driven headless with synthetic pygame events and checked on the commands
they return, on their labels and on pixels.
"""

from __future__ import annotations

import html
import re
from dataclasses import replace

import pygame
import pygame_gui
import pytest
from ui_events import pump_commands

from tactical.io.maps import load_map
from tactical.model import FrozenMap
from tactical.rules.base import Phase, Stage
from tactical.session import autoplay
from tactical.session.controller import Session
from tactical.session.history import History
from tactical.ui import palette
from tactical.ui.play_panels import (
    CURRENT_PHASE_BACK,
    CURRENT_PHASE_TEXT,
    LOG_BACK,
    LogCommand,
    LogPanel,
    PhaseTracker,
    ReplayView,
    TrackerView,
    hex_colour,
    hot_seat_text,
    log_tail,
    step_label,
    tracker_html,
    wrap_text,
)

SIZE = (800, 700)
TRACKER_RECT = pygame.Rect(440, 10, 320, 176)
LOG_RECT = pygame.Rect(440, 300, 320, 250)
SCENARIOS = ("battlefleet-mars", "heavy-combat", "dystopian-wars", "cortex-space", "sw-d6-capital")
_sessions: dict[tuple[str, int], Session] = {}


def session_after(name: str, steps: int) -> Session:
    """A session of a scenario after `steps` of the stand-in player (built once per test run),
    each step its own: the steps the game would take by itself are the stand-in's here."""
    key = (name, steps)
    if key not in _sessions:
        session = Session(History.start(load_map(f"maps/{name}.toml"), 1))
        for _ in range(steps):
            following = autoplay.next_game(session.game)
            assert following.last_step is not None
            session.history = session.history.apply(following.last_step.action)
        _sessions[key] = session
    return _sessions[key]


def plain(text: str) -> str:
    """The HTML as read on screen: tags dropped, entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", text.replace("<br>", "\n")))


# ---------------------------------------------------------------------- harness


@pytest.fixture
def manager(display):
    manager = pygame_gui.UIManager(SIZE)
    manager.preload_fonts(
        [
            {"name": "noto_sans", "point_size": 14, "style": style, "antialiased": "1"}
            for style in ("bold", "italic")
        ]
    )
    pygame.event.clear()
    yield manager
    pygame.event.clear()


@pytest.fixture
def tracker(manager):
    widget = PhaseTracker(manager, TRACKER_RECT)
    yield widget
    widget.kill()


@pytest.fixture
def log(manager):
    widget = LogPanel(manager, LOG_RECT)
    yield widget
    widget.kill()


def pump(manager, widget, rounds: int = 3) -> list:
    return pump_commands(manager, widget, rounds)


def click(manager, widget, element) -> list:
    pos = element.get_abs_rect().center
    manager.process_events(
        pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    )
    manager.update(1 / 60)
    manager.process_events(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    manager.update(1 / 60)
    manager.process_events(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    return pump(manager, widget)


def show_session(log: LogPanel, session: Session) -> None:
    log.update(
        session.log_text().splitlines(),
        step=session.step_number,
        length=session.history.length,
        can_undo=session.can_undo,
        can_redo=session.can_redo,
    )


def view_of(session: Session) -> TrackerView:
    return TrackerView.of(session, palette.side_colours(session.state.sides))


# ---------------------------------------------------------------------- the tracker, pure


@pytest.mark.parametrize("name", SCENARIOS)
def test_tracker_view_follows_the_session(name):
    session = session_after(name, 6)
    view = view_of(session)
    assert view.turn == session.turn
    assert view.phases == session.phases
    assert view.phase == session.phase
    assert view.phase_index == session.position.phase
    assert view.side_to_act == session.side_to_act
    assert view.order == session.order
    assert view.passes == session.position.passes
    assert view.steps == session.step_number == 6
    colours = palette.side_colours(session.state.sides)
    assert view.colour(view.side_to_act) == colours[view.side_to_act]
    assert TrackerView.of_game(session.game, colours) == view


@pytest.mark.parametrize("name", SCENARIOS)
def test_tracker_html_names_turn_phases_side_and_order(name):
    session = session_after(name, 4)
    view = view_of(session)
    text = tracker_html(view)
    shown = plain(text).splitlines()
    assert shown[0].startswith(f"Turn {session.turn}") and "step" not in shown[0]
    phase_lines = shown[1 : 1 + len(session.phases)]
    for line, phase in zip(phase_lines, session.phases, strict=True):
        assert phase.name in line
        if phase.spec_id:
            assert phase.spec_id in line
        assert ("in turns" in line) == phase.alternating
    marked = [i for i, line in enumerate(phase_lines) if line.startswith("»")]
    assert marked == [session.position.phase]
    if view.acting:  # the rules' own order, unit by unit (initiative)
        assert shown.pop() == "Units: " + " › ".join(
            ("» " if e.acting else "") + " ".join(p for p in (e.name, e.result) if p)
            for e in view.acting
        )
    assert shown[-1] == "Order: " + " › ".join(session.order)
    colour = hex_colour(palette.side_colours(session.state.sides)[session.side_to_act])
    assert f"<font color={colour}><b>{session.side_to_act}</b></font>" in text
    assert hot_seat_text(view).startswith(f"{session.side_to_act} to act")


def test_tracker_shows_the_rule_systems_stage_under_the_current_phase():
    """A phase played as a sequence of its own (Dystopian Wars' Squadron Activation, R002.28)
    shows its steps under the phase, the current one bold, then its name, rule and facts."""
    session = session_after("dystopian-wars", 12)
    view = view_of(session)
    assert view.stage is not None and view.stage.step is not None
    shown = plain(tracker_html(view)).splitlines()
    current = 1 + session.position.phase
    assert shown[current].startswith("» Squadron Activation Sequence")
    codes, detail = shown[current + 1].strip(), shown[current + 2].strip()
    assert codes == "1 › 2a › 2b › 3a › 3b › 3c › 3d › 4 › 5 › end"
    step = view.stage.step
    facts = " · ".join(f"{k} {v}" for k, v in view.stage.facts.items())
    assert detail == f"{step.code} {step.name} {step.spec_id} · {facts}"
    bold = f"<font color={hex_colour(CURRENT_PHASE_TEXT)}><b>{step.code}</b></font>"
    assert bold in tracker_html(view)
    plain_view = replace(view, stage=None)
    assert len(plain(tracker_html(plain_view)).splitlines()) == len(shown) - 2
    only_facts = replace(view, stage=Stage((), None, FrozenMap({"acting now": ("a", "b")})))
    lines = plain(tracker_html(only_facts)).splitlines()
    assert lines[current + 1].strip() == "acting now a, b"


def test_tracker_marks_the_phase_the_game_moves_to():
    session = session_after("battlefleet-mars", 0)
    names = [p.name for p in session.phases]
    start = plain(tracker_html(view_of(session))).splitlines()
    assert start[1] == f"» {names[0]} {session.phases[0].spec_id}"
    moved = session_after("battlefleet-mars", 2)
    assert moved.position.phase == 1, "two passes end the first phase of this scenario"
    lines = plain(tracker_html(view_of(moved))).splitlines()
    assert lines[2].startswith(f"» {names[1]}")
    assert not lines[1].startswith("»")


def test_tracker_counts_passes_in_an_alternating_phase():
    phases = (Phase("Plan", "R1"), Phase("Fight", "R2", alternating=True))
    view = TrackerView(2, phases, 1, "B", ("A", "B"), 1, 9, (("A", (1, 2, 3)), ("B", (4, 5, 6))))
    first = plain(tracker_html(view)).splitlines()[0]
    assert first == "Turn 2 · 1 pass in a row"
    assert "pass" not in plain(tracker_html(TrackerView(2, phases, 0, "B", ("A", "B"), 1, 9)))
    assert view.colour("C") != view.colour("B") == (4, 5, 6)
    assert hot_seat_text(view, lambda text: len(text) < 10) == "B to act"
    assert hot_seat_text(view) == "B to act: take the mouse"


def test_tracker_escapes_names():
    phases = (Phase("<Orders & plans>", "R<1>"),)
    text = tracker_html(TrackerView(1, phases, 0, "A&B", ("A&B",), 0, 0))
    assert "<Orders" not in text and "&lt;Orders &amp; plans&gt;" in text
    assert "R&lt;1&gt;" in text and "A&amp;B" in text


# ---------------------------------------------------------------------- the tracker widget


def test_tracker_next_button_says_next(manager, tracker):
    tracker.update(view_of(session_after("heavy-combat", 1)))
    assert tracker.next_button.tool_tip_text == "N: end this side's go (pass)"
    assert click(manager, tracker, tracker.next_button) == ["next"]
    tracker.update(view_of(session_after("heavy-combat", 1)), can_pass=False)
    assert not tracker.next_button.is_enabled
    assert click(manager, tracker, tracker.next_button) == []


def test_tracker_update_with_the_same_view_does_not_rebuild(tracker):
    session = session_after("cortex-space", 3)
    tracker.update(view_of(session))
    assert tracker.text_builds == 1
    html_before = tracker.text.html_text
    tracker.update(view_of(session))  # equal, not the same object
    tracker.update(view_of(session))
    assert tracker.text_builds == 1
    assert tracker.text.html_text is html_before
    # later steps: laid out again exactly when the text changes (a phase, a side, passes),
    # not at every step (the step count is the log's)
    changes, shown = 0, html_before
    for steps in range(4, 12):
        view = view_of(session_after("cortex-space", steps))
        tracker.update(view)
        changes += tracker_html(view) != shown
        shown = tracker_html(view)
    assert tracker.text_builds == 1 + changes
    assert 0 < changes < 8, "some steps keep the tracker's text, some change it"


def test_tracker_side_label_is_in_the_side_colour(manager, tracker):
    session = session_after("battlefleet-mars", 0)
    tracker.update(view_of(session))
    label = tracker.side_label
    assert label.text.startswith(f"{session.side_to_act} to act")
    colour = palette.side_colours(session.state.sides)[session.side_to_act]
    manager.update(1 / 60)
    surface = pygame.Surface(SIZE)
    manager.draw_ui(surface)
    area = surface.subsurface(label.get_abs_rect())
    assert _nearest(area, colour) < 40


def _nearest(area: pygame.Surface, colour) -> int:
    """The smallest per-channel distance of any pixel of `area` to `colour`."""
    best = 255
    for x in range(area.get_width()):
        for y in range(area.get_height()):
            pixel = area.get_at((x, y))
            best = min(best, max(abs(pixel[i] - colour[i]) for i in range(3)))
    return best


def _highlight_rows(manager, tracker) -> list[int]:
    manager.update(1 / 60)
    surface = pygame.Surface(SIZE)
    manager.draw_ui(surface)
    box = tracker.text.get_abs_rect()
    rows = []
    for y in range(box.top, box.bottom):
        if any(
            tuple(surface.get_at((x, y)))[:3] == CURRENT_PHASE_BACK
            for x in range(box.left, box.right)
        ):
            rows.append(y)
    return rows


def test_current_phase_is_drawn_highlighted_and_moves_down(manager, tracker):
    tracker.update(view_of(session_after("battlefleet-mars", 0)))
    tracker.set_rect(pygame.Rect(440, 10, 320, tracker.wanted_height()))
    first = _highlight_rows(manager, tracker)
    assert first, "the current phase has its highlight"
    tracker.update(view_of(session_after("battlefleet-mars", 2)))
    second = _highlight_rows(manager, tracker)
    assert second
    # one text line further down: the Launch row, not the Logistics row
    assert 15 <= min(second) - min(first) <= 25


def test_a_short_tracker_scrolls_to_the_current_phase(manager, tracker):
    phases = tuple(Phase(f"Phase {n}", f"R{n}") for n in range(1, 8))
    tracker.set_rect(pygame.Rect(440, 10, 320, 150))
    tracker.update(TrackerView(1, phases, 6, "A", ("A", "B"), 0, 3))
    assert tracker.text.scroll_bar is not None
    assert _highlight_rows(manager, tracker), "the current phase is scrolled into view"


@pytest.mark.parametrize("name", SCENARIOS)
def test_tracker_height_fits_without_scrolling(manager, tracker, name):
    view = view_of(session_after(name, 1))
    tracker.update(view)
    assert tracker.text.scroll_bar is not None or len(view.phases) < 5
    tracker.set_rect(pygame.Rect(440, 10, 320, tracker.wanted_height()))
    manager.update(1 / 60)
    assert tracker.text.scroll_bar is None
    # and less than a line to spare
    layout = tracker.text.text_box_layout.layout_rect.height
    assert 0 < tracker.text.rect.height - layout < 20 + 20


def test_tracker_follows_a_resize(tracker):
    tracker.set_rect(pygame.Rect(20, 30, 300, 220))
    assert tracker.panel.get_abs_rect().topleft == (20, 30)
    button = tracker.next_button.get_abs_rect()
    assert tracker.panel.get_abs_rect().contains(button)
    assert button.bottom > 30 + 220 - 40


# ---------------------------------------------------------------------- the log, pure


def test_step_label_and_tail():
    assert step_label(7, 12) == "step 7 of 12"
    assert step_label(7, 12, ReplayView(3, 5)) == "replay 3 of 5"
    assert log_tail([str(i) for i in range(500)], 300) == tuple(str(i) for i in range(200, 500))
    assert log_tail(["a"], 0) == ()


def test_wrap_text_breaks_at_spaces_and_cuts_long_words():
    def width(text):
        return len(text)

    assert wrap_text("short", 10, width) == ("short",)
    assert wrap_text("one two three four", 9, width) == ("one two", "three", "four")
    assert wrap_text("abcdefghijkl xy", 5, width) == ("abcde", "fghij", "kl xy")
    pieces = wrap_text("#3 roll ship 'fire' d6 = 4 d6 = 5 d6 = 6", 12, width)
    assert all(len(p) <= 12 for p in pieces)
    assert " ".join(pieces) == "#3 roll ship 'fire' d6 = 4 d6 = 5 d6 = 6"


# ---------------------------------------------------------------------- the log widget


def test_log_buttons_give_their_commands(manager, log):
    session = session_after("dystopian-wars", 5)
    log.update(
        session.log_text().splitlines(),
        step=3,
        length=5,
        can_undo=True,
        can_redo=True,
    )
    expected = {
        "undo": "undo",
        "redo": "redo",
        "reset": "reset",
        "replay": "replay",
        "export-text": "export-text",
        "export-json": "export-json",
    }
    for key, name in expected.items():
        assert click(manager, log, log.buttons[key]) == [LogCommand(name)], key
    assert log.buttons["undo"].tool_tip_text.startswith("Ctrl+Z")
    assert log.buttons["redo"].tool_tip_text.startswith("Ctrl+Y")
    assert log.buttons["reset"].tool_tip_text.startswith("Ctrl+R")
    assert all(button.tool_tip_text for button in log.buttons.values())
    assert log.step_text.text == "step 3 of 5"


def test_log_at_the_start_cannot_undo(manager, log):
    session = session_after("sw-d6-capital", 0)
    show_session(log, session)
    assert not log.buttons["undo"].is_enabled
    assert not log.buttons["redo"].is_enabled
    assert not log.buttons["reset"].is_enabled
    assert not log.buttons["replay"].is_enabled
    assert not log.slider.is_enabled
    assert click(manager, log, log.buttons["undo"]) == []
    assert log.step_text.text == "step 0 of 0"
    assert log.buttons["export-text"].is_enabled


def test_log_after_an_undo_can_redo(log):
    session = Session.new(load_map("maps/cortex-space.toml"), 1)
    for _ in range(3):
        session.apply(autoplay.next_game(session.game).last_step.action)
    session.undo()
    show_session(log, session)
    assert log.buttons["undo"].is_enabled and log.buttons["redo"].is_enabled
    assert log.step_text.text == "step 2 of 3"
    assert log.slider.get_current_value() == 2
    assert log.slider.value_range == (0, 3)


def test_slider_arrow_goes_to_the_next_step(manager, log):
    log.update(["#0 start"], step=4, length=9, can_undo=True, can_redo=True)
    assert click(manager, log, log.slider.right_button) == [LogCommand("goto", 5)]
    log.update(["#0 start"], step=5, length=9, can_undo=True, can_redo=True)
    assert click(manager, log, log.slider.left_button) == [LogCommand("goto", 4)]


def test_slider_drag_asks_for_that_step(manager, log, monkeypatch):
    log.update(["#0 start"], step=0, length=10, can_undo=False, can_redo=True)
    handle = log.slider.sliding_button.get_abs_rect()
    track = log.slider.get_abs_rect()
    mouse = [handle.center]
    monkeypatch.setattr(pygame.mouse, "get_pos", lambda: mouse[0])
    manager.update(1 / 60)
    manager.process_events(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=handle.center, button=1))
    commands = []
    for x in range(handle.centerx, track.right - 20, 12):
        mouse[0] = (x, handle.centery)
        manager.process_events(
            pygame.event.Event(pygame.MOUSEMOTION, pos=mouse[0], rel=(12, 0), buttons=(1, 0, 0))
        )
        commands += pump(manager, log, rounds=1)
    manager.process_events(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=mouse[0], button=1))
    commands += pump(manager, log)
    steps = [c.step for c in commands]
    assert commands and all(c.name == "goto" for c in commands)
    assert steps == sorted(steps) and steps[-1] == 10
    assert all(0 < s <= 10 for s in steps)


def test_replay_mode_relabels_the_controls(manager, log):
    log.update(
        ["#0 start"], step=0, length=6, can_undo=False, can_redo=False, replay=ReplayView(2, 6)
    )
    assert log.step_text.text == "replay 2 of 6"
    assert [log.buttons[k].text for k in ("undo", "redo", "reset", "replay")] == [
        "Previous",
        "Next",
        "Start",
        "Exit replay",
    ]
    assert log.buttons["undo"].tool_tip_text.startswith("Page Up")
    assert log.buttons["redo"].tool_tip_text.startswith("Page Down")
    assert click(manager, log, log.buttons["undo"]) == [LogCommand("replay-prev")]
    assert click(manager, log, log.buttons["redo"]) == [LogCommand("replay-next")]
    assert click(manager, log, log.buttons["reset"]) == [LogCommand("goto", 0)]
    assert click(manager, log, log.buttons["replay"]) == [LogCommand("replay-end")]
    assert log.slider.get_current_value() == 2
    log.update(
        ["#0 start"], step=0, length=6, can_undo=False, can_redo=False, replay=ReplayView(6, 6)
    )
    assert not log.buttons["redo"].is_enabled and log.buttons["undo"].is_enabled
    log.update(["#0 start"], step=0, length=6, can_undo=False, can_redo=False)
    assert log.buttons["undo"].text == "Undo"
    assert click(manager, log, log.buttons["replay"]) == []  # nothing played: nothing to replay


def test_log_redraws_only_when_the_lines_change(log):
    session = session_after("heavy-combat", 6)
    builds = log.text_builds
    show_session(log, session)
    assert log.text_builds == builds + 1
    picture = log.log_image.image
    show_session(log, session)
    log.update(
        list(session.log_text().splitlines()), step=6, length=6, can_undo=True, can_redo=False
    )
    assert log.text_builds == builds + 1
    assert log.log_image.image is picture
    show_session(log, session_after("heavy-combat", 7))
    assert log.text_builds == builds + 2


def test_log_keeps_its_last_lines_and_shows_the_end(manager, log):
    lines = [f"#{i} line number {i}" for i in range(1000)]
    log.update(lines, step=0, length=0, can_undo=False, can_redo=False)
    assert log.lines == tuple(lines[-300:])
    manager.update(1 / 60)
    bar = log.log_area.vert_scroll_bar
    assert bar is not None and bar.start_percentage > 0.9
    surface = pygame.Surface(SIZE)
    manager.draw_ui(surface)
    view = log.log_area.get_abs_rect()
    inside = surface.get_at((view.left + 2, view.top + 2))
    assert tuple(inside)[:3] == LOG_BACK


def test_a_shorter_log_is_shown_from_its_top(manager, log):
    log.update(
        [f"#{i} line {i}" for i in range(200)], step=0, length=0, can_undo=False, can_redo=False
    )
    manager.update(1 / 60)
    log.update(["#0 start: the only line"], step=0, length=0, can_undo=False, can_redo=False)
    manager.update(1 / 60)
    assert not log.log_area.vert_scroll_bar_active
    surface = pygame.Surface(SIZE)
    manager.draw_ui(surface)
    view = log.log_area.get_abs_rect()
    top_line = surface.subsurface(pygame.Rect(view.left, view.top, view.width, 22))
    assert _nearest(top_line, palette.TEXT) < 30


def test_a_long_log_shows_its_last_line(manager, log):
    lines = [""] * 200 + ["#200 " + "W" * 12]  # blank above: only the last line can light it
    log.update(lines, step=0, length=0, can_undo=False, can_redo=False)
    for _ in range(2):
        manager.update(1 / 60)
    surface = pygame.Surface(SIZE)
    manager.draw_ui(surface)
    view = log.log_area.get_abs_rect()
    bottom = surface.subsurface(pygame.Rect(view.left, view.bottom - 24, view.width - 24, 24))
    lit = sum(
        1
        for x in range(bottom.get_width())
        for y in range(bottom.get_height())
        if max(tuple(bottom.get_at((x, y)))[:3]) > 180
    )
    assert lit > 60, "the wide last line is drawn at the bottom of the view"


def test_log_panel_squeezed_keeps_the_log_above_the_buttons(log):
    log.set_rect(pygame.Rect(440, 300, 320, 120))
    assert log.log_area.get_abs_rect().bottom <= log.buttons["undo"].get_abs_rect().top


def test_log_text_is_drawn_in_the_panel(manager, log):
    log.update(
        ["#1 Mars: fire", "#1   roll d6 = 6"], step=1, length=1, can_undo=True, can_redo=False
    )
    manager.update(1 / 60)
    surface = pygame.Surface(SIZE)
    manager.draw_ui(surface)
    view = surface.subsurface(log.log_area.get_abs_rect())
    assert _nearest(view, palette.TEXT) < 30


def test_log_wraps_long_lines_inside_the_view(log):
    long = "#9 outcome (R1.2): " + " ".join(f"key{i}=value{i}" for i in range(40))
    log.update([long], step=0, length=0, can_undo=False, can_redo=False)
    rows = log._line_rows(long, log._log_width)
    assert len(rows) > 2
    assert all(row.get_width() + indent <= log._log_width for row, indent in rows)


def test_log_panel_follows_a_resize(log):
    log.set_rect(pygame.Rect(10, 200, 360, 400))
    panel = log.panel.get_abs_rect()
    for button in log.buttons.values():
        assert panel.contains(button.get_abs_rect())
    assert log.log_area.get_abs_rect().height > 250


def test_commands_ignore_other_events(log, tracker):
    other = pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=object())
    assert log.command(other) is None
    assert tracker.command(other) is None
    assert log.command(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_z)) is None


@pytest.mark.parametrize("text", ["→", "×", "±", "°", "…", "—", "·"])
def test_the_log_font_has_a_glyph_for_every_sign_the_log_writes(text):
    """The log reads "Hull 4/4 → 3/4": drawn with pygame_gui's Noto Sans the arrow was the
    missing-glyph box. A sign the font lacks renders exactly like an unassigned code point."""
    from tactical.ui.play_panels import log_font

    pygame.font.init()
    font = log_font()

    def pixels(sign: str) -> tuple:
        surface = font.render(sign, True, (255, 255, 255), (0, 0, 0))
        return surface.get_size(), pygame.image.tobytes(surface, "RGB")

    assert pixels(text) != pixels("\ue000")
