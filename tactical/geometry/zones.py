"""Deployment zones: strips along a table edge (R002.16-R002.17, GEO002.1).

Edges are named as in docs/architecture.md / `tactical.model.board`: "bottom" is side A's
edge (y = 0), "top" the far edge, "left" x = 0, "right" x = width.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from shapely.geometry import Polygon, box
from shapely.geometry.base import BaseGeometry

from tactical.errors import UserError

ZONE_DEPTH = 8.0  # inches (R002.17)
EDGE_NAMES = ("bottom", "top", "left", "right")
OPPOSITE = {"bottom": "top", "top": "bottom", "left": "right", "right": "left"}
INSIDE_TOLERANCE = 1e-6  # inches: a base exactly on the zone's line is inside


def check_edge(edge: str) -> str:
    """The edge name, or a UserError naming the four edges."""
    if edge not in OPPOSITE:
        raise UserError(f"unknown table edge {edge!r}: expected one of " + ", ".join(EDGE_NAMES))
    return edge


def opposite_edge(edge: str) -> str:
    """R002.16: the other side takes the opposite edge."""
    return OPPOSITE[check_edge(edge)]


@dataclass(frozen=True)
class Zone:
    """A deployment zone: the full length of `edge` times `depth` inches into the table."""

    edge: str
    x0: float
    y0: float
    x1: float
    y1: float

    @cached_property
    def polygon(self) -> Polygon:
        return box(self.x0, self.y0, self.x1, self.y1)

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        return self.x0, self.y0, self.x1, self.y1

    def holds(self, geometry: BaseGeometry) -> bool:
        """Whether the whole geometry (a unit's base) lies inside the zone (R002.17)."""
        gx0, gy0, gx1, gy1 = geometry.bounds
        t = INSIDE_TOLERANCE
        return (
            gx0 >= self.x0 - t and gy0 >= self.y0 - t and gx1 <= self.x1 + t and gy1 <= self.y1 + t
        )


def deployment_zone(width: float, height: float, edge: str, depth: float = ZONE_DEPTH) -> Zone:
    """The strip along `edge` of a width x height table, `depth` deep (clipped). R002.17."""
    check_edge(edge)
    if depth <= 0:
        raise UserError(
            f'a deployment zone must be deeper than 0", not {depth:g}', spec_id="R002.17"
        )
    across = min(depth, height if edge in ("bottom", "top") else width)
    if edge == "bottom":
        return Zone(edge, 0.0, 0.0, width, across)
    if edge == "top":
        return Zone(edge, 0.0, height - across, width, height)
    if edge == "left":
        return Zone(edge, 0.0, 0.0, across, height)
    return Zone(edge, width - across, 0.0, width, height)
