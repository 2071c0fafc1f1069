"""The Action Phase and damage: R004.25-R004.49, GEO004.2-GEO004.4, GEO004.6.

Scripted dice are listed in consumption order (G.1): the Gunnery dice, then the
Damage dice, then the Resistance dice, then the effect roll and any re-roll.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from swd6_builders import (
    ION,
    ISD,
    NOWHERE,
    SYSTEM,
    TURBOLASER,
    condition,
    duel,
    scripted,
    ship,
    table,
    with_condition,
)

from tactical.dice import ScriptedDice, enumerate_outcomes
from tactical.errors import UserError
from tactical.model import FrozenMap
from tactical.rules.base import Action, TurnPosition
from tactical.rules.sw_d6_capital import combat, ledger, play
from tactical.rules.sw_d6_capital.choices import fire_head
from tactical.rules.sw_d6_capital.codes import roll_code
from tactical.rules.sw_d6_capital.condition import Effect, apply_effect
from tactical.rules.sw_d6_capital.deck import deck_of

HIT = [3] * 8  # ISD turbolasers: 4D + 4D battery = 8D; 24 against 15 at medium range


def _fire(state, weapon="front-turbolasers", target="t", actor="a", dice=(), **params):
    action = Action("attack", actor, FrozenMap(weapon=weapon, target=target, **params))
    return SYSTEM.apply(state, action, ScriptedDice(list(dice)))


def _isd_at_nowhere(distance=20, **target):
    return duel(ISD, {**NOWHERE, **target}, distance)


# --------------------------------------------------------------------------- the chart


def test_R004_35_shields_drained_on_a_margin_of_0_to_3():
    state = _isd_at_nowhere()
    # damage 5D = 15; resistance hull 5D + front 3 pips = 6D = 13 -> margin 2
    shot = _fire(state, dice=HIT + [3] * 5 + [2, 2, 2, 2, 2, 3])
    assert shot.summary.result == "shields-drained" and shot.summary.level == "none"
    assert condition(shot.state, "t").shields_drained


def test_R004_38_drained_shields_are_0D_until_the_next_damage_control():
    state = with_condition(_isd_at_nowhere(), "t", shields_drained=True)
    facts = combat.fire_facts(state, "a", "front-turbolasers", "t", {})
    assert dict(facts.resistance_terms)["shields"] == 0
    state = state.with_rule_state(turn=1)
    regenerated, _ = play.prepare(state, "Damage Control")
    assert not condition(regenerated, "t").shields_drained


def test_R004_35_to_R004_37_lightly_damaged_and_its_effect():
    state = _isd_at_nowhere()
    # margin 20 - 14 = 6: Lightly Damaged; effect roll 6: Engines Damaged (-1 Move)
    shot = _fire(state, dice=HIT + [4] * 5 + [2, 2, 2, 2, 3, 3] + [6])
    assert (shot.summary.result, shot.summary.level, shot.summary.effect) == (
        "light",
        "light",
        "engines-damaged",
    )
    after = condition(shot.state, "t")
    assert after.lost_moves == 1 and after.max_speed() == "high"
    lookup = [e for e in shot.events if e.kind == "lookup"]
    assert [e.spec_id for e in lookup] == ["T004.6", "T004.7"]


def test_R004_36_heavily_damaged_ship_hit_lightly_becomes_severe_A004_17():
    state = _isd_at_nowhere(damage="heavy")
    # effect on the Severe table (the resulting level): 3 -> Disabled Hyperdrive
    shot = _fire(state, dice=HIT + [4] * 5 + [2, 2, 2, 2, 3, 3] + [3])
    assert shot.summary.level == "severe" and shot.summary.effect == "disabled-hyperdrive"
    escalation = next(e for e in shot.events if e.kind == "escalation")
    assert (escalation.get("current"), escalation.get("new")) == ("heavy", "light")


def test_R004_36_severely_damaged_ship_damaged_again_is_destroyed():
    state = _isd_at_nowhere(damage="severe")
    shot = _fire(state, dice=HIT + [4] * 5 + [2, 2, 2, 2, 3, 3])
    assert shot.summary.destroyed and not shot.state.has_unit("t")
    assert condition(shot.state, "t").level == "destroyed"


def test_R004_37_weapons_badly_damaged_re_roll():
    state = _isd_at_nowhere()
    # margin 24 - 14 = 10: Heavily Damaged; 3 -> re-roll 5 -> destroyed weapon type
    shot = _fire(state, dice=[*HIT, *(5, 5, 5, 5, 4), *(2, 2, 2, 2, 3, 3), 3, 5])
    assert shot.summary.effect == "weapons-destroyed"
    after = condition(shot.state, "t")
    weapon = deck_of(shot.state.unit("t")).weapons[0]
    assert after.weapon_status(weapon) == "weapons-destroyed"
    with pytest.raises(UserError) as error:
        combat.fire_facts(shot.state, "t", weapon.id, "a", {})
    assert error.value.spec_id == "T004.8"


def test_R004_32_a_targeted_system_takes_its_entry_and_plus_6():
    """A004.18: targeting a system is +6 to the Difficulty, not -6D to the roll."""
    state = _isd_at_nowhere()
    facts = combat.fire_facts(state, "a", "front-turbolasers", "t", {"location": "engines"})
    assert facts.difficulty == 15 + 6
    # margin 10 -> Heavily Damaged; Engines: row 6 with no effect roll
    shot = _fire(state, location="engines", dice=[*HIT, *(5, 5, 5, 5, 4), *(2, 2, 2, 2, 3, 3)])
    assert shot.summary.effect == "engines-damaged"
    assert condition(shot.state, "t").lost_moves == 2
    with pytest.raises(UserError) as error:
        combat.fire_facts(state, "a", "front-turbolasers", "t", {"location": "galley"})
    assert error.value.spec_id == "R004.32"


def test_R004_32_severe_hit_on_the_shields_overloads_the_reactor():
    state = _isd_at_nowhere()
    # margin 28 - 14 = 14: Severely Damaged; Shields -> Overloaded Reactor; rounds roll 3
    dice = [*HIT, *(6, 6, 6, 5, 5), *(2, 2, 2, 2, 3, 3), 3]
    shot = _fire(state, location="shields", dice=dice)
    assert shot.summary.effect == "overloaded-reactor"
    assert condition(shot.state, "t").reactor_countdown == 3


def test_R004_34_resistance_uses_the_arc_facing_the_attacker_GEO004_4():
    state = _isd_at_nowhere()
    state = with_condition(state, "t", shield_arcs=(1, 0, 8, 0))
    facts = combat.fire_facts(state, "a", "front-turbolasers", "t", {})
    assert facts.struck_arc == "front" and dict(facts.resistance_terms)["shields"] == 1
    turned = state.replace_unit(state.unit("t").moved_to(state.unit("t").pose.__class__(30, 30, 0)))
    facts = combat.fire_facts(turned, "a", "front-turbolasers", "t", {})
    assert facts.struck_arc == "rear" and dict(facts.resistance_terms)["shields"] == 8


def test_GEO004_4_on_an_arc_line_the_better_shielded_arc_resists():
    state = duel(ISD, NOWHERE, 20, target_heading=225.0)  # the ISD is on its front/left line
    state = with_condition(state, "t", shield_arcs=(2, 0, 0, 5))
    facts = combat.fire_facts(state, "a", "front-turbolasers", "t", {})
    assert facts.struck_arc == "left"


def test_R004_34_hull_penalties_are_capped_at_2D():
    state = with_condition(_isd_at_nowhere(), "t", hull_blown=6, ionization=2)
    facts = combat.fire_facts(state, "a", "front-turbolasers", "t", {})
    assert dict(facts.resistance_terms)["hull_penalty"] == -6


def test_R004_49_a_pc_ship_is_catastrophically_damaged_instead():
    state = _isd_at_nowhere(damage="severe", pc_crew=True)
    # destroyed -> Catastrophic Damage 4: Blazing Hulk
    shot = _fire(state, dice=HIT + [4] * 5 + [2, 2, 2, 2, 3, 3] + [4])
    assert shot.summary.level == "catastrophic" and shot.state.has_unit("t")
    assert condition(shot.state, "t").blazing
    with pytest.raises(UserError):
        combat.fire_facts(shot.state, "t", "front-quad-turbolasers", "a", {})
    # each new round the hulk rolls 1D: on a 1 it explodes (T004.10)
    turned = SYSTEM.apply(shot.state, Action("initiative", "A"), ScriptedDice([1, 6, 6, 6, 6]))
    assert not turned.state.has_unit("t")
    assert any(e.kind == "explodes" for e in turned.events)


def test_R004_49_a_hulk_hit_again_stays_catastrophic_with_no_effect_roll():
    """A hit on a catastrophically damaged ship (the level that took Destroyed's place)
    keeps it there and rolls no effect table (no table has a row for the level)."""
    state = _isd_at_nowhere(damage="severe", pc_crew=True)
    shot = _fire(state, dice=HIT + [4] * 5 + [2, 2, 2, 2, 3, 3] + [2, 2])  # structural damage
    hulk = SYSTEM.apply(shot.state, Action("initiative", "A"), ScriptedDice([6] * 4)).state
    assert condition(hulk, "t").level == "catastrophic" and hulk.has_unit("t")
    again = _fire(hulk, dice=HIT + [4] * 5 + [2, 2, 2, 2, 3, 3])
    assert again.summary.level == "catastrophic" and again.state.has_unit("t")
    assert condition(again.state, "t").level == "catastrophic"
    assert any(e.kind == "no-further-effect" and e.spec_id == "R004.49" for e in again.events)


def test_R004_49_structural_damage_counts_down_to_destruction():
    state = _isd_at_nowhere(damage="severe", pc_crew=True)
    shot = _fire(state, dice=HIT + [4] * 5 + [2, 2, 2, 2, 3, 3] + [2, 2])
    assert condition(shot.state, "t").abandon_countdown == 2
    first = SYSTEM.apply(shot.state, Action("initiative", "A"), ScriptedDice([6] * 4))
    assert first.state.has_unit("t")
    second = SYSTEM.apply(first.state, Action("initiative", "A"), ScriptedDice([6] * 4))
    assert not second.state.has_unit("t")


def test_R004_49_without_the_option_a_pc_ship_is_destroyed():
    state = duel(
        ISD, {**NOWHERE, "damage": "severe", "pc_crew": True}, 20, catastrophic_damage=False
    )
    shot = _fire(state, dice=HIT + [4] * 5 + [2, 2, 2, 2, 3, 3])
    assert shot.summary.destroyed


def test_R004_47_R004_48_bridge_smashed_rolls_passenger_damage_and_casualties():
    state = _isd_at_nowhere()
    # margin 14: Severe; 5 -> Controls Damaged; passenger damage 6D rolled for the GM
    dice = HIT + [6, 6, 6, 5, 5] + [2, 2, 2, 2, 3, 3] + [5] + [1] * 6
    shot = _fire(state, dice=dice)
    assert shot.summary.effect == "controls-damaged"
    passengers = next(e for e in shot.events if e.spec_id == "R004.47")
    assert passengers.get("code") == "6D"
    after = condition(shot.state, "t")
    turn = ledger.turn_of(shot.state)
    assert after.casualties == ((turn + 1, 18, 12),)
    assert after.crew_penalty(turn) == 9 + 18 and after.crew_penalty(turn + 2) == 9 + 12
    assert after.controls_damaged == 9


def test_A004_26_every_level_option_rolls_passenger_damage_for_each_level():
    state = duel(ISD, NOWHERE, 20, passenger_damage="every-level")
    shot = _fire(state, dice=HIT + [4] * 5 + [2, 2, 2, 2, 3, 3] + [6] + [2])
    assert condition(shot.state, "t").casualties == ((1, 3, 0),)


# --------------------------------------------------------------------------- ion weapons


def _ion_duel():
    return duel({**ISD, "weapons": [ION]}, NOWHERE, 20)


def test_R004_43_ion_hits_use_the_ionization_chart_A004_22():
    state = _ion_duel()
    # gunnery 3D + 3D+2 = 6D+2; damage 4D = 22 vs resistance 6D = 13: margin 9 -> 3D
    shot = _fire(state, "front-ion-cannon", dice=[3] * 6 + [6, 6, 5, 5] + [2, 2, 2, 2, 2, 3])
    assert shot.summary.result == "ionization 3D" and shot.summary.level == "none"
    after = condition(shot.state, "t")
    assert after.ionization == 3 and after.ion_shields == 9 and after.shield_arcs == (0, 0, 0, 0)


def test_R004_41_R004_42_ionization_penalties_and_lost_moves():
    """A004.23: Lost Moves from ionization recover as the ionization rolls off."""
    state = with_condition(_isd_at_nowhere(), "t", ionization=1)
    deck, cond = deck_of(state.unit("t")), condition(state, "t")
    assert cond.lost_moves == 1 and cond.maneuverability(deck) == 0  # 1D - 1D: 0D
    assert cond.fire_control_loss == 3 and cond.hull_penalty() == 3
    facts = combat.fire_facts(state, "t", "front-quad-turbolasers", "a", {})
    assert dict(facts.gfc_terms)["fire_control_loss"] == -3
    turned = SYSTEM.apply(state, Action("initiative", "A"), ScriptedDice([6] * 9))
    assert condition(turned.state, "t").ionization == 0  # rolls off 1D a round
    rolled = next(e for e in turned.events if e.kind == "ionization-rolls-off")
    assert rolled.spec_id == "R004.41" and rolled.get("lost_moves") == 0


def test_R004_41_a_weapon_at_0D_fire_control_cannot_fire():
    state = with_condition(_isd_at_nowhere(), "t", ionization=3)  # 3D Quad Turbolasers FC
    with pytest.raises(UserError) as error:
        combat.fire_facts(state, "t", "front-quad-turbolasers", "a", {})
    assert error.value.spec_id == "R004.41"


def test_R004_38_a_ship_without_shields_is_ionized_instead():
    state = duel(ISD, {**NOWHERE, "shields": "0D"}, 20)
    drained = _fire(state, dice=HIT + [3] * 5 + [3, 3, 3, 2, 2])  # 15 vs 13: margin 2
    assert drained.summary.result == "ionization 1D"
    assert condition(drained.state, "t").ionization == 1


def test_R004_46_maneuverability_overflow_becomes_lost_moves():
    """A004.24: a Maneuverability loss beyond 0D converts to Lost Moves (1D = 1 Move)."""
    state = _isd_at_nowhere()
    deck, cond = deck_of(state.unit("t")), condition(state, "t")
    cond, events = apply_effect(cond, deck, "heavy", "maneuverability", 2, 2, "front")
    assert cond.maneuverability(deck) == 0 and cond.lost_moves == 1
    assert events[0].get("pips") == 3 and events[0].get("lost_moves") == 1


def test_T004_7_5_shields_blown_fall_back_to_the_hull_then_ionization():
    state = duel(ISD, {**NOWHERE, "shields": "1D"}, 20)
    deck, cond = deck_of(state.unit("t")), condition(state, "t")
    cond, _ = apply_effect(cond, deck, "heavy", "shields-blown", 2, 0, "front")
    assert (cond.shields_blown, cond.hull_blown, cond.shield_arcs) == (3, 3, (0, 0, 0, 0))
    cond, _ = apply_effect(cond, deck, "light", "shields-blown", 1, 0, "front")
    assert cond.hull_blown == 6 and cond.ionization == 0
    cond, events = apply_effect(cond, deck, "light", "shields-blown", 1, 0, "front")
    assert cond.ionization == 1 and any(e.spec_id == "A004.25" for e in events)


# --------------------------------------------------------------------------- declarations


def test_R004_26_each_weapon_unit_fires_once_a_turn():
    state = _isd_at_nowhere()
    fired = _fire(state, dice=[1] * 8).state
    with pytest.raises(UserError) as error:
        combat.fire_facts(fired, "a", "front-turbolasers", "t", {})
    assert error.value.spec_id == "R004.26"
    next_turn = SYSTEM.apply(fired, Action("initiative", "A"), ScriptedDice([6] * 9)).state
    assert combat.fire_facts(next_turn, "a", "front-turbolasers", "t", {})
    with pytest.raises(UserError) as error:
        combat.fire_facts(state, "a", "death-star-laser", "t", {})
    assert error.value.spec_id == "R004.26"


def test_R004_27_a_batch_keeps_its_size_and_closes_when_done():
    guns = [{**TURBOLASER, "name": n} for n in ("A", "B", "C")]
    state = duel({**ISD, "weapons": guns}, NOWHERE, 20)
    with pytest.raises(UserError) as error:
        combat.fire_facts(state, "a", "front-a", "t", {"batch": 4})
    assert error.value.spec_id == "R004.27"
    first = _fire(state, "front-a", batch=2, dice=[1] * 7)
    assert dict(ledger.batch(first.state)) == {"ship": "a", "size": 2, "used": 1}
    with pytest.raises(UserError) as error:
        combat.fire_facts(first.state, "a", "front-b", "t", {"batch": 3})
    assert error.value.spec_id == "R004.27"
    second = _fire(first.state, "front-b", dice=[1] * 7)
    assert ledger.batch(second.state) is None and condition(second.state, "a").batches == 1
    third = combat.fire_facts(second.state, "a", "front-c", "t", {})
    assert dict(third.gfc_terms)["batch_map"] == 0


def test_R004_28_gunnery_code_terms_and_an_unrollable_code():
    state = with_condition(_isd_at_nowhere(), "a", order="evasive", dc_map=2, command_mod=-1)
    facts = combat.fire_facts(state, "a", "front-turbolasers", "t", {"battery_damage": 3})
    assert dict(facts.gfc_terms) == {
        "fire_control": 12,
        "battery": 9,
        "batch_map": 0,
        "order_map": -3,
        "damage_control_map": -6,
        "shields_map": 0,
        "disrupted": 0,
        "crew": 0,
        "controls_damaged": 0,
        "fire_control_loss": 0,
        "command": -1,
    }
    assert facts.gfc_pips == 11
    crippled = with_condition(state, "a", dc_map=7)
    with pytest.raises(UserError) as error:
        combat.fire_facts(crippled, "a", "front-turbolasers", "t", {})
    assert error.value.spec_id == "R004.1"


def test_R004_29_the_target_must_be_in_the_weapons_arc_GEO004_3():
    state = duel({**ISD, "weapons": [{**TURBOLASER, "arc": "rear"}]}, NOWHERE, 20)
    with pytest.raises(UserError) as error:
        combat.fire_facts(state, "a", "rear-turbolasers", "t", {})
    assert error.value.spec_id == "R004.29" and "front" in error.value.message
    with pytest.raises(UserError) as error:
        combat.fire_facts(state, "a", "rear-turbolasers", "a", {})
    assert error.value.spec_id == "R004.29"


def test_R004_30_range_bands_and_their_difficulties_GEO004_2():
    """A004.14: Range Difficulties are the T004.19 parameters (5/10/15/20, configurable)."""
    expectations = [(2, "point-blank", 5), (10, "short", 10), (30, "medium", 15), (40, "long", 20)]
    for distance, band, difficulty in expectations:
        facts = combat.fire_facts(_isd_at_nowhere(distance), "a", "front-turbolasers", "t", {})
        assert (facts.band, facts.difficulty) == (band, difficulty)
    far = duel(ISD, NOWHERE, 40, inches_per_space=0.5)  # 80 Space units: beyond Long
    with pytest.raises(UserError) as error:
        combat.fire_facts(far, "a", "front-turbolasers", "t", {})
    assert error.value.spec_id == "GEO004.2"
    custom = duel(ISD, NOWHERE, 20, range_medium=13)
    assert combat.fire_facts(custom, "a", "front-turbolasers", "t", {}).difficulty == 13


def test_R004_31_the_decks_allocation_limitation():
    limited = {**TURBOLASER, "damage_limit": "1D"}
    state = duel({**ISD, "weapons": [limited]}, NOWHERE, 2)  # point blank: no range cap
    facts = combat.fire_facts(state, "a", "front-turbolasers", "t", {})
    assert facts.band == "point-blank" and facts.battery_cap == 3


def test_R004_39_no_fire_after_declaring_all_out():
    state = duel({**ISD, "speed": "all-out"}, NOWHERE, 20)
    with pytest.raises(UserError) as error:
        combat.fire_facts(state, "a", "front-turbolasers", "t", {})
    assert error.value.spec_id == "R004.39"


def test_R004_44_a_controls_dead_ship_takes_no_actions():
    state = with_condition(
        _isd_at_nowhere(), "a", effects=(Effect("controls-dead", "light"),), level="light"
    )
    with pytest.raises(UserError) as error:
        combat.fire_facts(state, "a", "front-turbolasers", "t", {})
    assert error.value.spec_id == "R004.44"


# --------------------------------------------------------------------------- the Action Phase


def _three_ships():
    state = SYSTEM.setup(
        table(
            ship("a1", 20, 10, "A", **ISD),
            ship("b1", 25, 34, "B", 180, **ISD),
            ship("a2", 30, 10, "A", **ISD),
        )
    )
    return state.with_rule_state(
        turn=1, initiative={"order": ("a1", "b1", "a2"), "winner": "a1", "masterstroke": False}
    )


def test_R004_25_firing_goes_round_from_the_highest_initiative():
    state = _three_ships()
    assert fire_head(state, frozenset()).id == "a1"
    state = _fire(state, target="b1", actor="a1", dice=[1] * 8).state
    assert fire_head(state, frozenset()).id == "b1"
    assert SYSTEM.actions(state, TurnPosition(1, 3, 0, 0), "A") == ()
    b_choices = SYSTEM.actions(state, TurnPosition(1, 3, 1, 0), "B")
    assert {c.kind for c in b_choices} == {"attack", "hold-fire"}
    state = SYSTEM.apply(state, Action("hold-fire", "b1"), scripted()).state
    assert fire_head(state, frozenset()).id == "a2"
    state = _fire(state, target="b1", actor="a2", dice=[1] * 8).state
    assert fire_head(state, frozenset()) is None  # everyone has fired all he can


def test_R004_25_a_side_that_passes_holds_and_the_others_go_on():
    state = _three_ships()
    # A passes while its captain a1 is next: B's captain may act meanwhile
    choices = SYSTEM.actions(state, TurnPosition(1, 3, 1, 1), "B")
    assert {c.actor for c in choices} == {"b1"}
    state = _fire(state, target="a1", actor="b1", dice=[1] * 8).state
    assert fire_head(state, frozenset()).id == "a1"


def test_R004_40_masterstroke_move_then_fire_from_a_new_arc_GEO004_6():
    guns = [
        {**TURBOLASER, "name": "Turbolasers", "arc": "front"},
        {**TURBOLASER, "name": "Turbolasers", "arc": "right"},
        {**TURBOLASER, "name": "Turbolasers", "arc": "left"},
    ]
    state = duel({**ISD, "weapons": guns, "speed": "cautious"}, NOWHERE, 20)
    state = state.with_rule_state(
        turn=1, initiative={"order": ("a", "t"), "winner": "a", "masterstroke": True}
    )
    state = _fire(state, "front-turbolasers", batch=3, dice=[1] * 8).state
    with pytest.raises(UserError) as error:
        combat.fire_facts(state, "a", "right-turbolasers", "t", {})
    assert error.value.spec_id == "R004.29"  # not in the right arc yet anyway
    moved = SYSTEM.apply(state, Action("maneuver", "a", FrozenMap(path="P90")), scripted())
    assert moved.state.unit("a").heading == pytest.approx(270.0)
    cond = condition(moved.state, "a")
    assert cond.masterstroke_moved and cond.moved
    facts = combat.fire_facts(moved.state, "a", "right-turbolasers", "t", {})
    assert facts.arc == "right" and dict(facts.gfc_terms)["batch_map"] == -6
    state = _fire(moved.state, "right-turbolasers", dice=[1] * 8).state
    assert condition(state, "a").arcs_used_at("t") == ("front", "right")
    with pytest.raises(UserError) as error:
        SYSTEM.apply(state, Action("maneuver", "a"), scripted())
    assert error.value.spec_id == "R004.50"


def test_R004_40_only_the_masterstroke_captain_moves_in_the_action_phase():
    state = duel(ISD, NOWHERE, 20).with_rule_state(
        turn=1, initiative={"order": ("a", "t"), "winner": "a", "masterstroke": False}
    )
    with pytest.raises(UserError) as error:
        SYSTEM.apply(state, Action("maneuver", "a"), scripted())
    assert error.value.spec_id == "R004.40"


# --------------------------------------------------------------------------- odds


def test_attack_odds_are_exact_and_consistent():
    state = _isd_at_nowhere(25)
    attack = SYSTEM.declare_attack(state, "a", "turbolasers", "t", {"battery_damage": 6})
    assert attack.weapon == "front-turbolasers"
    report = SYSTEM.attack_odds(state, attack)
    result = report.section("result").distribution
    assert result.total == 1
    facts = combat.fire_facts(state, "a", "front-turbolasers", "t", dict(attack.params))
    gunnery = enumerate_outcomes(lambda dice: roll_code(facts.gfc_pips, dice).total)
    # R004.5 (revised): the Gunnery roll must beat the Difficulty; a tie misses
    expected = gunnery.where(lambda total: total > facts.difficulty)
    assert 1 - result.probability("miss") == expected == Fraction(report.facts["hit_probability"])
    assert report.section("destroyed").distribution.total == 1
    assert report.facts["battery_damage"] == "2D" and report.facts["band"] == "medium"
    levels = report.section("damage_level").distribution
    assert levels.probability("none") > levels.probability("light") > 0


def test_attack_through_the_generic_action_matches_resolve_attack():
    state = _isd_at_nowhere()
    dice = HIT + [4] * 5 + [2, 2, 2, 2, 3, 3] + [6]
    via_action = _fire(state, dice=dice)
    attack = SYSTEM.declare_attack(state, "a", "front-turbolasers", "t")
    direct = SYSTEM.resolve_attack(state, attack, ScriptedDice(dice))
    assert via_action.events == direct.events and via_action.summary == direct.summary
    action = Action("attack", "a", FrozenMap(weapon="front-turbolasers", target="t"))
    assert (
        SYSTEM.action_odds(state, action).as_dict() == SYSTEM.attack_odds(state, attack).as_dict()
    )


@settings(max_examples=60, deadline=None)
@given(
    st.floats(5, 65),
    st.floats(5, 40),
    st.floats(0, 359.9),
    st.floats(0, 359.9),
    st.floats(2, 30),
    st.floats(0, 359.9),
)
def test_GEO004_3_GEO004_4_every_target_lies_in_an_arc_and_faces_with_one(
    x, y, heading, bearing, distance, target_heading
):
    """Property: the firer's arcs holding a target are never empty (at most two, adjacent on
    a line), and the struck arc is one of the target's arcs holding the firer."""
    import math

    tx = x + distance * math.sin(math.radians(bearing))
    ty = y + distance * math.cos(math.radians(bearing))
    firer = ship("f", x, y, "A", heading)
    target = ship("g", tx, ty, "B", target_heading)
    arcs = combat.firing_arcs(firer, target)
    assert 1 <= len(arcs) <= 2
    state = SYSTEM.setup(table(firer, target, width=200, height=200))
    struck = combat.facing_arc(target, condition(state, "g"), firer)
    assert struck in combat.firing_arcs(target, firer)


def test_R004_40_no_arc_used_this_turn_fires_again_after_the_masterstroke_move():
    """R004.40: "never again from an arc already used this turn": after the move a weapon
    that has not fired yet is still refused from an arc fired from before it, at any target."""
    guns = [
        {**TURBOLASER, "name": "Turbolasers", "arc": "front"},
        {**ION, "name": "Ion Cannon", "arc": "front"},
        {**TURBOLASER, "name": "Turbolasers", "arc": "right"},
    ]
    state = duel({**ISD, "weapons": guns, "speed": "cautious"}, NOWHERE, 20)
    state = state.with_rule_state(
        turn=1, initiative={"order": ("a", "t"), "winner": "a", "masterstroke": True}
    )
    state = _fire(state, "front-turbolasers", dice=[1] * 8).state
    moved = SYSTEM.apply(state, Action("maneuver", "a", FrozenMap(path="F1")), scripted()).state
    ion = next(
        w.id
        for w in deck_of(moved.unit("a")).weapons
        if w.id != "front-turbolasers" and w.arc == "front"
    )
    with pytest.raises(UserError) as error:
        combat.fire_facts(moved, "a", ion, "t", {})
    assert error.value.spec_id == "R004.40"
    deck, cond = deck_of(moved.unit("a")), condition(moved, "a")
    blocked = {w.id for w in deck.weapons if combat.weapon_block(cond, w) is not None}
    assert ion in blocked and "right-turbolasers" not in blocked  # what the panel offers
    assert condition(moved, "a").arcs_before_masterstroke == ("front",)
    # the next turn starts clean
    assert condition(moved, "a").new_turn().arcs_before_masterstroke == ()
