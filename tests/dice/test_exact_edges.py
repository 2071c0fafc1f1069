"""Exact enumeration at its edges: bad weights, node budgets to the node, nested chance
nodes and folds followed by more rolls (the gaps mutation testing found)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tactical.dice import D6, Distribution, enumerate_outcomes, numbered_die
from tactical.dice.exact import TooManyOutcomes, fold_outcomes

D3 = numbered_die(3)


@pytest.mark.parametrize("weights", [[], [("hit", 0)], [("hit", 0), ("miss", 0)]])
def test_from_weights_without_a_positive_total_is_refused(weights):
    with pytest.raises(ValueError, match=r"^a distribution needs a positive total weight$"):
        Distribution.from_weights(weights)


def test_a_distribution_iterates_over_its_outcomes_and_probabilities():
    distribution = Distribution.from_weights([("hit", 1), ("miss", 3)])
    assert list(distribution) == [("hit", Fraction(1, 4)), ("miss", Fraction(3, 4))]


def test_an_impossible_outcome_or_predicate_has_probability_exactly_zero():
    distribution = enumerate_outcomes(lambda dice: dice.roll(D6))
    assert distribution.probability(7) == 0
    assert isinstance(distribution.probability(7), Fraction)
    assert distribution.where(lambda value: value > 6) == 0
    assert isinstance(distribution.where(lambda value: value > 6), Fraction)


def test_sorted_with_a_key_orders_by_that_key():
    distribution = Distribution.from_weights([(1, 1), (3, 1), (2, 2)])
    assert distribution.sorted(key=lambda value: -value).outcomes == (3, 2, 1)
    assert distribution.sorted().outcomes == (1, 2, 3)


def test_rows_name_the_outcome_column_outcome_by_default():
    rows = Distribution.from_weights([("hit", 1), ("miss", 2)]).rows()
    assert rows == [
        {"outcome": "hit", "probability": "1/3", "percent": 33.3333},
        {"outcome": "miss", "probability": "2/3", "percent": 66.6667},
    ]


# --------------------------------------------------------------------------- node budget


def test_max_nodes_allows_exactly_the_nodes_needed():
    """One d6 is 7 replays (the root that branches, then one per face)."""
    assert len(enumerate_outcomes(lambda dice: dice.roll(D6), max_nodes=7)) == 6
    with pytest.raises(TooManyOutcomes, match=r"more than 6 replays; ask about fewer dice"):
        enumerate_outcomes(lambda dice: dice.roll(D6), max_nodes=6)


def test_a_fold_budget_counts_every_step_from_zero():
    """A one-step fold over a d6: 7 replays, all within the shared budget."""
    steps = [lambda total, dice: total + dice.roll(D6)]
    assert len(fold_outcomes(0, steps, max_nodes=7)) == 6
    with pytest.raises(TooManyOutcomes, match="more than 6 replays"):
        fold_outcomes(0, steps, max_nodes=6)


def test_a_fold_with_odd_sided_steps_stays_exact():
    """Two d3 steps then a d6: exact thirds and sixths, summing to one."""
    steps = [lambda total, dice: total + dice.roll(D3)] * 2 + [
        lambda total, dice: total + dice.roll(D6)
    ]
    distribution = fold_outcomes(0, steps)
    assert distribution.probability(3) == Fraction(1, 54)
    assert distribution.probability(8) == Fraction(9, 54)
    assert distribution.total == 1


# --------------------------------------------------------------------------- nesting


def test_a_fold_followed_by_another_roll():
    """The roll after a fold reads the next chance outcome, not one further on."""

    def fold_then_roll(dice):
        hits = dice.fold(0, [lambda n, d: n + (d.roll(D6) >= 4)] * 2)
        return hits, dice.roll(D6)

    distribution = enumerate_outcomes(fold_then_roll)
    assert len(distribution) == 18
    assert distribution.probability((2, 6)) == Fraction(1, 4) * Fraction(1, 6)
    assert distribution.probability((0, 1)) == Fraction(1, 4) * Fraction(1, 6)
    assert distribution.total == 1


def test_a_fold_inside_an_enumeration_merges_states_by_its_key():
    """States equal under the fold's key are one outcome: the first reached stands for
    all, whatever it differs in (here the last face rolled)."""

    def sixes(dice):
        def step(state, d):
            face = d.roll(D6)
            return state[0] + (face == 6), face

        return dice.fold((0, 0), [step] * 2, key=lambda state: state[0])

    distribution = enumerate_outcomes(sixes)
    assert len(distribution) == 3
    by_sixes = {state[0]: p for state, p in distribution}
    assert by_sixes == {0: Fraction(25, 36), 1: Fraction(10, 36), 2: Fraction(1, 36)}


def test_a_fold_then_a_roll_replays_each_node_once():
    """The root, the 3 fold outcomes, then 6 rolls after each: 22 replays, no more."""

    def fold_then_roll(dice):
        hits = dice.fold(0, [lambda n, d: n + (d.roll(D6) >= 4)] * 2)
        return hits, dice.roll(D6)

    assert len(enumerate_outcomes(fold_then_roll, max_nodes=22)) == 18
    with pytest.raises(TooManyOutcomes):
        enumerate_outcomes(fold_then_roll, max_nodes=21)


def test_a_nested_chance_node_then_another_roll():
    """`dice.chance` under enumeration: its outcomes are branches, then the roll after it."""

    def chance_then_roll(dice):
        best = dice.chance(lambda d: max(d.roll(D6), d.roll(D6)))
        return best + dice.roll(D6)

    distribution = enumerate_outcomes(chance_then_roll)
    assert distribution.probability(2) == Fraction(1, 36) * Fraction(1, 6)
    assert distribution.probability(12) == Fraction(11, 36) * Fraction(1, 6)
    assert distribution.total == 1
    assert distribution.expected() == Fraction(161, 36) + Fraction(7, 2)


def test_a_nested_chance_node_merges_by_its_key():
    """Faces merged by parity: two outcomes, each represented by the first face reached."""

    def by_parity(dice):
        return dice.chance(lambda d: _parity_and_face(d.roll(D6)), key=lambda o: o[0])

    distribution = enumerate_outcomes(by_parity)
    assert len(distribution) == 2
    assert {outcome[0]: p for outcome, p in distribution} == {1: Fraction(1, 2), 0: Fraction(1, 2)}


def _parity_and_face(face: int) -> tuple[int, int]:
    return face % 2, face


def test_a_chance_node_then_a_roll_replays_each_node_once():
    """The root, the 6 values of the best of two dice, then 6 rolls after each: 43."""

    def chance_then_roll(dice):
        return dice.chance(lambda d: max(d.roll(D6), d.roll(D6))) + dice.roll(D6)

    assert len(enumerate_outcomes(chance_then_roll, max_nodes=43)) == 11
    with pytest.raises(TooManyOutcomes):
        enumerate_outcomes(chance_then_roll, max_nodes=42)


def test_a_nested_chance_node_shares_the_budget_limit():
    def nested(dice):
        return dice.chance(lambda d: d.roll(D6) + d.roll(D6))

    with pytest.raises(TooManyOutcomes, match="more than 30 replays"):
        enumerate_outcomes(nested, max_nodes=30)
    assert len(enumerate_outcomes(nested, max_nodes=43)) == 11
