"""Battlefleet Mars's attrition record (A000.E1) with the missiles' own to-hit roll (A000.8)."""

from __future__ import annotations

from bfm_builders import duel

from tactical.dice import ScriptedDice
from tactical.rules import registry
from tactical.rules.battlefleet_mars import outcome

BFM = registry.get("battlefleet-mars")


def _rolled_salvo(dice):
    state = duel(
        {"type": "missile", "count": 2},
        {"type": "ship", "laser_strength": 3},
        missile_to_hit="roll",
        missile_to_hit_score=5,
    )
    attack = BFM.declare_attack(state, "a", "missiles", "t", {"missiles": 2, "ciws": False})
    return state, BFM.resolve_attack(state, attack, ScriptedDice(dice))


def test_A000_8_a_missed_missile_scores_nothing_and_the_condition_reads():
    """A miss of the A000.8 roll is no result of T000.2: nothing is recorded and the target's
    condition (A000.E1) is read without error (it crashed on "miss")."""
    state, resolution = _rolled_salvo([4, 4])  # both to-hit rolls under 5
    assert resolution.events[-1].get("results") == ("miss", "miss")
    assert outcome.results_against(resolution.state, "t") == ()
    condition = BFM.unit_condition(resolution.state, state.unit("t"))
    assert (condition.lost, condition.out) == (0.0, False)


def test_A000_E1_a_hit_beside_a_miss_counts_its_points_only():
    state, resolution = _rolled_salvo([4, 9, 0])  # first misses, second hits and rolls 0
    results = resolution.events[-1].get("results")
    assert results[0] == "miss" and results[1] != "miss"
    assert outcome.results_against(resolution.state, "t") == tuple(
        r for r in results[1:] if r != "-"
    )
    points = sum(outcome.damage_points(r) for r in results[1:])
    condition = BFM.unit_condition(resolution.state, state.unit("t"))
    assert condition.lost == min(1.0, points / outcome.strength(state.unit("t")))


def test_A000_E1_a_miss_in_an_older_record_counts_no_points():
    """Games saved before the fix recorded misses: they count nothing."""
    assert outcome.damage_points("miss") == 0
    assert outcome.damage_points("B3") == 3
