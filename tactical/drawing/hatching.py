"""Hatch runs and the rings and lines of shapely geometry, in whatever units the
coordinates are (pixels for the screen, points for paper): pure numpy and shapely."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

Point2 = tuple[float, float]

# Hatching by terrain kind, on the screen and on paper alike (R002.8): the angles of its line
# families (degrees as seen, 0 across, counter-clockwise). Soft ground is a plain fill; dense
# terrain one diagonal family; obstructing terrain crossed, the heaviest; a kind a rule system
# adds is hatched across, so it reads as neither of those.
NO_HATCH: tuple[float, ...] = ()
DIAGONAL: tuple[float, ...] = (45.0,)
CROSS: tuple[float, ...] = (45.0, 135.0)
ACROSS: tuple[float, ...] = (0.0,)
KIND_HATCH: dict[str, tuple[float, ...]] = {
    "soft": NO_HATCH,
    "dense": DIAGONAL,
    "obstructing": CROSS,
}


def kind_hatch(kind: str) -> tuple[float, ...]:
    """The hatching of a terrain kind (`KIND_HATCH`; any other kind: `ACROSS`)."""
    return KIND_HATCH.get(kind, ACROSS)


def polygons_of(geometry: BaseGeometry) -> Iterator[shapely.Polygon]:
    """The polygons in a Polygon, MultiPolygon or collection (lines and points skipped)."""
    if geometry is None or geometry.is_empty:
        return
    if isinstance(geometry, shapely.Polygon):
        yield geometry
    elif hasattr(geometry, "geoms"):
        for part in geometry.geoms:
            yield from polygons_of(part)


def lines_of(geometry: BaseGeometry) -> Iterator[np.ndarray]:
    """Coordinate arrays of every line string in a geometry (rings of polygons included)."""
    if geometry is None or geometry.is_empty:
        return
    if isinstance(geometry, shapely.LineString | shapely.LinearRing):
        yield np.asarray(geometry.coords)
    elif isinstance(geometry, shapely.Polygon):
        yield np.asarray(geometry.exterior.coords)
        for ring in geometry.interiors:
            yield np.asarray(ring.coords)
    elif hasattr(geometry, "geoms"):
        for part in geometry.geoms:
            yield from lines_of(part)


def hatch_segments(
    screen_polygon: BaseGeometry,
    angle: float,
    spacing: float,
    anchor: Point2 = (0.0, 0.0),
) -> list[tuple[Point2, Point2]]:
    """Parallel hatch lines clipped to a polygon given in the medium's coordinates.

    `angle` in screen degrees (0 horizontal, counter-clockwise as seen), `spacing`
    in pixels. Lines run through `anchor` (a screen point) and every `spacing` from
    it, not from the piece, so neighbouring pieces' hatching lines up; anchored to
    the table's corner, the hatching moves with the table when the view pans. A
    scanline fill: in a frame turned so the hatch runs along u, each line
    v = k * spacing crosses the rings' edges at sorted u values, and inside runs are
    the pairs (even-odd, so holes stay empty).
    """
    return hatch_many([ring_edges(screen_polygon)], angle, spacing, anchor)[0]


def hatch_many(
    polygons: Sequence[np.ndarray], angle: float, spacing: float, anchor: Point2
) -> list[list[tuple[Point2, Point2]]]:
    """`hatch_segments` of many polygons at once, each given by its rings' edges (an (E, 2, 2)
    array in screen pixels): the same runs, worked out for all polygons together (a table's
    terrain at each new zoom). Each line k * spacing is tested against the edges it may
    cross, as `hatch_segments`' scanline does: the same numbers, in the same order."""
    found: list[list[tuple[Point2, Point2]]] = [[] for _ in polygons]
    sizes = np.array([len(edges) for edges in polygons], dtype=np.intp)
    if not sizes.sum():
        return found
    radians = math.radians(angle)
    direction = np.array([math.cos(radians), -math.sin(radians)])
    normal = np.array([-direction[1], direction[0]])
    base = np.asarray(anchor, dtype=float)
    edges = np.concatenate([e for e in polygons if len(e)]).reshape(-1, 2, 2)
    edges = edges - base if (base != 0.0).any() else edges
    u = edges @ direction  # (E, 2): both ends of every edge along the hatch
    v = edges @ normal  # (E, 2): and across it
    owner = np.repeat(np.arange(len(polygons)), sizes)
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))[sizes > 0]
    # each polygon's lines: first .. last (as math.ceil / math.floor of its extent)
    first = np.zeros(len(polygons))
    last = np.full(len(polygons), -1.0)
    first[sizes > 0] = np.ceil(np.minimum.reduceat(v.min(axis=1), starts) / spacing)
    last[sizes > 0] = np.floor(np.maximum.reduceat(v.max(axis=1), starts) / spacing)
    v0, v1 = v[:, 0], v[:, 1]
    low, high = np.minimum(v0, v1), np.maximum(v0, v1)
    # the lines each edge may cross (one more either side, then the exact test below)
    below = np.maximum(np.floor(low / spacing) - 1, first[owner])
    above = np.minimum(np.ceil(high / spacing) + 1, last[owner])
    counts = np.maximum(above - below + 1, 0).astype(np.intp)
    edge = np.repeat(np.arange(len(edges)), counts)
    step = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
    k = below[edge] + step
    line = k * spacing
    crossing = (line >= low[edge]) & (line < high[edge])  # half-open: vertices once
    edge, k, line = edge[crossing], k[crossing], line[crossing]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (line - v0[edge]) / (v1[edge] - v0[edge])
        where = u[edge, 0] + t * (u[edge, 1] - u[edge, 0])
    piece = owner[edge]
    order = np.lexsort((where, k, piece))
    piece, k, line, where = piece[order], k[order], line[order], where[order]
    # runs: crossings 0-1, 2-3, ... of each (polygon, line), counted from its first
    group = np.flatnonzero(np.r_[True, (piece[1:] != piece[:-1]) | (k[1:] != k[:-1])])
    rank = np.arange(len(k)) - np.repeat(group, np.diff(np.r_[group, len(k)]))
    size = np.repeat(np.diff(np.r_[group, len(k)]), np.diff(np.r_[group, len(k)]))
    start = np.flatnonzero((rank % 2 == 0) & (rank + 1 < size))
    offset = line[start][:, None] * normal[None, :] + base[None, :]
    a = offset + where[start][:, None] * direction[None, :]
    b = offset + where[start + 1][:, None] * direction[None, :]
    for owner_of, begin, end in zip(piece[start].tolist(), a.tolist(), b.tolist(), strict=True):
        found[owner_of].append((tuple(begin), tuple(end)))
    return found


def ring_edges(geometry: BaseGeometry) -> np.ndarray:
    """Every edge of every polygon ring as an (E, 2, 2) array of (start, end) points."""
    parts = []
    for polygon in polygons_of(geometry):
        for ring in (polygon.exterior, *polygon.interiors):
            coords = np.asarray(ring.coords)[:, :2]
            parts.append(np.stack([coords[:-1], coords[1:]], axis=1))
    return np.concatenate(parts) if parts else np.empty((0, 2, 2))
