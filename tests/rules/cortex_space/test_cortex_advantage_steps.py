"""R003.10-R003.14: the opposed Advantage rolls read face by face (`DieStep`) give what
replaying the steps as `roll_pool` rolls them gives: the same outcomes, events, weights and
refusals, and the same rolls."""

from __future__ import annotations

from cortex_builders import RAIDER, VIPER, table, unit, with_stats

from tactical.dice import SeededDice, TooManyOutcomes, enumerate_outcomes
from tactical.rules.cortex_space import manoeuvres

DUEL = table(
    unit("viper", 10, 10, "A", **with_stats(VIPER, dogfighting="d6")),
    unit("raider", 18, 10, "B", **RAIDER),
)


def _resolve(dice):
    return manoeuvres.resolve_advantage(DUEL, "viper", "raider", dice)


def _read(max_nodes=100_000):
    def outcome(dice):
        resolution = _resolve(dice)
        return resolution.summary, resolution.events

    try:
        return enumerate_outcomes(outcome, max_nodes=max_nodes).pairs
    except TooManyOutcomes:
        return "refused"


def _seeded():
    found = []
    for seed in range(3):
        dice = SeededDice(seed)
        found.append((_resolve(dice).events, dice.rolls))
    return found


def test_R003_10_advantage_read_face_by_face_as_replayed(monkeypatch):
    read, seeded = [_read(), _read(48), _read(400)], _seeded()
    monkeypatch.setattr(manoeuvres, "pool_composite", lambda pool: None)  # by roll_pool
    assert [_read(), _read(48), _read(400)] == read
    assert _seeded() == seeded
    assert read[0] != "refused" and read[1] == "refused"
    assert sum(p for _, p in read[0]) == 1
