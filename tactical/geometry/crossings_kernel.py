"""`order_crossings` compiled (GEO002.10): the same spans, sorts, joins and edge crossings as
the numpy code of `crossings`, line by line in loops, with the same floating-point
operations in the same order (no fastmath: no reassociation, no fused multiply-add), so
every near-tie goes the same way and the doubtful lines still go to GEOS. Where a
cheaper test is used instead (the plain joins of `_lines`, ranks by counting), it is
one shown to decide the same, and checked where it might not.

Imported only by `crossings.compiled()`, and only for a block big enough to repay loading
numba: this module imports numba at its top.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["first_crossing_each", "first_crossings", "near_starts", "span_groups"]

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


@njit(cache=True, error_model="numpy", inline="always")
def _scale(bottom, top):  # pragma: no cover - compiled
    """`crossings._joins`' grid steps a unit of span, from the spans' bottom and top."""
    spread = top - bottom
    return float(_GRID) / (spread if spread > 1e-300 else 1e-300)


@njit(cache=True, error_model="numpy", inline="always")
def _grid_end(high, bottom, scale):  # pragma: no cover - compiled
    """A span's end rounded up to the grid (`crossings._joins`: never short)."""
    end = high - bottom
    end *= scale
    end = np.ceil(end)
    if end > _LAST:
        end = float(_LAST)
    return np.int64(end)


@njit(cache=True, error_model="numpy", inline="always")
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
    bottom and top, the same running farthest end per line, the same numbers. The grid's
    steps (`_scale`, `_grid_end`, `_reaches`) as `_lines` and `_numbered` take them, held
    to numpy's by the tests through this."""
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
def _inserted(key, count, rank, order):  # pragma: no cover - compiled
    """rank[a]: the place of key[a] among key[:count] in a stable insertion sort by `>`
    (the order of `np.lexsort` on numbers; `order` is scratch), for a long run or one
    with a NaN (that stops the sort where it always did)."""
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
def _by_line(lines, line, piece):  # pragma: no cover - compiled
    """The pieces put in line order by a counting sort (stable: the position breaks numpy's
    ties): (starts, widest, pieces), line k's at starts[k]:starts[k + 1]."""
    count = len(line)
    starts = np.zeros(lines + 1, dtype=np.intp)
    for e in range(count):
        starts[line[e] + 1] += 1
    widest = 0
    for k in range(lines):
        widest = max(widest, starts[k + 1])
        starts[k + 1] += starts[k]
    fill = starts[:-1].copy()
    pieces = np.empty(count, dtype=np.intp)
    for e in range(count):
        at = fill[line[e]]
        pieces[at] = piece[e]
        fill[line[e]] = at + 1
    return starts, widest, pieces


@njit(cache=True, error_model="numpy")
def _frames(x, y, i, j):  # pragma: no cover - compiled
    """Each line's start, extent, length and squared length (1 for a line of none)."""
    lines = len(i)
    sx, sy, dx, dy = np.empty(lines), np.empty(lines), np.empty(lines), np.empty(lines)
    length, length2 = np.empty(lines), np.empty(lines)
    for k in range(lines):
        start_x = x[i[k]]
        start_y = y[i[k]]
        along_x = x[j[k]] - start_x
        along_y = y[j[k]] - start_y
        squared = along_x * along_x + along_y * along_y
        if not squared > 0:
            squared = 1.0
        sx[k], sy[k], dx[k], dy[k] = start_x, start_y, along_x, along_y
        length[k], length2[k] = np.sqrt(squared), squared
    return sx, sy, dx, dy, length, length2


@njit(cache=True, error_model="numpy")
def span_groups(
    x, y, i, j, line, piece, centre_x, centre_y, outer, ux, uy, half_u, half_v
):  # pragma: no cover - compiled
    """`order_crossings` up to the entries: lines and pieces sorted by line, then by disc
    span, the groups of two or more again by box span; returns (line, piece, at, group,
    sx, sy, dx, dy): at[k] the place (in line, piece) of the k-th entry of a group of two
    or more box spans, group[k] its group's number.

    The pieces are put in line order, then worked on a line at a time (`_lines`). The
    joins' grid needs the bottom and top of every span first, so the lines are joined
    (disc spans, then box spans) by a plain test in the same pass; where it may have
    parted what the grid joins or the reverse (`_plain_joins_hold`, seldom) they are
    worked again, by the grid."""
    lines = len(i)
    sx, sy, dx, dy, length, length2 = _frames(x, y, i, j)
    starts, widest, pieces = _by_line(lines, line, piece)
    found = _lines(
        starts, widest, pieces, sx, sy, dx, dy, length, length2, centre_x, centre_y, outer,
        ux, uy, half_u, half_v, False, 0.0, 1.0,
    )  # fmt: skip
    at, group = found[0], found[1]
    least, most, closest, missing = found[3], found[4], found[5], found[6]
    if not (
        _plain_joins_hold(least, most, closest, missing)
        and _plain_joins_hold(found[7], found[8], found[9], missing)
    ):
        starts, widest, pieces = _by_line(lines, line, piece)
        found = _lines(
            starts, widest, pieces, sx, sy, dx, dy, length, length2, centre_x, centre_y,
            outer, ux, uy, half_u, half_v, True, least, _scale(least, most),
        )  # fmt: skip
        at, group = found[0], found[1]
    out_line = np.empty(len(line), dtype=np.intp)
    for k in range(lines):
        out_line[starts[k] : starts[k + 1]] = k
    return out_line, pieces, at, group, sx, sy, dx, dy


@njit(cache=True, error_model="numpy")
def _plain_joins_hold(least, most, closest, missing):  # pragma: no cover - compiled
    """Whether the plain test joined every span as `crossings._joins`' grid would have, from
    the bottom and top of the spans and the least gap between a span's start and where
    the plain test joins it. The grid's farthest end lies within a grid step (the spread
    / 2**36) of the true one, and the roundings around it within a few units in the last
    place of the largest number; `doubt` is twice the step plus 32 such units, so a gap
    wider than it is decided alike by both. Never with a NaN span."""
    spread = max(most - least, 1e-300)
    doubt = spread * 2.0**-35 + 2.0**-48 * (max(np.abs(least), np.abs(most)) + 1.0)
    return closest > doubt and not missing


@njit(cache=True, error_model="numpy")
def _lines(
    starts,
    widest,
    pieces,
    sx,
    sy,
    dx,
    dy,
    length,
    length2,
    centre_x,
    centre_y,
    outer,
    ux,
    uy,
    half_u,
    half_v,
    grid,
    bottom,
    scale,
):  # pragma: no cover - compiled
    """Each line's pieces (pieces[starts[k]:starts[k + 1]], in place) sorted by disc span
    and joined, its groups of two or more sorted again by box span and joined: returns
    (at, group) of `span_groups`, the count of entries in groups of disc spans, the bottom
    and top of the disc spans, the least gap between a span's start and where the plain
    test joins it, whether a span is NaN, and the same bottom, top and gap of the box
    spans.

    Where `grid`, the disc spans are joined by `crossings._joins`' grid from `bottom` and
    `scale`, and the box spans of every line kept to be joined on their own grid
    (`_numbered`); else both by the plain test, `low <= farthest end + 1e-7`, a line at
    a time.

    One loop, every step written out in it: a function handed arrays once a line cost
    more than the line's work (measured), inlined or not."""  # fmt: skip
    lines = len(starts) - 1
    count = len(pieces)
    held, moved = np.empty(widest, dtype=np.intp), np.empty(widest, dtype=np.intp)
    rank, order = np.empty(widest, dtype=np.intp), np.empty(widest, dtype=np.intp)
    middle, low, high = np.empty(widest), np.empty(widest), np.empty(widest)
    sorted_low, sorted_high = np.empty(widest), np.empty(widest)
    ahead = np.empty(widest, dtype=np.intp)  # each sorted entry's place before
    taken_by = np.zeros(widest, dtype=np.intp)  # the last ranking to give each place
    kept = count if grid else 0  # the box spans kept for the grid
    places, on = np.empty(kept, dtype=np.intp), np.empty(kept, dtype=np.intp)
    lows, highs = np.empty(kept), np.empty(kept)
    shared = 0
    plain = 0 if grid else count  # the groups found by the plain test
    at, group = np.empty(plain, dtype=np.intp), np.empty(plain, dtype=np.intp)
    found = 0
    number = 0
    least, most = np.inf, -np.inf
    bottom2, top2 = np.inf, -np.inf
    closest, closest2 = np.inf, np.inf
    missing = False
    for k in range(lines):
        first = starts[k]
        width = starts[k + 1] - first
        if width == 0:
            continue
        start_x, start_y, along_x, along_y = sx[k], sy[k], dx[k], dy[k]
        size, squared = length[k], length2[k]
        # the disc spans (numpy's operations, in its order)
        blank = False
        for a in range(width):
            t = pieces[first + a]
            m = (centre_x[t] - start_x) * along_x
            m += (centre_y[t] - start_y) * along_y
            m /= squared
            reach = (outer[t] + 1e-6) / size
            span_low = m - reach
            span_high = m + reach
            blank |= (span_low != span_low) | (span_high != span_high)
            if span_low < least:
                least = span_low
            if span_high > most:
                most = span_high
            held[a] = t
            middle[a] = m
            low[a] = span_low
            high[a] = span_high
        missing |= blank
        if width == 1:
            continue
        # sorted by low, stably: a short run without NaN ranked by counting (no branch to
        # mispredict) and put in its place at once, else by the insertion sort
        counted = width <= 64 and not blank
        tied = False
        if counted:
            stamp = 2 * k + 1
            for a in range(width):
                value = low[a]
                place = 0
                for b in range(width):
                    place += low[b] < value
                tied |= taken_by[place] == stamp  # equal keys share a place
                taken_by[place] = stamp
                rank[a] = place
                pieces[first + place] = held[a]
                ahead[place] = a
            if tied:  # the earlier of equal keys first
                for a in range(width):
                    for b in range(a):
                        rank[a] += low[b] == low[a]
        else:
            _inserted(low, width, rank, order)
        if tied or not counted:
            for a in range(width):
                place = rank[a]
                pieces[first + place] = held[a]
                ahead[place] = a
        # whether each span joins the group before it (the first joins nothing); the
        # entries in groups (each joins, or the next joins it) listed as they are found,
        # without a branch
        taken = 0
        previous = False  # whether the entry before joins its group
        if grid:
            farthest = _grid_end(high[ahead[0]], bottom, scale)
            for a in range(1, width):
                came = ahead[a]
                joins = _reaches(low[came], farthest, bottom, scale)
                farthest = max(farthest, _grid_end(high[came], bottom, scale))
                order[taken] = a - 1
                taken += previous | joins
                previous = joins
        else:
            reach_end = high[ahead[0]]
            for a in range(1, width):
                came = ahead[a]
                reached = reach_end + 1e-7
                joins = low[came] <= reached
                closest = min(closest, np.abs(low[came] - reached))
                reach_end = max(reach_end, high[came])
                order[taken] = a - 1
                taken += previous | joins
                previous = joins
        order[taken] = width - 1
        taken += previous
        if taken == 0:
            continue
        # those by the spans of their boxes (inside the discs')
        unit_x = along_x / size
        unit_y = along_y / size
        blank = False
        for b in range(taken):
            a = order[b]
            t = pieces[first + a]
            box = half_u[t] * np.abs(ux[t] * unit_x + uy[t] * unit_y)
            box += half_v[t] * np.abs(ux[t] * unit_y - uy[t] * unit_x)
            reach = outer[t] if (np.isnan(outer[t]) or outer[t] < box) else box
            reach += 1e-6
            reach /= size
            m = middle[ahead[a]]
            span_low = m - reach
            span_high = m + reach
            blank |= (span_low != span_low) | (span_high != span_high)
            if span_low < bottom2:
                bottom2 = span_low
            if span_high > top2:
                top2 = span_high
            held[b] = t
            low[b] = span_low
            high[b] = span_high
        missing |= blank
        # sorted as above; the places stay, the pieces and their spans move to their ranks
        counted = taken <= 64 and not blank
        tied = False
        if counted:
            stamp = 2 * k + 2
            for a in range(taken):
                value = low[a]
                place = 0
                for b in range(taken):
                    place += low[b] < value
                tied |= taken_by[place] == stamp
                taken_by[place] = stamp
                rank[a] = place
                moved[place] = held[a]
                sorted_low[place] = low[a]
                sorted_high[place] = high[a]
            if tied:
                for a in range(taken):
                    for b in range(a):
                        rank[a] += low[b] == low[a]
        else:
            _inserted(low, taken, rank, moved)
        if tied or not counted:
            for a in range(taken):
                place = rank[a]
                moved[place] = held[a]
                sorted_low[place] = low[a]
                sorted_high[place] = high[a]
        if grid:
            for b in range(taken):
                pieces[first + order[b]] = moved[b]
                places[shared + b] = first + order[b]
                on[shared + b] = k
                lows[shared + b] = sorted_low[b]
                highs[shared + b] = sorted_high[b]
            shared += taken
            continue
        # joined and numbered as `np.cumsum(~joins)` numbers them: each entry when the
        # next one's joining is known
        pieces[first + order[0]] = moved[0]
        reach_end = sorted_high[0]
        previous = False
        for b in range(1, taken):
            pieces[first + order[b]] = moved[b]
            reached = reach_end + 1e-7
            joins = sorted_low[b] <= reached
            closest2 = min(closest2, np.abs(sorted_low[b] - reached))
            reach_end = max(reach_end, sorted_high[b])
            number += not previous
            at[found] = first + order[b - 1]
            group[found] = number
            found += previous | joins
            previous = joins
        number += not previous
        at[found] = first + order[taken - 1]
        group[found] = number
        found += previous
        shared += taken
    if grid:
        at, group = _numbered(places, on, lows, highs, shared)
    else:
        at, group = at[:found], group[:found]
    return at, group, shared, least, most, closest, missing, bottom2, top2, closest2


@njit(cache=True, error_model="numpy")
def _numbered(places, on, lows, highs, shared):  # pragma: no cover - compiled
    """The shared entries' groups of two or more box spans: (at, group), their places and
    their numbers as `np.cumsum(~joins)` numbers them (`crossings._joins`' grid)."""
    bottom = np.inf
    top = -np.inf
    for b in range(shared):
        if lows[b] < bottom:
            bottom = lows[b]
        if highs[b] > top:
            top = highs[b]
    scale = _scale(bottom, top)
    at = np.empty(shared, dtype=np.intp)
    group = np.empty(shared, dtype=np.intp)
    found = 0
    number = 0
    farthest = 0
    joined = False
    for b in range(shared + 1):
        joins = False
        if b < shared:
            end = _grid_end(highs[b], bottom, scale)
            if b == 0 or on[b] != on[b - 1]:
                farthest = end
            else:
                joins = _reaches(lows[b], farthest, bottom, scale)
                if end > farthest:
                    farthest = end
        if b > 0:
            if not joined:
                number += 1
            if joined or joins:
                at[found] = places[b - 1]
                group[found] = number
                found += 1
        joined = joins
    return at[:found], group[:found]


@njit(cache=True, error_model="numpy", inline="always")
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
def near_starts(
    line, piece, at, sx, sy, centre_x, centre_y, outer, tolerance
):  # pragma: no cover - compiled
    """The group entries (`span_groups`) whose line starts within its piece's bounding disc
    widened by `tolerance`: those alone may start on or inside it (GEOS decides)."""
    count = len(at)
    near = np.empty(count, dtype=np.intp)
    found = 0
    for k in range(count):
        place = at[k]
        n = line[place]
        t = piece[place]
        gap = np.hypot(sx[n] - centre_x[t], sy[n] - centre_y[t])
        near[found] = k
        found += gap <= outer[t] + tolerance
    return near[:found]


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
    `inside`, NaN in doubt); returns the lines (sorted, each once) an entry leaves in
    doubt (unknown, or within 1e-9 of the entry before it in its group)."""
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
    # each group by entry (stable: entries are numbers, ranked by counting; a long group
    # by the insertion sort), its pieces put back at its places in that order
    order = np.empty(count, dtype=np.intp)
    moved = np.empty(count, dtype=np.intp)
    doubtful = np.empty(count, dtype=np.intp)
    flagged = 0
    begin = 0
    while begin < count:
        end = begin + 1
        while end < count and group[end] == group[begin]:
            end += 1
        if end - begin <= 64:
            for k in range(begin, end):
                value = entry[k]
                place = begin
                for other in range(begin, k):
                    place += entry[other] <= value
                for other in range(k + 1, end):
                    place += entry[other] < value
                order[place] = k
        else:
            for k in range(begin, end):
                order[k] = k
            _sort_run(order, entry, begin, end)
        for k in range(begin, end):
            moved[k] = piece[at[order[k]]]
        for k in range(begin, end):
            piece[at[k]] = moved[k]
            doubt = unknown[order[k]]
            doubt |= k > begin and entry[order[k]] - entry[order[k - 1]] < 1e-9
            n = line[at[k]]
            if doubt and (flagged == 0 or doubtful[flagged - 1] != n):
                doubtful[flagged] = n
                flagged += 1
        begin = end
    return doubtful[:flagged]
