"""Movement budgets: a 5-step move with sweep and collision checks against 40
terrain pieces and 200 units (the play screen previews it every frame), overlap resolution
of 200 models, and the terrain setup of a 6' x 4' table; each against a naive baseline
measured in the same run.

Run: .venv/bin/pytest bench/bench_movement.py --benchmark-enable -p no:cacheprovider
Budgets: move preview <= 2 ms; overlap resolution <= 50 ms; terrain setup <= 50 ms.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import shapely
from conftest import RATIOS, record
from shapely.geometry import box

from tactical.dice import D6, SeededDice
from tactical.geometry.movement import parse_path, plan_path
from tactical.geometry.shapes import Pose, footprint
from tactical.io import builtin_map, load_map
from tactical.model import Board, GameState
from tactical.physics.overlap import overlapping_pairs, resolve_overlaps
from tactical.rules import registry
from tactical.session.movement import plan_move
from tactical.session.terrain_setup import MIN_GAP, load_library, seeded_setup

MOVE_BUDGET = 0.002
OVERLAP_BUDGET = 0.050
TERRAIN_BUDGET = 0.050
PATH = "F2 P45 F2 S45 F2"
MOVERS = 40  # the preview cycles through this many units of the stress map
SAMPLE_STEP = 0.05  # inches between the naive baseline's sampled poses

RATIOS.append(("move preview speed-up over naive sampling", "move: naive", "move: plan_move", 2))
RATIOS.append(("overlap speed-up over naive pushing", "overlap: naive", "overlap: pymunk", 1))
RATIOS.append(("terrain speed-up over naive placement", "terrain: naive", "terrain: setup", 1))


@pytest.fixture(scope="module")
def stress() -> GameState:
    return load_map(builtin_map("stress-200"))


# --------------------------------------------------------------------------- move preview


def naive_move(state: GameState, unit_id: str, path: str) -> tuple[str, int] | None:
    """Baseline: sample every step every 0.05" and test the footprint against every
    obstacle one at a time (no index, no sweep), stopping at the first hit."""
    system = registry.get(state.rules)
    unit = state.unit(unit_id)
    rules = system.turning_rules(unit, state.options)
    plan = plan_path(unit.pose, unit.base, parse_path(path), rules)
    obstacles = [t.geometry for t in state.terrain if system.terrain_collides(unit, t)]
    obstacles += [u.footprint for u in state.units if u.id != unit.id]
    start = footprint(unit.pose, unit.base)
    obstacles = [o for o in obstacles if not o.intersects(start)]
    for index, step in enumerate(plan.steps):
        samples = max(1, int(step.motion.travel(unit.base) / SAMPLE_STEP))
        for k in range(1, samples + 1):
            shape = footprint(step.motion.pose_at(k / samples), unit.base)
            for obstacle in obstacles:
                if shape.intersects(obstacle):
                    return str(index), k
    return None


def test_move_preview_plan_move(benchmark, stress):
    movers = itertools.cycle([u.id for u in stress.units[:MOVERS]])
    plan_move(stress, stress.units[0].id, PATH)  # index the table once, as the screen does
    benchmark(lambda: plan_move(stress, next(movers), PATH))
    record("move: plan_move", benchmark, MOVE_BUDGET)


def test_move_preview_naive(benchmark, stress):
    movers = itertools.cycle([u.id for u in stress.units[:MOVERS]])
    benchmark.pedantic(lambda: naive_move(stress, next(movers), PATH), rounds=MOVERS)
    record("move: naive", benchmark)


# --------------------------------------------------------------------------- overlaps


def crowded(state: GameState) -> GameState:
    """The stress map with ten ships dropped onto their neighbours."""
    units = list(state.units)
    for k in range(10):
        a, b = units[k * 7], units[k * 7 + 1]
        units[k * 7 + 1] = b.moved_to(Pose(a.x + 0.5, a.y + 0.3, b.heading))
    return GameState(
        state.rules, state.board, state.title, state.options, state.terrain, tuple(units)
    )


def naive_push(state: GameState, limit: int = 2000) -> list:
    """Baseline: check every pair with shapely and push overlapping pairs apart along the
    line between their centres by half the overlap each, until nothing overlaps."""
    units = list(state.units)
    for _ in range(limit):
        shapes = [u.footprint for u in units]
        moved = False
        for i, j in itertools.combinations(range(len(units)), 2):
            overlap = shapes[i].intersection(shapes[j]).area
            if overlap <= 1e-6:
                continue
            a, b = units[i], units[j]
            direction = np.array([b.x - a.x, b.y - a.y]) + 1e-9
            direction /= np.linalg.norm(direction)
            push = 0.05 * direction
            units[i] = a.moved_to(Pose(a.x - push[0], a.y - push[1], a.heading))
            units[j] = b.moved_to(Pose(b.x + push[0], b.y + push[1], b.heading))
            shapes[i], shapes[j] = units[i].footprint, units[j].footprint
            moved = True
        if not moved:
            break
    return units


def test_overlap_pymunk(benchmark, stress):
    state = crowded(stress)
    system = registry.get(state.rules)
    assert overlapping_pairs(state.units, system.los_level)
    result = benchmark(
        lambda: resolve_overlaps(
            state.units,
            state.terrain,
            collides=system.terrain_collides,
            layer_of=system.los_level,
            table=(state.board.width, state.board.height),
        )
    )
    record("overlap: pymunk", benchmark, OVERLAP_BUDGET)
    assert overlapping_pairs(result.units, system.los_level) == []


def test_overlap_naive(benchmark, stress):
    state = crowded(stress)
    benchmark.pedantic(lambda: naive_push(state), rounds=2)
    record("overlap: naive", benchmark)


# --------------------------------------------------------------------------- terrain


def naive_setup(board: Board, seed: int) -> list:
    """Baseline: the same procedure, re-building the free region of the area (area minus
    every placed piece grown by 1") with a full union on every try."""
    dice = SeededDice(seed)
    rng = np.random.default_rng(seed)
    library = load_library()
    placed: list = []
    for area in board.areas:
        for _side in ("A", "B"):
            if dice.roll(D6) < 5:
                continue
            for _try in range(200):
                piece = library[int(rng.integers(len(library)))]
                x, y = rng.uniform(area.x0, area.x1), rng.uniform(area.y0, area.y1)
                shape = piece.shape_at(float(x), float(y), float(rng.integers(0, 360)))
                grown = [p.buffer(MIN_GAP) for p in placed]
                free = box(*area.bounds).difference(shapely.union_all(grown)) if grown else None
                if (free or box(*area.bounds)).covers(shape):
                    placed.append(shape)
                    break
    return placed


def test_terrain_setup(benchmark):
    board = Board(72, 48)
    library = load_library()
    seeds = itertools.count()
    benchmark(lambda: seeded_setup(board, next(seeds), library))
    record("terrain: setup", benchmark, TERRAIN_BUDGET)


def test_terrain_naive(benchmark):
    board = Board(72, 48)
    seeds = itertools.count()
    benchmark.pedantic(lambda: naive_setup(board, next(seeds)), rounds=20)
    record("terrain: naive", benchmark)
