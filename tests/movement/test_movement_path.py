"""Paths as data and their rule checks: GEO002.8, R002.11-R002.13, R002.30-R002.32, R002.34."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tactical.errors import UserError
from tactical.geometry.movement import (
    Rotation,
    Step,
    StepKind,
    Translation,
    format_path,
    parse_path,
    pivot_point,
    plan_path,
)
from tactical.geometry.movement_spec import Pivot, TurningRules
from tactical.geometry.shapes import CircleBase, Pose, RectBase

HULL = RectBase(2.0, 4.0)  # 2" wide, 4" long
DW = TurningRules(
    pivot=Pivot.SIDE_CENTRE,
    max_turn_per_step=45.0,
    max_distance=12.0,
    min_straight_before_turn=2.0,
    max_backwards=2.0,
    snaking_straight=1.0,
    disengage_rotation=90.0,
)
FREE = TurningRules(snaking_straight=1.0, max_turn_per_step=45.0, pivot=Pivot.SIDE_CENTRE)
START = Pose(10.0, 10.0, 0.0)
R2 = math.sqrt(0.5)


def rules_ids(plan) -> list[str]:
    return [v.rule for v in plan.violations]


def close(pose: Pose, x: float, y: float, heading: float) -> None:
    assert pose.x == pytest.approx(x, abs=1e-9)
    assert pose.y == pytest.approx(y, abs=1e-9)
    assert pose.heading == pytest.approx(heading, abs=1e-9)


# --------------------------------------------------------------------------- parsing


def test_parse_every_token_kind():
    steps = parse_path("F3 B1.5, P45 S30 C90 C-90 f.5")
    assert steps == (
        Step(StepKind.FORWARD, 3.0),
        Step(StepKind.BACKWARD, 1.5),
        Step(StepKind.PORT, 45.0),
        Step(StepKind.STARBOARD, 30.0),
        Step(StepKind.CENTRE, 90.0),
        Step(StepKind.CENTRE, -90.0),
        Step(StepKind.FORWARD, 0.5),
    )
    assert format_path(steps) == "F3 B1.5 P45 S30 C90 C-90 F0.5"


def test_parse_accepts_separate_arguments_and_unit_marks():
    assert parse_path(["F3", "P45°", 'F2"']) == parse_path("F3 P45 F2")


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("F3 X2", "'X2' not understood"),
        ("", "is empty"),
        ("F", "'F' not understood"),
        ("F-2", "takes no sign"),
        ("P0", "greater than 0"),
        ("C0", "not 0"),
        ("S400", "more than a full circle"),
        ("F3 P45 banana", "'banana' not understood"),
    ],
)
def test_bad_paths_give_one_clear_message(path, words):
    with pytest.raises(UserError) as caught:
        parse_path(path)
    message = caught.value.describe()
    assert words in message
    assert "\n" not in message


# --------------------------------------------------------------------------- hand-computed moves


def test_straight_move_geo002_8():
    """GEO002.8: F3 from (10, 10) heading 0 ends at (10, 13), 3" moved."""
    plan = plan_path(START, HULL, parse_path("F3"), DW)
    close(plan.end, 10.0, 13.0, 0.0)
    assert plan.distance == 3.0
    assert plan.legal


def test_straight_move_follows_heading():
    plan = plan_path(Pose(0, 0, 90), HULL, parse_path("F2 B1"), TurningRules())
    close(plan.end, 1.0, 0.0, 90.0)
    assert plan.distance == 3.0


def test_naval_turns_about_the_side_centre_r002_11():
    """R002.11: P45 pivots on the mid-length point of the port side."""
    port = plan_path(START, HULL, parse_path("F2 P45"), DW)
    assert port.steps[1].motion.pivot == pytest.approx((9.0, 12.0))
    close(port.end, 9.0 + R2, 12.0 + R2, 315.0)
    starboard = plan_path(START, HULL, parse_path("F2 S45"), DW)
    assert starboard.steps[1].motion.pivot == pytest.approx((11.0, 12.0))
    close(starboard.end, 11.0 - R2, 12.0 + R2, 45.0)
    assert port.legal and starboard.legal
    assert port.distance == 2.0  # turns pivot: no movement used


def test_armoured_turns_about_the_front_corner_r002_12():
    """R002.12: P45 pivots on the front-port corner (9, 14) of a base at (10, 12)."""
    rules = TurningRules(pivot=Pivot.FRONT_CORNER, max_turn_per_step=45.0)
    plan = plan_path(START, HULL, parse_path("F2 P45"), rules)
    assert plan.steps[1].motion.pivot == pytest.approx((9.0, 14.0))
    close(plan.end, 9.0 + 3 * R2, 14.0 - R2, 315.0)


def test_aerial_turns_about_the_front_of_the_flight_stand_r002_13():
    """R002.13: a round stand of radius 1 pivots on its rim 45° off the bow to port."""
    rules = TurningRules(pivot=Pivot.STAND_FRONT, max_turn_per_step=45.0)
    stand = CircleBase(2.0)
    plan = plan_path(START, stand, parse_path("F2 P45"), rules)
    assert plan.steps[1].motion.pivot == pytest.approx((10.0 - R2, 12.0 + R2))
    close(plan.end, 10.0 + 1.0 - R2, 12.0 + R2, 315.0)


def test_stand_length_sets_the_flight_stand_size():
    point = pivot_point(START, HULL, Pivot.STAND_FRONT, 1, stand_length=2.0)
    assert point == pytest.approx((10.0 + 2 * R2, 10.0 + 2 * R2))


def test_centre_pivot_turns_in_place():
    plan = plan_path(START, HULL, parse_path("P30 S75"), TurningRules())
    close(plan.end, 10.0, 10.0, 45.0)


# --------------------------------------------------------------------------- rules


def test_turn_over_the_template_is_refused_geo002_8():
    """GEO002.8 / R002.34: one use of the 45° template; P90 is a violation, P45 P45 is not."""
    plan = plan_path(START, HULL, parse_path("F2 P90"), DW)
    assert rules_ids(plan) == ["GEO002.8"]
    assert plan.violations[0].step == 1
    two = plan_path(START, HULL, parse_path("F2 P45 P45"), DW)
    assert two.legal
    assert two.end.heading == pytest.approx(270.0)
    assert not two.snaking


def test_turn_before_the_minimum_move_is_refused_r002_30():
    """R002.30: the Minimum Move (2") straight ahead before ANY turn."""
    plan = plan_path(START, HULL, parse_path("F1.5 S45 F1"), DW)
    assert rules_ids(plan) == ["R002.30"]
    assert '2"' in plan.violations[0].message
    assert plan_path(START, HULL, parse_path("F1 F1 S45"), DW).legal


def test_minimum_move_only_binds_before_a_turn_r002_30():
    assert plan_path(START, HULL, parse_path("F1"), DW).legal


def test_backwards_at_most_2_inches_x002_3():
    """X002.3 / R002.31: a backwards move of 3" is illegal; 2.5" too; 2" is fine."""
    assert rules_ids(plan_path(START, HULL, parse_path("B3"), DW)) == ["R002.31"]
    assert rules_ids(plan_path(START, HULL, parse_path("B2.5"), DW)) == ["R002.31"]
    assert plan_path(START, HULL, parse_path("B2"), DW).legal


def test_backwards_may_turn_without_the_minimum_move_r002_31():
    plan = plan_path(START, HULL, parse_path("B1 S30 B1"), DW)
    assert plan.legal
    assert plan.distance == 2.0


def test_backwards_move_cannot_also_go_forwards_r002_31():
    plan = plan_path(START, HULL, parse_path("F2 B1"), DW)
    assert rules_ids(plan) == ["R002.31"]


def test_backwards_forbidden_when_the_unit_cannot():
    rules = TurningRules(allow_backwards=False)
    assert rules_ids(plan_path(START, HULL, parse_path("B1"), rules)) == ["R002.31"]


def test_disengage_rotates_about_the_centre_as_the_whole_move_r002_32():
    """R002.32: up to 90° about the centre as the complete move."""
    plan = plan_path(START, HULL, parse_path("C90"), DW)
    assert plan.legal and plan.disengage
    close(plan.end, 10.0, 10.0, 90.0)
    assert plan_path(START, HULL, parse_path("C-45 C-45"), DW).legal
    assert rules_ids(plan_path(START, HULL, parse_path("C100"), DW)) == ["R002.32"]
    mixed = plan_path(START, HULL, parse_path("F2 C45"), DW)
    assert rules_ids(mixed) == ["R002.32"]
    assert not mixed.disengage


def test_a_move_past_the_units_movement_is_refused():
    plan = plan_path(START, HULL, parse_path("F8 S45 F5"), DW)
    assert rules_ids(plan) == ["GEO002.8"]
    assert "13" in plan.violations[0].message


def test_minimum_total_distance_when_boosted():
    rules = TurningRules(min_total_distance=5.0, min_total_rule="R002.45")
    assert rules_ids(plan_path(START, HULL, parse_path("F4"), rules)) == ["R002.45"]
    assert plan_path(START, HULL, parse_path("F5"), rules).legal


def test_turn_limit_per_move_r004_51():
    rules = TurningRules(max_turn_per_move=45.0)
    assert plan_path(START, HULL, parse_path("P30 F1 S15"), rules).legal
    assert rules_ids(plan_path(START, HULL, parse_path("P30 F1 S30"), rules)) == ["R004.51"]


# --------------------------------------------------------------------------- snaking


def test_changing_sides_without_1_inch_straight_is_snaking_r002_34():
    """R002.34 / A002.10: P45 F0.5 S45 snakes; the S45 itself needs a Treacherous Terrain test."""
    plan = plan_path(START, HULL, parse_path("P45 F0.5 S45"), FREE)
    assert plan.snaking
    assert [s.index for s in plan.treacherous_steps] == [2]
    assert plan.legal  # snaking is not illegal, it is tested


def test_one_inch_straight_between_turns_is_not_snaking_r002_34():
    plan = plan_path(START, HULL, parse_path("P45 F1 S45"), FREE)
    assert not plan.snaking
    assert plan.treacherous_steps == ()


def test_every_later_turn_is_tested_once_snaking_a002_10():
    plan = plan_path(START, HULL, parse_path("P45 F0.5 S45 F3 S45 F2 P45"), FREE)
    assert [s.index for s in plan.treacherous_steps] == [2, 4, 6]


def test_same_side_turns_never_snake_r002_34():
    assert not plan_path(START, HULL, parse_path("P45 P45 F0.2 P45"), FREE).snaking


def test_backwards_straight_counts_between_turns_r002_34():
    rules = TurningRules(snaking_straight=1.0, pivot=Pivot.SIDE_CENTRE)
    assert not plan_path(START, HULL, parse_path("B1 P20 B1 S20"), rules).snaking


def test_free_turning_systems_never_snake():
    assert not plan_path(START, HULL, parse_path("P45 S45 P45"), TurningRules()).snaking


# --------------------------------------------------------------------------- properties

angles = st.floats(1.0, 45.0)
lengths = st.floats(0.1, 5.0)
tokens = st.one_of(
    st.builds(lambda d: f"F{d:.3f}", lengths),
    st.builds(lambda a: f"P{a:.3f}", angles),
    st.builds(lambda a: f"S{a:.3f}", angles),
)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(tokens, min_size=1, max_size=8),
    st.floats(-50, 50),
    st.floats(-50, 50),
    st.floats(0, 359),
    st.sampled_from(list(Pivot)),
)
def test_moving_the_table_moves_the_path_end_geo002_8(path, dx, dy, turn, pivot):
    """A rigid motion of the start pose moves the end pose the same way."""
    rules = TurningRules(pivot=pivot)
    steps = parse_path(" ".join(path))
    base_plan = plan_path(START, HULL, steps, rules)
    c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))

    def moved(x: float, y: float) -> tuple[float, float]:
        rx, ry = x - START.x, y - START.y
        return START.x + rx * c + ry * s + dx, START.y - rx * s + ry * c + dy

    start = Pose(*moved(START.x, START.y), START.heading + turn)
    other = plan_path(start, HULL, steps, rules)
    ex, ey = moved(base_plan.end.x, base_plan.end.y)
    assert other.end.x == pytest.approx(ex, abs=1e-6)
    assert other.end.y == pytest.approx(ey, abs=1e-6)
    assert math.cos(math.radians(other.end.heading - (base_plan.end.heading + turn))) == (
        pytest.approx(1.0)
    )


@settings(max_examples=60, deadline=None)
@given(st.lists(tokens, min_size=1, max_size=8), st.sampled_from(list(Pivot)))
def test_heading_and_distance_add_up(path, pivot):
    steps = parse_path(" ".join(path))
    plan = plan_path(START, HULL, steps, TurningRules(pivot=pivot))
    turned = sum(s.heading_change for s in steps)
    assert math.cos(math.radians(plan.end.heading - turned)) == pytest.approx(1.0)
    assert plan.distance == pytest.approx(sum(s.amount for s in steps if not s.is_turn))
    for step in plan.steps:
        motion = step.motion
        if isinstance(motion, Rotation):
            before = math.dist((step.start.x, step.start.y), motion.pivot)
            after = math.dist((step.end.x, step.end.y), motion.pivot)
            assert after == pytest.approx(before, abs=1e-9)
        else:
            assert isinstance(motion, Translation)
            assert math.dist((step.start.x, step.start.y), (step.end.x, step.end.y)) == (
                pytest.approx(abs(motion.distance))
            )
