"""The all-pairs matrix and the one-unit row agree with the per-pair functions (R002.40 hook)."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from tactical.errors import UserError
from tactical.geometry.arcs import arcs_containing, centre_arc, relative_bearing
from tactical.geometry.arcs_spec import BROADSIDES, CHANNEL, OMNI, QUADRANTS, TURRET_270
from tactical.geometry.los import TerrainIndex, line_of_sight
from tactical.geometry.matrix import LevelBlocking, pair_matrix, unit_row
from tactical.geometry.measure import BaseArrays, centre_to_centre, edge_to_edge, measure
from tactical.geometry.shapes import CircleBase, Pose, RectBase

ARCS = (*QUADRANTS, TURRET_270, *BROADSIDES, CHANNEL, OMNI)


def random_table(units: int, pieces: int, seed: int):
    """Crowded random table: mixed bases, star-shaped polygons and round rocks."""
    rng = np.random.default_rng(seed)
    poses = [Pose(*rng.uniform((0, 0, 0), (72, 48, 360))) for _ in range(units)]
    bases = [
        RectBase(*rng.uniform((0.5, 1.0), (2.0, 5.0))) if k % 2 else CircleBase(rng.uniform(0.5, 3))
        for k in range(units)
    ]
    geometries = []
    for k in range(pieces):
        cx, cy = rng.uniform((4, 4), (68, 44))
        if k % 2:
            geometries.append(shapely.Point(cx, cy).buffer(rng.uniform(0.75, 3), quad_segs=16))
        else:
            angles = np.sort(rng.uniform(0, 2 * np.pi, int(rng.integers(5, 13))))
            radii = rng.uniform(1.0, 4.0, len(angles))
            outline = np.column_stack((cx + radii * np.sin(angles), cy + radii * np.cos(angles)))
            geometries.append(shapely.convex_hull(shapely.make_valid(shapely.Polygon(outline))))
    # an overlapping pair and a unit sitting inside a rock exercise the special cases
    poses[1] = Pose(poses[0].x + 0.5, poses[0].y, 10)
    cx, cy = shapely.get_coordinates(shapely.centroid(geometries[1]))[0]
    poses[2] = Pose(cx, cy, 45)
    return poses, bases, TerrainIndex.build([f"t{k}" for k in range(pieces)], geometries)


@pytest.fixture(scope="module")
def table():
    poses, bases, terrain = random_table(48, 14, seed=3)
    units = BaseArrays.build(poses, bases)
    return poses, bases, terrain, units, pair_matrix(units, terrain, ARCS)


def test_matrix_agrees_with_the_per_pair_functions(table):
    poses, bases, terrain, _, matrix = table
    n = len(poses)
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            pa, ba, pb, bb = poses[i], bases[i], poses[j], bases[j]
            assert matrix.centre_distance[i, j] == pytest.approx(
                centre_to_centre(pa, pb).distance, abs=1e-9
            )
            assert matrix.edge_distance[i, j] == pytest.approx(
                edge_to_edge(pa, ba, pb, bb).distance, abs=1e-9
            )
            bearing = relative_bearing(pa, pb.x, pb.y)
            assert abs((matrix.bearing[i, j] - bearing + 180) % 360 - 180) < 1e-9
            assert matrix.centre_arc(i, j) == centre_arc(bearing)
            for test in ("centre", "any"):
                expected = arcs_containing(pa, ba, ARCS, pb, bb, test)
                assert matrix.arcs_containing(i, j, test) == expected, (i, j, test)
            los = line_of_sight(terrain, (pa.x, pa.y), (pb.x, pb.y))
            assert matrix.los_clear[i, j] == los.clear, (i, j)
            assert matrix.blocked_by(i, j) == los.blocked_by
    assert not matrix.los_clear.all() and matrix.los_clear.any()


def test_witness_segments_per_pair(table):
    poses, bases, _, _, matrix = table
    for i, j in ((0, 1), (3, 7), (10, 20)):
        expected = measure(poses[i], bases[i], poses[j], bases[j], "edge", "nearest")
        assert matrix.witness(i, j) == expected
    assert matrix.witness(0, 1).distance == 0.0  # the overlapping pair
    centre = matrix.witness(3, 7, "centre", "centre")
    assert centre.distance == pytest.approx(matrix.centre_distance[3, 7])


def test_the_diagonal_conventions(table):
    *_, matrix = table
    n = len(matrix)
    diagonal = np.arange(n)
    assert (matrix.centre_distance[diagonal, diagonal] == 0).all()
    assert (matrix.edge_distance[diagonal, diagonal] == 0).all()
    assert (matrix.bearing[diagonal, diagonal] == 0).all()
    assert not matrix.in_arc_centre[diagonal, diagonal].any()
    assert not matrix.in_arc_any[diagonal, diagonal].any()
    assert matrix.los_clear[diagonal, diagonal].all()


def test_unit_row_agrees_with_the_matrix(table):
    *_, terrain, units, matrix = table
    for i in (0, 1, 2, 17, len(matrix) - 1):
        row = unit_row(units, i, terrain, ARCS)
        sliced = matrix.unit_row(i)
        assert row.centre_distance == pytest.approx(sliced.centre_distance)
        assert row.edge_distance == pytest.approx(sliced.edge_distance, abs=1e-9)
        assert row.bearing == pytest.approx(sliced.bearing, abs=1e-9)
        assert (row.centre_quadrant == sliced.centre_quadrant).all()
        assert (row.in_arc_centre == sliced.in_arc_centre).all()
        assert (row.in_arc_any == sliced.in_arc_any).all()
        assert (row.los_clear == sliced.los_clear).all()
        for j in np.flatnonzero(~row.los_clear)[:5]:
            assert row.blocked_by(j) == matrix.blocked_by(i, j)
        assert row.arcs_containing(5, "any") == matrix.arcs_containing(i, 5, "any")
        assert row.centre_arc[5] == matrix.centre_arc(i, 5)
        assert row.witness(5) == matrix.witness(i, 5)


def test_unit_row_of_a_unit_being_moved(table):
    *_, terrain, units, _ = table
    moved = units.with_pose(4, Pose(36, 24, 123))
    row = unit_row(moved, 4, terrain, ARCS)
    full = pair_matrix(moved, terrain, ARCS)
    assert (row.los_clear == full.los_clear[4]).all()
    assert row.centre_distance == pytest.approx(full.centre_distance[4])
    assert (row.in_arc_any == full.in_arc_any[4]).all()


# --------------------------------------------------------------------------- blocking hook


def _air_and_sea():
    """Surface ships S0, S1 and a flyer F on a table with a dense rock and an obstructing cliff."""
    rock = shapely.box(10, 10, 14, 14)  # dense, large
    cliff = shapely.box(10, 30, 14, 34)  # obstructing, large
    terrain = TerrainIndex.build(["rock", "cliff"], [rock, cliff])
    poses = [Pose(0, 12), Pose(24, 12), Pose(24, 13), Pose(0, 32), Pose(24, 32)]
    bases = [RectBase(1, 3)] * 5
    levels = np.array([0, 0, 1, 0, 1])  # 0 surface, 1 flying
    # R002.40: between the surface and a flyer only obstructing Large/Massive terrain blocks;
    # between two surface models dense and obstructing terrain block
    mask = np.zeros((2, 2, 2), dtype=bool)
    mask[0, 0] = [True, True]
    mask[0, 1] = mask[1, 0] = [False, True]
    mask[1, 1] = [False, False]
    return poses, bases, terrain, LevelBlocking(levels, mask)


def test_level_blocking_R002_40():
    """R002.40: LoS between a surface model and a flyer is blocked only by obstructing
    terrain of size Large or Massive; the rule system supplies the mask."""
    poses, bases, terrain, blocking = _air_and_sea()
    units = BaseArrays.build(poses, bases)
    matrix = pair_matrix(units, terrain, QUADRANTS, blocking)
    assert not matrix.los_clear[0, 1] and matrix.blocked_by(0, 1) == ("rock",)  # sea-sea
    assert matrix.los_clear[0, 2] and matrix.blocked_by(0, 2) == ()  # sea-air over a rock
    assert not matrix.los_clear[3, 4] and matrix.blocked_by(3, 4) == ("cliff",)  # over a cliff
    assert (matrix.los_clear == matrix.los_clear.T).all()
    row = unit_row(units, 0, terrain, QUADRANTS, blocking)
    assert (row.los_clear == matrix.los_clear[0]).all()
    assert row.blocked_by(1) == ("rock",)


def test_an_asymmetric_level_mask_is_honoured_per_direction():
    poses, bases, terrain, blocking = _air_and_sea()
    mask = blocking.mask.copy()
    mask[1, 0] = [True, True]  # the flyer looking down is blocked by the rock too
    asymmetric = LevelBlocking(blocking.levels, mask)
    assert not asymmetric.symmetric
    matrix = pair_matrix(BaseArrays.build(poses, bases), terrain, QUADRANTS, asymmetric)
    assert matrix.los_clear[0, 2] and not matrix.los_clear[2, 0]
    assert matrix.blocked_by(2, 0) == ("rock",) and matrix.blocked_by(0, 2) == ()


def test_a_plain_mask_applies_to_every_pair():
    poses, bases, terrain, _ = _air_and_sea()
    units = BaseArrays.build(poses, bases)
    matrix = pair_matrix(units, terrain, QUADRANTS, np.array([False, True]))
    assert matrix.los_clear[0, 1] and not matrix.los_clear[3, 4]
    with pytest.raises(UserError, match="one flag per terrain piece"):
        pair_matrix(units, terrain, QUADRANTS, np.array([True]))
    with pytest.raises(UserError, match="level codes"):
        LevelBlocking(np.array([0, 2]), np.ones((2, 2, 2), dtype=bool))
    with pytest.raises(UserError, match=r"shape \(L, L, T\)"):
        LevelBlocking(np.array([0]), np.ones((2, 2), dtype=bool))
    with pytest.raises(UserError, match="does not match"):
        pair_matrix(units, terrain, QUADRANTS, LevelBlocking(np.zeros(2, int), np.ones((1, 1, 2))))


def test_small_and_empty_tables():
    terrain = TerrainIndex.build([], [])
    single = pair_matrix(BaseArrays.build([Pose(1, 1)], [CircleBase(1)]), terrain)
    assert single.centre_distance.shape == (1, 1) and single.los_clear.all()
    empty = pair_matrix(BaseArrays.build([], []), terrain)
    assert empty.in_arc_any.shape == (0, 0, 4)
    same_spot = BaseArrays.build([Pose(5, 5, 0), Pose(5, 5, 90)], [CircleBase(1), CircleBase(1)])
    rock = TerrainIndex.build(["rock"], [shapely.box(0, 0, 10, 10)])
    matrix = pair_matrix(same_spot, rock)
    assert matrix.los_clear.all()  # a zero-length line is clear
    assert matrix.in_arc_centre[0, 1].all()  # the apex of every sector
    with pytest.raises(UserError, match="unit index 2"):
        unit_row(same_spot, 2, rock)
