"""Sub-rolls the exact enumerator reads without replaying them once per state: a fold step
whose dice are one sub-roll given as a value (`ChanceStep`), and a sub-roll given as a
function (`Dice.chance`) met again with the same code and the same captured values. Each
must give exactly what the replayed tree gives (the same states standing for each key,
the same weights, the same order) and count its replays the same, so that a bound refuses
it where it refused before; and the exact sums of `Distribution` must equal Fraction sums.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any

import pytest

from tactical.dice import D6, Dice, Die, Distribution, ScriptedDice, enumerate_outcomes
from tactical.dice.core import ChanceStep, Subroll
from tactical.dice.exact import TooManyOutcomes, exact_sum, fold_outcomes, remembering


@dataclass(frozen=True, slots=True)
class Hit(Subroll):
    """A d6 on a chart whose spent rows are rolled again (as a live set), then a second d6
    when `bonus`: both rolled inline by the step it stands for."""

    live: frozenset[int]
    bonus: bool

    def __call__(self, dice: Dice) -> tuple[int, int, int | None]:
        first = roll = dice.roll(D6, who="gunner", what="chart")
        if roll not in self.live:  # rolled again while spent: one roll among the live rows
            again = Die("d6 again", D6.values, frozenset(D6.values) - self.live)
            roll = dice.roll(again, who="gunner", what="chart again")
        extra = dice.roll(D6, who="gunner", what="bonus") if self.bonus else None
        return first, roll, extra

    def key(self, outcome: tuple[int, int, int | None]) -> Any:
        return outcome[1:]


State = tuple[tuple[int, ...], tuple[Any, ...]]  # (hits per row, log)
ROWS = 3  # rows 1-3 hold two hits each; 4-6 are never live


def live(state: State) -> frozenset[int]:
    return frozenset(row + 1 for row in range(ROWS) if state[0][row] < 2)


def roll_for(state: State) -> Hit | None:
    rows = live(state)
    return Hit(rows, sum(state[0]) == 2) if rows else None


def then(state: State, rolled: tuple[int, int, int | None] | None) -> State:
    if rolled is None:
        return state[0], (*state[1], "full")
    first, row, extra = rolled
    hits = tuple(n + (k == row - 1) + (k == 0 and extra == 6) for k, n in enumerate(state[0]))
    return tuple(min(n, 2) for n in hits), (*state[1], (first, row, extra))


def inline(state: State, dice: Dice) -> State:
    """The same step with the sub-roll's dice rolled in it: the enumerator replays it."""
    rows = live(state)
    if not rows:
        return then(state, None)
    return then(state, Hit(rows, sum(state[0]) == 2)(dice))


def by_hits(state: State) -> tuple[int, ...]:
    return state[0]


START: State = ((0, 0, 0), ())


def test_a_chance_step_folds_exactly_as_the_step_rolling_its_dice_itself():
    for steps in (5, 7):  # past six hits every row is spent: a step that rolls nothing
        fast = fold_outcomes(START, [ChanceStep(roll_for, then)] * steps, key=by_hits)
        slow = fold_outcomes(START, [inline] * steps, key=by_hits)
        assert fast.pairs == slow.pairs  # the first states reached, logs and all; weights, order
        assert fast.total == 1
    assert fast.outcomes[0][1][-1] == "full"
    five = fold_outcomes(START, [ChanceStep(roll_for, then)] * 5, key=by_hits)
    assert len(five) == 4 and 0 < five.where(lambda state: state[0] == (2, 2, 2)) < 1


def test_a_chance_step_with_its_keys_folds_exactly_as_without_and_makes_fewer_states():
    """With `keys` (the step on the fold's keys) the enumerator makes a state only for a key
    reached first: the same first states, weights and order, from fewer calls of `then`."""
    made: list[State] = []

    def counted(state: State, rolled: tuple[int, int, int | None] | None) -> State:
        made.append(state)
        return then(state, rolled)

    def keys(state: State, name: Any, outcomes: Any) -> list[Any]:
        assert name == by_hits(state)
        return [by_hits(then(state, rolled)) for rolled in outcomes]

    for steps in (5, 7):
        plain = fold_outcomes(START, [ChanceStep(roll_for, counted)] * steps, key=by_hits)
        every = len(made)
        made.clear()
        keyed = fold_outcomes(START, [ChanceStep(roll_for, counted, keys)] * steps, key=by_hits)
        assert keyed.pairs == plain.pairs
        assert 0 < len(made) < every
        made.clear()


def test_a_chance_step_counts_its_replays_against_the_bound_as_before():
    def needed(steps: list) -> int:
        low, high = 1, 100_000
        while low < high:  # the smallest bound the fold passes
            middle = (low + high) // 2
            try:
                fold_outcomes(START, steps, key=by_hits, max_nodes=middle)
                high = middle
            except TooManyOutcomes:
                low = middle + 1
        return low

    replayed = needed([inline] * 5)
    assert needed([ChanceStep(roll_for, then)] * 5) == replayed > 50


def test_a_chance_step_rolls_through_a_recording_source_in_order():
    dice = ScriptedDice([5, 1, 4, 2, 6])  # 5 is not live: rolled again (1); then 4 again (2)
    step = ChanceStep(roll_for, then)
    hits, log = dice.fold(START, [step, step])
    assert hits == (1, 1, 0) and log == ((5, 1, None), (4, 2, None))
    assert [roll.what for roll in dice.rolls] == ["chart", "chart again", "chart", "chart again"]
    assert dice.remaining == (6,)


def test_folds_that_begin_alike_share_their_first_layers_within_one_enumeration():
    calls: list[State] = []

    def counted(state: State, rolled: tuple[int, int, int | None] | None) -> State:
        calls.append(state)
        return then(state, rolled)

    step = ChanceStep(roll_for, counted)
    alone = [fold_outcomes(START, [step] * steps, key=by_hits) for steps in (3, 5)]
    separately = len(calls)
    calls.clear()
    with remembering():
        together = [fold_outcomes(START, [step] * steps, key=by_hits) for steps in (3, 5)]
    assert [found.pairs for found in together] == [found.pairs for found in alone]
    assert 0 < len(calls) < separately  # the first three layers made once, not twice


def test_a_sub_roll_met_again_with_the_same_captures_is_enumerated_once():
    calls: list[int] = []

    def damage(wound: int, source: Dice) -> int:
        calls.append(wound)
        return source.roll(D6) + wound

    def resolver(dice: Dice, remembered: bool = True) -> tuple[int, int]:
        first = dice.roll(D6)
        wound = first % 3  # three values of the capture, met from six states
        inner = (lambda source: damage(wound, source)) if remembered else partial(damage, wound)
        return first, dice.chance(inner, key=lambda total: total > 4)

    found = enumerate_outcomes(resolver)
    assert len(calls) == 3 * 7  # three captures, each 1 + 6 replays, not 6 x 7
    calls.clear()
    plain = enumerate_outcomes(lambda dice: resolver(dice, remembered=False))
    assert len(calls) == 6 * 7  # a partial is not read as a value: enumerated every time
    assert found.pairs == plain.pairs
    assert found.probability((3, 5)) == Fraction(1, 6) * Fraction(2, 6)  # 3 % 3 = 0: 5 or 6


def test_captures_that_are_equal_but_not_alike_are_kept_apart():
    def resolver(dice: Dice) -> Any:
        pick = dice.roll(D6)
        value: Any = (1, 1.0, True)[pick % 3]

        def inner(source: Dice) -> str:
            return f"{value!r}:{source.roll(D6) > 3}"

        return dice.chance(inner)

    found = enumerate_outcomes(resolver).as_dict()
    assert found == {
        "1:False": Fraction(1, 6),
        "1:True": Fraction(1, 6),
        "1.0:False": Fraction(1, 6),
        "1.0:True": Fraction(1, 6),
        "True:False": Fraction(1, 6),
        "True:True": Fraction(1, 6),
    }


def test_exact_sums_and_images_equal_fraction_arithmetic():
    pairs = (*((k, Fraction(1, 2**k)) for k in range(1, 12)), (12, Fraction(1, 2**11)))
    distribution = Distribution(pairs)
    assert distribution.total == sum(p for _, p in pairs) == 1
    assert exact_sum(p for _, p in pairs[:3]) == Fraction(7, 8)
    assert exact_sum(()) == 0
    image = distribution.map(lambda k: k % 3)
    assert image.pairs == Distribution.from_weights((k % 3, p) for k, p in pairs).pairs
    assert distribution.where(lambda k: k > 10) == Fraction(1, 1024)
    assert distribution.expected() == sum(k * p for k, p in pairs)
    assert distribution.expected(lambda k: Fraction(k, 3)) == sum(
        Fraction(k, 3) * p for k, p in pairs
    )
    weighed = Distribution.from_weights((k % 4, 2**12 * p) for k, p in pairs)  # shares known
    again = Distribution(weighed.pairs)  # the same pairs, shares found afresh
    assert weighed.map(lambda k: k > 1).pairs == again.map(lambda k: k > 1).pairs
    assert weighed.where(lambda k: k == 1) == again.where(lambda k: k == 1) == Fraction(273, 512)
    assert weighed.expected() == again.expected()
    part = Distribution(pairs[:2])  # not a whole distribution: its image is normalised
    assert part.map(lambda k: 0).pairs == ((0, Fraction(1)),)
    with pytest.raises(ValueError):
        Distribution(()).map(lambda k: k)


class _Calls:
    """How often a sub-roll was called (compared by identity: a field of a value)."""

    def __init__(self) -> None:
        self.count = 0


@dataclass(frozen=True, slots=True)
class Counted(Subroll):
    """Three d6 (216 replays), each call counted."""

    calls: _Calls

    def __call__(self, dice: Dice) -> int:
        self.calls.count += 1
        return sum(dice.roll(D6, who="x", what="die") for _ in range(3))


def test_a_sub_roll_refused_at_a_bound_is_refused_again_without_replaying_it():
    roll = Counted(_Calls())

    def total(dice: Dice) -> int:
        return dice.chance(roll, key=roll.key)

    with pytest.raises(TooManyOutcomes):
        enumerate_outcomes(total, max_nodes=48)
    first = roll.calls.count
    assert first == 48  # replayed up to the bound, then refused
    with pytest.raises(TooManyOutcomes, match="more than 48 replays"):
        enumerate_outcomes(total, max_nodes=48)
    assert roll.calls.count == first  # refused as before, nothing replayed
    # another bound is its own question: enumerated whole where it is large enough
    assert enumerate_outcomes(total, max_nodes=1_000).probability(3) == Fraction(1, 216)
