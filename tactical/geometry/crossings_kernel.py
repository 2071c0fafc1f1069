"""`order_crossings` compiled (GEO002.10): the same spans, sorts, joins and edge crossings as
the numpy code of `crossings`, line by line in loops, with the same floating-point
operations in the same order (no fastmath: no reassociation, no fused multiply-add), so
every near-tie goes the same way and the doubtful lines still go to GEOS.

Imported only by `crossings.compiled()`, and only for a block big enough to repay loading
numba: this module imports numba at its top.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["first_crossing_each", "first_crossings", "span_groups"]

_GRID = 2**36  # `crossings._joins`' grid of running ends
_LAST = 2**36 - 1


@njit(cache=True, error_model="numpy")
def _sort_run(order, value, begin, end):  # pragma: no cover - compiled
    """order[begin:end] sorted by value[order[k]], ties kept in place (stable insertion
    sort, a merge sort for a long run): the order of `np.lexsort((value, line))`."""
    if end - begin > 48:
        run = order[begin:end].copy()
        keys = np.empty(end - begin)
        for k in range(end - begin):
            keys[k] = value[run[k]]
        by = np.argsort(keys, kind="mergesort")
        for k in range(end - begin):
            order[begin + k] = run[by[k]]
        return
    for k in range(begin + 1, end):
        moved = order[k]
        key = value[moved]
        at = k - 1
        while at >= begin and value[order[at]] > key:
            order[at + 1] = order[at]
            at -= 1
        order[at + 1] = moved


@njit(cache=True, error_model="numpy")
def _scale(bottom, top):  # pragma: no cover - compiled
    """`crossings._joins`' grid steps a unit of span, from the spans' bottom and top."""
    spread = top - bottom
    return float(_GRID) / (spread if spread > 1e-300 else 1e-300)


@njit(cache=True, error_model="numpy")
def _grid_end(high, bottom, scale):  # pragma: no cover - compiled
    """A span's end rounded up to the grid (`crossings._joins`: never short)."""
    end = high - bottom
    end *= scale
    end = np.ceil(end)
    if end > _LAST:
        end = float(_LAST)
    return np.int64(end)


@njit(cache=True, error_model="numpy")
def _reaches(low, farthest, bottom, scale):  # pragma: no cover - compiled
    """Whether a span starting at `low` joins a group whose farthest grid end is `farthest`
    (within 1e-7, `crossings._joins`' numbers)."""
    reached = float(farthest)
    reached /= scale
    reached += bottom
    reached += 1e-7
    return low <= reached


@njit(cache=True, error_model="numpy")
def _joins(line, low, high, joins):  # pragma: no cover - compiled
    """`crossings._joins` (spans sorted by line, then by low): the same grid from the same
    bottom and top, the same running farthest end per line, the same numbers."""
    count = len(line)
    bottom = np.inf
    top = -np.inf
    for k in range(count):
        if low[k] < bottom:
            bottom = low[k]
        if high[k] > top:
            top = high[k]
    scale = _scale(bottom, top)
    farthest = 0
    for k in range(count):
        reach = _grid_end(high[k], bottom, scale)
        if k == 0 or line[k] != line[k - 1]:
            joins[k] = False
            farthest = reach
            continue
        joins[k] = _reaches(low[k], farthest, bottom, scale)
        if reach > farthest:
            farthest = reach


@njit(cache=True, error_model="numpy")
def _stable_ranks(key, count, rank, order):  # pragma: no cover - compiled
    """rank[a]: the place of key[a] among key[:count] in the order of a stable insertion
    sort by `>` (that of `np.lexsort` on numbers; `order` is scratch). A short run
    without NaN is ranked by counting (no branch to mispredict, no entry moved); else by
    the insertion sort itself, so that a NaN stops it where it always did."""
    if count <= 32:
        missing = False
        for a in range(count):
            missing |= key[a] != key[a]
        if not missing:
            for a in range(count):
                value = key[a]
                place = 0
                for b in range(a):  # ties: the earlier first
                    place += key[b] <= value
                for b in range(a + 1, count):
                    place += key[b] < value
                rank[a] = place
            return
    for a in range(count):
        order[a] = a
    for a in range(1, count):
        moved = order[a]
        value = key[moved]
        at = a - 1
        while at >= 0 and key[order[at]] > value:
            order[at + 1] = order[at]
            at -= 1
        order[at + 1] = moved
    for a in range(count):
        rank[order[a]] = a


@njit(cache=True, error_model="numpy")
def span_groups(
    x, y, i, j, line, piece, centre_x, centre_y, outer, ux, uy, half_u, half_v
):  # pragma: no cover - compiled
    """`order_crossings` up to the entries: lines and pieces sorted by line, then by disc
    span, the groups of two or more again by box span; returns (line, piece, at, group,
    sx, sy, dx, dy): at[k] the place (in line, piece) of the k-th entry of a group of two
    or more box spans, group[k] its group's number.

    The pieces are put in line order (a counting sort: stable, as the position breaks
    numpy's ties), then each line's entries are worked on where they lie, in a few
    passes that keep only the pieces: a span is worked out again (the same operations,
    the same numbers) rather than kept, since the grid of the joins needs the bottom and
    top of every span first. Memory a block never touches is memory never faulted in."""
    lines = len(i)
    count = len(line)
    starts = np.zeros(lines + 1, dtype=np.intp)
    for e in range(count):
        starts[line[e] + 1] += 1
    widest = 0
    for k in range(lines):
        widest = max(widest, starts[k + 1])
        starts[k + 1] += starts[k]
    fill = starts[:-1].copy()
    out_line = np.empty(count, dtype=np.intp)
    out_piece = np.empty(count, dtype=np.intp)
    for e in range(count):
        at = fill[line[e]]
        out_piece[at] = piece[e]
        fill[line[e]] = at + 1
    sx = np.empty(lines)
    sy = np.empty(lines)
    dx = np.empty(lines)
    dy = np.empty(lines)
    length = np.empty(lines)
    length2 = np.empty(lines)
    # one line's spans at a time
    held = np.empty(widest, dtype=np.intp)
    middle = np.empty(widest)
    low = np.empty(widest)
    high = np.empty(widest)
    rank = np.empty(widest, dtype=np.intp)
    order = np.empty(widest, dtype=np.intp)
    moved = np.empty(widest, dtype=np.intp)
    # the disc spans: each line's sorted by low, and the bottom and top of them all
    bottom = np.inf
    top = -np.inf
    for k in range(lines):
        start_x = x[i[k]]
        start_y = y[i[k]]
        along_x = x[j[k]] - start_x
        along_y = y[j[k]] - start_y
        squared = along_x * along_x + along_y * along_y
        if not squared > 0:
            squared = 1.0
        size = np.sqrt(squared)
        sx[k], sy[k], dx[k], dy[k] = start_x, start_y, along_x, along_y
        length[k], length2[k] = size, squared
        first = starts[k]
        width = starts[k + 1] - first
        for a in range(width):
            e = first + a
            out_line[e] = k
            t = out_piece[e]
            m = (centre_x[t] - start_x) * along_x
            m += (centre_y[t] - start_y) * along_y
            m /= squared
            reach = (outer[t] + 1e-6) / size
            span_low = m - reach
            span_high = m + reach
            if span_low < bottom:
                bottom = span_low
            if span_high > top:
                top = span_high
            low[a] = span_low
            held[a] = t
        if width > 1:
            _stable_ranks(low, width, rank, moved)
            for a in range(width):
                out_piece[first + rank[a]] = held[a]
    scale = _scale(bottom, top)
    # the groups of two or more disc spans again by their boxes' spans (inside the discs'),
    # each line's shared entries sorted by them in place; their spans kept for the joins
    shared_place = np.empty(count, dtype=np.intp)
    shared_line = np.empty(count, dtype=np.intp)
    shared_low = np.empty(count)
    shared_high = np.empty(count)
    shared = 0
    bottom2 = np.inf
    top2 = -np.inf
    for k in range(lines):
        first = starts[k]
        width = starts[k + 1] - first
        if width < 2:
            continue
        start_x, start_y, along_x, along_y = sx[k], sy[k], dx[k], dy[k]
        size, squared = length[k], length2[k]
        farthest = 0
        joined = False  # whether the entry before joins its group
        taken = 0
        unit_x = along_x / size
        unit_y = along_y / size
        for a in range(width + 1):
            joins = False
            if a < width:
                t = out_piece[first + a]
                m = (centre_x[t] - start_x) * along_x
                m += (centre_y[t] - start_y) * along_y
                m /= squared
                reach = (outer[t] + 1e-6) / size
                span_low = m - reach
                end = _grid_end(m + reach, bottom, scale)
                if a == 0:
                    farthest = end
                else:
                    joins = _reaches(span_low, farthest, bottom, scale)
                    if end > farthest:
                        farthest = end
                middle[a] = m
            if a > 0 and (joined or joins):  # the entry before is in a group of two or more
                t = out_piece[first + a - 1]
                box = half_u[t] * np.abs(ux[t] * unit_x + uy[t] * unit_y)
                box += half_v[t] * np.abs(ux[t] * unit_y - uy[t] * unit_x)
                reach = outer[t] if (np.isnan(outer[t]) or outer[t] < box) else box
                reach += 1e-6
                reach /= size
                m = middle[a - 1]
                order[taken] = a - 1
                held[taken] = t
                low[taken] = m - reach
                high[taken] = m + reach
                taken += 1
            joined = joins
        if taken == 0:
            continue
        for b in range(taken):
            if low[b] < bottom2:
                bottom2 = low[b]
            if high[b] > top2:
                top2 = high[b]
        _stable_ranks(low, taken, rank, moved)
        # the places stay, the pieces and their spans move to their ranks
        for b in range(taken):
            place = shared + rank[b]
            shared_place[shared + b] = first + order[b]
            shared_line[shared + b] = k
            shared_low[place] = low[b]
            shared_high[place] = high[b]
            moved[rank[b]] = held[b]
        for b in range(taken):
            out_piece[shared_place[shared + b]] = moved[b]
        shared += taken
    # the groups of two or more box spans, numbered as `np.cumsum(~joins)` numbers them
    scale2 = _scale(bottom2, top2)
    at = np.empty(shared, dtype=np.intp)
    group = np.empty(shared, dtype=np.intp)
    found = 0
    number = 0
    farthest = 0
    joined = False
    for b in range(shared + 1):
        joins = False
        if b < shared:
            end = _grid_end(shared_high[b], bottom2, scale2)
            if b == 0 or shared_line[b] != shared_line[b - 1]:
                farthest = end
            else:
                joins = _reaches(shared_low[b], farthest, bottom2, scale2)
                if end > farthest:
                    farthest = end
        if b > 0:
            if not joined:
                number += 1
            if joined or joins:
                at[found] = shared_place[b - 1]
                group[found] = number
                found += 1
        joined = joins
    return out_line, out_piece, at[:found], group[:found], sx, sy, dx, dy


@njit(cache=True, error_model="numpy")
def _first_crossing(
    ax, ay, abx, aby, t, edge_offsets, edge_x, edge_y, edge_dx, edge_dy
):  # pragma: no cover - compiled
    """`crossings._first_crossings` of one line (a, a + ab) and piece t: the least fraction
    along the line where it crosses an edge, NaN where an edge lies along it or none is
    crossed (the same operations, edge by edge)."""
    found = np.inf
    parallel = False
    for edge in range(edge_offsets[t], edge_offsets[t + 1]):
        ox = edge_x[edge] - ax
        oy = edge_y[edge] - ay
        ex = edge_dx[edge]
        ey = edge_dy[edge]
        denominator = abx * ey - aby * ex
        side = ox * aby - oy * abx
        if denominator == 0.0:
            parallel |= side == 0.0
            continue
        along = (ox * ey - oy * ex) / denominator
        across = side / denominator
        meets = along >= 0.0 and along <= 1.0 and across >= 0.0 and across <= 1.0
        if meets and along < found:
            found = along
    return np.nan if parallel or np.isinf(found) else found


@njit(cache=True, error_model="numpy")
def first_crossing_each(
    ax, ay, abx, aby, piece, edge_offsets, edge_x, edge_y, edge_dx, edge_dy
):  # pragma: no cover - compiled
    """`_first_crossing` of each line k and piece[k] (what the tests compare with numpy)."""
    result = np.empty(len(piece))
    for k in range(len(piece)):
        result[k] = _first_crossing(
            ax[k], ay[k], abx[k], aby[k], piece[k], edge_offsets, edge_x, edge_y, edge_dx,
            edge_dy,
        )  # fmt: skip
    return result


@njit(cache=True, error_model="numpy")
def first_crossings(
    line,
    piece,
    at,
    group,
    inside,
    sx,
    sy,
    dx,
    dy,
    edge_offsets,
    edge_x,
    edge_y,
    edge_dx,
    edge_dy,
):  # pragma: no cover - compiled
    """The groups' entries (`span_groups`) ordered by where their line enters them, in place
    in `piece`: `crossings._first_crossings`' numbers edge by edge (0 for an entry
    `inside`, NaN in doubt); returns whether each group entry leaves its line in doubt
    (unknown, or within 1e-9 of the entry before it in its group)."""
    count = len(at)
    entry = np.empty(count)
    unknown = np.zeros(count, dtype=np.bool_)
    for k in range(count):
        if inside[k]:
            entry[k] = 0.0
            continue
        place = at[k]
        n = line[place]
        found = _first_crossing(
            sx[n], sy[n], dx[n], dy[n], piece[place], edge_offsets, edge_x, edge_y, edge_dx,
            edge_dy,
        )  # fmt: skip
        unknown[k] = np.isnan(found)
        entry[k] = 0.0 if unknown[k] else found
    # each group by entry (stable), its pieces put back at its places in that order
    order = np.arange(count)
    moved = np.empty(count, dtype=np.intp)
    begin = 0
    while begin < count:
        end = begin + 1
        while end < count and group[end] == group[begin]:
            end += 1
        _sort_run(order, entry, begin, end)
        begin = end
    for k in range(count):
        moved[k] = piece[at[order[k]]]
    doubt = np.zeros(count, dtype=np.bool_)
    for k in range(count):
        piece[at[k]] = moved[k]
        doubt[k] = unknown[order[k]]
        if k > 0 and group[k] == group[k - 1] and entry[order[k]] - entry[order[k - 1]] < 1e-9:
            doubt[k] = True
    return doubt
