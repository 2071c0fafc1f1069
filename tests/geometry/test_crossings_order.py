"""GEO002.10: the order in which lines meet the pieces in their way (`order_crossings`,
`entry_fractions_along`), checked on small hand-made tables against GEOS's own order: the
distance from a line's start to where it crosses each piece, ties by id.

`check`'s output hashes reach these paths only on the stress tables; these tests pin each
way the order is found (spans of discs, spans of boxes, entries edge by edge, doubtful
lines put to GEOS) on tables small enough to read."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
import shapely.affinity

from tactical.geometry import crossings
from tactical.geometry.crossings import (
    _by_line_then,
    _joins,
    entry_fractions,
    entry_fractions_along,
    order_crossings,
)
from tactical.geometry.los import TerrainIndex


def _geos_order(index: TerrainIndex, start, end, pieces) -> list[int]:
    """The pieces sorted by GEOS's distance from `start` to where the line crosses each, ties
    by id: the order GEO002.10 asks for, found the slow way."""
    line = shapely.LineString([start, end])
    keyed = []
    for piece in pieces:
        crossing = shapely.intersection(line, index.geometries[piece])
        keyed.append((shapely.distance(shapely.Point(start), crossing), index.ids[piece], piece))
    return [piece for _, _, piece in sorted(keyed)]


def _crossing_pairs(index: TerrainIndex, starts, ends):
    """Every (line, piece) pair where the line meets the piece, by GEOS."""
    segments = shapely.linestrings(np.stack((starts, ends), axis=1))
    pairs = [
        (k, t)
        for k in range(len(starts))
        for t in range(len(index))
        if shapely.intersects(segments[k], index.geometries[t])
    ]
    return np.array(pairs, dtype=np.intp).reshape(-1, 2)


def _ordered(index, points, i, j, pairs, shuffle_seed=0):
    """`order_crossings` of the pairs given in a shuffled order, as {line: [pieces]}."""
    order = np.random.default_rng(shuffle_seed).permutation(len(pairs))
    x, y = points[:, 0].copy(), points[:, 1].copy()
    line, piece = order_crossings(index, x, y, i, j, pairs[order, 0], pairs[order, 1])
    assert np.all(np.diff(line) >= 0), "sorted by line first"
    found: dict[int, list[int]] = {}
    for k, t in zip(line.tolist(), piece.tolist(), strict=True):
        found.setdefault(k, []).append(t)
    return found


def _expected(index, points, i, j, pairs):
    by_line: dict[int, list[int]] = {}
    for k, t in pairs.tolist():
        by_line.setdefault(k, []).append(t)
    return {
        k: _geos_order(index, tuple(points[i[k]]), tuple(points[j[k]]), pieces)
        for k, pieces in by_line.items()
    }


class _Work:
    """How much `order_crossings` measured: the entries it measured edge by edge, and the
    lines it put to GEOS. The spans of discs and boxes are there to keep both small, so
    a span drawn wrong shows here even where the fallbacks still find the right order."""

    def __init__(self, monkeypatch):
        self.entries = 0
        self.geos_lines = 0
        measure, geos = crossings.entry_fractions_along, crossings._measured_order

        def counted_entries(index, ax, ay, abx, aby, piece):
            self.entries += len(piece)
            return measure(index, ax, ay, abx, aby, piece)

        def counted_geos(terrain, start, end, pieces):
            self.geos_lines += 1
            return geos(terrain, start, end, pieces)

        monkeypatch.setattr(crossings, "entry_fractions_along", counted_entries)
        monkeypatch.setattr(crossings, "_measured_order", counted_geos)


@pytest.fixture
def work(monkeypatch) -> _Work:
    return _Work(monkeypatch)


def _check_against_geos(index, points, i, j, shuffle_seed=0):
    pairs = _crossing_pairs(index, points[i], points[j])
    found = _ordered(index, points, i, j, pairs, shuffle_seed)
    assert found == _expected(index, points, i, j, pairs)
    return pairs


# ------------------------------------------------------------------ hand-made tables


def test_pieces_far_apart_along_a_line_come_in_the_order_it_meets_them(work):
    """GEO002.10: three rocks in a row, met left to right, whichever order they are given in
    and whichever way round their ids sort (the spans of their discs alone order them)."""
    rocks = [shapely.Point(x, 10).buffer(1.0) for x in (30, 10, 20)]
    index = TerrainIndex.build(["a", "c", "b"], rocks)
    points = np.array([[0.0, 10.0], [40.0, 10.0]])
    i, j = np.array([0, 1]), np.array([1, 0])
    pairs = np.array([[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2]], dtype=np.intp)
    found = _ordered(index, points, i, j, pairs)
    assert found == {0: [1, 2, 0], 1: [0, 2, 1]}  # there and back: the order reversed
    assert (work.entries, work.geos_lines) == (0, 0)  # the discs' spans alone


def test_long_bases_side_by_side_are_ordered_by_their_boxes(work):
    """Two long thin bases whose bounding discs overlap along the line but whose boxes do
    not: the nearer first, the same as GEOS, from either end."""
    first = shapely.box(9.0, 0.0, 10.0, 20.0)
    second = shapely.box(11.0, 0.0, 12.0, 20.0)
    index = TerrainIndex.build(["z", "y"], [first, second])
    points = np.array([[0.0, 10.0], [25.0, 10.0], [0.0, 2.0], [25.0, 18.0]])
    i, j = np.array([0, 1]), np.array([1, 0])
    pairs = _check_against_geos(index, points, i, j)
    found = _ordered(index, points, i, j, pairs)
    assert found == {0: [0, 1], 1: [1, 0]}
    assert (work.entries, work.geos_lines) == (0, 0)  # across the bases: their boxes apart
    # slanting across both, their boxes' spans overlap: two entries measured a line
    i, j = np.array([2, 3]), np.array([3, 2])
    found = _ordered(index, points, i, j, _check_against_geos(index, points, i, j))
    assert found == {0: [0, 1], 1: [1, 0]}
    assert (work.entries, work.geos_lines) == (2 * 2 * 2, 0)  # twice: _check and _ordered


def test_overlapping_pieces_are_ordered_by_where_the_line_enters_each(work):
    """Boxes that overlap along the line: the one whose edge the line crosses first comes
    first, even where its centre lies farther along the line."""
    wide = shapely.box(5.0, 5.0, 25.0, 15.0)  # entered at x = 5, centre at 15
    narrow = shapely.box(8.0, 8.0, 10.0, 12.0)  # entered at x = 8, centre at 9
    index = TerrainIndex.build(["narrow-id-first", "wide"], [narrow, wide])
    points = np.array([[0.0, 10.0], [30.0, 10.0], [0.0, 9.0], [30.0, 11.0]])
    i, j = np.array([0, 1, 2, 3]), np.array([1, 0, 3, 2])
    pairs = _check_against_geos(index, points, i, j)
    found = _ordered(index, points, i, j, pairs)
    assert found[0] == [1, 0]  # wide entered first
    assert found[1] == [1, 0]  # from the right: wide again (x = 25, then narrow's x = 10)
    assert (work.entries, work.geos_lines) == (2 * 4 * 2, 0)


def test_pieces_entered_at_the_same_place_are_ordered_by_id(work):
    """A tie (two pieces sharing the edge the line enters by) is put to GEOS and broken by
    id, not by the pieces' places in the index; only the tied line goes to GEOS."""
    big = shapely.box(10.0, 5.0, 20.0, 15.0)
    small = shapely.box(10.0, 8.0, 12.0, 12.0)
    points = np.array([[0.0, 13.0], [30.0, 13.0], [0.0, 10.0], [30.0, 10.0]])
    i, j = np.array([0, 2]), np.array([1, 3])  # line 0 meets big alone, line 1 both
    pairs = np.array([[1, 0], [0, 0], [1, 1]])
    for ids, expected in ((["b", "a"], [1, 0]), (["a", "b"], [0, 1])):
        index = TerrainIndex.build(ids, [big, small])
        assert _ordered(index, points, i, j, pairs) == {0: [0], 1: expected}
    assert work.geos_lines == 2


def test_a_line_starting_inside_a_piece_meets_it_first(work):
    """A start on or inside a piece enters it at 0: it comes before a piece whose edge the
    line crosses almost at once."""
    home = shapely.box(0.0, 0.0, 10.0, 10.0)
    next_door = shapely.box(5.5, 4.0, 6.5, 6.0)  # inside home's span, entered at 0.5
    index = TerrainIndex.build(["z-home", "a-next"], [home, next_door])
    points = np.array([[5.0, 5.0], [20.0, 5.0]])
    found = _ordered(index, points, np.array([0]), np.array([1]), np.array([[0, 1], [0, 0]]))
    assert found == {0: [0, 1]}
    assert (work.entries, work.geos_lines) == (2, 0)
    fraction = entry_fractions(index, points[[0, 0]], points[[1, 1]], np.array([0, 1]))
    assert fraction[0] == 0.0 and fraction[1] == pytest.approx(0.5 / 15.0)


def test_a_line_along_an_edge_is_put_to_geos(work):
    """A line running along a piece's edge leaves its entry in doubt (NaN): GEOS orders that
    line, the same as it would any other."""
    below = shapely.box(10.0, 0.0, 20.0, 10.0)  # its top edge is y = 10
    beside = shapely.box(12.0, 9.0, 14.0, 11.0)
    index = TerrainIndex.build(["below", "beside"], [below, beside])
    points = np.array([[0.0, 10.0], [30.0, 10.0]])
    fraction = entry_fractions(index, points[[0]], points[[1]], np.array([0]))
    assert np.isnan(fraction[0])
    found = _ordered(index, points, np.array([0]), np.array([1]), np.array([[0, 1], [0, 0]]))
    assert found == {0: [0, 1]}  # below is touched from x = 10, beside from x = 12
    assert work.geos_lines == 1


def test_many_lines_and_pieces_come_in_geos_order(work):
    """Lines between 30 points over 14 pieces of every kind (rocks, boxes, turned bases, a
    notched reef, overlapping ones): each line's pieces in GEOS's order, given shuffled."""
    rng = np.random.default_rng(5)
    pieces = [shapely.Point(*rng.uniform(5, 45, 2)).buffer(rng.uniform(0.5, 3.0)) for _ in range(5)]
    for _ in range(6):
        x0, y0 = rng.uniform(5, 40, 2)
        base = shapely.box(x0, y0, x0 + rng.uniform(0.5, 2), y0 + rng.uniform(3, 9))
        pieces.append(shapely.affinity.rotate(base, rng.uniform(0, 180)))
    pieces.append(shapely.Polygon([(20, 20), (30, 20), (30, 30), (25, 24), (20, 30)]))
    pieces.append(shapely.box(22, 22, 28, 23))  # inside the reef's notch and overlapping it
    pieces.append(shapely.box(21, 21, 29, 29).difference(shapely.box(23, 23, 27, 27)))  # a ring
    index = TerrainIndex.build([f"piece-{n:02d}" for n in range(len(pieces))], pieces)
    points = rng.uniform(0, 50, (30, 2))
    i, j = np.triu_indices(len(points), 1)
    pairs = _check_against_geos(index, points, i, j, shuffle_seed=1)
    per_line = np.bincount(pairs[:, 0])
    assert per_line.max() >= 4 and (per_line >= 2).sum() > 100  # real orders, not singles
    # what today's spans leave to measure: no more (a span drawn too wide, or a doubt where
    # there is none, costs more work), and some of each way (every path reached)
    assert 0 < work.entries <= 356 and 0 < work.geos_lines <= 15


def test_entries_are_measured_the_same_in_chunks(monkeypatch):
    """`entry_fractions_along` measures lines a chunk at a time: a small chunk gives the
    same fractions as one chunk of all of them."""
    rng = np.random.default_rng(9)
    pieces = [shapely.box(10, 10, 14, 14), shapely.Point(30, 12).buffer(2.0, quad_segs=16)]
    index = TerrainIndex.build(["square", "rock"], pieces)
    starts = rng.uniform((0, 6), (8, 18), (200, 2))  # left of both pieces
    ends = rng.uniform((24, 6), (40, 18), (200, 2))
    piece = rng.integers(0, 2, 200)
    starts[:5] = (12.0, 12.0)  # inside the square: 0 where the piece is the square
    whole = entry_fractions_along(
        index, starts[:, 0], starts[:, 1], ends[:, 0] - starts[:, 0], ends[:, 1] - starts[:, 1],
        piece,
    )  # fmt: skip
    monkeypatch.setattr(crossings, "BLOCK_ELEMENTS", 28)  # seven lines a chunk
    chunked = entry_fractions_along(
        index, starts[:, 0], starts[:, 1], ends[:, 0] - starts[:, 0], ends[:, 1] - starts[:, 1],
        piece,
    )  # fmt: skip
    assert np.array_equal(whole, chunked, equal_nan=True)
    assert (whole[:5][piece[:5] == 0] == 0.0).all()
    assert np.isfinite(whole).sum() > 60 and np.isnan(whole).sum() > 20  # crossings and misses


def test_no_pieces_give_no_entries():
    index = TerrainIndex.build(["square"], [shapely.box(0, 0, 1, 1)])
    empty = np.array([], dtype=float)
    assert len(entry_fractions_along(index, empty, empty, empty, empty, np.array([]))) == 0
    x = np.array([0.0, 5.0])
    line, piece = order_crossings(index, x, x, np.array([0]), np.array([1]), [], [])
    assert len(line) == 0 and len(piece) == 0


# ------------------------------------------------------------------ the sorts underneath


def _sorted_pairs(line, value, order):
    return list(zip(line[order].tolist(), value[order].tolist(), strict=True))


@pytest.mark.parametrize(
    "line, value",
    [
        ([2, 0, 1, 0, 2, 1], [0.5, 3.0, -1.0, 1.0, 0.25, -2.0]),
        ([0, 0, 0], [1e300, 1e-300, 2e-300]),  # a spread so wide the grid merges the small
        ([0, 0, 1, 1], [5.0, 5.0, 5.0, 5.0]),  # all equal: no spread at all
        ([2**45, 3, 2**45, 3], [2.0, 1.0, 1.0, 2.0]),  # line numbers leave no room for a grid
    ],
)
def test_by_line_then_value_sorts_like_lexsort(line, value):
    line, value = np.array(line, dtype=np.intp), np.array(value, dtype=float)
    order = _by_line_then(line, value)
    assert sorted(order.tolist()) == list(range(len(line)))  # a permutation
    expected = np.lexsort((value, line))
    assert _sorted_pairs(line, value, order) == _sorted_pairs(line, value, expected)


def test_by_line_then_value_on_many_close_values():
    """Values closer than the grid's step still come out in order (the exact re-sort)."""
    rng = np.random.default_rng(3)
    line = rng.integers(0, 50, 5000)
    value = np.r_[rng.uniform(-1e6, 1e6, 10), rng.uniform(0, 1e-9, 4990)]
    order = _by_line_then(line, value)
    expected = np.lexsort((value, line))
    assert _sorted_pairs(line, value, order) == _sorted_pairs(line, value, expected)


def test_spans_join_the_group_they_overlap():
    """`_joins`: a span joins the group before it where it overlaps (within 1e-7) any earlier
    span of its line, not only the last one; a new line always starts a group."""
    line = np.array([0, 0, 0, 0, 1, 1, 2])
    low = np.array([0.0, 0.1, 0.3, 0.6, 0.0, 0.5 + 5e-8, 0.0])
    high = np.array([0.5, 0.2, 0.4, 0.7, 0.5, 0.9, 1.0])
    joins = _joins(line, low, high)
    # 0.1 and 0.3 start inside [0, 0.5]; 0.6 is past every end; 0.5 + 5e-8 touches 0.5
    assert joins.tolist() == [False, True, True, False, False, True, False]


def _counting_resorts(monkeypatch) -> list[bool]:
    """Each answer of `_values_out_of_order` (the grid's check, and the float key's by way of
    `_out_of_order`): True where the fast sort had to be redone exactly."""
    answers: list[bool] = []
    check = crossings._values_out_of_order

    def counted(lines, values):
        answers.append(check(lines, values))
        return answers[-1]

    monkeypatch.setattr(crossings, "_values_out_of_order", counted)
    return answers


@pytest.mark.parametrize("top_line", [3000, 2**40])  # on the integer grid; by a float key
def test_spread_values_need_no_exact_resort(monkeypatch, top_line):
    """Values far apart against the grid's step (or the float key's precision) come out of
    the one fast sort in order: the exact re-sort is for close calls only, and the check
    that calls for it finds none here."""
    answers = _counting_resorts(monkeypatch)
    rng = np.random.default_rng(4)
    line = rng.integers(0, top_line, 2000)
    value = rng.permutation(np.linspace(-500.0, 500.0, 2000))
    order = _by_line_then(line, value)
    expected = np.lexsort((value, line))
    assert _sorted_pairs(line, value, order) == _sorted_pairs(line, value, expected)
    assert answers == [False]


@pytest.mark.parametrize(
    "line, value, expected",
    [
        ([0, 0, 0, 0], [1e6, 3e-12, 2e-12, -1e6], [3, 2, 1, 0]),
        ([0, 0, 1, 1], [1e6, -1e6, 3e-12, 2e-12], [1, 0, 3, 2]),  # the close pair in line 1
        ([2**40, 2**40, 2**41, 2**41], [1e6, -1e6, 3e-12, 2e-12], [1, 0, 3, 2]),  # float key
    ],
)
def test_values_the_grid_merges_are_sorted_exactly(monkeypatch, line, value, expected):
    """Values closer than the grid's step (or the float key's precision), given out of
    order: the check finds them and the exact sort puts them right."""
    answers = _counting_resorts(monkeypatch)
    order = _by_line_then(np.array(line, dtype=np.intp), np.array(value))
    assert order.tolist() == expected and answers == [True]


def test_one_line_alone_gets_its_entry():
    """A single line: its fraction is measured, not left unknown."""
    index = TerrainIndex.build(["square"], [shapely.box(10, 10, 14, 14)])
    fraction = entry_fractions(index, [(0.0, 12.0)], [(20.0, 12.0)], np.array([0]))
    assert fraction.tolist() == [0.5]


def test_entries_at_a_lines_end_and_through_corners():
    """A line ending on a piece's edge enters it at 1; a line through two corners of a
    square enters at the first corner, not in doubt (an edge starting on the line is not
    an edge along it)."""
    index = TerrainIndex.build(["square"], [shapely.box(10, 10, 14, 14)])
    starts = np.array([[0.0, 12.0], [0.0, 0.0], [6.0, 10.0]])
    ends = np.array([[10.0, 12.0], [20.0, 20.0], [18.0, 10.0]])  # the last along the bottom
    fraction = entry_fractions(index, starts, ends, np.array([0, 0, 0]))
    assert fraction[0] == 1.0 and fraction[1] == 0.5 and np.isnan(fraction[2])
