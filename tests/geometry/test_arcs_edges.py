"""Fire arcs at their edges: channels of turned and round-based firers,
rectangles turned near the corridor, tuples mixing sectors with channels and all-round
arcs, the angular interval of turned bases, margins and drawn regions (GEO004.3,
GEO004.4, R004.29)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

from tactical.errors import UserError
from tactical.geometry.arcs import (
    ArcMargin,
    angular_interval,
    arc_margin,
    arc_region,
    arcs_containing,
    bearing_in_sector,
    in_arc,
    pair_arc_masks,
    point_in_arc,
    relative_bearing,
    relative_bearings,
)
from tactical.geometry.arcs_spec import AFT, CHANNEL, FORE, OMNI, PORT, STARBOARD, Sector
from tactical.geometry.measure import BaseArrays
from tactical.geometry.shapes import CircleBase, Pose, RectBase, base_corners, footprint

FULL = Sector("full", 90.0, 90.0)  # a span of 360: every bearing
ROUND = CircleBase(2.0)  # radius 1
LONG = RectBase(2.0, 6.0)  # half width 1, half length 3


def _cases(count: int, seed: int):
    """Firers and targets at turned headings, rectangular and round, near each other."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        firer = Pose(*rng.uniform(20, 30, 2), rng.uniform(0, 360))
        target = Pose(*rng.uniform(12, 38, 2), rng.uniform(0, 360))
        firer_base = LONG if rng.random() < 0.5 else ROUND
        target_base = RectBase(*rng.uniform(0.5, 4.0, 2)) if rng.random() < 0.7 else ROUND
        yield firer, firer_base, target, target_base


# --------------------------------------------------------------------------- channels


@pytest.mark.parametrize("firer_base", [LONG, ROUND], ids=["rect", "round"])
def test_GEO004_3_channel_any_part_is_the_corridor_region_for_turned_bases(firer_base):
    """`arcs_containing` by any part of the base agrees with the drawn corridor meeting the
    target's footprint, and by centre with the corridor holding the centre, for turned
    firers and turned rectangles near the corridor (clear of its lines by 1e-6)."""
    checked = 0
    for firer, _, target, target_base in _cases(400, 5):
        corridor = arc_region(firer, firer_base, CHANNEL, 200.0)
        shape = footprint(target, target_base)
        if isinstance(target_base, RectBase):
            clear = shapely.distance(corridor.boundary, shape.boundary)
        else:
            clear = abs(shapely.distance(corridor, shapely.Point(target.x, target.y)) - 1.0)
        if clear < 1e-6:
            continue
        any_part = arcs_containing(firer, firer_base, (CHANNEL,), target, target_base, "any")
        assert bool(any_part) == corridor.intersects(shape), (firer, target, target_base)
        centre = in_arc(firer, firer_base, CHANNEL, target, None, "centre")
        assert centre == corridor.contains(shapely.Point(target.x, target.y))
        checked += 1
    assert checked > 300


def test_GEO004_3_a_turned_rectangle_corner_reaching_into_the_corridor_counts():
    """Firer facing 90° (east): the corridor is y in [9, 11] from x = 13 on. A rectangle
    turned 45° whose centre is 1.3" north of the corridor's edge reaches it with a corner
    (half diagonal 1.414), one turned 0° does not (half width 1)."""
    firer = Pose(10.0, 10.0, 90.0)
    turned = Pose(20.0, 11.0 + 1.3, 45.0)
    square = RectBase(2.0, 2.0)
    assert in_arc(firer, LONG, CHANNEL, turned, square, "any")
    assert not in_arc(firer, LONG, CHANNEL, Pose(20.0, 12.3, 0.0), square, "any")
    assert not in_arc(firer, LONG, CHANNEL, turned, square, "centre")


def test_R004_29_mixed_arc_tuples_answer_arc_by_arc_in_order():
    """A tuple mixing a channel, sectors and an all-round arc names every arc holding the
    target, in the tuple's order, exactly as asking arc by arc does."""
    mixes = [
        (CHANNEL, FORE, OMNI, AFT),
        (OMNI, STARBOARD, CHANNEL, PORT),
        (FORE, FULL, AFT, CHANNEL),
        (PORT, CHANNEL),
    ]
    for firer, firer_base, target, target_base in _cases(60, 11):
        for arcs in mixes:
            for test in ("centre", "any"):
                named = arcs_containing(firer, firer_base, arcs, target, target_base, test)
                one_by_one = tuple(
                    arc.name
                    for arc in arcs
                    if in_arc(firer, firer_base, arc, target, target_base, test)
                )
                assert named == one_by_one
                assert OMNI.name in named or OMNI not in arcs
                assert FULL.name in named or FULL not in arcs


# --------------------------------------------------------------------------- interval


def _interval_by_corners(firer: Pose, target: Pose, base: RectBase) -> tuple[float, float]:
    centre = relative_bearing(firer, target.x, target.y)
    offsets = [
        (relative_bearing(firer, x, y) - centre + 180.0) % 360.0 - 180.0
        for x, y in base_corners(target, base)
    ]
    return (centre + min(offsets)) % 360.0, max(offsets) - min(offsets)


def test_angular_interval_of_turned_rectangles_spans_their_corners():
    checked = 0
    for firer, _, target, base in _cases(300, 17):
        if not isinstance(base, RectBase):
            continue
        interval = angular_interval(firer, target, base)
        if footprint(target, base).buffer(1e-6).contains(shapely.Point(firer.x, firer.y)):
            assert interval is None
            continue
        low, width = interval
        expected_low, expected_width = _interval_by_corners(firer, target, base)
        assert width == pytest.approx(expected_width, abs=1e-9)
        assert math.cos(math.radians(low - expected_low)) == pytest.approx(1.0, abs=1e-12)
        checked += 1
    assert checked > 150


def test_angular_interval_of_a_round_base_is_the_tangents():
    firer = Pose(3.0, -2.0, 70.0)
    low, width = angular_interval(firer, Pose(9.0, 6.0), CircleBase(4.0))
    half = math.degrees(math.asin(2.0 / 10.0))
    assert width == pytest.approx(2 * half, abs=1e-12)
    centre = relative_bearing(firer, 9.0, 6.0)
    assert low == pytest.approx((centre - half) % 360.0, abs=1e-9)


def test_angular_interval_of_a_small_far_target_is_narrow():
    low, width = angular_interval(Pose(0.0, 0.0), Pose(0.0, 100.0), RectBase(1.0, 1.0))
    assert width == pytest.approx(2 * math.degrees(math.atan2(0.5, 99.5)), abs=1e-9)
    assert low == pytest.approx(360.0 - math.degrees(math.atan2(0.5, 99.5)), abs=1e-9)


@pytest.mark.parametrize(
    ("local", "inside"),
    [((0.0, 0.0), True), ((0.99, 2.99), True), ((1.5, 0.0), False), ((0.0, 3.5), False),
     ((1.0, 3.0), True), ((1.2, 3.2), False)],
)  # fmt: skip
def test_angular_interval_is_none_only_with_the_firer_inside_the_footprint(local, inside):
    """A 2" x 6" base turned 30° at (20, 12): the firer's centre at the given offsets across
    and along the base (its corner (1, 3) included)."""
    target = Pose(20.0, 12.0, 30.0)
    x, y = target.to_world(*local)
    interval = angular_interval(Pose(x, y, 200.0), target, LONG)
    assert (interval is None) == inside


# --------------------------------------------------------------------------- margins


def test_full_sectors_and_all_round_arcs_have_an_infinite_margin():
    for arc in (FULL, OMNI):
        assert arc_margin(Pose(3.0, 4.0, 10.0), ROUND, arc, 50.0, -7.0) == ArcMargin(
            math.inf, "degrees"
        )


def test_sector_margin_is_zero_within_the_tolerance_of_a_line():
    firer = Pose(0.0, 0.0, 0.0)
    on_line = math.radians(45.0 + 1e-10)  # 1e-10° past the fore arc's line
    margin = arc_margin(firer, ROUND, FORE, 10 * math.sin(on_line), 10 * math.cos(on_line))
    assert margin == ArcMargin(0.0, "degrees")
    assert arc_margin(firer, ROUND, FORE, 0.0, 10.0) == ArcMargin(45.0, "degrees")


@pytest.mark.parametrize(
    ("base", "half", "front"), [(ROUND, 1.0, 1.0), (LONG, 1.0, 3.0), (RectBase(3.0, 2.0), 1.5, 1.0)]
)
def test_channel_margin_of_a_turned_firer_in_its_own_frame(base, half, front):
    """Points placed across (x) and along (y) the firer's own axes: inside, the distance to
    the nearer side; at the front line, still inside; behind it, minus the distance to the
    corridor."""
    firer = Pose(12.0, 7.0, 30.0)
    for across, along, expected in [
        (0.3, front + 4.0, half - 0.3),
        (-0.7, front + 1.0, half - 0.7),
        (0.2, front, half - 0.2),
        (half + 2.0, front - 1.0, -math.hypot(2.0, 1.0)),
        (-0.4, front - 1.5, -1.5),
    ]:
        margin = arc_margin(firer, base, CHANNEL, *firer.to_world(across, along))
        assert margin.unit == "inches"
        assert margin.value == pytest.approx(expected, abs=1e-9), (across, along)


def test_point_in_arc_reads_the_point_itself():
    firer = Pose(12.0, 7.0, 30.0)
    assert point_in_arc(firer, LONG, CHANNEL, *firer.to_world(0.5, 3.5))
    assert not point_in_arc(firer, LONG, CHANNEL, *firer.to_world(0.5, 2.5))
    assert point_in_arc(firer, LONG, AFT, *firer.to_world(0.5, -2.5))


# --------------------------------------------------------------------------- regions


def _vertex_bearings(region: shapely.Polygon, pose: Pose) -> list[float]:
    return [relative_bearing(pose, x, y) for x, y in region.exterior.coords[:-1]]


def test_a_full_arc_is_drawn_as_a_disc_with_a_vertex_every_2_degrees_from_dead_ahead():
    pose = Pose(10.0, 10.0, 30.0)
    for arc in (FULL, OMNI):
        region = arc_region(pose, ROUND, arc, 0.5)
        bearings = _vertex_bearings(region, pose)
        assert len(bearings) == 180
        assert bearings == pytest.approx([2.0 * k for k in range(180)], abs=1e-9)
        assert region.area == pytest.approx(180 * 0.25 * math.sin(math.radians(2.0)) / 2)


def test_sector_regions_use_the_fewest_steps_of_at_most_2_degrees():
    pose = Pose(0.0, 0.0, 0.0)
    narrow = arc_region(pose, ROUND, Sector("narrow", 10.0, 11.0), 5.0)
    assert len(narrow.exterior.coords) == 4  # the apex and the two ends of the arc
    fore = arc_region(pose, ROUND, FORE, 5.0)
    assert len(fore.exterior.coords) == 1 + 46 + 1  # apex, 45 steps of 2°, closed


def test_a_round_firer_channel_region_starts_at_the_front_of_its_base():
    pose = Pose(0.0, 0.0, 0.0)
    region = arc_region(pose, ROUND, CHANNEL, 5.0)
    minx, miny, maxx, maxy = region.bounds
    assert (minx, maxx, miny) == pytest.approx((-1.0, 1.0, 1.0))
    assert maxy == pytest.approx(5.0, abs=1e-3)
    assert arc_region(pose, ROUND, CHANNEL, 1.0).is_empty
    assert arc_region(pose, LONG, CHANNEL, 3.5).bounds[1] == pytest.approx(3.0)
    assert arc_region(pose, ROUND, CHANNEL, 0.0).is_empty


def test_a_channel_region_ends_on_the_disc_with_a_vertex_every_2_degrees():
    """The corridor of a round base (half width 1) clipped at 5": its far edge follows the
    drawn disc, whose vertices lie every 2° from dead ahead (asin(1/5) = 11.5° each side)."""
    pose = Pose(0.0, 0.0, 0.0)
    region = arc_region(pose, ROUND, CHANNEL, 5.0)
    far = [
        (x, y)
        for x, y in region.exterior.coords[:-1]
        if math.hypot(x, y) > 5.0 - 1e-9 and abs(x) < 1.0 - 1e-9
    ]
    bearings = sorted(round(relative_bearing(pose, x, y), 9) for x, y in far)
    assert bearings == [0, 2, 4, 6, 8, 10, 350, 352, 354, 356, 358]
    assert region.bounds[3] == pytest.approx(5.0, abs=1e-12)


def test_the_channel_front_line_itself_is_inside():
    """Exactly on the front of the base (no rounding: the firer at the origin, heading 0)."""
    margin = arc_margin(Pose(0.0, 0.0, 0.0), LONG, CHANNEL, 0.25, 3.0)
    assert margin == ArcMargin(0.75, "inches")


@pytest.mark.parametrize("use", ["draw", "margin", "test"])
def test_an_unknown_arc_is_refused_by_name(use):
    with pytest.raises(UserError) as refused:
        if use == "draw":
            arc_region(Pose(0.0, 0.0), ROUND, "fore", 5.0)
        elif use == "margin":
            arc_margin(Pose(0.0, 0.0), ROUND, "fore", 1.0, 1.0)
        else:
            arcs_containing(Pose(0.0, 0.0), ROUND, ("fore",), Pose(0.0, 5.0), ROUND, "any")
    assert refused.value.message == "unknown arc 'fore': expected a Sector, Channel or Omni"


# --------------------------------------------------------------------------- vectorised


def test_pair_arc_masks_of_small_rectangles_agree_with_the_per_pair_test():
    """Rectangles no bigger than 2" x 2" (half sizes at most 1) among round bases: the
    vectorised masks, for one firer against every unit or a chosen few, are the per-pair
    answers by centre and by any part of the base."""
    rng = np.random.default_rng(23)
    count = 24
    poses = [Pose(*rng.uniform(0, 12, 2), rng.uniform(0, 360)) for _ in range(count)]
    bases = [
        RectBase(*rng.uniform(0.3, 2.0, 2)) if k % 3 else CircleBase(rng.uniform(0.3, 2.0))
        for k in range(count)
    ]
    units = BaseArrays.build(poses, bases)
    arcs = (FORE, STARBOARD, CHANNEL, AFT, PORT)
    for i in range(0, count, 5):
        bearing = relative_bearings(units.x[i], units.y[i], units.heading[i], units.x, units.y)
        every = pair_arc_masks(units, i, slice(None), arcs, bearing)
        chosen = np.arange(1, count, 2)
        few = pair_arc_masks(units, i, chosen, arcs, bearing[chosen])
        for j in range(count):
            if j == i:
                continue
            for test, column in (("centre", 0), ("any", 1)):
                expected = arcs_containing(poses[i], bases[i], arcs, poses[j], bases[j], test)
                got = tuple(arc.name for arc, inside in zip(arcs, every[column][j], strict=True)
                            if inside)  # fmt: skip
                assert got == expected, (i, j, test)
                if j % 2:
                    mask = few[column][(j - 1) // 2]
                    assert tuple(a.name for a, m in zip(arcs, mask, strict=True) if m) == expected


def test_bearing_in_sector_edges():
    assert bearing_in_sector(123.0, FULL)
    assert bearing_in_sector(315.0 - 5e-10, FORE)  # within the tolerance of the first line
    assert not bearing_in_sector(315.0 - 1e-8, FORE)
    assert bearing_in_sector(45.0 + 5e-10, FORE) and not bearing_in_sector(45.0 + 1e-8, FORE)


def test_arc_refusals_read_whole():
    with pytest.raises(UserError) as refused:
        arcs_containing(Pose(0, 0), ROUND, (FORE,), Pose(0, 5), None, "any")
    assert refused.value.message == "the 'any part of the base' arc test needs the target's base"
    with pytest.raises(UserError) as refused:
        arcs_containing(Pose(0, 0), "saucer", (FORE,), Pose(0, 5), ROUND, "any")
    assert refused.value.message == "unknown base 'saucer': expected a RectBase or a CircleBase"


@pytest.mark.parametrize(
    ("target", "inside"),
    [
        (Pose(2.0, 10.0), True),  # its port side on the corridor's starboard line
        (Pose(-2.0, 10.0), True),  # its starboard side on the port line
        (Pose(2.0 + 1e-6, 10.0), False),
        (Pose(0.0, 2.0), True),  # its front on the front of the firer's base
        (Pose(0.0, 2.0 - 1e-6), False),
    ],
)
def test_GEO004_3_a_base_touching_the_corridor_is_in_it(target, inside):
    """The corridor of a 2" x 6" base at the origin facing 0: x in [-1, 1], y from 3. A
    2" square or a 2" round base touching its side or front line is in the channel
    (boundary included)."""
    firer = Pose(0.0, 0.0, 0.0)
    assert in_arc(firer, LONG, CHANNEL, target, RectBase(2.0, 2.0), "any") == inside
    assert in_arc(firer, LONG, CHANNEL, target, ROUND, "any") == inside


def test_GEO004_3_turned_rectangles_at_the_corridor_front_corners():
    """Rectangles turned every way around the front corners of the corridor, where its
    sides and front meet (the boxes of the two frames overlap there without the shapes
    touching): by any part of the base, the channel agrees with the drawn region."""
    rng = np.random.default_rng(29)
    firer = Pose(10.0, 10.0, 35.0)
    corridor = arc_region(firer, LONG, CHANNEL, 200.0)
    checked = 0
    for _ in range(600):
        corner_x = 1.0 if rng.random() < 0.5 else -1.0
        x, y = firer.to_world(corner_x + rng.uniform(-2.5, 2.5), 3.0 + rng.uniform(-2.5, 2.5))
        target = Pose(x, y, rng.uniform(0, 360))
        base = RectBase(*rng.uniform(0.3, 3.0, 2))
        shape = footprint(target, base)
        gap, overlap = shapely.distance(corridor, shape), corridor.intersection(shape).area
        if gap < 1e-6 and overlap < 1e-9:  # touching within rounding: either answer
            continue
        any_part = in_arc(firer, LONG, CHANNEL, target, base, "any")
        assert any_part == corridor.intersects(shape), (target, base)
        checked += 1
    assert checked > 500


def test_GEO004_3_a_bearing_a_hair_below_360_is_on_a_line_at_0():
    """A target 1e-11° to port of dead ahead lies on the first line of a sector starting
    at 0 (within the tolerance), by centre and by any part, in the vectorised test too."""
    firer = Pose(5.0, 5.0, 0.0)
    ahead = Pose(5.0 - 10.0 * math.sin(math.radians(1e-11)), 15.0)
    quarter = Sector("quarter", 0.0, 90.0)
    assert relative_bearing(firer, ahead.x, ahead.y) > 359.0
    for test in ("centre", "any"):
        assert arcs_containing(firer, ROUND, (quarter, AFT), ahead, ROUND, test) == ("quarter",)


def test_GEO004_3_turned_rectangles_across_the_quadrant_lines():
    """Rectangles turned every way with their centres near the quadrant lines: by any part
    of the base, the quadrants named are those whose drawn wedge meets the footprint."""
    rng = np.random.default_rng(31)
    firer = Pose(20.0, 20.0, 20.0)
    quadrants = (FORE, STARBOARD, AFT, PORT)
    wedges = [arc_region(firer, ROUND, arc, 100.0) for arc in quadrants]
    checked = 0
    for _ in range(400):
        line = rng.choice([45.0, 135.0, 225.0, 315.0]) + rng.uniform(-25.0, 25.0)
        distance = rng.uniform(2.5, 9.0)
        x, y = firer.to_world(
            distance * math.sin(math.radians(line)), distance * math.cos(math.radians(line))
        )
        target, base = Pose(x, y, rng.uniform(0, 360)), RectBase(*rng.uniform(0.5, 4.0, 2))
        shape = footprint(target, base)
        if shape.buffer(1e-6).contains(shapely.Point(firer.x, firer.y)):
            continue
        near = [
            shapely.distance(w.boundary, shape) < 1e-6 and w.intersection(shape).area < 1e-9
            for w in wedges
        ]
        if any(near):
            continue
        expected = tuple(
            a.name for a, w in zip(quadrants, wedges, strict=True) if w.intersects(shape)
        )
        assert arcs_containing(firer, ROUND, quadrants, target, base, "any") == expected
        checked += 1
    assert checked > 300
