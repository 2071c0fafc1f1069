"""Relative bearings, quadrants and fire arcs (docs/architecture.md conventions; GEO001.7, GEO002.7,
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
import operator
from collections.abc import Sequence
from dataclasses import dataclass, field
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


def wrap_bearings(values: np.ndarray) -> np.ndarray:
    """Compass bearings less headings, which lie in (-540, 180], mapped to [0, 360)
    without the slow float modulo (one turn added, or two; at most one taken off)."""
    once = values + _TURN
    values = np.where(values >= _ZERO, values, np.where(once >= _ZERO, once, once + _TURN))
    return np.where(values >= _TURN, values - _TURN, values)


def relative_bearings(
    x: np.ndarray, y: np.ndarray, heading: np.ndarray, tx: np.ndarray, ty: np.ndarray
) -> np.ndarray:
    """Vectorised `relative_bearing` (arrays broadcast): bearing of (tx, ty) from each pose
    (headings in [0, 360), as a `Pose` keeps them)."""
    dx, dy = tx - x, ty - y
    absolute = np.degrees(np.arctan2(dx, dy))
    return np.where((dx == 0.0) & (dy == 0.0), 0.0, wrap_bearings(absolute - heading))


def bearing_in_sector(bearing: float, sector: Sector) -> bool:
    """Whether a relative bearing lies in the sector, both lines inclusive."""
    if sector.span >= 360.0:
        return True
    offset = (bearing - sector.start) % 360.0
    return offset <= sector.span + ANGLE_TOLERANCE or offset >= 360.0 - ANGLE_TOLERANCE


def quadrants_of(bearing: float) -> tuple[str, ...]:
    """Every standard quadrant holding the bearing: two on a line (docs/architecture.md)."""
    return tuple(q.name for q in QUADRANTS if bearing_in_sector(bearing, q))


def centre_arc(bearing: float) -> str:
    """The one quadrant to report for a bearing: the first of fore, starboard, aft, port
    that holds it (so 45 is fore, 135 starboard, 225 aft, 315 fore)."""
    return quadrants_of(bearing)[0]


def quadrant_index(bearings: np.ndarray) -> np.ndarray:
    """Vectorised `centre_arc` as an index into QUADRANT_NAMES."""
    return _QUADRANT_OF_BAND[_QUADRANT_BANDS.searchsorted(bearings)]  # a band's end is in it


# `centre_arc` by bands of bearings in [0, 360): up to 45 (+ tolerance) fore, then up to
# 135 starboard, up to 225 aft, below 315 (- tolerance) port, the rest fore again
_QUADRANT_BANDS = np.array(
    [
        45.0 + ANGLE_TOLERANCE,
        135.0 + ANGLE_TOLERANCE,
        225.0 + ANGLE_TOLERANCE,
        np.nextafter(315.0 - ANGLE_TOLERANCE, 0.0),
    ]
)
_QUADRANT_OF_BAND = np.array([0, 1, 2, 3, 0], dtype=np.int8)


# --------------------------------------------------------------------------- arc tests


def _near_zero(bearings: np.ndarray) -> np.ndarray:
    """Bearings in [0, 360) with those within the tolerance below 360 moved just below 0,
    so one wrap-around test per sector suffices."""
    return np.where(bearings > _NEAR_TURN, bearings - _TURN, bearings)


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


@dataclass(frozen=True)
class _ArcPlan:
    """Which arcs of a tuple are sectors, channels or everything, with the sectors' bounds."""

    sectors: list[int] | slice  # a slice when the sectors are the first arcs
    channels: list[int]
    everything: list[int]
    first: np.ndarray  # (S, 1): each sector's first line less the tolerance
    reach: np.ndarray  # (S, 1): each sector's span plus twice the tolerance
    spread: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = field(default_factory=dict)

    def flat(self, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For `count` targets, the flat layout of `_sector_masks`: each entry's place in
        the (centre bearings, interval starts) array of length 2 * count, and its
        sector's first line and reach."""
        known = self.spread.get(count)
        if known is None:
            sectors = len(self.first)
            per_sector = np.tile(np.arange(count), sectors)
            known = (
                np.concatenate((per_sector, per_sector + count)),
                np.tile(self.first.repeat(count), 2),
                np.tile(self.reach.repeat(count), 2),
            )
            if len(self.spread) >= MAX_SPREADS:
                self.spread.clear()
            self.spread[count] = known
        return known


# flat layouts a plan keeps, by the count of targets (a computer player's tables ask
# dozens of counts, each layout a few kilobytes)
MAX_SPREADS = 256
_PLANS: dict[int, tuple[tuple[ArcSpec, ...], _ArcPlan]] = {}
# by the arcs' own ids: a table's arcs are gathered into a new tuple each table, of the same
# few arc objects (the rule system's)
_PLANS_BY_ARCS: dict[tuple[int, ...], tuple[tuple[ArcSpec, ...], _ArcPlan]] = {}
MAX_PLANS = 64  # plans each memo keeps


def _plan(arcs: tuple[ArcSpec, ...]) -> _ArcPlan:
    """The plan of a tuple of arcs, remembered by the tuple's identity (callers keep theirs
    for many calls; hashing the arcs each time would cost more than the lookup saves),
    else by its arcs' identities (a new tuple of the same arcs: the plan, and its flat
    layouts, found again rather than made afresh every table)."""
    known = _PLANS.get(id(arcs))
    if known is not None and known[0] is arcs:
        return known[1]
    key = tuple(map(id, arcs))
    same = _PLANS_BY_ARCS.get(key)
    if same is not None and all(map(operator.is_, same[0], arcs)):
        plan = same[1]
    else:
        plan = _make_plan(arcs)
        if len(_PLANS_BY_ARCS) >= MAX_PLANS:
            _PLANS_BY_ARCS.clear()
        _PLANS_BY_ARCS[key] = (arcs, plan)  # holding the arcs keeps their ids from reuse
    if len(_PLANS) >= MAX_PLANS:
        _PLANS.clear()
    _PLANS[id(arcs)] = (arcs, plan)  # holding the tuple keeps its id from being reused
    return plan


def _make_plan(arcs: tuple[ArcSpec, ...]) -> _ArcPlan:
    sectors, channels, everything = [], [], []
    for k, arc in enumerate(arcs):
        if isinstance(arc, Omni):
            everything.append(k)
        elif isinstance(arc, Sector):  # a full one's reach (360 + tolerance) holds every offset
            sectors.append(k)
        elif isinstance(arc, Channel):
            channels.append(k)
        else:
            raise UserError(f"unknown arc {arc!r}: expected a Sector, Channel or Omni")
    first = np.array([[arcs[k].start] for k in sectors]).reshape(-1, 1) - ANGLE_TOLERANCE
    reach = np.array([[arcs[k].span] for k in sectors]).reshape(-1, 1) + 2 * ANGLE_TOLERANCE
    first.flags.writeable = reach.flags.writeable = False
    leading = sectors == list(range(len(sectors)))
    return _ArcPlan(
        slice(0, len(sectors)) if leading else sectors, channels, everything, first, reach
    )


def _kernel(
    firer: tuple,
    target: tuple,
    arcs: Sequence[ArcSpec],
    bearing: np.ndarray,
    corners: tuple | None = None,
    any_round: bool | None = None,
    offsets: tuple | None = None,
    reach_bound: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """In-arc masks by centre and by any part, vectorised over broadcasting firer/target arrays.

    `firer` and `target` are (x, y, sin, cos, half_width, half_length, radius) tuples;
    `bearing` the relative bearing of each target centre; `corners` the targets'
    `_corners` if any is rectangular (None: all round); `any_round` whether any
    target has a radius (None: find out); `offsets` the already computed (tx - fx,
    ty - fy, their squared length, its square root). For one row of targets (1-D),
    `reach_bound` may give each target a distance beyond which the firer's centre
    cannot lie in its footprint, so only the nearer ones are tested. Returns two
    (..., A) masks.
    """
    arcs = tuple(arcs)
    plan = _plan(arcs)
    fx, fy, f_sin, f_cos, f_hw, f_hl, f_r = firer
    tx, ty, t_sin, t_cos, t_hw, t_hl, t_r = target
    if offsets is None:
        dx, dy = np.asarray(tx - fx, dtype=float), np.asarray(ty - fy, dtype=float)
        distance2 = dx * dx + dy * dy
        distance = np.sqrt(distance2)
    else:
        dx, dy, distance2, distance = offsets
    shape = distance2.shape
    # arc-major while computing (each arc's mask contiguous), (..., A) views when returned
    count = len(arcs)
    if len(plan.first) < count or not count:
        by_centre = np.empty((count, *shape), dtype=bool)
        by_any = np.empty((count, *shape), dtype=bool)
    if len(plan.first):
        if corners is None:  # round targets: centre bearing +/- asin(r / d)
            contains = distance <= t_r + LENGTH_TOLERANCE
            ratio = np.divide(t_r, distance, out=np.ones(shape), where=~contains)
            half = np.arcsin(np.minimum(ratio, 1.0)) * _DEGREES
            low, width = bearing - half, half + half
        else:
            # the firer's centre in the target's footprint?
            if reach_bound is None:
                reach = t_r + LENGTH_TOLERANCE
                contains = _holds_centre(dx, dy, t_sin, t_cos, t_hw, t_hl, reach)
            else:
                # a centre on the firer's centre is in its footprint; test the others nearby
                contains = distance2 == _ZERO
                near = ((distance <= reach_bound) & ~contains).nonzero()[0]
                if len(near):
                    contains[near] = _holds_centre(
                        dx[near], dy[near], t_sin[near], t_cos[near], t_hw[near], t_hl[near],
                        t_r[near] + LENGTH_TOLERANCE,
                    )  # fmt: skip
            low, width = _corner_interval(dx, dy, distance2, bearing, corners)
            if any_round is None:
                any_round = bool(np.any(t_r > 0.0))
            if any_round:  # a mix of round and rectangular targets
                # asin(min(r / d, 1)); where the footprint holds the firer's centre the
                # interval does not matter (the target is in every sector)
                half = np.arcsin(t_r / np.maximum(np.maximum(distance, t_r), _TINY))
                half *= _PER_RADIAN
                low -= half
                width += half
                width += half
        # the interval's start in [0, 360) (it is above -270: one turn is enough), just
        # below 0 when within the tolerance of 360
        low = _near_zero(np.where(low < _ZERO, low + _TURN, low))
        inside, meets = _sector_masks(plan, bearing, distance2, low, width, contains)
        if len(plan.first) == count:
            by_centre, by_any = inside, meets  # every arc is a sector, in order
        else:
            by_centre[plan.sectors] = inside
            by_any[plan.sectors] = meets
    if plan.channels:
        lx, ly = dx * f_cos - dy * f_sin, dx * f_sin + dy * f_cos
        half_width, front = f_hw + f_r, f_hl + f_r
        tol = LENGTH_TOLERANCE
        centre_in = (np.abs(lx) <= half_width + tol) & (ly >= front - tol)
        any_in = _channel_meets_target(
            lx, ly, half_width, front, f_sin, f_cos, t_sin, t_cos, t_hw, t_hl, t_r
        )
        for k in plan.channels:
            by_centre[k] = centre_in
            by_any[k] = any_in
    if plan.everything:
        by_centre[plan.everything] = True
        by_any[plan.everything] = True
    last_first = (*range(1, by_centre.ndim), 0)
    return by_centre.transpose(last_first), by_any.transpose(last_first)


def _holds_centre(dx, dy, t_sin, t_cos, t_hw, t_hl, reach) -> np.ndarray:
    """Whether the firer's centre, at (-dx, -dy) from each target's centre, lies within
    `reach` of the target's rectangle core."""
    ex = np.abs(dy * t_sin - dx * t_cos) - t_hw
    ey = np.abs(dx * t_sin + dy * t_cos) - t_hl
    ex, ey = np.maximum(ex, 0.0), np.maximum(ey, 0.0)
    return ex * ex + ey * ey <= reach * reach


def _corner_interval(dx, dy, distance2, bearing, corners) -> tuple[np.ndarray, np.ndarray]:
    """(low, width) in degrees: the relative bearings spanned by each target's rectangle
    core, from its corners' angular offsets to the centre's bearing (clockwise
    positive); opposite corners c and -c share |dot| and |cross| terms, and the four
    offsets come from one arctan2 (`[k, ...]`: a view even for a single target)."""
    c0x, c0y, c1x, c1y = corners
    across = np.empty((4, *distance2.shape))
    ahead = np.empty((4, *distance2.shape))
    np.subtract(dy * c0x, dx * c0y, out=across[0, ...])
    np.subtract(dy * c1x, dx * c1y, out=across[1, ...])
    np.negative(across[:2], out=across[2:])
    along = dx * c0x + dy * c0y
    np.add(distance2, along, out=ahead[0, ...])
    np.subtract(distance2, along, out=ahead[2, ...])
    along = dx * c1x + dy * c1y
    np.add(distance2, along, out=ahead[1, ...])
    np.subtract(distance2, along, out=ahead[3, ...])
    angles = np.arctan2(across, ahead, out=across)
    pair = np.minimum(angles[:2], angles[2:])
    low_offset = np.minimum(pair[0], pair[1])
    pair = np.maximum(angles[:2], angles[2:])
    high_offset = np.maximum(pair[0], pair[1])
    return bearing + low_offset * _PER_RADIAN, (high_offset - low_offset) * _PER_RADIAN


def _sector_masks(plan: _ArcPlan, bearing, distance2, low, width, contains) -> tuple:
    """(S, ...) masks of the plan's sectors: holding the target's centre, and meeting its
    interval [low, low + width] (or holding the firer's centre in the footprint).

    Offsets from each sector's first line (less the tolerance), wrapped into [0, 360).
    A single row of targets is laid out flat: the centre bearings then the interval
    starts, each sector by sector (same-shape operations on one array are much cheaper
    than broadcast ones at this size).
    """
    sectors = len(plan.first)
    shape = (sectors, *np.shape(bearing))
    touching = distance2 == _ZERO
    if np.ndim(bearing) == 1:
        spread, first, reach = plan.flat(len(bearing))
        offset = np.concatenate((_near_zero(bearing), low))[spread] - first
        offset = np.where(offset < _ZERO, offset + _TURN, offset)
        both = offset <= reach
        both |= np.concatenate((touching, contains))[spread]
        half = len(spread) // 2
        meets = both[half:]
        offset = offset[half:]
        offset += width[spread[:half]]
        meets |= offset >= _TURN
        return both[:half].reshape(shape), meets.reshape(shape)
    lines = (sectors,) + (1,) * np.ndim(bearing)
    first, reach = plan.first.reshape(lines), plan.reach.reshape(lines)
    offset = _near_zero(bearing) - first
    offset = np.where(offset < _ZERO, offset + _TURN, offset)
    inside = offset <= reach
    inside |= touching
    offset = low - first
    offset = np.where(offset < _ZERO, offset + _TURN, offset)
    meets = offset <= reach
    offset += width
    meets |= offset >= _TURN
    meets |= contains
    return inside.reshape(shape), meets.reshape(shape)


_DEGREES = 180.0 / math.pi
_TINY = 1e-300  # a divisor for r / d that is never 0
# Operands as 0-d arrays: numpy converts a Python float on every call, which adds up over
# the hundreds of small array operations of a one-unit row (same values, same results).
_ZERO, _TURN = np.array(0.0), np.array(360.0)
_NEAR_TURN = np.array(360.0 - ANGLE_TOLERANCE)
_PER_RADIAN = np.array(_DEGREES)


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
    return in_arc(pose, base, arc, Pose(x, y))


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
    offsets = []  # of the corners (all four at the centre for a round base)
    for sign_w, sign_l in ((-1, 1), (1, 1), (1, -1), (-1, -1)):
        vx = dx + sign_w * t_hw * t_cos + sign_l * t_hl * t_sin
        vy = dy - sign_w * t_hw * t_sin + sign_l * t_hl * t_cos
        offsets.append(math.degrees(math.atan2(dy * vx - dx * vy, dx * vx + dy * vy)))
    half = math.degrees(math.asin(t_r / math.hypot(dx, dy)))  # the centre is farther than r
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
            return ArcMargin(max(min(offset, arc.span - offset), 0.0), "degrees")
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
        # both convex, and both hold the corridor's axis between front and radius
        return shapely.intersection(corridor, disc)
    raise UserError(f"unknown arc {arc!r}: expected a Sector, Channel or Omni")


# --------------------------------------------------------------------------- vectorised


def pair_arc_masks(
    units: BaseArrays,
    i: np.ndarray | int | slice,
    j: np.ndarray | int | slice,
    arcs: Sequence[ArcSpec],
    bearing: np.ndarray,
    offsets: tuple | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """In-arc masks for the pairs (i, j) (broadcasting indices): by centre and by any part.

    `bearing` is the relative bearing of each j's centre from i (from
    `relative_bearings`); `offsets`, if the caller has them, (x[j] - x[i], y[j] - y[i],
    their squared length, its square root). Returns two boolean arrays of shape
    (..., len(arcs)).
    """

    def side(k: np.ndarray | int | slice) -> tuple:
        return (
            units.x[k], units.y[k], units.sin[k], units.cos[k],
            units.half_width[k], units.half_length[k], units.radius[k],
        )  # fmt: skip

    reach_bound = None
    if isinstance(j, slice) and j == slice(None):  # every unit: the columns themselves
        target, corners = units.columns, units.corners if units.any_rectangular else None
        any_round = units.any_round
        if np.ndim(i) == 0:
            reach_bound = units.footprint_reach
    else:
        target = side(j)
        rectangular = not bool(units.point_core[j].all())  # as `any_rectangular`
        any_round = None  # `_kernel` looks (only where some target is rectangular)
        corners = tuple(c[j] for c in units.corners) if rectangular else None
    return _kernel(side(i), target, arcs, bearing, corners, any_round, offsets, reach_bound)
