"""Line of sight against terrain (GEO002.10; blocking decided by the rule system, R002.40)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from geometry_helpers import moved_geometry, rotate_point
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tactical.errors import UserError
from tactical.geometry.los import (
    LosResult,
    TerrainIndex,
    line_of_sight,
    lines_of_sight,
    los_hits,
)

SQUARE = shapely.box(10, 10, 14, 14)
ROCK = shapely.Point(30, 12).buffer(2.0, quad_segs=16)  # as Terrain.geometry builds circles
REEF = shapely.Polygon([(40, 8), (46, 8), (46, 16), (43, 11), (40, 16)])  # a notched shape


@pytest.fixture(scope="module")
def index() -> TerrainIndex:
    return TerrainIndex.build(["square", "rock", "reef"], [SQUARE, ROCK, REEF])


def test_a_line_through_a_piece_is_blocked(index):
    assert line_of_sight(index, (0, 12), (20, 12)) == LosResult(False, ("square",))


def test_lines_that_miss_everything_are_clear(index):
    assert line_of_sight(index, (0, 30), (50, 30)) == LosResult(True, ())


def test_blocked_by_lists_pieces_in_order_along_the_line(index):
    forward = line_of_sight(index, (0, 12), (50, 12))
    assert forward == LosResult(False, ("square", "rock", "reef"))
    backward = line_of_sight(index, (50, 12), (0, 12))
    assert backward.blocked_by == ("reef", "rock", "square")


def test_a_line_along_an_edge_only_touches_and_is_clear(index):
    assert line_of_sight(index, (0, 10), (20, 10)).clear
    assert line_of_sight(index, (14, 0), (14, 20)).clear


def test_a_line_through_a_single_corner_is_clear(index):
    # x + y = 20 meets the square only at its corner (10, 10)
    assert line_of_sight(index, (8, 12), (12, 8)).clear


def test_a_diagonal_through_two_corners_crosses_the_interior(index):
    assert line_of_sight(index, (8, 8), (16, 16)) == LosResult(False, ("square",))


def test_a_line_passing_close_by_without_touching_is_clear(index):
    assert line_of_sight(index, (0, 9.999999), (20, 9.999999)).clear
    assert not line_of_sight(index, (0, 10.000001), (20, 10.000001)).clear
    # tangent to the round rock's top vertex, then a hair inside
    assert line_of_sight(index, (20, 14), (45, 14)).blocked_by == ("reef",)
    assert line_of_sight(index, (20, 13.9999), (38, 13.9999)).blocked_by == ("rock",)


def test_a_line_into_a_notch_between_two_horns_is_clear(index):
    # the reef's notch: a line from above down towards the notch vertex (43, 11) stays outside
    assert line_of_sight(index, (43, 20), (43, 11.5)).clear
    assert not line_of_sight(index, (43, 20), (43, 10.5)).clear


def test_the_blocking_mask_chooses_which_pieces_block(index):
    """The rule system decides (e.g. R002.40): here only the rock and the reef may block."""
    mask = index.mask(["rock", "reef"])
    assert mask.tolist() == [False, True, True]
    assert line_of_sight(index, (0, 12), (20, 12), mask).clear
    assert line_of_sight(index, (0, 12), (50, 12), mask).blocked_by == ("rock", "reef")
    with pytest.raises(UserError, match="unknown terrain"):
        index.mask(["lagoon"])
    with pytest.raises(UserError, match="does not match"):
        line_of_sight(index, (0, 0), (1, 1), np.ones(2, dtype=bool))


def test_a_line_starting_inside_a_piece_is_blocked_by_it(index):
    assert line_of_sight(index, (12, 12), (12, 30)).blocked_by == ("square",)


def test_a_zero_length_line_is_clear(index):
    assert line_of_sight(index, (12, 12), (12, 12)).clear
    assert lines_of_sight(index, [(12, 12)], [(12, 12)]).tolist() == [True]


def test_terrain_index_rejects_bad_terrain():
    with pytest.raises(UserError, match="used twice"):
        TerrainIndex.build(["a", "a"], [SQUARE, ROCK])
    with pytest.raises(UserError, match="not a polygon"):
        TerrainIndex.build(["line"], [shapely.LineString([(0, 0), (1, 1)])])
    with pytest.raises(UserError, match="invalid outline"):
        TerrainIndex.build(["bowtie"], [shapely.Polygon([(0, 0), (2, 2), (2, 0), (0, 2)])])
    with pytest.raises(UserError, match="2 terrain ids but 1"):
        TerrainIndex.build(["a", "b"], [SQUARE])


def test_no_terrain_means_every_line_is_clear():
    empty = TerrainIndex.build([], [])
    assert line_of_sight(empty, (0, 0), (10, 10)).clear
    assert lines_of_sight(empty, [(0, 0)], [(5, 5)]).tolist() == [True]


def test_a_polygon_with_a_hole_blocks_only_across_its_land(index):
    atoll = shapely.Polygon(
        [(0, 0), (20, 0), (20, 20), (0, 20)], [[(5, 5), (15, 5), (15, 15), (5, 15)]]
    )
    ring = TerrainIndex.build(["atoll"], [atoll])
    assert line_of_sight(ring, (8, 8), (12, 12)).clear  # inside the lagoon
    assert not line_of_sight(ring, (8, 8), (25, 8)).clear
    assert lines_of_sight(ring, [(8, 8), (8, 8)], [(12, 12), (25, 8)]).tolist() == [True, False]


def test_vectorised_lines_match_the_per_line_reference(index):
    """Hand-picked degenerate lines plus random ones: numpy and GEOS give the same answers."""
    starts = [(0, 12), (0, 10), (14, 0), (8, 12), (8, 8), (0, 9.999999), (20, 14), (43, 20)]
    ends = [(50, 12), (20, 10), (14, 20), (12, 8), (16, 16), (20, 9.999999), (40, 14), (43, 11.5)]
    rng = np.random.default_rng(7)
    starts += [tuple(p) for p in rng.uniform((0, 0), (50, 25), (400, 2))]
    ends += [tuple(p) for p in rng.uniform((0, 0), (50, 25), (400, 2))]
    clear = lines_of_sight(index, starts, ends)
    segment, piece = los_hits(index, starts, ends)
    for k, (start, end) in enumerate(zip(starts, ends, strict=True)):
        reference = line_of_sight(index, start, end)
        assert clear[k] == reference.clear, (start, end)
        hits = {index.ids[p] for p in piece[segment == k]}
        assert hits == set(reference.blocked_by), (start, end)


def test_vectorised_masks_per_line(index):
    starts, ends = [(0, 12), (0, 12)], [(20, 12), (20, 12)]
    per_line = np.array([[True, True, True], [False, True, True]])
    assert lines_of_sight(index, starts, ends, per_line).tolist() == [False, True]


# --------------------------------------------------------------------------- properties

points = st.tuples(st.floats(-5, 55), st.floats(-5, 25))


@settings(max_examples=200, deadline=None)
@given(points, points)
def test_line_of_sight_is_symmetric(index, start, end):
    forward = line_of_sight(index, start, end)
    backward = line_of_sight(index, end, start)
    assert forward.clear == backward.clear
    assert set(forward.blocked_by) == set(backward.blocked_by)
    assert lines_of_sight(index, [start, end], [end, start]).tolist() == [forward.clear] * 2


@settings(max_examples=150, deadline=None)
@given(points, points, st.floats(0, 360), st.floats(-30, 30), st.floats(-30, 30))
def test_rigid_motion_leaves_line_of_sight_unchanged(index, start, end, angle, sx, sy):
    assume(math.dist(start, end) > 1e-3)
    line = shapely.LineString([start, end])
    for piece in index.geometries:
        near = shapely.distance(line, piece) <= 1e-6
        deep = shapely.intersection(line, piece.buffer(-1e-6)).length > 1e-6
        assume(not near or deep)
    moved_index = TerrainIndex.build(
        index.ids, [moved_geometry(g, angle, (sx, sy)) for g in index.geometries]
    )

    def move(point):
        x, y = rotate_point(point, angle)
        return x + sx, y + sy

    before = line_of_sight(index, start, end)
    after = line_of_sight(moved_index, move(start), move(end))
    assert before == after
