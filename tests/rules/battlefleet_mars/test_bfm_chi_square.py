"""Sampling agrees with exact odds: 20,000 seeded resolutions vs the enumerated distribution.

The same resolver runs under `SeededDice` and under the exact enumerator; a
chi-square goodness-of-fit statistic (numpy, no scipy) must stay below the
p = 0.001 critical value for its degrees of freedom. The seed is fixed, so
the test is deterministic.
"""

from __future__ import annotations

from bfm_builders import duel
from chi_square import CRITICAL_0_001, chi_square

from tactical.dice import SeededDice
from tactical.rules import registry
from tactical.rules.battlefleet_mars.combat import resolve_declared

BFM = registry.get("battlefleet-mars")
SAMPLES = 20_000


def _sample(state, attack, seed: int, samples: int) -> dict:
    dice = SeededDice(seed)
    observed: dict = {}
    for _ in range(samples):
        summary = resolve_declared(state, attack, dice).summary
        observed[summary] = observed.get(summary, 0) + 1
    return observed


def test_laser_sampling_agrees_with_exact_odds():
    state = duel({"type": "ship", "laser_strength": 5}, {"type": "ship", "laser_strength": 2}, 5)
    attack = BFM.declare_attack(state, "a", "laser", "t")
    exact = BFM.attack_odds(state, attack).section("result").distribution.as_dict()
    statistic, freedom = chi_square(_sample(state, attack, 20240601, SAMPLES), exact, SAMPLES)
    assert freedom >= 8
    assert statistic < CRITICAL_0_001[freedom], (statistic, freedom)


def test_salvo_sampling_agrees_with_exact_odds():
    state = duel({"type": "missile", "count": 9}, {"type": "catapult"})
    attack = BFM.declare_attack(state, "a", "missiles", "t")
    exact = BFM.attack_odds(state, attack)
    summary_odds = {outcome: p for outcome, p in exact.section("ciws_destroyed").distribution.pairs}
    observed = _sample(state, attack, 77, SAMPLES)
    by_count: dict = {}
    for summary, count in observed.items():
        by_count[summary.ciws_destroyed] = by_count.get(summary.ciws_destroyed, 0) + count
    statistic, freedom = chi_square(by_count, summary_odds, SAMPLES)
    assert freedom >= 5
    assert statistic < CRITICAL_0_001[freedom], (statistic, freedom)


def test_chi_square_detects_a_wrong_distribution():
    """The check can fail: a fair d10 against a distribution with one face doubled."""
    state = duel({"type": "ship", "laser_strength": 5}, {"type": "ship", "laser_strength": 2}, 5)
    attack = BFM.declare_attack(state, "a", "laser", "t")
    exact = BFM.attack_odds(state, attack).section("result").distribution.as_dict()
    skewed = dict(exact)
    shift = skewed["miss"] / 4
    skewed["miss"] -= shift
    first_code = next(k for k in skewed if k != "miss")
    skewed[first_code] += shift
    statistic, freedom = chi_square(_sample(state, attack, 5, SAMPLES), skewed, SAMPLES)
    assert statistic > CRITICAL_0_001[freedom]
