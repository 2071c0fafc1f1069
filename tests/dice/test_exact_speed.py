"""The fold's integer arithmetic gives exactly the Fractions it replaced.

`fold_outcomes` now carries each layer's weights as integer numerators over one shared
denominator and reuses the keys its step enumerations computed. These tests hold it to a
plain Fraction propagation written out here (the algorithm it replaced): the same
states, the same first-reached representatives, in the same order, with equal weights —
over dice of different sizes (so denominators differ within a layer), uneven faces (a D3),
steps that roll a variable number of dice, keys that merge states, and nested folds.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tactical.dice import D3, D6, D10Z, enumerate_outcomes, fold_outcomes, numbered_die
from tactical.dice.exact import _enumerate

D4 = numbered_die(4)
D5 = numbered_die(5)
DICE = (D3, D4, D5, D6, D10Z)


def reference_fold(
    initial: Any, steps: list[Callable], key: Callable[[Any], Hashable] | None
) -> list[tuple[Any, Fraction]]:
    """States and Fraction weights propagated step by step, merged by key (first kept)."""
    slot = key or (lambda state: state)
    current: dict[Hashable, list[Any]] = {slot(initial): [initial, Fraction(1)]}
    for step in steps:
        following: dict[Hashable, list[Any]] = {}
        for state, weight in current.values():
            enumerated = _enumerate(lambda dice, s=state, f=step: f(s, dice), key, 10**6)
            for result, p in enumerated:
                entry = following.setdefault(slot(result), [result, Fraction(0)])
                entry[1] += weight * p
        current = following
    return [(state, weight) for state, weight in current.values()]


def _step(kind: int, die_index: int) -> Callable:
    die = DICE[die_index]

    def add(state: tuple[int, ...], dice) -> tuple[int, ...]:
        return (*state, dice.roll(die))

    def reroll_low(state: tuple[int, ...], dice) -> tuple[int, ...]:
        first = dice.roll(die)
        return (*state, dice.roll(D6) if first <= die.low else first)

    def count_high(state: tuple[int, ...], dice) -> tuple[int, ...]:
        hits = sum(dice.roll(die) >= die.high for _ in range(1 + len(state) % 3))
        return (*state, hits)

    return (add, reroll_low, count_high)[kind]


steps_strategy = st.lists(
    st.tuples(st.integers(0, 2), st.integers(0, len(DICE) - 1)), min_size=1, max_size=4
)
keys = {
    "none": None,
    "sum": lambda state: sum(state),
    "parity-and-length": lambda state: (sum(state) % 2, len(state)),
}


@settings(max_examples=60)
@given(steps_strategy, st.sampled_from(sorted(keys)))
def test_fold_equals_the_fraction_reference(spec, key_name):
    steps = [_step(kind, die) for kind, die in spec]
    key = keys[key_name]
    folded = fold_outcomes((), steps, key=key)
    expected = reference_fold((), steps, key)
    assert list(folded.pairs) == expected  # same representatives, order and weights
    assert folded.total == 1


def test_nested_fold_inside_an_enumeration_equals_the_reference():
    """A fold reached inside a replayed resolver (a chance node) after a first roll."""
    steps = [_step(1, 1), _step(2, 3), _step(0, 0)]

    def resolver(dice):
        extra = dice.roll(D5)
        state = dice.fold((extra,), steps if extra > 2 else steps[:1], key=lambda s: sum(s))
        return sum(state)

    distribution = enumerate_outcomes(resolver)
    expected: dict[int, Fraction] = {}
    for extra in range(1, 6):
        chosen = steps if extra > 2 else steps[:1]
        for state, weight in reference_fold((extra,), chosen, lambda s: sum(s)):
            expected[sum(state)] = expected.get(sum(state), Fraction(0)) + weight / 5
    assert distribution.as_dict() == expected
    assert distribution.total == 1


def test_long_fold_equals_the_reference():
    """Twenty mixed dice: twenty layers of shared denominators, still the exact weights."""
    steps = [_step(2, index % len(DICE)) for index in range(20)]
    folded = fold_outcomes((), steps, key=lambda state: sum(state))
    assert folded.total == 1
    assert list(folded.pairs) == reference_fold((), steps, lambda state: sum(state))
