"""A003.E1: a gun attack read for its units' conditions alone (`read_for_conditions`, the
computer players' material value) merges the volleys that leave every condition the same;
the odds of the conditions stay those of every volley apart, outcome by outcome. And a hit
delivered is one sub-roll whoever fired it (R003.7)."""

from __future__ import annotations

from conditions_reading import assert_rolled_the_same, conditions_odds, least_bound
from cortex_builders import BATTLESTAR, RAIDER, SYSTEM, VIPER, table, unit, with_stats

from tactical.rules.cortex_space import combat, gunnery

BASESTAR = with_stats(BATTLESTAR, strength="d12+d8", agility="d4", pilot="d6", armor_wound=2)
PISTOL = {
    "scale": "personal",
    "agility": "d8",
    "gunnery": "d12",
    "life_points": 10,
    "weapons": [{"name": "pistol", "damage": "d6", "range": "skirmish"}],
}


def _wing(*members: dict) -> dict:
    return {"scale": "planetcraft", "life_points": 14, "members": list(members)}


def _conditions_odds(state, attacker, weapon, target, params=None, *, merged: bool):
    """The odds of every starting vessel's condition after the attack, and the replays."""
    attack = combat.declare(state, attacker, weapon, target, params or {})
    return conditions_odds(SYSTEM, state, attack, combat.resolve, merged=merged)


CASES = {
    # battle damage past half the Life Points: outcomes differ in systems, not conditions
    "battery on a hurt basestar": (
        table(
            unit("galactica", 10, 24, "A", **BATTLESTAR),
            unit("basestar", 40, 24, "B", diameter=4, **with_stats(BASESTAR, wound=28)),
        ),
        ("galactica", "railguns", "basestar", {"battery": 3}),
    ),
    # a smaller attacker: the track recounted on Life Points x 2, Stun out of the condition
    "viper on a basestar": (
        table(
            unit("viper", 10, 10, "A", **VIPER),
            unit("basestar", 12, 10, "B", diameter=4, **with_stats(BASESTAR, wound=36, stun=2)),
        ),
        ("viper", "autocannons", "basestar", None),
    ),
    # a wing of one fighter is never out by Stun (every fighter's track is its key)
    "pistol on a wing of one": (
        table(
            unit("marine", 10, 10, "A", **PISTOL),
            unit("wing", 12, 10, "B", **_wing({"id": "v1", "pilot": "d8", "stun": 12})),
        ),
        ("marine", "pistol", "wing", None),
    ),
    "viper on a wing of two": (
        table(
            unit("viper", 10, 10, "A", **VIPER),
            unit("wing", 12, 10, "B", **_wing({"id": "v1", "wound": 9}, {"id": "v2"})),
            wing_damage="random",
        ),
        ("viper", "autocannons", "wing", None),
    ),
}


def test_A003_E1_merged_volleys_leave_the_odds_of_every_condition_the_same():
    merged_fewer = []
    for name, (state, (attacker, weapon, target, params)) in CASES.items():
        apart, apart_runs = _conditions_odds(state, attacker, weapon, target, params, merged=False)
        merged, merged_runs = _conditions_odds(state, attacker, weapon, target, params, merged=True)
        assert merged.pairs == apart.pairs, name  # the same outcomes, order and odds
        assert merged_runs <= apart_runs, name
        merged_fewer.append(merged_runs < apart_runs)
        assert len(apart.pairs) > 1, name  # the attack can change a condition
    assert merged_fewer[0] and merged_fewer[1]  # battle damage and Stun merged away


def test_A003_E1_a_rolled_attack_is_the_same_read_for_conditions():
    """Only an enumeration merges: rolled dice make the same state and summary."""
    state, (attacker, weapon, target, params) = CASES["battery on a hurt basestar"]
    attack = combat.declare(state, attacker, weapon, target, params)
    assert_rolled_the_same(combat.resolve, state, attack, range(6))


def test_R003_7_a_hit_delivered_is_the_same_sub_roll_whoever_fired_it():
    """The delivery's rolls are the target's (fighter hit, battle damage): two Vipers' equal
    hits on one Raider (a spacecraft past half its Life Points: battle damage) are one
    sub-roll value, enumerated once."""
    state = table(
        unit("viper", 10, 10, "A", **VIPER),
        unit("apollo", 10, 14, "A", **VIPER),
        unit("raider", 15, 12, "B", **with_stats(RAIDER, wound=8, scale="spacecraft")),
    )
    deliveries = []
    for attacker in ("viper", "apollo"):
        plan = gunnery.plan_gun(state, combat.declare(state, attacker, "autocannons", "raider"))
        _, (_, deliver_step) = gunnery._volley_steps(plan)
        deliveries.append(
            deliver_step.roll(gunnery.Volley(plan.start, pending=("damage", 3, 5, 0)))
        )
    first, second = deliveries
    assert first is not second and first == second and hash(first) == hash(second)
    assert (first.stun, first.wound, first.receiver.unit_id) == (3, 5, "raider")


def _least_bound(case: str, *, merged: bool) -> int:
    state, (attacker, weapon, target, params) = CASES[case]
    attack = combat.declare(state, attacker, weapon, target, params or {})
    return least_bound(SYSTEM, state, attack, combat.resolve, merged=merged)


def test_A003_E1_merged_volleys_are_refused_by_the_same_bounds():
    """The replays are counted as before (the volley's are, and the merged outcomes are
    fewer than them): a computer player's bound refuses the same attacks."""
    for case in ("battery on a hurt basestar", "viper on a basestar"):
        least = _least_bound(case, merged=False)
        assert least > 10, case
        assert _least_bound(case, merged=True) == least, case
