import numpy as np
from numba import njit
from tactical.geometry.crossings_kernel import _scale, _grid_end, _reaches, _inserted, _frames, _by_line, _numbered
@njit(cache=False, error_model="numpy")
def _lines(
    stage,
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
        if stage == 1:
            continue
        if width == 1:
            continue
        # sorted by low, stably: a short run without NaN ranked by counting (no branch to
        # mispredict) and put in its place at once, else by the insertion sort
        counted = width <= 64 and not blank
        if stage == 2:
            continue
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
        if stage == 3:
            continue
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
        if taken == 0 or stage == 4:
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
        if stage == 5:
            continue
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
        if stage == 6:
            continue
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



import pickle, time, resource
terrain, cap = pickle.load(open("/tmp/s47/cap.pkl","rb"))
sight = terrain.sight
cap = cap[:40]
ent = sum(len(c[4]) for c in cap)
cols = (sight.x, sight.y, terrain.outer_radius, *terrain.boxes)
pre = []
for c in cap:
    x, y, i, j, line, piece = c
    pre.append((_frames(x, y, i, j), _by_line(len(i), line, piece)))
def u(): return resource.getrusage(resource.RUSAGE_SELF).ru_utime
S = (1, 2, 3, 4, 5, 6, 7)
for s in S: _lines(s, pre[0][1][0], pre[0][1][1], pre[0][1][2].copy(), *pre[0][0], *cols, False, 0.0, 1.0)
best = {}
for r in range(3):
    for s in S:
        t = u()
        for (fr, (st, w, p)) in pre: _lines(s, st, w, p.copy(), *fr, *cols, False, 0.0, 1.0)
        best[s] = min(best.get(s, 1e9), (u()-t)/ent*1e9)
prev = 0
out = []
for s in S:
    out.append(f"s{s} {best[s]:.1f}(+{best[s]-prev:.1f})"); prev = best[s]
print(" ".join(out))
