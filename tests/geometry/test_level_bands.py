"""Line of sight under a level blocking (R002.40, R002.41): `_los_blocked` sorts each
viewer's targets into bands by level and searches a piece's cone only in the bands of the
levels it may block, never for the viewer's own base. The crossings must be exactly those
the rules allow and GEOS finds, line by line, for every mix of levels and owned bases."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from tactical.geometry.los import INTERIOR_PATTERN, TerrainIndex
from tactical.geometry.matrix import LevelBlocking, pair_matrix
from tactical.geometry.matrix_blocks import matrix_rows
from tactical.geometry.measure import BaseArrays
from tactical.geometry.shapes import Pose, RectBase, base_corners


def _table(seed: int, units: int, levels: int):
    """A crowd of ships whose bases block sight (each owned by its ship), among terrain, and
    a random (levels, levels, pieces) mask with every level used."""
    rng = np.random.default_rng(seed)
    poses = [Pose(*rng.uniform((0, 0, 0), (30, 20, 360))) for _ in range(units)]
    bases = [RectBase(rng.uniform(0.5, 1.5), rng.uniform(1, 3)) for _ in range(units)]
    table = BaseArrays.build(poses, bases)
    terrain_shapes = [shapely.Point(*rng.uniform((4, 4), (26, 16))).buffer(1.5) for _ in range(4)]
    footprints = [shapely.Polygon(base_corners(p, b)) for p, b in zip(poses, bases, strict=True)]
    terrain = TerrainIndex.build([f"t{k}" for k in range(4)], terrain_shapes).with_convex(
        [f"u{k}" for k in range(units)], footprints
    )
    mask = rng.random((levels, levels, len(terrain))) < 0.6
    owners = np.concatenate((np.full(4, -1), np.arange(units)))
    codes = np.arange(units) % levels
    return table, terrain, LevelBlocking(codes, mask, owners)


def _reference(table, terrain, blocking, rows) -> set[tuple[int, int, int]]:
    """Every (row, target, piece) the rules allow whose line crosses the piece's interior."""
    found = set()
    for i in rows:
        for j in range(len(table)):
            if i == j:
                continue
            line = shapely.LineString([(table.x[i], table.y[i]), (table.x[j], table.y[j])])
            allowed = np.flatnonzero(blocking.for_pair(i, j))
            inside = shapely.relate_pattern(line, terrain.geometries[allowed], INTERIOR_PATTERN)
            found |= {(i, j, int(t)) for t in allowed[inside]}
    return found


@pytest.mark.parametrize(("seed", "levels"), [(1, 1), (2, 2), (3, 3)])
def test_the_crossings_of_a_block_are_those_the_levels_allow(seed, levels):
    table, terrain, blocking = _table(seed, 24, levels)
    rows = range(5, 13)
    block = matrix_rows(table, rows, terrain, blocking=blocking)
    found = set(
        zip(
            (block.hit_row + rows.start).tolist(),
            block.hit_target.tolist(),
            block.hit_piece.tolist(),
            strict=True,
        )
    )
    expected = _reference(table, terrain, blocking, rows)
    assert found == expected
    assert len({piece for _, _, piece in expected if piece >= 4}) > 3  # bases do block
    # and the whole matrix (a line tested once) says blocked exactly where a crossing is
    matrix = pair_matrix(table, terrain, blocking=blocking)
    blocked = {(i, j) for i, j, _ in expected}
    assert {(i, j) for i in rows for j in range(24) if not matrix.los_clear[i, j]} == blocked
