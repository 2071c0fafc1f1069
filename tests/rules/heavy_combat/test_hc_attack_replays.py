"""Heavy Combat: an attack's replays counted before it is enumerated (`attack_replays`).

The count is the number of runs `enumerate_outcomes` makes of `resolve_attack` (one a
node of its tree of rolls: R001.24 the shot, R001.25 each ship's internal hits a fold),
and it refuses (TooManyOutcomes) exactly where enumerating would: a computer player
asks first, and does not replay thousands of rolls of an attack it will only sample."""

from __future__ import annotations

import pytest
from hc_builders import HC, duel, with_ship

from tactical.dice import TooManyOutcomes, enumerate_outcomes
from tactical.rules.heavy_combat.attacks import attack_replays

BIG = 10**6


def worn(distance: float, a: int, b: int):
    """The duel at `distance` with every shield of "a" and "b" worn by `a` and `b` points."""
    state = duel(distance=distance)
    return with_ship(with_ship(state, "a", shield_damage=(a,) * 6), "b", shield_damage=(b,) * 6)


def runs(state, attack, max_nodes: int = BIG) -> int:
    """The runs enumerating the attack's resolver makes (TooManyOutcomes past `max_nodes`)."""
    made = [0]

    def fired(dice):
        made[0] += 1
        return HC.resolve_attack(state, attack, dice).state

    enumerate_outcomes(fired, max_nodes=max_nodes)
    return made[0]


@pytest.mark.parametrize(
    ("distance", "a", "b", "weapon", "params", "expected"),
    [
        (30.0, 0, 0, "photon-1", {}, 31),  # range 3: a to-hit roll, then the damage die
        (18.0, 0, 20, "photon-1", {}, 310),  # range 2: hits, overflow into the internals
        (5.0, 0, 27, "phasers", {"power": 3}, 1126),  # no shield left: a bigger fold
        (5.0, 24, 0, "photon-1", {}, 34),  # range 1: the firer's backlash alone gets through
        (5.0, 24, 12, "photon-1", {}, 1245),  # and under each of the target's, its own fold
    ],
)
def test_R001_24_R001_25_the_count_is_the_enumerations_runs(
    distance, a, b, weapon, params, expected
):
    state = worn(distance, a, b)
    attack = HC.declare_attack(state, "a", weapon, "b", params)
    assert attack_replays(state, attack, BIG) == expected
    assert runs(state, attack) == expected


def refused(count) -> bool:
    try:
        count()
    except TooManyOutcomes:
        return True
    return False


@pytest.mark.parametrize(
    ("distance", "a", "b", "weapon", "params", "first"),
    [
        (30.0, 0, 0, "photon-1", {}, 31),  # refused below its runs
        (5.0, 0, 20, "phasers", {"power": 3}, 49),  # 22 runs: its fold's own replays first
    ],
)
def test_R001_25_refused_exactly_where_the_enumeration_is(distance, a, b, weapon, params, first):
    state = worn(distance, a, b)
    attack = HC.declare_attack(state, "a", weapon, "b", params)
    counted = [refused(lambda m=m: attack_replays(state, attack, m)) for m in range(1, 64)]
    enumerated = [refused(lambda m=m: runs(state, attack, m)) for m in range(1, 64)]
    assert counted == enumerated
    assert counted.index(False) + 1 == first


def test_R001_17_an_attack_of_half_a_million_runs_is_refused_without_them():
    """A photon at range 1 on a ship without shields, its firer's shields worn out too
    (471,541 runs, over a minute to enumerate): refused at the computer players' bound."""
    state = worn(5.0, 27, 20)
    attack = HC.declare_attack(state, "a", "photon-1", "b", {})
    with pytest.raises(TooManyOutcomes):
        attack_replays(state, attack, 4_000)


def test_the_rule_system_counts_its_attacks_replays_for_the_players():
    """The hook is bound on the system the players ask (not the protocol's default, which
    counts nothing): the players' count is the attacks module's."""
    from tactical.rules import registry
    from tactical.rules.protocol import RuleSystem

    system = registry.get("heavy-combat")
    assert type(system).attack_replays is not RuleSystem.attack_replays
    assert system.attack_replays is attack_replays
