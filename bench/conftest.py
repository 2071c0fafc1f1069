"""Shared bench fixtures: a reproducible crowded table (numpy default_rng, fixed seed).

`random_table(units, pieces, seed)` places a mix of rectangular and round
bases with random headings and terrain polygons (5-12 vertices, star-shaped
so they are simple) and circles (as shapely's buffered polygons, the way
`Terrain.geometry` builds them) on a 72" x 48" table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
import shapely

from tactical.geometry.shapes import Base, CircleBase, Pose, RectBase

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
BUDGETS: dict[str, float] = {}
RATIOS: list[tuple[str, str, str, float]] = []  # (label, slow, fast, minimum ratio)


def record(name: str, benchmark, budget: float | None = None) -> None:
    """Keep a benchmark's median (when benchmarks are enabled) under `name`."""
    stats = getattr(benchmark, "stats", None)
    if stats is None:
        return
    FIGURES[name] = stats.stats.median
    if budget is not None:
        BUDGETS[name] = budget


def pytest_terminal_summary(terminalreporter) -> None:
    if not FIGURES:
        return
    write = terminalreporter.write_line
    terminalreporter.section("bench figures (median)")
    for name, seconds in FIGURES.items():
        budget = BUDGETS.get(name)
        verdict = (
            ""
            if budget is None
            else (f"  budget {budget * 1e3:g} ms: {'ok' if seconds <= budget else 'OVER'}")
        )
        write(f"{name:<40} {seconds * 1e3:10.3f} ms{verdict}")
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
