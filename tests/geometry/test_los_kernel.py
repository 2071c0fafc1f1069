"""GEO002.10 by the compiled kernel (`los_kernel`, numba): `los.reaching_hits` gives the
very answers `hits_among` gives the pair matrix's candidates, on random lines and on the
awkward ones (through corners, along edges, grazing a box by a millionth, inside a notch
of a non-convex piece), and the kernel runs only when asked.
"""

from __future__ import annotations

import numpy as np
import pytest
import shapely
import shapely.affinity

from tactical.geometry import los
from tactical.geometry.compiled_kernels import NO_JIT
from tactical.geometry.los import Lines, TerrainIndex, hits_among, reaching_hits

pytest.importorskip("numba")  # the [fast] extra (in [test]: CI runs these)
from tactical.geometry import los_kernel  # (imports numba)


def _pieces() -> TerrainIndex:
    rng = np.random.default_rng(4)
    pieces = [shapely.box(10, 10, 14, 14), shapely.Point(30, 12).buffer(2.0, quad_segs=8)]
    pieces.append(shapely.affinity.rotate(shapely.box(20, 20, 22, 28), 30))
    pieces.append(shapely.Polygon([(0, 20), (8, 20), (8, 28), (4, 23), (0, 28)]))  # notched
    pieces.append(shapely.box(0, 30, 8, 38).difference(shapely.box(2, 32, 6, 36)))  # a ring
    pieces += [shapely.Point(*rng.uniform(0, 40, 2)).buffer(1.5) for _ in range(3)]
    return TerrainIndex.build([f"p{k}" for k in range(len(pieces))], pieces)


def _both(index: TerrainIndex, starts, ends, monkeypatch) -> np.ndarray:
    starts, ends = np.asarray(starts, dtype=float), np.asarray(ends, dtype=float)
    k = np.repeat(np.arange(len(starts)), len(index))
    piece = np.tile(np.arange(len(index)), len(starts)).astype(np.intp)
    length = np.hypot(*(ends[k] - starts[k]).T)
    k, piece = k[length > 0], piece[length > 0]  # the cones find lines of some length
    lines = Lines.of(starts[k], ends[k])
    expected = hits_among(index, lines, piece, inner_done=True, reaching=True)
    monkeypatch.delenv(NO_JIT, raising=False)
    runs = []
    kernel = los_kernel.reaching_hits

    def counted(*args):
        runs.append(kernel(*args))
        return runs[-1]

    monkeypatch.setattr(los_kernel, "reaching_hits", counted)
    found = reaching_hits(index, lines, piece, use_kernel=True)
    assert len(runs) == 1  # the kernel ran, not the numpy code by a silent skip
    np.testing.assert_array_equal(found, expected)
    _both.doubtful = int(runs[0][1].sum())  # lines left to GEOS
    return expected


def test_random_lines_both_ways(monkeypatch):
    rng = np.random.default_rng(12)
    index = _pieces()
    hits = _both(index, rng.uniform(-5, 45, (80, 2)), rng.uniform(-5, 45, (80, 2)), monkeypatch)
    assert 30 < hits.sum() < len(hits) - 30


def test_lines_through_corners_along_edges_and_grazing(monkeypatch):
    """Corner to corner of every outline (along its edges, through its vertices), lines a
    millionth clear of the box's sides, lines ending on an edge or inside a notch."""
    index = _pieces()
    corners = shapely.get_coordinates(shapely.boundary(index.geometries))[::3]
    starts = np.repeat(corners, len(corners), axis=0)
    ends = np.tile(corners, (len(corners), 1))
    more = [
        ((0, 10 - 1e-6), (40, 10 - 1e-6)), ((0, 10 - 1e-9), (40, 10 - 1e-9)),
        ((14 + 1e-6, 0), (14 + 1e-6, 40)), ((0, 10), (40, 10)), ((12, 0), (12, 10)),
        ((4, 21), (4, 30)), ((4, 24), (4, 27)), ((1, 34), (7, 34)), ((3, 34), (5, 34)),
    ]  # fmt: skip
    starts = np.concatenate((starts, [a for a, _ in more]))
    ends = np.concatenate((ends, [b for _, b in more]))
    hits = _both(index, starts, ends, monkeypatch)
    assert hits.sum() > 50 and _both.doubtful > 20  # touching lines went to GEOS


def test_not_asked_or_no_jit_keeps_to_numpy(monkeypatch):
    index = _pieces()
    lines = Lines.of(np.array([[0.0, 12.0]]), np.array([[40.0, 12.0]]))
    piece = np.array([0], dtype=np.intp)
    monkeypatch.setattr(los_kernel, "reaching_hits", None)  # would fail if called
    assert reaching_hits(index, lines, piece).tolist() == [True]
    monkeypatch.setenv(NO_JIT, "1")
    assert reaching_hits(index, lines, piece, use_kernel=True).tolist() == [True]
    assert los.available() is False


def _crowd(seed: int, units: int):
    """Ships whose bases block sight (each owned by its ship) among rocks."""
    from tactical.geometry.measure import BaseArrays
    from tactical.geometry.shapes import Pose, RectBase, base_corners

    rng = np.random.default_rng(seed)
    poses = [Pose(*rng.uniform((0, 0, 0), (30, 20, 360))) for _ in range(units)]
    bases = [RectBase(rng.uniform(0.5, 1.5), rng.uniform(1, 3)) for _ in range(units)]
    rocks = [shapely.Point(*rng.uniform((4, 4), (26, 16))).buffer(1.5) for _ in range(4)]
    footprints = [shapely.Polygon(base_corners(p, b)) for p, b in zip(poses, bases, strict=True)]
    terrain = TerrainIndex.build([f"t{k}" for k in range(4)], rocks).with_convex(
        [f"u{k}" for k in range(units)], footprints
    )
    return BaseArrays.build(poses, bases), terrain


@pytest.mark.parametrize("kind", ["none", "mask", "levels", "levels and owners"])
def test_a_streams_blocks_are_the_same_by_the_kernels(monkeypatch, kind):
    """`matrix_row_blocks` with use_kernel (the cones' candidates and their exact test
    compiled) keeps the very crossings, in the same order, under every kind of blocking."""
    from tactical.geometry.matrix import LevelBlocking
    from tactical.geometry.matrix_blocks import matrix_row_blocks

    units, terrain = _crowd(7, 40)
    rng = np.random.default_rng(1)
    owners = np.concatenate((np.full(4, -1), np.arange(40)))
    blocking = {
        "none": None,
        "mask": rng.random(len(terrain)) < 0.7,
        "levels": LevelBlocking(np.arange(40) % 2, rng.random((2, 2, len(terrain))) < 0.6),
        "levels and owners": LevelBlocking(
            np.arange(40) % 3, rng.random((3, 3, len(terrain))) < 0.6, owners
        ),
    }[kind]
    monkeypatch.delenv(NO_JIT, raising=False)
    runs = []
    candidates = los_kernel.cone_candidates
    monkeypatch.setattr(los_kernel, "cone_candidates", lambda *a: runs.append(1) or candidates(*a))
    ways = [
        list(matrix_row_blocks(units, terrain, blocking=blocking, rows_per_block=7, use_kernel=k))
        for k in (False, True)
    ]
    assert len(runs) == len(ways[1])  # every block by the kernel
    hits = 0
    for numpy_block, kernel_block in zip(*ways, strict=True):
        for name in ("hit_row", "hit_target", "hit_piece", "los_clear"):
            np.testing.assert_array_equal(getattr(kernel_block, name), getattr(numpy_block, name))
        hits += len(numpy_block.hit_piece)
    assert hits > 100
