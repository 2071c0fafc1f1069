"""The one-unit row is the matrix's row, exactly, and its fast paths give the reference answers
(the row budget; GEO002.10 line of sight, R002.40 blocking, docs/architecture.md arcs)."""

from __future__ import annotations

import math
from unittest.mock import patch

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from tactical.errors import UserError
from tactical.geometry import matrix_blocks
from tactical.geometry.arcs import (
    ANGLE_TOLERANCE,
    centre_arc,
    quadrant_index,
    wrap_bearings,
)
from tactical.geometry.arcs_spec import BROADSIDES, CHANNEL, OMNI, QUADRANTS, TURRET_270
from tactical.geometry.los import TerrainIndex, hits_from_point, line_of_sight
from tactical.geometry.matrix import LevelBlocking, pair_matrix, unit_row
from tactical.geometry.matrix_blocks import matrix_row_blocks, matrix_rows
from tactical.geometry.measure import BaseArrays, pair_edge_distances, unit_edge_distances
from tactical.geometry.shapes import CircleBase, Pose, RectBase

FIELDS = (
    "centre_distance", "edge_distance", "bearing", "centre_quadrant",
    "in_arc_centre", "in_arc_any", "los_clear",
)  # fmt: skip
ARC_SETS = (QUADRANTS, (*QUADRANTS, TURRET_270, *BROADSIDES, CHANNEL, OMNI), (TURRET_270,))


def crowded_table(seed: int, units: int, pieces: int, grid: bool):
    """Mixed bases and terrain; on a grid, headings by 45° and centres on exact multiples,
    so bearings fall exactly on arc lines and lines run along terrain edges."""
    rng = np.random.default_rng(seed)
    step = 6.0 if grid else None
    poses, bases = [], []
    for _ in range(units):
        x, y = rng.uniform(0, 72), rng.uniform(0, 48)
        heading = rng.uniform(0, 360)
        if step:
            x, y, heading = round(x / step) * step, round(y / step) * step, round(heading / 45) * 45
        poses.append(Pose(x, y, heading))
        if rng.random() < 0.5:
            bases.append(CircleBase(rng.uniform(0.5, 3)))
        else:
            bases.append(RectBase(rng.uniform(0.5, 2), rng.uniform(1, 5)))
    geometries = []
    for k in range(pieces):
        cx, cy = rng.uniform(6, 66), rng.uniform(6, 42)
        if step:
            cx, cy = round(cx / step) * step + 3, round(cy / step) * step
        if k % 3 == 0:
            angles = np.sort(rng.uniform(0, 2 * np.pi, int(rng.integers(5, 11))))
            radii = rng.uniform(1.0, 4.0, len(angles))
            ring = np.column_stack((cx + radii * np.sin(angles), cy + radii * np.cos(angles)))
            star = shapely.make_valid(shapely.Polygon(ring))
            geometries.append(star if star.geom_type == "Polygon" else shapely.convex_hull(star))
        elif k % 3 == 1:
            geometries.append(shapely.Point(cx, cy).buffer(rng.uniform(0.75, 3), quad_segs=16))
        else:
            geometries.append(shapely.box(cx - 2, cy - 1, cx + 2, cy + 1))
    if units > 3 and pieces:
        poses[1] = Pose(poses[0].x + 0.5, poses[0].y, 10)  # overlapping bases
        poses[3] = Pose(poses[0].x, poses[0].y, 200)  # the same centre
        centre = shapely.get_coordinates(shapely.centroid(geometries[0]))[0]
        poses[2] = Pose(*centre, 45)  # inside a piece
    terrain = TerrainIndex.build([f"t{k}" for k in range(pieces)], geometries)
    return BaseArrays.build(poses, bases), terrain


def blockings(units: BaseArrays, terrain: TerrainIndex, seed: int):
    rng = np.random.default_rng(seed)
    levels = rng.integers(0, 2, len(units))
    mask = rng.random((2, 2, len(terrain))) < 0.7
    return (
        None,
        rng.random(len(terrain)) < 0.6,
        LevelBlocking(levels, mask | mask.transpose(1, 0, 2)),
        LevelBlocking(levels, mask),
    )


def assert_rows_equal(row, sliced):
    for name in FIELDS:
        expected, got = getattr(sliced, name), getattr(row, name)
        assert got.shape == expected.shape and got.dtype == expected.dtype, name
        assert np.array_equal(got, expected), (name, np.argwhere(got != expected)[:5])


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 40), st.integers(0, 9), st.booleans())
def test_the_row_is_the_matrix_row_exactly(seed, units, pieces, grid):
    """Every field of unit_row(i) equals row i of pair_matrix, bit for bit, for every arc
    set and every kind of blocking (None, a plain mask, symmetric and asymmetric levels)."""
    table, terrain = crowded_table(seed, units, pieces, grid)
    for arcs in ARC_SETS:
        for blocking in blockings(table, terrain, seed):
            matrix = pair_matrix(table, terrain, arcs, blocking)
            for i in range(len(table)):
                assert_rows_equal(unit_row(table, i, terrain, arcs, blocking), matrix.unit_row(i))


def test_the_row_agrees_with_per_line_line_of_sight():
    """GEO002.10: the row's line of sight is GEOS's answer for every line, grid table included
    (lines along edges, through vertices, from inside a piece)."""
    for seed, grid in ((11, False), (12, True)):
        table, terrain = crowded_table(seed, 60, 12, grid)
        for i in range(len(table)):
            row = unit_row(table, i, terrain)
            start = (table.x[i], table.y[i])
            for j in range(len(table)):
                reference = line_of_sight(terrain, start, (table.x[j], table.y[j]))
                assert row.los_clear[j] == reference.clear, (seed, i, j)


SQUARE = shapely.box(10, 10, 14, 14)
REEF = shapely.Polygon([(40, 8), (46, 8), (46, 16), (43, 11), (40, 16)])  # a notched shape
HOLED = shapely.Polygon(
    [(20, 20), (30, 20), (30, 30), (20, 30)], [[(23, 23), (27, 23), (27, 27), (23, 27)]]
)


@pytest.mark.parametrize(
    ("start", "ends", "piece", "expected"),
    [
        ((0, 12), [(20, 12), (5, 12), (12, 12)], 0, [True, False, True]),  # through, short, in
        ((0, 10), [(20, 10), (12, 8)], 0, [False, False]),  # along an edge; off to the side
        ((8, 12), [(12, 8)], 0, [False]),  # through a corner only
        ((8, 8), [(16, 16)], 0, [True]),  # the diagonal through two corners
        ((12, 12), [(13, 13), (30, 12)], 0, [True, True]),  # from inside the piece
        ((10, 12), [(20, 12), (0, 12)], 0, [True, False]),  # from the boundary, in and out
        ((43, 20), [(43, 12), (43, 10)], 1, [False, True]),  # into the notch; past its apex
        ((25, 0), [(25, 40), (25, 25)], 2, [True, True]),  # across the hole; into its land
        ((25, 25), [(26, 26), (25, 40)], 2, [False, True]),  # inside the hole; out through land
    ],
)
def test_hits_from_point_gives_the_geos_answers(start, ends, piece, expected):
    terrain = TerrainIndex.build(["square", "reef", "holed"], [SQUARE, REEF, HOLED])
    ends = np.array(ends, dtype=float)
    pieces = np.full(len(ends), piece)
    may_be_inside = np.ones(len(ends), dtype=bool)
    hits = hits_from_point(terrain, start, ends[:, 0], ends[:, 1], pieces, may_be_inside)
    assert hits.tolist() == expected
    for end, hit in zip(ends, hits, strict=True):
        assert line_of_sight(terrain, start, tuple(end)).clear == (not hit)


def test_unit_edge_distances_are_pair_edge_distances_exactly():
    for seed, grid in ((21, False), (22, True)):
        table, _ = crowded_table(seed, 50, 1, grid)
        every = np.arange(len(table))
        for i in every:
            expected = pair_edge_distances(table, i, every)
            expected[i] = 0.0
            assert np.array_equal(unit_edge_distances(table, i), expected)


def wrap_degrees(values: np.ndarray) -> np.ndarray:
    """The plain float modulo, kept in [0, 360) (a tiny negative angle plus 360 rounds to 360)."""
    values = np.mod(values, 360.0)
    return np.where(values >= 360.0, values - 360.0, values)


def test_wrap_bearings_is_wrap_degrees_on_its_range():
    rng = np.random.default_rng(3)
    values = np.degrees(np.arctan2(rng.uniform(-1, 1, 20_000), rng.uniform(-1, 1, 20_000)))
    values -= rng.uniform(0, 360, values.size)
    edges = [-540 + 1e-12, -360.0, -180.0, -1e-14, 0.0, 1e-14, 180.0, np.nextafter(-360.0, 0)]
    values = np.concatenate((values, edges))
    wrapped = wrap_bearings(values)
    assert np.array_equal(wrapped, wrap_degrees(values))
    assert wrapped.min() >= 0.0 and wrapped.max() < 360.0


def quadrants_by_comparison(bearings: np.ndarray) -> np.ndarray:
    """The first of fore, starboard, aft, port whose closed range (1e-9° slack) holds each
    bearing, tested range by range."""
    tol = ANGLE_TOLERANCE
    index = np.full(bearings.shape, 3, dtype=np.int8)
    index[(bearings >= 135.0 - tol) & (bearings <= 225.0 + tol)] = 2
    index[(bearings >= 45.0 - tol) & (bearings <= 135.0 + tol)] = 1
    index[(bearings >= 315.0 - tol) | (bearings <= 45.0 + tol)] = 0
    return index


def test_quadrant_index_at_the_lines():
    """docs/architecture.md: 45 is fore, 135 starboard, 225 aft, 315 fore (lines in both, 1e-9°)."""
    bearings = []
    for line in (0.0, 45.0, 135.0, 225.0, 315.0):
        for offset in (-2 * ANGLE_TOLERANCE, -ANGLE_TOLERANCE, 0.0, ANGLE_TOLERANCE):
            value = line + offset
            bearings += [np.nextafter(value, -math.inf), value, np.nextafter(value, math.inf)]
    bearings = np.array([b for b in bearings if 0.0 <= b < 360.0] + [359.9999999999])
    bearings = np.concatenate((bearings, np.random.default_rng(4).uniform(0, 360, 10_000)))
    assert np.array_equal(quadrant_index(bearings), quadrants_by_comparison(bearings))
    names = ("fore", "starboard", "aft", "port")
    lines = [names[k] for k in quadrant_index(np.array([0.0, 45.0, 135.0, 225.0, 315.0]))]
    assert lines == [centre_arc(b) for b in (0.0, 45.0, 135.0, 225.0, 315.0)]
    assert quadrant_index(np.array([[45.0, 135.0], [225.0, 315.0]])).tolist() == [[0, 1], [2, 0]]


def test_a_moved_unit_gets_a_fresh_row():
    table, terrain = crowded_table(5, 30, 6, False)
    before = unit_row(table, 4, terrain)
    moved = table.with_pose(4, Pose(36, 24, 123))
    after = unit_row(moved, 4, terrain)
    assert_rows_equal(after, pair_matrix(moved, terrain).unit_row(4))
    assert not np.array_equal(before.centre_distance, after.centre_distance)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 30), st.integers(0, 9), st.booleans(), st.data())
def test_a_block_of_rows_is_the_matrix_rows_exactly(seed, units, pieces, grid, data):
    """matrix_rows (what `tactical check` streams from) equals the same rows of pair_matrix,
    bit for bit, for every kind of blocking; its hits are exactly the pieces each blocked
    line crosses (GEO002.10: a line crossing a piece's interior is blocked by it)."""
    table, terrain = crowded_table(seed, units, pieces, grid)
    first = data.draw(st.integers(0, units - 1))
    rows = range(first, data.draw(st.integers(first + 1, units)))
    for blocking in blockings(table, terrain, seed):
        matrix = pair_matrix(table, terrain, ARC_SETS[1], blocking)
        block = matrix_rows(table, rows, terrain, arcs=ARC_SETS[1], blocking=blocking)
        for name in FIELDS:
            assert np.array_equal(getattr(block, name), getattr(matrix, name)[first : rows.stop])
        found = set(zip(block.hit_row + first, block.hit_target, block.hit_piece, strict=True))
        expected = set()
        for i in rows:
            for j in range(units):
                if i != j and not matrix.los_clear[i, j]:
                    names = matrix.blocked_by(i, j)
                    expected |= {(i, j, terrain.ids.index(name)) for name in names}
        assert found == expected


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 20), st.integers(0, 9), st.booleans(),
       st.integers(1, 7), st.integers(1, 24))  # fmt: skip
def test_blocks_of_rows_testing_each_line_once_are_the_matrix_rows_exactly(
    seed, units, pieces, grid, rows_per_block, band_rows
):
    """matrix_row_blocks (each line within a band of rows tested once, its crossings kept
    for its other unit's block, where the blocking is symmetric) gives every row as
    matrix_rows does, bit for bit, with the same crossings (GEO002.10), for every kind of
    blocking and whether the table is one band or several."""
    table, terrain = crowded_table(seed, units, pieces, grid)
    for blocking in blockings(table, terrain, seed):
        with patch.object(matrix_blocks, "BAND_ROWS", band_rows):
            blocks = list(
                matrix_row_blocks(
                    table, terrain, ARC_SETS[1], blocking, rows_per_block=rows_per_block
                )
            )
        assert [b.first for b in blocks] == list(range(0, units, rows_per_block))
        for block in blocks:
            alone = matrix_rows(table, block.rows, terrain, arcs=ARC_SETS[1], blocking=blocking)
            for name in FIELDS:
                assert np.array_equal(getattr(block, name), getattr(alone, name)), name

            def crossings(b):
                return sorted(zip(b.hit_row.tolist(), b.hit_target.tolist(),
                                  b.hit_piece.tolist(), strict=True))  # fmt: skip

            assert crossings(block) == crossings(alone)


def test_matrix_rows_must_be_consecutive_rows_of_the_table():
    table, terrain = crowded_table(1, 5, 2, False)
    with pytest.raises(UserError, match="not consecutive rows"):
        matrix_rows(table, range(3, 9), terrain)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 40), st.integers(0, 9), st.booleans(),
       st.floats(0.0, 40.0))  # fmt: skip
def test_a_matrix_within_reach_is_the_full_matrix_on_its_pairs(seed, units, pieces, grid, reach):
    """pair_matrix(reach=r) measures every pair of bases within r edge to edge (and the
    diagonal), each bit for bit as the full matrix does; the pairs it skips hold an
    infinite distance, no bearing, no arcs and no line of sight."""
    table, terrain = crowded_table(seed, units, pieces, grid)
    for blocking in blockings(table, terrain, seed):
        full = pair_matrix(table, terrain, ARC_SETS[1], blocking)
        near = pair_matrix(table, terrain, ARC_SETS[1], blocking, reach=reach)
        within = near.within
        assert within[full.edge_distance <= reach].all() and within.diagonal().all()
        for name in FIELDS:
            assert np.array_equal(getattr(near, name)[within], getattr(full, name)[within]), name
        far = ~within
        assert np.isinf(near.centre_distance[far]).all() and np.isnan(near.bearing[far]).all()
        assert not near.in_arc_any[far].any() and not near.los_clear[far].any()
