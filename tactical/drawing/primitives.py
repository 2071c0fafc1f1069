"""The primitives a scene is described in: small frozen values in table inches.

A backend maps inches to its medium (pixels through the screen's camera, points on a
page) and draws each primitive in order, later over earlier. Sizes that do not scale
with the table (line widths, hatch spacing, text size, dashes) are in the medium's own
units: pixels on screen, points on paper, so a line is as thick at every zoom.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

Colour = tuple[float, float, float]  # red, green, blue from 0 to 255
Point = tuple[float, float]
# where `Text.at` is on the text; "baseline": centred on its baseline (paper's own)
Anchor = Literal[
    "center", "midleft", "midright", "midtop", "midbottom", "topleft", "bottomleft", "baseline"
]


@dataclass(frozen=True, slots=True)
class Style:
    """How a primitive looks: its line (`colour`, `width`, `dash`: on and off lengths),
    its `fill`, and its opacity (`alpha`, 0 to 255) for both. No colour, no line; no
    fill, not filled. `smooth`: antialiased edges where the medium has a choice."""

    colour: Colour | None = None
    width: float = 1.0
    fill: Colour | None = None
    dash: tuple[float, ...] = ()
    alpha: int = 255
    smooth: bool = True

    @property
    def translucent(self) -> bool:
        return self.alpha < 255


@dataclass(frozen=True, slots=True)
class Polygon:
    """An area in inches (a shapely Polygon or MultiPolygon: holes stay empty), filled
    and outlined by its style."""

    geometry: BaseGeometry
    style: Style


@dataclass(frozen=True, slots=True)
class Arc:
    """A sector: from `centre`, `radius` inches, from bearing `start` clockwise to `end`
    (degrees, 0 along +y: a heading's frame), filled and outlined by its style."""

    centre: Point
    radius: float
    start: float
    end: float
    style: Style

    def polygon(self, steps_per_degree: float = 0.5) -> shapely.Polygon:
        """The sector as a polygon (the rim in steps of at most 2 degrees)."""
        span = (self.end - self.start) % 360.0 or 360.0
        count = max(2, math.ceil(span * steps_per_degree) + 1)
        bearings = np.radians(np.linspace(self.start, self.start + span, count))
        cx, cy = self.centre
        rim = np.column_stack(
            (cx + self.radius * np.sin(bearings), cy + self.radius * np.cos(bearings))
        )
        if span >= 360.0:
            return shapely.Polygon(rim)
        return shapely.Polygon([self.centre, *rim.tolist()])


@dataclass(frozen=True, slots=True)
class Ring:
    """A range ring: the line at `distance` inches round a unit (`outline`, a shapely line
    or ring), named by `label` ("Short 12\"")."""

    outline: BaseGeometry
    distance: float
    label: str
    style: Style

    @property
    def geometry(self) -> BaseGeometry:
        """Its line, as a `Line`'s."""
        return self.outline


@dataclass(frozen=True, slots=True)
class Line:
    """Lines in inches: a shapely line, ring or collection of them, or the boundary of
    an area."""

    geometry: BaseGeometry
    style: Style

    @classmethod
    def between(cls, start: Point, end: Point, style: Style) -> Line:
        return cls(shapely.LineString([start, end]), style)


@dataclass(frozen=True, slots=True)
class Text:
    """`text` with its `anchor` point at `at` (inches), `size` in the medium's units, in
    the style's colour."""

    text: str
    at: Point
    size: float
    style: Style
    anchor: Anchor = "center"
    bold: bool = False


@dataclass(frozen=True, slots=True)
class Hatch:
    """Parallel lines across an area, one family per angle (degrees as seen, 0 across,
    counter-clockwise), `spacing` apart in the medium's units, through `anchor` (inches:
    the table's corner, so that neighbouring pieces' hatching lines up)."""

    geometry: BaseGeometry
    angles: tuple[float, ...]
    spacing: float
    style: Style
    anchor: Point = (0.0, 0.0)


@dataclass(frozen=True, slots=True, eq=False)
class Raster:
    """A grid of colours over a rectangle in inches: `rgba` (rows, columns, 4) of bytes,
    the first row at the top, each cell drawn with hard edges (no smoothing)."""

    bounds: tuple[float, float, float, float]  # x0, y0, x1, y1
    rgba: np.ndarray


Primitive = Polygon | Arc | Ring | Line | Text | Hatch | Raster
