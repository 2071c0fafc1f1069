"""Line of sight against terrain (GEO002.10; the rule system decides which pieces block,
e.g. R002.40, R002.41).

Reading adopted here: a straight line from `start` to `end` is blocked by a
piece when the line passes through the piece's **interior** (DE-9IM
interior/interior, `relate_pattern(line, piece, "T********")`). A line that only
touches the boundary (a tangent grazing a round rock, a line running along an
edge or through a single vertex from outside) is clear. A zero-length line
(start == end) is clear: there is nothing between the two points.

Terrain comes in as shapely polygons with string ids, indexed once in a
`TerrainIndex` (STRtree + prepared geometries for the per-pair reference test,
plus numpy caches for the vectorised test). `line_of_sight` answers one line
with GEOS; `lines_of_sight` / `los_hits` answer many lines with numpy:
bounding and inscribed discs settle most line/piece pairs, a crossing of a convex
piece's diagonals (shrunk inside it: a model's base) most of the rest's hits, proper
edge crossings and an even-odd test the rest, and the few degenerate ones (a vertex
or edge within 1e-9 of the line) go to the same GEOS predicate, so both paths give
the same answers. (shapely.linestrings + STRtree.query(predicate="intersects")
was measured at ~0.5 s for the 19,900 lines of 200 units: far over the budget.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import shapely
from shapely import STRtree

from tactical.errors import UserError
from tactical.geometry.compiled_kernels import available
from tactical.geometry.los_pieces import (
    _boxes,
    _convex_rows,
    _discs,
    _edges,
    _segment_gap,
    _segment_point_distance,
)
from tactical.geometry.measure import BLOCK_ELEMENTS

INTERIOR_PATTERN = "T********"
ORIENT_TOLERANCE = 1e-9  # square inches: a cross product this small means "touching"
DISC_TOLERANCE = 1e-9  # inches
# operands as 0-d arrays: numpy converts a Python number on every call
_EPS, _MINUS_EPS = np.array(ORIENT_TOLERANCE), np.array(-ORIENT_TOLERANCE)
_BOTH_OPPOSITE, _SAME_SIDE = np.array(-2, dtype=np.int8), np.array(1, dtype=np.int8)
# inches: the inscribed disc shrunk by this much; a line passing inside the shrunk disc's
# tangents passes at least that far inside the real one, far beyond the rounding of bearings
INNER_MARGIN = 1e-7
# square inches: a crossing of a shrunk diagonal counts only this far from touching, a
# thousand times the edge test's tolerance (a sure hit needs no close call)
DIAGONAL_TOLERANCE = 1e-6
# inches: a line this far clear of the box holding a piece surely misses the piece
BOX_MARGIN = 1e-6


@dataclass(frozen=True, slots=True)
class LosResult:
    """Whether the line is clear, and the terrain blocking it in order along the line."""

    clear: bool
    blocked_by: tuple[str, ...]


@dataclass(frozen=True, eq=False, init=False)
class TerrainIndex:
    """Terrain pieces indexed once for line-of-sight queries.

    `TerrainIndex(ids, geometries)`: `ids[k]` names the polygon `geometries[k]`
    (shapely Polygon or MultiPolygon, valid, ids unique; UserError otherwise).
    """

    ids: tuple[str, ...]
    geometries: np.ndarray  # object array of prepared polygons
    outer_centre: np.ndarray  # (T, 2): a disc holding the whole piece
    outer_radius: np.ndarray
    inner_centre: np.ndarray  # (T, 2): a disc inside the piece's interior (radius 0 if none)
    inner_radius: np.ndarray
    edge_offsets: np.ndarray  # (T + 1,) piece t owns edges edge_offsets[t]:edge_offsets[t + 1]
    edge_x: np.ndarray  # every ring edge of every piece, piece by piece: start and extent
    edge_y: np.ndarray
    edge_dx: np.ndarray
    edge_dy: np.ndarray
    # (T, 2, 4): two diagonals (x0, y0, x1, y1) of each convex piece shrunk inside it, NaN
    # for the other pieces (`diagonal_hits`)
    diagonals: np.ndarray

    def __init__(self, ids: Sequence[str], geometries: Sequence[shapely.Geometry]) -> None:
        ids = tuple(str(i) for i in ids)
        if len(ids) != len(geometries):
            raise UserError(f"{len(ids)} terrain ids but {len(geometries)} geometries")
        if len(set(ids)) != len(ids):
            duplicate = next(i for i in ids if ids.count(i) > 1)
            raise UserError(f"terrain id {duplicate!r} is used twice: ids must be unique")
        geoms = np.empty(len(ids), dtype=object)
        for k, (piece_id, geometry) in enumerate(zip(ids, geometries, strict=True)):
            if shapely.get_type_id(geometry) not in (3, 6):  # Polygon, MultiPolygon
                raise UserError(f"terrain {piece_id!r} is not a polygon: got {geometry.geom_type}")
            if geometry.is_empty or not geometry.is_valid:
                reason = shapely.is_valid_reason(geometry)
                raise UserError(f"terrain {piece_id!r} has an invalid outline: {reason}")
            geoms[k] = geometry
        shapely.prepare(geoms)
        outer_c, outer_r, inner_c, inner_r = _discs(geoms)
        starts, ends, offsets = _edges(geoms)
        values = {
            "ids": ids,
            "geometries": geoms,
            "tree": STRtree(geoms),
            "outer_centre": outer_c,
            "outer_radius": outer_r,
            "inner_centre": inner_c,
            "inner_radius": inner_r,
            "edge_offsets": offsets,
            "edge_x": np.ascontiguousarray(starts[:, 0]),
            "edge_y": np.ascontiguousarray(starts[:, 1]),
            "edge_dx": ends[:, 0] - starts[:, 0],
            "edge_dy": ends[:, 1] - starts[:, 1],
            "diagonals": np.full((2, 4, len(ids)), np.nan),
        }
        for name, value in values.items():
            object.__setattr__(self, name, value)

    @classmethod
    def build(cls, ids: Sequence[str], geometries: Sequence[shapely.Geometry]) -> TerrainIndex:
        """The same as `TerrainIndex(ids, geometries)`."""
        return cls(ids, geometries)

    def with_convex(
        self, ids: Sequence[str], geometries: Sequence[shapely.Geometry]
    ) -> TerrainIndex:
        """This index with convex one-ring pieces after its own: the bases of models that block
        line of sight (e.g. R002.41). Their discs are found in closed form: both centred on
        the centroid, the bounding one through the farthest vertex, the inscribed one
        touching the nearest edge. Their ids are their models' and may repeat a terrain id:
        read them by position.

        A table's bases change with every move, but most outlines recur from table to table
        (a unit's own, a candidate place's): each outline's numbers are remembered by the
        very object (`_convex_rows`) and only new ones measured; the tree is built when
        first asked (the pair tests never ask)."""
        if len(geometries) == 0:
            return self
        rows, edges = _convex_rows(geometries)
        offsets = np.concatenate(
            (self.edge_offsets, self.edge_offsets[-1] + np.cumsum([e.shape[1] for e in edges]))
        )
        rows = np.stack(rows, axis=1)  # (16, P): as `_ConvexRow`'s columns
        edges = np.concatenate(edges, axis=1)  # (4, E): x, y, dx, dy
        centre = np.ascontiguousarray(rows[0:2].T)
        extra = np.empty(len(geometries), dtype=object)
        extra[:] = list(geometries)
        combined = object.__new__(TerrainIndex)
        values = {
            "ids": self.ids + tuple(str(i) for i in ids),
            "geometries": np.concatenate((self.geometries, extra)),
            "outer_centre": np.concatenate((self.outer_centre, centre)),
            "outer_radius": np.concatenate((self.outer_radius, rows[2])),
            "inner_centre": np.concatenate((self.inner_centre, centre)),
            "inner_radius": np.concatenate((self.inner_radius, rows[3])),
            "edge_offsets": offsets,
            "edge_x": np.concatenate((self.edge_x, edges[0])),
            "edge_y": np.concatenate((self.edge_y, edges[1])),
            "edge_dx": np.concatenate((self.edge_dx, edges[2])),
            "edge_dy": np.concatenate((self.edge_dy, edges[3])),
            "diagonals": np.concatenate((self.diagonals, rows[4:12].reshape(2, 4, -1)), axis=2),
            "boxes": np.concatenate((self.boxes, rows[12:16]), axis=1),
        }
        for name, value in values.items():
            object.__setattr__(combined, name, value)
        return combined

    @cached_property
    def tree(self) -> STRtree:
        """The pieces in a spatial tree (the one-line reference test and the contacts')."""
        return STRtree(self.geometries)

    def __len__(self) -> int:
        return len(self.ids)

    @cached_property
    def sight(self) -> SightDiscs:
        """The discs as line-of-sight tests of many lines use them (computed once)."""
        inner = self.inner_radius - INNER_MARGIN
        radius = np.concatenate(
            (self.outer_radius + DISC_TOLERANCE, np.where(inner > 0, inner, -1.0))
        )
        return SightDiscs(
            np.concatenate((self.outer_centre[:, 0], self.inner_centre[:, 0])),
            np.concatenate((self.outer_centre[:, 1], self.inner_centre[:, 1])),
            radius,
            np.abs(radius),
            np.stack((np.diff(self.edge_offsets), self.edge_offsets[:-1])),
            np.stack((self.edge_x, self.edge_y, self.edge_dx, self.edge_dy)),
        )

    @cached_property
    def boxes(self) -> np.ndarray:
        """(4, T): a box holding each piece, centred on its bounding disc's centre and turned
        along its longest edge: that edge's direction (ux, uy), then the half-widths
        along it and across it that hold every vertex (`_box_misses`; a base's own
        rectangle)."""
        return _boxes(
            self.edge_offsets, self.edge_x, self.edge_y, self.edge_dx, self.edge_dy,
            self.outer_centre,
        )  # fmt: skip

    def mask(self, blocking_ids: Sequence[str]) -> np.ndarray:
        """A (T,) blocking mask from the ids of the pieces that block."""
        wanted = set(blocking_ids)
        unknown = wanted - set(self.ids)
        if unknown:
            raise UserError(f"unknown terrain id(s): {', '.join(sorted(unknown))}")
        return np.array([i in wanted for i in self.ids], dtype=bool)


@dataclass(frozen=True, slots=True)
class SightDiscs:
    """Every piece's bounding disc, then every piece's inscribed disc, as (2T,) columns.

    Bounding discs have their radius plus DISC_TOLERANCE; inscribed discs their radius
    less INNER_MARGIN, or -1 for a piece with none (so no line is ever sure to cross
    it). `scale` is |radius|: radius / max(distance, scale) is a sine in [-1, 1].
    `edge_range[:, t]` is the number of ring edges of piece t and the first one's index;
    `edges` the ring edges' (x, y, dx, dy) rows (`TerrainIndex.edge_x` ...).
    """

    x: np.ndarray
    y: np.ndarray
    radius: np.ndarray
    scale: np.ndarray
    edge_range: np.ndarray
    edges: np.ndarray


# --------------------------------------------------------------------------- one line (GEOS)


def _check_mask(index: TerrainIndex, blocking: np.ndarray | None, shape: tuple) -> np.ndarray:
    if blocking is None:
        return np.ones(shape, dtype=bool)
    mask = np.asarray(blocking, dtype=bool)
    if mask.shape not in (shape, (len(index),)):
        raise UserError(
            f"blocking mask of shape {mask.shape} does not match {len(index)} terrain pieces"
        )
    return mask


def line_of_sight(
    index: TerrainIndex,
    start: tuple[float, float],
    end: tuple[float, float],
    blocking: np.ndarray | None = None,
) -> LosResult:
    """Line of sight from `start` to `end` (points, usually unit centres).

    `blocking` is an optional (T,) boolean mask: which pieces block this line
    (the rule system decides, e.g. R002.40); by default every piece blocks.
    `blocked_by` lists the blocking pieces in the order the line meets them.
    """
    mask = _check_mask(index, blocking, (len(index),))
    if tuple(start) == tuple(end) or len(index) == 0:
        return LosResult(True, ())
    line = shapely.linestrings([start, end])
    candidates = index.tree.query(line, predicate="intersects")
    candidates = candidates[mask[candidates]]
    hits = candidates[shapely.relate_pattern(line, index.geometries[candidates], INTERIOR_PATTERN)]
    blocked_by = order_along(index, start, end, hits)
    return LosResult(not blocked_by, blocked_by)


def order_along(
    index: TerrainIndex, start: tuple[float, float], end: tuple[float, float], pieces: np.ndarray
) -> tuple[str, ...]:
    """Ids of `pieces` sorted by where the line from `start` to `end` first meets each."""
    if len(pieces) == 0:
        return ()
    line = shapely.linestrings([start, end])
    direction = np.subtract(end, start)
    firsts = []
    for piece in np.asarray(pieces):
        meeting = shapely.get_coordinates(shapely.intersection(line, index.geometries[piece]))
        along = (meeting - start) @ direction if len(meeting) else np.array([np.inf])
        firsts.append((float(along.min()), int(piece)))
    return tuple(index.ids[piece] for _, piece in sorted(firsts))


# --------------------------------------------------------------------------- many lines (numpy)


@dataclass(frozen=True, slots=True)
class Lines:
    """Candidate lines as coordinate columns: line k runs (ax[k], ay[k]) -> (bx[k], by[k])."""

    ax: np.ndarray
    ay: np.ndarray
    bx: np.ndarray
    by: np.ndarray

    @classmethod
    def of(cls, starts: np.ndarray, ends: np.ndarray) -> Lines:
        return cls(starts[:, 0], starts[:, 1], ends[:, 0], ends[:, 1])

    def take(self, which: np.ndarray) -> Lines:
        return Lines(self.ax[which], self.ay[which], self.bx[which], self.by[which])

    def __len__(self) -> int:
        return len(self.ax)


def _inner_hits(index: TerrainIndex, lines: Lines, piece: np.ndarray) -> np.ndarray:
    """Lines sure to cross the piece's interior: they pass inside its inscribed disc."""
    inner = _segment_gap(
        lines.ax, lines.ay, lines.bx, lines.by,
        index.inner_centre[:, 0].take(piece), index.inner_centre[:, 1].take(piece),
    )  # fmt: skip
    moving = (lines.ax != lines.bx) | (lines.ay != lines.by)  # a zero-length line is clear
    return moving & (inner < index.inner_radius.take(piece) - DISC_TOLERANCE)


def _outer_meets(index: TerrainIndex, lines: Lines, piece: np.ndarray) -> np.ndarray:
    """Lines that may meet the piece: non-degenerate and within its bounding disc."""
    outer = _segment_gap(
        lines.ax, lines.ay, lines.bx, lines.by,
        index.outer_centre[:, 0].take(piece), index.outer_centre[:, 1].take(piece),
    )  # fmt: skip
    live = (lines.ax != lines.bx) | (lines.ay != lines.by)
    return live & (outer <= index.outer_radius.take(piece) + DISC_TOLERANCE)


def _slices(count: int, size: int = BLOCK_ELEMENTS) -> list[slice]:
    return [slice(first, min(first + size, count)) for first in range(0, count, size)]


def hits_among(
    index: TerrainIndex,
    lines: Lines,
    piece: np.ndarray,
    inner_done: bool = False,
    reaching: bool = False,
) -> np.ndarray:
    """Whether each candidate line k crosses the interior of piece[k] (same answers as
    `line_of_sight`, vectorised; GEO002.10). `inner_done`: the caller has already applied
    the inscribed-disc test (a line it settles is a hit by the exact test too).
    `reaching` (with `inner_done`): the lines have length and were found by the piece's
    bounding cone and reach (`matrix._los_blocked`), so the bounding-disc filter is
    skipped: it would drop next to none, and every test after it calls a line that misses
    the disc clear anyway (a proper crossing, a midpoint inside or GEOS's interior all
    lie within the disc), so the answers are the same."""
    if reaching and inner_done:
        return _diagonal_then_edges(index, lines, piece, None, np.zeros(len(piece), dtype=bool))
    result = np.zeros(len(piece), dtype=bool)
    meets = np.zeros(len(piece), dtype=bool)
    for part in _slices(len(piece)):
        block, block_piece = lines.take(part), piece[part]
        meets[part] = _outer_meets(index, block, block_piece)
        if not inner_done:
            result[part] = meets[part] & _inner_hits(index, block, block_piece)
    return _diagonal_then_edges(index, lines, piece, np.flatnonzero(meets & ~result), result)


def reaching_hits(
    index: TerrainIndex, lines: Lines, piece: np.ndarray, use_kernel: bool = False
) -> np.ndarray:
    """`hits_among(index, lines, piece, inner_done=True, reaching=True)` (the lines the pair
    matrix's cones found; GEO002.10); with `use_kernel`, by the compiled kernel where it
    may run (`los_kernel`, a big stream's): the same answers, GEOS still deciding a line
    that touches an outline."""
    if not (use_kernel and len(piece) and available()):
        return hits_among(index, lines, piece, inner_done=True, reaching=True)
    from tactical.geometry import los_kernel  # imports numba

    ends = (np.ascontiguousarray(column) for column in (lines.ax, lines.ay, lines.bx, lines.by))
    sight = index.sight  # its first T centres the bounding discs', contiguous: once an index
    hit, doubtful = los_kernel.reaching_hits(
        *ends, np.ascontiguousarray(piece), index.diagonals, *index.boxes,
        sight.x[: len(index)], sight.y[: len(index)], index.edge_offsets, index.edge_x,
        index.edge_y, index.edge_dx, index.edge_dy, DIAGONAL_TOLERANCE, ORIENT_TOLERANCE,
        BOX_MARGIN,
    )  # fmt: skip
    doubt = np.flatnonzero(doubtful)
    if len(doubt):  # as `_edge_block` asks GEOS
        hit[doubt] = _geos_crosses(index, lines, piece, doubt)
    return hit


def cone_candidates(
    cone, left, counts, order, distance, angle, pair_j, cones, pieces, owners, mask
) -> tuple[np.ndarray, ...]:
    """`matrix._los_blocked`'s candidates by the compiled kernel (`los_kernel`; the caller
    checked `available()`): (sure pair, sure piece, other pair, other piece), the very
    lists its numpy batches give. `owners`: a level blocking's bases (a target's own is
    dropped); `mask`: the pieces that block (a boolean blocking); neither: every piece."""
    from tactical.geometry import los_kernel  # imports numba

    mode = 1 if owners is not None else 2 if mask is not None else 0
    unused = np.zeros(1, dtype=np.intp)
    # the pairs' numbers in the order the cones read them: runs, not scattered reads
    in_order = (distance.take(order), angle.take(order), pair_j.take(order))
    return los_kernel.cone_candidates(
        cone, left, counts, order, *in_order,
        *(np.ascontiguousarray(column).reshape(-1) for column in (
            cones.near, cones.inner_theta, cones.inner_half, cones.inner_reach)),
        pieces, mode, unused if owners is None else np.asarray(owners, dtype=np.intp),
        np.zeros(1, dtype=bool) if mask is None else np.asarray(mask, dtype=bool),
    )  # fmt: skip


def _diagonal_then_edges(
    index: TerrainIndex,
    lines: Lines,
    piece: np.ndarray,
    ambiguous: np.ndarray | None,
    result: np.ndarray,
) -> np.ndarray:
    """`result` with the `ambiguous` candidates (None: every one) settled: by the shrunk
    diagonals where they are sure (`diagonal_hits`), the rest by the exact test
    (`_edge_test`)."""
    if ambiguous is None:  # every candidate: its slices are views, nothing gathered
        sure = np.zeros(len(piece), dtype=bool)
        for part in _slices(len(piece)):
            sure[part] = diagonal_hits(index, lines.take(part), piece[part])
        result |= sure
        ambiguous = np.flatnonzero(~sure)
    elif len(ambiguous):
        sure = np.zeros(len(ambiguous), dtype=bool)
        for part in _slices(len(ambiguous)):
            chosen = ambiguous[part]
            sure[part] = diagonal_hits(index, lines.take(chosen), piece.take(chosen))
        result[ambiguous.take(np.flatnonzero(sure))] = True
        ambiguous = ambiguous.take(np.flatnonzero(~sure))
    result[ambiguous] = _edge_test(index, lines.take(ambiguous), piece[ambiguous])
    return result


def diagonal_hits(index: TerrainIndex, lines: Lines, piece: np.ndarray) -> np.ndarray:
    """Lines sure to cross the interior of piece[k] (GEO002.10), cheaply: those crossing
    one of a convex piece's shrunk diagonals (`TerrainIndex.diagonals`, strictly inside
    it) properly, by more than DIAGONAL_TOLERANCE. A line this calls a hit the exact test
    calls one too; the others are left to it (never a hit for a non-convex piece)."""
    ax, ay = lines.ax, lines.ay
    abx, aby = lines.bx - ax, lines.by - ay
    eps = DIAGONAL_TOLERANCE
    sure = np.zeros(len(piece), dtype=bool)
    for diagonal in index.diagonals:
        px, py, qx, qy = np.take(diagonal, piece, axis=1)  # a gather: 4x faster
        ex, ey = qx - px, qy - py
        rx, ry = px - ax, py - ay  # the diagonal's start from the line's start
        # which side of the line each end of the diagonal lies, and which side of the
        # diagonal each line end (the terms of `_edge_block`)
        o1 = abx * ry - aby * rx
        turn = abx * ey - aby * ex
        o2 = o1 + turn
        o3 = ey * rx - ex * ry
        o4 = o3 - turn
        proper = (np.minimum(o1, o2) < -eps) & (np.maximum(o1, o2) > eps)
        proper &= (np.minimum(o3, o4) < -eps) & (np.maximum(o3, o4) > eps)
        sure |= proper
    return sure


def _meeting(index: TerrainIndex, lines: Lines, piece: np.ndarray, which: np.ndarray):
    """Mask over `which`: those candidates whose line meets the piece's bounding disc."""
    keep = np.zeros(len(which), dtype=bool)
    for part in _slices(len(which)):
        chosen = which[part]
        keep[part] = _outer_meets(index, lines.take(chosen), piece[chosen])
    return keep


def blocked_segments(
    index: TerrainIndex,
    lines: Lines,
    piece: np.ndarray,
    segment: np.ndarray,
    segment_count: int,
    inner_done: bool = False,
    reaching: bool = False,
) -> np.ndarray:
    """(segment_count,) booleans: whether any candidate piece blocks each line.

    Candidate k is `lines` k (line number `segment[k]`) against `piece[k]`.
    A line settled by a cheap test is not tested against its other pieces.
    `inner_done`: the caller has already applied the inscribed-disc test. `reaching`:
    the candidates were found by the piece's bounding cone and reach, so the bounding-disc
    filter is skipped, as `hits_among` skips it (the same answers).
    """
    blocked = np.zeros(segment_count, dtype=bool)
    if not inner_done:
        for part in _slices(len(piece)):
            sure = _inner_hits(index, lines.take(part), piece[part])
            blocked[segment[part][sure]] = True
    rest = np.flatnonzero(~blocked[segment])
    if not reaching:
        rest = rest[_meeting(index, lines, piece, rest)]
    hit = _edge_test(index, lines.take(rest), piece[rest])
    blocked[segment[rest[hit]]] = True
    return blocked


def _edge_test(index: TerrainIndex, lines: Lines, piece: np.ndarray) -> np.ndarray:
    """Exact interior test for lines that cross a piece's bounding disc but not its inner one,
    in blocks of at most BLOCK_ELEMENTS line/edge combinations; a line that misses the
    piece's box (`_box_misses`) is clear without its edges."""
    result = np.zeros(len(piece), dtype=bool)
    near = np.flatnonzero(~_box_misses(index, lines, piece))
    if len(near) < len(piece):
        lines, piece = lines.take(near), piece.take(near)
    found = np.zeros(len(piece), dtype=bool)
    counts = index.edge_offsets.take(piece + 1) - index.edge_offsets.take(piece)
    ends = np.cumsum(counts)
    first = 0
    while first < len(piece):
        done = ends[first - 1] if first else 0
        last = max(first + 1, int(np.searchsorted(ends, done + BLOCK_ELEMENTS, side="right")))
        part = slice(first, last)
        found[part] = _edge_block(index, lines.take(part), piece[part])
        first = last
    result[near] = found
    return result


def _box_misses(index: TerrainIndex, lines: Lines, piece: np.ndarray) -> np.ndarray:
    """Lines sure to miss piece[k] (GEO002.10), cheaply: those more than BOX_MARGIN clear of
    the box holding it (`TerrainIndex.boxes`), along either side of the box or across
    the line. A line that far from every point of a piece crosses no edge, touches none
    and has its midpoint outside: the exact test calls it clear too."""
    ux, uy, half_u, half_v = (column.take(piece) for column in index.boxes)
    ax = lines.ax - index.outer_centre[:, 0].take(piece)  # from the box's centre
    ay = lines.ay - index.outer_centre[:, 1].take(piece)
    bx = lines.bx - index.outer_centre[:, 0].take(piece)
    by = lines.by - index.outer_centre[:, 1].take(piece)
    along_a, along_b = ax * ux + ay * uy, bx * ux + by * uy
    across_a, across_b = ay * ux - ax * uy, by * ux - bx * uy
    reach_u, reach_v = half_u + BOX_MARGIN, half_v + BOX_MARGIN
    misses = (np.minimum(along_a, along_b) > reach_u) | (np.maximum(along_a, along_b) < -reach_u)
    misses |= np.minimum(across_a, across_b) > reach_v
    misses |= np.maximum(across_a, across_b) < -reach_v
    # the box's centre farther from the line than the box reaches across it (all times the
    # line's length)
    dx, dy = bx - ax, by - ay
    reach = half_u * np.abs(ux * dy - uy * dx) + half_v * np.abs(ux * dx + uy * dy)
    reach += BOX_MARGIN * np.hypot(dx, dy)
    misses |= np.abs(ax * dy - ay * dx) > reach
    return misses


def _edge_block(index: TerrainIndex, lines: Lines, piece: np.ndarray) -> np.ndarray:
    """Exact interior test for lines that cross a piece's bounding disc but not its inner one.

    A proper crossing of an edge (strictly on both sides, both ways) puts the
    line into the interior. With no contact at all the line is wholly inside
    or outside: even-odd test of its midpoint. Any near-contact (a vertex or an
    edge within tolerance of the line) is left to GEOS.
    """
    first, stops = index.edge_offsets.take(piece), index.edge_offsets.take(piece + 1)
    counts = stops - first
    size = len(piece)
    begins = np.cumsum(counts) - counts  # where each candidate's edges begin (one or more)
    owner = np.repeat(np.arange(size), counts)
    edge = np.arange(counts.sum()) + np.repeat(first - begins, counts)
    # gathers and index lists rather than boolean masks: numpy compresses by a mask at a
    # fraction of the speed
    ax, ay = lines.ax.take(owner), lines.ay.take(owner)
    abx, aby = (lines.bx - lines.ax).take(owner), (lines.by - lines.ay).take(owner)
    e0x, e0y, ex, ey = (
        index.edge_x.take(edge),
        index.edge_y.take(edge),
        index.edge_dx.take(edge),
        index.edge_dy.take(edge),
    )
    eps = ORIENT_TOLERANCE
    # which side of the line each edge end lies, and which side of the edge each line end
    o1 = abx * (e0y - ay) - aby * (e0x - ax)
    o2 = o1 + abx * ey - aby * ex
    o3 = ex * (ay - e0y) - ey * (ax - e0x)
    o4 = o3 + ex * aby - ey * abx
    low12, high12 = np.minimum(o1, o2), np.maximum(o1, o2)
    low34, high34 = np.minimum(o3, o4), np.maximum(o3, o4)
    proper = (low12 < -eps) & (high12 > eps) & (low34 < -eps) & (high34 > eps)
    apart = (low12 > eps) | (high12 < -eps) | (low34 > eps) | (high34 < -eps)
    crossing = np.logical_or.reduceat(proper, begins)
    touching = np.logical_or.reduceat(~(proper | apart), begins)
    result = crossing.copy()
    # no contact with the boundary: wholly inside or wholly outside (midpoint even-odd rule)
    quiet = np.flatnonzero((~crossing & ~touching).take(owner))
    if len(quiet):
        mx, my = ax.take(quiet) + abx.take(quiet) / 2, ay.take(quiet) + aby.take(quiet) / 2
        q0x, q0y, qx, qy = e0x.take(quiet), e0y.take(quiet), ex.take(quiet), ey.take(quiet)
        rises = (q0y > my) != (q0y + qy > my)
        with np.errstate(divide="ignore", invalid="ignore"):
            x_cross = q0x + (my - q0y) * qx / qy
        parity = np.bincount(owner.take(quiet), rises & (mx < x_cross), minlength=size)
        result |= ~touching & (parity % 2 == 1)
    doubtful = np.flatnonzero(~crossing & touching)
    if len(doubtful):
        result[doubtful] = _geos_crosses(index, lines, piece, doubtful)
    return result


def _geos_crosses(
    index: TerrainIndex, lines: Lines, piece: np.ndarray, which: np.ndarray
) -> np.ndarray:
    """Whether each line `which[k]` passes through its piece's interior, asked of GEOS (a
    line touching an edge or a corner, which the edge tests leave in doubt: GEO002.10)."""
    starts = np.column_stack((lines.ax[which], lines.ay[which]))
    ends = np.column_stack((lines.bx[which], lines.by[which]))
    return shapely.relate_pattern(
        shapely.linestrings(np.stack((starts, ends), axis=1)),
        index.geometries[piece[which]],
        INTERIOR_PATTERN,
    )


def hits_from_point(
    index: TerrainIndex,
    start: tuple[float, float],
    end_x: np.ndarray,
    end_y: np.ndarray,
    piece: np.ndarray,
    start_may_be_inside: np.ndarray,
) -> np.ndarray:
    """Whether each line from `start` to (end_x[k], end_y[k]) crosses the interior of
    piece[k]: the answers of `hits_among` for lines that share their start point.

    The edge tests are `_edge_block`'s. A line with no contact with the boundary lies
    wholly inside or wholly outside the piece, so it is inside when its start is: that
    is asked of GEOS only where `start_may_be_inside[k]` (the start lies in the piece's
    bounding disc); elsewhere such a line is clear.
    """
    size = len(piece)
    if size == 0:
        return np.zeros(0, dtype=bool)
    ax, ay = start
    dx, dy = end_x - ax, end_y - ay
    counts, offsets = index.sight.edge_range[:, piece]
    ends = counts.cumsum()
    firsts = ends - counts  # where each candidate's edges begin
    owner = np.arange(size).repeat(counts)
    edge = np.arange(ends[-1]) + (offsets - firsts).repeat(counts)
    rx, ry, ex, ey = index.sight.edges[:, edge]
    rx, ry = rx - ax, ry - ay  # edge start from the line start
    abx, aby = dx[owner], dy[owner]
    # which side of the line each edge end lies (o1, o2), and which side of the edge each
    # line end (o3, o4): the terms of `_edge_block`, with the shared cross product once
    sides = np.empty((4, len(edge)))
    o1 = np.subtract(abx * ry, aby * rx, out=sides[0])
    turn = abx * ey - aby * ex
    np.add(o1, turn, out=sides[1])
    o3 = np.subtract(ey * rx, ex * ry, out=sides[2])
    np.subtract(o3, turn, out=sides[3])
    # each side as -1, 0 (within the tolerance) or +1; a pair's product is -1 when its two
    # ends lie strictly on opposite sides, +1 when strictly on the same side
    sign = (sides > _EPS).view(np.int8) - (sides < _MINUS_EPS).view(np.int8)
    pair = sign[0::2] * sign[1::2]  # (line side of the edge ends, edge side of the line ends)
    result = np.logical_or.reduceat((pair[0] + pair[1]) == _BOTH_OPPOSITE, firsts)  # crossing
    # an edge not apart from the line: for a line with no proper crossing, a contact
    touching = np.logical_or.reduceat(np.maximum(pair[0], pair[1]) < _SAME_SIDE, firsts)
    quiet = (~(result | touching) & start_may_be_inside).nonzero()[0]
    if len(quiet):
        result[quiet] = shapely.contains_xy(index.geometries[piece[quiet]], ax, ay)
    doubtful = (touching & ~result).nonzero()[0]
    if len(doubtful):
        lines = np.empty((len(doubtful), 2, 2))
        lines[:, 0] = start
        lines[:, 1, 0] = end_x[doubtful]
        lines[:, 1, 1] = end_y[doubtful]
        result[doubtful] = shapely.relate_pattern(
            shapely.linestrings(lines), index.geometries[piece[doubtful]], INTERIOR_PATTERN
        )
    return result


def _candidates(
    index: TerrainIndex, starts: np.ndarray, ends: np.ndarray, blocking: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    """(line, piece) pairs whose line meets the piece's bounding disc and the mask allows."""
    if starts.shape != ends.shape:
        raise UserError(f"{len(starts)} line starts but {len(ends)} line ends")
    mask = _check_mask(index, blocking, (len(starts), len(index)))
    empty = np.zeros(0, dtype=np.int64)
    if len(index) == 0 or len(starts) == 0:
        return empty, empty
    segments, pieces = [], []
    rows_per_chunk = max(1, BLOCK_ELEMENTS // len(index))
    for first in range(0, len(starts), rows_per_chunk):
        rows = slice(first, first + rows_per_chunk)
        gap = _segment_point_distance(
            starts[rows, None, :], ends[rows, None, :], index.outer_centre[None, :, :]
        )
        near = gap <= index.outer_radius + DISC_TOLERANCE
        near &= mask[rows] if mask.ndim == 2 else mask
        s, p = np.nonzero(near)
        segments.append(s + first)
        pieces.append(p)
    return np.concatenate(segments), np.concatenate(pieces)


def los_hits(
    index: TerrainIndex,
    starts: np.ndarray,
    ends: np.ndarray,
    blocking: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Every (line, piece) pair where the piece blocks the line: two index arrays.

    `starts`, `ends`: (M, 2). `blocking`: None, a (T,) mask for every line or an
    (M, T) mask per line.
    """
    starts = np.asarray(starts, dtype=float).reshape(-1, 2)
    ends = np.asarray(ends, dtype=float).reshape(-1, 2)
    segment, piece = _candidates(index, starts, ends, blocking)
    hit = hits_among(index, Lines.of(starts[segment], ends[segment]), piece)
    return segment[hit], piece[hit]


def lines_of_sight(
    index: TerrainIndex,
    starts: np.ndarray,
    ends: np.ndarray,
    blocking: np.ndarray | None = None,
) -> np.ndarray:
    """(M,) booleans: whether each line starts[k] -> ends[k] is clear (masks as `los_hits`)."""
    starts = np.asarray(starts, dtype=float).reshape(-1, 2)
    ends = np.asarray(ends, dtype=float).reshape(-1, 2)
    segment, piece = _candidates(index, starts, ends, blocking)
    lines = Lines.of(starts[segment], ends[segment])
    return ~blocked_segments(index, lines, piece, segment, len(starts))
