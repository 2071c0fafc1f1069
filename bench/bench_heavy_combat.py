"""Heavy Combat exact-odds budgets, as ratios against a naive baseline in the same run.

Run: .venv/bin/pytest bench/bench_heavy_combat.py --benchmark-enable -p no:cacheprovider

The heaviest single roll of the system is a photon torpedo at range 1 into a ship with
no shields (its cloak engaging, R001.29): 3-18 points straight to the internals, each a
chart roll with rerolls of destroyed systems (R001.34), and the catastrophic roll with up
to 6 more hits once 3/4 of the boxes are gone (R001.35). The naive baseline replays the
same resolver over the plain decision tree (every die face a branch, folds played roll
by roll, nothing merged); it is only feasible for a small case (phasers putting 4 points
into the internals), which both are timed on; the heavy case is timed exactly only.

Budgets: the 4-point case <= 50 ms; the heaviest single attack <= 10 s; the odds of a
whole Result step of a busy turn (both ships firing photons, disruptors and phasers
into thin shields) <= 1 s.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from conftest import naive_odds

from tactical.dice import ScriptedDice
from tactical.model import Board, FrozenMap, GameState, MovementClass, Pose, RectBase, Unit
from tactical.rules import registry
from tactical.rules.base import Action
from tactical.rules.heavy_combat.attacks import resolve_attack
from tactical.rules.heavy_combat.duel import from_rule_state, to_rule_state

HC = registry.get("heavy-combat")


def _ship(ship_id: str, x: float, heading: float, side: str, **stats: Any) -> Unit:
    return Unit(
        ship_id,
        ship_id,
        side,
        Pose(x, 24.0, heading),
        RectBase(1.5, 3.0),
        MovementClass.SPACE,
        stats=FrozenMap(stats),
    )


def _duel(distance: float, a: dict | None = None, b: dict | None = None) -> GameState:
    state = GameState(
        "heavy-combat",
        Board(72, 48),
        units=(
            _ship("a", 20.0, 90.0, "A", **(a or {})),
            _ship("b", 20.0 + distance, 270.0, "B", **(b or {})),
        ),
    )
    return HC.setup(state)


def _shields_down(state: GameState, ship_id: str = "b") -> GameState:
    duel = from_rule_state(state)
    return to_rule_state(
        state, duel.with_ship(ship_id, replace(duel.ship(ship_id), cloak="engaging"))
    )


def _best_of(fn: Callable[[], Any], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def _record(benchmark, naive: float | None, budget: float, label: str, ratio=None) -> None:
    stats = getattr(benchmark, "stats", None)
    if not stats:
        return
    fast = stats.stats.min
    info = {"exact_s": fast, "what": label}
    if naive is not None:
        info |= {"naive_s": naive, "ratio": naive / fast if ratio is None else ratio}
    benchmark.extra_info.update(info)
    assert fast <= budget, f"{label}: {fast:.3f} s > budget {budget:.3f} s"


def test_four_internal_hits_exact_vs_naive(benchmark):
    state = _shields_down(_duel(18.0))
    attack = HC.declare_attack(state, "a", "phasers", "b", {"power": 2})
    naive = _best_of(
        lambda: naive_odds(lambda dice: resolve_attack(state, attack, dice).summary), repeat=1
    )
    report = benchmark(HC.attack_odds, state, attack)
    exact = report.section("internals").distribution
    assert exact.as_dict() == {4: 1}
    assert sum(report.section("systems").distribution.as_dict().values()) == 1
    _record(benchmark, naive, 0.050, "phasers 2 x2 into a ship without shields: 4 chart hits")


def test_heaviest_single_attack(benchmark):
    """A photon at range 1 into a ship without shields: up to 18 + 6 internal hits."""
    state = _shields_down(_duel(6.0))
    attack = HC.declare_attack(state, "a", "photon-1", "b")
    small = _shields_down(_duel(18.0))
    small_attack = HC.declare_attack(small, "a", "phasers", "b", {"power": 2})
    naive_small = _best_of(
        lambda: naive_odds(lambda dice: resolve_attack(small, small_attack, dice).summary),
        repeat=1,
    )
    exact_small = _best_of(lambda: HC.attack_odds(small, small_attack))
    report = benchmark.pedantic(HC.attack_odds, (state, attack), rounds=1, iterations=1)
    internals = report.section("internals").distribution
    assert internals.total == 1 and max(internals.outcomes) == 23
    assert report.section("catastrophic").distribution.probability(True) > 0
    _record(
        benchmark,
        naive_small,
        10.0,
        "photon at range 1, no shields; naive_s and ratio are for the 4-hit case",
        ratio=naive_small / exact_small,
    )


def test_result_step_of_a_busy_turn(benchmark):
    klingon = {"race": "klingon", "disruptors": True, "shields": {"fore": 6}}
    state = _duel(18.0, {"shields": {"fore": 6}}, klingon)
    for ship_id, dice in (("a", [6, 6]), ("b", [6, 6])):
        state = HC.apply(state, Action("roll_power", ship_id), ScriptedDice(dice)).state
    declarations = [
        ("a", {"weapon": "photon-1", "target": "b"}),
        ("a", {"weapon": "phasers", "target": "b", "power": 4}),
        ("b", {"weapon": "photon-1", "target": "a"}),
        ("b", {"weapon": "disruptors", "target": "a"}),
        ("b", {"weapon": "phasers", "target": "a", "power": 4}),
    ]
    for ship_id, params in declarations:
        state = HC.apply(state, Action("fire", ship_id, FrozenMap(params)), ScriptedDice([])).state
    resolve = Action("resolve", "A")
    report = benchmark.pedantic(HC.action_odds, (state, resolve), rounds=1, iterations=1)
    assert report.section("a internals").distribution.total == 1
    assert report.section("b internals").distribution.total == 1
    _record(benchmark, None, 1.0, "Result: 5 weapons, both ships into 6-point shields")
