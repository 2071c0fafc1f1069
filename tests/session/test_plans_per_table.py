"""A text path's move plan is kept per table: the same plan on a table that differs in its
rule state only, a new one where the units, the path or the turning rules differ."""

from __future__ import annotations

import pytest

from tactical.errors import UserError
from tactical.io import builtin_map, load_map
from tactical.session import movement
from tactical.session.movement import plan_move


def _state():
    return load_map(builtin_map("battlefleet-mars"))


def test_the_same_table_gives_the_very_same_plan_and_the_same_as_a_new_one():
    state = _state()
    unit = state.units[0]
    first = plan_move(state, unit.id, "F4 P45 F2")
    assert plan_move(state.with_rule_state(note=1), unit.id, "F4 P45 F2") is first
    movement._PLANS.clear()
    fresh = plan_move(state, unit.id, "F4 P45 F2")
    assert fresh is not first and fresh == first
    # a path given as tokens is planned, not looked up: the same plan
    assert plan_move(state, unit.id, ["F4", "P45", "F2"]) == first


def test_a_moved_unit_or_another_path_is_planned_again():
    state = _state()
    unit = state.units[0]
    first = plan_move(state, unit.id, "F4")
    other = state.units[-1]
    moved = state.replace_unit(other.moved_to(other.pose.__class__(1.0, 1.0, 0.0)))
    again = plan_move(moved, unit.id, "F4")
    assert again is not first
    longer = plan_move(state, unit.id, "F5")
    assert longer.distance > first.distance


def test_a_bad_path_is_refused_every_time():
    state = _state()
    for _ in range(2):
        with pytest.raises(UserError, match="not understood"):
            plan_move(state, state.units[0].id, "Q9")
