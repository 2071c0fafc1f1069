"""Every test vector of seed 002 (SPEC §3.15, X002.1-X002.8), each its own test."""

from __future__ import annotations

import numpy as np
from dw_builders import DW, ROCKETS, flyer, refused, table, unit

from tactical.dice import ScriptedDice
from tactical.model import Board, FrozenMap
from tactical.rules.base import Action
from tactical.rules.dystopian_wars import (
    combat,
    flyers,
    generators,
    maneuver,
    play,
    resolving,
    tracking,
)
from tactical.rules.dystopian_wars.generators import ActivationFlags
from tactical.session.terrain_setup import setup_terrain


def test_X002_1_terrain_roll_per_area_R002_9():
    """One 2'x2' area; side A rolls 5, side B 4: A may place one piece, B none."""
    result = setup_terrain(Board(24, 24), ScriptedDice([5, 4]), np.random.default_rng(0))
    (area,) = result.areas
    assert area.area == "A1"
    assert dict(area.rolls) == {"A": 5, "B": 4}
    assert len(area.pieces) + area.unplaced == 1


def test_X002_2_field_order_roll_6_R002_20_R002_21():
    state = play.setup(table(unit("a", 10, 10), unit("b", 10, 40, "B")))
    rolled = DW.apply(state, Action("field-order", "A"), ScriptedDice([6]))
    record = tracking.mapping(rolled.state, "field_orders")["A"]
    assert (record["roll"], record["order"]) == (6, 6)
    assert any(
        e.kind == "field-order" and "Capture the Fleet Commodore" in e.get("text")
        for e in rolled.events
    )
    # the player may instead take FO 1
    chosen = DW.apply(
        state, Action("field-order", "A", FrozenMap(take_default=True)), ScriptedDice([6])
    )
    record = tracking.mapping(chosen.state, "field_orders")["A"]
    assert (record["roll"], record["order"], record["chose_default"]) == (6, 1, True)


def test_X002_3_backwards_three_inches_is_illegal_R002_31():
    state = table(unit("a", 30, 20, move=6.0), unit("b", 30, 40, "B"))
    found = maneuver.plan(state, state.unit("a"), "B3")
    assert not found.legal
    assert [v.rule for v in found.plan.violations] == ["R002.31"]
    with refused("R002.31"):
        maneuver.move(state, state.unit("a"), "B3", ScriptedDice([]))
    assert maneuver.plan(state, state.unit("a"), "B2").legal


def _one_die_at_obscured_flyer(face: list[int]) -> int:
    rocket = dict(ROCKETS, attack_dice="1-0-0-0")
    state = table(
        unit("a", 20, 10, weapons=[rocket]),
        unit("t", 20, 14, "B", size="large", movement="aerial", height_level="obscured"),
    )
    attack = combat.declare(state, "a", "Rockets", "t")
    return resolving.resolve_declared(state, attack, ScriptedDice(face)).summary.hits


def test_X002_4_obscured_large_flyer_hit_on_5_or_6_R002_39():
    assert _one_die_at_obscured_flyer([4]) == 0
    assert _one_die_at_obscured_flyer([5]) == 1
    assert _one_die_at_obscured_flyer([6, 1]) >= 1


def _guardian_save(weapon: dict, dice: list[int]) -> int:
    state = table(
        unit("a", 20, 10, weapons=[weapon]),
        unit("t", 20, 14, "B", damage_rating=9, critical_rating=12),
        unit("gg", 24, 14, "B", generators="guardian"),
    )
    attack = combat.declare(state, "a", weapon["name"], "t")
    result = resolving.resolve_declared(state, attack, ScriptedDice(dice))
    assert any(e.kind == "guardian-save" and e.spec_id == "R002.50" for e in result.events)
    return result.summary.saved


def test_X002_5_guardian_aura_rocket_needs_5_gunnery_4_R002_50():
    one_rocket = dict(ROCKETS, attack_dice="1-0-0-0")
    one_gun = {"name": "Gun", "kind": "gunnery", "arc": "all-round", "attack_dice": "1-0-0-0"}
    assert _guardian_save(one_rocket, [5, 4]) == 0
    assert _guardian_save(one_gun, [5, 4]) == 1


def test_X002_6_ultrasonic_roll_3_chaos_and_disarray_R002_47():
    state = table(
        unit("upg", 20, 10, generators="ultrasonic"),
        unit("t", 20, 18.5, "B", heading=90.0),  # its nearest point 8" ahead, in the arc
    )
    resolution = generators.ultrasonic(
        state, state.unit("upg"), state.unit("t"), ScriptedDice([3]), ActivationFlags(moved=True)
    )
    assert tracking.until_end(resolution.state, "t") == ("chaos-and-disarray",)
    assert tracking.effects(resolution.state, "t") == ()
    assert tracking.hull_lost(resolution.state, "t") == 0


def test_X002_7_recon_wing_of_two_is_illegal_R002_53():
    with refused("R002.53", "exactly 1"):
        flyers.check_composition("recon", 2)
    state = table(
        flyer("r1", 10, 10, wing_type="recon", squadron="recon"),
        flyer("r2", 11, 10, wing_type="recon", squadron="recon"),
        unit("b", 10, 40, "B"),
    )
    with refused("R002.53"):
        play.setup(state)


def test_X002_8_new_wing_has_6_fuel_and_is_armed_R002_54():
    carrier = unit("cv", 30, 10, size="large", carrier_capacity=6, tiny_flyers_aboard=4)
    state = play.setup(table(carrier, unit("b", 30, 40, "B")))
    launched = flyers.launch(state, state.unit("cv"), "fighter", 3, turn=1)
    wing = tracking.mapping(launched.state, "wings")[launched.summary]
    assert (wing["fuel"], wing["armed"]) == (6, True)
