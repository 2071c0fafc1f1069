"""The move action's own plan read by the session's preview (GEO002.8, R002.32, R002.35,
R002.59): where the computer plays (`plans_remembered`), a Dystopian Wars move previewed
is the plan the move action makes, and it is the very plan the session's own sweep gives."""

from __future__ import annotations

from dataclasses import replace

import pytest
from dw_builders import DW, flyer, rock, table, unit

from tactical.rules.dystopian_wars import maneuver, play
from tactical.session.movement import plan_move, plans_remembered


def _state(**options):
    return play.setup(
        table(
            unit("a", 30, 10, squadron="a", move=12.0, min_move=2.0),
            unit("other", 27, 16, "A", heading=90, squadron="o"),
            unit("edge", 70, 24, "A", heading=90, squadron="e"),
            flyer("tf", 5, 46),  # a Wing at the table's far edge, heading off it
            flyer("tf2", 6, 46),
            flyer("tf3", 7, 46),
            unit("b", 10, 40, "B"),
            terrain=(rock("reef", 31, 17, 36, 19, "soft", "tiny"),),
            **options,
        )
    )


MOVES = [
    ("a", "F6"),
    ("a", "F3 P45 F3"),
    ("a", "F2 S45 S45 F1"),
    ("a", "B2"),
    ("a", "F12"),
    ("a", "F2 S45 F8"),  # into the reef: a collision (R002.35)
    ("a", "F2 P45 F8"),  # into the other model: a ram
    ("a", "C60"),  # a disengage refused: it touches nothing
    ("edge", "F6"),  # off the table: refused (R002.59)
    ("tf", "F6"),  # a Tiny Flyer off the table: Lost
]


@pytest.mark.parametrize(("unit_id", "path"), MOVES)
def test_GEO002_8_a_previewed_move_is_the_move_actions_plan(unit_id, path):
    state = _state()
    swept = plan_move(state, unit_id, path)  # the session's own sweep
    with plans_remembered():
        previewed = plan_move(state, unit_id, path)
    assert previewed == swept
    found = maneuver.plan(state, state.unit(unit_id), path)
    assert previewed.legal == found.legal
    assert previewed.final == found.final
    assert (previewed.contact.kind if previewed.contact else None) == found.contact_kind


def test_R002_59_the_cases_are_those_meant():
    state = _state()
    with plans_remembered():
        assert plan_move(state, "a", "F2 S45 F8").collision.kind == "terrain"
        assert plan_move(state, "a", "F2 P45 F8").collision.kind == "ram"
        assert not plan_move(state, "a", "C60").legal
        assert not plan_move(state, "edge", "F6").legal
        assert plan_move(state, "tf", "F6").lost


def test_GEO002_8_a_plan_under_other_rules_is_left_to_the_session():
    state = _state()
    unit = state.unit("a")
    rules = maneuver.turning_rules(state, unit)
    assert DW.planned_move(state, unit, "F6", rules) is not None
    other = replace(rules, max_distance=(rules.max_distance or 0.0) + 1.0)
    assert DW.planned_move(state, unit, "F6", other) is None
