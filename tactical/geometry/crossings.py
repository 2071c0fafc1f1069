"""The order in which lines meet the pieces in their way (GEO002.10), many lines at once:
where a line enters a piece (`entry_fractions`, edge by edge), and each line's pieces put
in that order (`order_crossings`), measuring entries only where the spans of the pieces'
discs, then of their boxes, overlap along the line.
"""

from __future__ import annotations

import math
from types import ModuleType

import numpy as np
import shapely

from tactical.geometry.compiled_kernels import available
from tactical.geometry.los import DISC_TOLERANCE, TerrainIndex
from tactical.geometry.measure import BLOCK_ELEMENTS

__all__ = ["compiled", "entry_fractions", "entry_fractions_along", "order_crossings"]


def compiled() -> ModuleType | None:
    """The compiled kernels (`crossings_kernel`), or None where they may not run
    (`compiled_kernels.available`: numba absent or TACTICAL_NO_JIT set)."""
    if not available():
        return None
    from tactical.geometry import crossings_kernel  # imports numba

    return crossings_kernel


def order_crossings(
    terrain: TerrainIndex,
    x: np.ndarray,
    y: np.ndarray,
    i: np.ndarray,
    j: np.ndarray,
    line: np.ndarray,
    piece: np.ndarray,
    use_kernel: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """The (line k, piece) pairs of the pieces crossing each line from (x[i[k]], y[i[k]]) to
    (x[j[k]], y[j[k]]), in any order, sorted by line and along each line in the order it
    meets them (GEO002.10).

    Pieces are ordered by where the line enters them (`entry_fractions`), ties broken
    by id, as GEOS's distance to each crossing orders them; a line the fractions
    leave in doubt (two entries within 1e-9, or one unknown) is measured by GEOS.
    Each piece lies in its bounding disc and in its box, so where their spans along a
    line do not overlap, the spans give that order already: entries are measured only
    among pieces whose spans overlap (the same order, far fewer edges crossed).

    `use_kernel`: by the compiled kernel where it may run (`compiled`; the caller of a big
    stream asks), the same arrays."""
    line, piece = np.asarray(line, dtype=np.intp), np.asarray(piece, dtype=np.intp)
    if len(line) == 0:
        return line, piece
    kernel = compiled() if use_kernel else None
    if kernel is not None:
        return _compiled_order(kernel, terrain, x, y, i, j, line, piece)
    # each line's start, extent and length once, gathered for its pieces (gathers by
    # take: a third faster than indexing by an array)
    sx, sy = x.take(i), y.take(i)
    dx, dy = x.take(j) - sx, y.take(j) - sy
    length2 = dx * dx + dy * dy
    length2 = np.where(length2 > 0, length2, 1.0)
    sight = terrain.sight  # its first T centres: the bounding discs' (columns)
    middle = (sight.x.take(piece) - sx.take(line)) * dx.take(line)
    middle += (sight.y.take(piece) - sy.take(line)) * dy.take(line)
    middle /= length2.take(line)
    length = np.sqrt(length2)
    reach = (terrain.outer_radius.take(piece) + 1e-6) / length.take(line)
    order, line, low = _sorted_by_line_then(line, middle - reach)
    piece, middle = piece.take(order), middle.take(order)
    # a line crossing one piece is a group of its own: it needs no order
    joins = _joins(line, low, middle + reach.take(order))
    shared = np.flatnonzero(joins | np.r_[joins[1:], False])  # groups of two or more
    if len(shared) == 0:
        return line, piece
    # those again by the spans of their boxes (`TerrainIndex.boxes`, inside the discs'
    # spans: the groups keep their places), far narrower for a long base: fewer entries
    # to measure
    on, crossed, middle = line.take(shared), piece.take(shared), middle.take(shared)
    along_x, along_y = (dx / length).take(on), (dy / length).take(on)
    ux, uy, half_u, half_v = (column.take(crossed) for column in terrain.boxes)
    box = half_u * np.abs(ux * along_x + uy * along_y)
    box += half_v * np.abs(ux * along_y - uy * along_x)
    reach = np.minimum(terrain.outer_radius.take(crossed), box)
    reach += 1e-6
    reach /= length.take(on)
    order, on, low = _sorted_by_line_then(on, middle - reach)
    piece[shared] = crossed = crossed.take(order)
    joins = _joins(on, low, middle.take(order) + reach.take(order))
    again = np.flatnonzero(joins | np.r_[joins[1:], False])
    if len(again) == 0:
        return line, piece
    group = np.cumsum(~joins).take(again)
    shared, on, crossed = shared.take(again), on.take(again), crossed.take(again)
    fraction = entry_fractions_along(
        terrain, sx.take(on), sy.take(on), dx.take(on), dy.take(on), crossed
    )
    # by entry within each group; entries within 1e-9 of each other (ties among them)
    # put their line to GEOS below, which orders it whole, ties by id
    unknown = np.isnan(fraction)
    entry = np.where(unknown, 0.0, fraction)
    within = _by_line_then(group, entry)  # whole groups: each still a run of its own
    piece[shared] = crossed.take(within)
    entry, unknown = entry.take(within), unknown.take(within)
    close = np.r_[False, (np.diff(entry) < 1e-9) & (group[1:] == group[:-1])]
    flagged = on[close | unknown]  # sorted by line: its distinct lines without a sort
    doubtful = flagged[np.flatnonzero(np.diff(flagged, prepend=-1))]
    _put_to_geos(terrain, x, y, i, j, line, piece, doubtful)
    return line, piece


def _compiled_order(
    kernel: ModuleType,
    terrain: TerrainIndex,
    x: np.ndarray,
    y: np.ndarray,
    i: np.ndarray,
    j: np.ndarray,
    line: np.ndarray,
    piece: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """`order_crossings` by the compiled kernels: the same numbers in loops, line by line;
    a start on or inside a piece and the doubtful lines still go to GEOS, as above."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    i, j = np.asarray(i, dtype=np.intp), np.asarray(j, dtype=np.intp)
    sight = terrain.sight
    line, piece, at, group, sx, sy, dx, dy = kernel.span_groups(
        x, y, i, j, line, piece, sight.x, sight.y, terrain.outer_radius, *terrain.boxes
    )
    if len(at) == 0:
        return line, piece
    # a start inside the bounding disc may be on or inside the piece (`entry_fractions_along`)
    near = kernel.near_starts(
        line, piece, at, sx, sy, sight.x, sight.y, terrain.outer_radius, DISC_TOLERANCE
    )
    inside = np.zeros(len(at), dtype=bool)
    if len(near):
        crossed, on = piece.take(at.take(near)), line.take(at.take(near))
        inside[near] = shapely.intersects(
            terrain.geometries[crossed], shapely.points(sx.take(on), sy.take(on))
        )
    doubtful = kernel.first_crossings(
        line, piece, at, group, inside, sx, sy, dx, dy, terrain.edge_offsets,
        terrain.edge_x, terrain.edge_y, terrain.edge_dx, terrain.edge_dy,
    )  # fmt: skip
    _put_to_geos(terrain, x, y, i, j, line, piece, doubtful)
    return line, piece


def _put_to_geos(terrain, x, y, i, j, line, piece, doubtful) -> None:
    """Each doubtful line's pieces (a run of `piece`) reordered in place by GEOS."""
    if len(doubtful):
        bounds = np.searchsorted(line, np.stack((doubtful, doubtful + 1)))
        for k, begin, end in zip(doubtful.tolist(), *bounds.tolist(), strict=True):
            start, stop = (x[i[k]], y[i[k]]), (x[j[k]], y[j[k]])
            piece[begin:end] = _measured_order(terrain, start, stop, piece[begin:end])


def _measured_order(terrain: TerrainIndex, start, end, pieces: np.ndarray) -> np.ndarray:
    """The pieces a line crosses sorted by GEOS's distance from its start to the crossing
    (ties by id)."""
    line = shapely.linestrings([start, end])
    crossing = shapely.intersection(line, terrain.geometries[pieces])
    entry = shapely.distance(shapely.points(start), crossing)
    ids = terrain.ids
    found = sorted(zip(entry.tolist(), [ids[t] for t in pieces], pieces.tolist(), strict=True))
    return np.array([piece for _, _, piece in found], dtype=np.intp)


def entry_fractions(
    index: TerrainIndex, starts: np.ndarray, ends: np.ndarray, piece: np.ndarray
) -> np.ndarray:
    """Where each line starts[k] -> ends[k] first meets piece[k], as a fraction of its length:
    0 from a start on or inside the piece, else the first crossing of one of its edges.
    NaN where the edges leave it in doubt (a line along an edge, no crossing found): the
    caller asks GEOS there. For ordering the pieces a line crosses (`order_along`'s order),
    vectorised over lines and edges."""
    starts = np.asarray(starts, dtype=float).reshape(-1, 2)
    ends = np.asarray(ends, dtype=float).reshape(-1, 2)
    extent = ends - starts
    return entry_fractions_along(
        index, starts[:, 0], starts[:, 1], extent[:, 0], extent[:, 1], piece
    )


def entry_fractions_along(
    index: TerrainIndex,
    ax: np.ndarray,
    ay: np.ndarray,
    abx: np.ndarray,
    aby: np.ndarray,
    piece: np.ndarray,
) -> np.ndarray:
    """`entry_fractions` of the lines (ax[k], ay[k]) + t (abx[k], aby[k]), 0 <= t <= 1, as
    coordinate columns (GEO002.10): a caller that has them skips building (M, 2) arrays."""
    piece = np.asarray(piece, dtype=np.intp)
    result = np.full(len(piece), np.nan)
    if len(piece) == 0:
        return result
    # a start inside the bounding disc may be on or inside the piece
    sight = index.sight  # its first T centres are the bounding discs' (contiguous columns)
    gap = np.hypot(ax - sight.x.take(piece), ay - sight.y.take(piece))
    near = np.flatnonzero(gap <= index.outer_radius.take(piece) + DISC_TOLERANCE)
    inside = np.zeros(len(piece), dtype=bool)
    if len(near):
        inside[near] = shapely.intersects(
            index.geometries[piece[near]], shapely.points(ax.take(near), ay.take(near))
        )
    result[inside] = 0.0
    rest = np.flatnonzero(~inside)
    size = max(1, BLOCK_ELEMENTS // 4)  # lines at a time: their edges' arrays stay small
    for part in (slice(k, k + size) for k in range(0, len(rest), size)):
        chosen = rest[part]
        result[chosen] = _first_crossings(
            index, ax.take(chosen), ay.take(chosen), abx.take(chosen), aby.take(chosen),
            piece.take(chosen),
        )  # fmt: skip
    return result


def _first_crossings(index: TerrainIndex, ax, ay, abx, aby, piece) -> np.ndarray:
    """The fraction along each line where it first crosses an edge of piece[k] (NaN where an
    edge lies along it or none is crossed; GEO002.10). The pieces of one edge count are
    taken together as an (edges, lines) grid: each line's numbers broadcast along its
    edges, never copied to them, and its first crossing a minimum down a column (the same
    numbers, operation for operation, as one edge a row)."""
    result = np.empty(len(piece))
    if len(piece) == 0:
        return result
    first = index.edge_offsets.take(piece)
    counts = index.edge_offsets.take(piece + 1) - first
    shapes = np.flatnonzero(np.bincount(counts)).tolist()
    for count in shapes:
        rows = np.flatnonzero(counts == count) if len(shapes) > 1 else None
        if rows is None:
            a_x, a_y, ab_x, ab_y, edge = ax, ay, abx, aby, first
        else:
            a_x, a_y, ab_x, ab_y, edge = (v.take(rows) for v in (ax, ay, abx, aby, first))
        edge = edge + np.arange(count)[:, None]  # (edges, lines): a line a column
        ox, oy = index.edge_x.take(edge) - a_x, index.edge_y.take(edge) - a_y
        ex, ey = index.edge_dx.take(edge), index.edge_dy.take(edge)
        denominator = ab_x * ey - ab_y * ex
        side = ox * ab_y - oy * ab_x  # which side of the line the edge starts
        with np.errstate(divide="ignore", invalid="ignore"):
            along = (ox * ey - oy * ex) / denominator
            across = side / denominator
        meets = (denominator != 0.0) & (along >= 0.0) & (along <= 1.0)
        meets &= (across >= 0.0) & (across <= 1.0)
        parallel = (denominator == 0.0) & (side == 0.0)  # along the edge's line
        found = np.where(meets, along, np.inf).min(axis=0)
        found[parallel.any(axis=0) | np.isinf(found)] = np.nan
        if rows is None:
            return found
        result[rows] = found
    return result


def _by_line_then(line: np.ndarray, value: np.ndarray) -> np.ndarray:
    """The order by line, then by value (`np.lexsort((value, line))`; ties in any order)."""
    return _sorted_by_line_then(line, value)[0]


def _sorted_by_line_then(
    line: np.ndarray, value: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`_by_line_then`'s order and the lines and values in that order: one sort of int64
    keys, each the line, the value squeezed onto a grid and the position (numpy sorts
    plain numbers several times faster than it sorts positions by them), checked, and
    sorted exactly where the grid merged two values out of order."""
    count = len(line)
    position_bits = max(count - 1, 1).bit_length()
    line_bits = max(int(line.max(initial=0)), 1).bit_length()
    # at most 52: the grid's last step (2**bits - 1) a double exactly, no carry into the line
    value_bits = min(62 - position_bits - line_bits, 52)
    bottom, top = float(value.min()), float(value.max())
    steps = float(2**value_bits - 1)
    scale = steps / (top - bottom) if top > bottom else 0.0
    if value_bits < 20 or not math.isfinite(scale):  # no room on a grid: a float key
        order = _by_line_then_floats(line, value)
        return order, line.take(order), value.take(order)
    # floor of a non-decreasing function of the value: never out of the values' order.
    # Each step in place, on one array: a pass over the entries is the cost here
    grid = value - bottom
    grid *= scale
    np.floor(grid, out=grid)
    np.clip(grid, 0.0, steps, out=grid)
    key = grid.astype(np.int64)
    key <<= position_bits
    key |= np.left_shift(line, value_bits + position_bits, dtype=np.int64)
    key |= np.arange(count, dtype=np.int64)
    key.sort()
    # the lines read back from the sorted keys (a shift, not a gather); keys sorted, so the
    # lines are: only the values need checking
    lines = (key >> (value_bits + position_bits)).astype(line.dtype, copy=False)
    key &= (1 << position_bits) - 1
    order = key.astype(np.intp, copy=False)
    values = value.take(order)
    if _values_out_of_order(lines, values):
        order = np.lexsort((value, line))
        return order, line.take(order), value.take(order)
    return order, lines, values


def _by_line_then_floats(line: np.ndarray, value: np.ndarray) -> np.ndarray:
    """`_by_line_then` by one sort of a float key, the line plus the value squeezed below
    1/2, checked, and sorted exactly where the squeezing merged two values."""
    bottom, top = float(value.min()), float(value.max())
    squeezed = (value - bottom) / (2.0 * max(top - bottom, 1e-300))
    order = np.argsort(line + squeezed)
    if _out_of_order(line.take(order), value.take(order)):
        return np.lexsort((value, line))
    return order


def _out_of_order(lines: np.ndarray, values: np.ndarray) -> bool:
    """Whether lines and values (in some order) fail to be sorted by line, then by value."""
    return _values_out_of_order(lines, values) or bool((np.diff(lines) < 0).any())


def _values_out_of_order(lines: np.ndarray, values: np.ndarray) -> bool:
    """Whether values fail to be sorted within each line (lines sorted)."""
    return bool(((np.diff(values) < 0) & (lines[1:] == lines[:-1])).any())


def _joins(line: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """Whether each span [low, high] (sorted by line, then by low) joins the group before it:
    where it overlaps (within 1e-7) a span of its line before it. Group numbers are
    np.cumsum(~joins); a span is in a group of two or more where it joins or the next
    one joins it. The running farthest end per line is taken over the ends rounded up to
    a grid and led by the line (one integer each), so that it never falls short: a doubt
    joins a group, never parts one."""
    bottom, top = float(low.min()), float(high.max())
    scale = float(2**36) / max(top - bottom, 1e-300)
    # the same numbers as min(ceil((high - bottom) * scale), 2**36 - 1), each step in place
    ends = high - bottom
    ends *= scale
    np.ceil(ends, out=ends)
    np.minimum(ends, 2**36 - 1, out=ends)
    farthest = ends.astype(np.int64)
    farthest |= np.left_shift(line, 37, dtype=np.int64)
    np.maximum.accumulate(farthest, out=farthest)
    farthest &= 2**37 - 1
    reached = farthest.astype(float)
    reached /= scale
    reached += bottom
    reached += 1e-7
    joins = np.empty(len(line), dtype=bool)
    joins[:1] = False  # a line's first span joins nothing
    np.less_equal(low[1:], reached[:-1], out=joins[1:])
    joins[1:] &= line[1:] == line[:-1]
    return joins
