"""A laser shot and a missile salvo as values (`LaserRoll`, `SalvoRoll`: R000.4-R000.9,
R000.18-R000.24): enumerated once per value as sub-rolls, they give what their folds
rolled in the resolver give, outcome by outcome, and are refused at the very replay
bound the folds were; words and no words are different values."""

from __future__ import annotations

import pytest

from tactical.dice import ScriptedDice, SeededDice, TooManyOutcomes, enumerate_outcomes
from tactical.model.worded import unworded
from tactical.rules.battlefleet_mars import chance

OPTIONS = {"missile_to_hit": "auto", "missile_to_hit_score": 5}
ROLLED = {"missile_to_hit": "roll", "missile_to_hit_score": 5}


def _plan(declared=4, ciws=3, kind="ship", room=None, options=OPTIONS):
    to_hit = options["missile_to_hit"]
    score = options["missile_to_hit_score"] if to_hit == "roll" else None
    return chance.SalvoRoll(declared, ciws, "ship", kind, to_hit, score, "a", "t", room, True)


@pytest.mark.parametrize(
    "declared,ciws,kind,room,options",
    [
        (4, 3, "ship", chance.Room(6, 3), OPTIONS),
        (3, None, "ship", chance.Room(99, 99), OPTIONS),
        (3, 4, "fighter", None, OPTIONS),
        (2, 3, "ship", chance.Room(4, 2), ROLLED),
    ],
)
def test_R000_18_a_salvo_as_a_subroll_gives_what_its_folds_give(
    declared, ciws, kind, room, options
):
    plan = _plan(declared, ciws, kind, room, options)
    folds = enumerate_outcomes(lambda dice: chance._salvo(plan, dice), key=plan.key)
    whole = enumerate_outcomes(
        lambda dice: chance.missile_salvo(
            declared, ciws, "ship", kind, options, dice, who="a", target="t", room=room
        ),
        key=plan.key,
    )
    assert whole.pairs == folds.pairs
    assert len(whole.pairs) > 3


def test_R000_4_a_laser_shot_as_a_subroll_gives_what_its_fold_gives():
    roll = chance.LaserRoll(6, 4, "ship", "a", "t")
    fold = enumerate_outcomes(lambda dice: chance._laser_shot(6, 4, "ship", dice, "a", "t"))
    shot = enumerate_outcomes(
        lambda dice: chance.laser_shot(6, 4, "ship", dice, who="a", target="t")
    )
    assert shot.pairs == fold.pairs
    assert roll.key(shot.pairs[0][0]) == (False, None)  # a miss first
    assert len(shot.pairs) > 2


def test_R000_22_a_salvo_too_large_is_refused_at_the_bound_its_folds_were():
    """Nine missiles at a ship with CIWS: the bound that refuses the folds rolled in the
    resolver refuses the sub-roll, bound by bound (remembered or not)."""
    plan = _plan(9, 3, "ship", chance.Room(12, 4))

    def refused(fn, bound):
        try:
            enumerate_outcomes(fn, key=plan.key, max_nodes=bound)
        except TooManyOutcomes:
            return True
        return False

    def whole(dice):
        return chance.missile_salvo(
            9, 3, "ship", "ship", OPTIONS, dice, who="a", target="t", room=plan.room
        )

    bounds = (10, 1000, 2000, 2781, 2782, 2783, 2784, 3000)  # it needs 2,783
    folds = [refused(lambda dice: chance._salvo(plan, dice), n) for n in bounds]
    first = [refused(whole, n) for n in bounds]
    again = [refused(whole, n) for n in reversed(bounds)][::-1]  # now remembered
    assert first == folds == again
    assert any(folds) and not all(folds)


def test_a_salvo_rolls_its_dice_under_the_same_names():
    dice = ScriptedDice([9, 0, 9, 9, 3, 7, 2])
    salvo = chance.missile_salvo(4, 3, "ship", "ship", OPTIONS, dice, who="a", target="t")
    assert salvo.volley.survivors == (1, 3, 4)
    assert [r.who for r in dice.rolls] == ["t"] * 4 + ["a"] * 3


def test_words_and_no_words_are_different_salvos():
    """A salvo enumerated for the state alone keeps no words: the one with words, asked
    after it, still has them (the two are different values)."""

    def words(dice):
        salvo = chance.missile_salvo(3, 4, "ship", "ship", OPTIONS, dice, room=chance.Room(9, 9))
        return len(salvo.volley.events) + len(salvo.strikes.events)

    with unworded():
        quiet = enumerate_outcomes(words)
    loud = enumerate_outcomes(words)
    assert max(n for n, _ in quiet.pairs) == 0
    assert min(n for n, _ in loud.pairs) > 0


@pytest.mark.parametrize(
    "declared,ciws,kind,room",
    [
        (6, 3, "ship", chance.Room(5, 3)),
        (4, None, "base", chance.Room(99, 99)),
        (3, 4, "fighter", None),
        (5, 0, "missile", None),
        (2, 5, "ship", None),
    ],
)
def test_R000_22_a_seeded_salvo_for_its_state_alone_rolls_as_its_folds(declared, ciws, kind, room):
    """The seeded try of a salvo without its words (the computer players' first look at a
    candidate) makes the folds' salvo from the same rolls, named alike, in the same order."""
    plan = chance.SalvoRoll(declared, ciws, "ship", kind, "auto", None, "a", "t", room, False)
    for seed in range(40):
        quick, folded = SeededDice(seed), SeededDice(seed)
        with unworded():  # (a salvo without words is rolled only where none are wanted)
            assert chance._salvo(plan, quick) == chance._folded_salvo(plan, folded)
        assert quick.rolls == folded.rolls and len(quick.rolls) >= declared


@pytest.mark.parametrize(
    "strength,range_r,column", [(6, 4, "ship"), (3, 1, "fighter"), (8, 9, "base")]
)
def test_R000_4_a_seeded_shot_for_its_state_alone_rolls_as_its_fold(strength, range_r, column):
    """The seeded try of a laser shot without its words: the fold's hit and result, from the
    same rolls under the same names."""
    for seed in range(40):
        quick, folded = SeededDice(seed), SeededDice(seed)
        with unworded():
            shot = chance.laser_shot(strength, range_r, column, quick, who="a", target="t")
        alike = chance.laser_shot(strength, range_r, column, folded, who="a", target="t")
        assert (shot.hit, shot.result, shot.events) == (alike.hit, alike.result, ())
        assert quick.rolls == folded.rolls and len(alike.events) >= 2
