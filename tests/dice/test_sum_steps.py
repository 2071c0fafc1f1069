"""Dice the exact enumerator reads without replaying: a step that adds one die (`DieStep`,
convolved with the fold's keys when it says how it moves them) and a sub-roll given as a
value (`Subroll`, enumerated once per value). Each must give exactly what the replayed
tree gives — the same states standing for each key, the same weights, the same order —
and count its replays the same, so a bound refuses it where it refused before."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import pytest

from tactical.dice import D6, Dice, Die, ScriptedDice, SeededDice, enumerate_outcomes
from tactical.dice.core import DieStep, Subroll
from tactical.dice.exact import _SUBROLLS, TooManyOutcomes, fold_outcomes
from tactical.dice.notation import expression_odds, parse_expression

D4 = Die("d4", (1, 2, 3, 4))
REROLLED = Die("d6r1", (1, 2, 3, 4, 5, 6), frozenset({1}))  # a 1 rolled again: 5 faces stand


def add(state: tuple[int, tuple[int, ...]], value: int) -> tuple[int, tuple[int, ...]]:
    return state[0] + value, (*state[1], value)


def total(state: tuple[int, tuple[int, ...]]) -> int:
    return state[0]


def hidden(step: DieStep):
    """The same step as a plain function: the enumerator must replay it."""
    return lambda state, dice: step(state, dice)


@pytest.mark.parametrize("shift", [None, lambda key, value: key + value])
@pytest.mark.parametrize("die", [D6, D4, REROLLED])
def test_a_die_step_folds_exactly_as_the_replayed_step(die, shift):
    steps = [DieStep(die, add, "who", "what", shift) for _ in range(4)]
    fast = fold_outcomes((0, ()), steps, key=total)
    slow = fold_outcomes((0, ()), [hidden(step) for step in steps], key=total)
    assert fast.pairs == slow.pairs  # states (the first reached), weights and order
    assert fast.total == 1
    assert fast.probability((16, (4, 4, 4, 4))) == (Fraction(1, 256) if die is D4 else 0)


def test_a_die_step_rolls_through_a_recording_source_with_its_labels():
    dice = ScriptedDice([3, 5])
    step = DieStep(D6, add, "Vanguard", "damage die")
    assert dice.fold((0, ()), [step, step]) == (8, (3, 5))
    assert [(roll.who, roll.what, roll.result) for roll in dice.rolls] == [
        ("Vanguard", "damage die", 3),
        ("Vanguard", "damage die", 5),
    ]


def test_a_die_step_counts_its_replays_against_the_bound_as_before():
    steps = [DieStep(D6, add, shift=lambda key, value: key + value) for _ in range(3)]
    # a fold of three d6 by total: 1 + 6 | 6 x 7 | 11 x 7 replays = 7 + 42 + 77 = 126
    assert fold_outcomes((0, ()), steps, key=total, max_nodes=126).total == 1
    with pytest.raises(TooManyOutcomes):
        fold_outcomes((0, ()), steps, key=total, max_nodes=125)
    with pytest.raises(TooManyOutcomes):
        fold_outcomes((0, ()), [hidden(s) for s in steps], key=total, max_nodes=125)


def test_plain_pools_by_convolution_are_the_sums_of_their_dice():
    odds = expression_odds(parse_expression("10d6")).as_dict()
    assert odds[(10, None)] == Fraction(1, 6**10)
    assert odds[(35, None)] == Fraction(4395456, 6**10)  # the middle of 10d6
    assert sum(odds.values()) == 1
    botch = expression_odds(parse_expression("d8+d6")).as_dict()
    assert botch[(2, True)] == Fraction(1, 48)  # both dice show 1: a botch (R003.5)
    assert (2, False) not in botch


@dataclass(frozen=True)
class Pool(Subroll):
    """Count the dice of a pool showing `hit_on` or more."""

    dice: int
    hit_on: int
    calls: list = None  # type: ignore[assignment]  # not part of the value: counts the calls

    def __hash__(self) -> int:
        return hash((self.dice, self.hit_on))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Pool) and (self.dice, self.hit_on) == (other.dice, other.hit_on)

    def __call__(self, dice: Dice) -> tuple[int, tuple[int, ...]]:
        if self.calls is not None:
            self.calls.append(1)
        faces = tuple(dice.roll(D6) for _ in range(self.dice))
        return sum(face >= self.hit_on for face in faces), faces

    def key(self, outcome: tuple[int, tuple[int, ...]]) -> int:
        return outcome[0]


def test_a_subroll_given_as_a_value_is_enumerated_once_and_exactly():
    _SUBROLLS.clear()
    calls: list = []
    first = Pool(3, 5, calls)

    def attack(dice: Dice, roll: Pool) -> int:
        hits, _ = dice.chance(roll, key=roll.key)
        return hits * 10 + dice.roll(D4)

    once = enumerate_outcomes(lambda dice: attack(dice, first))
    spent = len(calls)
    again = enumerate_outcomes(lambda dice: attack(dice, Pool(3, 5, calls)))
    assert len(calls) == spent  # an equal value: remembered, not enumerated again
    plain = enumerate_outcomes(
        lambda dice: (
            dice.chance(lambda source: first(source), key=first.key)[0] * 10 + dice.roll(D4)
        )
    )
    assert once.pairs == again.pairs == plain.pairs
    assert once.probability(34) == Fraction(1, 27) * Fraction(1, 4)  # three hits, a 4
    # a bound below what the sub-roll took refuses it, as the replayed enumeration does
    with pytest.raises(TooManyOutcomes):
        enumerate_outcomes(lambda dice: attack(dice, first), max_nodes=10)
    with pytest.raises(TooManyOutcomes):
        enumerate_outcomes(
            lambda dice: dice.chance(lambda source: first(source), key=first.key)[0],
            max_nodes=10,
        )


def test_a_subroll_rolls_through_a_seeded_source_like_any_chance():
    roll = Pool(4, 4)
    hits, faces = SeededDice(7).chance(roll, key=roll.key)
    assert len(faces) == 4 and hits == sum(face >= 4 for face in faces)


@dataclass(frozen=True)
class Volley(Subroll):
    """Three dice read through a nested sub-roll: ten or more is a hit."""

    need: int = 10

    def __call__(self, dice: Dice) -> bool:
        faces = dice.chance(
            lambda source: tuple(source.roll(D6) for _ in range(3)),
            key=lambda rolled: sum(rolled) >= self.need,
        )
        return sum(faces) >= self.need


def test_a_remembered_subroll_is_refused_where_a_roll_nested_in_it_needs_more():
    _SUBROLLS.clear()
    roll = Volley()
    # the nested roll alone takes 1 + 6 + 36 + 216 = 259 replays, the sub-roll itself 3
    first = enumerate_outcomes(lambda dice: dice.chance(roll, key=roll.key), max_nodes=259)
    assert first.probability(True) == Fraction(5, 8)  # 3d6 of 10 or more
    with pytest.raises(TooManyOutcomes):
        enumerate_outcomes(lambda dice: dice.chance(roll, key=roll.key), max_nodes=258)
    with pytest.raises(TooManyOutcomes):  # as the same roll not given as a value
        enumerate_outcomes(
            lambda dice: dice.chance(lambda source: roll(source), key=roll.key), max_nodes=258
        )
