"""Each terrain piece's and model's base's own numbers for the line-of-sight tests
(GEO002.10; `tactical.geometry.los.TerrainIndex`): its bounding and inscribed discs, its ring
edges, the shrunk diagonals of a convex outline and the box holding it. Every number is
the piece's alone (element-wise operations, or reductions over its own edges), so a piece
has the same numbers in any index."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely

# a convex piece's diagonals pulled this fraction of the way towards its centroid: strictly
# inside the piece, so that a line crossing one surely crosses the interior
DIAGONAL_SHRINK = 0.01


def _discs(geoms: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    count = len(geoms)
    outer_c, outer_r = np.zeros((count, 2)), np.zeros(count)
    inner_c, inner_r = np.zeros((count, 2)), np.zeros(count)
    for k, geometry in enumerate(geoms):
        coords = shapely.get_coordinates(geometry)
        centre = shapely.get_coordinates(
            shapely.centroid(shapely.minimum_bounding_circle(geometry))
        )
        outer_c[k] = centre[0]
        # measured from the actual vertices, so the disc holds the piece whatever GEOS rounded
        outer_r[k] = np.sqrt(((coords - centre[0]) ** 2).sum(axis=1)).max()
        inscribed = shapely.maximum_inscribed_circle(geometry)
        point = shapely.get_point(inscribed, 0)
        if shapely.contains_properly(geometry, point):
            inner_c[k] = shapely.get_coordinates(point)[0]
            inner_r[k] = shapely.distance(point, shapely.boundary(geometry))
    return outer_c, outer_r, inner_c, inner_r


def _boxes(
    offsets: np.ndarray,
    edge_x: np.ndarray,
    edge_y: np.ndarray,
    edge_dx: np.ndarray,
    edge_dy: np.ndarray,
    centre: np.ndarray,
) -> np.ndarray:
    """`TerrainIndex.boxes` of pieces whose edges are `offsets[t]:offsets[t + 1]` (each piece
    its own numbers: a piece's box is the same in any index)."""
    count = len(offsets) - 1
    owner = np.repeat(np.arange(count), np.diff(offsets))
    first = offsets[:-1]
    length = np.hypot(edge_dx, edge_dy)
    result = np.zeros((4, count))
    if len(length) == 0:
        return result
    # each piece's first longest edge: the first edge as long as its piece's longest
    longest = np.maximum.reduceat(length, first).take(owner)
    at = np.flatnonzero(length == longest)
    # each piece's first such edge: where the (sorted) owners change, as `np.unique`'s first
    # indices, without its sort
    owners = owner.take(at)
    where = np.flatnonzero(np.concatenate(([True], owners[1:] != owners[:-1])))
    held, edge = owners.take(where), at.take(where)
    ux = edge_dx.take(edge) / length.take(edge)
    uy = edge_dy.take(edge) / length.take(edge)
    result[0, held], result[1, held] = ux, uy
    rx = edge_x - centre[:, 0].take(owner)
    ry = edge_y - centre[:, 1].take(owner)
    ux, uy = result[0].take(owner), result[1].take(owner)
    result[2] = np.maximum.reduceat(np.abs(rx * ux + ry * uy), first)
    result[3] = np.maximum.reduceat(np.abs(ry * ux - rx * uy), first)
    return result


def _convex_rows(
    geometries: Sequence[shapely.Geometry],
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """For each convex one-ring outline (`TerrainIndex.with_convex`): a (16,) column (centroid
    x, y, bounding radius, inscribed radius, the shrunk diagonals' 8 numbers, the box's 4)
    and its edges as (4, n) rows (x, y, dx, dy). Each outline's numbers are its own (the
    same element-wise operations whatever else is measured with it), so they are kept by
    the very object (immutable, held beside them) and only new outlines measured, all
    at once."""
    rows: list = [None] * len(geometries)
    edges: list = [None] * len(geometries)
    missed = []
    for k, geometry in enumerate(geometries):
        found = _CONVEX_ROWS.get(id(geometry))
        if found is not None and found[0] is geometry:
            rows[k], edges[k] = found[1], found[2]
        else:
            missed.append(k)
    if not missed:
        return rows, edges
    extra = np.empty(len(missed), dtype=object)
    extra[:] = [geometries[k] for k in missed]
    shapely.prepare(extra)
    coords, owner = shapely.get_coordinates(extra, return_index=True)
    centre = shapely.get_coordinates(shapely.centroid(extra))
    outer_r = np.zeros(len(extra))
    np.maximum.at(outer_r, owner, np.hypot(*(coords - centre[owner]).T))
    edge = np.flatnonzero(owner[1:] == owner[:-1])  # each ring is closed: n + 1 points
    starts, ends, edge_owner = coords[edge], coords[edge + 1], owner[edge]
    gap = _segment_point_distance(starts, ends, centre[edge_owner])
    inner_r = np.full(len(extra), np.inf)
    np.minimum.at(inner_r, edge_owner, gap)
    counts = np.bincount(edge_owner, minlength=len(extra))
    offsets = np.concatenate(([0], np.cumsum(counts)))
    sides = np.stack(
        (starts[:, 0], starts[:, 1], ends[:, 0] - starts[:, 0], ends[:, 1] - starts[:, 1])
    )
    table = np.concatenate(
        (
            centre.T,
            outer_r[None, :],
            inner_r[None, :],
            _shrunk_diagonals(coords, owner, centre, counts).reshape(8, -1),
            _boxes(offsets, *sides, centre),
        )
    )
    if len(_CONVEX_ROWS) + len(missed) > MAX_CONVEX_ROWS:
        _CONVEX_ROWS.clear()
    for m, k in enumerate(missed):
        row, side = table[:, m].copy(), sides[:, offsets[m] : offsets[m + 1]].copy()
        rows[k], edges[k] = row, side
        _CONVEX_ROWS[id(extra[m])] = (extra[m], row, side)
    return rows, edges


MAX_CONVEX_ROWS = 4096  # outlines `_convex_rows` keeps (a few games' bases and places)
# by the outline's id, the outline kept alive beside its numbers (an id is never reused
# while the object lives)
_CONVEX_ROWS: dict[int, tuple[shapely.Geometry, np.ndarray, np.ndarray]] = {}


def _shrunk_diagonals(
    coords: np.ndarray, owner: np.ndarray, centre: np.ndarray, counts: np.ndarray
) -> np.ndarray:
    """(2, 4, P): for each convex ring of `counts[p]` edges (its closed coordinates in
    `coords`, by `owner`), the diagonals from vertex 0 to vertex n/2 and from n/4 to 3n/4
    (a rectangle's two) as x0, y0, x1, y1 rows, their ends pulled DIAGONAL_SHRINK of the
    way towards the centroid `centre[p]`. Pulled towards an interior point, every point
    of a convex piece lands in its interior, so the shrunk diagonals lie strictly inside
    it (even one along a straight side)."""
    first = np.searchsorted(owner, np.arange(len(counts)))
    ends = first[:, None] + (counts[:, None] * np.array([0, 2, 1, 3])) // 4
    points = coords[ends] * (1.0 - DIAGONAL_SHRINK) + centre[:, None, :] * DIAGONAL_SHRINK
    return np.ascontiguousarray(points.reshape(len(counts), 2, 4).transpose(1, 2, 0))


def _edges(geoms: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    starts, ends, offsets = [], [], [0]
    for geometry in geoms:
        count = 0
        for polygon in shapely.get_parts(geometry):
            for ring in shapely.get_rings(polygon):
                coords = shapely.get_coordinates(ring)
                starts.append(coords[:-1])
                ends.append(coords[1:])
                count += len(coords) - 1
        offsets.append(offsets[-1] + count)
    if not starts:
        return np.zeros((0, 2)), np.zeros((0, 2)), np.array(offsets)
    return np.concatenate(starts), np.concatenate(ends), np.array(offsets)


def _segment_point_distance(p0: np.ndarray, p1: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Distance from points c to segments p0-p1 (arrays of (..., 2), broadcasting)."""
    return _segment_gap(p0[..., 0], p0[..., 1], p1[..., 0], p1[..., 1], c[..., 0], c[..., 1])


def _segment_gap(ax, ay, bx, by, cx, cy) -> np.ndarray:
    """Distance from points (cx, cy) to segments (ax, ay)-(bx, by), coordinate arrays."""
    dx, dy = bx - ax, by - ay
    wx, wy = cx - ax, cy - ay
    length2 = dx * dx + dy * dy
    dot = wx * dx + wy * dy
    t = np.divide(dot, length2, out=np.zeros(np.shape(dot)), where=length2 > 0)
    t = np.clip(t, 0.0, 1.0)
    gx, gy = wx - t * dx, wy - t * dy
    return np.sqrt(gx * gx + gy * gy)
