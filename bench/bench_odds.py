"""Exact-odds budgets, as ratios against naive baselines measured in the same run.

Run: .venv/bin/pytest bench/bench_odds.py --benchmark-enable -p no:cacheprovider

Budgets: one laser attack <= 1 ms; a 9-missile salvo with CIWS <= 20 ms;
every attacker-target pair of a 200-unit map <= 1 s.

Baselines: the laser and small-salvo odds by naive replay (every die face a
branch, folds played roll by roll, nothing merged: the plain decision tree),
and the 200-unit matrix as one full `attack_odds` per pair (timed on one
attacker's row and scaled to all pairs).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from conftest import naive_odds

from tactical.model import Board, CircleBase, FrozenMap, GameState, MovementClass, Pose, Unit
from tactical.rules import registry
from tactical.rules.battlefleet_mars.combat import all_pair_odds, resolve_declared

BFM = registry.get("battlefleet-mars")


def _unit(unit_id: str, x: float, y: float, side: str, **stats: Any) -> Unit:
    return Unit(
        unit_id,
        unit_id,
        side,
        Pose(x, y),
        CircleBase(0.5),
        MovementClass.SPACE,
        stats=FrozenMap(stats),
    )


def _best_of(fn: Callable[[], Any], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def _record(
    benchmark, naive_seconds: float, budget: float, label: str, ratio: float | None = None
) -> None:
    stats = getattr(benchmark, "stats", None)
    if not stats:
        return  # --benchmark-disable: the function ran once, nothing to compare
    fast = stats.stats.min
    benchmark.extra_info.update(
        {
            "naive_s": naive_seconds,
            "exact_s": fast,
            "ratio": naive_seconds / fast if ratio is None else ratio,
            "what": label,
        }
    )
    assert fast <= budget, f"{label}: {fast * 1e3:.2f} ms > budget {budget * 1e3:.0f} ms"


def test_laser_attack_odds(benchmark):
    state = GameState(
        "battlefleet-mars",
        Board(48, 48),
        units=(
            _unit("a", 10, 10, "A", type="base"),
            _unit("t", 13, 10, "B", type="ship", laser_strength=3),
        ),
    )
    attack = BFM.declare_attack(state, "a", "laser", "t")
    naive = _best_of(lambda: naive_odds(lambda d: resolve_declared(state, attack, d).summary))
    report = benchmark(BFM.attack_odds, state, attack)
    assert report.section("result").distribution.total == 1
    _record(benchmark, naive, 0.001, "one laser attack")


def test_nine_missile_salvo_with_ciws_odds(benchmark):
    def salvo_state(count: int) -> GameState:
        return GameState(
            "battlefleet-mars",
            Board(48, 48),
            units=(
                _unit("a", 10, 10, "A", type="missile", count=count),
                _unit("t", 13, 10, "B", type="base"),
            ),
        )

    # naive: the full tree of a 2-missile salvo (10^2 CIWS leaves x damage); 9 is 10^9+ leaves
    small = salvo_state(2)
    small_attack = BFM.declare_attack(small, "a", "missiles", "t")
    naive_small = _best_of(
        lambda: naive_odds(lambda d: resolve_declared(small, small_attack, d).summary)
    )
    exact_small = _best_of(lambda: BFM.attack_odds(small, small_attack))
    state = salvo_state(9)
    attack = BFM.declare_attack(state, "a", "missiles", "t")
    report = benchmark(BFM.attack_odds, state, attack)
    assert report.section("ciws_destroyed").distribution.total == 1
    _record(
        benchmark,
        naive_small,
        0.020,
        "9-missile salvo; naive_s and ratio are for a 2-missile salvo (naive / exact)",
        ratio=naive_small / exact_small,
    )


def test_every_pair_on_a_200_unit_map(benchmark):
    rng = random.Random(200)
    kinds = [
        {"type": "base", "launch_capacity": 2, "missiles": 6},
        {"type": "catapult", "launch_capacity": 1, "missiles": 4},
        {"type": "transport"},
        {"type": "miner"},
        {"type": "ship", "laser_strength": 5},
        {"type": "fighter", "count": 3},
        {"type": "missile", "count": 6},
    ]
    units = tuple(
        _unit(f"u{i}", rng.uniform(1, 71), rng.uniform(1, 47), "AB"[i % 2], **kinds[i % len(kinds)])
        for i in range(200)
    )
    state = GameState("battlefleet-mars", Board(72, 48), units=units)

    def one_row() -> int:
        attacker = units[0]
        count = 0
        for weapon in BFM.weapons(attacker, {}):
            for target in units[1:]:
                try:
                    attack = BFM.declare_attack(state, attacker.id, weapon, target.id)
                except Exception:  # out of range: the naive loop skips it
                    continue
                BFM.attack_odds(state, attack)
                count += 1
        return count

    start = time.perf_counter()
    pairs_in_row = one_row()
    row_seconds = time.perf_counter() - start
    odds = benchmark(all_pair_odds, state)
    naive_estimate = row_seconds / max(pairs_in_row, 1) * len(odds)
    benchmark.extra_info["pairs"] = len(odds)
    _record(benchmark, naive_estimate, 1.0, "all pairs, 200 units (naive scaled from one row)")
