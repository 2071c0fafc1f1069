"""An attack's saves and Critical Hit roll given as values (G.5, R002.49, R002.50): the same
dice, odds and events as the rolls they stand for, and equal for attacks that roll alike,
so the exact enumerator enumerates them once."""

from __future__ import annotations

from dataclasses import replace

from dw_builders import SHIELDED

from tactical.dice import ScriptedDice, enumerate_outcomes
from tactical.rules.dystopian_wars.chance import (
    CriticalRollOf,
    SavesRoll,
    shield_saves,
)
from tactical.rules.dystopian_wars.dicework import critical_roll


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
