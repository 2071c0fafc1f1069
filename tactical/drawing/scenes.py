"""The scenes the screen and the paper both draw, described once as lists of primitives.

Pure functions over model, geometry and threat values; the looks (colours, widths) are
the medium's and are given: the screen's palette or the print kit's tints.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from tactical.drawing.primitives import (
    Colour,
    Hatch,
    Line,
    Polygon,
    Primitive,
    Raster,
    Ring,
    Style,
    Text,
)
from tactical.geometry.arcs_spec import ArcSpec, Channel, Sector
from tactical.model import Terrain
from tactical.rules.conventions import band_name

RGBA = tuple[int, int, int, int]


class FireArc(Protocol):
    """A unit's fire arc as the selection shows it: its region on the table."""

    region: BaseGeometry
    all_round: bool


class RangeBand(Protocol):
    """A unit's range band edge: its name, distance and line on the table."""

    name: str
    distance: float
    outline: BaseGeometry


def fire_arcs(
    arcs: Sequence[FireArc],
    table: tuple[float, float, float, float],
    tint: Callable[[int], RGBA],
    edge_alpha: int,
    filled: bool = True,
) -> list[Primitive]:
    """The fire arcs of a unit, as its rule system gives them: each arc's region tinted
    (an all-round arc is only its outline: a tint over all its reach would hide the rest;
    none with `filled` False), then every arc's lines in its tint at `edge_alpha`, plain (not
    smoothed), but where an arc runs along the `table`'s edge (that is not an arc line)."""
    table_edge = shapely.box(*table).boundary.buffer(1e-6)
    fills: list[Primitive] = [
        Polygon(arc.region, Style(fill=tint(index)[:3], alpha=tint(index)[3], smooth=False))
        for index, arc in enumerate(arcs)
        if filled and not arc.all_round
    ]
    lines: list[Primitive] = [
        Line(
            shapely.difference(arc.region.boundary, table_edge),
            Style(colour=tint(index)[:3], alpha=edge_alpha, smooth=False),
        )
        for index, arc in enumerate(arcs)
    ]
    return fills + lines


def ring_label(name: str, distance: float) -> str:
    """A range ring's label: its band's name and distance in inches ("Short 12\""); a band
    named by a bare number by `band_name`, its distance after a colon ("band 2: 24\"", not
    "2 24\"": two numbers in a row)."""
    inches = str(round(distance)) if abs(distance - round(distance)) < 1e-6 else f"{distance:.1f}"
    if name.isdigit():
        return f'{band_name(name)}: {inches}"'
    return f'{name} {inches}"'


def range_rings(rings: Iterable[RangeBand], colour: RGBA) -> list[Primitive]:
    """The range rings of a unit (its rule system's range bands), each named by `ring_label`."""
    style = Style(colour=colour[:3], alpha=colour[3], smooth=False)
    return [
        Ring(ring.outline, ring.distance, ring_label(ring.name, ring.distance), style)
        for ring in rings
    ]


@dataclass(frozen=True, slots=True)
class TerrainLook:
    """How one piece of terrain looks in a medium: its fill, its outline's colour and
    width, and its hatching (angles, none for a plain fill; its lines' colour and width)."""

    fill: Colour
    outline: Colour
    width: float
    hatch: tuple[float, ...] = ()
    hatch_colour: Colour | None = None
    hatch_width: float = 1.0


def terrain(
    pieces: Iterable[Terrain], look: Callable[[Terrain], TerrainLook], spacing: float
) -> list[Primitive]:
    """Terrain by kind and Surface Height (R002.8): each piece filled, hatched (`spacing`
    apart, anchored to the table's corner) and outlined, in the `look` the medium gives it
    (the outline's width by its height)."""
    found: list[Primitive] = []
    for piece in pieces:
        mine = look(piece)
        geometry = piece.geometry
        found.append(Polygon(geometry, Style(fill=mine.fill)))
        if mine.hatch and mine.hatch_colour is not None:
            style = Style(colour=mine.hatch_colour, width=mine.hatch_width)
            found.append(Hatch(geometry, mine.hatch, spacing, style))
        found.append(Polygon(geometry, Style(colour=mine.outline, width=mine.width)))
    return found


def heat_colours(values: np.ndarray, ramp: np.ndarray) -> np.ndarray:
    """(ny, nx, 4) RGBA bytes for `values` along `ramp` (RGBA rows, low to high): 0 is
    transparent, the highest value the ramp's last colour."""
    top = float(values.max()) if values.size else 0.0
    rgba = np.zeros((*values.shape, 4), dtype=np.uint8)
    if top <= 0:
        return rgba
    level = np.clip(values / top, 0.0, 1.0) * (len(ramp) - 1)
    low = np.floor(level).astype(int)
    high = np.minimum(low + 1, len(ramp) - 1)
    part = (level - low)[..., None]
    mixed = ramp[low] * (1 - part) + ramp[high] * part
    rgba[:] = np.rint(mixed).astype(np.uint8)
    rgba[values <= 0] = 0
    return rgba


def threat_map(
    values: np.ndarray, table: tuple[float, float, float, float], ramp: np.ndarray
) -> Raster:
    """The threat map over the `table`: a cell per grid point (`values`, rows from the
    table's bottom up: weapons bearing or expected damage) coloured along `ramp`."""
    rgba = heat_colours(np.asarray(values, dtype=float), ramp)[::-1]  # rows run downward
    return Raster(table, np.ascontiguousarray(rgba))


def arc_bearings(arcs: Iterable[ArcSpec]) -> list[float]:
    """The bearings (degrees from the heading, clockwise) where a base's sector arcs
    begin and end, in order: the lines of its arc template."""
    found: set[float] = set()
    for arc in arcs:
        if isinstance(arc, Sector) and arc.span < 360.0:
            found.update((arc.start % 360.0, arc.end % 360.0))
    return sorted(found)


def arc_template(
    arcs: Sequence[ArcSpec], half_width: float, half_length: float, reach: float, style: Style
) -> list[Primitive]:
    """The fire arcs of a base as its arc template draws them, in the base's frame
    (inches from its centre, +y ahead): each channel's base-wide corridor ahead, then a
    line from the centre along each sector's edge, `reach` inches past the base."""
    length = math.hypot(half_width + reach, half_length + reach)
    found: list[Primitive] = [
        Line.between((side, half_length), (side, half_length + length), style)
        for arc in arcs
        if isinstance(arc, Channel)
        for side in (-half_width, half_width)
    ]
    for bearing in arc_bearings(arcs):
        t = math.radians(bearing)
        found.append(Line.between((0.0, 0.0), (length * math.sin(t), length * math.cos(t)), style))
    return found


def arc_template_labels(
    arcs: Sequence[ArcSpec],
    half_width: float,
    half_length: float,
    round_base: bool,
    size: float,
    style: Style,
) -> list[Primitive]:
    """Each arc line's bearing ("45°") just outside the base, where the line leaves it."""
    found: list[Primitive] = []
    for bearing in arc_bearings(arcs):
        t = math.radians(bearing)
        sin, cos = abs(math.sin(t)), abs(math.cos(t))
        exit_at = min(
            half_width / sin if sin > 1e-9 else math.inf,
            half_length / cos if cos > 1e-9 else math.inf,
        )
        r = (half_width if round_base else exit_at) + 0.35
        at = (r * math.sin(t), r * math.cos(t))
        found.append(Text(f"{bearing:g}°", at, size, style, anchor="baseline"))
    return found
