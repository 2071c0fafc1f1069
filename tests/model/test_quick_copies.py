"""States and units copied field by field and hashed once: the same values, equality and
hashes as the dataclasses' own, never a stale hash or footprint."""

from __future__ import annotations

import copy
import pickle
from dataclasses import fields, replace

from tactical.geometry.shapes import CircleBase, Pose
from tactical.model import Board, FrozenMap, GameState, Unit
from tactical.model.frozen import freeze


def _units() -> tuple[Unit, ...]:
    return tuple(
        Unit(
            f"u{k}",
            "Cruiser",
            side,
            Pose(10.0 * k, 5.0, 0.0),
            CircleBase(1.0),
            stats=FrozenMap(hp=3),
        )
        for k, side in enumerate(("A", "B", "A"))
    )


def _state() -> GameState:
    return GameState("test", Board(48.0, 48.0), units=_units(), rule_state=FrozenMap(turn=1))


def _plain_hash(value: object) -> int:
    """The hash a frozen dataclass of these fields makes: of its compared fields' tuple."""
    return hash(tuple(getattr(value, f.name) for f in fields(value) if f.compare))


def test_a_state_hashes_as_the_dataclass_would_and_once():
    state = _state()
    assert hash(state) == _plain_hash(state)
    assert state.__dict__["_hash"] == hash(state)
    renamed = replace(state, roster=(("u0", "Other"),))  # the roster is not compared
    assert renamed == state and hash(renamed) == hash(state)
    other = state.with_rule_state(turn=2)
    assert other != state and hash(other) == _plain_hash(other)


def test_a_unit_hashes_as_the_dataclass_would_and_once():
    unit = _units()[0]
    assert hash(unit) == _plain_hash(unit) and unit.__dict__["_hash"] == hash(unit)
    assert unit.with_stats(hp=2) != unit and hash(unit.with_stats(hp=3)) == hash(unit)


def test_a_replaced_unit_is_the_same_state_as_the_dataclass_replace():
    state = _state()
    assert state.unit("u1").side == "B" and hash(state)  # worked out before the copy
    moved = state.unit("u1").moved_to(Pose(1.0, 2.0, 90.0))
    quick = state.replace_unit(moved)
    slow = replace(state, units=tuple(moved if u.id == "u1" else u for u in state.units))
    assert quick == slow and hash(quick) == hash(slow) and hash(quick) != hash(state)
    assert quick.unit("u1") is moved and quick.unit("u0") is state.unit("u0")
    assert quick.units == slow.units and quick.roster == slow.roster
    assert "shown_names" not in quick.__dict__


def test_a_unit_copy_keeps_its_footprint_only_where_the_pose_stands():
    unit = _units()[0]
    before = unit.footprint
    weaker = unit.with_stats(hp=1)
    assert weaker.stats == FrozenMap(hp=1) and weaker.footprint is before
    assert weaker == replace(unit, stats=FrozenMap(hp=1))
    moved = unit.moved_to(Pose(20.0, 5.0, 0.0))
    assert moved == replace(unit, pose=Pose(20.0, 5.0, 0.0))
    assert abs(moved.footprint.centroid.x - 20.0) < 1e-9 and abs(before.centroid.x) < 1e-9
    assert "_hash" not in moved.__dict__ or moved.__dict__["_hash"] == _plain_hash(moved)


def test_a_kept_hash_never_travels_with_a_pickle():
    state = _state()
    hash(state), hash(state.units[0])
    again = pickle.loads(pickle.dumps(state))
    assert "_hash" not in again.__dict__ and "_hash" not in again.units[0].__dict__
    assert again == state and hash(again) == hash(state)
    assert copy.copy(state) == state


def test_a_table_made_from_a_table_or_a_dict_is_frozen_as_before():
    nested = {"a": 1, "b": [1, {"c": [2]}], 3: "x", "d": None}
    made = FrozenMap(nested)
    assert made == FrozenMap(a=1, b=(1, FrozenMap(c=(2,))), d=None, **{"3": "x"})
    assert list(made) == ["a", "b", "3", "d"] and made["b"][1]["c"] == (2,)
    again = FrozenMap(made)
    assert again == made and hash(again) == hash(made) and again._data is not made._data
    assert FrozenMap(made, e=1) == FrozenMap({**nested, "e": 1})
    nested["a"] = 2  # the dict it was made from is not kept
    assert made["a"] == 1


def test_a_frozen_tuple_is_kept_as_it_is_and_a_thawed_one_frozen():
    flat, nested = (1, "a", None), ((1, 2), (3, ("x", 4.0)))
    assert freeze(flat) is flat and freeze(nested) is nested
    mixed = (1, [2, {"k": [3]}], (4,))
    made = freeze(mixed)
    assert made == (1, (2, FrozenMap(k=(3,))), (4,)) and made[2] is mixed[2]


def test_a_unit_copied_by_replace_stands_on_the_same_outline_as_made_afresh(monkeypatch):
    from tactical.geometry.shapes import footprint
    from tactical.model import units

    monkeypatch.setattr(units, "_FOOTPRINTS", {})
    monkeypatch.setattr(units, "MAX_FOOTPRINTS", 2)
    unit = _units()[0]
    again = replace(unit, stats=FrozenMap(hp=2))  # the dataclass's own copy: no footprint
    assert again.footprint is unit.footprint
    assert again.footprint.equals_exact(footprint(unit.pose, unit.base), 0.0)
    for x in (7.0, 8.0, 9.0):
        moved = replace(unit, pose=Pose(x, 1.0, 30.0))
        assert moved.footprint.equals_exact(footprint(moved.pose, moved.base), 0.0)
    assert len(units._FOOTPRINTS) <= 2
