"""Arc margins of many pairs at once: `arc_margin` (tactical.geometry.arcs) vectorised.

`arc_margins(units, i, j, arc)` gives, for each pair (i[k], j[k]), how far unit j's
centre lies inside (+) or outside (-) unit i's `arc`: degrees to the nearest arc line
for a sector, inches for a channel, +inf for Omni and full sectors. The numbers are
those of the scalar `arc_margin`, bit for bit: the same operations in the same order
(numpy's remainder is Python's float `%`; the
angle from `math.atan2`), with each firer's sine and cosine from the
scalar `sin_cos_degrees` (kept on `BaseArrays`), and the one expression numpy would round
differently (`math.hypot`, behind a channel's front) left to the scalar function.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from tactical.errors import UserError
from tactical.geometry.arcs import ANGLE_TOLERANCE, ArcMargin, arc_margin
from tactical.geometry.arcs_spec import ArcSpec, Channel, Omni, Sector
from tactical.geometry.measure import BaseArrays

__all__ = ["arc_margins", "centre_angles", "margin_unit"]


def margin_unit(arc: ArcSpec) -> str:
    """The unit of `arc`'s margins: inches for a channel, degrees otherwise."""
    return "inches" if isinstance(arc, Channel) else "degrees"


def arc_margins(
    units: BaseArrays, i: np.ndarray, j: np.ndarray, arc: ArcSpec, angles: np.ndarray | None = None
) -> np.ndarray:
    """Margin of unit j[k]'s centre to unit i[k]'s `arc`, for every k (see the module).
    `angles`: the pairs' `centre_angles`, when the caller has them (several arcs of the
    same pairs need them once)."""
    i, j = np.asarray(i, dtype=np.intp), np.asarray(j, dtype=np.intp)
    if isinstance(arc, Omni) or (isinstance(arc, Sector) and arc.span >= 360.0):
        return np.full(len(i), math.inf)
    x, y = units.x[i], units.y[i]
    dx, dy = units.x[j] - x, units.y[j] - y
    if isinstance(arc, Sector):
        if angles is None:
            angles = _atan2(dx, dy)
        return _sector_margins(dx, dy, angles, units.heading[i], arc)
    if isinstance(arc, Channel):
        return _channel_margins(units, i, j, dx, dy)
    raise UserError(f"unknown arc {arc!r}: expected a Sector, Channel or Omni")


def centre_angles(units: BaseArrays, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """atan2(dx, dy) from unit i[k]'s centre to unit j[k]'s (radians), as `arc_margins`
    takes them."""
    return _atan2(units.x[j] - units.x[i], units.y[j] - units.y[i])


def _atan2(dx: np.ndarray, dy: np.ndarray) -> np.ndarray:
    # math.atan2's numbers, not numpy's: numpy's vectorised arctan2 differs from libm's in
    # the last bit for about one pair in fifteen, and these margins are the scalar
    # function's. Over an array it cannot vectorise (a negative stride) numpy calls libm's
    # atan2 element by element, as math.atan2 does, at a fifth of the cost of calling
    # math.atan2 from Python: taken where a check found them equal, bit for bit
    if _libm_when_reversed():
        dx, dy = np.ascontiguousarray(dx, dtype=float), np.ascontiguousarray(dy, dtype=float)
        return np.arctan2(dx[::-1], dy[::-1])[::-1]
    return np.fromiter(map(math.atan2, dx.tolist(), dy.tolist()), float, len(dx))


@cache
def _libm_when_reversed() -> bool:
    """Whether numpy's arctan2 over reversed arrays gives math.atan2's numbers bit for bit
    (libm's atan2, element by element), checked once on awkward and ordinary values."""
    # spread values of both signs and many magnitudes, made without numpy.random (which a
    # short command would otherwise load: 23 modules, about 10 ms)
    special = [0.0, -0.0, 1.0, -1.0, 5e-324, -5e-324, 1e-300, 1e300, -1e300, 3.0, -3.0]
    k = np.arange(4000, dtype=float)
    spread_x = 50.0 * np.sin(k * 12.9898) * np.exp(np.sin(k * 4.1414) * 3.0)
    spread_y = 50.0 * np.cos(k * 78.233) * np.exp(np.cos(k * 2.7182) * 3.0)
    dx = np.concatenate((np.repeat(special, len(special)), spread_x))
    dy = np.concatenate((np.tile(special, len(special)), spread_y))
    expected = np.array(list(map(math.atan2, dx.tolist(), dy.tolist())))
    for size in (len(dx), 7):  # a long array and a short one
        found = np.arctan2(dx[:size][::-1], dy[:size][::-1])[::-1]
        if not np.array_equal(found.view(np.int64), expected[:size].view(np.int64)):
            return False
    return True


def _sector_margins(dx, dy, absolute: np.ndarray, heading: np.ndarray, arc: Sector):
    # relative_bearing: normalise_heading(degrees(atan2(dx, dy)) - heading), 0 at the centre
    bearing = np.fmod(np.degrees(absolute) - heading, 360.0)
    bearing = np.where(bearing < 0, bearing + 360.0, bearing)
    bearing = np.where(bearing >= 360.0, 0.0, bearing)
    bearing = np.where((dx == 0.0) & (dy == 0.0), 0.0, bearing)
    span = arc.span
    offset = np.remainder(bearing - arc.start, 360.0)
    inside = (offset <= span + ANGLE_TOLERANCE) | (offset >= 360.0 - ANGLE_TOLERANCE)
    # within the tolerance of a line counts as on it: margin 0, never negative
    held = np.maximum(np.where(offset <= span, np.minimum(offset, span - offset), 0.0), 0.0)
    outside = -np.minimum(offset - span, 360.0 - offset)
    return np.where(inside, held, outside)


def _channel_margins(units: BaseArrays, i: np.ndarray, j: np.ndarray, dx, dy) -> np.ndarray:
    s, c = units.sin[i], units.cos[i]  # sin_cos_degrees of each heading
    lx, ly = dx * c - dy * s, dx * s + dy * c
    radius = units.radius[i]
    half, front = units.half_width[i] + radius, units.half_length[i] + radius
    values = half - np.abs(lx)
    behind = np.flatnonzero(~(ly >= front))
    for k in behind.tolist():
        a, b = int(i[k]), int(j[k])
        values[k] = arc_margin(
            units.poses[a], units.bases[a], Channel(), float(units.x[b]), float(units.y[b])
        ).value
    return values


def scalar_margin(units: BaseArrays, i: int, j: int, arc: ArcSpec) -> ArcMargin:
    """The scalar `arc_margin` of one pair, for tests and single reports."""
    return arc_margin(units.poses[i], units.bases[i], arc, float(units.x[j]), float(units.y[j]))
