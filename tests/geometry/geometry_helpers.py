"""Shared hypothesis strategies and helpers for the geometry tests (imported, not a conftest)."""

from __future__ import annotations

import math

import numpy as np
import shapely
from hypothesis import strategies as st
from shapely import affinity

from tactical.geometry.shapes import Base, CircleBase, Pose, RectBase, base_corners

coordinate_x = st.floats(0.0, 72.0, allow_nan=False, allow_infinity=False)
coordinate_y = st.floats(0.0, 48.0, allow_nan=False, allow_infinity=False)
headings = st.floats(0.0, 359.999, allow_nan=False, allow_infinity=False)
poses = st.builds(Pose, coordinate_x, coordinate_y, headings)
rect_bases = st.builds(RectBase, st.floats(0.25, 3.0), st.floats(0.25, 6.0))
circle_bases = st.builds(CircleBase, st.floats(0.25, 4.0))
bases = st.one_of(rect_bases, circle_bases)


def moved(pose: Pose, angle: float, shift: tuple[float, float]) -> Pose:
    """`pose` after rotating the whole table by `angle` degrees clockwise about the origin
    and then translating it by `shift`."""
    x, y = rotate_point((pose.x, pose.y), angle)
    return Pose(x + shift[0], y + shift[1], pose.heading + angle)


def rotate_point(point: tuple[float, float], angle: float) -> tuple[float, float]:
    """Rotate clockwise (compass sense) about the origin."""
    radians = math.radians(angle)
    c, s = math.cos(radians), math.sin(radians)
    x, y = point
    return x * c + y * s, -x * s + y * c


def moved_geometry(geometry, angle: float, shift: tuple[float, float]):
    """A shapely geometry after the same rigid motion as `moved`."""
    turned = affinity.rotate(geometry, -angle, origin=(0.0, 0.0))
    return affinity.translate(turned, shift[0], shift[1])


def base_polygon(pose: Pose, base: Base, segments: int = 720) -> shapely.Geometry:
    """A fine polygon of a base, for brute-force cross-checks (circles inscribed)."""
    if isinstance(base, CircleBase):
        angles = np.linspace(0.0, 2 * np.pi, segments, endpoint=False)
        return shapely.Polygon(
            np.column_stack(
                (pose.x + base.radius * np.cos(angles), pose.y + base.radius * np.sin(angles))
            )
        )
    return shapely.Polygon(base_corners(pose, base))
