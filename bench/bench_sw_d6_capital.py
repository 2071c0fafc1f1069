"""sw-d6-capital exact-odds budgets, as ratios against baselines measured in the same run.

Run: .venv/bin/pytest bench/bench_sw_d6_capital.py --benchmark-enable -p no:cacheprovider

- The heaviest single attack: Gunnery 11D against Full Evasion, then a 14D Damage roll
  against a 12D Resistance roll at Point Blank, the effect tables and their re-rolls.
  Baseline: the same resolver with Damage and Resistance rolled as two folds keyed by
  their own totals (the joint distribution of both, ~70 x 60 states, every pair then
  carried through the effect rolls) instead of one fold keyed by the margin. The odds
  must be identical. Budget 0.5 s.
- The Initiative contest of the scenario's six captains (draws re-rolled until resolved).
  Baseline: enumerating one round as a single joint replay (every captain's nested roll
  recomputed per state), which is only feasible for fewer captains: both are timed on
  four captains for the ratio. Budget 5 s for six.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from tactical.dice import enumerate_outcomes
from tactical.io import load_map
from tactical.model import Board, CircleBase, FrozenMap, GameState, MovementClass, Pose, Unit
from tactical.rules import registry
from tactical.rules.sw_d6_capital import damage, initiative, ledger, sequence
from tactical.rules.sw_d6_capital.codes import roll_code

SW = registry.get("sw-d6-capital")
MAP = Path(__file__).resolve().parents[1] / "maps" / "sw-d6-capital.toml"


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
    assert fast <= budget, f"{label}: {fast * 1e3:.1f} ms > budget {budget * 1e3:.0f} ms"


def _ship(unit_id: str, x: float, y: float, side: str, heading: float, **stats: Any) -> Unit:
    return Unit(
        unit_id,
        unit_id,
        side,
        Pose(x, y, heading),
        CircleBase(1.0),
        MovementClass.SPACE,
        stats=FrozenMap(stats),
    )


def _heavy_attack():
    gun = {
        "name": "Heavy Turbolasers",
        "fire_control": "5D",
        "damage": "8D",
        "battery": "6D",
        "ranges": "3-15/35/75",
    }
    state = SW.setup(
        GameState(
            "sw-d6-capital",
            Board(72, 48),
            units=(
                _ship("a", 30, 10, "A", 0, scale="capital", weapons=[gun]),
                _ship(
                    "t",
                    30,
                    12.5,
                    "B",
                    180,
                    scale="capital",
                    hull="8D",
                    shields="4D",
                    shield_arcs={"front": "4D"},
                    maneuverability="2D",
                    cso="5D",
                ),
            ),
        )
    )
    target = ledger.condition(state, "t")
    state = ledger.with_condition(state, "t", replace(target, order="full-evasion"))
    attack = SW.declare_attack(state, "a", "front-heavy-turbolasers", "t", {"battery_damage": "6D"})
    return state, attack


def _opposed_by_totals(first, second, dice, *, who=("", ""), what=("", "")):
    """The baseline: Damage and Resistance as two folds keyed by their own totals."""
    return (
        roll_code(first, dice, who=who[0], what=what[0]),
        roll_code(second, dice, who=who[1], what=what[1]),
    )


def test_heaviest_attack_odds(benchmark, monkeypatch):
    state, attack = _heavy_attack()
    assert attack.params["batch"] == 1
    exact = SW.attack_odds(state, attack)
    with monkeypatch.context() as patch:
        patch.setattr(damage, "roll_opposed", _opposed_by_totals)
        naive = _best_of(lambda: SW.attack_odds(state, attack), repeat=1)
        baseline = SW.attack_odds(state, attack)
    assert baseline.as_dict() == exact.as_dict()
    report = benchmark(SW.attack_odds, state, attack)
    assert report.facts["damage"] == "14D" and report.facts["resistance"] == "12D"
    assert report.section("result").distribution.total == 1
    _record(benchmark, naive, 0.5, "11D gunnery, 14D damage vs 12D resistance, effects")


def test_initiative_contest_of_six_captains(benchmark):
    entries = sequence.contest_entries(SW.setup(load_map(MAP)))
    assert len(entries) == 6
    four = entries[:4]

    def brute() -> Any:
        return enumerate_outcomes(
            lambda dice: initiative.contest_round(four, dice), key=initiative._round_key
        )

    naive_four = _best_of(brute, repeat=1)
    exact_four = _best_of(lambda: initiative.round_weights(four))
    assert {initiative._round_key(r): p for r, p in brute()} == initiative.round_odds(four)

    def contest() -> Any:
        initiative.total_odds.cache_clear()
        return initiative.contest_odds(entries)

    odds = benchmark(contest)
    assert odds.total == 1
    _record(
        benchmark,
        naive_four,
        5.0,
        "6-captain contest; naive_s and ratio are one round of 4 captains (brute / composed)",
        ratio=naive_four / exact_four,
    )
