"""Sampling agrees with exact odds: 20,000 seeded resolutions vs the enumerated distribution.

The same functions run under `SeededDice` and under the exact enumerator: one weapon's
`fire_step` (to-hit, damage, shield overflow into internals rolled on the chart with
rerolls), and a Result step's fire fold over several weapons. A chi-square statistic
(numpy, no scipy) must stay below the p = 0.001 critical value; the seeds are fixed, so
the test is deterministic.
"""

from __future__ import annotations

import pytest
from chi_square import CRITICAL_0_001, chi_square
from hc_builders import HC, act, duel, with_ship

from tactical.dice import SeededDice, enumerate_outcomes
from tactical.model import FrozenMap
from tactical.rules.base import Action
from tactical.rules.heavy_combat.attacks import outcome_odds
from tactical.rules.heavy_combat.combat import fire_context, fire_step
from tactical.rules.heavy_combat.duel import FireOrder
from tactical.rules.heavy_combat.duel_state import Table, current
from tactical.rules.heavy_combat.result import damage_summary, fire_contexts, fire_phase

SAMPLES = 20_000
Z_0_001 = 3.090232  # the standard normal's upper 0.001 point


def critical(freedom: int) -> float:
    """The p = 0.001 critical value: the table's, or past it the Wilson-Hilferty
    approximation (within 0.2 % of the exact value from 30 degrees of freedom on)."""
    if freedom in CRITICAL_0_001:
        return CRITICAL_0_001[freedom]
    term = 2 / (9 * freedom)
    return freedom * (1 - term + Z_0_001 * term**0.5) ** 3


def test_the_approximate_critical_value_meets_the_table():
    # the exact values at 31 and 58 degrees of freedom
    assert abs(critical(31) - 61.098) < 0.12
    assert abs(critical(58) - 97.039) < 0.1


def _photon_into_a_thin_shield(**options):
    """A photon at range 3 at a ship whose fore shield holds 3 and whose sensors are gone:
    overflow rolls on the chart, 2s rerolled (R001.17, R001.25, R001.34)."""
    state = duel({}, {"shields": {"fore": 3}}, distance=30.0, **options)
    state = with_ship(state, "b", destroyed=(0, 4, 0, 0, 0, 0))
    state, current_duel = current(state)
    table = Table(state, current_duel)
    order = FireOrder("photon-1", "b", 1)
    return table, fire_context(table.duel, table.cards, table.view, "a", order, table.options)


def _sample(fn, seed: int) -> dict:
    dice = SeededDice(seed)
    observed: dict = {}
    for _ in range(SAMPLES):
        outcome = fn(dice)
        observed[outcome] = observed.get(outcome, 0) + 1
    return observed


@pytest.mark.parametrize("failure", ["last-box", "off"])
def test_R001_17_photon_sampling_agrees_with_exact_odds(failure):
    """Under R001.38 (A001.27, the default) the bridge and weapons rows are told apart
    in the outcomes too, so there are more of them than with `system_failure = "off"`."""
    table, ctx = _photon_into_a_thin_shield(system_failure=failure)
    exact = outcome_odds(table, ctx).as_dict()
    observed = _sample(lambda dice: fire_step(ctx, table.duel, table.cards, dice).outcome, 2008)
    statistic, freedom = chi_square(observed, exact, SAMPLES)
    assert freedom >= 8
    assert statistic < critical(freedom), (statistic, freedom)


def test_R001_3_result_fold_sampling_agrees_with_exact_odds():
    """A photon and disruptors at range 3 into a thin shield: the Result's fold."""
    state = duel({"race": "klingon", "disruptors": True}, {"shields": {"fore": 4}}, distance=30.0)
    state = act(state, "roll_power", "a", [6, 6]).state
    state = act(state, "fire", "a", weapon="photon-1", target="b").state
    state = act(state, "fire", "a", weapon="disruptors", target="b").state
    state, current_duel = current(state)
    table = Table(state, current_duel)
    contexts = fire_contexts(table)

    def summary(dice):
        return damage_summary(table.duel, fire_phase(table.duel, contexts, table.cards, dice).duel)

    exact = enumerate_outcomes(summary).as_dict()
    report = HC.action_odds(state, Action("resolve", "A", FrozenMap()))
    internals = report.section("b internals").distribution.as_dict()
    assert internals == {
        n: sum((p for s, p in exact.items() if s[1][2] == n), start=0) for n in internals
    }
    statistic, freedom = chi_square(_sample(summary, 1977), exact, SAMPLES)
    assert freedom >= 8
    assert statistic < critical(freedom), (statistic, freedom)


def test_chi_square_detects_a_wrong_distribution():
    """The check can fail: the right sampler against odds with one outcome shifted."""
    table, ctx = _photon_into_a_thin_shield()
    exact = outcome_odds(table, ctx).as_dict()
    skewed = dict(exact)
    miss = next(k for k in skewed if not k.hit)
    shift = skewed[miss] / 5
    skewed[miss] -= shift
    first_hit = next(k for k in skewed if k.hit)
    skewed[first_hit] += shift
    observed = _sample(lambda dice: fire_step(ctx, table.duel, table.cards, dice).outcome, 5)
    statistic, freedom = chi_square(observed, skewed, SAMPLES)
    assert statistic > critical(freedom)
