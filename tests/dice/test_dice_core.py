"""Dice sources: seeded, scripted (G.1), recorded; die specs of every system (G.2, §6)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tactical.dice import D3, D6, D10, D10Z, ScriptedDice, ScriptError, SeededDice, numbered_die
from tactical.dice.core import Die
from tactical.errors import UserError


def test_die_faces_of_every_engine():
    """G.2 / §6 dice engines: d10 read 0-9, d10 read 1-10, d6, D3 = d6 halved rounded up."""
    assert D10Z.values == tuple(range(10))
    assert D10.values == tuple(range(1, 11))
    assert D6.values == (1, 2, 3, 4, 5, 6)
    assert D3.values == (1, 1, 2, 2, 3, 3)
    assert D3.weights() == ((1, 2), (2, 2), (3, 2))
    assert numbered_die(12, zero_based=True).values == tuple(range(12))
    with pytest.raises(UserError):
        numbered_die(0)


def test_seeded_dice_repeat_and_record_every_roll():
    first, second = SeededDice(42), SeededDice(42)
    a = [first.roll(D10Z, who="base", what="to-hit") for _ in range(50)]
    b = [second.roll(D10Z, who="base", what="to-hit") for _ in range(50)]
    assert a == b
    assert len(first.rolls) == 50
    record = first.rolls[0]
    assert (record.who, record.what, record.die, record.faces, record.result) == (
        "base",
        "to-hit",
        "d10z",
        10,
        a[0],
    )
    assert all(0 <= value <= 9 for value in a)
    assert set(a) != {a[0]}


def test_seeded_dice_never_touch_the_global_random():
    random.seed(7)
    expected = random.random()
    random.seed(7)
    SeededDice(1).roll(D6)
    assert random.random() == expected


def test_scripted_dice_consume_in_order_G1():
    """G.1: results are consumed in order; running out or an impossible face is an error."""
    dice = ScriptedDice([9, 0, 3])
    assert [dice.roll(D10Z) for _ in range(3)] == [9, 0, 3]
    with pytest.raises(ScriptError, match="exhausted"):
        dice.roll(D10Z, who="x", what="damage")
    with pytest.raises(ScriptError, match="not a face"):
        ScriptedDice([10]).roll(D10Z)
    with pytest.raises(ScriptError):
        ScriptedDice([0]).roll(D6)


def test_fold_plays_steps_in_order_with_real_dice():
    dice = ScriptedDice([2, 5])

    def add(total: int, source) -> int:
        return total + source.roll(D6)

    assert dice.fold(10, [add, add], key=lambda total: total % 2) == 17
    assert dice.chance(lambda source: "no roll") == "no roll"


@given(st.integers(min_value=0, max_value=2**32), st.sampled_from([D3, D6, D10, D10Z]))
def test_seeded_results_are_faces_of_the_die(seed, die: Die):
    dice = SeededDice(seed)
    for _ in range(20):
        assert dice.roll(die) in die.values


def test_G1_a_die_rerolled_on_some_faces_is_rolled_whole_again_and_recorded():
    """G.1: a reroll consumes the next result; every physical roll is recorded."""
    from fractions import Fraction

    from tactical.dice import ScriptedDice, enumerate_outcomes
    from tactical.dice.core import D6, MAX_REROLLS, Die, SeededDice

    die = Die("d6", D6.values, reroll=frozenset({5, 6}))
    dice = ScriptedDice([6, 5, 6, 3])
    assert dice.roll(die) == 3 and [r.result for r in dice.rolls] == [6, 5, 6, 3]
    assert enumerate_outcomes(lambda d: d.roll(die)).as_dict() == {
        v: Fraction(1, 4) for v in (1, 2, 3, 4)
    }
    seeded = SeededDice(7)
    assert all(seeded.roll(die) <= 4 for _ in range(200))
    stubborn = ScriptedDice([6] * MAX_REROLLS + [2])
    assert stubborn.roll(die) == 2  # the bound: then a roll among the faces that stand
    with pytest.raises(ValueError):
        Die("d2", (1, 2), reroll=frozenset({1, 2}))
