"""Chosen pairs of the matrix are the matrix's numbers, bit for bit (GEO002.10 line of sight,
R002.40 levels, R002.41 models' bases as blockers owned by their units)."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from tactical.geometry.arcs_spec import BROADSIDES, CHANNEL, OMNI, QUADRANTS, TURRET_270
from tactical.geometry.los import TerrainIndex
from tactical.geometry.matrix import LevelBlocking, pair_matrix
from tactical.geometry.matrix_pairs import matrix_pairs
from tactical.geometry.measure import BaseArrays
from tactical.geometry.shapes import CircleBase, Pose, RectBase

ARCS = (*QUADRANTS, TURRET_270, *BROADSIDES, CHANNEL, OMNI)


def table(seed: int, units: int, pieces: int, models: bool):
    """Mixed bases on a grid (bearings on arc lines, lines along edges) and terrain; with
    `models`, every unit's base also a piece it owns (a model blocking sight)."""
    rng = np.random.default_rng(seed)
    poses, bases = [], []
    for _ in range(units):
        x, y = round(rng.uniform(0, 72) / 6) * 6.0, round(rng.uniform(0, 48) / 6) * 6.0
        poses.append(Pose(x, y, round(rng.uniform(0, 360) / 45) * 45.0))
        bases.append(
            CircleBase(rng.uniform(0.5, 2))
            if rng.random() < 0.5
            else RectBase(rng.uniform(0.5, 2), rng.uniform(1, 4))
        )
    poses[1] = poses[0]  # the same centre
    arrays = BaseArrays.build(poses, bases)
    ids = [f"t{k}" for k in range(pieces)]
    shapes = [
        shapely.Point(rng.uniform(6, 66), rng.uniform(6, 42)).buffer(rng.uniform(1, 3))
        for _ in range(pieces)
    ]
    terrain = TerrainIndex.build(ids, shapes)
    owners = np.full(pieces, -1)
    if models:
        footprints = [shapely.Point(p.x, p.y).buffer(1.0) for p in poses]
        terrain = terrain.with_convex([f"u{k}" for k in range(units)], footprints)
        owners = np.concatenate((owners, np.arange(units)))
    levels = rng.integers(0, 2, units)
    mask = rng.random((2, 2, len(terrain))) < 0.7
    return (
        arrays,
        terrain,
        [
            None,
            LevelBlocking(levels, mask | mask.transpose(1, 0, 2), owners),
            LevelBlocking(levels, mask, owners),  # sight may differ each way
        ],
    )


@pytest.mark.parametrize("models", [False, True])
@pytest.mark.parametrize("seed", [3, 17, 40])
def test_chosen_pairs_are_the_matrix_numbers(seed, models):
    """Every pair both ways, a unit against itself included, against `pair_matrix`."""
    units, terrain, blockings = table(seed, 14, 6, models)
    rows, cols = np.meshgrid(np.arange(14), np.arange(14), indexing="ij")
    i, j = rows.ravel(), cols.ravel()
    for blocking in blockings:
        matrix = pair_matrix(units, terrain, ARCS, blocking)
        found = matrix_pairs(units, terrain, i, j, ARCS, blocking)
        for name in ("centre_distance", "in_arc_centre", "in_arc_any", "los_clear"):
            assert np.array_equal(getattr(found, name), getattr(matrix, name)[i, j]), name
        assert not matrix.los_clear.all()  # some line is blocked: the test can fail


def test_a_few_pairs_alone_read_as_in_the_whole_table():
    """Pairs picked out of the table (the last units against the first, both ways) give what
    the whole matrix gives them: the other units' bases still block."""
    units, terrain, blockings = table(8, 16, 4, True)
    i = np.array([12, 13, 14, 15, 0, 2, 5])
    j = np.array([0, 2, 5, 9, 12, 13, 15])
    for blocking in blockings[1:]:
        matrix = pair_matrix(units, terrain, ARCS, blocking)
        found = matrix_pairs(units, terrain, i, j, ARCS, blocking)
        assert np.array_equal(found.los_clear, matrix.los_clear[i, j])
        assert np.array_equal(found.in_arc_any, matrix.in_arc_any[i, j])
        assert np.array_equal(found.centre_distance, matrix.centre_distance[i, j])
