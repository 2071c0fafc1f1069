"""Sampling agrees with exact odds: 20,000 seeded resolutions vs the enumerated distribution.

The same resolver (`resolving.resolve_declared`, exploding Attack Dice, Shield and Guardian
dice, the Critical Hit roll) runs under `SeededDice` and under the exact enumerator; the
chi-square statistic (numpy, no scipy) must stay below the p = 0.001 critical value for
its degrees of freedom. The seed is fixed, so the test is deterministic.
"""

from __future__ import annotations

from functools import lru_cache

from chi_square import CRITICAL_0_001, chi_square
from dw_builders import table, unit

from tactical.dice import SeededDice, enumerate_outcomes
from tactical.rules.dystopian_wars import combat, resolving

SAMPLES = 20_000
SEED = 20260601


def _scenario():
    gun = {"name": "Guns", "kind": "gunnery", "arc": "all-round", "attack_dice": "4-4-4-4"}
    state = table(
        unit("a", 20, 10, weapons=[gun]),
        unit("t", 20, 14, "B", damage_rating=2, critical_rating=4, hull_points=5),
        unit("gg", 24, 14, "B", generators="guardian"),
    )
    return state, combat.declare(state, "a", "Guns", "t")


@lru_cache(maxsize=1)
def _sample(seed: int) -> dict:
    state, attack = _scenario()
    dice = SeededDice(seed)
    observed: dict = {}
    for _ in range(SAMPLES):
        summary = resolving.resolve_declared(state, attack, dice).summary
        key = (summary.hits, summary.result)
        observed[key] = observed.get(key, 0) + 1
    return observed


def _exact() -> dict:
    state, attack = _scenario()
    outcomes = enumerate_outcomes(
        lambda dice: resolving.resolve_declared(state, attack, dice).summary
    )
    return outcomes.map(lambda s: (s.hits, s.result)).as_dict()


def test_attack_sampling_agrees_with_exact_odds():
    exact = _exact()
    statistic, freedom = chi_square(_sample(SEED), exact, SAMPLES)
    assert freedom >= 5
    assert statistic < CRITICAL_0_001[freedom], (statistic, freedom)


def test_chi_square_detects_a_wrong_distribution():
    exact = _exact()
    skewed = dict(exact)
    best = max(skewed, key=skewed.get)
    other = min(skewed, key=skewed.get)
    shift = skewed[best] / 5
    skewed[best] -= shift
    skewed[other] += shift
    statistic, freedom = chi_square(_sample(SEED), skewed, SAMPLES)
    assert statistic > CRITICAL_0_001[freedom]
