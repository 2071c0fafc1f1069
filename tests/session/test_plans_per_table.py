"""A text path's move plan is kept per table: the same plan on a table that differs in its
rule state only, a new one where the units, the path or the turning rules differ."""

from __future__ import annotations

import random

import pytest

from tactical.errors import UserError
from tactical.geometry.shapes import Pose
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
    movement._PATHS.clear()
    fresh = plan_move(state, unit.id, "F4 P45 F2")
    assert fresh is not first and fresh == first
    # a path given as tokens is planned, not looked up: the same plan
    assert plan_move(state, unit.id, ["F4", "P45", "F2"]) == first


def _moved(state, unit_id, x, y):
    unit = state.unit(unit_id)
    return state.replace_unit(unit.moved_to(Pose(x, y, unit.heading)))


def test_a_unit_far_from_the_move_leaves_its_plan_one_in_its_way_makes_a_new_one():
    state = _state()
    first = plan_move(state, "mars-catapult", "F4")  # east from (15, 22)
    assert first.contact is None and abs(first.distance - 4.0) < 1e-9
    far = _moved(state, "ares-miner", 40.0, 8.0)
    assert plan_move(far, "mars-catapult", "F4") is first
    blocked = _moved(state, "ares-transport", 18.0, 22.0)
    met = plan_move(blocked, "mars-catapult", "F4")
    assert met.contact is not None and met.contact.id == "ares-transport"
    assert met.distance < 2.0
    assert plan_move(state, "mars-catapult", "F5").distance > first.distance


def test_a_kept_plan_is_the_plan_made_afresh_wherever_the_others_stand():
    state = _state()
    rng = random.Random(5)
    paths = ("F4", "F6", "P45 F3", "S90 F2", "F1 S45 F5")
    ids = [unit.id for unit in state.units if unit.id != "mars-catapult"]
    met = kept_ones = 0
    movement._PLANS.clear()
    for _ in range(40):
        table = state
        near, far = rng.sample(ids, 2)  # one often in the way, one often far from it
        table = _moved(table, near, rng.uniform(12.0, 24.0), rng.uniform(16.0, 28.0))
        table = _moved(table, far, rng.uniform(4.0, 44.0), rng.uniform(4.0, 32.0))
        for path in paths:
            known, paths_known = dict(movement._PLANS), dict(movement._PATHS)
            kept = plan_move(table, "mars-catapult", path)
            kept_ones += len(movement._PLANS) == len(known)  # found, not made
            movement._PLANS.clear()
            movement._PATHS.clear()
            fresh = plan_move(table, "mars-catapult", path)
            movement._PLANS.update(known)
            movement._PATHS.update(paths_known)
            assert kept == fresh
            met += fresh.contact is not None
    assert kept_ones > 40 and met > 10  # both: plans kept, and units in the way


def test_a_bad_path_is_refused_every_time():
    state = _state()
    for _ in range(2):
        with pytest.raises(UserError, match="not understood"):
            plan_move(state, state.units[0].id, "Q9")
