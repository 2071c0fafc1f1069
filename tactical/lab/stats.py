"""The statistics of a balance report: intervals and tests on win counts (stdlib only).

- `wilson_interval`: the Wilson score interval of a proportion (Wilson 1927), the
  interval to quote for a win rate: unlike the normal ("Wald") interval it stays
  inside [0, 1] and keeps its coverage near 0 and 1 and for small samples.
- `two_proportion_test`: is a side's win rate different between two variants? The
  pooled two-proportion z test, two-sided, with the difference's Newcombe (1998,
  method 10) 95% interval built from the two Wilson intervals.
- `binomial_test`: is a variant fair? The exact two-sided binomial test of the
  decisive games' split against 1/2 (the sum of the probabilities of every
  outcome no more likely than the one seen).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054  # the standard normal's 97.5% quantile


@dataclass(frozen=True, slots=True)
class Interval:
    low: float
    high: float


@dataclass(frozen=True, slots=True)
class Proportion:
    """`successes` out of `trials`, its rate and the Wilson 95% interval."""

    successes: int
    trials: int
    rate: float
    interval: Interval


@dataclass(frozen=True, slots=True)
class Comparison:
    """Two proportions compared: the difference (second minus first), its Newcombe 95%
    interval, the pooled z statistic and the two-sided p-value."""

    difference: float
    interval: Interval
    z: float
    p_value: float


def wilson_interval(successes: int, trials: int, z: float = Z95) -> Interval:
    """The Wilson score interval for `successes` out of `trials` (0 trials: all of [0, 1])."""
    _check_counts(successes, trials)
    if trials == 0:
        return Interval(0.0, 1.0)
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    # at 0 and at n the bound is exactly 0 or 1; rounding must not leave it a hair off
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return Interval(low, high)


def proportion(successes: int, trials: int) -> Proportion:
    rate = successes / trials if trials else math.nan
    return Proportion(successes, trials, rate, wilson_interval(successes, trials))


def normal_two_sided_p(z: float) -> float:
    """P(|Z| >= |z|) for a standard normal Z."""
    return math.erfc(abs(z) / math.sqrt(2))


def two_proportion_test(
    successes_1: int, trials_1: int, successes_2: int, trials_2: int
) -> Comparison:
    """The pooled two-proportion z test of p1 = p2 (two-sided) and the Newcombe interval of
    p2 - p1. With no spread at all (every game won, or none, in both) z is 0 and p is 1."""
    _check_counts(successes_1, trials_1)
    _check_counts(successes_2, trials_2)
    if trials_1 == 0 or trials_2 == 0:
        return Comparison(math.nan, Interval(-1.0, 1.0), math.nan, math.nan)
    p1, p2 = successes_1 / trials_1, successes_2 / trials_2
    pooled = (successes_1 + successes_2) / (trials_1 + trials_2)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / trials_1 + 1 / trials_2))
    z = 0.0 if spread == 0 else (p2 - p1) / spread
    w1, w2 = wilson_interval(successes_1, trials_1), wilson_interval(successes_2, trials_2)
    difference = p2 - p1
    # Newcombe's hybrid score interval (method 10)
    low = difference - math.sqrt((p2 - w2.low) ** 2 + (w1.high - p1) ** 2)
    high = difference + math.sqrt((w2.high - p2) ** 2 + (p1 - w1.low) ** 2)
    return Comparison(difference, Interval(low, high), z, normal_two_sided_p(z))


def binomial_test(successes: int, trials: int, p: float = 0.5) -> float:
    """The exact two-sided binomial test's p-value for `successes` out of `trials` under `p`."""
    _check_counts(successes, trials)
    if trials == 0:
        return 1.0
    if p in (0.0, 1.0):
        return 1.0 if successes == (trials if p == 1.0 else 0) else 0.0
    # log probabilities: math.comb(n, k) * p**k overflows a float past about 1,030 games
    logs = [_log_binomial(k, trials, p) for k in range(trials + 1)]
    seen = logs[successes]
    # "no more likely than the one seen", with a relative tolerance for float ties
    total = sum(math.exp(q) for q in logs if q <= seen + 1e-7)
    return min(1.0, total)


def _log_binomial(k: int, n: int, p: float) -> float:
    """log P(X = k) for X ~ Binomial(n, p), 0 < p < 1."""
    log_comb = math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
    return log_comb + k * math.log(p) + (n - k) * math.log1p(-p)


def mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else math.nan


def _check_counts(successes: int, trials: int) -> None:
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(f"expected 0 <= successes <= trials, got {successes} of {trials}")
