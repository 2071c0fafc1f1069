"""Folds remembered beyond one enumeration (`_FOLDS`): a fold of steps that read nothing
but the state and the dice (`PureSteps`) met again with the same first state, key and step
objects gives the same states, weights and order without running its steps, and is refused
at exactly the bounds that refuse it when propagated afresh (the peak of replays it
needed, sub-rolls nested in its steps included)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tactical.dice import D6, Dice, enumerate_outcomes
from tactical.dice.core import PureSteps
from tactical.dice.exact import _FOLDS, _SUBROLLS, TooManyOutcomes, fold_outcomes, remembering


def _steps(calls: list[int], count: int, nested: bool = False):
    def step(total: int, dice: Dice) -> int:
        calls.append(total)
        if nested and total < 8:  # a 2d6 read through a sub-roll: 1 + 6 + 36 replays
            return total + dice.chance(lambda source: source.roll(D6) + source.roll(D6))
        return total + dice.roll(D6)

    return PureSteps((step,) * count)


def _capped(total: int) -> int:
    return min(total, 12)


def _attack(steps):
    def attack(dice: Dice) -> bool:
        return dice.fold(0, steps, key=_capped) >= 10

    return attack


def _accepted(fn, limit: int) -> bool:
    try:
        enumerate_outcomes(fn, max_nodes=limit)
    except TooManyOutcomes:
        return False
    return True


def test_a_fold_met_in_a_later_enumeration_is_not_propagated_again():
    _FOLDS.clear()
    calls: list[int] = []
    attack = _attack(_steps(calls, 3))
    first = enumerate_outcomes(attack)
    spent = len(calls)
    # each state's step replayed 1 + 6 times: one state, then six totals, then eleven
    assert spent == 7 * (1 + 6 + 11)
    again = enumerate_outcomes(attack)
    assert len(calls) == spent  # remembered: no step run again
    assert again.pairs == first.pairs
    assert first.probability(True) == Fraction(5, 8)  # 3d6 of 10 or more
    other = _attack(_steps(calls, 3))  # other step objects: propagated afresh
    assert enumerate_outcomes(other).pairs == first.pairs
    assert len(calls) == 2 * spent
    plain = _attack(tuple(_steps(calls, 3)))  # steps that may read more: every time
    enumerate_outcomes(plain)
    enumerate_outcomes(plain)
    assert len(calls) == 4 * spent


@pytest.mark.parametrize("nested", [False, True])
def test_a_remembered_fold_is_refused_where_a_fresh_one_is(nested: bool):
    attack = _attack(_steps([], 3, nested))
    fresh = []
    for limit in range(1, 400):
        _FOLDS.clear()
        _SUBROLLS.clear()
        fresh.append(_accepted(attack, limit))
    assert not fresh[0] and fresh[-1]
    smallest = fresh.index(True) + 1
    assert all(fresh[smallest - 1 :])  # refused below one limit, accepted from it on
    if nested:
        assert smallest > 1 + 43  # the nested 2d6 alone needs 43 replays
    _FOLDS.clear()
    enumerate_outcomes(attack)  # remembered
    remembered = [_accepted(attack, limit) for limit in range(1, 400)]
    assert remembered == fresh


def test_a_fold_begun_from_an_enumeration_memory_is_not_remembered_beyond_it():
    _FOLDS.clear()
    calls: list[int] = []
    steps = _steps(calls, 5, nested=True)
    with remembering():
        short = fold_outcomes(0, PureSteps(steps[:3]), key=_capped)
        fold_outcomes(0, steps, key=_capped)  # its first 3 layers read
    assert fold_outcomes(0, PureSteps(steps[:3]), key=_capped) == short
    calls.clear()
    fold_outcomes(0, steps, key=_capped)
    assert calls  # propagated again: its peak was not known whole
