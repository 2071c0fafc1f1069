"""GEO002.10 by the compiled kernel (`crossings_kernel`, numba): `order_crossings` gives the
very arrays the numpy code gives, on random tables and on the awkward ones (boxes that
touch, lines along edges, entries within 1e-9 of each other, lines starting inside a
piece, empty blocks); and the kernel really runs where numba is installed.
"""

from __future__ import annotations

import numpy as np
import pytest
import shapely
import shapely.affinity
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tactical.geometry import crossings
from tactical.geometry.compiled_kernels import NO_JIT
from tactical.geometry.crossings import order_crossings
from tactical.geometry.los import TerrainIndex

numba = pytest.importorskip("numba")  # the [fast] extra (in [test]: CI runs these)
from tactical.geometry import crossings_kernel  # noqa: E402  (imports numba)


@pytest.fixture
def both_ways(monkeypatch):
    """`order_crossings` of the same block by numpy and by the kernel, each given its own
    copies. Each way also counts its work: the entries it
    measured edge by edge and the lines it put to GEOS, which must be the same (the
    same spans drawn, the same doubts); the kernel's runs are counted too."""
    runs = {"kernel": 0}
    work = {"measured": 0, "geos": 0}
    span_groups, first_crossings = crossings_kernel.span_groups, crossings_kernel.first_crossings
    measure, geos = crossings.entry_fractions_along, crossings._measured_order

    def counted_spans(*args):
        runs["kernel"] += 1
        return span_groups(*args)

    def counted_crossings(*args):
        work["measured"] += len(args[2])
        return first_crossings(*args)

    def counted_measure(index, ax, ay, abx, aby, piece):
        work["measured"] += len(piece)
        return measure(index, ax, ay, abx, aby, piece)

    def counted_geos(terrain, start, end, pieces):
        work["geos"] += 1
        return geos(terrain, start, end, pieces)

    monkeypatch.setattr(crossings_kernel, "span_groups", counted_spans)
    monkeypatch.setattr(crossings_kernel, "first_crossings", counted_crossings)
    monkeypatch.setattr(crossings, "entry_fractions_along", counted_measure)
    monkeypatch.setattr(crossings, "_measured_order", counted_geos)

    def order(index, points, i, j, line, piece):
        x, y = points[:, 0].copy(), points[:, 1].copy()
        results, works = [], []
        monkeypatch.delenv(NO_JIT, raising=False)
        for use_kernel in (False, True):
            work.update(measured=0, geos=0)
            results.append(
                order_crossings(index, x, y, i, j, line.copy(), piece.copy(), use_kernel)
            )
            works.append(dict(work))
        assert works[1] == works[0]  # the same entries measured, the same lines to GEOS
        order.work = works[0]
        return results

    order.runs = runs
    return order


def _pairs(index: TerrainIndex, points, i, j) -> tuple[np.ndarray, np.ndarray]:
    """Every (line, piece) pair where the line meets the piece (GEOS), shuffled."""
    segments = shapely.linestrings(np.stack((points[i], points[j]), axis=1))
    line, piece = np.nonzero(
        shapely.intersects(segments[:, None], index.geometries[None, :])
    )  # fmt: skip
    order = np.random.default_rng(len(line)).permutation(len(line))
    return line[order].astype(np.intp), piece[order].astype(np.intp)


def _same(results) -> None:
    (numpy_line, numpy_piece), (kernel_line, kernel_piece) = results
    assert kernel_line.dtype == numpy_line.dtype and kernel_piece.dtype == numpy_piece.dtype
    np.testing.assert_array_equal(kernel_line, numpy_line)
    np.testing.assert_array_equal(kernel_piece, numpy_piece)


def _check(both_ways, pieces, points, *, least_lines: int = 1):
    index = TerrainIndex.build([f"piece-{n:02d}" for n in range(len(pieces))], pieces)
    points = np.asarray(points, dtype=float)
    i, j = np.triu_indices(len(points), 1)
    i, j = np.concatenate((i, j)).astype(np.intp), np.concatenate((j, i)).astype(np.intp)
    line, piece = _pairs(index, points, i, j)
    assert len(np.unique(line)) >= least_lines
    _same(both_ways(index, points, i, j, line, piece))
    return line


def test_a_random_table_of_every_kind_of_piece(both_ways):
    """Rocks, turned bases, a notched reef, a ring, overlapping boxes: 40 points, both ways
    of every line (lines crossing up to a dozen pieces)."""
    rng = np.random.default_rng(11)
    pieces = [shapely.Point(*rng.uniform(5, 45, 2)).buffer(rng.uniform(0.5, 3.0)) for _ in range(6)]
    for _ in range(8):
        x0, y0 = rng.uniform(5, 40, 2)
        base = shapely.box(x0, y0, x0 + rng.uniform(0.5, 2), y0 + rng.uniform(3, 9))
        pieces.append(shapely.affinity.rotate(base, rng.uniform(0, 180)))
    pieces.append(shapely.Polygon([(20, 20), (30, 20), (30, 30), (25, 24), (20, 30)]))
    pieces.append(shapely.box(22, 22, 28, 23))
    pieces.append(shapely.box(21, 21, 29, 29).difference(shapely.box(23, 23, 27, 27)))
    line = _check(both_ways, pieces, rng.uniform(0, 50, (40, 2)), least_lines=500)
    assert np.bincount(line).max() >= 5
    assert both_ways.work["measured"] > 100  # overlapping groups measured edge by edge
    assert both_ways.runs["kernel"] == 1  # the kernel ran (numba is here)


def test_boxes_that_touch_and_lines_along_their_edges(both_ways):
    """A chessboard of touching boxes, lines along its grid lines and through its corners:
    entries tied exactly, lines along edges (put to GEOS), both ways alike."""
    pieces = [shapely.box(x, y, x + 2, y + 2) for x in range(0, 8, 2) for y in range(0, 8, 2)]
    points = [(x, y) for x in (-1, 0, 2, 4, 9) for y in (-1, 0, 4, 9)]
    _check(both_ways, pieces, points, least_lines=100)
    assert both_ways.work["geos"] > 20  # the ties and the lines along edges


def test_entries_within_a_billionth(both_ways):
    """Boxes whose near edges lie 1e-10 .. 1e-8 apart (each side of the 1e-9 doubt), twins of
    one outline (ties by id) and a line starting inside a piece."""
    pieces = [shapely.box(10 + d, 0, 12 + d, 4) for d in (0.0, 1e-10, 3e-9, 1e-8)]
    pieces += [shapely.box(15, 1, 16, 3), shapely.box(15, 1, 16, 3), shapely.box(-1, 1, 1, 3)]
    points = [(0, 2), (30, 2), (0, 2.5), (30, 1.5), (11, 2), (14, -5), (14, 9)]
    _check(both_ways, pieces, points, least_lines=20)
    assert both_ways.work["geos"] > 0


def test_spans_five_millionths_apart(both_ways):
    """Rocks 10 and long bases 15 millionths of an inch apart along a line: their spans (each
    padded by a millionth) part, so nothing is measured; both ways part them alike."""
    gap = 1.5e-5  # 3.75e-7 of a 40-inch line: past both pads (5e-8) and the 1e-7 slack
    rocks = [shapely.Point(10 + k * (2 + 1e-5), 40).buffer(1.0, quad_segs=8) for k in range(3)]
    bases = [shapely.box(10 + k * (1 + gap), 0, 11 + k * (1 + gap), 20) for k in range(3)]
    for pieces, y in ((rocks, 40), (bases, 10)):  # along the row, both ways
        _check(both_ways, pieces, [(0, y), (40, y)], least_lines=2)
        assert both_ways.work["measured"] == 0  # every span parted, none measured


def test_an_empty_block_and_a_block_of_one(both_ways):
    index = TerrainIndex.build(["square"], [shapely.box(10, 10, 14, 14)])
    points = np.array([[0.0, 12.0], [30.0, 12.0]])
    i, j = np.array([0, 1], dtype=np.intp), np.array([1, 0], dtype=np.intp)
    none = np.zeros(0, dtype=np.intp)
    _same(both_ways(index, points, i, j, none, none))
    one = np.array([1], dtype=np.intp)
    _same(both_ways(index, points, i, j, one, np.array([0], dtype=np.intp)))


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seed=st.integers(0, 2**32 - 1),
    pieces=st.integers(1, 12),
    points=st.integers(2, 14),
    snap=st.sampled_from([0.0, 0.5, 1.0]),
)
def test_random_tables_both_ways(both_ways, seed, pieces, points, snap):
    """Random boxes, turned boxes and discs; with `snap`, corners and points on a grid, so
    that lines run along edges and through corners and boxes touch."""
    rng = np.random.default_rng(seed)

    def at(values):
        return np.round(values / snap) * snap if snap else values

    made = []
    for _ in range(pieces):
        x0, y0 = at(rng.uniform(0, 20, 2))
        w, h = at(rng.uniform(0.5, 5, 2)) + (snap or 0.0)
        kind = rng.integers(3)
        if kind == 0:
            made.append(shapely.box(x0, y0, x0 + w, y0 + h))
        elif kind == 1:
            made.append(shapely.affinity.rotate(shapely.box(x0, y0, x0 + w, y0 + h), 45 * w))
        else:
            made.append(shapely.Point(x0, y0).buffer(w / 2, quad_segs=4))
    _check(both_ways, made, at(rng.uniform(-2, 22, (points, 2))), least_lines=0)


def test_the_joins_kernel_draws_numpys_groups():
    """`crossings._joins` and its compiled twin on spans each starting just before, at or
    just after the farthest end before it (gaps around the 1e-7 tolerance and the grid's
    step), on narrow and wide tables: the same groups, bit for bit."""
    rng = np.random.default_rng(3)
    gaps = np.array([-1e-9, 0.0, 5e-8, 1e-7 - 1e-15, 1e-7, 1e-7 + 1e-15, 1.01e-7, 2e-7, 1e-6])
    for width in (1e-6, 1e-3, 1.0, 1e3):
        count = 3000
        line = np.sort(rng.integers(0, 300, count)).astype(np.intp)
        low, high = np.empty(count), np.empty(count)
        for k in range(count):
            if k and line[k] == line[k - 1]:  # from the farthest end of its line so far
                reached = high[np.flatnonzero(line[:k] == line[k])].max()
                low[k] = reached + rng.choice(gaps) * (1.0 if rng.random() < 0.8 else width)
            else:
                low[k] = rng.uniform(-1, 1) * width
            high[k] = low[k] + rng.uniform(0, 1) * width
        order = np.lexsort((low, line))
        line, low, high = line[order], low[order], high[order]
        joins = np.empty(count, dtype=bool)
        crossings_kernel._joins(line, low, high, joins)
        expected = crossings._joins(line, low, high)
        assert 0 < expected.sum() < count - 300  # joins and partings both drawn
        np.testing.assert_array_equal(joins, expected)


def test_the_entry_kernel_measures_numpys_fractions():
    """`crossings._first_crossings` and the kernel's `_first_crossing` on lines through the
    pieces' corners, along their edges, ending on an edge, missing them: the same
    fractions bit for bit, NaN in the same places."""
    pieces = [
        shapely.box(10, 10, 14, 14),
        shapely.affinity.rotate(shapely.box(20, 0, 22, 6), 30),
        shapely.Point(30, 12).buffer(2.0, quad_segs=8),
        shapely.box(0, 20, 8, 28).difference(shapely.box(2, 22, 6, 26)),
    ]
    index = TerrainIndex.build(["a", "b", "c", "d"], pieces)
    corners = shapely.get_coordinates(shapely.boundary(index.geometries))
    rng = np.random.default_rng(8)
    starts = np.concatenate((corners, rng.uniform(-5, 40, (60, 2)), [[0, 10], [10, 0]]))
    ends = np.concatenate((corners[::-1], rng.uniform(-5, 40, (60, 2)), [[40, 10], [10, 40]]))
    k = np.repeat(np.arange(len(starts)), len(pieces))
    piece = np.tile(np.arange(len(pieces)), len(starts)).astype(np.intp)
    ax, ay = starts[k, 0].copy(), starts[k, 1].copy()
    abx, aby = ends[k, 0] - ax, ends[k, 1] - ay
    expected = crossings._first_crossings(index, ax, ay, abx, aby, piece)
    found = crossings_kernel.first_crossing_each(
        ax, ay, abx, aby, piece, index.edge_offsets, index.edge_x, index.edge_y,
        index.edge_dx, index.edge_dy,
    )  # fmt: skip
    assert np.isnan(expected).sum() > 5 and np.isfinite(expected).sum() > 100
    np.testing.assert_array_equal(found, expected)


def test_the_kernel_runs_only_when_asked_and_allowed(monkeypatch, both_ways):
    """The kernel only for a caller that asks (a big stream), and never with
    TACTICAL_NO_JIT set: then the numpy code, the same arrays."""
    index = TerrainIndex.build(["a", "b"], [shapely.box(10, 0, 12, 4), shapely.box(11, 1, 13, 3)])
    x, y = np.array([0.0, 30.0]), np.array([2.0, 2.0])
    i, j = np.array([0, 1], dtype=np.intp), np.array([1, 0], dtype=np.intp)
    line, piece = np.array([0, 0, 1, 1], dtype=np.intp), np.array([1, 0, 0, 1], dtype=np.intp)
    expected = order_crossings(index, x, y, i, j, line, piece)
    assert both_ways.runs["kernel"] == 0  # not asked
    monkeypatch.delenv(NO_JIT, raising=False)
    assert crossings.compiled() is crossings_kernel
    found = order_crossings(index, x, y, i, j, line, piece, True)
    assert both_ways.runs["kernel"] == 1
    monkeypatch.setenv(NO_JIT, "1")
    assert crossings.compiled() is None
    again = order_crossings(index, x, y, i, j, line, piece, True)
    assert both_ways.runs["kernel"] == 1  # not run again
    for result in (found, again):
        np.testing.assert_array_equal(result[0], expected[0])
        np.testing.assert_array_equal(result[1], expected[1])
    assert expected[1].tolist() == [0, 1, 1, 0]  # entered at x = 10, 11; back: 13, 12
