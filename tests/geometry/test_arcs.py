"""Relative bearings, quadrants and fire arcs (docs/architecture.md conventions; GEO001.7, GEO002.7,
GEO004.3, GEO004.4, R004.29, X004.13)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from geometry_helpers import base_polygon, bases, moved, poses
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tactical.errors import UserError
from tactical.geometry.arcs import (
    QUADRANT_NAMES,
    ArcMargin,
    angular_interval,
    arc_margin,
    arc_region,
    arcs_containing,
    bearing_in_sector,
    centre_arc,
    in_arc,
    point_in_arc,
    quadrant_index,
    quadrants_of,
    relative_bearing,
    relative_bearings,
)
from tactical.geometry.arcs_spec import (
    AFT,
    BROADSIDES,
    CHANNEL,
    FORE,
    OMNI,
    PORT,
    QUADRANTS,
    STARBOARD,
    TURRET_270,
    Sector,
)
from tactical.geometry.shapes import CircleBase, Pose, RectBase

ORIGIN = Pose(0, 0, 0)
SHIP = RectBase(2.0, 4.0)
SQUARE = RectBase(2.0, 2.0)
ROUND = CircleBase(2.0)


# --------------------------------------------------------------------------- bearings


@pytest.mark.parametrize(
    ("pose", "point", "bearing"),
    [
        (Pose(0, 0, 0), (0, 5), 0.0),
        (Pose(0, 0, 0), (5, 0), 90.0),
        (Pose(0, 0, 0), (0, -5), 180.0),
        (Pose(0, 0, 0), (-5, 0), 270.0),
        (Pose(10, 10, 90), (20, 10), 0.0),
        (Pose(10, 10, 90), (10, 20), 270.0),
        (Pose(10, 10, 270), (10, 20), 90.0),
        (Pose(0, 0, 30), (5, 0), 60.0),
    ],
)
def test_relative_bearing_is_clockwise_from_the_heading(pose, point, bearing):
    assert relative_bearing(pose, *point) == pytest.approx(bearing, abs=1e-12)


def test_relative_bearing_of_the_centre_itself_is_zero():
    assert relative_bearing(Pose(3, 4, 123), 3, 4) == 0.0
    vectorised = relative_bearings(np.array([3.0]), np.array([4.0]), 123.0, 3.0, 4.0)
    assert vectorised.tolist() == [0.0]


def test_relative_bearings_vectorised_match_the_scalar():
    pose = Pose(10, 20, 33)
    xs, ys = np.array([0.0, 15.0, 10.0, 40.0]), np.array([0.0, 25.0, 5.0, 20.0])
    expected = [relative_bearing(pose, x, y) for x, y in zip(xs, ys, strict=True)]
    assert relative_bearings(pose.x, pose.y, pose.heading, xs, ys) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("bearing", "names", "primary"),
    [
        (0.0, ("fore",), "fore"),
        (45.0, ("fore", "starboard"), "fore"),
        (90.0, ("starboard",), "starboard"),
        (135.0, ("starboard", "aft"), "starboard"),
        (180.0, ("aft",), "aft"),
        (225.0, ("aft", "port"), "aft"),
        (270.0, ("port",), "port"),
        (315.0, ("fore", "port"), "fore"),
        (359.9999999, ("fore",), "fore"),
    ],
)
def test_quadrants_lines_are_inclusive_and_centre_arc_picks_the_first(bearing, names, primary):
    """docs/architecture.md: a point on a line is in both arcs; centre_arc picks fore, starboard,
    aft, port in that order."""
    assert quadrants_of(bearing) == names
    assert centre_arc(bearing) == primary
    assert QUADRANT_NAMES[quadrant_index(np.array([bearing]))[0]] == primary


def test_a_point_exactly_on_an_arc_line_is_in_both_arcs():
    # a point at relative (1, 1) of a unit heading 30°: bearing 45 up to rounding
    pose = Pose(12, 7, 30)
    x, y = pose.to_world(1.0, 1.0)
    assert arcs_containing(pose, SHIP, QUADRANTS, Pose(x, y)) == ("fore", "starboard")
    assert point_in_arc(pose, SHIP, FORE, x, y) and point_in_arc(pose, SHIP, STARBOARD, x, y)


@given(st.floats(0.0, 360.0, exclude_max=True))
def test_the_four_quadrants_cover_every_bearing(bearing):
    names = quadrants_of(bearing)
    assert 1 <= len(names) <= 2
    assert centre_arc(bearing) in names
    assert QUADRANT_NAMES[quadrant_index(np.array([bearing]))[0]] == centre_arc(bearing)


def test_GEO001_7_facing_presented_comes_from_the_relative_bearing():
    """GEO001.7: the facing a ship presents to an attacker is the quadrant of the attacker
    as seen from the ship."""
    target = Pose(20, 20, 90)  # heading east
    assert centre_arc(relative_bearing(target, 20, 30)) == "port"  # attacker to the north
    assert centre_arc(relative_bearing(target, 30, 20)) == "fore"
    assert centre_arc(relative_bearing(target, 20, 10)) == "starboard"
    assert centre_arc(relative_bearing(target, 10, 20)) == "aft"


# --------------------------------------------------------------------------- sectors


@pytest.mark.parametrize(
    ("bearing", "inside"),
    [(0, True), (134.9, True), (135, True), (135.1, False), (180, False), (225, True), (300, True)],
)
def test_turret_270_arc_leaves_only_the_stern_out_GEO002_7(bearing, inside):
    """GEO002.7: 270° arc centred on the generator's facing, measured from its centre."""
    assert bearing_in_sector(bearing, TURRET_270) is inside
    x, y = ORIGIN.to_world(
        10 * math.sin(math.radians(bearing)), 10 * math.cos(math.radians(bearing))
    )
    assert point_in_arc(ORIGIN, SHIP, TURRET_270, x, y) is inside


def test_broadsides_cover_port_and_starboard_only():
    port, starboard = BROADSIDES
    assert arcs_containing(ORIGIN, SHIP, BROADSIDES, Pose(-10, 0)) == (port.name,)
    assert arcs_containing(ORIGIN, SHIP, BROADSIDES, Pose(10, 3)) == (starboard.name,)
    assert arcs_containing(ORIGIN, SHIP, BROADSIDES, Pose(0, 10)) == ()


def test_omni_and_full_sectors_hold_everything():
    everything = Sector("all", 0.0, 360.0)
    for target in (Pose(0, 10), Pose(-3, -4), Pose(0, 0)):
        assert in_arc(ORIGIN, SHIP, OMNI, target)
        assert in_arc(ORIGIN, SHIP, everything, target, ROUND, "any")


def test_any_part_reaches_an_arc_the_centre_does_not():
    """A 2" square centred at (8, 6) has its corner (7, 7) exactly on the 45° line."""
    target = Pose(8, 6, 0)
    assert arcs_containing(ORIGIN, SHIP, QUADRANTS, target, SQUARE, "centre") == ("starboard",)
    assert arcs_containing(ORIGIN, SHIP, QUADRANTS, target, SQUARE, "any") == (
        "fore",
        "starboard",
    )


def test_any_part_of_a_round_base_is_exact():
    # centre bearing 90, half-angle asin(1/10) = 5.74°: starboard only
    assert arcs_containing(ORIGIN, SHIP, QUADRANTS, Pose(10, 0), ROUND, "any") == ("starboard",)
    # centre (10, 9): bearing 48.01°, half-angle asin(1 / 13.45) = 4.26°: reaches fore
    assert arcs_containing(ORIGIN, SHIP, QUADRANTS, Pose(10, 9), ROUND, "any") == (
        "fore",
        "starboard",
    )
    # a disc touching the 45° line from the starboard side: centre bearing 45 + asin(r / d)
    angle = math.radians(45 + math.degrees(math.asin(1 / 10)))
    tangent = Pose(10 * math.sin(angle), 10 * math.cos(angle))
    assert arcs_containing(ORIGIN, SHIP, QUADRANTS, tangent, ROUND, "any") == (
        "fore",
        "starboard",
    )


def test_a_target_over_the_firers_centre_is_in_every_arc():
    big = RectBase(4.0, 4.0)
    target = Pose(1.0, 0.0, 20)  # covers the firer's centre
    assert arcs_containing(ORIGIN, SHIP, QUADRANTS, target, big, "any") == QUADRANT_NAMES
    assert arcs_containing(ORIGIN, SHIP, QUADRANTS, target, big, "centre") == ("starboard",)
    assert angular_interval(ORIGIN, target, big) is None
    # a target centre at the firer's very centre lies at the apex of every sector
    assert arcs_containing(ORIGIN, SHIP, QUADRANTS, ORIGIN, ROUND, "centre") == QUADRANT_NAMES


def test_angular_interval_of_a_square():
    low, width = angular_interval(ORIGIN, Pose(8, 6, 0), SQUARE)
    assert low == pytest.approx(45.0)
    assert width == pytest.approx(math.degrees(math.atan2(9, 5)) - 45.0)


def test_X004_13_a_target_in_two_arcs_R004_29():
    """X004.13: the Mon Calamari Cruiser lies in both the left and the front arc of the Star
    Destroyer (the firer then picks one, R004.29); the YT-1300 and the Corvette in the left only."""
    front, right, rear, left = (
        Sector("front", 315, 45),
        Sector("right", 45, 135),
        Sector("rear", 135, 225),
        Sector("left", 225, 315),
    )
    arcs = (front, right, rear, left)
    star_destroyer = Pose(36, 24, 0)
    yt_1300 = Pose(20, 26, 0)
    corvette = Pose(22, 18, 45)
    mon_cal = Pose(26, 34, 0)  # exactly on the 315° line from the Star Destroyer's centre
    for target in (yt_1300, corvette):
        assert arcs_containing(star_destroyer, RectBase(3, 8), arcs, target) == ("left",)
    assert arcs_containing(star_destroyer, RectBase(3, 8), arcs, mon_cal) == ("front", "left")
    # by any part of its base, a cruiser straddling the line is in both arcs too
    straddling = Pose(26.5, 34, 0)
    assert arcs_containing(
        star_destroyer, RectBase(3, 8), arcs, straddling, RectBase(2, 6), "any"
    ) == ("front", "left")


# --------------------------------------------------------------------------- channel


def test_channel_by_centre_is_the_corridor_ahead_of_the_front():
    """The fixed channel of a 2"-wide, 4"-long base: |x| <= 1 and y >= 2 in its frame."""
    assert point_in_arc(ORIGIN, SHIP, CHANNEL, 0.0, 30.0)
    assert point_in_arc(ORIGIN, SHIP, CHANNEL, 1.0, 10.0)  # on the side line
    assert point_in_arc(ORIGIN, SHIP, CHANNEL, 0.0, 2.0)  # on the front of the base
    assert not point_in_arc(ORIGIN, SHIP, CHANNEL, 1.01, 10.0)
    assert not point_in_arc(ORIGIN, SHIP, CHANNEL, 0.0, 1.9)
    turned = Pose(10, 10, 90)  # the corridor runs east
    assert point_in_arc(turned, SHIP, CHANNEL, 20.0, 10.5)
    assert not point_in_arc(turned, SHIP, CHANNEL, 10.0, 20.0)
    round_firer = CircleBase(3.0)  # corridor as wide as the diameter, from the front of the disc
    assert point_in_arc(ORIGIN, round_firer, CHANNEL, 1.5, 1.5)
    assert not point_in_arc(ORIGIN, round_firer, CHANNEL, 0.0, 1.4)


def test_channel_by_any_part_of_the_target():
    assert in_arc(ORIGIN, SHIP, CHANNEL, Pose(1.5, 10), ROUND, "any")  # round base reaches in
    assert not in_arc(ORIGIN, SHIP, CHANNEL, Pose(2.01, 10), ROUND, "any")
    assert in_arc(ORIGIN, SHIP, CHANNEL, Pose(0, 1.6), RectBase(1, 1), "any")  # top at y 2.1
    assert not in_arc(ORIGIN, SHIP, CHANNEL, Pose(0, 1.4), RectBase(1, 1), "any")
    # a 2" square turned 45°: its corner is sqrt(2) from the centre
    assert in_arc(ORIGIN, SHIP, CHANNEL, Pose(2.2, 10, 45), SQUARE, "any")
    assert not in_arc(ORIGIN, SHIP, CHANNEL, Pose(2.5, 10, 45), SQUARE, "any")
    assert not in_arc(ORIGIN, SHIP, CHANNEL, Pose(2.2, 10, 45), SQUARE, "centre")
    # a long target lying across the corridor, in front of and behind the base's front
    assert in_arc(ORIGIN, SHIP, CHANNEL, Pose(-5, 3, 90), RectBase(1, 20), "any")
    assert not in_arc(ORIGIN, SHIP, CHANNEL, Pose(-5, -3, 90), RectBase(1, 20), "any")


# --------------------------------------------------------------------------- margins


def test_arc_margin_in_degrees_positive_inside_negative_outside():
    def at(bearing: float) -> tuple[float, float]:
        return 10 * math.sin(math.radians(bearing)), 10 * math.cos(math.radians(bearing))

    assert arc_margin(ORIGIN, SHIP, FORE, *at(30)) == ArcMargin(pytest.approx(15.0), "degrees")
    assert arc_margin(ORIGIN, SHIP, FORE, *at(50)) == ArcMargin(pytest.approx(-5.0), "degrees")
    assert arc_margin(ORIGIN, SHIP, AFT, 0, -10) == ArcMargin(pytest.approx(45.0), "degrees")
    assert arc_margin(ORIGIN, SHIP, PORT, 0, -10) == ArcMargin(pytest.approx(-45.0), "degrees")
    on_line = arc_margin(ORIGIN, SHIP, FORE, 5, 5)
    assert on_line.value == pytest.approx(0.0, abs=1e-9) and on_line.value >= 0.0
    assert arc_margin(ORIGIN, SHIP, TURRET_270, 0, -10) == ArcMargin(
        pytest.approx(-45.0), "degrees"
    )
    assert arc_margin(ORIGIN, SHIP, OMNI, 3, 3).value == math.inf


def test_channel_margin_is_lateral_in_inches():
    assert arc_margin(ORIGIN, SHIP, CHANNEL, 0.5, 10) == ArcMargin(0.5, "inches")
    assert arc_margin(ORIGIN, SHIP, CHANNEL, -3, 10) == ArcMargin(-2.0, "inches")
    assert arc_margin(ORIGIN, SHIP, CHANNEL, 0, 0) == ArcMargin(-2.0, "inches")  # behind front


# --------------------------------------------------------------------------- drawing


def test_arc_region_quadrant_wedge():
    wedge = arc_region(Pose(10, 10, 90), SHIP, FORE, 10.0)
    assert wedge.is_valid
    assert wedge.area == pytest.approx(math.pi * 100 / 4, rel=1e-3)
    assert wedge.contains(shapely.Point(18, 10))  # dead ahead (east)
    assert not wedge.contains(shapely.Point(10, 18))  # to port


def test_arc_region_turret_channel_and_omni():
    turret = arc_region(ORIGIN, SHIP, TURRET_270, 10.0)
    assert turret.is_valid and turret.area == pytest.approx(0.75 * math.pi * 100, rel=1e-3)
    assert not turret.contains(shapely.Point(0, -5))
    channel = arc_region(ORIGIN, SHIP, CHANNEL, 10.0)
    expected = 2 * (0.5 * (math.sqrt(99) + 100 * math.asin(0.1))) - 2 * 2.0  # ∫ sqrt(100-x²) - 2
    assert channel.area == pytest.approx(expected, rel=1e-2)
    assert channel.bounds[1] == pytest.approx(2.0)
    assert arc_region(ORIGIN, SHIP, CHANNEL, 1.5).is_empty  # the disc ends before the front
    disc = arc_region(Pose(5, 5), SHIP, OMNI, 3.0)
    assert disc.area == pytest.approx(math.pi * 9, rel=1e-3)
    assert arc_region(ORIGIN, SHIP, FORE, 0.0).is_empty


def test_unknown_arc_test_is_a_user_error():
    with pytest.raises(UserError, match="arc test"):
        arcs_containing(ORIGIN, SHIP, QUADRANTS, Pose(1, 1), SHIP, "edge")  # type: ignore[arg-type]
    with pytest.raises(UserError, match="needs the target's base"):
        arcs_containing(ORIGIN, SHIP, QUADRANTS, Pose(1, 1), None, "any")


# --------------------------------------------------------------------------- properties


def _line_clearance(pose: Pose, target: Pose, base, arcs) -> float:
    """Smallest angle (degrees) between an arc line and the target's centre or extreme
    bearings, so property tests can stay clear of rounding at exact boundaries."""
    bearings = [relative_bearing(pose, target.x, target.y)]
    interval = angular_interval(pose, target, base)
    if interval is not None:
        bearings += [interval[0], interval[0] + interval[1]]
    lines = [a.start for a in arcs] + [a.end for a in arcs]
    return min(abs((b - line + 180) % 360 - 180) for b in bearings for line in lines)


def _scaled(base, factor: float):
    if isinstance(base, CircleBase):
        return CircleBase(base.diameter * factor)
    return RectBase(base.width * factor, base.length * factor)


def _stable(pose, base, target, target_base, arcs, test) -> bool:
    """Whether the answer survives growing or shrinking either base by a millionth
    (i.e. the case is not balanced on an arc line within rounding)."""
    answers = {
        arcs_containing(pose, _scaled(base, f), arcs, target, _scaled(target_base, g), test)
        for f in (1 - 1e-6, 1.0, 1 + 1e-6)
        for g in (1 - 1e-6, 1.0, 1 + 1e-6)
    }
    return len(answers) == 1


@settings(max_examples=150, deadline=None)
@given(poses, bases, poses, bases, st.floats(0, 360), st.floats(-40, 40), st.floats(-40, 40))
def test_rigid_motion_leaves_bearings_and_arcs_unchanged(pa, ba, pb, bb, angle, sx, sy):
    assume(math.dist((pa.x, pa.y), (pb.x, pb.y)) > 1e-3)
    arcs = (*QUADRANTS, TURRET_270, CHANNEL)
    assume(_line_clearance(pa, pb, bb, (*QUADRANTS, TURRET_270)) > 1e-6)
    ma, mb = moved(pa, angle, (sx, sy)), moved(pb, angle, (sx, sy))
    before = relative_bearing(pa, pb.x, pb.y)
    after = relative_bearing(ma, mb.x, mb.y)
    assert abs((after - before + 180) % 360 - 180) < 1e-7
    for test in ("centre", "any"):
        assume(_stable(pa, ba, pb, bb, arcs, test))
        assert arcs_containing(pa, ba, arcs, pb, bb, test) == arcs_containing(
            ma, ba, arcs, mb, bb, test
        )


@settings(max_examples=150, deadline=None)
@given(poses, poses, bases, st.sampled_from((*QUADRANTS, TURRET_270, *BROADSIDES)))
def test_any_part_sector_test_matches_a_brute_force_wedge(firer, target, base, sector):
    """The exact angular-interval test agrees with intersecting a (fine) wedge polygon."""
    assume(math.dist((firer.x, firer.y), (target.x, target.y)) > 0.1)
    assume(angular_interval(firer, target, base) is not None)
    assume(_line_clearance(firer, target, base, (sector,)) > 0.01)
    wedge = arc_region(firer, RectBase(1, 1), sector, 500.0)
    brute = wedge.intersects(base_polygon(target, base))
    assert in_arc(firer, RectBase(1, 1), sector, target, base, "any") == brute


@pytest.mark.parametrize("reversed_libm", [True, False])
def test_centre_angles_are_math_atan2_bit_for_bit(monkeypatch, reversed_libm):
    """The angles behind every arc margin (GEO004.3's scalar `arc_margin`) are math.atan2's,
    bit for bit, whether numpy's libm path over reversed arrays is taken or not:
    signed zeros, the tiniest and the largest offsets, and ordinary ones."""
    from tactical.geometry import margins

    monkeypatch.setattr(margins, "_libm_when_reversed", lambda: reversed_libm)
    rng = np.random.default_rng(3)
    edge = [0.0, -0.0, 5e-324, -5e-324, 1e308, -1e308, 2.5, -2.5]
    dx = np.concatenate((np.repeat(edge, len(edge)), rng.normal(0.0, 80.0, 3000)))
    dy = np.concatenate((np.tile(edge, len(edge)), rng.normal(0.0, 80.0, 3000)))
    found = margins._atan2(dx, dy)
    expected = np.array([math.atan2(a, b) for a, b in zip(dx.tolist(), dy.tolist(), strict=True)])
    assert found.view(np.int64).tolist() == expected.view(np.int64).tolist()
