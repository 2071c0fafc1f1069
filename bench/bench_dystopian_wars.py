"""Exact odds of Dystopian Wars' heaviest single attack, against a naive baseline.

Run: .venv/bin/pytest bench/bench_dystopian_wars.py --benchmark-enable -p no:cacheprovider

The heaviest single roll of seed 002 is a Linked Fire broadside of a squadron of three
battleships: 10 + 5 + 5 = 20 exploding Attack Dice against a Massive model with two
Shield dice (a Shield Generator and its own Guardian Generator, R002.49), then the
Critical Hit roll — `DystopianWars.attack_odds`, i.e. `resolving.resolve_declared`
enumerated with the pool as a merged fold. Budget: 1 s.

Baseline: the same roll enumerated naively (every die face a branch, folds played roll
by roll, nothing merged: the plain decision tree). That tree is astronomically large for
20 exploding dice, so the ratio is measured on a 3-die roll, naive against merged.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from conftest import FIGURES, RATIOS, naive_odds, record

from tactical.dice import enumerate_outcomes
from tactical.model import (
    Board,
    FrozenMap,
    GameState,
    MovementClass,
    Pose,
    RectBase,
    SizeClass,
    Unit,
)
from tactical.rules import registry
from tactical.rules.dystopian_wars import chance
from tactical.rules.dystopian_wars.dicework import PoolRules

DW = registry.get("dystopian-wars")
BUDGET = 1.0


def _ship(unit_id: str, x: float, y: float, side: str, size: str, **stats: Any) -> Unit:
    return Unit(
        unit_id,
        unit_id,
        side,
        Pose(x, y),
        RectBase(1.5, 4.5),
        MovementClass.NAVAL,
        SizeClass(size),
        FrozenMap(stats),
    )


def battle(dice: int) -> tuple[GameState, Any]:
    """A squadron of three battleships linking a broadside at a shielded Massive model."""
    turrets = {
        "name": "Main turrets",
        "kind": "gunnery",
        "arc": "all-round",
        "attack_dice": f"{dice}-{dice}-{dice}-{dice}",
    }
    squadron = [
        _ship(f"bb{i}", 20 + 4 * i, 10, "A", "large", squadron="line", weapons=(turrets,))
        for i in range(3 if dice >= 10 else 1)
    ]
    target = _ship(
        "fortress",
        24,
        22,
        "B",
        "massive",
        generators="guardian",
        shield_generator=True,
        damage_rating=9,
        critical_rating=14,
        hull_points=12,
    )
    state = GameState("dystopian-wars", Board(72, 48), units=(*squadron, target))
    linked = [u.id for u in squadron[1:]]
    attack = DW.declare_attack(
        state, "bb0", "Main turrets", "fortress", {"linked": linked} if linked else {}
    )
    return state, attack


def _best_of(fn: Callable[[], Any], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def test_heaviest_attack_exact_odds(benchmark):
    state, attack = battle(10)
    assert sum(entry[2] for entry in attack.params["pool"]) == 20
    report = benchmark(DW.attack_odds, state, attack)
    assert report.section("result").distribution.total == 1
    record("dystopian-wars 20-AD attack odds", benchmark, BUDGET)
    stats = getattr(benchmark, "stats", None)
    if stats is not None:
        assert stats.stats.median <= BUDGET


def test_naive_baseline_small_attack(benchmark):
    """The roll of one attack (`chance.attack_roll`, what `resolve_declared` runs under
    `dice.chance`): 3 exploding AD against DR 3 / CR 5, the plain tree against the merged
    enumeration. Both give the same exact distribution."""
    defence = chance.Defence(
        dice=3,
        pool=PoolRules(),
        shield_dice=0,
        guardian_dice=0,
        save_on=4,
        damage_rating=3,
        critical_rating=5,
        critical_damage=1,
        hull_left=6,
        wing_size=0,
        kill_hits=2,
    )

    def roll(dice):
        return chance.attack_roll(defence, dice, who="a", target="t").summary

    naive_seconds = _best_of(lambda: naive_odds(roll), repeat=1)
    assert naive_odds(roll) == enumerate_outcomes(roll).as_dict()
    exact = benchmark(enumerate_outcomes, roll)
    assert exact.total == 1
    record("dystopian-wars 3-AD roll, merged", benchmark)
    if getattr(benchmark, "stats", None) is not None:
        FIGURES["dystopian-wars 3-AD roll, naive tree"] = naive_seconds
        RATIOS.append(
            (
                "dystopian-wars naive / merged (3 AD)",
                "dystopian-wars 3-AD roll, naive tree",
                "dystopian-wars 3-AD roll, merged",
                5.0,
            )
        )
