"""Model values: size ordering, areas (docs/architecture.md, R002.8, R002.9, A002.5)."""

from __future__ import annotations

import itertools

import pytest

from tactical.model import Board, FrozenMap, GameState, Pose, RectBase, SizeClass, Unit


def test_size_classes_order_by_size_not_by_name():
    """R002.8: Surface Height is a size class, ordered tiny < ... < massive."""
    ordered = list(SizeClass)
    for a, b in itertools.combinations(ordered, 2):
        assert a < b and a <= b and b > a and b >= a
        assert not (a > b) and not (a >= b)
    assert SizeClass.MEDIUM < SizeClass.LARGE  # "medium" > "large" as strings
    assert max(ordered) is SizeClass.MASSIVE


def test_areas_are_named_from_the_bottom_left():
    board = Board(72, 48)
    assert [a.name for a in board.areas] == ["A1", "B1", "C1", "A2", "B2", "C2"]
    a1 = board.area_named("A1")
    assert (a1.x0, a1.y0, a1.x1, a1.y1) == (0, 0, 24, 24)
    assert board.area_at(30, 2).name == "B1"
    assert board.area_at(72, 48).name == "C2"  # the far edges belong to the last area
    assert board.area_at(-1, 5) is None


def test_partial_areas_at_the_right_and_top_edges():
    """A002.5: a board that is not a multiple of 2' has partial areas, rolled like full ones."""
    board = Board(80, 50)
    assert (board.columns, board.rows) == (4, 3)
    last = board.areas[-1]
    assert last.name == "D3" and (last.width, last.height) == (8, 2) and last.is_partial
    assert not board.area_named("A1").is_partial


def test_headings_are_normalised():
    assert Pose(0, 0, -90).heading == 270.0
    assert Pose(0, 0, 720).heading == 0.0


def test_state_changes_make_new_values():
    unit = Unit("u", "U", "A", Pose(5, 5), RectBase(1, 2), stats=FrozenMap(hull=3))
    state = GameState("dystopian-wars", Board(24, 24), units=(unit,))
    moved = state.replace_unit(unit.moved_to(Pose(6, 5)))
    assert state.unit("u").x == 5 and moved.unit("u").x == 6
    hit = moved.replace_unit(moved.unit("u").with_stats(hull=2))
    assert hit.unit("u").stats["hull"] == 2 and moved.unit("u").stats["hull"] == 3
    assert hit.with_rule_state(turn=2).rule_state["turn"] == 2
    with pytest.raises(KeyError):
        state.unit("nobody")
    assert hash(unit.stats) == hash(FrozenMap(hull=3))


def test_a_frozen_map_updated_freezes_only_the_new_values_and_keeps_the_old_map():
    old = FrozenMap({"a": {"x": [1, 2]}, "b": 3})
    new = old.updated({"b": [4, {"y": 5}], "c": {"z": [6]}})
    assert old == {"a": {"x": (1, 2)}, "b": 3} and "c" not in old
    assert new == FrozenMap({"a": {"x": [1, 2]}, "b": [4, {"y": 5}], "c": {"z": [6]}})
    assert hash(new) == hash(FrozenMap({"a": {"x": (1, 2)}, "b": (4, {"y": 5}), "c": {"z": (6,)}}))
    assert new["b"] == (4, FrozenMap({"y": 5})) and isinstance(new["b"][1], FrozenMap)
    assert isinstance(new["c"], FrozenMap) and new["c"]["z"] == (6,)
    assert new["a"] is old["a"]  # kept, not frozen again
    assert list(new) == ["a", "b", "c"]  # the order of the keys is kept (saves write it)
    assert old.set("a", 1) == {"a": 1, "b": 3}


def test_with_rule_state_sets_keys_and_accepts_a_state_built_with_a_plain_mapping():
    board = Board(48, 48)
    state = GameState("battlefleet-mars", board, rule_state={"turn": 1})  # type: ignore[arg-type]
    later = state.with_rule_state(turn=2, log=[{"a": 1}])
    assert later.rule_state == {"turn": 2, "log": ({"a": 1},)}
    assert isinstance(later.rule_state, FrozenMap)
    assert isinstance(later.rule_state["log"][0], FrozenMap)
    assert state.rule_state == {"turn": 1}
