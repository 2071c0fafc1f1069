"""The Damage Control Phase: R004.18-R004.24 and R004.53 (astromechs), reactor shutdown."""

from __future__ import annotations

from fractions import Fraction

import pytest
from swd6_builders import (
    ISD,
    NOWHERE,
    SYSTEM,
    condition,
    duel,
    faces_for,
    scripted,
    with_condition,
)

from tactical.dice import ScriptedDice
from tactical.errors import UserError
from tactical.model import FrozenMap
from tactical.rules.base import Action, TurnPosition
from tactical.rules.sw_d6_capital import combat, ledger, repair
from tactical.rules.sw_d6_capital.condition import Effect
from tactical.rules.sw_d6_capital.deck import deck_of


def _dc(state, ship="t", **params):
    return Action("damage-control", ship, FrozenMap(params))


def test_R004_18_damage_state_penalties_on_crew_skills():
    for level, dice in (("none", 0), ("light", 1), ("heavy", 2), ("severe", 3)):
        state = duel({**ISD, "damage": level}, NOWHERE, 20)
        deck, cond = deck_of(state.unit("a")), condition(state, "a")
        assert cond.current_cso(deck, 1) == deck.cso.pips - 3 * dice
        facts = combat.fire_facts(state, "a", "front-turbolasers", "t", {})
        assert dict(facts.gfc_terms)["crew"] == -3 * dice
        assert repair.shields_roll_code(deck, cond, 1) == deck.cso.pips - 3 * dice


def test_R004_19_shields_regenerate_once_as_damage_control_begins():
    state = duel(ISD, NOWHERE, 20)
    state = state.with_rule_state(turn=1)
    state = with_condition(
        state, "t", shields_drained=True, ion_shields=5, shield_arcs=(0, 0, 0, 4), shields_blown=0
    )
    angled = SYSTEM.apply(state, Action("angle-shields", "a"), scripted())
    kinds = [(e.kind, e.get("cause")) for e in angled.events]
    assert ("shields-restored", "shields drained") in kinds and ("shields-restored", "ion") in kinds
    after = condition(angled.state, "t")
    assert not after.shields_drained and after.ion_shields == 2
    assert sum(after.shield_arcs) == 7  # 3D - 2 pips still down, refilled toward the plan
    again = SYSTEM.apply(angled.state, Action("angle-shields", "t"), scripted())
    assert not any(e.kind == "shields-restored" for e in again.events)


def test_R004_20_damage_control_roll_code():
    state = duel({**ISD, "damage": "light"}, NOWHERE, 20)
    state = with_condition(state, "a", command_mod=-2, order="evasive")
    deck, cond = deck_of(state.unit("a")), condition(state, "a")
    plan = repair.repair_plan("a", deck, cond, 1, {"extra_actions": 2})
    assert dict(plan.terms) == {
        "cso": 16,
        "damage_state": -3,
        "controls_damaged": 0,
        "order_map": -3,
        "repair_actions": 6,
        "command": -2,
    }
    assert plan.code_pips == 14


def test_R004_21_damage_control_map_on_the_action_phase():
    state = duel({**ISD, "damage": "light"}, NOWHERE, 20)
    action = _dc(state, "a", extra_actions=2)
    repaired = SYSTEM.apply(state, action, ScriptedDice([1] * 6))
    assert condition(repaired.state, "a").dc_map == 3
    facts = combat.fire_facts(repaired.state, "a", "front-turbolasers", "t", {})
    assert dict(facts.gfc_terms)["damage_control_map"] == -9
    with pytest.raises(UserError) as error:
        SYSTEM.apply(repaired.state, action, ScriptedDice([1] * 6))
    assert error.value.spec_id == "R004.20"


def test_R004_22_the_roll_must_cover_something():
    state = duel(ISD, NOWHERE, 20)
    deck, cond = deck_of(state.unit("t")), condition(state, "t")
    with pytest.raises(UserError) as error:
        repair.repair_plan("t", deck, cond, 1, {})
    assert error.value.spec_id == "R004.22"
    with pytest.raises(UserError) as error:
        repair.repair_plan("t", deck, cond, 1, {"repair_damage": True})
    assert error.value.spec_id == "R004.22"
    blown = with_condition(state, "t", shields_blown=5)
    deck, cond = deck_of(blown.unit("t")), condition(blown, "t")
    assert repair.repair_plan("t", deck, cond, 1, {"shield_dice": 1}).difficulty == 10
    with pytest.raises(UserError) as error:
        repair.repair_plan("t", deck, cond, 1, {"shield_dice": 3})
    assert error.value.spec_id == "R004.22"


def _severe_with_effects():
    state = duel(ISD, {**NOWHERE, "damage": "severe"}, 20)
    effects = (
        Effect("fire-control", "light", pips=3),
        Effect("lost-moves", "heavy", moves=2),
        Effect("sensors-destroyed", "severe", pips=12),
        Effect("weapons-destroyed", "heavy", weapon="front-quad-turbolasers", permanent=True),
    )
    return with_condition(state, "t", effects=effects, shields_blown=6)


def test_R004_23_failing_by_ten_drops_one_level_and_its_effects():
    state = _severe_with_effects()
    # CSO 5D+2 - 3D = 2D+2: roll 2D+2 against 30 (severe), damage only
    dice = ScriptedDice([6, 6])  # 14: fails by 16 -> no change
    unchanged = SYSTEM.apply(state, _dc(state, shield_dice=0), dice)
    assert unchanged.summary == "no-change" and condition(unchanged.state, "t").level == "severe"
    state = with_condition(state, "t", command_mod=6)  # 2D+2 + 2 pips: 6 + 6 + 4 = 16..
    dice = ScriptedDice([6, 6, 6])
    plan = repair.repair_plan(
        "t", deck_of(state.unit("t")), condition(state, "t"), 1, {"shield_dice": 0}
    )
    assert plan.code_pips == 14  # 4D+2
    dropped = SYSTEM.apply(state, _dc(state, shield_dice=0), ScriptedDice([6, 6, 6, 2]))
    assert dropped.summary == "one-step"  # 20 against 30: fails by exactly 10 (A004.13)
    after = condition(dropped.state, "t")
    assert after.level == "heavy"
    codes = {effect.code for effect in after.effects}
    assert codes == {"fire-control", "lost-moves", "weapons-destroyed"}


def test_R004_23_full_repair_and_the_shields_choice():
    state = _severe_with_effects()
    state = with_condition(state, "t", command_mod=30)
    full = SYSTEM.apply(state, _dc(state), ScriptedDice([6] * 14))
    after = condition(full.state, "t")
    assert full.summary == "repaired" and after.level == "none" and after.shields_blown == 0
    assert [e.code for e in after.effects] == ["weapons-destroyed"]  # destroyed stays
    partial = with_condition(_severe_with_effects(), "t", command_mod=14)
    choice = _dc(partial, prefer="shields")
    # 7D+1 against 30 + 2 x 10: a roll of 40 fails by 10 -> the captain takes 1D of shields
    shields = SYSTEM.apply(partial, choice, ScriptedDice([6, 6, 6, 6, 6, 6, 3]))
    assert shields.summary == "shields-1d"
    assert condition(shields.state, "t").shields_blown == 3
    assert condition(shields.state, "t").level == "severe"


def test_R004_23_damage_control_odds_are_exact():
    state = duel({**ISD, "damage": "light"}, NOWHERE, 20)
    deck, cond = deck_of(state.unit("a")), condition(state, "a")
    plan = repair.repair_plan("a", deck, cond, 1, {})
    odds = repair.repair_odds(plan)
    assert odds.total == 1
    assert set(odds.outcomes) <= {"repaired", "one-step", "no-change"}
    report = SYSTEM.action_odds(state, _dc(state, "a"))
    assert report.section("outcome").distribution.as_dict() == odds.as_dict()
    assert report.facts["difficulty"] == 10


def test_R004_24_capital_ships_angle_shields_freely():
    state = duel(ISD, NOWHERE, 20)
    action = Action("angle-shields", "a", FrozenMap(front="2D", right="1D", rear="0D", left="0D+2"))
    angled = SYSTEM.apply(state, action, scripted())
    after = condition(angled.state, "a")
    assert after.shield_arcs == (6, 3, 0, 2) and after.shield_plan == (6, 3, 0, 2)
    assert after.shields_map == 0
    too_much = Action("angle-shields", "t", FrozenMap(front="3D", right="1D"))
    with pytest.raises(UserError) as error:
        SYSTEM.apply(state, too_much, scripted())
    assert error.value.spec_id == "R004.24"
    with pytest.raises(UserError) as error:
        SYSTEM.apply(angled.state, action, scripted())
    assert error.value.spec_id == "R004.24"


def test_R004_24_fighters_roll_shields_to_change_placement():
    fighter = {
        "scale": "starfighter",
        "shields": "1D",
        "shields_skill": "2D",
        "cso": "4D",
        "weapons": [{"name": "Lasers", "fire_control": "4D"}],
    }
    state = duel(fighter, NOWHERE, 20)
    same = SYSTEM.apply(state, Action("angle-shields", "a"), scripted())
    assert condition(same.state, "a").shields_map == 0
    moved = Action("angle-shields", "a", FrozenMap(front="1D", right="0D", rear="0D", left="0D"))
    assert SYSTEM.action_odds(state, moved).section("success").distribution.probability(
        True
    ) == Fraction(6, 36)  # 2D >= 10 (A004.36)
    failed = SYSTEM.apply(state, moved, scripted(1, 2))
    assert condition(failed.state, "a").shield_arcs == (1, 1, 1, 0)
    assert condition(failed.state, "a").shields_map == 1
    passed = SYSTEM.apply(state, moved, scripted(5, 5))
    assert condition(passed.state, "a").shield_arcs == (3, 0, 0, 0)
    facts = combat.fire_facts(passed.state, "t", "front-quad-turbolasers", "a", {})
    assert facts.struck_arc == "front" and dict(facts.resistance_terms)["shields"] == 3
    own = combat.fire_facts(passed.state, "a", "front-lasers", "t", {})
    assert dict(own.gfc_terms)["shields_map"] == -3  # the roll's 1D MAP


def test_R004_53_astromech_repairs_a_lightly_damaged_result():
    fighter = {
        "scale": "starfighter",
        "damage": "light",
        "astromech": "2D",
        "weapons": [{"name": "Lasers"}],
    }
    state = with_condition(duel(fighter, NOWHERE, 20), "a", light_results=2)
    cond = condition(state, "a")
    assert repair.astromech_difficulty(cond, "damage") == 20  # Easy + 10 (A004.37)
    odds = SYSTEM.action_odds(state, Action("astromech", "a", FrozenMap(what="damage")))
    assert odds.section("success").distribution.probability(True) == 0  # 2D never makes 20
    state = with_condition(state, "a", light_results=1)
    fixed = SYSTEM.apply(state, Action("astromech", "a", FrozenMap(what="damage")), scripted(5, 5))
    after = condition(fixed.state, "a")
    assert fixed.summary is True and after.level == "none" and after.dc_map == 0
    with pytest.raises(UserError) as error:
        SYSTEM.apply(fixed.state, Action("astromech", "a"), scripted(5, 5))
    assert error.value.spec_id == "R004.53"
    capital = duel({**ISD, "damage": "light", "astromech": "2D"}, NOWHERE, 20)
    with pytest.raises(UserError):
        SYSTEM.apply(capital, Action("astromech", "a"), scripted(5, 5))


def test_T004_9_reactor_shutdown_is_an_easy_repair_roll():
    state = duel({**ISD, "damage": "severe"}, NOWHERE, 20)
    state = with_condition(
        state, "a", reactor_countdown=2, effects=(Effect("overloaded-reactor", "severe"),)
    )
    deck, cond = deck_of(state.unit("a")), condition(state, "a")
    pips = repair.shutdown_code(deck, cond, 1)
    assert pips == deck.cso.pips - 9
    saved = SYSTEM.apply(state, Action("reactor-shutdown", "a"), ScriptedDice(faces_for(10, 2)))
    assert saved.summary is True and condition(saved.state, "a").reactor_countdown is None
    failed = SYSTEM.apply(state, Action("reactor-shutdown", "a"), ScriptedDice([1, 1]))
    assert failed.summary is False and condition(failed.state, "a").reactor_countdown == 2
    with pytest.raises(UserError) as error:
        SYSTEM.apply(failed.state, Action("reactor-shutdown", "a"), ScriptedDice([6, 6]))
    assert error.value.spec_id == "T004.9"


def test_damage_control_choices_offered_in_the_phase():
    state = duel({**ISD, "damage": "heavy"}, NOWHERE, 20)
    state = state.with_rule_state(turn=1)
    choices = SYSTEM.actions(state, TurnPosition(1, 2, 0, 0), "A")
    kinds = [c.kind for c in choices]
    assert kinds == ["damage-control", "angle-shields"]
    fields = {f.name: f for f in choices[0].fields}
    assert fields["extra_actions"].high == 3  # 5D+1 - 2D = 3D+1 (A004.10)
    assert ledger.turn_of(state) == 1
