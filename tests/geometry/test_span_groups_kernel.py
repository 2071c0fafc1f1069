"""GEO002.10 by the compiled kernel: `crossings_kernel.span_groups` (each line's pieces by disc
span, the groups of two or more again by box span) gives, array for array, what numpy's
stable sorts and `crossings._joins` give: on shuffled input, tied spans (kept in input
order), empty lines, lines of zero length, one line holding every entry (past the short
runs ranked by counting), and spans just either side of the joins' slack.
"""

from __future__ import annotations

import numpy as np
import pytest

from tactical.geometry import crossings

pytest.importorskip("numba")  # the [fast] extra (in [test]: CI runs these)
from tactical.geometry import crossings_kernel  # (imports numba)


def _numpy_groups(x, y, i, j, line, piece, cx, cy, outer, ux, uy, half_u, half_v):
    """The same steps as `order_crossings`' numpy code, by `np.lexsort` (stable: ties in
    input order)."""
    sx, sy = x.take(i), y.take(i)
    dx, dy = x.take(j) - sx, y.take(j) - sy
    length2 = dx * dx + dy * dy
    length2 = np.where(length2 > 0, length2, 1.0)
    middle = (cx.take(piece) - sx.take(line)) * dx.take(line)
    middle += (cy.take(piece) - sy.take(line)) * dy.take(line)
    middle /= length2.take(line)
    length = np.sqrt(length2)
    reach = (outer.take(piece) + 1e-6) / length.take(line)
    order = np.lexsort((middle - reach, line))
    line, piece, middle, reach = (a.take(order) for a in (line, piece, middle, reach))
    joins = crossings._joins(line, middle - reach, middle + reach)
    shared = np.flatnonzero(joins | np.r_[joins[1:], False])
    on, crossed, middle = line.take(shared), piece.take(shared), middle.take(shared)
    along_x, along_y = (dx / length).take(on), (dy / length).take(on)
    box = half_u.take(crossed) * np.abs(ux.take(crossed) * along_x + uy.take(crossed) * along_y)
    box += half_v.take(crossed) * np.abs(ux.take(crossed) * along_y - uy.take(crossed) * along_x)
    reach = np.minimum(outer.take(crossed), box)
    reach += 1e-6
    reach /= length.take(on)
    order = np.lexsort((middle - reach, on))
    piece[shared] = crossed.take(order)
    middle, reach = middle.take(order), reach.take(order)
    if len(shared) == 0:
        return line, piece, shared, shared, sx, sy, dx, dy
    joins = crossings._joins(on, middle - reach, middle + reach)
    again = np.flatnonzero(joins | np.r_[joins[1:], False])
    return line, piece, shared.take(again), np.cumsum(~joins).take(again), sx, sy, dx, dy


def _same(*args) -> None:
    found = crossings_kernel.span_groups(*args)
    expected = _numpy_groups(*args)
    names = ("line", "piece", "at", "group", "sx", "sy", "dx", "dy")
    for name, got, want in zip(names, found, expected, strict=True):
        assert got.dtype == want.dtype or name in ("at", "group"), name
        np.testing.assert_array_equal(got, want, err_msg=name)


def _table(rng, pieces: int, points: int, *, snap: float = 0.0):
    """Random points and pieces' discs and boxes (`TerrainIndex.boxes`' columns)."""

    def at(values):
        return np.round(values / snap) * snap if snap else values

    x, y = at(rng.uniform(0, 60, points)), at(rng.uniform(0, 60, points))
    cx, cy = at(rng.uniform(0, 60, pieces)), at(rng.uniform(0, 60, pieces))
    outer = at(rng.uniform(0.2, 6, pieces)) + snap
    turn = rng.uniform(0, 2 * np.pi, pieces)
    half_u = outer * rng.uniform(0.3, 1.0, pieces)
    half_v = outer * rng.uniform(0.1, 1.0, pieces)
    return x, y, cx, cy, outer, np.cos(turn), np.sin(turn), half_u, half_v


@pytest.mark.parametrize("seed", range(6))
def test_shuffled_blocks_of_random_tables(seed):
    """Every line with a random set of pieces, shuffled; some lines empty, some of zero
    length; on a grid (snap) spans tie and touch."""
    rng = np.random.default_rng(seed)
    snap = (0.0, 1.0, 0.5)[seed % 3]
    x, y, cx, cy, outer, ux, uy, half_u, half_v = _table(rng, 40, 30, snap=snap)
    lines = 300
    i, j = rng.integers(0, 30, lines), rng.integers(0, 30, lines)
    j[:5] = i[:5]  # zero length
    width = rng.integers(0, 20, lines)
    width[5:15] = 0  # empty
    line = np.repeat(np.arange(lines), width)
    piece = np.concatenate([rng.choice(40, w, replace=False) for w in width])
    mix = rng.permutation(len(line))
    line, piece = line[mix].astype(np.intp), piece[mix].astype(np.intp)
    args = (x, y, i.astype(np.intp), j.astype(np.intp), line, piece, cx, cy, outer)
    _same(*args, ux, uy, half_u, half_v)


def test_twins_tie_in_input_order():
    """Pieces of the same disc and box at the same place: spans exactly tied, each line's
    twins kept in the order they came in (as numpy's stable sort keeps them)."""
    rng = np.random.default_rng(5)
    x, y, cx, cy, outer, ux, uy, half_u, half_v = _table(rng, 12, 10)
    for twin in range(6, 12):  # each a copy of piece twin - 6
        for column in (cx, cy, outer, ux, uy, half_u, half_v):
            column[twin] = column[twin - 6]
    i, j = np.repeat(np.arange(10), 10), np.tile(np.arange(10), 10)
    line = np.repeat(np.arange(100), 12)
    piece = np.tile(np.arange(12), 100)
    mix = rng.permutation(len(line))
    line, piece = line[mix].astype(np.intp), piece[mix].astype(np.intp)
    args = (x, y, i.astype(np.intp), j.astype(np.intp), line, piece, cx, cy, outer)
    _same(*args, ux, uy, half_u, half_v)


@pytest.mark.parametrize("width", [1, 2, 31, 32, 33, 90])
def test_one_line_holds_every_entry(width):
    """A single line crossing many pieces strung along it (overlapping, so all in groups):
    short runs ranked by counting, long ones by insertion, the same order."""
    rng = np.random.default_rng(width)
    pieces = width
    cx = np.sort(rng.uniform(5, 95, pieces))[rng.permutation(pieces)]
    cy = rng.uniform(-1, 1, pieces)
    outer = rng.uniform(1, 4, pieces)
    outer[::4] = outer[0]  # some spans tie
    cx[::4] = cx[0]
    turn = rng.uniform(0, np.pi, pieces)
    ux, uy = np.cos(turn), np.sin(turn)
    half_u, half_v = outer * 0.9, outer * 0.4
    x, y = np.array([0.0, 100.0]), np.array([0.0, 0.0])
    i, j = np.array([0, 1], dtype=np.intp), np.array([1, 0], dtype=np.intp)
    line = np.r_[np.zeros(width), np.ones(width)].astype(np.intp)
    piece = np.r_[np.arange(width), np.arange(width)[::-1]].astype(np.intp)
    _same(x, y, i, j, line, piece, cx, cy, outer, ux, uy, half_u, half_v)


def test_spans_either_side_of_the_slack():
    """Discs placed so that each span starts just before, on or just after the farthest end
    of the spans before it (the joins' 1e-7 slack and grid): the same groups."""
    gaps = np.array([-1e-9, 0.0, 5e-8, 1e-7 - 1e-15, 1e-7, 1e-7 + 1e-15, 1.01e-7, 1.05e-7, 2e-7])
    rng = np.random.default_rng(9)
    pieces = 60
    outer = np.full(pieces, 0.5)
    cx = np.empty(pieces)
    at = 1.0
    for k in range(pieces):  # along a line of length 100: fractions of it
        cx[k] = at + 0.5 + 1e-6
        at = cx[k] + 0.5 + 1e-6 + rng.choice(gaps) * 100
    cy = np.zeros(pieces)
    ux, uy = np.ones(pieces), np.zeros(pieces)
    half_u, half_v = outer.copy(), outer.copy()
    x, y = np.array([0.0, 100.0, 0.0]), np.array([0.0, 0.0, 1e-3])
    i, j = np.array([0, 2, 1], dtype=np.intp), np.array([1, 1, 0], dtype=np.intp)
    line = np.repeat(np.arange(3), pieces).astype(np.intp)
    piece = np.tile(rng.permutation(pieces), 3).astype(np.intp)
    found = crossings_kernel.span_groups(x, y, i, j, line, piece, cx, cy, outer, ux, uy,
                                         half_u, half_v)  # fmt: skip
    assert 0 < len(found[2]) < len(line)  # groups joined and parted
    _same(x, y, i, j, line, piece, cx, cy, outer, ux, uy, half_u, half_v)


def test_no_entries():
    x, y = np.array([0.0, 1.0]), np.array([0.0, 0.0])
    i, j = np.array([0, 1], dtype=np.intp), np.array([1, 0], dtype=np.intp)
    none = np.zeros(0, dtype=np.intp)
    one = np.ones(1)
    found = crossings_kernel.span_groups(x, y, i, j, none, none, one, one, one, one, one, one, one)
    assert [len(a) for a in found] == [0, 0, 0, 0, 2, 2, 2, 2]


def _both_tests(x, y, i, j, line, piece, *columns):
    """`_lines` by the plain test and by the grid on the same block: (whether the plain
    one holds, its (pieces, at, group), the grid's)."""
    frames = crossings_kernel._frames(x, y, i, j)
    results, bounds = [], (0.0, 1.0)
    for grid in (False, True):
        starts, widest, pieces = crossings_kernel._by_line(len(i), line, piece)
        found = crossings_kernel._lines(starts, widest, pieces, *frames, *columns, grid,
                                        *bounds)  # fmt: skip
        results.append((found, (pieces, found[0], found[1])))
        bounds = (found[3], crossings_kernel._scale(found[3], found[4]))
    plain = results[0][0]
    holds = crossings_kernel._plain_joins_hold(*plain[3:7]) and (
        crossings_kernel._plain_joins_hold(*plain[7:10], plain[6])
    )
    return holds, results[0][1], results[1][1]


@pytest.mark.parametrize("seed", range(4))
def test_the_plain_joins_hold_where_trusted(seed):
    """On random blocks the plain test is trusted, and then it gives the grid's arrays."""
    rng = np.random.default_rng(seed)
    x, y, cx, cy, outer, ux, uy, half_u, half_v = _table(rng, 40, 30, snap=0.0)
    i, j = rng.integers(0, 30, 400).astype(np.intp), rng.integers(1, 30, 400).astype(np.intp)
    j[i == j] = 0
    width = rng.integers(0, 12, 400)
    line = np.repeat(np.arange(400), width).astype(np.intp)
    piece = np.concatenate([rng.choice(40, w, replace=False) for w in width]).astype(np.intp)
    holds, plain, grid = _both_tests(x, y, i, j, line, piece, cx, cy, outer, ux, uy, half_u,
                                     half_v)  # fmt: skip
    assert holds
    for got, want in zip(plain, grid, strict=True):
        np.testing.assert_array_equal(got, want)


def test_spans_on_the_slack_go_by_the_grid():
    """Spans starting within a grid step of the slack: the plain test is not trusted there
    (it parts what the grid joins), and `span_groups` goes by the grid."""
    x, y = np.array([0.0, 1.0]), np.array([0.0, 0.0])
    i, j = np.array([0], dtype=np.intp), np.array([1], dtype=np.intp)
    # discs along the line: the second starts 1e-7 past the first's end, plus a hair
    # (less than a grid step)
    outer = np.full(2, 0.1 - 1e-6)
    cx = np.array([0.2, 0.4 + 1e-7 + 1e-14])
    cy, ux, uy = np.zeros(2), np.ones(2), np.zeros(2)
    line, piece = np.zeros(2, dtype=np.intp), np.arange(2, dtype=np.intp)
    columns = (cx, cy, outer, ux, uy, outer.copy(), outer.copy())
    holds, plain, grid = _both_tests(x, y, i, j, line, piece, *columns)
    assert not holds
    assert len(plain[1]) == 0 and len(grid[1]) == 2  # parted plainly, joined on the grid
    _same(x, y, i, j, line, piece, *columns)


def test_boxes_on_the_slack_go_by_the_grid():
    """Discs far overlapping (joined plainly for sure) around thin boxes whose spans lie on
    the slack: the box spans' plain test is not trusted, and `span_groups` goes by the
    grid."""
    x, y = np.array([0.0, 1.0]), np.array([0.0, 0.0])
    i, j = np.array([0], dtype=np.intp), np.array([1], dtype=np.intp)
    across = np.full(2, 0.1 - 1e-6)  # half the box along the line
    cx = np.array([0.2, 0.4 + 1e-7 + 1e-14])
    cy, outer = np.zeros(2), np.full(2, 0.3)
    ux, uy, half_u = np.zeros(2), np.ones(2), np.full(2, 0.25)  # long across the line
    line, piece = np.zeros(2, dtype=np.intp), np.arange(2, dtype=np.intp)
    columns = (cx, cy, outer, ux, uy, half_u, across)
    holds, plain, grid = _both_tests(x, y, i, j, line, piece, *columns)
    starts, widest, pieces = crossings_kernel._by_line(1, line, piece)
    found = crossings_kernel._lines(starts, widest, pieces, *crossings_kernel._frames(x, y, i, j),
                                    *columns, False, 0.0, 1.0)  # fmt: skip
    assert crossings_kernel._plain_joins_hold(*found[3:7])  # the discs: sure
    assert not holds
    assert len(plain[1]) == 0 and len(grid[1]) == 2
    _same(x, y, i, j, line, piece, *columns)
