"""A text path's move plan kept inside a game (`plans_remembered`) is the plan made afresh,
wherever the other units stand: the key holds all the sweep reads."""

from __future__ import annotations

import random

import pytest

from tactical.errors import UserError
from tactical.geometry.shapes import Pose
from tactical.io import builtin_map, load_map
from tactical.session.movement import plan_move, plans_remembered

MOVER = "mars-catapult"
PATHS = ("F4", "F6", "P45 F3", "S90 F2", "F1 S45 F5")


def _moved(state, unit_id, x, y):
    unit = state.unit(unit_id)
    return state.replace_unit(unit.moved_to(Pose(x, y, unit.heading)))


def test_a_kept_plan_is_the_plan_made_afresh_wherever_the_others_stand():
    state = load_map(builtin_map("battlefleet-mars"))
    rng = random.Random(5)
    ids = [unit.id for unit in state.units if unit.id != MOVER]
    tables = []
    for _ in range(40):
        near, far = rng.sample(ids, 2)  # one often in the way, one often far from it
        table = _moved(state, near, rng.uniform(12.0, 24.0), rng.uniform(16.0, 28.0))
        tables.append(_moved(table, far, rng.uniform(4.0, 44.0), rng.uniform(4.0, 32.0)))
    fresh = [[plan_move(table, MOVER, path) for path in PATHS] for table in tables]
    made: list = []  # every plan returned, kept alive so that no id is reused
    reused = 0
    with plans_remembered():
        for table, planned in zip(tables, fresh, strict=True):
            for path, afresh in zip(PATHS, planned, strict=True):
                kept = plan_move(table, MOVER, path)
                reused += any(kept is earlier for earlier in made)
                made.append(kept)
                assert kept == afresh
    met = sum(plan.contact is not None for row in fresh for plan in row)
    assert reused > 40 and met > 10  # both: plans kept, and units in the way


def test_a_bad_path_is_refused_every_time():
    state = load_map(builtin_map("battlefleet-mars"))
    with plans_remembered():
        for _ in range(2):
            with pytest.raises(UserError, match="not understood"):
                plan_move(state, state.units[0].id, "Q9")


def test_a_units_paths_on_one_table_read_its_turning_rules_once(monkeypatch):
    import tactical.session.movement as movement

    state = load_map(builtin_map("battlefleet-mars"))
    asked: list[str] = []
    real = movement.turning_rules_for

    def counted(system, table, unit, activation):
        asked.append(unit.id)
        return real(system, table, unit, activation)

    monkeypatch.setattr(movement, "turning_rules_for", counted)
    fresh = [plan_move(state, MOVER, path) for path in PATHS]
    assert asked == [MOVER] * len(PATHS)
    asked.clear()
    other = _moved(state, MOVER, 20.0, 20.0)
    with plans_remembered():
        kept = [plan_move(state, MOVER, path) for path in PATHS]
        assert asked == [MOVER]  # once for the table and the unit
        plan_move(other, MOVER, PATHS[0])  # another table: asked again
        assert asked == [MOVER, MOVER]
        plan_move(state, MOVER, PATHS[0], {"speed": 1})  # an activation declared: asked
        assert asked == [MOVER] * 3
    assert kept == fresh
