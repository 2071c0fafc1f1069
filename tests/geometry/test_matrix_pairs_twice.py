"""A line asked for twice in one call of `matrix_pairs` (the same pair again, or the pair the
other way where sight is symmetric, as the position scorer asks a place and an enemy)
reads as the whole matrix, and as asked alone (GEO002.10; R002.41 models' bases as
blockers owned by their units)."""

from __future__ import annotations

import numpy as np
import shapely

from tactical.geometry.arcs_spec import QUADRANTS
from tactical.geometry.los import TerrainIndex
from tactical.geometry.matrix import LevelBlocking, pair_matrix
from tactical.geometry.matrix_pairs import matrix_pairs
from tactical.geometry.measure import BaseArrays
from tactical.geometry.shapes import CircleBase, Pose, RectBase


def _table():
    """Twelve units in two rows across a field of rocks, every base also a blocker."""
    poses = [Pose(6.0 + 6 * k, 6.0 if k % 2 else 40.0, 30.0 * k) for k in range(12)]
    bases = [CircleBase(1.5) if k % 3 else RectBase(1.0, 3.0) for k in range(12)]
    rocks = [shapely.Point(10.0 + 9 * k, 23.0 + (k % 3)).buffer(2.0) for k in range(6)]
    terrain = TerrainIndex.build([f"r{k}" for k in range(6)], rocks)
    terrain = terrain.with_convex(
        [f"u{k}" for k in range(12)], [shapely.Point(p.x, p.y).buffer(1.0) for p in poses]
    )
    owners = np.concatenate((np.full(6, -1), np.arange(12)))
    mask = np.ones((1, 1, len(terrain)), dtype=bool)
    return BaseArrays.build(poses, bases), terrain, LevelBlocking(np.zeros(12), mask, owners)


def test_pairs_asked_both_ways_and_again_read_as_the_matrix():
    units, terrain, blocking = _table()
    assert blocking.symmetric
    rng = np.random.default_rng(5)
    there = rng.integers(0, 12, (40, 2))
    # each pair, the pair the other way, and the first ten again, shuffled together
    pairs = np.concatenate((there, there[:, ::-1], there[:10]))
    pairs = pairs[rng.permutation(len(pairs))]
    i, j = pairs[:, 0], pairs[:, 1]
    matrix = pair_matrix(units, terrain, QUADRANTS, blocking)
    found = matrix_pairs(units, terrain, i, j, QUADRANTS, blocking)
    expected = matrix.los_clear[i, j]
    assert np.array_equal(found.los_clear, expected)
    assert expected.any() and not expected[i != j].all()  # clear and blocked lines both
    assert np.array_equal(found.los_clear[i == j], np.ones((i == j).sum(), dtype=bool))


def test_a_line_asked_alone_reads_as_among_its_repeats():
    units, terrain, blocking = _table()
    i = np.array([0, 11, 0, 11, 3])
    j = np.array([11, 0, 11, 0, 8])
    together = matrix_pairs(units, terrain, i, j, QUADRANTS, blocking).los_clear
    alone = [
        bool(matrix_pairs(units, terrain, [a], [b], QUADRANTS, blocking).los_clear[0])
        for a, b in zip(i.tolist(), j.tolist(), strict=True)
    ]
    assert together.tolist() == alone
