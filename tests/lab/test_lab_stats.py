"""The balance report's statistics against published values."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tactical.lab.stats import (
    binomial_test,
    normal_two_sided_p,
    proportion,
    two_proportion_test,
    wilson_interval,
)


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        # Newcombe (1998), Statistics in Medicine 17, table II, method 3 (Wilson score)
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        # by hand: p = 0.8, n = 10
        (8, 10, 0.4902, 0.9433),
    ],
)
def test_wilson_interval_matches_published_values(successes, trials, low, high):
    interval = wilson_interval(successes, trials)
    assert interval.low == pytest.approx(low, abs=5e-5)
    assert interval.high == pytest.approx(high, abs=5e-5)


def test_wilson_interval_of_no_games_is_everything():
    assert wilson_interval(0, 0) == wilson_interval(0, 0).__class__(0.0, 1.0)
    assert math.isnan(proportion(0, 0).rate)


@given(st.integers(0, 500).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_interval_holds_the_rate_inside_zero_one(pair):
    successes, trials = pair
    interval = wilson_interval(successes, trials)
    assert 0.0 <= interval.low <= interval.high <= 1.0
    if trials:
        assert interval.low <= successes / trials <= interval.high


def test_two_proportion_z_test_matches_a_known_value():
    """56/70 against 48/80 by hand: pooled p = 104/150, standard error
    sqrt(0.69333 * 0.30667 * (1/70 + 1/80)) = 0.075467, z = -0.2 / 0.075467 = -2.6502,
    two-sided p = erfc(2.6502 / sqrt 2) = 0.00805 (R: prop.test(c(56,48), c(70,80),
    correct=FALSE) gives X-squared = 7.0234 = z^2, p-value = 0.008045)."""
    comparison = two_proportion_test(56, 70, 48, 80)
    assert comparison.difference == pytest.approx(0.6 - 0.8)
    assert comparison.z == pytest.approx(-2.6502, abs=1e-4)
    assert comparison.z**2 == pytest.approx(7.0234, abs=1e-3)
    assert comparison.p_value == pytest.approx(0.008045, abs=1e-6)


def test_newcombe_interval_of_a_difference_matches_published_values():
    """Newcombe (1998) table II, example (56/70 - 48/80), method 10: 0.0524 to 0.3339."""
    comparison = two_proportion_test(48, 80, 56, 70)
    assert comparison.interval.low == pytest.approx(0.0524, abs=5e-4)
    assert comparison.interval.high == pytest.approx(0.3339, abs=5e-4)


def test_two_proportion_test_without_spread_is_not_significant():
    comparison = two_proportion_test(10, 10, 20, 20)
    assert comparison.z == 0.0
    assert comparison.p_value == 1.0


def test_normal_tail():
    assert normal_two_sided_p(1.959963984540054) == pytest.approx(0.05, abs=1e-12)
    assert normal_two_sided_p(0.0) == 1.0


@pytest.mark.parametrize(
    ("successes", "trials", "p_value"),
    [
        (7, 10, 0.34375),  # scipy.stats.binomtest(7, 10).pvalue
        (5, 10, 1.0),
        (0, 10, 2 / 1024),
        (60, 100, 0.056887933640274),
    ],
)
def test_exact_binomial_test_matches_known_values(successes, trials, p_value):
    assert binomial_test(successes, trials) == pytest.approx(p_value, rel=1e-4)


def test_counts_must_make_sense():
    with pytest.raises(ValueError):
        wilson_interval(5, 4)


def test_the_binomial_test_holds_for_thousands_of_games():
    """math.comb(n, k) * 0.5**k overflowed a float past about 1,030 decisive games: a
    report of a 5,000-game run raised OverflowError."""
    assert binomial_test(5000, 10000) == pytest.approx(1.0, abs=1e-9)
    assert binomial_test(4900, 10000) == pytest.approx(0.0466, rel=1e-2)  # z = -2
    assert binomial_test(4000, 10000) < 1e-80
    assert 0.0 <= binomial_test(0, 20000) < 1e-300
