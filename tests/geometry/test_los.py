"""Line of sight against terrain (GEO002.10; blocking decided by the rule system, R002.40)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
import shapely.affinity
from geometry_helpers import moved_geometry, rotate_point
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tactical.errors import UserError
from tactical.geometry.crossings import entry_fractions
from tactical.geometry.los import (
    BOX_MARGIN,
    INTERIOR_PATTERN,
    Lines,
    LosResult,
    TerrainIndex,
    _box_misses,
    diagonal_hits,
    hits_among,
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


# --------------------------------------------------------------------------- sure hits


def _convex_bases(rng: np.random.Generator, count: int) -> list[shapely.Polygon]:
    """Rotated ship rectangles, round bases (as circles are built) and rectangles whose ring
    has an extra vertex on a side (a diagonal of such a ring runs along that side)."""
    bases = []
    for k in range(count):
        x, y = rng.uniform(0, 20, 2)
        if k % 3 == 0:
            bases.append(shapely.Point(x, y).buffer(rng.uniform(0.3, 2.0), quad_segs=16))
            continue
        w, h = rng.uniform(0.2, 1.0), rng.uniform(1.0, 4.0)
        ring = [(-w, -h), (w, -h), (w, h), (-w, h)]
        if k % 3 == 2:
            ring = [(-w, -h), (0.0, -h), (w, -h), (w, h), (-w, h)]
        turned = shapely.affinity.rotate(shapely.Polygon(ring), rng.uniform(0, 360), (0, 0))
        bases.append(shapely.affinity.translate(turned, x, y))
    return bases


def _lines_about(rng: np.random.Generator, bases: list, count: int) -> tuple[Lines, np.ndarray]:
    """Lines from anywhere near the bases to anywhere near them, each against one base; some
    along a base's side (touching only) and some from a corner."""
    piece = rng.integers(0, len(bases), count)
    ends = rng.uniform(-3, 23, (count, 4))
    along = np.flatnonzero(rng.random(count) < 0.2)
    for k in along.tolist():
        ring = shapely.get_coordinates(bases[piece[k]].exterior)
        a = int(rng.integers(0, len(ring) - 1))
        p, q = ring[a], ring[a + 1]
        ends[k] = [*(p - 3 * (q - p)), *(q + 3 * (q - p))]
    return Lines(*ends.T), piece


def test_a_sure_hit_of_a_convex_base_is_a_hit_by_the_exact_test():
    """A line crossing a base's shrunk diagonal crosses its interior: GEOS (DE-9IM) and the
    exact edge test agree on every sure hit; the cheap test settles most real hits."""
    rng = np.random.default_rng(7)
    bases = _convex_bases(rng, 30)
    index = TerrainIndex.build([], []).with_convex([f"b{k}" for k in range(30)], bases)
    lines, piece = _lines_about(rng, bases, 4000)
    sure = diagonal_hits(index, lines, piece)
    segments = shapely.linestrings(
        np.stack((lines.ax, lines.ay, lines.bx, lines.by), 1).reshape(-1, 2, 2)
    )
    geos = shapely.relate_pattern(segments, index.geometries[piece], INTERIOR_PATTERN)
    assert not (sure & ~geos).any()
    assert (hits_among(index, lines, piece) == geos).all()
    assert (hits_among(index, lines, piece, inner_done=True) == geos).all()
    assert sure.sum() > 0.5 * geos.sum()


def test_without_the_bounding_disc_filter_the_answers_are_the_same():
    """`reaching` (the matrix's cone candidates) skips the bounding-disc filter: every test
    after it calls a line that misses the disc clear, so even lines far from their piece
    get GEOS's answer (GEO002.10), terrain and convex bases alike."""
    rng = np.random.default_rng(11)
    bases = _convex_bases(rng, 30)
    index = TerrainIndex.build(
        ["star", "disc"],
        [
            shapely.Polygon([(5, 5), (9, 6), (6, 7), (9, 9), (5, 8)]),
            shapely.Point(14, 14).buffer(2),
        ],
    ).with_convex([f"b{k}" for k in range(30)], bases)
    lines, piece = _lines_about(rng, bases, 4000)
    piece = np.where(rng.random(len(piece)) < 0.2, rng.integers(0, 2, len(piece)), piece + 2)
    segments = shapely.linestrings(
        np.stack((lines.ax, lines.ay, lines.bx, lines.by), 1).reshape(-1, 2, 2)
    )
    geos = shapely.relate_pattern(segments, index.geometries[piece], INTERIOR_PATTERN)
    reached = hits_among(index, lines, piece, inner_done=True, reaching=True)
    assert (reached == geos).all()
    assert 0.1 < geos.mean() < 0.9 and geos[piece < 2].any()


def test_a_line_along_a_straight_side_is_never_a_sure_hit():
    """A ring with a vertex in the middle of a side has a "diagonal" along that side: shrunk
    towards the centre, it lies inside, so a line along the side (touching only) is no hit."""
    ring = shapely.Polygon([(0, 0), (1, 0), (2, 0), (2, 4), (0, 4)])
    index = TerrainIndex.build([], []).with_convex(["ship"], [ring])
    lines = Lines(
        np.array([-1.0, -1.0]), np.array([0.0, 2.0]), np.array([3.0, 3.0]), np.array([0.0, 2.0])
    )
    piece = np.zeros(2, dtype=np.intp)
    assert diagonal_hits(index, lines, piece).tolist() == [False, True]
    assert hits_among(index, lines, piece).tolist() == [False, True]


def test_terrain_pieces_are_never_sure_hits_of_the_diagonal_test(index):
    lines = Lines(np.array([0.0]), np.array([12.0]), np.array([20.0]), np.array([12.0]))
    assert diagonal_hits(index, lines, np.array([0])).tolist() == [False]
    assert hits_among(index, lines, np.array([0])).tolist() == [True]


def _first_crossing_by_hand(index: TerrainIndex, start, end, piece: int) -> float:
    """Where the line first crosses an edge of the piece, edge by edge in Python floats (the
    same operations as `entry_fractions`), NaN where an edge lies along it or none is met."""
    ax, ay = start
    abx, aby = end[0] - ax, end[1] - ay
    first, doubtful = math.inf, False
    for e in range(int(index.edge_offsets[piece]), int(index.edge_offsets[piece + 1])):
        ox, oy = float(index.edge_x[e]) - ax, float(index.edge_y[e]) - ay
        ex, ey = float(index.edge_dx[e]), float(index.edge_dy[e])
        denominator = abx * ey - aby * ex
        side = ox * aby - oy * abx
        if denominator == 0.0:
            doubtful |= side == 0.0
            continue
        along, across = (ox * ey - oy * ex) / denominator, side / denominator
        if 0.0 <= along <= 1.0 and 0.0 <= across <= 1.0:
            first = min(first, along)
    return math.nan if doubtful or math.isinf(first) else first


def test_entry_fractions_are_each_edges_crossing_bit_for_bit(index):
    """GEO002.10's order of crossings: the pieces of each edge count measured together give
    each line's first crossing exactly as edge by edge, for pieces of 4, 5 and 64 edges
    mixed, from outside, along an edge and past every piece."""
    rng = np.random.default_rng(7)
    starts = rng.uniform((0.0, 0.0), (60.0, 25.0), (300, 2))
    ends = rng.uniform((0.0, 0.0), (60.0, 25.0), (300, 2))
    piece = rng.integers(0, len(index), 300)
    starts[:3], ends[:3], piece[:3] = (8.0, 10.0), (16.0, 10.0), 0  # along the square's side
    found = entry_fractions(index, starts, ends, piece)
    expected = [
        0.0 if index.geometries[p].intersects(shapely.Point(s)) else
        _first_crossing_by_hand(index, tuple(s), tuple(e), int(p))
        for s, e, p in zip(starts.tolist(), ends.tolist(), piece.tolist(), strict=True)
    ]  # fmt: skip
    assert np.array_equal(found, np.array(expected), equal_nan=True)
    assert np.isnan(found[:3]).all() and np.isfinite(found).sum() > 30


def test_a_line_clear_of_a_pieces_box_is_clear_by_the_exact_test():
    """GEO002.10: the box test lets through, as sure misses, only lines more than BOX_MARGIN
    from the piece (GEOS's distance), a turned base's rectangle, a round rock and a
    notched reef alike; a line grazing a side closer than that goes to the exact test."""
    base = shapely.affinity.rotate(shapely.box(19, 19, 21, 25), 30.0)
    index = TerrainIndex.build(["base", "rock", "reef"], [base, ROCK, REEF])
    rng = np.random.default_rng(11)
    starts = rng.uniform((0.0, 0.0), (60.0, 30.0), (4000, 2))
    ends = starts + rng.normal(0.0, 6.0, (4000, 2))
    piece = rng.integers(0, 3, 4000)
    lines = Lines.of(starts, ends)
    misses = _box_misses(index, lines, piece)
    segments = shapely.linestrings(np.stack((starts, ends), axis=1))
    gap = shapely.distance(segments, index.geometries[piece])
    assert misses.sum() > 1000 and (~misses).sum() > 100
    assert (gap[misses] > BOX_MARGIN).all()
    # a side of the base, and the same line moved off it by half the margin: never sure
    corner = shapely.get_coordinates(base)[:2]
    normal = np.array([corner[1, 1] - corner[0, 1], corner[0, 0] - corner[1, 0]])
    normal /= np.hypot(*normal)
    for shift in (0.0, BOX_MARGIN / 2, -BOX_MARGIN / 2):
        start, end = corner + shift * normal
        grazing = Lines.of(start[None, :], end[None, :])
        assert not _box_misses(index, grazing, np.array([0]))[0]
