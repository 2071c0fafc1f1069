"""Cortex space: what a side cannot do now, each with the reason the player reads and its rule
(`RuleSystem.unavailable`)."""

from __future__ import annotations

from cortex_builders import RAIDER, SYSTEM, VIPER, table, unit, with_stats

from tactical.model import FrozenMap
from tactical.rules.base import TurnPosition
from tactical.rules.cortex_space import tracker

ADVANTAGE = TurnPosition(1, 0, 0, 0)
ACTIONS = TurnPosition(1, 1, 0, 0)


def refusals(state, position, side: str) -> dict[str, tuple[str, str | None]]:
    return {r.title: (r.reason, r.spec_id) for r in SYSTEM.unavailable(state, position, side)}


def rolled(state, **results: int):
    """The Initiative results of the turn: the vessels act from the highest down."""
    return state.with_rule_state(**{tracker.INITIATIVE: FrozenMap(results)})


def test_R003_10_no_enemy_within_the_dogfight_distance_no_dogfight():
    state = table(unit("viper", 10, 10, "A", **VIPER), unit("raider", 40, 10, "B", **RAIDER))
    assert refusals(state, ADVANTAGE, "A") == {
        "viper: dogfight for the Advantage": (
            'no enemy within the dogfight distance (12") of viper',
            "R003.10",
        )
    }
    near = table(unit("viper", 10, 10, "A", **VIPER), unit("raider", 20, 10, "B", **RAIDER))
    assert refusals(near, ADVANTAGE, "A") == {}


def test_G5_a_vessel_out_of_action_rolls_nothing():
    adrift = with_stats(RAIDER, stun=8, wound=6)  # Wound + Stun = Life Points 14
    state = table(unit("viper", 10, 10, "A", **VIPER), unit("raider", 20, 10, "B", **adrift))
    assert refusals(state, ADVANTAGE, "B") == {
        "raider: roll Initiative": (
            "raider is out of action (Wound and Stun at its Life Points): it rolls nothing",
            "G.5",
        )
    }


def test_R003_11_vessels_wait_while_a_higher_result_acts():
    state = table(unit("viper", 10, 10, "A", **VIPER), unit("raider", 20, 10, "B", **RAIDER))
    state = rolled(state, viper=12, raider=7)
    assert refusals(state, ACTIONS, "B")["raider: act"] == (
        "viper acts first (12 against 7): vessels act in order of their results, highest first",
        "R003.11",
    )
    assert "viper: act" not in refusals(state, ACTIONS, "A")


def test_GEO003_1_a_gun_with_every_enemy_beyond_its_range():
    state = table(unit("viper", 10, 10, "A", **VIPER), unit("raider", 40, 10, "B", **RAIDER))
    state = rolled(state, viper=12, raider=7)
    assert refusals(state, ACTIONS, "A")["viper: fire autocannons"] == (
        "raider is 30.00\" away (capital range): beyond the skirmish range of viper's autocannons",
        "GEO003.1",
    )


def test_R003_37_a_gun_whose_mounts_have_all_fired_this_turn():
    state = table(unit("viper", 10, 10, "A", **VIPER), unit("raider", 16, 10, "B", **RAIDER))
    state = tracker.count_fired(rolled(state, viper=12, raider=7), "viper", "autocannons", 1)
    assert refusals(state, ACTIONS, "A")["viper: fire autocannons"] == (
        "viper's autocannons have fired this turn (1 of 1 working)",
        "R003.37",
    )


def test_R003_38_no_missile_lock_at_skirmish_range_nor_with_no_missile_left():
    near = table(unit("viper", 16, 10, "A", **VIPER), unit("raider", 10, 10, "B", **RAIDER))
    near = rolled(near, viper=7, raider=12)
    assert refusals(near, ACTIONS, "B")["raider: lock missiles"] == (
        "no missile lock at skirmish range: locks need capital range or more",
        "R003.38",
    )
    empty = [dict(RAIDER["weapons"][0]), {**RAIDER["weapons"][1], "missiles": 0}]
    far = table(
        unit("viper", 40, 10, "A", **VIPER),
        unit("raider", 10, 10, "B", **with_stats(RAIDER, weapons=empty)),
    )
    far = rolled(far, viper=7, raider=12)
    assert refusals(far, ACTIONS, "B")["raider: lock missiles"] == (
        "raider's missiles has no missiles left",
        "R003.38",
    )
