"""Distances and witness segments (GEO002.3-GEO002.6, R002.14, R002.23, A002.11), range bands."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from geometry_helpers import bases, moved, poses
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tactical.errors import UserError
from tactical.geometry.measure import (
    LENGTH_TOLERANCE,
    BaseArrays,
    Measurement,
    band_indices,
    centre_distance_matrix,
    centre_to_centre,
    centre_to_nearest,
    edge_distance_matrix,
    edge_to_centre,
    edge_to_edge,
    measure,
    pair_edge_distances,
)
from tactical.geometry.shapes import CircleBase, Pose, RectBase, footprint

SHIP = RectBase(2.0, 4.0)  # 2" wide, 4" long
ROUND = CircleBase(2.0)  # radius 1"


def approx_point(point, expected, tol=1e-9):
    return point == pytest.approx(expected, abs=tol)


# --------------------------------------------------------------------------- hand-computed


def test_centre_to_centre_is_a_3_4_5_triangle_R002_23():
    """R002.23: Command Distance is measured centre to centre."""
    result = centre_to_centre(Pose(10, 10, 30), Pose(13, 14, 200))
    assert result == Measurement(5.0, (10.0, 10.0), (13.0, 14.0))


def test_edge_to_edge_of_two_aligned_rectangles():
    # both 2" wide x 4" long heading north; side by side 5" apart centre to centre
    result = edge_to_edge(Pose(0, 0, 0), SHIP, Pose(5, 0.5, 0), SHIP)
    assert result.distance == pytest.approx(3.0)
    assert result.start[0] == pytest.approx(1.0)
    assert result.end[0] == pytest.approx(4.0)
    assert result.start[1] == pytest.approx(result.end[1])


def test_edge_to_edge_of_a_crosswise_and_a_tilted_rectangle():
    # B heading 90 lies across: 4" along x, so its near side is x = 6 - 2 = 4; A's side x = 1
    crosswise = edge_to_edge(Pose(0, 0, 0), SHIP, Pose(6, 0, 90), SHIP)
    assert crosswise.distance == pytest.approx(3.0)
    # a 2" square turned 45° points a corner, sqrt(2) from its centre, at A's side
    tilted = edge_to_edge(Pose(0, 0, 0), RectBase(2, 2), Pose(5, 0, 45), RectBase(2, 2))
    assert tilted.distance == pytest.approx(5 - 1 - math.sqrt(2))
    assert approx_point(tilted.start, (1.0, 0.0))
    assert approx_point(tilted.end, (5 - math.sqrt(2), 0.0))


def test_circle_to_circle_is_exact():
    result = edge_to_edge(Pose(0, 0), ROUND, Pose(3, 4), CircleBase(4.0))
    assert result.distance == pytest.approx(5 - 1 - 2)
    assert approx_point(result.start, (0.6, 0.8))
    assert approx_point(result.end, (3 - 2 * 0.6, 4 - 2 * 0.8))


def test_circle_to_rect_beside_a_side_and_off_a_corner():
    # rect 2x4 at the origin heading north; circle of radius 1
    side = edge_to_edge(Pose(0, 0), SHIP, Pose(4, 0.5), ROUND)
    assert side.distance == pytest.approx(4 - 1 - 1)
    assert approx_point(side.start, (1.0, 0.5))
    assert approx_point(side.end, (3.0, 0.5))
    corner = edge_to_edge(Pose(0, 0), SHIP, Pose(4, 6), ROUND)
    # nearest corner (1, 2); centre (4, 6) is 5" away: 3-4-5
    assert corner.distance == pytest.approx(5 - 1)
    assert approx_point(corner.start, (1.0, 2.0))
    assert approx_point(corner.end, (4 - 0.6, 6 - 0.8))


def test_round_base_is_not_the_64_gon():
    """Exact circles: the 64-gon would be up to r(1 - cos(π/64)) short."""
    r = 10.0
    exact = edge_to_edge(Pose(0, 0), CircleBase(2 * r), Pose(30, 0, 0), RectBase(1, 1))
    direction = 360.0 / 128  # between two vertices of the 64-gon
    a = Pose(0, 0)
    b = Pose(30 * math.sin(math.radians(direction)), 30 * math.cos(math.radians(direction)))
    assert exact.distance == pytest.approx(30 - r - 0.5)
    polygon = footprint(a, CircleBase(2 * r))
    approx = shapely.distance(polygon, shapely.Point(b.x, b.y))
    exact_round = centre_to_nearest(b, a, CircleBase(2 * r)).distance
    assert exact_round == pytest.approx(30 - r)
    assert approx > exact_round + 1e-3


def test_overlapping_bases_measure_zero_with_a_common_witness_point():
    result = edge_to_edge(Pose(0, 0, 0), SHIP, Pose(1.5, 0, 30), SHIP)
    assert result.distance == 0.0
    assert result.start == result.end
    point = shapely.Point(result.start)
    assert footprint(Pose(0, 0, 0), SHIP).buffer(1e-9).contains(point)
    assert footprint(Pose(1.5, 0, 30), SHIP).buffer(1e-9).contains(point)


def test_crossing_rectangles_without_corners_inside_each_other_overlap():
    # a plus sign: neither rectangle has a corner inside the other
    result = edge_to_edge(Pose(0, 0, 0), RectBase(1, 6), Pose(0, 0, 90), RectBase(1, 6))
    assert result.distance == 0.0
    assert abs(result.start[0]) <= 0.5 + 1e-9 and abs(result.start[1]) <= 0.5 + 1e-9


def test_overlapping_circles_witness_lies_in_both():
    result = edge_to_edge(Pose(0, 0), CircleBase(4), Pose(3, 0), CircleBase(4))
    assert result.distance == 0.0
    assert approx_point(result.start, (1.5, 0.0))
    concentric = edge_to_edge(Pose(2, 2), CircleBase(4), Pose(2, 2), CircleBase(1))
    assert concentric == Measurement(0.0, (2.0, 2.0), (2.0, 2.0))


def test_centre_to_nearest_point_R002_14_and_A002_11():
    """R002.14 batteries measure from the centre; A002.11 Guardian to the nearest point."""
    result = centre_to_nearest(Pose(0, 0), Pose(5, 0, 0), SHIP)
    assert result == Measurement(4.0, (0.0, 0.0), (4.0, 0.0))
    inside = centre_to_nearest(Pose(0.5, 0.5), Pose(0, 0, 0), SHIP)
    assert inside == Measurement(0.0, (0.5, 0.5), (0.5, 0.5))


def test_edge_to_centre():
    result = edge_to_centre(Pose(0, 0, 90), SHIP, Pose(10, 0))
    assert result.distance == pytest.approx(8.0)
    assert approx_point(result.start, (2.0, 0.0))


@pytest.mark.parametrize(
    ("from_", "to", "expected"),
    [
        ("centre", "centre", 10.0),
        ("centre", "nearest", 8.0),
        ("edge", "centre", 9.0),
        ("edge", "nearest", 7.0),
    ],
)
def test_measure_every_convention(from_, to, expected):
    # A: 2"-wide ship heading north at the origin; B: 4"-wide ship heading north 10" east
    result = measure(Pose(0, 0), SHIP, Pose(10, 0), RectBase(4, 4), from_, to)
    assert result.distance == pytest.approx(expected)
    assert math.dist(result.start, result.end) == pytest.approx(expected)


def test_measure_rejects_unknown_conventions():
    with pytest.raises(UserError, match="measuring point"):
        measure(Pose(0, 0), SHIP, Pose(1, 1), SHIP, "middle", "centre")  # type: ignore[arg-type]
    with pytest.raises(UserError, match="measuring point"):
        measure(Pose(0, 0), SHIP, Pose(1, 1), SHIP, "centre", "edge")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- range bands


def test_band_indices_GEO002_7_bands_are_inclusive_G4():
    """GEO002.7: Range Bands 1-4 of 8"; "within X" is <= X (G.4)."""
    limits = [8, 16, 24, 32]
    distances = np.array([0.0, 7.9, 8.0, 8.000001, 16.0, 31.99, 32.0, 32.01, 100.0])
    assert band_indices(distances, limits).tolist() == [0, 0, 0, 1, 1, 3, 3, -1, -1]


def test_band_indices_GEO004_2_short_medium_long():
    """GEO004.2: e.g. Turbolaser 3-15/35/75: point blank below 3, out of range beyond 75."""
    limits = [3 - 1e-6, 15, 35, 75]  # below Short_min is the point-blank band 0
    assert band_indices(np.array([2.0, 3.0, 15.0, 35.5, 75.0, 80.0]), limits).tolist() == [
        0, 1, 1, 3, 3, -1,
    ]  # fmt: skip
    assert band_indices(5.0, [10.0]).tolist() == 0


def test_band_indices_reject_unsorted_limits():
    with pytest.raises(UserError, match="strictly increasing"):
        band_indices(np.array([1.0]), [8, 8, 16])


# --------------------------------------------------------------------------- properties


@settings(max_examples=150, deadline=None)
@given(poses, bases, poses, bases)
def test_distances_are_symmetric_and_non_negative(pose_a, base_a, pose_b, base_b):
    ab = edge_to_edge(pose_a, base_a, pose_b, base_b)
    ba = edge_to_edge(pose_b, base_b, pose_a, base_a)
    assert ab.distance >= 0.0
    assert ab.distance == pytest.approx(ba.distance, abs=1e-9)
    assert centre_to_centre(pose_a, pose_b).distance == pytest.approx(
        centre_to_centre(pose_b, pose_a).distance
    )


@settings(max_examples=150, deadline=None)
@given(poses, bases, poses, bases)
def test_edge_distance_at_most_centre_to_nearest_at_most_centre_distance(
    pose_a, base_a, pose_b, base_b
):
    edge = edge_to_edge(pose_a, base_a, pose_b, base_b).distance
    nearest = centre_to_nearest(pose_a, pose_b, base_b).distance
    centre = centre_to_centre(pose_a, pose_b).distance
    assert edge <= nearest + 1e-9
    assert nearest <= centre + 1e-9


@settings(max_examples=150, deadline=None)
@given(poses, bases, poses, bases)
def test_witness_segment_has_the_distance_and_ends_on_the_bases(pose_a, base_a, pose_b, base_b):
    result = edge_to_edge(pose_a, base_a, pose_b, base_b)
    assert math.dist(result.start, result.end) == pytest.approx(result.distance, abs=1e-9)
    for pose, base, point in ((pose_a, base_a, result.start), (pose_b, base_b, result.end)):
        # the witness point lies on (or in) the base: measured exactly, it is 0 away
        assert centre_to_nearest(Pose(*point), pose, base).distance <= 1e-9


@settings(max_examples=100, deadline=None)
@given(poses, bases, poses, bases)
def test_edge_distance_matches_a_fine_polygon_brute_force(pose_a, base_a, pose_b, base_b):
    from geometry_helpers import base_polygon

    exact = edge_to_edge(pose_a, base_a, pose_b, base_b).distance
    brute = shapely.distance(base_polygon(pose_a, base_a), base_polygon(pose_b, base_b))
    # inscribed 720-gons: at most r (1 - cos(π/720)) < 2e-5 r shorter per round base
    assert brute == pytest.approx(exact, abs=1e-4) or (exact == 0.0 and brute < 1e-4)


@settings(max_examples=100, deadline=None)
@given(poses, bases, poses, bases, st.floats(0, 360), st.floats(-50, 50), st.floats(-50, 50))
@example(Pose(0, 0, 0), CircleBase(1.0), Pose(0, 1e-9, 0), CircleBase(1.0), 0.0, 0.0, 1.0)
def test_rigid_motion_leaves_distances_unchanged(pose_a, base_a, pose_b, base_b, angle, sx, sy):
    shift = (sx, sy)
    for from_ in ("centre", "edge"):
        for to in ("centre", "nearest"):
            before = measure(pose_a, base_a, pose_b, base_b, from_, to).distance
            after = measure(
                moved(pose_a, angle, shift), base_a, moved(pose_b, angle, shift), base_b, from_, to
            ).distance
            # a gap within the touching slack (LENGTH_TOLERANCE) measures 0, and the same
            # gap moved can round just past it (1e-9 apart, shifted by 1: 1.00000008e-9)
            assert after == pytest.approx(before, abs=2 * LENGTH_TOLERANCE)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(poses, bases), min_size=1, max_size=12))
def test_vectorised_distances_agree_with_the_scalar_ones(units):
    pose_list = [p for p, _ in units]
    base_list = [b for _, b in units]
    arrays = BaseArrays.build(pose_list, base_list)
    edge = edge_distance_matrix(arrays)
    centre = centre_distance_matrix(arrays)
    for i, (pa, ba) in enumerate(units):
        for j, (pb, bb) in enumerate(units):
            if i == j:
                assert edge[i, j] == 0.0
                continue
            assert edge[i, j] == pytest.approx(edge_to_edge(pa, ba, pb, bb).distance, abs=1e-9)
            assert centre[i, j] == pytest.approx(centre_to_centre(pa, pb).distance, abs=1e-9)
    pairs = pair_edge_distances(arrays, np.zeros(len(units), dtype=int), np.arange(len(units)))
    assert pairs == pytest.approx(edge[0], abs=1e-12)


def test_base_arrays_with_pose_moves_one_unit():
    arrays = BaseArrays.build([Pose(0, 0), Pose(10, 0)], [SHIP, ROUND])
    moved_arrays = arrays.with_pose(1, Pose(3, 0, 90))
    assert moved_arrays.x.tolist() == [0.0, 3.0]
    assert arrays.x.tolist() == [0.0, 10.0]
    assert edge_distance_matrix(moved_arrays)[0, 1] == pytest.approx(1.0)
    with pytest.raises(UserError, match="one base per unit"):
        BaseArrays.build([Pose(0, 0)], [])
