"""Relative bearings, quadrants and fire arcs (DESIGN.md conventions; GEO001.7, GEO002.7,
GEO004.3, GEO004.4, R004.29).

Arcs are data (`tactical.geometry.arcs_spec`): a `Sector` of relative bearings
measured from the unit's centre, a `Channel` (the corridor straight ahead of the
base, as wide as the base, from the front of the base), or `Omni`.

Exactness:
- angles are compared with a tolerance of `ANGLE_TOLERANCE` (1e-9 degrees), so
  a point exactly on an arc line is inside both arcs that share it;
- "any part of the base" for a sector: a convex target not containing the
  firer's centre spans an exact angular interval (its corners, or centre
  bearing +/- asin(r/d) for a round base), and it is in the sector when that
  interval overlaps the sector; a target whose footprint contains the firer's
  centre (or a target centre at the firer's centre, for the centre test) is in
  every sector, since the apex belongs to every closed sector;
- the channel test is a plain region test: the target's centre, or any part
  of its base, lies in the corridor (boundary included).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import shapely
from shapely.geometry import Polygon

from tactical.errors import UserError
from tactical.geometry.arcs_spec import QUADRANTS, ArcSpec, Channel, Omni, Sector
from tactical.geometry.measure import LENGTH_TOLERANCE, BaseArrays, sin_cos_degrees
from tactical.geometry.shapes import Base, CircleBase, Pose, RectBase, normalise_heading

ANGLE_TOLERANCE = 1e-9  # degrees
QUADRANT_NAMES: tuple[str, ...] = tuple(q.name for q in QUADRANTS)  # fore, starboard, aft, port
ARC_STEP_DEGREES = 2.0  # arc_region draws curved edges with a vertex at least every 2°

ArcTest = Literal["centre", "any"]


# --------------------------------------------------------------------------- bearings


def relative_bearing(pose: Pose, x: float, y: float) -> float:
    """Bearing of (x, y) from the unit's heading, clockwise, in [0, 360).

    A point at the unit's very centre has bearing 0 (dead ahead), whatever the heading.
    """
    dx, dy = x - pose.x, y - pose.y
    if dx == 0.0 and dy == 0.0:
        return 0.0
    return normalise_heading(math.degrees(math.atan2(dx, dy)) - pose.heading)


def wrap_degrees(values: np.ndarray) -> np.ndarray:
    """Angles in (-720, 720) mapped to [0, 360) without the slow float modulo."""
    values = np.where(values < 0.0, values + 360.0, values)
    values = np.where(values < 0.0, values + 360.0, values)
    values = np.where(values >= 360.0, values - 360.0, values)
    return np.where(values >= 360.0, values - 360.0, values)


def relative_bearings(
    x: np.ndarray, y: np.ndarray, heading: np.ndarray, tx: np.ndarray, ty: np.ndarray
) -> np.ndarray:
    """Vectorised `relative_bearing` (arrays broadcast): bearing of (tx, ty) from each pose."""
    dx, dy = tx - x, ty - y
    absolute = np.degrees(np.arctan2(dx, dy))
    return np.where((dx == 0.0) & (dy == 0.0), 0.0, wrap_degrees(absolute - heading))


def bearing_in_sector(bearing: float, sector: Sector) -> bool:
    """Whether a relative bearing lies in the sector, both lines inclusive."""
    if sector.span >= 360.0:
        return True
    offset = (bearing - sector.start) % 360.0
    return offset <= sector.span + ANGLE_TOLERANCE or offset >= 360.0 - ANGLE_TOLERANCE


def quadrants_of(bearing: float) -> tuple[str, ...]:
    """Every standard quadrant holding the bearing: two on a quadrant line (DESIGN.md)."""
    return tuple(q.name for q in QUADRANTS if bearing_in_sector(bearing, q))


def centre_arc(bearing: float) -> str:
    """The one quadrant to report for a bearing: the first of fore, starboard, aft, port
    that holds it (so 45 is fore, 135 starboard, 225 aft, 315 fore)."""
    return quadrants_of(bearing)[0]


def quadrant_index(bearings: np.ndarray) -> np.ndarray:
    """Vectorised `centre_arc` as an index into QUADRANT_NAMES."""
    b = np.asarray(bearings, dtype=float)
    tol = ANGLE_TOLERANCE
    index = np.full(b.shape, 3, dtype=np.int8)
    index[(b >= 135.0 - tol) & (b <= 225.0 + tol)] = 2
    index[(b >= 45.0 - tol) & (b <= 135.0 + tol)] = 1
    index[(b >= 315.0 - tol) | (b <= 45.0 + tol)] = 0
    return index


# --------------------------------------------------------------------------- arc tests


def _near_zero(bearings: np.ndarray) -> np.ndarray:
    """Bearings in [0, 360) with those within the tolerance below 360 moved just below 0,
    so one wrap-around test per sector suffices."""
    return np.where(bearings > 360.0 - ANGLE_TOLERANCE, bearings - 360.0, bearings)


def _base_core(base: Base) -> tuple[float, float, float]:
    if isinstance(base, CircleBase):
        return 0.0, 0.0, base.radius
    if isinstance(base, RectBase):
        return base.width / 2, base.length / 2, 0.0
    raise UserError(f"unknown base {base!r}: expected a RectBase or a CircleBase")


def _corners(t_sin, t_cos, t_hw, t_hl) -> tuple:
    """Offsets from a rectangle's centre to its front-port and front-starboard corners
    (the other two are their opposites)."""
    wx, wy = t_hw * t_cos, -t_hw * t_sin  # half width along the starboard axis
    lx, ly = t_hl * t_sin, t_hl * t_cos  # half length along the heading
    return lx - wx, ly - wy, lx + wx, ly + wy


def _kernel(
    firer: tuple,
    target: tuple,
    arcs: Sequence[ArcSpec],
    bearing: np.ndarray,
    corners: tuple | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """In-arc masks by centre and by any part, vectorised over broadcasting firer/target arrays.

    `firer` and `target` are (x, y, sin, cos, half_width, half_length, radius) tuples;
    `bearing` the relative bearing of each target centre; `corners` the targets'
    `_corners` if any is rectangular (None: all round). Returns two (..., A) masks.
    """
    fx, fy, f_sin, f_cos, f_hw, f_hl, f_r = firer
    tx, ty, t_sin, t_cos, t_hw, t_hl, t_r = target
    dx, dy = np.asarray(tx - fx, dtype=float), np.asarray(ty - fy, dtype=float)
    distance2 = dx * dx + dy * dy
    shape = np.shape(distance2)
    count = len(arcs)
    by_centre = np.empty((*shape, count), dtype=bool)
    by_any = np.empty((*shape, count), dtype=bool)
    sectors = [k for k, a in enumerate(arcs) if isinstance(a, Sector) and a.span < 360.0]
    if sectors:
        centre_bearing = _near_zero(bearing)
        if corners is None:  # round targets: centre bearing +/- asin(r / d)
            distance = np.sqrt(distance2)
            contains = distance <= t_r + LENGTH_TOLERANCE
            ratio = np.divide(t_r, distance, out=np.ones(shape), where=~contains)
            half = np.arcsin(np.minimum(ratio, 1.0)) * _DEGREES
            low, width = bearing - half, half + half
        else:
            # the firer's centre in the target's frame: inside the target's footprint?
            ex = np.abs(dy * t_sin - dx * t_cos) - t_hw
            ey = np.abs(dx * t_sin + dy * t_cos) - t_hl
            ex, ey = np.maximum(ex, 0.0), np.maximum(ey, 0.0)
            reach = t_r + LENGTH_TOLERANCE
            contains = ex * ex + ey * ey <= reach * reach
            # the corners' angular offsets from the centre's bearing, clockwise positive;
            # opposite corners c and -c share |dot| and |cross| terms
            c0x, c0y, c1x, c1y = corners
            along0, across0 = dx * c0x + dy * c0y, dy * c0x - dx * c0y
            along1, across1 = dx * c1x + dy * c1y, dy * c1x - dx * c1y
            o0 = np.arctan2(across0, distance2 + along0)
            o2 = np.arctan2(-across0, distance2 - along0)
            o1 = np.arctan2(across1, distance2 + along1)
            o3 = np.arctan2(-across1, distance2 - along1)
            low_offset = np.minimum(np.minimum(o0, o2), np.minimum(o1, o3))
            high_offset = np.maximum(np.maximum(o0, o2), np.maximum(o1, o3))
            low = bearing + low_offset * _DEGREES
            width = (high_offset - low_offset) * _DEGREES
            if np.any(t_r > 0.0):  # a mix of round and rectangular targets
                distance = np.sqrt(distance2)
                ratio = np.divide(t_r, distance, out=np.zeros(shape), where=~contains)
                half = np.arcsin(np.minimum(ratio, 1.0)) * _DEGREES
                low, width = low - half, width + half + half
        low = np.where(low < 0.0, low + 360.0, low)
        low = _near_zero(np.where(low < 0.0, low + 360.0, low))
        # all sectors at once: offsets from each sector's first line (less the tolerance)
        first = np.array([arcs[k].start for k in sectors]) - ANGLE_TOLERANCE
        reach = np.array([arcs[k].span for k in sectors]) + 2 * ANGLE_TOLERANCE
        offset = centre_bearing[..., None] - first
        offset = np.where(offset < 0.0, offset + 360.0, offset)
        by_centre[..., sectors] = (offset <= reach) | (distance2 == 0.0)[..., None]
        offset = low[..., None] - first
        offset = np.where(offset < 0.0, offset + 360.0, offset)
        meets = (offset <= reach) | (offset + width[..., None] >= 360.0)
        by_any[..., sectors] = meets | contains[..., None]
    channels = [k for k, a in enumerate(arcs) if isinstance(a, Channel)]
    if channels:
        lx, ly = dx * f_cos - dy * f_sin, dx * f_sin + dy * f_cos
        half_width, front = f_hw + f_r, f_hl + f_r
        tol = LENGTH_TOLERANCE
        centre_in = (np.abs(lx) <= half_width + tol) & (ly >= front - tol)
        any_in = _channel_meets_target(
            lx, ly, half_width, front, f_sin, f_cos, t_sin, t_cos, t_hw, t_hl, t_r
        )
        for k in channels:
            by_centre[..., k] = centre_in
            by_any[..., k] = any_in
    for k, arc in enumerate(arcs):
        if isinstance(arc, Omni) or (isinstance(arc, Sector) and arc.span >= 360.0):
            by_centre[..., k] = True
            by_any[..., k] = True
        elif not isinstance(arc, Sector | Channel):
            raise UserError(f"unknown arc {arc!r}: expected a Sector, Channel or Omni")
    return by_centre, by_any


_DEGREES = 180.0 / math.pi


def _channel_meets_target(lx, ly, half, front, f_sin, f_cos, t_sin, t_cos, t_hw, t_hl, t_r):
    """Whether a target base meets the corridor x in [-half, half], y >= front (firer frame).

    Separating axes for the rectangle core against the half-strip, plus the
    clamp distance for a round base's radius.
    """
    tol = LENGTH_TOLERANCE
    cos_d = t_cos * f_cos + t_sin * f_sin
    sin_d = t_sin * f_cos - t_cos * f_sin
    abs_c, abs_s = np.abs(cos_d), np.abs(sin_d)
    extent_x = t_hw * abs_c + t_hl * abs_s
    extent_y = t_hw * abs_s + t_hl * abs_c
    overlap = (np.abs(lx) <= half + extent_x + tol) & (ly + extent_y >= front - tol)
    # the target's own axes, expressed in the firer's frame: starboard, then forward
    for ux, uy, half_extent in ((cos_d, -sin_d, t_hw), (sin_d, cos_d, t_hl)):
        centre = lx * ux + ly * uy
        lowest = np.where(uy > 0.0, -half * np.abs(ux) + front * uy, -np.inf)
        lowest = np.where(uy == 0.0, -half * np.abs(ux), lowest)
        highest = np.where(uy < 0.0, half * np.abs(ux) + front * uy, np.inf)
        highest = np.where(uy == 0.0, half * np.abs(ux), highest)
        overlap &= (centre + half_extent >= lowest - tol) & (centre - half_extent <= highest + tol)
    qx = np.clip(lx, -half, half)
    qy = np.maximum(ly, front)
    gap2 = (lx - qx) ** 2 + (ly - qy) ** 2
    reach = t_r + tol
    return overlap | ((t_r > 0.0) & (gap2 <= reach * reach))


def _scalar_side(pose: Pose, base: Base | None) -> tuple:
    sin, cos = sin_cos_degrees(pose.heading)
    hw, hl, r = _base_core(base) if base is not None else (0.0, 0.0, 0.0)
    return pose.x, pose.y, sin, cos, hw, hl, r


def arcs_containing(
    pose: Pose,
    base: Base,
    arcs: Sequence[ArcSpec],
    target_pose: Pose,
    target_base: Base | None = None,
    test: ArcTest = "centre",
) -> tuple[str, ...]:
    """Names of every arc of the firer holding the target (R004.29: it may lie in several).

    `test`: "centre" (the target's centre) or "any" (any part of its base).
    """
    if test not in ("centre", "any"):
        raise UserError(f"unknown arc test {test!r}: expected 'centre' or 'any'")
    if test == "any" and target_base is None:
        raise UserError("the 'any part of the base' arc test needs the target's base")
    bearing = relative_bearing(pose, target_pose.x, target_pose.y)
    target = _scalar_side(target_pose, target_base)
    corners = _corners(*target[2:6]) if isinstance(target_base, RectBase) else None
    by_centre, by_any = _kernel(
        _scalar_side(pose, base), target, arcs, np.float64(bearing), corners
    )
    mask = by_centre if test == "centre" else by_any
    return tuple(arc.name for arc, inside in zip(arcs, mask, strict=True) if inside)


def in_arc(
    pose: Pose,
    base: Base,
    arc: ArcSpec,
    target_pose: Pose,
    target_base: Base | None = None,
    test: ArcTest = "centre",
) -> bool:
    """Whether the target is in one arc of the firer, by its centre or by any part of its base."""
    return bool(arcs_containing(pose, base, (arc,), target_pose, target_base, test))


def point_in_arc(pose: Pose, base: Base, arc: ArcSpec, x: float, y: float) -> bool:
    """Whether the point (x, y) is in the firer's arc."""
    return in_arc(pose, base, arc, Pose(x, y), None, "centre")


def angular_interval(
    pose: Pose, target_pose: Pose, target_base: Base
) -> tuple[float, float] | None:
    """The relative bearings the target's base spans: (low, width), clockwise from `low`.

    None when the firer's centre lies in the target's footprint (every bearing).
    """
    tx, ty, t_sin, t_cos, t_hw, t_hl, t_r = _scalar_side(target_pose, target_base)
    lx, ly = (
        (pose.x - tx) * t_cos - (pose.y - ty) * t_sin,
        (pose.x - tx) * t_sin + (pose.y - ty) * t_cos,
    )
    gap = math.hypot(max(abs(lx) - t_hw, 0.0), max(abs(ly) - t_hl, 0.0))
    if gap <= t_r + LENGTH_TOLERANCE:
        return None
    dx, dy = tx - pose.x, ty - pose.y
    bearing = relative_bearing(pose, tx, ty)
    offsets = [0.0]
    for sign_w, sign_l in ((-1, 1), (1, 1), (1, -1), (-1, -1)):
        vx = dx + sign_w * t_hw * t_cos + sign_l * t_hl * t_sin
        vy = dy - sign_w * t_hw * t_sin + sign_l * t_hl * t_cos
        offsets.append(math.degrees(math.atan2(dy * vx - dx * vy, dx * vx + dy * vy)))
    half = math.degrees(math.asin(min(t_r / math.hypot(dx, dy), 1.0)))
    low = normalise_heading(bearing + min(offsets) - half)
    return low, max(offsets) - min(offsets) + 2 * half


# --------------------------------------------------------------------------- margins


@dataclass(frozen=True, slots=True)
class ArcMargin:
    """How far a point is inside (positive) or outside (negative) an arc.

    `unit` is "degrees" for sectors (to the nearest arc line) and "inches" for a
    channel (lateral distance to the nearest side of the corridor; behind the
    front of the base: minus the distance to the corridor). Omni and full
    sectors have an infinite margin.
    """

    value: float
    unit: Literal["degrees", "inches"]


def arc_margin(pose: Pose, base: Base, arc: ArcSpec, x: float, y: float) -> ArcMargin:
    """Margin of the point (x, y) to the nearest line of the firer's arc."""
    if isinstance(arc, Omni) or (isinstance(arc, Sector) and arc.span >= 360.0):
        return ArcMargin(math.inf, "degrees")
    if isinstance(arc, Sector):
        bearing = relative_bearing(pose, x, y)
        offset = (bearing - arc.start) % 360.0
        if bearing_in_sector(bearing, arc):
            # within the tolerance of a line counts as on it: margin 0, never negative
            inside = min(offset, arc.span - offset) if offset <= arc.span else 0.0
            return ArcMargin(max(inside, 0.0), "degrees")
        return ArcMargin(-min(offset - arc.span, 360.0 - offset), "degrees")
    if isinstance(arc, Channel):
        hw, hl, r = _base_core(base)
        half, front = hw + r, hl + r
        lx, ly = _scalar_side_local(pose, x, y)
        if ly >= front:
            return ArcMargin(half - abs(lx), "inches")
        return ArcMargin(-math.hypot(max(abs(lx) - half, 0.0), front - ly), "inches")
    raise UserError(f"unknown arc {arc!r}: expected a Sector, Channel or Omni")


def _scalar_side_local(pose: Pose, x: float, y: float) -> tuple[float, float]:
    sin, cos = sin_cos_degrees(pose.heading)
    dx, dy = x - pose.x, y - pose.y
    return dx * cos - dy * sin, dx * sin + dy * cos


# --------------------------------------------------------------------------- drawing


def _arc_points(pose: Pose, start: float, span: float, radius: float) -> list[tuple[float, float]]:
    steps = max(1, math.ceil(span / ARC_STEP_DEGREES))
    points = []
    for k in range(steps + 1):
        sin, cos = sin_cos_degrees(normalise_heading(pose.heading + start + span * k / steps))
        points.append((pose.x + radius * sin, pose.y + radius * cos))
    return points


def arc_region(pose: Pose, base: Base, arc: ArcSpec, radius: float) -> Polygon:
    """The arc as a polygon out to `radius` inches from the unit's centre, for drawing.

    Sectors are wedges from the centre; a channel is the corridor from the front
    of the base clipped to the disc of `radius` (empty if the disc ends before the
    front); Omni and full sectors are the disc.
    """
    if radius <= 0.0:
        return Polygon()
    if isinstance(arc, Omni) or (isinstance(arc, Sector) and arc.span >= 360.0):
        return Polygon(_arc_points(pose, 0.0, 360.0, radius)[:-1])
    if isinstance(arc, Sector):
        return Polygon([(pose.x, pose.y), *_arc_points(pose, arc.start, arc.span, radius)])
    if isinstance(arc, Channel):
        hw, hl, r = _base_core(base)
        half, front = hw + r, hl + r
        if radius <= front:
            return Polygon()
        corridor = Polygon(
            [pose.to_world(lx, ly) for lx, ly in
             ((-half, front), (half, front), (half, radius), (-half, radius))]
        )  # fmt: skip
        disc = Polygon(_arc_points(pose, 0.0, 360.0, radius)[:-1])
        clipped = shapely.intersection(corridor, disc)
        return clipped if isinstance(clipped, Polygon) else Polygon()
    raise UserError(f"unknown arc {arc!r}: expected a Sector, Channel or Omni")


# --------------------------------------------------------------------------- vectorised


def pair_arc_masks(
    units: BaseArrays,
    i: np.ndarray | int | slice,
    j: np.ndarray | int | slice,
    arcs: Sequence[ArcSpec],
    bearing: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """In-arc masks for the pairs (i, j) (broadcasting indices): by centre and by any part.

    `bearing` is the relative bearing of each j's centre from i (from
    `relative_bearings`). Returns two boolean arrays of shape (..., len(arcs)).
    """

    def side(k: np.ndarray | int | slice) -> tuple:
        return (
            units.x[k], units.y[k], units.sin[k], units.cos[k],
            units.half_width[k], units.half_length[k], units.radius[k],
        )  # fmt: skip

    target = side(j)
    rectangular = np.any(target[4] > 0.0) or np.any(target[5] > 0.0)
    corners = tuple(c[j] for c in units.corners) if rectangular else None
    return _kernel(side(i), target, arcs, bearing, corners)
