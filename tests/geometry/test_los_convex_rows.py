"""Models' bases added to a terrain index (GEO002.10, R002.41): each outline's numbers kept by
the very object, so an index built from remembered outlines is bit for bit the one built
afresh, whatever else is measured with them."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
import shapely.affinity

from tactical.geometry import los_pieces
from tactical.geometry.los import TerrainIndex
from tactical.geometry.los_pieces import _boxes

FIELDS = (
    "outer_centre", "outer_radius", "inner_centre", "inner_radius", "edge_offsets", "edge_x",
    "edge_y", "edge_dx", "edge_dy", "diagonals", "boxes",
)  # fmt: skip


def _bases(count: int) -> list[shapely.Polygon]:
    rng = np.random.default_rng(5)
    bases = []
    for k in range(count):
        x, y = rng.uniform(0, 30, 2)
        if k % 3 == 0:
            bases.append(shapely.Point(x, y).buffer(rng.uniform(0.3, 2.0), quad_segs=16))
            continue
        w, h = rng.uniform(0.2, 1.0), rng.uniform(1.0, 4.0)
        ring = [(-w, -h), (w, -h), (w, h), (-w, h)]
        if k % 3 == 2:  # an extra vertex on a side
            ring = [(-w, -h), (0.0, -h), (w, -h), (w, h), (-w, h)]
        turned = shapely.affinity.rotate(shapely.Polygon(ring), rng.uniform(0, 360), (0, 0))
        bases.append(shapely.affinity.translate(turned, x, y))
    return bases


def _terrain() -> TerrainIndex:
    return TerrainIndex.build(
        ["reef", "rock"],
        [
            shapely.Polygon([(40, 8), (46, 8), (46, 16), (43, 11), (40, 16)]),
            shapely.Point(30, 12).buffer(2.0, quad_segs=16),
        ],
    )


def _same(a: TerrainIndex, b: TerrainIndex) -> None:
    assert a.ids == b.ids
    assert list(a.geometries) == list(b.geometries)
    for name in FIELDS:
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.shape == y.shape, name
        assert x.tobytes() == y.tobytes(), name


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(los_pieces, "_CONVEX_ROWS", {})


@pytest.mark.usefixtures("fresh")
def test_remembered_outlines_give_the_index_measured_afresh():
    """Half the outlines measured first, then all of them in another order: the index is the
    one measured with nothing remembered, bit for bit."""
    bases, terrain = _bases(24), _terrain()
    ids = [f"b{k}" for k in range(len(bases))]
    order = list(range(len(bases)))[::-1]
    terrain.with_convex(ids[::2], bases[::2])
    assert len(los_pieces._CONVEX_ROWS) == 12
    warm = terrain.with_convex([ids[k] for k in order], [bases[k] for k in order])
    assert len(los_pieces._CONVEX_ROWS) == 24
    los_pieces._CONVEX_ROWS.clear()
    cold = terrain.with_convex([ids[k] for k in order], [bases[k] for k in order])
    _same(warm, cold)


@pytest.mark.usefixtures("fresh")
def test_an_outline_alone_has_the_numbers_it_has_among_others():
    """Every outline's numbers are its own: measured one at a time (nothing remembered) they
    are those of the outlines measured all together."""
    bases, terrain = _bases(9), _terrain()
    together = terrain.with_convex([f"b{k}" for k in range(9)], bases)
    pieces = len(terrain)
    for k, base in enumerate(bases):
        los_pieces._CONVEX_ROWS.clear()
        alone = terrain.with_convex([f"b{k}"], [base])
        for name in ("outer_radius", "inner_radius"):
            assert getattr(alone, name)[pieces] == getattr(together, name)[pieces + k]
        assert (alone.outer_centre[pieces] == together.outer_centre[pieces + k]).all()
        assert (alone.diagonals[:, :, pieces] == together.diagonals[:, :, pieces + k]).all()
        assert (alone.boxes[:, pieces] == together.boxes[:, pieces + k]).all()
        first, last = together.edge_offsets[pieces + k : pieces + k + 2]
        assert (alone.edge_dx[alone.edge_offsets[pieces] :] == together.edge_dx[first:last]).all()


@pytest.mark.usefixtures("fresh")
def test_the_boxes_and_the_tree_are_the_whole_index_s():
    """The boxes put together are those of the combined index's own edges, and the tree (built
    when first asked) finds the bases too."""
    bases, terrain = _bases(12), _terrain()
    index = terrain.with_convex([f"b{k}" for k in range(12)], bases)
    whole = _boxes(
        index.edge_offsets, index.edge_x, index.edge_y, index.edge_dx, index.edge_dy,
        index.outer_centre,
    )  # fmt: skip
    assert whole.tobytes() == index.boxes.tobytes()
    assert "tree" not in index.__dict__
    found = index.tree.query(shapely.Point(bases[4].centroid), predicate="intersects")
    assert 2 + 4 in found.tolist()
    assert index.ids[2:] == tuple(f"b{k}" for k in range(12))
