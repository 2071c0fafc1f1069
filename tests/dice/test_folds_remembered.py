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


def _at_least_ten(total: int) -> bool:
    return total >= 10


@pytest.mark.parametrize("pure", [True, False])
def test_folds_of_one_first_state_under_other_keys_are_not_confused(pure: bool):
    """A fold's memory is keyed by its merging key as well as its first state and steps:
    the same steps from the same state merged by another key (here: capped totals, then
    only "ten or more", then nothing) give their own outcomes, remembered across
    enumerations (`PureSteps`) or within one (`remembering`)."""
    _FOLDS.clear()
    steps = _steps([], 3)
    steps = steps if pure else tuple(steps)
    keys = (_capped, _at_least_ten, None)
    fresh = []
    for key in keys:
        _FOLDS.clear()
        fresh.append(fold_outcomes(0, steps, key=key))
    _FOLDS.clear()
    with remembering():
        together = [fold_outcomes(0, steps, key=key) for key in keys]
    assert together == fresh
    assert [fold_outcomes(0, steps, key=key) for key in keys] == fresh  # from _FOLDS if pure
    assert len({tuple(found) for found in fresh}) == 3  # three keys, three answers


def test_a_prefix_remembered_in_one_enumeration_is_refused_where_a_fresh_fold_is():
    """Inside `remembering`, a fold whose first layers were met before starts from them with
    their replay count: at every bound, it is refused exactly where the same fold worked
    out afresh is, and a fold met whole again is accepted at the bound that accepted it
    (the bound equal to its count included)."""
    steps = tuple(_steps([], 4, nested=True))  # not PureSteps: the enumeration's memory only
    short = steps[:3]
    for limit in range(1, 220):
        with remembering():
            try:
                fold_outcomes(0, short, key=_capped, max_nodes=limit)
            except TooManyOutcomes:
                continue  # the prefix itself refused: nothing remembered to start from
            # asked again whole: accepted at the bound that accepted it (its count, too)
            fold_outcomes(0, short, key=_capped, max_nodes=limit)
            try:
                fold_outcomes(0, steps, key=_capped, max_nodes=limit)
                remembered = True
            except TooManyOutcomes:
                remembered = False
        try:
            fold_outcomes(0, steps, key=_capped, max_nodes=limit)
            afresh = True
        except TooManyOutcomes:
            afresh = False
        assert remembered == afresh, limit
