"""Measuring between units: exact distances with their witness segments, and range bands.

Every base is measured as a *rounded rectangle core*: a rectangle (its "core",
possibly shrunk to a point) grown by a radius. A rectangular base is its own
core with radius 0; a round base is a point core with its radius, so circles
are exact (analytic), never the 64-gon of `footprint`. Measuring "from the
centre" or "to the centre" simply replaces that side's base by its centre (a
point core). One algorithm therefore covers every mode of GEO002.3-GEO002.6,
R002.14 and R002.23 and the rule systems' conventions (docs/architecture.md).

Scalar functions return a `Measurement` whose `start`/`end` are the two
closest points (on A and on B). Overlapping shapes measure 0 with `start ==
end` at a point lying in both. The vectorised `BaseArrays` / `pair_edge_distances`
give the same numbers for many pairs at once (used by `tactical.geometry.matrix`).
"""

from __future__ import annotations

import ctypes
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Literal

import numpy as np
import shapely

from tactical.errors import UserError
from tactical.geometry.shapes import Base, CircleBase, Pose, RectBase, heading_vector

LENGTH_TOLERANCE = 1e-9  # inches: "within X" (G.4) and touching tests allow this rounding slack
# Vectorised code works on arrays of at most this many elements at a time (bounds the
# temporaries' memory for very large tables; 200 units' 40,000 pairs fit in one block).
BLOCK_ELEMENTS = 1 << 16


def tune_allocator() -> bool:
    """Keep freed memory in the process instead of handing it back to the OS at once.

    numpy allocates a fresh array for every intermediate result. Under glibc's
    defaults every array above 128 KiB is mmap'd and unmapped again, and the
    heap top is trimmed as soon as 128 KiB are free, so each operation on
    40,000 pairs pays for page faults: measured 3-5x slower on the project's
    2-core machines. Raising both thresholds (mallopt) removes that. Called
    once when `tactical.geometry.matrix` is imported; a no-op returning False
    where glibc's mallopt is not available.
    """
    global _ALLOCATOR_TUNED
    if _ALLOCATOR_TUNED is None:
        _ALLOCATOR_TUNED = False
        try:
            libc = _libc()
            mallopt = libc.mallopt
        except (OSError, AttributeError):
            return False
        m_trim_threshold, m_mmap_threshold = -1, -3
        _ALLOCATOR_TUNED = bool(mallopt(m_mmap_threshold, 32 << 20)) and bool(
            mallopt(m_trim_threshold, 256 << 20)
        )
    return _ALLOCATOR_TUNED


_ALLOCATOR_TUNED: bool | None = None


def _libc() -> ctypes.CDLL:
    """The C library: glibc's own name first, as `find_library` would find it on Linux
    without running `ldconfig -p` in a child process (milliseconds of every start-up)."""
    try:
        return ctypes.CDLL("libc.so.6")
    except OSError:
        from ctypes.util import find_library  # here: only where glibc's name is not found

        return ctypes.CDLL(find_library("c") or "libc.so.6")


From = Literal["centre", "edge"]
To = Literal["centre", "nearest"]
Point2 = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Measurement:
    """A distance in inches and its witness segment: `start` on A, `end` on B."""

    distance: float
    start: Point2
    end: Point2


# --------------------------------------------------------------------------- cores


def sin_cos_degrees(degrees: float) -> tuple[float, float]:
    """sin and cos of a compass angle, exact at the quarter turns (0, 90, 180, 270)."""
    quarter, rest = divmod(float(degrees), 90.0)
    if rest == 0.0:
        return ((0.0, 1.0), (1.0, 0.0), (0.0, -1.0), (-1.0, 0.0))[int(quarter) % 4]
    return heading_vector(degrees)


@dataclass(frozen=True, slots=True)
class _Core:
    """A rectangle of half extents (hw across, hl along the heading) grown by `radius`."""

    x: float
    y: float
    sin: float  # heading vector is (sin, cos); the starboard axis is (cos, -sin)
    cos: float
    hw: float
    hl: float
    radius: float

    def to_local(self, px: float, py: float) -> Point2:
        dx, dy = px - self.x, py - self.y
        return dx * self.cos - dy * self.sin, dx * self.sin + dy * self.cos

    def to_world(self, lx: float, ly: float) -> Point2:
        return self.x + lx * self.cos + ly * self.sin, self.y - lx * self.sin + ly * self.cos

    def vertices(self) -> list[Point2]:
        if self.hw == 0.0 and self.hl == 0.0:
            return [(self.x, self.y)]
        return [
            self.to_world(sx * self.hw, sy * self.hl)
            for sx, sy in ((-1, 1), (1, 1), (1, -1), (-1, -1))
        ]

    def clamp(self, px: float, py: float) -> Point2:
        """The point of the core nearest to (px, py)."""
        lx, ly = self.to_local(px, py)
        return self.to_world(min(max(lx, -self.hw), self.hw), min(max(ly, -self.hl), self.hl))

    def polygon(self) -> shapely.Geometry:
        return shapely.convex_hull(shapely.multipoints(self.vertices()))


def _core(pose: Pose, base: Base | None) -> _Core:
    sin, cos = sin_cos_degrees(pose.heading)
    if base is None:
        return _Core(pose.x, pose.y, sin, cos, 0.0, 0.0, 0.0)
    if isinstance(base, CircleBase):
        return _Core(pose.x, pose.y, sin, cos, 0.0, 0.0, base.radius)
    return _Core(pose.x, pose.y, sin, cos, base.width / 2, base.length / 2, 0.0)


def _cores_intersect(a: _Core, b: _Core) -> bool:
    """Separating-axis test on the two rectangle cores (touching counts)."""
    cos_d = b.cos * a.cos + b.sin * a.sin
    sin_d = b.sin * a.cos - b.cos * a.sin
    ac, asn = abs(cos_d), abs(sin_d)
    bx, by = a.to_local(b.x, b.y)
    ax, ay = b.to_local(a.x, a.y)
    slack = LENGTH_TOLERANCE
    return (
        abs(bx) <= a.hw + b.hw * ac + b.hl * asn + slack
        and abs(by) <= a.hl + b.hw * asn + b.hl * ac + slack
        and abs(ax) <= b.hw + a.hw * ac + a.hl * asn + slack
        and abs(ay) <= b.hl + a.hw * asn + a.hl * ac + slack
    )


def _closest_core_points(a: _Core, b: _Core) -> tuple[Point2, Point2, float]:
    """Closest points of two rectangle cores and their distance.

    For disjoint convex polygons the minimum is reached at a vertex of one of
    them, so the 8 vertex-to-rectangle clamps are exact. Intersecting cores
    give a common point and distance 0.
    """
    best: tuple[Point2, Point2, float] | None = None
    for vertex in b.vertices():
        near = a.clamp(*vertex)
        gap = math.dist(near, vertex)
        if best is None or gap < best[2]:
            best = (near, vertex, gap)
    for vertex in a.vertices():
        near = b.clamp(*vertex)
        gap = math.dist(vertex, near)
        if gap < best[2]:  # type: ignore[index]
            best = (vertex, near, gap)
    assert best is not None
    if best[2] <= LENGTH_TOLERANCE or not _cores_intersect(a, b):
        if best[2] <= LENGTH_TOLERANCE:
            return best[0], best[0], 0.0
        return best
    # crossing rectangles with no vertex inside the other: any common point will do
    common = shapely.intersection(a.polygon(), b.polygon())
    if common.is_empty:  # rounding at a touch: the nearest vertex pair is the contact
        mid = ((best[0][0] + best[1][0]) / 2, (best[0][1] + best[1][1]) / 2)
        return mid, mid, 0.0
    point = common.representative_point()
    return (point.x, point.y), (point.x, point.y), 0.0


def _measure_cores(a: _Core, b: _Core) -> Measurement:
    near_a, near_b, core_gap = _closest_core_points(a, b)
    gap = core_gap - a.radius - b.radius
    if core_gap == 0.0:
        return Measurement(0.0, near_a, near_a)
    ux, uy = (near_b[0] - near_a[0]) / core_gap, (near_b[1] - near_a[1]) / core_gap
    if gap > 0.0:
        start = (near_a[0] + a.radius * ux, near_a[1] + a.radius * uy)
        end = (near_b[0] - b.radius * ux, near_b[1] - b.radius * uy)
        return Measurement(gap, start, end)
    # the rounded shapes overlap along the core-to-core segment: take the middle of the overlap
    low, high = max(0.0, core_gap - b.radius), min(a.radius, core_gap)
    t = (low + high) / 2
    point = (near_a[0] + t * ux, near_a[1] + t * uy)
    return Measurement(0.0, point, point)


# --------------------------------------------------------------------------- scalar API


def measure(
    pose_a: Pose,
    base_a: Base,
    pose_b: Pose,
    base_b: Base,
    from_: From = "centre",
    to: To = "centre",
) -> Measurement:
    """Distance from A to B the way a rule system's conventions say (docs/architecture.md).

    `from_`: "centre" of A or its base "edge"; `to`: "centre" of B or the "nearest" point
    of B's base. Distance 0 when the measured shapes touch or overlap.
    """
    if from_ not in ("centre", "edge"):
        raise UserError(f"unknown measuring point {from_!r}: expected 'centre' or 'edge'")
    if to not in ("centre", "nearest"):
        raise UserError(f"unknown measuring point {to!r}: expected 'centre' or 'nearest'")
    return _between(
        pose_a, base_a if from_ == "edge" else None, pose_b, base_b if to == "nearest" else None
    )


@lru_cache(maxsize=4096)
def _between(pose_a: Pose, base_a: Base | None, pose_b: Pose, base_b: Base | None) -> Measurement:
    """The measurement between two shapes (a base, or a centre for None): a pure function of
    immutable values, remembered (a resolver measures the same pair again for every roll
    the exact odds enumerate)."""
    return _measure_cores(_core(pose_a, base_a), _core(pose_b, base_b))


def centre_to_centre(pose_a: Pose, pose_b: Pose) -> Measurement:
    """Centre-to-centre distance (R002.23 Command Distance, GEO002.3, GEO001.7)."""
    return _between(pose_a, None, pose_b, None)


def edge_to_edge(pose_a: Pose, base_a: Base, pose_b: Pose, base_b: Base) -> Measurement:
    """Base edge to base edge; 0 with a common witness point when the bases overlap."""
    return _between(pose_a, base_a, pose_b, base_b)


def centre_to_nearest(pose_a: Pose, pose_b: Pose, base_b: Base) -> Measurement:
    """From A's centre to the nearest point of B's base (R002.14, A002.11 Guardian)."""
    return _between(pose_a, None, pose_b, base_b)


def edge_to_centre(pose_a: Pose, base_a: Base, pose_b: Pose) -> Measurement:
    """From the nearest point of A's base to B's centre."""
    return _between(pose_a, base_a, pose_b, None)


# --------------------------------------------------------------------------- range bands


def band_indices(distances: np.ndarray | float, limits: Sequence[float]) -> np.ndarray:
    """Index of the range band holding each distance, -1 beyond the last (GEO002.7, GEO004.2).

    `limits` are the bands' maximum distances in inches, strictly increasing; a
    distance equal to a limit is in that band ("within X" is <= X, G.4).
    """
    bounds = np.asarray(limits, dtype=float)
    if bounds.ndim != 1 or (bounds.size > 1 and not np.all(np.diff(bounds) > 0)):
        raise UserError(f"range band limits must be strictly increasing, got {list(limits)}")
    index = np.searchsorted(bounds + LENGTH_TOLERANCE, np.asarray(distances, dtype=float))
    return np.where(index >= bounds.size, -1, index).astype(np.int64)


# --------------------------------------------------------------------------- vectorised


@dataclass(frozen=True, eq=False)
class BaseArrays:
    """N units' poses and bases as numpy arrays, ready for vectorised geometry.

    Each base is a rectangle core (`half_width` across, `half_length` along the
    heading) grown by `radius`: a rect has radius 0, a round base a point core.
    `poses` and `bases` keep the original values for per-pair (scalar) calls.
    """

    poses: tuple[Pose, ...]
    bases: tuple[Base, ...]
    x: np.ndarray
    y: np.ndarray
    heading: np.ndarray
    sin: np.ndarray
    cos: np.ndarray
    half_width: np.ndarray
    half_length: np.ndarray
    radius: np.ndarray

    @classmethod
    def build(cls, poses: Sequence[Pose], bases: Sequence[Base]) -> BaseArrays:
        if len(poses) != len(bases):
            raise UserError(f"{len(poses)} poses but {len(bases)} bases: one base per unit")
        rows = []
        for pose, base in zip(poses, bases, strict=True):
            sin, cos = sin_cos_degrees(pose.heading)
            if isinstance(base, CircleBase):
                rows.append((pose.x, pose.y, pose.heading, sin, cos, 0.0, 0.0, base.radius))
            elif isinstance(base, RectBase):
                half_w, half_l = base.width / 2, base.length / 2
                rows.append((pose.x, pose.y, pose.heading, sin, cos, half_w, half_l, 0.0))
            else:
                raise UserError(f"unknown base {base!r}: expected a RectBase or a CircleBase")
        table = np.array(rows, dtype=float).reshape(len(rows), 8).T.copy()
        return cls(tuple(poses), tuple(bases), *table)

    def __len__(self) -> int:
        return len(self.poses)

    @property
    def centres(self) -> np.ndarray:
        """(N, 2) array of centres."""
        return np.column_stack((self.x, self.y))

    @property
    def channel_half_width(self) -> np.ndarray:
        """Half the width of the corridor ahead of each base (rect width or round diameter)."""
        return self.half_width + self.radius

    @property
    def front(self) -> np.ndarray:
        """Distance from each centre to the front of its base along the heading."""
        return self.half_length + self.radius

    @cached_property
    def corners(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Offsets (x0, y0, x1, y1) from each centre to its front-port and front-starboard
        corners (the rear corners are their opposites); zero for round bases."""
        wx, wy = self.half_width * self.cos, -self.half_width * self.sin
        lx, ly = self.half_length * self.sin, self.half_length * self.cos
        return lx - wx, ly - wy, lx + wx, ly + wy

    @cached_property
    def columns(self) -> tuple[np.ndarray, ...]:
        """(x, y, sin, cos, half_width, half_length, radius), the arc tests' order."""
        return (
            self.x, self.y, self.sin, self.cos, self.half_width, self.half_length, self.radius
        )  # fmt: skip

    @cached_property
    def footprint_reach(self) -> np.ndarray:
        """(N,) a distance from each centre beyond which no point lies in the base (its
        circumradius, plus a margin far above rounding)."""
        return np.hypot(self.half_width, self.half_length) + self.radius + 1e-6

    @cached_property
    def point_core(self) -> np.ndarray:
        """(N,) whether each base's core is a point (a round base)."""
        return (self.half_width == 0.0) & (self.half_length == 0.0)

    @cached_property
    def any_rectangular(self) -> bool:
        return not bool(self.point_core.all())

    @cached_property
    def any_round(self) -> bool:
        return bool(np.any(self.radius > 0.0))

    @cached_property
    def _kinds(self) -> tuple[_Group, _Group]:
        """The units with a point core and those with a rectangle core, gathered once."""
        return _Group.of(self, self.point_core), _Group.of(self, ~self.point_core)

    def with_pose(self, index: int, pose: Pose) -> BaseArrays:
        """The same units with unit `index` moved to `pose` (cheap: arrays copied, not rebuilt)."""
        sin, cos = sin_cos_degrees(pose.heading)
        poses = list(self.poses)
        poses[index] = pose
        arrays = {}
        for name, value in (
            ("x", pose.x),
            ("y", pose.y),
            ("heading", pose.heading),
            ("sin", sin),
            ("cos", cos),
        ):
            column = getattr(self, name).copy()
            column[index] = value
            arrays[name] = column
        return BaseArrays(
            tuple(poses),
            self.bases,
            half_width=self.half_width,
            half_length=self.half_length,
            radius=self.radius,
            **arrays,
        )


def pair_edge_distances(units: BaseArrays, i: np.ndarray | int, j: np.ndarray | int) -> np.ndarray:
    """Base-edge to base-edge distances for the pairs (i, j) (broadcasting index arrays).

    The vectorised twin of `edge_to_edge`: 0 for overlapping or touching bases.
    Round-round pairs are centre distance minus radii; round-rect pairs one
    point-to-rectangle clamp; rect-rect pairs the full vertex/separating-axis test.
    """
    i, j = np.broadcast_arrays(np.asarray(i), np.asarray(j))
    point = units.point_core  # once a table's units, not once a call (a block of a stream)
    point_i, point_j = point[i], point[j]
    core = np.empty(i.shape)
    both = point_i & point_j
    if both.any():
        a, b = i[both], j[both]
        core[both] = np.sqrt((units.x[b] - units.x[a]) ** 2 + (units.y[b] - units.y[a]) ** 2)
    for rect, dot in ((~point_i & point_j, False), (point_i & ~point_j, True)):
        if rect.any():
            a, b = (j[rect], i[rect]) if dot else (i[rect], j[rect])
            dx, dy = units.x[b] - units.x[a], units.y[b] - units.y[a]
            sin, cos = units.sin[a], units.cos[a]
            ex = np.maximum(np.abs(dx * cos - dy * sin) - units.half_width[a], 0.0)
            ey = np.maximum(np.abs(dx * sin + dy * cos) - units.half_length[a], 0.0)
            core[rect] = np.sqrt(ex * ex + ey * ey)
    rects = ~point_i & ~point_j
    if rects.any():
        a, b = i[rects], j[rects]
        core[rects] = _pair_core_distances(
            units.x[a], units.y[a], units.sin[a], units.cos[a], units.half_width[a],
            units.half_length[a], units.x[b], units.y[b], units.sin[b], units.cos[b],
            units.half_width[b], units.half_length[b],
        )  # fmt: skip
    return np.maximum(core - units.radius[i] - units.radius[j], 0.0)


@dataclass(frozen=True, eq=False)
class _Group:
    """Some units' columns, gathered once for the one-row functions.

    The four vertices of each rectangle core lie along one flat axis of length
    4 * M, vertex by vertex (front-port, front-starboard, rear-starboard, rear-port):
    `spread` gathers a per-unit column onto it, `across` and `along` are each vertex's
    offsets (sign * half_width, sign * half_length) in the unit's own frame.
    """

    index: np.ndarray
    x: np.ndarray
    y: np.ndarray
    sin: np.ndarray
    cos: np.ndarray
    half_width: np.ndarray
    half_length: np.ndarray
    spread: np.ndarray
    across: np.ndarray
    along: np.ndarray
    sign_across: np.ndarray  # each vertex's sign across, along the flat axis
    sign_along: np.ndarray

    @classmethod
    def of(cls, units: BaseArrays, members: np.ndarray) -> _Group:
        index = np.flatnonzero(members)
        half_width, half_length = units.half_width[index], units.half_length[index]
        spread = np.tile(np.arange(len(index)), 4)
        sign_across, sign_along = _VERTEX_SIGNS.repeat(len(index), axis=1)
        return cls(
            index, units.x[index], units.y[index], units.sin[index], units.cos[index],
            half_width, half_length, spread, sign_across * half_width[spread],
            sign_along * half_length[spread], sign_across, sign_along,
        )  # fmt: skip


def _core_distances_from_rect(
    ax: float, ay: float, a_sin: float, a_cos: float, a_hw: float, a_hl: float, group: _Group
) -> np.ndarray:
    """`_pair_core_distances` from one rectangle core A to each rectangle core of `group`,
    with each rectangle's four vertices along one flat axis (the same arithmetic)."""
    g = group
    dx, dy = g.x - ax, g.y - ay
    cos_d = g.cos * a_cos + g.sin * a_sin
    sin_d = g.sin * a_cos - g.cos * a_sin
    abs_c, abs_s = np.abs(cos_d), np.abs(sin_d)
    # B's centre in A's frame and A's centre in B's frame
    b_lx, b_ly = dx * a_cos - dy * a_sin, dx * a_sin + dy * a_cos
    a_lx, a_ly = -dx * g.cos + dy * g.sin, -dx * g.sin - dy * g.cos
    b_hw, b_hl = g.half_width, g.half_length
    intersect = _overlapping(b_lx, b_ly, a_lx, a_ly, a_hw, a_hl, b_hw, b_hl, abs_c, abs_s, _SLACK)
    spread = g.spread
    cos4, sin4 = cos_d[spread], sin_d[spread]
    # B's vertices in A's frame: B's starboard axis is (cos_d, -sin_d), its forward (sin_d, cos_d)
    ex = b_lx[spread] + g.across * cos4 + g.along * sin4
    ey = b_ly[spread] - g.across * sin4 + g.along * cos4
    best = _clamped_square(ex, ey, a_hw, a_hl)
    # A's vertices in B's frame: A's starboard axis is (cos_d, sin_d), its forward (-sin_d, cos_d)
    wx, lx = g.sign_across * a_hw, g.sign_along * a_hl
    ex = a_lx[spread] + wx * cos4 - lx * sin4
    ey = a_ly[spread] + wx * sin4 + lx * cos4
    np.minimum(best, _clamped_square(ex, ey, b_hw[spread], b_hl[spread]), out=best)
    return np.where(intersect, _ZERO, np.sqrt(np.minimum.reduce(best.reshape(4, len(g.index)))))


def _overlapping(b_lx, b_ly, a_lx, a_ly, a_hw, a_hl, b_hw, b_hl, abs_c, abs_s, slack):
    """Whether rectangle cores A and B overlap (within `slack`), by the separating axis test
    on both rectangles' axes: B's centre (b_lx, b_ly) in A's frame, A's (a_lx, a_ly) in B's,
    |cos| and |sin| of the angle between them."""
    return (
        (np.abs(b_lx) <= a_hw + b_hw * abs_c + b_hl * abs_s + slack)
        & (np.abs(b_ly) <= a_hl + b_hw * abs_s + b_hl * abs_c + slack)
        & (np.abs(a_lx) <= b_hw + a_hw * abs_c + a_hl * abs_s + slack)
        & (np.abs(a_ly) <= b_hl + a_hw * abs_s + a_hl * abs_c + slack)
    )


def _clamped_square(ex: np.ndarray, ey: np.ndarray, half_width, half_length) -> np.ndarray:
    """Squared distance from local points (ex, ey) to the rectangle of the given half extents
    (overwrites ex and ey)."""
    np.abs(ex, out=ex)
    np.abs(ey, out=ey)
    ex -= half_width
    ey -= half_length
    np.maximum(ex, _ZERO, out=ex)
    np.maximum(ey, _ZERO, out=ey)
    ex *= ex
    ey *= ey
    ex += ey
    return ex


def unit_edge_distances(units: BaseArrays, i: int) -> np.ndarray:
    """(N,) base-edge to base-edge distances from unit i to every unit (0 for itself).

    The same numbers as `pair_edge_distances(units, i, range(N))`, computed by
    target kind (round or rectangular) so each kind does only its own work.
    """
    rounds, rects = units._kinds
    core = np.empty(len(units))
    xi, yi = units.x[i, ...], units.y[i, ...]  # 0-d arrays: cheaper operands than floats
    if units.point_core[i]:
        dx, dy = rounds.x - xi, rounds.y - yi
        core[rounds.index] = np.sqrt(dx**2 + dy**2)
        if len(rects.index):  # the unit's centre against each rectangle core
            dx, dy = xi - rects.x, yi - rects.y
            sin, cos = rects.sin, rects.cos
            ex = np.abs(dx * cos - dy * sin) - rects.half_width
            ey = np.abs(dx * sin + dy * cos) - rects.half_length
            core[rects.index] = _clamped_norm(ex, ey)
    else:
        sin, cos = units.sin[i, ...], units.cos[i, ...]
        hw, hl = units.half_width[i, ...], units.half_length[i, ...]
        if len(rounds.index):  # each round centre against the unit's rectangle core
            dx, dy = rounds.x - xi, rounds.y - yi
            ex = np.abs(dx * cos - dy * sin) - hw
            ey = np.abs(dx * sin + dy * cos) - hl
            core[rounds.index] = _clamped_norm(ex, ey)
        core[rects.index] = _core_distances_from_rect(xi, yi, sin, cos, hw, hl, rects)
    distances = np.maximum(core - units.radius[i, ...] - units.radius, _ZERO)
    distances[i] = 0.0
    return distances


def _clamped_norm(ex: np.ndarray, ey: np.ndarray) -> np.ndarray:
    """sqrt(max(ex, 0)² + max(ey, 0)²), overwriting ex and ey."""
    np.maximum(ex, _ZERO, out=ex)
    np.maximum(ey, _ZERO, out=ey)
    ex *= ex
    ey *= ey
    ex += ey
    return np.sqrt(ex, out=ex)


def row_blocks(rows: int, columns: int) -> list[slice]:
    """Slices of rows so that each block of rows x columns stays within BLOCK_ELEMENTS."""
    step = max(1, BLOCK_ELEMENTS // max(columns, 1))
    return [slice(first, min(first + step, rows)) for first in range(0, rows, step)]


def edge_distance_matrix(units: BaseArrays) -> np.ndarray:
    """(N, N) base-edge to base-edge distances (symmetric, 0 on the diagonal)."""
    n = len(units)
    result = np.empty((n, n))
    every = np.arange(n)
    for rows in row_blocks(n, n):
        result[rows] = pair_edge_distances(units, every[rows, None], every[None, :])
    result[every, every] = 0.0
    return result


def centre_distance_matrix(units: BaseArrays) -> np.ndarray:
    """(N, N) centre-to-centre distances."""
    dx = units.x[None, :] - units.x[:, None]
    dy = units.y[None, :] - units.y[:, None]
    return np.sqrt(dx * dx + dy * dy)


def _pair_core_distances(ax, ay, a_sin, a_cos, a_hw, a_hl, bx, by, b_sin, b_cos, b_hw, b_hl):
    """Distances between rectangle cores, vectorised; same algorithm as `_closest_core_points`.

    The four vertices of each rectangle are handled at once along a new first axis.
    """
    dx, dy = bx - ax, by - ay
    cos_d = b_cos * a_cos + b_sin * a_sin
    sin_d = b_sin * a_cos - b_cos * a_sin
    abs_c, abs_s = np.abs(cos_d), np.abs(sin_d)
    # B's centre in A's frame and A's centre in B's frame
    b_lx, b_ly = dx * a_cos - dy * a_sin, dx * a_sin + dy * a_cos
    a_lx, a_ly = -dx * b_cos + dy * b_sin, -dx * b_sin - dy * b_cos
    intersect = _overlapping(
        b_lx, b_ly, a_lx, a_ly, a_hw, a_hl, b_hw, b_hl, abs_c, abs_s, LENGTH_TOLERANCE
    )
    shape = (4,) + (1,) * np.ndim(intersect)
    sign_w, sign_l = _VERTEX_SIGNS[0].reshape(shape), _VERTEX_SIGNS[1].reshape(shape)
    # B's vertices in A's frame: B's starboard axis is (cos_d, -sin_d), its forward (sin_d, cos_d)
    wx, lx = sign_w * b_hw, sign_l * b_hl
    ex = np.maximum(np.abs(b_lx + wx * cos_d + lx * sin_d) - a_hw, 0.0)
    ey = np.maximum(np.abs(b_ly - wx * sin_d + lx * cos_d) - a_hl, 0.0)
    best = (ex * ex + ey * ey).min(axis=0)
    # A's vertices in B's frame: A's starboard axis is (cos_d, sin_d), its forward (-sin_d, cos_d)
    wx, lx = sign_w * a_hw, sign_l * a_hl
    ex = np.maximum(np.abs(a_lx + wx * cos_d - lx * sin_d) - b_hw, 0.0)
    ey = np.maximum(np.abs(a_ly + wx * sin_d + lx * cos_d) - b_hl, 0.0)
    best = np.minimum(best, (ex * ex + ey * ey).min(axis=0))
    return np.where(intersect, 0.0, np.sqrt(best))


# operands of the one-unit row as 0-d arrays: numpy converts a Python float on every call
_ZERO, _SLACK = np.array(0.0), np.array(LENGTH_TOLERANCE)

# (sign across, sign along) of a rectangle's four vertices: front-port, front-starboard,
# rear-starboard, rear-port
_VERTEX_SIGNS = np.array([[-1.0, 1.0, 1.0, -1.0], [1.0, 1.0, -1.0, -1.0]])
