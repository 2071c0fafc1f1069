"""Fighters and freighters at capital scale: R004.52-R004.57."""

from __future__ import annotations

import pytest
from swd6_builders import ISD, SYSTEM, condition, duel, scripted, ship, table

from tactical.dice import DieCode, ScriptedDice, SeededDice
from tactical.errors import UserError
from tactical.model import FrozenMap
from tactical.rules.base import Action, TurnPosition
from tactical.rules.sw_d6_capital import combat, ledger, repair
from tactical.rules.sw_d6_capital.deck import deck_of

SQUADRON = {
    "scale": "starfighter",
    "unit_size": "squadron",
    "cso": "3D",
    "hull": "4D",
    "shields": "2D",
    "weapons": [{"name": "Lasers", "fire_control": "3D", "damage": "5D", "ranges": "1-3/12/25"}],
}
HIT = [3] * 8


def _fire(state, target="t", actor="a", weapon="front-turbolasers", dice=()):
    action = Action("attack", actor, FrozenMap(weapon=weapon, target=target))
    return SYSTEM.apply(state, action, ScriptedDice(list(dice)))


def test_R004_52_piloting_skill_stands_in_for_capital_ship_operation():
    state = duel({**SQUADRON, "cso": "4D+1", "damage": "light"}, ISD, 20)
    deck, cond = deck_of(state.unit("a")), condition(state, "a")
    assert dict(repair.repair_plan("a", deck, cond, 1, {}).terms)["cso"] == 13
    assert deck.fighter and deck.ship_defence == 3 * 5 + 1  # 1D + 4D+1 = 5D+1, 1D = 3


def test_R004_54_a_unit_is_one_target_at_its_unit_scale():
    state = duel(ISD, SQUADRON, 20)
    facts = combat.fire_facts(state, "a", "front-turbolasers", "t", {})
    assert dict(facts.damage_terms)["scale"] == DieCode.parse("3D").pips  # 12D against 9D
    with pytest.raises(UserError) as error:
        combat.fire_facts(state, "a", "front-turbolasers", "t", {"location": "engines"})
    assert error.value.spec_id == "R004.54"
    problems = SYSTEM.check_stats({"unit_size": "squadron"})  # a capital-scale "squadron"
    assert [(p.key, p.spec_id) for p in problems] == [("unit_size", "R004.54")]


def test_R004_55_light_losses_cost_a_die_of_strength_and_of_scale():
    state = duel(ISD, SQUADRON, 20)
    # damage 8D = 24 against hull 4D + 2 pips of front shields = 16 + 2: margin 6
    shot = _fire(state, dice=HIT + [3] * 8 + [4, 4, 4, 4])
    assert shot.summary.result == "light-losses"
    after = condition(shot.state, "t")
    assert after.strength == 6
    assert str(DieCode(combat.scale_of(deck_of(shot.state.unit("t")), after))) == "8D"


def test_A004_28_a_unit_resists_with_its_hull_and_shields():
    state = duel(ISD, SQUADRON, 20)
    facts = combat.fire_facts(state, "a", "front-turbolasers", "t", {})
    assert dict(facts.resistance_terms) == {"hull": 12, "hull_penalty": 0, "shields": 2}
    # damage 20 against 4D + 2 = 18: margin 2, Disrupted (Hull alone: margin 4, Light Losses)
    shot = _fire(state, dice=[*HIT, *(3, 3, 3, 3, 2, 2, 2, 2), *(4, 4, 4, 4)])
    assert shot.summary.result == "disrupted"


def test_R004_55_disrupted_units_are_at_minus_1D_that_round():
    state = duel(ISD, SQUADRON, 20)
    shot = _fire(state, dice=[*HIT, *(3, 3, 3, 3, 2, 2, 2, 2), *(4, 4, 4, 4)])  # 20 - 18 = 2
    assert shot.summary.result == "disrupted" and condition(shot.state, "t").disrupted
    facts = combat.fire_facts(shot.state, "t", "front-lasers", "a", {})
    assert dict(facts.gfc_terms)["disrupted"] == -3
    next_turn = SYSTEM.apply(shot.state, Action("initiative", "A"), SeededDice(1))
    assert not condition(next_turn.state, "t").disrupted


def test_R004_56_combat_ineffective_and_wiped_out():
    section = {**SQUADRON, "unit_size": "section"}
    state = duel(ISD, section, 20)  # Section: Strength 1D+2, scale 7D+2
    # damage 5D + 4D+1 = 9D+1 -> 28 against 18: margin 10, Heavy Losses -2D -> -1 pip
    shot = _fire(state, dice=HIT + [3] * 9 + [4, 4, 4, 4])
    after = condition(shot.state, "t")
    assert after.strength == -1
    strength = next(e for e in shot.events if e.kind == "unit-strength")
    assert strength.get("status") == "combat-ineffective"
    with pytest.raises(UserError) as error:
        combat.fire_facts(shot.state, "t", "front-lasers", "a", {})
    assert error.value.spec_id == "R004.56"
    wiped = _fire(state, dice=HIT + [6] * 9 + [1, 1, 1, 1])  # 55 - 6: Catastrophic Losses
    assert wiped.summary.destroyed and not wiped.state.has_unit("t")


def test_R004_57_recovery_at_the_mothership():
    carrier = {**ISD, "squadrons_carried": 1}
    section = {**SQUADRON, "unit_size": "section", "mothership": "base"}
    state = SYSTEM.setup(
        table(
            ship("base", 30, 5, "A", **carrier),
            ship("ties", 30, 10, "A", **section),
            ship("enemy", 30, 30, "B", 180, **ISD),
        )
    )
    state = state.with_rule_state(turn=1)
    state = ledger.with_condition(state, "ties", condition(state, "ties").__class__(strength=-1))
    assert condition(state, "base").reserve == 3
    choices = SYSTEM.actions(
        state.with_rule_state(initiative={"order": ("enemy", "base", "ties")}),
        TurnPosition(1, 4, 0, 0),
        "A",
    )
    assert "recover" in [c.kind for c in choices if c.actor == "ties"]
    odds = SYSTEM.action_odds(state, Action("recover", "ties"))
    assert odds.section("rounds").distribution.total == 1
    away = SYSTEM.apply(state, Action("recover", "ties"), scripted(2))
    assert condition(away.state, "ties").recovering_until == 4
    with pytest.raises(UserError) as error:
        combat.fire_facts(away.state, "enemy", "front-turbolasers", "ties", {})
    assert error.value.spec_id == "R004.57"
    state = away.state
    for _ in range(3):
        state = SYSTEM.apply(state, Action("initiative", "A"), SeededDice(3)).state
    back = condition(state, "ties")
    assert back.recovering_until is None and back.strength == 2  # -1 + the reserve's 1D
    assert condition(state, "base").reserve == 0
    with pytest.raises(UserError) as error:
        SYSTEM.apply(state, Action("recover", "base"), scripted(2))
    assert error.value.spec_id == "R004.57"
