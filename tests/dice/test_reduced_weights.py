"""An outcome's weight summed in integers (`exact._reduced`) is the sum of its Fractions."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from tactical.dice.exact import _reduced

WEIGHTS = st.dictionaries(st.integers(1, 10**6), st.integers(1, 10**6), min_size=1, max_size=6)


@given(WEIGHTS)
def test_reduced_weight_is_the_sum_of_its_fractions(weights):
    total = sum(Fraction(n, d) for d, n in weights.items())
    assert _reduced(weights) == (total.numerator, total.denominator)


def test_reduced_weight_in_lowest_terms():
    assert _reduced({36: 6}) == (1, 6)
    assert _reduced({6: 1, 36: 3}) == (1, 4)
    assert _reduced({4: 3}) == (3, 4)
