"""Poses, bases and footprints: the shapes every other geometry function works on.

Conventions (docs/architecture.md): inches; origin at the table's bottom-left seen from
side A; x right, y away from side A; heading in compass degrees, 0 towards the
far edge, clockwise, normalised to [0, 360).

A unit's local frame has +y pointing along its heading (forward) and +x to its
starboard (right).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import Point, Polygon

CIRCLE_SEGMENTS = (
    64  # polygon approximation of round bases, used only where shapely needs a polygon
)


def normalise_heading(degrees: float) -> float:
    """Map any angle in degrees to [0, 360)."""
    value = math.fmod(float(degrees), 360.0)
    if value < 0:
        value += 360.0
    # fmod of a tiny negative can round up to exactly 360.0
    return 0.0 if value >= 360.0 else value


def heading_vector(heading: float) -> tuple[float, float]:
    """Unit vector (dx, dy) pointing along a compass heading."""
    radians = math.radians(heading)
    return math.sin(radians), math.cos(radians)


@dataclass(frozen=True, slots=True)
class Pose:
    """Where a unit stands: centre (x, y) in inches and heading in degrees."""

    x: float
    y: float
    heading: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "x", float(self.x))
        object.__setattr__(self, "y", float(self.y))
        object.__setattr__(self, "heading", normalise_heading(self.heading))

    def to_world(self, local_x: float, local_y: float) -> tuple[float, float]:
        """Convert a point in the unit's frame (+x starboard, +y forward) to table inches."""
        fx, fy = heading_vector(self.heading)
        # starboard direction is the forward vector turned 90° clockwise
        sx, sy = fy, -fx
        return (
            self.x + local_x * sx + local_y * fx,
            self.y + local_x * sy + local_y * fy,
        )

    def to_local(self, x: float, y: float) -> tuple[float, float]:
        """Convert a table point to the unit's frame (+x starboard, +y forward)."""
        fx, fy = heading_vector(self.heading)
        sx, sy = fy, -fx
        dx, dy = x - self.x, y - self.y
        return dx * sx + dy * sy, dx * fx + dy * fy


@dataclass(frozen=True, slots=True)
class RectBase:
    """A rectangular base: `width` across the unit, `length` along its heading."""

    width: float
    length: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "width", float(self.width))
        object.__setattr__(self, "length", float(self.length))

    @property
    def radius(self) -> float:
        """Distance from the centre to the farthest point of the base."""
        return math.hypot(self.width / 2, self.length / 2)


@dataclass(frozen=True, slots=True)
class CircleBase:
    """A round base of the given diameter."""

    diameter: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "diameter", float(self.diameter))

    @property
    def radius(self) -> float:
        return self.diameter / 2


Base = RectBase | CircleBase


def base_corners(pose: Pose, base: RectBase) -> np.ndarray:
    """Corners of a rectangular base in table inches, shape (4, 2).

    Order: front-port, front-starboard, rear-starboard, rear-port (clockwise
    seen from above, so the polygon is valid and oriented consistently).
    """
    half_w, half_l = base.width / 2, base.length / 2
    local = ((-half_w, half_l), (half_w, half_l), (half_w, -half_l), (-half_w, -half_l))
    return np.array([pose.to_world(lx, ly) for lx, ly in local], dtype=float)


def footprint(pose: Pose, base: Base) -> Polygon:
    """The base as a shapely polygon in table inches (round bases as a 64-gon)."""
    if isinstance(base, CircleBase):
        return Point(pose.x, pose.y).buffer(base.radius, quad_segs=CIRCLE_SEGMENTS // 4)
    return Polygon(base_corners(pose, base))


def footprints(poses: list[Pose], bases: list[Base]) -> np.ndarray:
    """Vectorised `footprint` for many units: an array of shapely polygons."""
    return np.array([footprint(p, b) for p, b in zip(poses, bases, strict=True)], dtype=object)


def prepared(geometries: np.ndarray) -> np.ndarray:
    """Prepare geometries in place for fast repeated predicates and return them."""
    shapely.prepare(geometries)
    return geometries
