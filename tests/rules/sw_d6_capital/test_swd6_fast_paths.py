"""The shortcuts the computer players' speed rests on give what the long way gives: a shot
read for its state alone (R004.26-R004.38) leaves only its words out; a declaration's
check, a ship's move and what its moves meet are worked out once per state and give what
a fresh state gives; a refused declaration or move is refused every time; a ship's
condition for the game's end (A004.E1) follows its condition."""

from __future__ import annotations

from dataclasses import replace

import pytest
from swd6_builders import ISD, NOWHERE, SYSTEM, duel, ship, table

from tactical.dice import ScriptedDice, enumerate_outcomes
from tactical.errors import UserError
from tactical.model import Circle, FrozenMap, SizeClass, Terrain
from tactical.model.worded import unworded
from tactical.rules.base import Action
from tactical.rules.sw_d6_capital import combat, ledger, maneuver
from tactical.rules.sw_d6_capital import outcome as sw_outcome

HIT = [3] * 8 + [4] * 5 + [2, 2, 2, 2, 3, 3] + [6]  # Lightly Damaged, Engines Damaged


def _copy(state):
    """An equal state that is not the same object (nothing remembered by identity)."""
    return state.with_rule_state(**dict(state.rule_state))


def _fire(state, dice):
    action = Action("attack", "a", FrozenMap(weapon="front-turbolasers", target="t"))
    return SYSTEM.apply(state, action, ScriptedDice(list(dice)))


def test_a_shot_read_for_its_state_alone_leaves_out_its_words_only():
    state = duel(ISD, NOWHERE, 20)
    worded = _fire(state, HIT)
    with unworded():
        bare = _fire(state, HIT)
    assert bare.state == worded.state and bare.summary == worded.summary
    assert worded.events and not bare.events
    assert ledger.condition(bare.state, "t").level != ledger.condition(state, "t").level


def test_the_odds_of_a_shot_read_for_its_state_alone_are_the_same():
    state = duel(ISD, NOWHERE, 20)
    attack = combat.declare(state, "a", "front-turbolasers", "t")

    def level(dice):
        return ledger.condition(combat.resolve(state, attack, dice).state, "t").level

    worded = enumerate_outcomes(level)
    with unworded():
        bare = enumerate_outcomes(level)
    assert bare.pairs == worded.pairs and len(bare.pairs) > 1


def test_a_check_remembered_for_a_state_is_the_check_of_an_equal_state():
    state = duel(ISD, NOWHERE, 20)
    first = combat.fire_facts(state, "a", "front-turbolasers", "t", {})
    assert combat.fire_facts(state, "a", "front-turbolasers", "t", {}) is first
    assert combat.fire_facts(_copy(state), "a", "front-turbolasers", "t", {}) == first
    far = duel(ISD, NOWHERE, 500)
    for _ in range(2):  # refused each time, not remembered as an answer
        with pytest.raises(UserError):
            combat.fire_facts(far, "a", "front-turbolasers", "t", {})


def test_a_move_planned_for_a_state_is_the_plan_of_an_equal_state():
    rocks = Terrain("rocks", "dense", SizeClass.LARGE, circle=Circle(30, 14, 1))
    state = SYSTEM.setup(
        table(ship("isd", 30, 10, "A", 0, **ISD), ship("enemy", 60, 40, "B", 180, **NOWHERE))
    )
    state = state.with_terrain((rocks,)).with_rule_state(turn=1)
    plans = [maneuver.plan_ship_move(state, "isd", path) for path in ("F6", "F3", "P45 F3")]
    assert maneuver.plan_ship_move(state, "isd", "F6") is plans[0]
    fresh = [maneuver.plan_ship_move(_copy(state), "isd", path) for path in ("F6", "F3", "P45 F3")]
    assert fresh == plans
    assert plans[0].hazards == ("rocks",) and plans[2].hazards == ()
    for _ in range(2):
        with pytest.raises(UserError):
            maneuver.plan_ship_move(state, "isd", "F60")


def test_a_ships_end_condition_follows_its_condition():
    state = duel(ISD, NOWHERE, 20)
    start = state.units
    hit = _fire(state, HIT).state
    for now in (state, hit, state):
        asked = [sw_outcome.unit_condition(now, unit) for unit in start]
        fresh = [sw_outcome.unit_condition(_copy(now), unit) for unit in start]
        assert asked == fresh
    assert sw_outcome.unit_condition(hit, start[1]).lost > 0
    assert sw_outcome.unit_condition(state, start[1]).lost == 0


def test_the_table_a_ships_moves_meet_follows_the_state():
    state = SYSTEM.setup(
        table(ship("isd", 30, 10, "A", 0, **ISD), ship("enemy", 30, 14, "B", 180, **NOWHERE))
    ).with_rule_state(turn=1)
    blocked = maneuver.plan_ship_move(state, "isd", "F6")
    assert blocked.collision == "enemy"
    enemy = state.unit("enemy")
    moved = state.replace_unit(enemy.moved_to(replace(enemy.pose, x=enemy.pose.x + 20)))
    clear = maneuver.plan_ship_move(moved, "isd", "F6")
    assert clear.collision is None and clear.final.y == pytest.approx(16)
