"""Model values: size ordering, board areas (DESIGN.md conventions, R002.8, R002.9, A002.5)."""

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
