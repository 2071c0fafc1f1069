"""Sampling agrees with exact odds: 20,000 seeded resolutions vs the enumerated distribution.

The same resolver runs under `SeededDice` and under the exact enumerator; a chi-square
goodness-of-fit statistic (numpy, no scipy) must stay below the p = 0.001 critical value
for its degrees of freedom. Seeds are fixed, so the tests are deterministic.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from chi_square import CRITICAL_0_001, chi_square
from cortex_builders import RAIDER, VIPER, table, unit, with_stats

from tactical.dice import SeededDice
from tactical.model import FrozenMap
from tactical.rules.base import Action
from tactical.rules.cortex_space import RULE_SYSTEM, combat, manoeuvres

SAMPLES = 20_000


def _bucket(summary) -> tuple[int, int]:
    """Hits and the Wound dealt in bands of three (a few categories with enough samples)."""
    return summary.hits, min(summary.wound // 3, 5)


def _attack():
    state = table(
        unit("viper", 10, 10, "A", **with_stats(VIPER, dogfighting="d6")),
        unit("raider", 15, 10, "B", **with_stats(RAIDER, armor_wound=1)),
    )
    return state, combat.declare(state, "viper", "autocannons", "raider")


def _exact_buckets(state, attack) -> dict:
    report = combat.attack_odds(state, attack, "cortex-space")
    assert report.facts["damage_die"] == "d8"
    outcomes = __import__("tactical.dice", fromlist=["enumerate_outcomes"]).enumerate_outcomes(
        lambda dice: combat.resolve_declared(state, attack, dice).summary
    )
    buckets: dict = {}
    for summary, p in outcomes:
        buckets[_bucket(summary)] = buckets.get(_bucket(summary), Fraction(0)) + p
    assert sum(buckets.values()) == 1
    return buckets


@lru_cache(maxsize=1)
def _attack_samples() -> tuple[dict, dict]:
    """20,000 seeded resolutions of the attack, bucketed, and the exact odds of the buckets."""
    state, attack = _attack()
    dice = SeededDice(20260101)
    observed: dict = {}
    for _ in range(SAMPLES):
        key = _bucket(combat.resolve_declared(state, attack, dice).summary)
        observed[key] = observed.get(key, 0) + 1
    return observed, _exact_buckets(state, attack)


def test_attack_sampling_agrees_with_exact_odds():
    observed, exact = _attack_samples()
    statistic, freedom = chi_square(observed, exact, SAMPLES)
    assert freedom >= 4
    assert statistic < CRITICAL_0_001[freedom], (statistic, freedom)


def test_advantage_sampling_agrees_with_exact_odds():
    state, _ = _attack()
    action = Action("advantage", "viper", FrozenMap(opponent="raider"))
    exact = RULE_SYSTEM.action_odds(state, action).sections[0].distribution.as_dict()
    dice = SeededDice(99)
    observed: dict = {}
    for _ in range(SAMPLES):  # the resolver `apply` runs for this action
        summary = manoeuvres.resolve_advantage(state, "viper", "raider", dice).summary
        key = (("holder", summary.holder), ("steps", summary.steps))
        observed[key] = observed.get(key, 0) + 1
    statistic, freedom = chi_square(observed, exact, SAMPLES)
    assert freedom >= 3
    assert statistic < CRITICAL_0_001[freedom], (statistic, freedom)


def test_chi_square_detects_a_wrong_distribution():
    """The check can fail: the same samples against odds with a quarter of misses moved."""
    observed, exact = _attack_samples()
    skewed = dict(exact)
    shift = skewed[(0, 0)] / 4
    skewed[(0, 0)] -= shift
    skewed[(1, 1)] += shift
    statistic, freedom = chi_square(observed, skewed, SAMPLES)
    assert statistic > CRITICAL_0_001[freedom]
