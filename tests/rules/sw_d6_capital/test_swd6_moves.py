"""Moves as declared actions: R004.50, R004.51, R004.41 (0D Maneuverability), R004.45,
GEO004.1, GEO004.5, GEO004.7."""

from __future__ import annotations

from fractions import Fraction

import pytest
from swd6_builders import ISD, NOWHERE, SYSTEM, condition, scripted, ship, table, with_condition

from tactical.dice import ScriptedDice
from tactical.errors import UserError
from tactical.model import Circle, FrozenMap, SizeClass, Terrain
from tactical.rules.base import Action, TurnPosition
from tactical.rules.sw_d6_capital import choices, maneuver, movement
from tactical.rules.sw_d6_capital.condition import Effect


def _fleet(*terrain: Terrain, **stats):
    state = SYSTEM.setup(
        table(
            ship("isd", 30, 10, "A", 0, **{**ISD, **stats}),
            ship("enemy", 60, 40, "B", 180, **NOWHERE),
        )
    )
    return state.with_terrain(terrain).with_rule_state(
        turn=1, initiative={"order": ("enemy", "isd"), "winner": "enemy", "masterstroke": False}
    )


def _move(state, path=None, unit="isd", dice=()):
    params = {} if path is None else {"path": path}
    return SYSTEM.apply(state, Action("move", unit, FrozenMap(params)), ScriptedDice(list(dice)))


def test_R004_50_a_ship_moves_up_to_its_speed_GEO004_5():
    state = _fleet()
    moved = _move(state)  # cruising: 1 x Space 6 = 6"
    unit = moved.state.unit("isd")
    assert (unit.x, unit.y) == pytest.approx((30, 16))
    assert condition(moved.state, "isd").moved and moved.summary == "moved"
    assert moved.events[0].spec_id == "R004.50" and moved.events[0].get("path") == "F6"
    with pytest.raises(UserError) as error:
        _move(moved.state)
    assert error.value.spec_id == "R004.50"
    with pytest.raises(UserError) as error:
        _move(state, "F7")
    assert error.value.spec_id == "R004.50"
    high = _fleet(speed="high")
    assert _move(high, "F12").state.unit("isd").y == pytest.approx(22)


def test_R004_50_movement_goes_from_the_lowest_initiative():
    state = _fleet().with_rule_state(
        initiative={"order": ("isd", "enemy"), "winner": "isd", "masterstroke": False}
    )
    assert choices.move_head(state, frozenset()).id == "enemy"
    assert SYSTEM.actions(state, TurnPosition(1, 4, 0, 0), "A") == ()
    kinds = [c.kind for c in SYSTEM.actions(state, TurnPosition(1, 4, 1, 0), "B")]
    assert kinds == ["move", "hold-position"]
    stayed = SYSTEM.apply(state, Action("hold-position", "enemy"), scripted())
    assert choices.move_head(stayed.state, frozenset()).id == "isd"


def test_A004_30_speeds_below_all_out_take_the_external_defaults():
    """A004.30: only All-Out (4 x Space) is in the source; the rest are T004.14's defaults."""
    reach = {
        speed: movement.turning_rules(ship("s", 0, 0, **ISD, speed=speed), {}).max_distance
        for speed in ("cautious", "cruising", "high", "all-out")
    }
    assert reach == {"cautious": 3, "cruising": 6, "high": 12, "all-out": 24}  # Space 6


def test_R004_51_turns_are_limited_per_turn():
    state = _fleet()
    with pytest.raises(UserError) as error:
        _move(state, "F2 S30 F2 S30")
    assert error.value.spec_id == "R004.51"
    turned = _move(state, "F3 S45 F3")
    assert turned.state.unit("isd").heading == pytest.approx(45)


def test_R004_45_lost_moves_cap_the_declared_speed():
    state = _fleet(speed="high")
    state = with_condition(state, "isd", effects=(Effect("lost-moves", "heavy", moves=3),))
    assert maneuver.effective_speed(state.unit("isd"), *_deck_cond(state)) == "cautious"
    assert _move(state).state.unit("isd").y == pytest.approx(13)  # 1/2 x 6
    dead = with_condition(state, "isd", effects=(Effect("lost-moves", "heavy", moves=4),))
    with pytest.raises(UserError) as error:
        _move(dead)
    assert error.value.spec_id == "R004.45"
    assert choices.move_head(dead, frozenset()).id == "enemy"


def _deck_cond(state):
    from tactical.rules.sw_d6_capital.deck import deck_of

    return deck_of(state.unit("isd")), condition(state, "isd")


def test_R004_41_at_0D_maneuverability_a_ship_keeps_heading_and_speed():
    state = with_condition(_fleet(), "isd", ionization=1)  # 1D - 1D = 0D, 1 Lost Move
    with pytest.raises(UserError) as error:
        _move(state, "F3 S10 F3")
    assert error.value.spec_id == "R004.41"
    with pytest.raises(UserError) as error:
        _move(state, "F4")
    assert error.value.spec_id == "R004.41"
    assert _move(state, "F6").state.unit("isd").y == pytest.approx(16)


def test_GEO004_1_a_ship_may_not_leave_the_table():
    state = _fleet()
    state = state.replace_unit(state.unit("isd").moved_to(state.unit("isd").pose.__class__(30, 45)))
    with pytest.raises(UserError) as error:
        _move(state, "F6")
    assert error.value.spec_id == "GEO004.1"


def test_a_ship_stops_against_a_planet_or_another_ship():
    moon = Terrain("moon", "obstructing", SizeClass.MASSIVE, circle=Circle(30, 16, 2))
    stopped = _move(_fleet(moon))
    assert stopped.summary == "collided"
    assert stopped.state.unit("isd").y == pytest.approx(13.5, abs=0.01)
    assert SYSTEM.terrain_collides(stopped.state.unit("isd"), moon)
    asteroids = Terrain("rocks", "dense", SizeClass.LARGE, circle=Circle(30, 16, 2))
    assert not SYSTEM.terrain_collides(stopped.state.unit("isd"), asteroids)


def test_GEO004_7_hazards_call_for_a_piloting_check():
    rocks = Terrain("rocks", "dense", SizeClass.LARGE, circle=Circle(30, 14, 1))
    state = _fleet(rocks)
    move = maneuver.plan_ship_move(state, "isd", None)
    assert move.hazards == ("rocks",) and move.difficulty == 15
    assert move.piloting_pips == 16  # CSO 5D+1
    odds = SYSTEM.action_odds(state, Action("move", "isd"))
    success = odds.section("piloting").distribution.probability(True)
    assert 0 < success < 1 and odds.facts["difficulty"] == 15
    passed = _move(state, dice=[6, 6, 6, 6, 6])
    assert passed.summary == "moved" and passed.state.unit("isd").y == pytest.approx(16)
    halted = _move(state, dice=[1, 1, 1, 1, 1])
    assert halted.summary == "halted"
    assert halted.state.unit("isd").y == pytest.approx(12.5, abs=0.01)  # where the rocks begin
    check = next(e for e in halted.events if e.kind == "piloting")
    assert check.spec_id == "GEO004.7" and check.get("passed") is False
    assert SYSTEM.action_odds(_fleet(), Action("move", "isd")) is None  # open space: no roll


def test_GEO004_7_flying_close_to_a_capital_ship_is_a_hazard():
    state = SYSTEM.setup(
        table(
            ship("isd", 30, 10, "A", 0, **ISD),
            ship("other", 31.8, 14, "B", 0, **NOWHERE),
        )
    )
    move = maneuver.plan_ship_move(state.with_rule_state(turn=1), "isd", "F6")
    assert move.hazards == ("other",)
    assert Fraction(0) < maneuver.piloting_odds(move).probability(True) < 1
