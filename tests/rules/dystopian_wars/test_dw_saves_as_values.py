"""An attack's saves, Critical Hit roll and exploding dice given as values (G.5, R002.49,
R002.50): the same dice, odds and events as the rolls they stand for, equal for attacks
that roll alike (the exact enumerator enumerates them once), refused at the same bounds."""

from __future__ import annotations

from dataclasses import replace

import pytest
from dw_builders import SHIELDED

from tactical.dice import D6, ScriptedDice, SeededDice, TooManyOutcomes, enumerate_outcomes
from tactical.dice.exact import _FOLDS, _SUBROLLS
from tactical.rules.dystopian_wars.chance import (
    AttackRollOf,
    ByCondition,
    CriticalRollOf,
    SavesRoll,
    shield_saves,
)
from tactical.rules.dystopian_wars.dicework import PoolRules, attack_pool, critical_roll


def _odds(fn, key):
    return enumerate_outcomes(fn, key=key).pairs


def test_R002_49_saves_as_a_value_roll_as_shield_saves_does():
    defence = replace(SHIELDED, shield_dice=2, guardian_dice=1, save_on=4)
    for words in (True, False):
        for hits in (0, 1, 2, 5):
            saving = SavesRoll.of(defence, hits, "t", "gunnery", words)

            def direct(dice, hits=hits, words=words):
                return shield_saves(defence, hits, dice, "t", "gunnery", words=words)

            assert _odds(saving, saving.key) == _odds(direct, lambda s: s.cancelled)
            scripted = ScriptedDice((4, 1, 6))
            assert saving(scripted) == direct(ScriptedDice((4, 1, 6)))
    worded = SavesRoll.of(defence, 2, "t", "gunnery", True)(ScriptedDice((4, 1, 6)))
    assert [event.kind for event in worded.events] == ["shield", "shield", "guardian-save"]
    assert worded.cancelled == 2


def test_R002_50_saves_read_for_states_are_one_value_for_the_same_dice():
    one = SavesRoll.of(replace(SHIELDED, shield_dice=2, guardian_dice=0), 3, "", "", False)
    other = SavesRoll.of(
        replace(SHIELDED, shield_dice=1, guardian_dice=1, hull_left=1), 3, "", "torpedo", False
    )
    assert one == other and hash(one) == hash(other)
    # with words the Guardian die is named apart: not the same value
    assert SavesRoll.of(replace(SHIELDED, shield_dice=2, guardian_dice=0), 3, "", "", True) != (
        SavesRoll.of(replace(SHIELDED, shield_dice=1, guardian_dice=1), 3, "", "", True)
    )
    assert SavesRoll.of(SHIELDED, 3, "", "", False) != SavesRoll.of(SHIELDED, 2, "", "", False)


def test_G_5_the_critical_roll_as_a_value_rolls_as_critical_roll_does():
    for words in (True, False):
        table = CriticalRollOf("t", words)

        def direct(dice, words=words):
            return critical_roll(dice, "t", words=words)

        assert _odds(table, table.key) == _odds(direct, lambda c: c.code)
        assert table(ScriptedDice((3, 5))) == direct(ScriptedDice((3, 5)))
    found = CriticalRollOf("t", False)(ScriptedDice((6, 6)))
    assert found.code == "critical-12" and found.events == ()


def _least_bound(roll) -> int:
    """The fewest replays the roll's enumeration is allowed, every memory forgotten first."""

    def accepted(max_nodes: int) -> bool:
        _SUBROLLS.clear()
        _FOLDS.clear()
        try:
            enumerate_outcomes(roll, key=roll.key, max_nodes=max_nodes)
        except TooManyOutcomes:
            return False
        return True

    low, high = 1, 4096
    while low < high:
        middle = (low + high) // 2
        if accepted(middle):
            high = middle
        else:
            low = middle + 1
    return low


@pytest.mark.parametrize(
    "defence,bound",
    [
        (SHIELDED, 322),
        (replace(SHIELDED, dice=9), 686),
        (replace(SHIELDED, shield_dice=0, guardian_dice=0, save_on=None), 202),
    ],
)
def test_G_5_an_attack_roll_is_refused_below_the_replays_it_always_needed(defence, bound):
    """The bounds found before the saves, the Critical Hit roll and the exploding dice were
    read as values: a computer player refuses exactly the attacks it refused."""
    for roll in (
        AttackRollOf(defence, worded=False),
        ByCondition(AttackRollOf(defence, worded=False)),
    ):
        assert _least_bound(roll) == bound
        enumerate_outcomes(roll, key=roll.key, max_nodes=bound)  # remembered: the same bound
        with pytest.raises(TooManyOutcomes):
            enumerate_outcomes(roll, key=roll.key, max_nodes=bound - 1)


def test_G_5_exploding_dice_read_as_values_roll_as_dice_rolled_in_the_step():
    """The pool's exploding dice (`OneDie` in a `ChanceStep`): seeded dice roll the same
    faces with the same labels as a step rolling its die itself."""
    rules = PoolRules(4, 2, True)
    for seed in range(30):
        seeded = SeededDice(seed)
        pool = attack_pool(4, rules, 6, seeded, who="a", what="AD", words=False)
        replayed = SeededDice(seed)
        faces = [replayed.roll(D6, who="a", what=f"AD: die {i + 1}") for i in range(4)]
        hits, pending, index = sum(map(rules.hits, faces)), faces.count(6), 0
        while pending and hits < 6:
            index += 1
            face = replayed.roll(D6, who="a", what=f"AD: exploding die {index}")
            faces.append(face)
            hits, pending = hits + rules.hits(face), pending - 1 + (face == 6)
        assert (pool.hits, pool.faces) == (hits, tuple(faces))
        assert seeded.rolls == replayed.rolls
