"""A ship's attack roll read for the states alone is enumerated once whatever its Hull Points
left (G.5): they decide only whether the hit sinks it, one for one with the Hull Points
lost. Its exact outcomes, their order, weights and the replays they need must be those of
the roll itself (`chance.attack_roll`), enumerated by replay for each Hull Points left."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tactical.dice import ScriptedDice, SeededDice, enumerate_outcomes, exact
from tactical.dice.exact import TooManyOutcomes
from tactical.rules.dystopian_wars import chance
from tactical.rules.dystopian_wars.chance import AttackRollOf, ByCondition, Defence, attack_roll
from tactical.rules.dystopian_wars.dicework import PoolRules

SHIP = Defence(5, PoolRules(4, 2, True), 1, 0, 4, 2, 4, 2, 3, 0, 2)


def _direct(defence: Defence, max_nodes: int = exact.DEFAULT_MAX_NODES):
    """The roll's own resolver enumerated by replay, merged by what it changes."""
    return enumerate_outcomes(
        lambda dice: attack_roll(defence, dice, words=False),
        key=lambda rolled: rolled.summary.effect,
        max_nodes=max_nodes,
    )


def _shared(defence: Defence, max_nodes: int = exact.DEFAULT_MAX_NODES):
    roll = AttackRollOf(defence, worded=False)
    return enumerate_outcomes(lambda dice: dice.chance(roll, key=roll.key), max_nodes=max_nodes)


@pytest.mark.parametrize("hull_left", [0, 1, 2, 3, 4, 9])
def test_G_5_a_hull_free_roll_has_each_hull_s_outcomes_in_order(hull_left):
    defence = replace(SHIP, hull_left=hull_left)
    mine, direct = _shared(defence), _direct(defence)
    assert [(o.summary, p) for o, p in mine.pairs] == [(o.summary, p) for o, p in direct.pairs]
    sunk = [o.summary.destroyed for o, _ in mine.pairs]
    assert any(sunk) == (0 < hull_left <= 3)  # a hit takes 1 Hull Point, a Critical 2 more


def test_G_5_the_hull_free_roll_is_enumerated_once_for_every_hull():
    exact._SUBROLLS.clear()
    for hull_left in (1, 2, 3):
        _shared(replace(SHIP, hull_left=hull_left))
    free = [key for key in exact._SUBROLLS if isinstance(key[0], AttackRollOf)]
    hull_free = [key for key in free if key[0].defence.hull_left == 0]
    assert len(hull_free) == 1 and len(free) == 4


def test_G_5_a_bound_refuses_the_hull_free_roll_as_it_refused_the_roll():
    defence = replace(SHIP, dice=8, hull_left=2)
    needed = exact._subroll_found(AttackRollOf(defence, worded=False), True, 100_000)[1]
    with pytest.raises(TooManyOutcomes):
        _direct(defence, needed - 1)
    for hull_left in (2, 5):  # the second met after the first was refused
        with pytest.raises(TooManyOutcomes):
            _shared(replace(defence, hull_left=hull_left), needed - 1)
    assert len(_shared(defence, needed).pairs) == len(_direct(defence).pairs)


def test_G_5_a_recording_source_rolls_the_same_dice_and_summary():
    for hull_left in (1, 3):
        defence = replace(SHIP, hull_left=hull_left)
        plain = AttackRollOf(defence, worded=False)
        for seed in range(12):
            seeded, again = SeededDice(seed), SeededDice(seed)
            assert plain(seeded).summary == attack_roll(defence, again, words=False).summary
            assert seeded.rolls == again.rolls
        faces = [6, 6, 5, 4, 1, 6, 3, 6]
        assert chance._sinking(
            AttackRollOf(replace(defence, hull_left=0), worded=False)(ScriptedDice(faces)),
            hull_left,
        ) == attack_roll(defence, ScriptedDice(faces), words=False)


def test_G_5_a_roll_read_for_conditions_merges_alike_for_every_hull():
    for hull_left in (1, 2, 4):
        defence = replace(SHIP, hull_left=hull_left)
        merged = ByCondition(AttackRollOf(defence, worded=False))
        found = enumerate_outcomes(merged, key=merged.key)
        direct = _direct(defence).map(lambda rolled: rolled.summary.condition)
        assert sorted((o.summary.condition, p) for o, p in found.pairs) == sorted(direct.pairs)
