"""Geometry budgets (docs/architecture.md): the all-pairs matrix and the one-unit row for
200 units and 40 terrain pieces on a 6' x 4' table, against a naive per-pair shapely loop
measured in the same run.

Run: .venv/bin/pytest bench/bench_geometry.py --benchmark-enable -p no:cacheprovider
Budgets: matrix <= 30 ms median and >= 25x faster than the naive loop; unit row <= 0.5 ms,
on the random table and on maps/stress-200.toml (200 ships, 40 pieces, its rule system's
arcs and line-of-sight blocking). Each row round asks for the next unit in turn, on the
same state, as the play screen does for the selected unit.

The machines these run on switch between two speeds for seconds at a time (a plain numpy
loop takes 0.17 ms, then 0.33 ms): the "machine reference" row measures that loop in the
same run, so a row figure can be read against the speed the machine had.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import shapely
from conftest import RATIOS, RandomTable, quick, random_table, record

from tactical.geometry.arcs import arc_region
from tactical.geometry.arcs_spec import QUADRANTS
from tactical.geometry.los import TerrainIndex
from tactical.geometry.matrix import pair_matrix, unit_row
from tactical.geometry.measure import BaseArrays
from tactical.geometry.shapes import footprint
from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.rules.measuring import TableGeometry

MATRIX_BUDGET = 0.030
ROW_BUDGET = 0.0005
RATIOS.append(("matrix speed-up over the naive loop", "naive per-pair loop", "pair matrix", 25.0))


def naive_pair_loop(table: RandomTable) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The baseline: for every ordered pair, plain shapely calls one pair at a time."""
    outlines = [footprint(p, b) for p, b in zip(table.poses, table.bases, strict=True)]
    wedges = [
        np.array([arc_region(p, b, arc, 200.0) for arc in QUADRANTS], dtype=object)
        for p, b in zip(table.poses, table.bases, strict=True)
    ]
    terrain = np.array(table.terrain, dtype=object)
    n = len(outlines)
    edge = np.zeros((n, n))
    bearing = np.zeros((n, n))
    in_arc = np.zeros((n, n, len(QUADRANTS)), dtype=bool)
    clear = np.ones((n, n), dtype=bool)
    for i, j in itertools.permutations(range(n), 2):
        a, b = table.poses[i], table.poses[j]
        edge[i, j] = outlines[i].distance(outlines[j])
        bearing[i, j] = (math.degrees(math.atan2(b.x - a.x, b.y - a.y)) - a.heading) % 360
        in_arc[i, j] = shapely.intersects(wedges[i], outlines[j])
        line = shapely.LineString([(a.x, a.y), (b.x, b.y)])
        clear[i, j] = not shapely.relate_pattern(line, terrain, "T********").any()
    return edge, bearing, in_arc, clear


@pytest.fixture(scope="module")
def geometry(table: RandomTable) -> tuple[BaseArrays, TerrainIndex]:
    return (
        BaseArrays.build(table.poses, table.bases),
        TerrainIndex.build(table.terrain_ids, table.terrain),
    )


def test_naive_pair_loop(benchmark, table):
    subject = quick(table, random_table(40, 40))  # quick: 40 units, the loop once
    edge, _, in_arc, clear = benchmark.pedantic(
        naive_pair_loop, args=(subject,), rounds=quick(3, 1), iterations=1, warmup_rounds=0
    )
    record("naive per-pair loop", benchmark)
    n = len(subject.poses)
    assert edge.shape == (n, n) and in_arc.any() and not clear.all()


def test_pair_matrix(benchmark, geometry):
    units, terrain = geometry
    matrix = benchmark(pair_matrix, units, terrain, QUADRANTS)
    record("pair matrix", benchmark, MATRIX_BUDGET)
    assert matrix.los_clear.shape == (200, 200) and not matrix.los_clear.all()


def test_unit_row(benchmark, geometry):
    units, terrain = geometry
    indices = itertools.cycle(range(len(units)))
    row = benchmark(lambda: unit_row(units, next(indices), terrain, QUADRANTS))
    record("unit row", benchmark, ROW_BUDGET)
    assert row.los_clear.shape == (len(units),)


@pytest.fixture(scope="module")
def stress_map() -> TableGeometry:
    return TableGeometry.of(load_map(builtin_map("stress-200")))


def test_unit_row_stress_map(benchmark, stress_map):
    g = stress_map
    indices = itertools.cycle(range(len(g.units)))
    row = benchmark(lambda: unit_row(g.units, next(indices), g.terrain, g.arcs, g.blocking))
    record("unit row (stress-200 map)", benchmark, ROW_BUDGET)
    # the map's 40 pieces, then (Dystopian Wars, R002.41) the bases of the models that block
    assert len(g.units) == 200 and g.pieces == 40
    assert row.los_clear.shape == (200,) and row.in_arc_any.shape == (200, len(g.arcs))


def _reference_loop(values: np.ndarray) -> np.ndarray:
    """100 small numpy operations on 200 floats: the scale of work of one unit row."""
    result = values
    for _ in range(100):
        result = values * 2.0 + 1.0
    return result


def test_machine_reference(benchmark):
    values = np.linspace(0.0, 1.0, 200)
    result = benchmark(_reference_loop, values)
    record("machine reference (100 numpy ops)", benchmark)
    assert result[-1] == 3.0
