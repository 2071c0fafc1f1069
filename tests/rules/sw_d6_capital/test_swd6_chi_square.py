"""Sampling agrees with exact odds: 20,000 seeded resolutions vs the enumerated distribution.

The same resolvers run under `SeededDice` and under the exact enumeration; a
chi-square goodness-of-fit statistic (numpy, no scipy) must stay below the
p = 0.001 critical value for its degrees of freedom. Seeds are fixed, so the
tests are deterministic.
"""

from __future__ import annotations

from functools import lru_cache

from chi_square import CRITICAL_0_001, chi_square
from swd6_builders import ISD, NOWHERE, SYSTEM, duel

from tactical.dice import SeededDice
from tactical.rules.sw_d6_capital import combat
from tactical.rules.sw_d6_capital.initiative import Entry, contest_odds, resolve_contest

SAMPLES = 20_000


def test_attack_sampling_agrees_with_exact_odds():
    """R004.28-R004.37: the whole shot resolver, sampled and enumerated."""
    state = duel(ISD, NOWHERE, 25)
    attack = SYSTEM.declare_attack(state, "a", "front-turbolasers", "t", {"battery_damage": 6})
    exact = SYSTEM.attack_odds(state, attack).section("result").distribution.as_dict()
    facts = combat.fire_facts(state, "a", attack.weapon, "t", dict(attack.params))
    dice = SeededDice(20240601)
    observed: dict = {}
    for _ in range(SAMPLES):
        result = combat.resolve_facts(state, facts, dice).summary.result
        observed[result] = observed.get(result, 0) + 1
    statistic, freedom = chi_square(observed, exact, SAMPLES)
    assert freedom >= 4
    assert statistic < CRITICAL_0_001[freedom], (statistic, freedom)


ENTRIES = (Entry("nowhere", 15, 0), Entry("isd", 12, 2), Entry("corvette", 11, 1))


@lru_cache(maxsize=2)
def _contest_sample(seed: int) -> dict:
    dice = SeededDice(seed)
    observed: dict = {}
    for _ in range(SAMPLES):
        contest = resolve_contest(ENTRIES, dice)
        key = (contest.winner, contest.masterstroke)
        observed[key] = observed.get(key, 0) + 1
    return observed


def test_initiative_sampling_agrees_with_exact_odds():
    """R004.11-R004.13: draws re-rolled until resolved, sampled vs the composed exact odds."""
    exact = contest_odds(ENTRIES).as_dict()
    statistic, freedom = chi_square(dict(_contest_sample(11)), exact, SAMPLES)
    assert freedom >= 3
    assert statistic < CRITICAL_0_001[freedom], (statistic, freedom)


def test_chi_square_detects_a_wrong_distribution():
    """The check can fail: the exact odds with some of the winner's mass moved elsewhere."""
    exact = dict(contest_odds(ENTRIES).as_dict())
    shift = exact[("nowhere", False)] / 10
    exact[("nowhere", False)] -= shift
    exact[("isd", False)] += shift
    statistic, freedom = chi_square(dict(_contest_sample(11)), exact, SAMPLES)
    assert statistic > CRITICAL_0_001[freedom]
