"""Fair-table budgets: scoring one 6' x 4' layout at 2" (every observer pair's line of sight
at once) against a per-observer loop measured in the same run, and `terrain --fair
--tries 50`.

Run: .venv/bin/python -m pytest bench/bench_fairness.py --benchmark-enable -p no:cacheprovider -s
Budgets: one score <= 1 s of processor time; --fair --tries 50 <= 60 s.
"""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np
import pytest
import shapely
from conftest import is_quick, quick, record

from tactical.cli import main
from tactical.geometry.los import TerrainIndex, lines_of_sight
from tactical.io import builtin_map, load_map
from tactical.model import Board
from tactical.rules import registry
from tactical.session.terrain_setup import seeded_setup
from tactical.threat.fairness import GRID_STEP, observer_grid, score_layout, visibility_matrix

SCORE_BUDGET = 1.0
FAIR_BUDGET = 60.0
ROUNDS = quick(7, 1)
TRIES = quick(50, 3)  # layouts `terrain --fair` draws

MIN_SPEED_UP = 2.0  # every pair at once against the per-observer loop, same run


def cpu_times(run, rounds: int = ROUNDS) -> np.ndarray:
    """Processor time of `rounds` runs (this process only: the machine is shared)."""
    times = []
    for _ in range(rounds):
        started = time.process_time()
        run()
        times.append(time.process_time() - started)
    return np.array(times)


def said(name: str, times: np.ndarray) -> str:
    return (
        f"{name}: median {np.median(times):.3f} s CPU "
        f"(min {times.min():.3f}, max {times.max():.3f}, {len(times)} runs)"
    )


@pytest.fixture(scope="module")
def table():
    """The Dystopian Wars fleets on a 6' x 4' table with a crowded R002.9 layout."""
    state = load_map(builtin_map("dystopian-wars"))
    state = replace(state, board=Board(72, 48))
    seeds = range(100)
    best = max(seeds, key=lambda s: len(seeded_setup(state.board, s).terrain))
    return state.with_terrain(seeded_setup(state.board, best).terrain)


def _observers(state):
    system = registry.get(state.rules)
    grid = observer_grid(state, GRID_STEP)
    x, y = grid.points()
    mask = np.array([system.blocks_los(p, None, None) for p in state.terrain], dtype=bool)
    shapes = shapely.union_all([p.geometry for p, m in zip(state.terrain, mask, strict=True) if m])
    keep = ~shapely.contains_xy(shapes, x, y)
    index = TerrainIndex.build([t.id for t in state.terrain], [t.geometry for t in state.terrain])
    return index, np.column_stack((x[keep], y[keep])), mask


def per_observer_loop(index, points, mask) -> np.ndarray:
    """Baseline: the same lines, one observer at a time (a Python loop over observers)."""
    n = len(points)
    seen = np.ones((n, n), dtype=bool)
    for i in range(n - 1):
        ends = points[i + 1 :]
        starts = np.repeat(points[i : i + 1], len(ends), axis=0)
        clear = lines_of_sight(index, starts, ends, mask)
        seen[i, i + 1 :] = clear
        seen[i + 1 :, i] = clear
    return seen


def test_visibility_pairs_against_a_per_observer_loop(table):
    index, points, mask = _observers(table)
    fast = visibility_matrix(index, points, mask)
    assert np.array_equal(fast, per_observer_loop(index, points, mask))
    loop = cpu_times(lambda: per_observer_loop(index, points, mask), quick(3, 1))
    pairs = cpu_times(lambda: visibility_matrix(index, points, mask))
    print(f"\n{len(table.terrain)} pieces, {len(points)} observers")
    print(said("per-observer loop", loop))
    print(said("every pair at once", pairs))
    ratio = np.median(loop) / np.median(pairs)
    print(f"speed-up {ratio:.1f}x (same run)")
    assert is_quick() or ratio >= MIN_SPEED_UP


def test_one_score_within_budget(benchmark, table):
    times = cpu_times(lambda: score_layout(table))
    print("\n" + said("one 6' x 4' layout scored at 2\"", times))
    assert is_quick() or np.median(times) <= SCORE_BUDGET
    benchmark(lambda: score_layout(table))
    record("fairness: one score", benchmark, SCORE_BUDGET)


def test_fair_50_tries_within_budget(capsys):
    started = time.process_time()
    wall = time.perf_counter()
    assert main(["terrain", "--fair", "--tries", str(TRIES), "--seed", "1"]) == 0
    cpu, wall = time.process_time() - started, time.perf_counter() - wall
    capsys.readouterr()
    with capsys.disabled():
        print(f"\nterrain --fair --tries {TRIES}: {cpu:.1f} s CPU, {wall:.1f} s wall")
    assert is_quick() or cpu <= FAIR_BUDGET
