"""Exact enumeration: replayed chance nodes, folds merged by key, exact fractions."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tactical.dice import D6, D10Z, Distribution, enumerate_outcomes, fraction_text, percent
from tactical.dice.exact import TooManyOutcomes, fold_outcomes


def test_single_die_is_uniform():
    distribution = enumerate_outcomes(lambda dice: dice.roll(D10Z))
    assert distribution.as_dict() == {v: Fraction(1, 10) for v in range(10)}
    assert distribution.total == 1


def test_variable_number_of_rolls_reroll():
    """A reroll on a 6 (a second die only sometimes) is enumerated exactly."""

    def reroll_sixes(dice):
        first = dice.roll(D6)
        return dice.roll(D6) if first == 6 else first

    distribution = enumerate_outcomes(reroll_sixes)
    assert distribution.probability(1) == Fraction(1, 6) + Fraction(1, 36)
    assert distribution.probability(6) == Fraction(1, 36)
    assert distribution.total == 1


def test_two_dice_sum_matches_brute_force():
    distribution = enumerate_outcomes(lambda dice: dice.roll(D6) + dice.roll(D6))
    brute = Distribution.from_weights(
        (a + b, 1) for a, b in itertools.product(range(1, 7), repeat=2)
    )
    assert distribution.sorted().pairs == brute.sorted().pairs
    assert distribution.probability(7) == Fraction(1, 6)


def test_key_merges_outcomes_keeping_a_representative():
    distribution = enumerate_outcomes(lambda dice: dice.roll(D6), key=lambda v: v % 2)
    assert len(distribution) == 2
    assert distribution.pairs[0] == (1, Fraction(1, 2))


def test_fold_merges_states_and_agrees_with_brute_force():
    """Five dice, counting sixes, via a fold keyed on the count: exact binomial."""

    def count_six(state: int, dice) -> int:
        return state + (dice.roll(D6) == 6)

    folded = fold_outcomes(0, [count_six] * 5)
    for k in range(6):
        expected = Fraction(
            sum(
                1
                for faces in itertools.product(range(6), repeat=5)
                if sum(f == 5 for f in faces) == k
            ),
            6**5,
        )
        assert folded.probability(k) == expected


def test_fold_inside_a_replayed_function():
    def salvo(dice):
        hits = dice.fold(0, [lambda n, d: n + (d.roll(D10Z) >= 5)] * 3)
        return hits, dice.roll(D6) if hits == 3 else 0

    distribution = enumerate_outcomes(salvo)
    assert distribution.total == 1
    assert distribution.probability((3, 6)) == Fraction(1, 8) * Fraction(1, 6)
    assert distribution.probability((0, 0)) == Fraction(1, 8)


def test_resolver_exceptions_do_not_swallow_branching():
    def careless(dice):
        try:
            return dice.roll(D6)
        except Exception:  # a resolver catching broadly must still branch
            return -1

    assert -1 not in enumerate_outcomes(careless).outcomes


def test_too_many_outcomes_is_a_clear_error():
    with pytest.raises(TooManyOutcomes):
        enumerate_outcomes(lambda dice: tuple(dice.roll(D6) for _ in range(8)), max_nodes=1000)


def test_distribution_helpers():
    distribution = Distribution.from_weights([("a", 1), ("b", 3), ("a", 1)])
    assert distribution.probability("a") == Fraction(2, 5)
    assert distribution.where(lambda o: o == "b") == Fraction(3, 5)
    assert distribution.map(lambda o: o.upper()).as_dict() == {
        "A": Fraction(2, 5),
        "B": Fraction(3, 5),
    }
    assert Distribution.certain(4).expected() == 4
    assert fraction_text(Fraction(3, 10)) == "3/10"
    assert fraction_text(Fraction(1)) == "1"
    assert percent(Fraction(1, 3)) == 33.3333
    assert distribution.rows("x")[0] == {"x": "a", "probability": "2/5", "percent": 40.0}


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(min_value=2, max_value=8), min_size=1, max_size=3))
def test_enumeration_sums_to_one_and_matches_product(sides):
    from tactical.dice import numbered_die

    dice_list = [numbered_die(s) for s in sides]
    distribution = enumerate_outcomes(lambda dice: sum(dice.roll(d) for d in dice_list))
    assert distribution.total == 1
    count = 1
    for s in sides:
        count *= s
    brute = Distribution.from_weights(
        (sum(faces), Fraction(1, count))
        for faces in itertools.product(*(d.values for d in dice_list))
    )
    assert distribution.as_dict() == brute.as_dict()


def test_a_fold_that_merges_nothing_fails_before_it_fills_the_memory():
    """The fold's bound covers all its steps together: 6**10 histories are never built."""
    steps = [lambda history, dice: (*history, dice.roll(D6))] * 10
    with pytest.raises(TooManyOutcomes):
        fold_outcomes((), steps, max_nodes=10_000)
    sums = fold_outcomes(0, [lambda total, dice: total + dice.roll(D6)] * 10, max_nodes=10_000)
    assert sums.probability(10) == Fraction(1, 6**10)  # merged states stay well inside it
