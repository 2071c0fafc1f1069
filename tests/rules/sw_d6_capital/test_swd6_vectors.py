"""Every worked example of seed 004 (X004.1-X004.23) as its own test."""

from __future__ import annotations

from dataclasses import replace

import pytest
from swd6_builders import (
    ISD,
    NOWHERE,
    SYSTEM,
    TURBOLASER,
    condition,
    duel,
    faces_for,
    scripted,
    ship,
    table,
    with_condition,
)

from tactical.dice import DieCode, ScriptedDice
from tactical.errors import UserError
from tactical.model import FrozenMap
from tactical.rules.base import Action
from tactical.rules.sw_d6_capital import combat, command, ledger, maneuver, repair, sequence
from tactical.rules.sw_d6_capital.codes import ship_defence
from tactical.rules.sw_d6_capital.condition import add_ionization, apply_effect
from tactical.rules.sw_d6_capital.deck import deck_of
from tactical.rules.sw_d6_capital.tables import ENGINES_DAMAGED, command_difficulty

# --------------------------------------------------------------------------- initiative


def _initiative_table():
    return SYSTEM.setup(
        table(
            ship("nowhere", 20, 10, "Rebels", **NOWHERE),
            ship("isd", 20, 40, "Empire", 180, **ISD),
        )
    )


def _turn(state, nowhere_roll: int, isd_roll: int):
    dice = ScriptedDice(faces_for(nowhere_roll, 5) + faces_for(isd_roll, 4))
    resolution = SYSTEM.apply(state, Action("initiative", "Rebels"), dice)
    assert dice.remaining == ()
    return resolution


def _bonuses(state):
    return condition(state, "nowhere").initiative_bonus, condition(state, "isd").initiative_bonus


def test_X004_1_nowhere_wins_turn_one_and_gains_plus_one():
    """R004.11, R004.12: 5D vs 4D, 15 vs 11."""
    first = _turn(_initiative_table(), 15, 11)
    info = ledger.initiative_info(first.state)
    assert info["winner"] == "nowhere" and info["order"] == ("nowhere", "isd")
    assert _bonuses(first.state) == (1, 0)
    assert info["margin"] == 4 and not info["masterstroke"]


def test_X004_2_nowhere_retains_on_17_plus_1_against_17():
    """R004.12, A004.3: draws are judged after bonuses."""
    second = _turn(_turn(_initiative_table(), 15, 11).state, 17, 17)
    info = ledger.initiative_info(second.state)
    assert info["winner"] == "nowhere" and dict(info["totals"]) == {"nowhere": 18, "isd": 17}
    assert _bonuses(second.state) == (2, 0)
    assert info["margin"] == 1


def test_X004_3_isd_retakes_initiative_and_no_masterstroke():
    """R004.12, R004.13: 15 + 2 vs 19; margins 4, 1, 2 never reach 10."""
    state = _turn(_turn(_initiative_table(), 15, 11).state, 17, 17).state
    third = _turn(state, 15, 19)
    info = ledger.initiative_info(third.state)
    assert info["winner"] == "isd" and info["margin"] == 2 and not info["masterstroke"]
    assert _bonuses(third.state) == (0, 1)


# --------------------------------------------------------------------------- command


def test_X004_4_command_tracker_plus_1D_plus_1_and_minus_2():
    """R004.16: 25 vs 12 -> +13 -> 4 pips; 10 vs 17 -> -7 -> -2 pips."""
    nowhere = command.command_roll("nowhere", DieCode.parse("5D").pips, 12, scripted(5, 5, 5, 5, 5))
    isd = command.command_roll("isd", DieCode.parse("4D").pips, 17, scripted(3, 3, 2, 2))
    assert (nowhere.margin, nowhere.tracker) == (13, 4)
    assert (isd.margin, isd.tracker) == (-7, -2)
    state = _initiative_table()
    state = state.replace_unit(state.unit("nowhere").with_stats(command="5D"))
    applied = SYSTEM.apply(state, Action("command", "nowhere"), scripted(5, 5, 5, 5, 5))
    assert condition(applied.state, "nowhere").command_mod == 4
    tracker = next(e for e in applied.events if e.kind == "command")
    assert tracker.get("tracker") == "1D+1" and tracker.spec_id == "R004.16"


def test_X004_5_capital_ship_defence_6D_plus_2_is_14():
    """R004.8."""
    assert ship_defence(DieCode.parse("1D"), DieCode.parse("5D+2")) == 14


def test_X004_6_fighter_ship_defence_is_20():
    """R004.9: Pilot 3D+2 + Maneuverability 3D = 6D+2 -> 3 x 6 + 2."""
    assert ship_defence(DieCode.parse("3D"), DieCode.parse("3D+2"), fighter=True) == 20


# --------------------------------------------------------------------------- damage control


def test_X004_7_damage_control_under_evasive_then_one_weapon():
    """R004.17, R004.20, R004.21: DC roll at -1D; the weapon at -2D (Evasive 1D + DC 1D).

    A004.9: the order's MAP applies to the Damage Control roll too.
    """
    state = duel({**NOWHERE, "damage": "light"}, ISD, 20)
    state = with_condition(state, "a", order="evasive")
    deck, cond = deck_of(state.unit("a")), condition(state, "a")
    plan = repair.repair_plan("a", deck, cond, 1, {})
    assert dict(plan.terms)["order_map"] == -3
    repaired = SYSTEM.apply(state, Action("damage-control", "a"), ScriptedDice([1] * 5))
    facts = combat.fire_facts(repaired.state, "a", "front-quad-turbolasers", "t", {})
    terms = dict(facts.gfc_terms)
    assert terms["order_map"] + terms["damage_control_map"] == -6  # -2D
    assert terms["batch_map"] == 0


def test_X004_8_maximum_repair_effort_of_cso_5D_plus_2():
    """R004.20, R004.21: up to +5D (a 10D+2 roll), then -6D on subsequent actions."""
    state = duel({**NOWHERE, "damage": "light"}, ISD, 20)
    deck, cond = deck_of(state.unit("a")), condition(state, "a")
    with pytest.raises(UserError):  # Lightly Damaged: CSO 4D+2 now, 4 actions (A004.10)
        repair.repair_plan("a", deck, cond, 1, {"extra_actions": 5})
    undamaged = replace(cond, level="none", shields_blown=3)
    plan = repair.repair_plan("a", deck, undamaged, 1, {"extra_actions": 5})
    assert plan.code_pips == DieCode.parse("10D+2").pips
    with pytest.raises(UserError) as error:
        repair.repair_plan("a", deck, undamaged, 1, {"extra_actions": 6})
    assert error.value.spec_id == "R004.20"
    result = repair.repair_roll("a", plan, ScriptedDice([6] * 10))
    updated, _ = repair.apply_repair(undamaged, deck, plan, result)
    assert updated.dc_map == 6


def _heavy_isd():
    state = duel(NOWHERE, {**ISD, "damage": "heavy"}, 20)
    return with_condition(state, "t", shields_blown=11, shield_arcs=(0, 0, 0, 0))


def test_X004_9_isd_repairs_heavy_damage_with_three_extra_actions():
    """R004.18-R004.23: CSO 5D+1 -> 3D+1; Difficulty 20; roll 6D+1; 23 repairs; MAP -4D."""
    state = _heavy_isd()
    deck, cond = deck_of(state.unit("t")), condition(state, "t")
    assert cond.current_cso(deck, 1) == DieCode.parse("3D+1").pips
    params = {"extra_actions": 3, "repair_damage": True, "shield_dice": 0}
    plan = repair.repair_plan("t", deck, cond, 1, params)
    assert plan.difficulty == 20
    assert plan.code_pips == DieCode.parse("6D+1").pips
    dice = ScriptedDice(faces_for(22, 6))  # 22 + 1 pip = 23
    applied = SYSTEM.apply(state, Action("damage-control", "t", FrozenMap(params)), dice)
    assert applied.summary == "repaired"
    after = condition(applied.state, "t")
    assert after.level == "none" and after.dc_map == 4
    assert after.shields_blown == 11  # the shields were not covered


def test_X004_10_repairing_the_isd_with_its_shields_is_difficulty_60():
    """R004.22: 20 + 4 x 10 (3D+2 of shields = 4 started dice)."""
    state = _heavy_isd()
    deck, cond = deck_of(state.unit("t")), condition(state, "t")
    plan = repair.repair_plan("t", deck, cond, 1, {"repair_damage": True})
    assert plan.shield_pips == 11 and plan.difficulty == 60


def test_X004_11_lightly_damaged_ship_restoring_2D_of_shields_is_30():
    """R004.22."""
    state = duel({**NOWHERE, "damage": "light"}, ISD, 20)
    state = with_condition(state, "a", shields_blown=6)
    deck, cond = deck_of(state.unit("a")), condition(state, "a")
    assert repair.repair_plan("a", deck, cond, 1, {}).difficulty == 30


# --------------------------------------------------------------------------- firing


def _four_gun_table():
    guns = [
        {**TURBOLASER, "name": name, "arc": arc}
        for name, arc in (("A", "front"), ("B", "front"), ("A", "left"), ("B", "left"))
    ]
    return SYSTEM.setup(
        table(
            ship("isd", 30, 24, "Empire", 0, **{**ISD, "weapons": guns}),
            ship("ahead", 30, 40, "Rebels", 180, **NOWHERE),
            ship("beside", 14, 24, "Rebels", 90, **NOWHERE),
        )
    )


def test_X004_12_four_weapons_in_one_action_each_at_minus_3D():
    """R004.27 (A004.8)."""
    state = _four_gun_table()
    shots = [
        ("front-a", "ahead", 4),
        ("front-b", "ahead", None),
        ("left-a", "beside", None),
        ("left-b", "beside", None),
    ]
    for weapon, target, batch in shots:
        params = {"weapon": weapon, "target": target, **({"batch": batch} if batch else {})}
        facts = combat.fire_facts(
            state, "isd", weapon, target, {k: v for k, v in params.items() if k == "batch"}
        )
        assert dict(facts.gfc_terms)["batch_map"] == -9
        state = SYSTEM.apply(
            state, Action("attack", "isd", FrozenMap(params)), _misses(facts.gfc_pips)
        ).state
    assert ledger.batch(state) is None
    assert condition(state, "isd").batches == 1


def _misses(pips: int) -> ScriptedDice:
    return ScriptedDice([1] * (pips // 3))


def test_X004_13_a_target_in_two_arcs_is_fired_on_from_only_one():
    """R004.29, A004.33, A004.34."""
    weapons = [
        {**TURBOLASER, "name": "Turbolasers", "arc": "front"},
        {**TURBOLASER, "name": "Ion Cannon", "arc": "front", "ion": True},
        {**TURBOLASER, "name": "Turbolasers", "arc": "left"},
        {**TURBOLASER, "name": "Ion Cannon", "arc": "left", "ion": True},
    ]
    fleet = table(
        ship("isd", 40, 24, "Empire", 0, **{**ISD, "weapons": weapons}),
        ship("yt-1300", 25, 24, "Rebels", 90, scale="starfighter"),
        ship("corvette", 28, 20, "Rebels", 90, scale="frigate"),
        ship("mon-cal", 30, 34, "Rebels", 90, **NOWHERE),
    )
    state = SYSTEM.setup(fleet)
    assert combat.firing_arcs(state.unit("isd"), state.unit("mon-cal")) == ("front", "left")
    assert combat.firing_arcs(state.unit("isd"), state.unit("yt-1300")) == ("left",)

    def fire(s, weapon, target):
        action = Action("attack", "isd", FrozenMap(weapon=weapon, target=target))
        return SYSTEM.apply(s, action, ScriptedDice([1] * 30)).state

    state = fire(state, "front-turbolasers", "mon-cal")
    state = fire(state, "front-ion-cannon", "mon-cal")
    with pytest.raises(UserError) as error:
        combat.fire_facts(state, "isd", "left-turbolasers", "mon-cal", {})
    assert error.value.spec_id == "R004.29"
    split = fire(fire(state, "left-turbolasers", "corvette"), "left-ion-cannon", "yt-1300")
    assert condition(split, "isd").arcs_at == (
        ("mon-cal", "front"),
        ("corvette", "left"),
        ("yt-1300", "left"),
    )
    both = fire(fire(state, "left-turbolasers", "corvette"), "left-ion-cannon", "corvette")
    assert len(condition(both, "isd").fired) == 4


def test_X004_14_medium_range_caps_battery_damage_at_2D():
    """R004.31 / T004.5: 4D Battery Dice at Medium; a 2D / 2D split adds 2D to each roll."""
    state = duel({**ISD, "weapons": [TURBOLASER]}, NOWHERE, 25)
    facts = combat.fire_facts(state, "a", "front-turbolasers", "t", {"battery_damage": "2D"})
    assert facts.band == "medium" and facts.battery_cap == 6
    assert dict(facts.gfc_terms)["battery"] == 6 and dict(facts.damage_terms)["battery"] == 6
    with pytest.raises(UserError) as error:
        combat.fire_facts(state, "a", "front-turbolasers", "t", {"battery_damage": "2D+1"})
    assert error.value.spec_id == "R004.31"


def test_X004_15_short_range_caps_3D_and_2D_plus_2():
    """R004.31: Turbolaser 4D and Ion Cannon 3D+2 at Short."""
    ion = {**TURBOLASER, "name": "Ion Cannon", "battery": "3D+2", "ion": True}
    state = duel({**ISD, "weapons": [TURBOLASER, ion]}, NOWHERE, 10)
    laser = combat.fire_facts(state, "a", "front-turbolasers", "t", {"battery_damage": 6})
    assert laser.band == "short" and laser.battery_cap == 9
    cannon = combat.fire_facts(state, "a", "front-ion-cannon", "t", {})
    assert cannon.battery_cap == 8  # 2D+2
    assert dict(cannon.gfc_terms)["battery"] == 11 and cannon.battery_damage == 0


def test_X004_16_nowhere_quad_turbolasers_deal_8D_to_a_raider():
    """R004.33: 12D firing at 10D: 6D + 2D."""
    state = duel(NOWHERE, {"scale": "frigate", "hull": "3D"}, 20)
    facts = combat.fire_facts(state, "a", "front-quad-turbolasers", "t", {})
    assert str(DieCode(facts.damage_pips)) == "8D"


def test_X004_17_x_wing_torpedoes_deal_3D_against_7D_hull():
    """R004.33, A004.15: 9D at 6D against 12D; the ISD's hull is 7D with its shields down."""
    torpedoes = {"name": "Proton Torpedoes", "damage": "9D", "fire_control": "2D"}
    xwing = {"scale": "starfighter", "weapons": [torpedoes], "cso": "4D"}
    state = duel(xwing, ISD, 10)
    state = with_condition(state, "t", shields_drained=True)
    facts = combat.fire_facts(state, "a", "front-proton-torpedoes", "t", {})
    assert str(DieCode(facts.damage_pips)) == "3D"
    assert str(DieCode(facts.resistance_pips)) == "7D"


def test_X004_18_section_of_tie_interceptors_and_squadron_of_y_wings():
    """R004.54: 6D + 1D+2 = 7D+2; 6D + 3D = 9D."""
    section = ship("ties", 0, 0, scale="starfighter", unit_size="section")
    squadron = ship("ys", 0, 0, scale="starfighter", unit_size="squadron")
    state = SYSTEM.setup(table(section, squadron))
    for unit_id, expected in (("ties", "7D+2"), ("ys", "9D")):
        deck = deck_of(state.unit(unit_id))
        assert str(DieCode(combat.scale_of(deck, condition(state, unit_id)))) == expected


def test_X004_19_minus_1_then_minus_2_moves_is_cautious_only():
    """R004.45 / T004.13."""
    state = duel(NOWHERE, ISD, 20)
    deck, cond = deck_of(state.unit("a")), condition(state, "a")
    cond, _ = apply_effect(cond, deck, "light", ENGINES_DAMAGED, 0, 1, None)
    cond, _ = apply_effect(cond, deck, "heavy", ENGINES_DAMAGED, 0, 2, None)
    assert cond.lost_moves == 3 and cond.max_speed() == "cautious"
    assert command.speeds_for(deck, cond, "cruising") == ("stationary", "cautious")
    with pytest.raises(UserError) as error:
        command.check_order("a", deck, cond, "steady", "cruising", "cruising")
    assert error.value.spec_id == "R004.45"


def test_X004_20_two_dice_of_ionization_plus_three_is_controls_dead():
    """R004.44 / T004.15b: 5D in all > 4D -> Controls Dead (Lightly Damaged)."""
    state = duel(NOWHERE, ISD, 20)
    deck = deck_of(state.unit("t"))
    cond = replace(condition(state, "t"), ionization=2)
    cond, events = add_ionization(cond, deck, 3, "front", "R004.43")
    assert cond.ionization == 5 and cond.controls_dead and cond.level == "light"
    assert any(e.kind == "controls-dead" and e.get("degree") == "light" for e in events)
    again, events = add_ionization(cond, deck, 1, "front", "R004.43")
    assert again.ionization == 5 and events[0].kind == "ionization-ignored"


@pytest.mark.parametrize(("speed", "limit", "turns"), [("cautious", 90, 2), ("cruising", 45, 4)])
def test_X004_21_turning_180_degrees(speed, limit, turns):
    """R004.51: 2 turns at Cautious speed, 4 at any other."""
    state = duel({**ISD, "speed": speed}, NOWHERE, 30)
    move = maneuver.plan_ship_move(state, "a", f"S{limit}")
    assert move.final.heading == pytest.approx(limit)
    with pytest.raises(UserError) as error:
        maneuver.plan_ship_move(state, "a", f"S{limit + 1}")
    assert error.value.spec_id == "R004.51"
    assert 180 / limit == turns


def test_X004_22_command_difficulty_17_and_the_house_rule():
    """R004.15 / T004.18: 17 for 28,000-45,999 crew; 15 for 8,200-9,999; a house rule wins."""
    assert command_difficulty(37_000) == 17
    assert command_difficulty(9_000) == 15
    assert deck_of(ship("isd", 0, 0, crew=37_000)).command_difficulty == 17
    assert deck_of(ship("nowhere", 0, 0, crew=9_000)).command_difficulty == 15
    assert (
        deck_of(ship("nowhere", 0, 0, crew=9_000, command_difficulty=12)).command_difficulty == 12
    )


def test_X004_23_a_target_on_full_evasion():
    """R004.17, R004.30: Difficulty = Range + SD + 10; it cannot fire; its DC at -2D."""
    state = duel(ISD, {**NOWHERE, "damage": "light"}, 25)
    state = with_condition(state, "t", order="full-evasion")
    facts = combat.fire_facts(state, "a", "front-turbolasers", "t", {})
    assert facts.difficulty == 15 + 14 + 10
    with pytest.raises(UserError) as error:
        combat.fire_facts(state, "t", "front-quad-turbolasers", "a", {})
    assert error.value.spec_id == "R004.17"
    deck, cond = deck_of(state.unit("t")), condition(state, "t")
    assert dict(repair.repair_plan("t", deck, cond, 1, {}).terms)["order_map"] == -6
    assert sequence.PHASE_OF["attack"] == "Action"
