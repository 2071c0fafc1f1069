"""What a computer player remembers of moves and places from table to table reads exactly as
working it out again does: a move's plan, inside a game (`plans_remembered`), is kept
for a table where nothing near its path changed and planned again where something did;
a unit's scored places are kept while its enemies and their values stand, whatever its
friends do, and scored again when an enemy moves."""

from __future__ import annotations

from dataclasses import replace

from tactical.agents.evaluation import Material, Position
from tactical.io import builtin_map, load_map
from tactical.session.game import Game
from tactical.session.movement import plan_move, plans_remembered


def _moved(state, unit_id, dx, dy):
    unit = state.unit(unit_id)
    return state.replace_unit(unit.moved_to(replace(unit.pose, x=unit.x + dx, y=unit.y + dy)))


def _two_ships():
    """Battlefleet Mars' table with two ships of one side far apart."""
    return Game.new(load_map(builtin_map("battlefleet-mars")), 1).state


def test_a_plan_is_kept_where_nothing_near_its_path_moved():
    state = _two_ships()
    mover, far = "ares-cruiser", "mars-transport"
    with plans_remembered():
        first = plan_move(state, mover, "F4")
        elsewhere = _moved(state, far, 0.0, -1.0)
        assert plan_move(elsewhere, mover, "F4") is first
    assert plan_move(elsewhere, mover, "F4") == first  # the same plan, worked out again


def test_a_plan_is_made_again_where_a_unit_comes_into_its_path():
    state = _two_ships()
    mover = state.unit("ares-cruiser")
    blocker = next(u for u in state.units if u.side == mover.side and u.id != mover.id)
    with plans_remembered():
        clear = plan_move(state, mover.id, "F4")
        # a friend put where the path ends: met on the way (a ram)
        blocked_state = state.replace_unit(blocker.moved_to(clear.final))
        blocked = plan_move(blocked_state, mover.id, "F4")
    fresh = plan_move(blocked_state, mover.id, "F4")
    assert blocked == fresh
    assert blocked is not clear
    assert blocked.collision is not None and clear.collision is None


def test_scored_places_are_kept_whatever_friends_do_and_made_again_for_enemies():
    game = Game.new(load_map(builtin_map("battlefleet-mars")), 1)
    material = Material(game)
    unit = game.state.units[0]
    friend = next(u for u in game.state.units if u.side == unit.side and u.id != unit.id)
    enemy = next(u for u in game.state.units if u.side != unit.side)
    poses = [None, replace(unit.pose, x=unit.x + 2), replace(unit.pose, y=unit.y - 3)]
    first = Position(game, material).reach_many(unit.id, poses)

    def scored(state, remembered):
        later = Game(game.initial, game.seed, state, game.position, game.sides)
        return Position(later, material if remembered else Material(later)).reach_many(
            unit.id, poses
        )

    friendly = _moved(game.state, friend.id, 1.0, 1.0)
    kept = scored(friendly, True)
    assert all(a is b for a, b in zip(kept, first, strict=True))
    assert kept == scored(friendly, False)
    hostile = _moved(game.state, enemy.id, 20.0, 0.0)  # out of every band
    again = scored(hostile, True)
    assert again == scored(hostile, False)
    assert again != first


def test_a_plan_is_kept_where_only_what_a_sweep_never_reads_changed():
    state = _two_ships()
    mover = state.unit("ares-cruiser")
    with plans_remembered():
        first = plan_move(state, mover.id, "F4")
        restocked = state.replace_unit(mover.with_stats(missiles=0))  # stats: not read
        assert plan_move(restocked, mover.id, "F4") is first
        turned = state.replace_unit(mover.moved_to(replace(mover.pose, heading=0.0)))
        assert plan_move(turned, mover.id, "F4") != first  # its place: read
