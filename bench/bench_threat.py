"""Threat budgets: the threat heatmap of the 200-unit map (its whole 8' x 4'
table, larger than the issue's 6' x 4', on the 0.5" grid) and the reach of one unit, each
against a naive per-point loop measured in the same run.

Run: .venv/bin/python -m pytest bench/bench_threat.py --benchmark-enable -p no:cacheprovider
Budgets: heatmap <= 150 ms (the odds cache warm, as the play screen keeps it; the cold
first map is printed too); reach of one unit <= 50 ms (candidate moves cached per turning
rules and base, as after the unit's first reach).
"""

from __future__ import annotations

import itertools
import math
import time

import numpy as np
import pytest
import shapely
from conftest import RATIOS, quick, record

from tactical.geometry.arcs import in_arc
from tactical.geometry.los import TerrainIndex, line_of_sight
from tactical.geometry.measure import measure
from tactical.geometry.movement import parse_path, plan_path
from tactical.io import builtin_map, load_map
from tactical.model import GameState
from tactical.rules import registry
from tactical.threat.damage import DamageCache
from tactical.threat.heatmap import Grid, threat_map
from tactical.threat.reach import candidate_moves, reach

HEATMAP_BUDGET = 0.150
REACH_BUDGET = 0.050
SIDE = "B"
NAIVE_POINTS = quick(400, 20)  # the naive loop is timed on this many grid points, then scaled up
MOVERS = quick(20, 2)

RATIOS.append(("heatmap speed-up over a per-point loop", "heatmap: naive", "heatmap: numpy", 10))
RATIOS.append(("reach speed-up over planning each path", "reach: naive", "reach: numpy", 2))


def cpu_median(run, rounds: int = 5) -> float:
    """Median processor time of `run` (this process only: on a machine shared with other
    work the wall-clock figures above carry their waits too)."""
    times = []
    for _ in range(rounds):
        started = time.process_time()
        run()
        times.append(time.process_time() - started)
    return float(np.median(times))


@pytest.fixture(scope="module")
def stress() -> GameState:
    return load_map(builtin_map("stress-200"))


def test_heatmap(benchmark, stress):
    cache = DamageCache()
    started = time.perf_counter()
    threat_map(stress, SIDE, cache=cache)
    print(f"\nheatmap, cold (every declaration judged once): {time.perf_counter() - started:.3f} s")
    benchmark(lambda: threat_map(stress, SIDE, cache=cache))
    record("heatmap: numpy", benchmark, HEATMAP_BUDGET)
    cpu = cpu_median(lambda: threat_map(stress, SIDE, cache=cache))
    print(f"heatmap, processor time (median of 5): {cpu:.3f} s")


def naive_heatmap(state: GameState, points: int) -> float:
    """Baseline: for each grid point, every enemy weapon one at a time with the scalar
    geometry (measure, in_arc, line_of_sight); returns seconds per full grid."""
    system = registry.get(state.rules)
    options = system.options(state.options)
    target = next(u for u in state.units if u.side == SIDE)
    index = TerrainIndex.build([t.id for t in state.terrain], [t.geometry for t in state.terrain])
    grid = Grid.over(state.board.width, state.board.height)
    xs, ys = grid.points()
    chosen = np.linspace(0, len(xs) - 1, points).astype(int)
    enemies = [
        (u, [system.weapon_reach(u, w, options) for w in system.weapons(u, options)])
        for u in state.units
        if u.side != SIDE
    ]
    conventions = system.conventions
    started = time.perf_counter()
    for k in chosen:
        placed = target.moved_to(target.pose.__class__(float(xs[k]), float(ys[k]), target.heading))
        count = 0
        for enemy, reaches in enemies:
            mask = np.array([system.blocks_los(p, enemy, placed) for p in state.terrain])
            clear = line_of_sight(index, (enemy.x, enemy.y), (placed.x, placed.y), mask).clear
            for weapon in reaches:
                distance = measure(
                    enemy.pose,
                    enemy.base,
                    placed.pose,
                    placed.base,
                    weapon.measured_from,
                    conventions.distance_to,
                ).distance
                if not any(b.low <= distance <= b.high for b in weapon.bands):
                    continue
                if clear and any(
                    in_arc(
                        enemy.pose, enemy.base, arc, placed.pose, placed.base, conventions.arc_test
                    )
                    for arc in weapon.arcs
                ):
                    count += 1
    return (time.perf_counter() - started) * len(xs) / points


def test_heatmap_naive(benchmark, stress):
    benchmark.pedantic(lambda: naive_heatmap(stress, NAIVE_POINTS), rounds=1, iterations=1)
    # the benchmark timed NAIVE_POINTS points: scale its figure to the whole grid
    stats = getattr(benchmark, "stats", None)
    if stats is not None:
        cells = math.prod(Grid.over(stress.board.width, stress.board.height).shape)
        for key in ("median", "mean", "min", "max"):
            setattr(stats.stats, key, getattr(stats.stats, key) * cells / NAIVE_POINTS)
    record("heatmap: naive", benchmark)


def test_reach(benchmark, stress):
    movers = itertools.cycle([u.id for u in stress.units[:MOVERS]])
    for unit in stress.units[:MOVERS]:
        reach(stress, unit.id)  # candidates cached per turning rules and base
    benchmark(lambda: reach(stress, next(movers)))
    record("reach: numpy", benchmark, REACH_BUDGET)
    cpu = cpu_median(lambda: reach(stress, next(movers)), 20)
    print(f"reach, processor time (median of 20): {cpu:.4f} s")
    started = time.perf_counter()
    candidate_moves.cache_clear()
    reach(stress, stress.units[0].id)
    print(f"\nreach, cold (candidate moves built): {time.perf_counter() - started:.3f} s")


def naive_reach(state: GameState, unit_id: str) -> int:
    """Baseline: plan every candidate path with `plan_path`, then test its end footprint
    and its centre's way against every obstacle one at a time."""
    system = registry.get(state.rules)
    unit = state.unit(unit_id)
    rules = system.turning_rules(unit, system.options(state.options))
    family = candidate_moves(rules, unit.base)
    obstacles = [t.geometry for t in state.terrain if system.terrain_collides(unit, t)]
    obstacles += [u.footprint for u in state.units if u.id != unit.id]
    board = shapely.box(*state.board.bounds)
    kept = 0
    for path in family.paths:
        steps = () if path == "stay" else parse_path(path)
        plan = plan_path(unit.pose, unit.base, steps, rules)
        end = unit.moved_to(plan.end).footprint
        points = [(unit.x, unit.y)] + [(s.end.x, s.end.y) for s in plan.steps]
        way = shapely.LineString(points if len(points) > 1 else points * 2)
        if board.contains(end) and not any(
            end.intersects(o) or way.intersects(o) for o in obstacles
        ):
            kept += 1
    return kept


def test_reach_naive(benchmark, stress):
    movers = itertools.cycle([u.id for u in stress.units[:MOVERS]])
    benchmark.pedantic(lambda: naive_reach(stress, next(movers)), rounds=MOVERS)
    record("reach: naive", benchmark)
