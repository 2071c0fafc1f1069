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
def _sort_spans(piece, middle, low, high, begin, end):  # pragma: no cover - compiled
    """Entries begin..end-1 (pieces and their spans, one line's) sorted by low, ties kept in
    place: a stable insertion sort (a line crosses few pieces), the order of
    `np.lexsort((low, line))`."""
    for k in range(begin + 1, end):
        key = low[k]
        if not low[k - 1] > key:
            continue
        t, m, h = piece[k], middle[k], high[k]
        at = k - 1
        while at >= begin and low[at] > key:
            piece[at + 1], middle[at + 1] = piece[at], middle[at]
            low[at + 1], high[at + 1] = low[at], high[at]
            at -= 1
        piece[at + 1], middle[at + 1], low[at + 1], high[at + 1] = t, m, key, h


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
    spread = top - bottom
    scale = float(_GRID) / (spread if spread > 1e-300 else 1e-300)
    farthest = 0
    for k in range(count):
        end = high[k] - bottom
        end *= scale
        end = np.ceil(end)
        if end > _LAST:
            end = float(_LAST)
        reach = np.int64(end)
        if k == 0 or line[k] != line[k - 1]:
            joins[k] = False
            farthest = reach
            continue
        reached = float(farthest)
        reached /= scale
        reached += bottom
        reached += 1e-7
        joins[k] = low[k] <= reached
        if reach > farthest:
            farthest = reach


@njit(cache=True, error_model="numpy")
def _in_groups(joins):  # pragma: no cover - compiled
    """Whether each entry is in a group of two or more (it joins, or the next joins it)."""
    count = len(joins)
    shared = np.zeros(count, dtype=np.bool_)
    for k in range(count):
        if joins[k] or (k + 1 < count and joins[k + 1]):
            shared[k] = True
    return shared


@njit(cache=True, error_model="numpy")
def span_groups(
    x, y, i, j, line, piece, centre_x, centre_y, outer, ux, uy, half_u, half_v
):  # pragma: no cover - compiled
    """`order_crossings` up to the entries: lines and pieces sorted by line, then by disc
    span, the groups of two or more again by box span; returns (line, piece, at, group,
    sx, sy, dx, dy): at[k] the place (in line, piece) of the k-th entry of a group of two
    or more box spans, group[k] its group's number. The pieces are put in line order first
    (a counting sort: stable, as the position breaks numpy's ties), then each line's
    entries are worked on where they lie, one after another."""
    lines = len(i)
    count = len(line)
    starts = np.zeros(lines + 1, dtype=np.intp)
    for e in range(count):
        starts[line[e] + 1] += 1
    for k in range(lines):
        starts[k + 1] += starts[k]
    fill = starts[:-1].copy()
    out_line = np.empty(count, dtype=np.intp)
    out_piece = np.empty(count, dtype=np.intp)
    for e in range(count):
        at = fill[line[e]]
        out_line[at] = line[e]
        out_piece[at] = piece[e]
        fill[line[e]] = at + 1
    sx = np.empty(lines)
    sy = np.empty(lines)
    dx = np.empty(lines)
    dy = np.empty(lines)
    length = np.empty(lines)
    middle = np.empty(count)
    low = np.empty(count)
    high = np.empty(count)
    for k in range(lines):
        start_x = x[i[k]]
        start_y = y[i[k]]
        along_x = x[j[k]] - start_x
        along_y = y[j[k]] - start_y
        squared = along_x * along_x + along_y * along_y
        if not squared > 0:
            squared = 1.0
        size = np.sqrt(squared)
        sx[k], sy[k], dx[k], dy[k], length[k] = start_x, start_y, along_x, along_y, size
        for e in range(starts[k], starts[k + 1]):
            t = out_piece[e]
            m = (centre_x[t] - start_x) * along_x
            m += (centre_y[t] - start_y) * along_y
            m /= squared
            reach = (outer[t] + 1e-6) / size
            middle[e] = m
            low[e] = m - reach
            high[e] = m + reach
        _sort_spans(out_piece, middle, low, high, starts[k], starts[k + 1])
    joins = np.empty(count, dtype=np.bool_)
    _joins(out_line, low, high, joins)
    shared = np.flatnonzero(_in_groups(joins))
    # the groups again by the spans of their boxes, inside the discs' spans
    shared_count = len(shared)
    on = out_line[shared]
    crossed = out_piece[shared]
    middle = middle[shared]
    low = np.empty(shared_count)
    high = np.empty(shared_count)
    for e in range(shared_count):
        k = on[e]
        t = crossed[e]
        along_x = dx[k] / length[k]
        along_y = dy[k] / length[k]
        box = half_u[t] * np.abs(ux[t] * along_x + uy[t] * along_y)
        box += half_v[t] * np.abs(ux[t] * along_y - uy[t] * along_x)
        reach = outer[t] if (np.isnan(outer[t]) or outer[t] < box) else box
        reach += 1e-6
        reach /= length[k]
        low[e] = middle[e] - reach
        high[e] = middle[e] + reach
    begin = 0
    while begin < shared_count:
        end = begin + 1
        while end < shared_count and on[end] == on[begin]:
            end += 1
        _sort_spans(crossed, middle, low, high, begin, end)
        begin = end
    joins = np.empty(shared_count, dtype=np.bool_)
    _joins(on, low, high, joins)
    for e in range(shared_count):
        out_piece[shared[e]] = crossed[e]
    again = np.flatnonzero(_in_groups(joins))
    group = np.empty(len(again), dtype=np.intp)
    number = 0
    at = 0
    for k in range(shared_count):
        if not joins[k]:
            number += 1
        if at < len(again) and again[at] == k:
            group[at] = number
            at += 1
    return out_line, out_piece, shared[again], group, sx, sy, dx, dy


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
