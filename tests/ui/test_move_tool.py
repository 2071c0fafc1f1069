"""The play screen's move tool and its live preview: drafts, keys, drags, texts, pixels.

The tool is driven by synthetic pygame events against the Dystopian Wars map
(terrain, a minimum move, Snaking); the preview function is the session's
`plan_move`, counted so that plan caching can be checked.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace

import pygame
import pytest

from tactical.errors import UserError
from tactical.geometry.movement import Step, StepKind
from tactical.geometry.movement_spec import TurningRules
from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.rules import registry
from tactical.session.movement import plan_move
from tactical.ui.camera import Camera, Margins
from tactical.ui.fonts import shared_fonts
from tactical.ui.move_preview import (
    TONES,
    draw_move_preview,
    end_view_lines,
    handle_points,
    move_card,
    status_tag,
)
from tactical.ui.move_tool import MoveDraft, MoveTool

SIZE = (1280, 720)
BACKGROUND = (0, 0, 0)
COLOUR = (70, 150, 255)


@pytest.fixture(scope="module")
def state():
    return load_map(builtin_map("dystopian-wars"))


@pytest.fixture(scope="module")
def camera(state):
    return Camera.fit(state.board.bounds, SIZE, Margins(20, 20, 20, 20))


class CountingPreview:
    """The session's preview, counting the paths it is asked to plan."""

    def __init__(self, state) -> None:
        self.state = state
        self.calls: list[str] = []

    def __call__(self, unit_id: str, path: str):
        self.calls.append(path)
        return plan_move(self.state, unit_id, path)


def make_tool(state, unit_id: str) -> tuple[MoveTool, CountingPreview]:
    unit = state.unit(unit_id)
    rules = registry.get(state.rules).turning_rules(unit, state.options)
    preview = CountingPreview(state)
    names = {**state.shown_terrain_names, **state.shown_names}
    return MoveTool(unit, rules, preview, names), preview


def keydown(key: int, mod: int = 0) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode="", scancode=0)


def press_keys(tool: MoveTool, *keys: int, mod: int = 0) -> None:
    for key in keys:
        assert tool.key(keydown(key, mod)) is None


def draft(path: str = "") -> MoveDraft:
    steps = tuple(Step(StepKind(t[0]), float(t[1:])) for t in path.split())
    return MoveDraft("u", steps)


# --------------------------------------------------------------------------- MoveDraft


def test_forward_creates_grows_and_snaps_the_trailing_straight():
    d = MoveDraft("u").forward(1).forward(1).forward(0.13)
    assert d.path == "F2.1"
    assert d.turn("P", 45, 45).forward(1).forward(0.5).path == "F2.1 P45 F1.5"


def test_forward_below_zero_becomes_backwards_only_where_allowed():
    assert MoveDraft("u").forward(1).forward(-2.5).path == "B1.5"
    assert MoveDraft("u").forward(1).forward(-2.5, allow_backwards=False).path == ""
    assert MoveDraft("u").forward(-1).forward(1).path == ""  # back to nothing drops the token


def test_set_last_straight_replaces_the_trailing_straight_or_appends_one():
    assert draft("F2 P45 F1").set_last_straight(3.04).path == "F2 P45 F3"
    assert draft("F2 P45").set_last_straight(1.26).path == "F2 P45 F1.3"
    assert draft("F2 P45 F1").set_last_straight(0).path == "F2 P45"
    assert draft("F2").set_last_straight(-0.5).path == "B0.5"


def test_turn_grows_up_to_the_template_then_starts_a_new_use():
    assert draft("F3").turn("P", 5, 45).turn("P", 5, 45).path == "F3 P10"
    assert draft("F3 P40").turn("P", 10, 45).path == "F3 P45 P5"
    assert draft("F3 P45").turn("P", 45, 45).path == "F3 P45 P45"
    assert draft("F3 P45").turn("S", 45, 45).path == "F3 P45 S45"  # the other side: a new token
    assert draft("F3").turn("S", 90, None).path == "F3 S90"  # no template: one token
    assert draft("F3").turn("S", 0, 45).path == "F3" == draft("F3").turn("S", -5, 45).path
    assert draft("F3").turn("S", 0.2, 0.01).path == "F3 S0.1 S0.1"  # never stuck below the snap


def test_turn_side_must_be_port_or_starboard():
    with pytest.raises(UserError, match="port"):
        draft("F3").turn("X", 45, 45)


def test_rotate_pop_and_clear():
    assert draft().rotate(45).rotate(45).path == "C90"
    assert draft().rotate(45).rotate(-45).path == ""
    assert draft().rotate(-30).path == "C-30"
    assert draft("F2 P45 F1").pop().path == "F2 P45"
    assert draft("F2 P45 F1").clear().tokens == ()
    assert draft().pop().path == ""


# --------------------------------------------------------------------------- keys


def test_keys_draw_the_path_by_the_units_template(state):
    tool, _ = make_tool(state, "tribal-1")
    template = tool.rules.max_turn_per_step
    assert template  # the unit turns by a template
    press_keys(tool, pygame.K_w, pygame.K_w, pygame.K_a, pygame.K_w)
    assert tool.draft.path == f"F2 P{template:g} F1"
    press_keys(tool, pygame.K_UP, mod=pygame.KMOD_LSHIFT)
    assert tool.draft.path == f"F2 P{template:g} F1.1"
    press_keys(tool, pygame.K_DOWN, pygame.K_s, mod=pygame.KMOD_SHIFT)
    assert tool.draft.path == f"F2 P{template:g} F0.9"
    press_keys(tool, pygame.K_RIGHT, pygame.K_d, mod=pygame.KMOD_SHIFT)
    assert tool.draft.path == f"F2 P{template:g} F0.9 S10"
    press_keys(tool, pygame.K_BACKSPACE, pygame.K_BACKSPACE, pygame.K_LEFT)
    assert tool.draft.path == f"F2 P{template:g} P{template:g}"
    press_keys(tool, pygame.K_c, pygame.K_c)
    press_keys(tool, pygame.K_c, mod=pygame.KMOD_SHIFT)
    assert tool.draft.path.endswith(f" C{template:g}")


def test_enter_confirms_escape_cancels_and_other_keys_are_not_the_tools(state):
    tool, _ = make_tool(state, "tribal-1")
    assert tool.key(keydown(pygame.K_RETURN)) == "confirm"
    assert tool.key(keydown(pygame.K_KP_ENTER)) == "confirm"
    assert tool.key(keydown(pygame.K_ESCAPE)) == "cancel"
    assert tool.handles_key(keydown(pygame.K_w)) and tool.handles_key(keydown(pygame.K_BACKSPACE))
    assert not tool.handles_key(keydown(pygame.K_n))
    assert tool.key(keydown(pygame.K_n)) is None and tool.draft.path == ""
    save = keydown(pygame.K_s, pygame.KMOD_LCTRL)  # the App's Ctrl+S, not a step back
    assert not tool.handles_key(save) and tool.key(save) is None and tool.draft.path == ""
    up = pygame.event.Event(pygame.KEYUP, key=pygame.K_w, mod=0)
    assert tool.key(up) is None and not tool.handles_key(up) and tool.draft.path == ""


# --------------------------------------------------------------------------- mouse


def test_dragging_the_end_sets_the_straight_from_the_projected_point(state, camera):
    tool, _ = make_tool(state, "tribal-1")  # at (38, 4) heading 0
    unit = tool.unit
    assert tool.press((unit.x, unit.y), camera)
    tool.drag((unit.x + 0.8, unit.y + 3.04))  # sideways wander is projected away
    assert tool.draft.path == "F3"
    tool.drag((unit.x - 2.0, unit.y + 5.96))
    assert tool.draft.path == "F6"
    tool.release()
    assert not tool.dragging
    tool.drag((unit.x, unit.y + 1))  # not held: nothing happens
    assert tool.draft.path == "F6"


def test_dragging_after_a_turn_measures_along_the_new_heading(state, camera):
    tool, _ = make_tool(state, "tribal-1")
    press_keys(tool, *[pygame.K_w] * 4, pygame.K_d)
    end = tool.plan.path.end
    assert math.isclose(end.heading, tool.rules.max_turn_per_step)
    assert tool.press((end.x, end.y), camera)
    radians = math.radians(end.heading)
    tool.drag((end.x + 2.5 * math.sin(radians), end.y + 2.5 * math.cos(radians)))
    assert tool.draft.path == "F4 S45 F2.5"
    tool.drag((end.x, end.y))  # back to the turn: the straight goes
    assert tool.draft.path == "F4 S45"


def test_a_press_off_the_handles_is_not_the_tools(state, camera):
    tool, _ = make_tool(state, "tribal-1")
    assert not tool.press((tool.unit.x + 10, tool.unit.y + 10), camera)
    assert not tool.dragging and tool.draft.path == ""


def test_turn_handles_sit_left_and_right_and_add_a_template_turn(state, camera):
    tool, _ = make_tool(state, "tribal-1")
    press_keys(tool, *[pygame.K_w] * 4)
    handles = tool.handles(camera)
    end = tool.plan.path.end
    assert handles["end"] == pytest.approx(camera.to_screen(end.x, end.y))
    # heading 0 is up the screen: port is to the left, starboard to the right, level with it
    assert handles["port"][0] < handles["end"][0] < handles["starboard"][0]
    assert handles["port"][1] == pytest.approx(handles["end"][1])
    assert tool.press(camera.to_world(*handles["port"]), camera)
    assert tool.draft.path == f"F4 P{tool.rules.max_turn_per_step:g}"
    assert not tool.dragging
    assert tool.handles(camera) == handle_points(camera, tool.plan.path.end)


# --------------------------------------------------------------------------- plans


def test_the_plan_is_asked_once_per_distinct_path(state):
    tool, preview = make_tool(state, "tribal-1")
    assert tool.plan is None and preview.calls == []
    press_keys(tool, pygame.K_w)
    for _ in range(5):
        assert tool.plan is not None
        tool.status()
        tool.problem()
    assert preview.calls == ["F1"]
    press_keys(tool, pygame.K_w, pygame.K_s)  # F2 then back to F1: F1 is cached
    assert tool.plan.path.distance == 1
    tool.draft = tool.draft.forward(1)
    assert tool.plan.path.distance == 2
    tool.draft = tool.draft.forward(-1)
    assert tool.plan.path.distance == 1
    assert preview.calls == ["F1", "F2"]


def test_minimum_move_not_met_is_refused_with_R002_30(state):
    tool, _ = make_tool(state, "tribal-1")
    minimum = tool.rules.min_straight_before_turn
    assert minimum == 4
    press_keys(tool, pygame.K_w, pygame.K_w, pygame.K_a)
    problem = tool.problem()
    assert problem.startswith("R002.30 (step 2): P45")
    assert 'Minimum Move of 4"' in problem and 'has moved 2"' in problem
    status = tool.status()
    assert status.startswith("F2 P45 — ILLEGAL")
    assert 'min 4" not met (R002.30)' in status and "✗ R002.30" in status
    press_keys(tool, pygame.K_BACKSPACE, pygame.K_w, pygame.K_w, pygame.K_a)
    assert tool.draft.path == "F4 P45"
    assert tool.problem() is None
    assert 'min 4" met (R002.30)' in tool.status() and "legal" in tool.status()


def test_collision_stop_against_terrain_names_the_piece_and_where(state):
    tool, _ = make_tool(state, "attacker-1")  # at (25, 3), heading 0: the fog bank lies ahead
    press_keys(tool, *[pygame.K_w] * 7)
    plan = tool.plan
    assert plan.collision is not None and plan.collision.id == "fog-bank"
    assert plan.distance == pytest.approx(6.8, abs=0.01)
    status = tool.status()
    assert 'stops: collides with Fog bank during F7 at x 25.00", y 9.80"' in status
    assert '6.8" of 9"' in status
    assert tool.problem() is None  # a collision stop is not a violation


def test_snaking_turns_are_warned_with_R002_34(state):
    tool, _ = make_tool(state, "tribal-1")
    press_keys(tool, *[pygame.K_w] * 4, pygame.K_a, pygame.K_d)
    assert tool.draft.path == "F4 P45 S45"
    status = tool.status()
    assert "Snaking: Treacherous Terrain test for each of S45 (step 3) (R002.34)" in status
    assert tool.problem() is None


def test_past_the_maximum_distance_cites_GEO002_8(state):
    tool, _ = make_tool(state, "tribal-1")
    press_keys(tool, *[pygame.K_w] * 12)
    assert tool.problem() == 'GEO002.8: the path moves 12", past the unit\'s 8" of movement'
    status = tool.status()
    assert '12.0" of 8"' in status and "✗ GEO002.8" in status


def test_status_and_problem_before_a_path_and_for_a_path_that_does_not_parse(state):
    tool, _ = make_tool(state, "tribal-1")
    assert "no path" in tool.status() and tool.problem() == "no path drawn yet"
    tool.draft = MoveDraft("tribal-1", (Step(StepKind.CENTRE, 400.0),))
    assert tool.plan is None
    assert "C400" in tool.problem() and "C400" in tool.status()


def test_status_tag_reads_distance_of_maximum_and_minimum_move(state):
    plan = plan_move(state, "ruler", "F4")
    assert status_tag(plan) == '4.0" of 6" · min 3" met (R002.30)'
    short = plan_move(state, "ruler", "F2")
    assert status_tag(short) == '2.0" of 6" · min 3" not yet met (R002.30)' and short.legal
    assert status_tag(plan_move(state, "ruler", "B2")) == '2.0" of 6"'  # no minimum backwards


# --------------------------------------------------------------------------- pixels


def _surface():
    surface = pygame.Surface(SIZE)
    surface.fill(BACKGROUND)
    return surface


def test_preview_draws_the_ghost_at_the_final_pose_and_tints_the_swept_area(state, camera):
    plan = plan_move(state, "tribal-1", "F4 S45 F2")
    unit = state.unit("tribal-1")
    surface = _surface()
    draw_move_preview(surface, camera, plan, unit, shared_fonts(), COLOUR)
    final = plan.final
    # the ghost: filled in the unit's colour off its heading marker, at the final pose
    ghost = surface.get_at([round(v) for v in camera.to_screen(*final.to_world(0.3, -0.8))])[:3]
    assert ghost != BACKGROUND and ghost[2] > ghost[0] and ghost[2] > 100
    # the swept area along the first straight: tinted, fainter than the ghost
    swept = surface.get_at([round(v) for v in camera.to_screen(unit.x + 0.3, unit.y + 2.2)])[:3]
    assert swept != BACKGROUND and swept[2] > swept[0] and swept[2] < ghost[2]
    # far off the path nothing is drawn
    assert surface.get_at([round(v) for v in camera.to_screen(10, 30)])[:3] == BACKGROUND


def test_preview_marks_the_collision_stop_and_is_cached_per_plan_and_camera(state, camera):
    plan = plan_move(state, "attacker-1", "F7")
    unit = state.unit("attacker-1")
    surface = _surface()
    shapes = draw_move_preview(surface, camera, plan, unit, shared_fonts(), COLOUR)
    assert shapes.stop is not None and shapes.stop[1] == "stop: fog-bank"
    x, y = shapes.stop[0]
    bow = camera.to_screen(plan.final.x, plan.final.y + unit.base.length / 2)
    assert (x, y) == pytest.approx(bow)
    assert surface.get_at((round(x), round(y)))[:3] != BACKGROUND
    assert shapes.dashes  # the rest of the F7 beyond the stop, dashed
    again = draw_move_preview(_surface(), camera, plan, unit, shared_fonts(), COLOUR)
    assert again is shapes
    moved = draw_move_preview(_surface(), camera.panned(5, 0), plan, unit, shared_fonts(), COLOUR)
    assert moved is not shapes


def test_preview_labels_turns_and_marks_snaking_ones(state, camera):
    plan = plan_move(state, "tribal-1", "F4 P45 S45")
    shapes = draw_move_preview(
        _surface(), camera, plan, state.unit("tribal-1"), shared_fonts(), COLOUR
    )
    assert [(label, warn) for _, label, warn in shapes.turns] == [
        ("P45°", False),
        ("S45° test", True),
    ]
    assert shapes.tag == status_tag(plan)


def test_the_base_at_the_path_end_is_a_handle_too(state, camera):
    tool, _ = make_tool(state, "ruler")  # a 4" long battleship at (30, 4.5), heading 0
    near_bow = (tool.unit.x, tool.unit.y + 1.8)  # on the base, away from the centre handle
    assert math.dist(camera.to_screen(*near_bow), tool.handles(camera)["end"]) > 12
    assert tool.press(near_bow, camera)
    tool.drag((near_bow[0], near_bow[1] + 3.0))  # grabbed off-centre: no jump on the grab
    assert tool.draft.path == "F3"


def test_turn_handles_stay_clear_of_a_large_base_when_zoomed_in(state):
    tool, _ = make_tool(state, "ruler")
    close = Camera.centred_on((tool.unit.x, tool.unit.y), (640, 360), 60.0, SIZE)
    handles = tool.handles(close)
    half_beam_px = close.pixels(tool.unit.base.width / 2)
    assert handles["starboard"][0] - handles["end"][0] > half_beam_px
    assert handles["end"][0] - handles["port"][0] > half_beam_px


def test_a_collision_rule_published_with_the_turning_rules_is_cited(state):
    @dataclass(frozen=True, slots=True)
    class RulesWithCollision(TurningRules):
        collision_rule: str = "R002.35"

    def published(unit_id: str, path: str):
        plan = plan_move(state, unit_id, path)
        values = {f.name: getattr(plan.rules, f.name) for f in fields(plan.rules)}
        return replace(plan, rules=RulesWithCollision(**values))

    plain, _ = make_tool(state, "attacker-1")
    press_keys(plain, *[pygame.K_w] * 7)
    assert "(R002.35)" not in plain.status()  # not published by the rules today: not invented
    tool = MoveTool(plain.unit, plain.rules, published, plain.names)
    press_keys(tool, *[pygame.K_w] * 7)
    assert 'stops: collides with Fog bank during F7 at x 25.00", y 9.80" (R002.35)' in (
        tool.status()
    )


def test_a_ram_stops_the_move_and_is_named(state, camera):
    tool, _ = make_tool(state, "fighter-1")  # fighter-2 sits an inch to starboard
    press_keys(tool, pygame.K_d, pygame.K_d, pygame.K_w)
    plan = tool.plan
    assert plan.collision is not None and plan.collision.kind == "ram"
    assert tool.draft.path == "S45 S45 F1"
    assert 'stops: rams Fighter Plane 2 during F1 at x 59.29", y 7.71"' in tool.status()
    shapes = draw_move_preview(_surface(), camera, plan, tool.unit, shared_fonts(), COLOUR)
    assert shapes.stop[1] == "stop: fighter-2"


def test_report_gives_each_line_its_tone(state):
    """The panel card's lines: verdict green or red, stops and Snaking amber, violations red."""
    tool, _ = make_tool(state, "tribal-1")
    assert tool.report()[0][1] == "info"  # nothing drawn yet
    press_keys(tool, pygame.K_w, pygame.K_w, pygame.K_a)
    report = tool.report()
    assert report[0] == ("F2 P45 — ILLEGAL", "bad")
    assert [tone for text, tone in report if text.startswith("✗ R002.30")] == ["bad"]
    press_keys(tool, pygame.K_BACKSPACE, pygame.K_w, pygame.K_w, pygame.K_a, pygame.K_d)
    report = tool.report()
    assert report[0] == ("F4 P45 S45 — legal", "ok")
    assert [tone for text, tone in report if text.startswith("Snaking")] == ["warn"]
    assert tool.status() == " · ".join(text for text, _ in report)


def test_move_card_draws_the_lines_in_their_tones_and_wraps_them():
    fonts = shared_fonts()
    long = '✗ GEO002.8: the path moves 12", past the unit\'s 8" of movement ' * 2
    card = move_card([("F12 — ILLEGAL", "bad"), (long, "bad")], (200, 120), fonts)
    colours = {card.get_at((x, y))[:3] for x in range(200) for y in range(120)}
    assert TONES["bad"] in colours and TONES["ok"] not in colours
    rows_with_ink = {
        y for x in range(6, 194) for y in range(120) if card.get_at((x, y))[:3] == TONES["bad"]
    }
    assert max(rows_with_ink) - min(rows_with_ink) > 3 * 15  # the long line took several rows
    legal = move_card([("F4 — legal", "ok")], (200, 120), fonts)
    assert TONES["ok"] in {legal.get_at((x, y))[:3] for x in range(200) for y in range(40)}


# --------------------------------------------------------------------------- on the play screen


def _app_drawing_a_move():
    """The Dystopian Wars scenario on the play screen, its first move drawn F3 S45 F1."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parents[1]))
    from ui_events import key, settle
    from ui_play_driver import pick_row, play_step, select_on_table

    from tactical.session.controller import Session
    from tactical.ui.app import App

    scenario = load_map(builtin_map("dystopian-wars"))
    app = App(scenario, (1280, 800), headless=True, session=Session.new(scenario, 11))
    number = 0
    while not any(app.play.can_draw(c) for c in app.play.actions.choices):
        number += 1
        play_step(app, number)
    choice = next(c for c in app.play.actions.choices if app.play.can_draw(c))
    select_on_table(app, choice.actor)
    pick_row(app, choice)
    for code in (pygame.K_w, pygame.K_w, pygame.K_w, pygame.K_d, pygame.K_w):
        key(app, code)
    settle(app, 2)
    return app


def test_the_arcs_rings_and_sight_lines_are_drawn_where_the_move_ends_not_where_it_starts():
    app = _app_drawing_a_move()
    tool = app.play.move_tool
    assert tool.draft.path == "F3 S45 F1"
    unit = app.state.unit(tool.unit.id)
    end = tool.plan.final
    view = app.play.end_view(tool)
    # the arcs are the unit's at the end pose: the same as for the unit standing there
    system = registry.get(app.state.rules)
    moved = app.state.replace_unit(unit.moved_to(end))
    from tactical.present.selection import selection_view

    assert view.arcs == selection_view(moved, system, unit.id, sight_lines=False).arcs
    assert view.arcs != selection_view(app.state, system, unit.id, sight_lines=False).arcs
    # the lines of sight from there: what `tactical check` would say with the unit moved
    there = selection_view(moved, system, unit.id)
    assert view.sight_lines == there.sight_lines and view.sight_lines
    assert all(line.start == (end.x, end.y) for line in view.sight_lines)
    app.play.moves.dragging = True  # while the end is dragged, no table is measured again
    assert app.play.end_view(tool).sight_lines == ()
    app.play.moves.dragging = False
    # hovering another unit: the numbers from where the move ends
    other = next(u for u in app.state.units if u.id != unit.id and u.side != unit.side)
    from ui_events import move

    from tactical.rules.measuring import TableGeometry

    move(app, app.view.camera.to_screen(other.x, other.y))
    assert app.view.hovered == other.id
    expected = TableGeometry.of(moved, system).pair(unit.id, other.id)
    assert app.hover.pair_report == expected
    assert app.hover.pair_report != TableGeometry.of(app.state, system).pair(unit.id, other.id)
    assert "where the move ends" in app.pair_panel.box.html_text
    # the path row shows the drawn path; the card and Move are on the panel
    panel = app.play.actions
    drawn = next(row for row in panel._rows if row.kind == "drawn")
    assert drawn.widget.text == "F3 S45 F1" and panel.roll_button.text == "Move"
    # the start pose's overlay is gone from the table, the end pose's lines are drawn
    frame = app.frame()
    lines = end_view_lines(view, app.view.camera, app.state.board)
    table = pygame.Rect(app.view.camera.screen_rect(app.state.board.bounds))
    colours = {colour for colour, _ in lines}
    hits, inside = 0, 0
    for _, points in lines:
        for x, y in points[:: max(1, len(points) // 8)]:
            if table.inflate(-4, -4).collidepoint(x, y):
                inside += 1
                near = {tuple(frame.get_at((round(x) + dx, round(y) + dy)))[:3]
                        for dx in (-1, 0, 1) for dy in (-1, 0, 1)}  # fmt: skip
                hits += bool(near & colours)
    assert inside > 20 and hits >= inside * 0.8  # the rest lie under units and labels
    # a point 10" ahead of the start pose: tinted by the fore arc once the move is cancelled
    ahead = app.view.camera.to_screen(*unit.pose.to_world(0.0, 10.0))
    ahead = (round(ahead[0]), round(ahead[1]))
    moving = tuple(frame.get_at(ahead))
    key_escape = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="")
    app.handle(key_escape)
    assert app.play.move_tool is None
    assert tuple(app.frame().get_at(ahead)) != moving
    app.play.close()
