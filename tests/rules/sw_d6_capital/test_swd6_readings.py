"""The adopted readings of seed 004's ambiguities (A004.1-A004.39), one test each where the
reading decides something the other tests do not already pin down by name."""

from __future__ import annotations

from dataclasses import replace

from swd6_builders import ISD, NOWHERE, SYSTEM, condition, duel, scripted, ship, table

from tactical.dice import DieCode, SeededDice
from tactical.model import FrozenMap, SizeClass, Terrain
from tactical.rules.base import Action
from tactical.rules.measuring import TableGeometry
from tactical.rules.sw_d6_capital import combat, ledger, repair, sequence
from tactical.rules.sw_d6_capital.condition import add_ionization
from tactical.rules.sw_d6_capital.deck import deck_of
from tactical.rules.sw_d6_capital.initiative import next_bonuses
from tactical.rules.sw_d6_capital.tables import (
    command_tracker,
    max_repair_actions,
    unit_strength_state,
)


def test_A004_1_initiative_rounding_is_an_option():
    captain = {"tactics": "4D", "sensors": "5D"}
    for rounding, pips in (("half-pips", 14), ("odd-dice", 15)):
        state = SYSTEM.setup(table(ship("a", 10, 10, "A", **captain), initiative_rounding=rounding))
        assert sequence.contest_entries(state)[0].pips == pips


def test_A004_2_the_bonus_belongs_to_the_captain_holding_initiative():
    assert next_bonuses({"holder": 1, "other": 0}, "holder") == {"holder": 2, "other": 0}


def test_A004_6_small_command_margins_give_nothing():
    assert [command_tracker(m) for m in (-2, -1, 0, 1, 2)] == [0, 0, 0, 0, 0]


def test_A004_8_the_multiple_action_penalty_counts_one_batch():
    guns = [{"name": n, "fire_control": "4D"} for n in ("A", "B")]
    state = duel({**ISD, "weapons": guns}, NOWHERE, 20)
    first = combat.fire_facts(state, "a", "front-a", "t", {"batch": 1})
    state = SYSTEM.apply(
        state, Action("attack", "a", FrozenMap(weapon="front-a", target="t")), scripted(*[1] * 4)
    ).state
    second = combat.fire_facts(state, "a", "front-b", "t", {})
    assert dict(first.gfc_terms)["batch_map"] == dict(second.gfc_terms)["batch_map"] == 0


def test_A004_11_three_ways_to_lose_shields():
    state = duel(ISD, NOWHERE, 20)
    cond = replace(condition(state, "t"), shields_drained=True, shields_blown=3, ion_shields=6)
    deck = deck_of(state.unit("t"))
    after, _ = repair.regenerate(cond, deck)
    assert not after.shields_drained  # drained: back in full
    assert after.ion_shields == 3  # ion-downed: 1D a round
    assert after.shields_blown == 3  # blown: until repaired


def test_A004_20_no_to_hit_scale_modifier_against_fighters():
    state = duel(ISD, {"scale": "starfighter", "maneuverability": "3D", "cso": "4D"}, 20)
    assert combat.fire_facts(state, "a", "front-turbolasers", "t", {}).difficulty == 15


def test_A004_21_controls_dead_counts_the_ionization_still_active():
    state = duel(ISD, NOWHERE, 20)
    deck = deck_of(state.unit("t"))
    rolled_off = replace(condition(state, "t"), ionization=4 - 1)  # 4D, then a round passed
    after, _ = add_ionization(rolled_off, deck, 1, "front", "R004.43")
    assert after.ionization == 4 and not after.controls_dead
    after, _ = add_ionization(after, deck, 1, "front", "R004.43")
    assert after.controls_dead


def test_A004_27_a_unit_at_0D_plus_2_is_still_effective():
    assert unit_strength_state(DieCode.parse("1D+2").pips - 3) == "effective"
    assert unit_strength_state(0) == "combat-ineffective"
    assert unit_strength_state(-3) == "wiped-out"


def test_A004_31_all_out_is_declared_with_the_orders():
    state = duel(ISD, NOWHERE, 20)
    given = SYSTEM.apply(
        state, Action("orders", "a", FrozenMap(order="steady", speed="all-out")), scripted()
    )
    assert given.state.unit("a").stats["speed"] == "all-out"
    assert (
        combat.fire_block(
            given.state,
            given.state.unit("a"),
            deck_of(given.state.unit("a")),
            condition(given.state, "a"),
        ).spec_id
        == "R004.39"
    )


def test_A004_32_the_command_deck_is_read_from_unit_stats():
    deck = deck_of(ship("isd", 0, 0, **ISD))
    assert (str(deck.cso), str(deck.hull), deck.command_difficulty) == ("5D+1", "7D", 17)
    assert [w.id for w in deck.weapons] == ["front-turbolasers"]


def test_A004_35_the_tracker_never_touches_damage_or_hull():
    state = duel(ISD, NOWHERE, 20)
    state = ledger.with_condition(state, "a", replace(condition(state, "a"), command_mod=6))
    facts = combat.fire_facts(state, "a", "front-turbolasers", "t", {})
    assert facts.damage_pips == DieCode.parse("5D").pips
    assert facts.resistance_pips == DieCode.parse("5D").pips + 3


def test_A004_39_repair_actions_are_the_whole_dice_in_the_cso():
    assert max_repair_actions(DieCode.parse("5D+2").pips) == 5
    assert max_repair_actions(DieCode.parse("2D+2").pips) == 2


def test_GEO004_7_no_line_of_sight_rule_in_seed_004():
    rock = Terrain("moon", "obstructing", SizeClass.MASSIVE, polygon=((0, 0), (1, 0), (1, 1)))
    assert SYSTEM.blocks_los(rock, None, None) is False
    state = SYSTEM.setup(
        table(ship("a", 10, 10, "A", **ISD), ship("b", 10, 30, "B", 180, **NOWHERE))
    ).with_terrain(
        (Terrain("moon", "obstructing", SizeClass.MASSIVE, polygon=((8, 19), (12, 19), (10, 21))),)
    )
    assert TableGeometry.of(state).pair("a", "b").los
    assert SYSTEM.apply(
        state,
        Action("attack", "a", FrozenMap(weapon="front-turbolasers", target="b")),
        SeededDice(3),
    ).summary
