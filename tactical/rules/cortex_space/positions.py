"""Where things stand on the table (GEO003.1-GEO003.7), asked of `tactical.geometry`.

Range bands are centre to centre (the system's conventions); proximity (contact for
collisions, strafing's 30 feet, "very close" for missile distraction) is base edge to
base edge, or base to terrain outline; wing formation is centre to centre with matching
speed and heading (GEO003.2). A vessel's velocity is its heading times its Speed, and
the collision direction follows GEO003.3.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from tactical.geometry import heading_vector
from tactical.geometry.measure import centre_to_centre, edge_to_edge
from tactical.geometry.movement_spec import Pivot, TurningRules
from tactical.model import Terrain, Unit
from tactical.rules.base import RangeBand, RangeBands, with_defaults
from tactical.rules.cortex_space.tables import RANGE_ORDER
from tactical.rules.cortex_space.units import OPTION_FIELDS, RANGE_OPTION, vessel

TOWARD_DEGREES = 45.0  # GEO003.3: theta < 45 toward, theta > 135 away
AWAY_DEGREES = 135.0
STRAFE_FEET = 30.0  # R003.22


def bands(options: Mapping[str, Any]) -> RangeBands:
    """GEO003.1 / GEO003.7: the five ordinal bands in inches from the options."""
    return RangeBands(
        tuple(RangeBand(name, float(options[RANGE_OPTION[name]])) for name in RANGE_ORDER)
    )


def range_table(unit: Unit, options: Mapping[str, Any]) -> RangeBands:
    """`RuleSystem.range_table` (GEO003.1 / GEO003.7): the five ordinal bands, the same for
    every unit."""
    return bands(with_defaults(OPTION_FIELDS, options))


def range_band(unit: Unit, distance: float, options: Mapping[str, Any]) -> str | None:
    """`RuleSystem.range_band` (GEO003.1 / GEO003.7): the ordinal band of a centre-to-centre
    distance."""
    return range_table(unit, options).band(distance)


def turning_rules(unit: Unit, options: Mapping[str, Any]) -> TurningRules:
    """`RuleSystem.turning_rules`: free turning about the centre; Speed x `inches_per_speed` a
    move (GEO003.7); no manoeuvres once the sublight engines are destroyed (R003.29)."""
    card = vessel(unit)
    per = float(with_defaults(OPTION_FIELDS, options)["inches_per_speed"])
    if card.sublight_destroyed:
        return TurningRules(
            pivot=Pivot.CENTRE,
            max_distance=0.0,
            max_turn_per_move=0.0,
            distance_rule="R003.29",
            move_turn_rule="R003.29",
        )
    return TurningRules(pivot=Pivot.CENTRE, max_distance=card.speed * per, distance_rule="GEO003.7")


def centre_distance(a: Unit, b: Unit) -> float:
    return centre_to_centre(a.pose, b.pose).distance


def edge_distance(a: Unit, b: Unit) -> float:
    return edge_to_edge(a.pose, a.base, b.pose, b.base).distance


def terrain_distance(unit: Unit, piece: Terrain) -> float:
    """Base to terrain outline (0 when they touch or overlap)."""
    return float(unit.footprint.distance(piece.geometry))


def band_of(distance: float, options: Mapping[str, Any]) -> str | None:
    """The range band of a centre-to-centre distance, None beyond long DRADIS."""
    return bands(options).band(distance)


def band_index(name: str) -> int:
    return RANGE_ORDER.index(name)


def strafe_inches(options: Mapping[str, Any]) -> float:
    """R003.22's 30 feet at the table's feet-to-inches scale (GEO003.7)."""
    return STRAFE_FEET / float(options["feet_per_inch"])


def velocity(unit: Unit) -> tuple[float, float]:
    """Heading x Speed (GEO003.7); a stationary obstacle has none."""
    dx, dy = heading_vector(unit.heading)
    speed = vessel(unit).speed
    return dx * speed, dy * speed


def collision_direction(
    pilot_xy: tuple[float, float],
    pilot_velocity: tuple[float, float],
    obstacle_xy: tuple[float, float],
    obstacle_velocity: tuple[float, float],
) -> str:
    """GEO003.3: the angle between the obstacle's velocity relative to the pilot and the line
    from the obstacle to the pilot: < 45 toward, > 135 away, else perpendicular (also when
    neither moves relative to the other)."""
    rvx = obstacle_velocity[0] - pilot_velocity[0]
    rvy = obstacle_velocity[1] - pilot_velocity[1]
    lx, ly = pilot_xy[0] - obstacle_xy[0], pilot_xy[1] - obstacle_xy[1]
    speed, length = math.hypot(rvx, rvy), math.hypot(lx, ly)
    if speed < 1e-9 or length < 1e-9:
        return "perpendicular"
    cosine = max(-1.0, min(1.0, (rvx * lx + rvy * ly) / (speed * length)))
    theta = math.degrees(math.acos(cosine))
    if theta < TOWARD_DEGREES:
        return "toward"
    if theta > AWAY_DEGREES:
        return "away"
    return "perpendicular"


def heading_difference(a: float, b: float) -> float:
    """The smaller angle between two headings, 0..180."""
    difference = abs(a - b) % 360.0
    return min(difference, 360.0 - difference)


def in_formation(joiner: Unit, wing: Unit, options: Mapping[str, Any]) -> bool:
    """GEO003.2 / R003.30: close together, same speed, same direction."""
    return (
        centre_distance(joiner, wing) <= float(options["wing_inches"]) + 1e-9
        and vessel(joiner).speed == vessel(wing).speed
        and heading_difference(joiner.heading, wing.heading)
        <= float(options["wing_heading_tolerance"]) + 1e-9
    )
