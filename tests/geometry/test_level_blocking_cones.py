"""`LevelBlocking.may_block_from`: whether a piece may block some line from a viewer (not
its own base, nor a piece no line from the viewer's level is blocked by); it must never
refuse a line `allows`."""

from __future__ import annotations

import numpy as np
import pytest

from tactical.geometry.matrix import LevelBlocking


@pytest.mark.parametrize("owned", [False, True])
def test_a_dropped_cone_holds_no_line_the_rules_let_the_piece_block(owned):
    rng = np.random.default_rng(7)
    units, levels, pieces = 9, 3, 12
    mask = rng.random((levels, levels, pieces)) < 0.3
    mask[2, :, 5] = False  # piece 5 blocks nothing seen from level 2
    owners = np.where(np.arange(pieces) < 6, -1, np.arange(pieces) - 6) if owned else None
    blocking = LevelBlocking(rng.integers(0, levels, units), mask, owners)
    i, piece = np.meshgrid(np.arange(units), np.arange(pieces), indexing="ij")
    i, piece = i.ravel(), piece.ravel()
    may = blocking.may_block_from(i, piece)
    for j in range(units):
        allowed = blocking.allows(i, np.full_like(i, j), piece)
        assert not (allowed & ~may).any()  # what it drops, `allows` refuses for every target
    # and it drops no more: a piece the viewer's level sees blocked, not its own base
    expected = mask.any(axis=1)[blocking.levels[i], piece]
    if owned:
        expected &= owners[piece] != i
    assert (may == expected).all() and may.any() and not may.all()
    if owned:  # a unit's own base never blocks a line from it
        assert not may[(piece >= 6) & (piece - 6 == i)].any()
