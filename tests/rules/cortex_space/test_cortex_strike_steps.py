"""R003.7: a strike's steps read face by face (`DieStep`, `ChanceStep`) give what replaying
them gives: the same outcomes, weights, order and count of replays, and the same rolls."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tactical.dice import SeededDice, StepDie, enumerate_outcomes, exact
from tactical.dice.core import ChanceStep, DieStep
from tactical.rules.cortex_space import gunnery
from tactical.rules.cortex_space.attack_pools import Defense
from tactical.rules.cortex_space.damage import (
    BattleDamageRoll,
    Systems,
    WeaponState,
    battle_damage,
)
from tactical.rules.cortex_space.rolls import DamageDice, parse_damage, skill_pool

ATTACK = skill_pool(("agility", StepDie(5)), ("gunnery", StepDie(4)))  # d10 + d8
DEFENSE = Defense(
    None,
    "defense roll",
    "R003.7",
    (skill_pool(("agility", StepDie(4)), ("pilot", StepDie(3))),),
    (),
)
FIXED = Defense(11, "crew", "R003.47", (), ())
WORST = Defense(
    None,
    "defense roll",
    "R003.7",
    (
        skill_pool(("agility", StepDie(4)), ("pilot", StepDie(2))),
        skill_pool(
            ("agility", StepDie(3)),
        ),
    ),
    (),
)


def _strike(defense: Defense, group: bool, damage: DamageDice, words: bool) -> gunnery.StrikeRoll:
    return gunnery.StrikeRoll(ATTACK, defense, group, damage, "viper", "raider", 1, words)


CASES = [
    _strike(DEFENSE, False, parse_damage("d8"), False),
    _strike(DEFENSE, True, parse_damage("d12+d2"), True),
    _strike(FIXED, True, parse_damage("d6"), False),
    _strike(WORST, False, parse_damage("4d2"), True),
]


def _replayed(plan: gunnery.StrikeRoll) -> tuple:
    """The same steps as plain functions: the enumerator replays each once per state."""
    return tuple(
        (lambda state, dice, step=step: step(state, dice))
        for step in gunnery._made_strike_steps(plan)
    )


def _found(roll: gunnery.StrikeRoll) -> tuple:
    exact._SUBROLLS.pop((roll, True), None)
    options, needed, own = exact._subroll_found(roll, True, exact.DEFAULT_MAX_NODES)
    return tuple((repr(outcome), n, d) for outcome, n, d in options), needed, own


@pytest.mark.parametrize("roll", CASES, ids=["roll", "group", "fixed", "worst-of"])
def test_R003_7_strike_read_face_by_face_as_replayed(roll, monkeypatch):
    read = _found(roll)
    pairs = enumerate_outcomes(roll).pairs
    seeded = [(repr(roll(dice)), dice.rolls) for dice in map(SeededDice, range(4))]
    # the steps as `roll_pool`, `roll_defense` and `roll_damage` roll them, replayed
    monkeypatch.setattr(gunnery, "pool_composite", lambda pool: None)
    monkeypatch.setattr(gunnery, "damage_composite", lambda damage: None)
    monkeypatch.setattr(gunnery, "_strike_steps", _replayed)
    assert _found(roll) == read
    assert enumerate_outcomes(roll).pairs == pairs
    assert [(repr(roll(dice)), dice.rolls) for dice in map(SeededDice, range(4))] == seeded
    assert sum(p for _, p in pairs) == 1


def test_R003_7_strike_steps_by_shape():
    rolled = gunnery._made_strike_steps(CASES[0])
    assert [type(step) for step in rolled] == [DieStep, DieStep, ChanceStep]
    fixed = gunnery._made_strike_steps(CASES[2])
    assert [type(step) for step in fixed[:2]] == [DieStep, type(_replayed)]
    worst = gunnery._made_strike_steps(replace(CASES[3], words=False))
    assert isinstance(worst[1], type(_replayed))
    # a hit's damage die rolled once per die and labels: the same value for every hit
    assert rolled[2].roll(gunnery.Strike(("hit", 3, False))) is rolled[2].roll(
        gunnery.Strike(("hit", 5, False))
    )
    assert rolled[2].roll(gunnery.Strike(("miss",))) is None


def test_R003_58_a_hit_absorbed_without_words_counts_the_same():
    from tactical.rules.cortex_space.damage import Receiver, absorb
    from tactical.rules.cortex_space.tables import SCALES, _scale_damage, scale_damage

    receiver = Receiver("raider", "planetcraft", 2, 1, False, False, True, True, True, "first")
    for source in SCALES:
        worded = absorb(9, 7, source, receiver)
        quiet = absorb(9, 7, source, receiver, words=False)
        assert quiet == (*worded[:2], ())
        assert scale_damage(source, "planetcraft") == _scale_damage(source, "planetcraft")
    assert absorb(9, 7, "spacecraft", receiver)[:2] == (17, 12)  # x2 damage less Armor


def _systems() -> Systems:
    weapons = (WeaponState("guns", 4, 0, False), WeaponState("pd", 1, 0, False))
    return Systems(0, 0, False, True, False, 6, weapons)


@pytest.mark.parametrize("wound", [0, 10, 25])
def test_R003_26_battle_damage_as_a_value_rolls_as_the_function(wound):
    roll = BattleDamageRoll(wound, _systems(), "basestar")
    exact._SUBROLLS.pop((roll, True), None)
    by_value = enumerate_outcomes(lambda dice: dice.chance(roll, key=roll.key), key=roll.key).pairs
    by_function = enumerate_outcomes(
        lambda dice: battle_damage(wound, _systems(), dice, who="basestar"),
        key=lambda found: (found.systems, found.effects),
    ).pairs
    assert by_value == by_function
    assert (roll, True) in exact._SUBROLLS  # remembered by value beyond its enumeration
    for seed in range(3):
        rolled, called = SeededDice(seed), SeededDice(seed)
        assert roll(rolled) == battle_damage(wound, _systems(), called, who="basestar")
        assert rolled.rolls == called.rolls


def test_R003_7_strikes_without_words_are_equal_by_their_dice():
    quiet = CASES[0]
    other = replace(quiet, who="apollo", against="heavy raider", number=2)
    renamed = replace(quiet, pool=skill_pool(("agility", StepDie(5)), ("guns", StepDie(4))))
    for same in (other, renamed):
        assert same == quiet and hash(same) == hash(quiet)
        assert enumerate_outcomes(same).pairs == enumerate_outcomes(quiet).pairs
    assert replace(other, words=True) != replace(quiet, words=True)  # labels in the words
    assert replace(quiet, pool=skill_pool(("agility", StepDie(5)))) != quiet  # other dice
    assert replace(quiet, defense=FIXED) != quiet
    assert replace(quiet, damage=parse_damage("d6")) != quiet
