"""A state with another rule state, made quickly, and memos kept per immutable owner."""

from __future__ import annotations

from dataclasses import replace

from tactical.geometry.shapes import CircleBase, Pose
from tactical.model import Board, FrozenMap, GameState, Unit
from tactical.model.frozen import memo_of


def _state() -> GameState:
    units = tuple(
        Unit(f"u{k}", "Cruiser", side, Pose(10.0 * k, 5.0, 0.0), CircleBase(1.0))
        for k, side in enumerate(("A", "B", "A"))
    )
    return GameState("test", Board(48.0, 48.0), units=units, rule_state=FrozenMap(turn=1))


def test_a_new_rule_state_is_the_same_as_a_replaced_one():
    state = _state()
    changed = state.with_rule_state(turn=2, hits={"u1": ["B1"]})
    expected = replace(
        state, rule_state=state.rule_state.updated({"turn": 2, "hits": {"u1": ["B1"]}})
    )
    assert changed == expected and hash(changed) == hash(expected)
    assert changed.rule_state == FrozenMap(turn=2, hits=FrozenMap(u1=("B1",)))
    assert list(changed.rule_state) == ["turn", "hits"]
    assert state.rule_state == FrozenMap(turn=1)  # the old one is untouched
    assert changed.roster == state.roster and changed.units is state.units


def test_the_copy_keeps_what_the_table_worked_out_and_nothing_else():
    state = _state()
    assert state.has_unit("u1") and state.shown_names["u0"] == "Cruiser 1"
    changed = state.with_rule_state(turn=2)
    assert changed.__dict__["_units_by_id"] is state.__dict__["_units_by_id"]
    assert changed.shown_names is state.shown_names
    fresh = _state().with_rule_state(turn=2)  # nothing worked out yet: nothing carried
    assert "_units_by_id" not in fresh.__dict__ and "shown_names" not in fresh.__dict__
    assert fresh.unit("u2").side == "A"


def test_a_memo_per_owner_lives_while_its_owner_does():
    table: dict = {}
    first, second = _state(), _state()
    memo = memo_of(table, first)
    memo["key"] = 1
    assert memo_of(table, first) is memo
    assert memo_of(table, second) == {}  # an equal owner that is not the same one
    for _ in range(5):
        memo_of(table, _state(), most=3)
    assert len(table) <= 4
