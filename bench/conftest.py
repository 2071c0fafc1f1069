"""Shared bench fixtures: a reproducible crowded table (numpy default_rng, fixed seed).

`random_table(units, pieces, seed)` places a mix of rectangular and round
bases with random headings and terrain polygons (5-12 vertices, star-shaped
so they are simple) and circles (as shapely's buffered polygons, the way
`Terrain.geometry` builds them) on a 72" x 48" table.

Quick mode (`pytest bench --bench-quick`, or BENCH_QUICK=1 in the environment), as CI
runs it: every benchmark once, at its smallest size, so that a benchmark that breaks
fails CI without CI timing anything. Benchmarks stay disabled (the project's addopts:
each measured function runs once); a test parametrized over sizes or systems runs its
first case only; files pick their smallest sizes and fewest rounds with `quick(...)`.
Budgets are held only where figures are measured (`--benchmark-enable`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
import shapely

from tactical.geometry.shapes import Base, CircleBase, Pose, RectBase

QUICK_ENV = "BENCH_QUICK"


def pytest_addoption(parser) -> None:
    parser.addoption(
        "--bench-quick",
        action="store_true",
        help="run every benchmark once at its smallest size (CI; also BENCH_QUICK=1)",
    )


def pytest_configure(config) -> None:
    if config.getoption("--bench-quick", default=False):
        os.environ[QUICK_ENV] = "1"


def is_quick() -> bool:
    """Whether this run is the quick one (`--bench-quick` or BENCH_QUICK=1)."""
    return os.environ.get(QUICK_ENV, "") not in ("", "0")


def quick(full, small):
    """`small` in quick mode, else `full` (sizes, rounds, counts)."""
    return small if is_quick() else full


def pytest_collection_modifyitems(config, items) -> None:
    """Quick mode: of a test parametrized over sizes or systems, its first case only."""
    if not is_quick():
        return
    seen: set[tuple[str, str]] = set()
    kept, dropped = [], []
    for item in items:
        key = (str(item.path), getattr(item, "originalname", item.name))
        (dropped if key in seen else kept).append(item)
        seen.add(key)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


TABLE_WIDTH = 72.0
TABLE_HEIGHT = 48.0
SEED = 20240602


@dataclass(frozen=True)
class RandomTable:
    poses: list[Pose]
    bases: list[Base]
    terrain_ids: list[str]
    terrain: list[shapely.Geometry]


def random_table(units: int = 200, pieces: int = 40, seed: int = SEED) -> RandomTable:
    rng = np.random.default_rng(seed)
    poses, bases = [], []
    for k in range(units):
        poses.append(
            Pose(
                rng.uniform(1.0, TABLE_WIDTH - 1.0),
                rng.uniform(1.0, TABLE_HEIGHT - 1.0),
                rng.uniform(0.0, 360.0),
            )
        )
        if k % 2 == 0:
            bases.append(RectBase(rng.uniform(0.75, 2.0), rng.uniform(1.5, 5.0)))
        else:
            bases.append(CircleBase(rng.uniform(0.75, 2.5)))
    ids, geometries = [], []
    for k in range(pieces):
        cx = rng.uniform(4.0, TABLE_WIDTH - 4.0)
        cy = rng.uniform(4.0, TABLE_HEIGHT - 4.0)
        if k % 2 == 0:
            count = int(rng.integers(5, 13))
            angles = np.sort(rng.uniform(0.0, 2 * np.pi, count))
            radii = rng.uniform(1.0, 4.0, count)
            outline = np.column_stack((cx + radii * np.sin(angles), cy + radii * np.cos(angles)))
            geometry = shapely.make_valid(shapely.Polygon(outline))
            if geometry.geom_type != "Polygon":
                geometry = shapely.convex_hull(geometry)
        else:
            geometry = shapely.Point(cx, cy).buffer(rng.uniform(0.75, 3.0), quad_segs=16)
        ids.append(f"piece-{k}")
        geometries.append(geometry)
    return RandomTable(poses, bases, ids, geometries)


@pytest.fixture(scope="session")
def table() -> RandomTable:
    return random_table()


# --------------------------------------------------------------------------- figures

# Medians (seconds) recorded by the bench files, and the budgets they are held to;
# printed with their ratios at the end of the run (pytest_terminal_summary).
FIGURES: dict[str, float] = {}
BEST: dict[str, float] = {}  # the fastest round, where several were timed
BUDGETS: dict[str, float] = {}
RATIOS: list[tuple[str, str, str, float]] = []  # (label, slow, fast, minimum ratio)


def record(name: str, benchmark, budget: float | None = None) -> None:
    """Keep a benchmark's median (when benchmarks are enabled) under `name`."""
    stats = getattr(benchmark, "stats", None)
    if stats is None:
        return
    FIGURES[name] = stats.stats.median
    BEST[name] = stats.stats.min
    if budget is not None:
        BUDGETS[name] = budget


def _shown(seconds: float) -> str:
    """A figure in ms, or in us below a tenth of a millisecond (per-pair costs)."""
    if abs(seconds) < 1e-4:
        return f"{seconds * 1e6:10.3f} us"
    return f"{seconds * 1e3:10.3f} ms"


def pytest_terminal_summary(terminalreporter) -> None:
    if is_quick():  # one round at the smallest sizes: no figure is worth printing
        terminalreporter.write_line("bench quick mode: each benchmark ran once, nothing timed")
        return
    if not FIGURES:
        return
    write = terminalreporter.write_line
    load = os.getloadavg()[0] / (os.cpu_count() or 1)
    terminalreporter.section(f"bench figures (median; load {load:.1f} a core)")
    for name, seconds in FIGURES.items():
        budget = BUDGETS.get(name)
        verdict = ""
        if budget is not None:
            # on a loaded machine the median waits for a core: the fastest round says
            # whether the code itself is within its budget
            best = BEST.get(name, seconds)
            said = "ok" if seconds <= budget else "ok at best, loaded" if best <= budget else "OVER"
            verdict = f"  budget {_shown(budget).strip()}: {said}"
        write(f"{name:<40} {_shown(seconds)}{verdict}")
    for label, slow, fast, minimum in RATIOS:
        if slow in FIGURES and fast in FIGURES:
            ratio = FIGURES[slow] / FIGURES[fast]
            verdict = "ok" if ratio >= minimum else "UNDER"
            write(f"{label:<40} {ratio:10.1f}x   (>= {minimum:g}x: {verdict})")


# --------------------------------------------------------------------------- naive odds baseline


class _NeedRoll(BaseException):
    def __init__(self, sides: int) -> None:
        self.sides = sides


class _NaiveReplay:
    """Replays a prefix of faces; folds and chances are played roll by roll (no merging)."""

    def __init__(self, prefix: tuple[int, ...]) -> None:
        self.prefix, self.pos = prefix, 0

    def roll(self, die, *, who: str = "", what: str = "") -> int:
        if self.pos < len(self.prefix):
            self.pos += 1
            return die.values[self.prefix[self.pos - 1]]
        raise _NeedRoll(die.sides)

    def fold(self, initial, steps, key=None):
        state = initial
        for step in steps:
            state = step(state, self)
        return state

    def chance(self, fn, key=None):
        return fn(self)


def naive_odds(fn: Callable[[Any], Any]) -> dict[Any, Fraction]:
    """The odds benches' baseline: every leaf of the plain decision tree (no merging of
    equal states), one resolver run per node."""
    result: dict[Any, Fraction] = {}
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        prefix, weight = stack.pop()
        try:
            outcome = fn(_NaiveReplay(prefix))
        except _NeedRoll as need:
            stack.extend(((*prefix, face), weight / need.sides) for face in range(need.sides))
            continue
        result[outcome] = result.get(outcome, Fraction(0)) + weight
    return result
