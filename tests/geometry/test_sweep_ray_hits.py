"""The sweep's straight-line hits (R002.35) are the cross products of broadcast arrays, bit
for bit: the contacts (and so every move planned) stay the same to the last digit."""

from __future__ import annotations

import numpy as np

from tactical.geometry.sweep_touch import ray_hits as _ray_hits


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]


def _broadcast_hits(points, direction, edges, length):
    q0 = edges[None, :, 0]
    along = edges[None, :, 1] - q0
    offset = q0 - points[:, None, :]
    denominator = _cross(np.broadcast_to(direction, along.shape), along)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = _cross(offset, along) / denominator
        u = _cross(offset, np.broadcast_to(direction, offset.shape)) / denominator
    ok = (np.abs(denominator) > 1e-12) & (u >= 0) & (u <= 1) & (s >= 0) & (s <= length)
    point_index, edge_index = np.nonzero(ok)
    return s[ok], point_index, edge_index


def test_hits_equal_the_broadcast_cross_products_bit_for_bit():
    rng = np.random.default_rng(7)
    found = 0
    for _ in range(50):
        points = rng.uniform(0, 10, (4, 2))
        edges = rng.uniform(0, 10, (12, 2, 2))
        edges[0, 1] = edges[0, 0] + (1.0, 0.0)  # one edge parallel to the move: never hit
        angle = rng.uniform(0, 2 * np.pi)
        direction = np.array([np.sin(angle), np.cos(angle)])
        length = float(rng.uniform(1, 12))
        got = _ray_hits(points, direction, edges, length)
        want = _broadcast_hits(points, direction, edges, length)
        for a, b in zip(got, want, strict=True):
            assert a.dtype == b.dtype and a.tobytes() == b.tobytes()
        found += len(got[0])
    assert found > 20  # hits were tested, not only misses
    # a move along a parallel edge slides: no hit
    along_edge = _ray_hits(
        np.array([[0.0, 0.0]]), np.array([1.0, 0.0]), np.array([[[0.0, 0.0], [5.0, 0.0]]]), 9.0
    )
    assert len(along_edge[0]) == 0
