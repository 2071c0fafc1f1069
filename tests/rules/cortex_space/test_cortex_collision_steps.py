"""R003.15-R003.20: a collision's pilot roll read face by face (`DieStep`) and the other
party's missing roll (`ChanceStep` of none) give what replaying the pilot's roll
(`roll_pool`) step by step gives: the same outcomes, events, weights and refusals, and the
same rolls."""

from __future__ import annotations

import pytest
from cortex_builders import RAIDER, VIPER, table, unit, with_stats

from tactical.dice import SeededDice, TooManyOutcomes, enumerate_outcomes
from tactical.dice.core import ChanceStep
from tactical.rules.cortex_space import collisions


def _contact():
    return table(
        unit("v", 10, 10, "A", heading=0, **with_stats(VIPER, speed=6)),
        unit("w", 10, 11.3, "B", heading=90, **with_stats(RAIDER, speed=6)),
    )


def _replayed(kind):
    """`kind`'s step as a plain function: the enumerator replays it once per state."""

    def made(*args, **named):
        step = kind(*args, **named)
        return lambda state, dice: step(state, dice)

    return made


def _read(resolve, max_nodes=100_000):
    def outcome(dice):
        resolution = resolve(dice)
        return resolution.summary, resolution.events

    try:
        odds = enumerate_outcomes(outcome, max_nodes=max_nodes)
    except TooManyOutcomes:
        return "refused"
    return odds.pairs


CONTACT = _contact()
CASES = {
    "avoid, the other tries": lambda dice: collisions.resolve_avoid(CONTACT, "v", "w", dice),
    "avoid alone": lambda dice: collisions.resolve_avoid(
        CONTACT, "v", "w", dice, other_rolls=False
    ),
    "ram": lambda dice: collisions.resolve_ram(CONTACT, "v", "w", dice, target_rolls=False),
}


@pytest.mark.parametrize("resolve", CASES.values(), ids=CASES.keys())
def test_R003_18_collision_read_face_by_face_as_replayed(resolve, monkeypatch):
    read = [_read(resolve), _read(resolve, 48), _read(resolve, 20)]
    seeded = []
    for seed in range(3):
        dice = SeededDice(seed)
        seeded.append((resolve(dice).events, dice.rolls))
    monkeypatch.setattr(collisions, "pool_composite", lambda pool: None)  # rolled by roll_pool
    monkeypatch.setattr(collisions, "ChanceStep", _replayed(ChanceStep))
    assert [_read(resolve), _read(resolve, 48), _read(resolve, 20)] == read
    again = []
    for seed in range(3):
        dice = SeededDice(seed)
        again.append((resolve(dice).events, dice.rolls))
    assert again == seeded
    assert read[0] != "refused" and sum(p for _, p in read[0]) == 1
