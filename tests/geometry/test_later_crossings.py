"""The crossings a block keeps for the later blocks of its band (`matrix_row_blocks`, each
line tested once, GEO002.10): a block takes exactly the crossings kept for its rows, keep
after keep, each keep's in order of (row, target, piece), whatever the band and block
sizes, and a run mostly taken is cut shorter without losing what still waits.
"""

from __future__ import annotations

import numpy as np
import pytest

from tactical.geometry.matrix_blocks import _LaterCrossings


def _expected(kept: list[list[tuple[int, int, int]]], rows: range) -> list[tuple[int, int, int]]:
    """Every keep's crossings of `rows`, keep after keep, each sorted."""
    return [c for keep in kept for c in sorted(keep) if c[0] in rows]


@pytest.mark.parametrize("seed", range(6))
def test_a_block_takes_what_was_kept_for_its_rows_keep_after_keep(seed):
    rng = np.random.default_rng(seed)
    units, pieces = int(rng.integers(10, 60)), int(rng.integers(1, 9))
    per_block = int(rng.integers(1, 6))
    band_rows = per_block * int(rng.integers(1, 8))
    later = _LaterCrossings(units, pieces, per_block)
    kept: list[list[tuple[int, int, int]]] = []
    taken = 0
    for first in range(0, units, per_block):
        start = first - first % band_rows
        band = range(start, min(units, start + band_rows))
        if later.band != band:
            kept = []  # a new band: nothing waits
        later.band = band
        rows = range(first, min(units, first + per_block))
        found = list(zip(*(a.tolist() for a in later.take(rows)), strict=True))
        assert found == _expected(kept, rows)
        taken += len(found)
        count = int(rng.integers(0, 40)) if rows.stop < band.stop else 0
        row = rng.integers(rows.stop, band.stop, count) if count else np.zeros(0, int)
        target = rng.integers(rows.start, rows.stop, count)
        piece = rng.integers(0, pieces, count)
        later.keep(row, target, piece)
        if count:
            kept.append(list(zip(row.tolist(), target.tolist(), piece.tolist(), strict=True)))
    assert taken > 0 or band_rows <= per_block


def test_a_run_mostly_taken_is_cut_shorter_and_still_gives_the_rest():
    later = _LaterCrossings(units=8, pieces=3, rows_per_block=2)
    later.take(range(0, 2))
    rows = np.array([2, 2, 3, 4, 5, 6, 7, 7])
    later.keep(rows, np.zeros(8, dtype=int), np.arange(8) % 3)
    assert later.take(range(2, 4))[0].tolist() == [2, 2, 3]
    assert later.take(range(4, 6))[0].tolist() == [4, 5]  # more than half taken: cut
    assert later._runs[0].tolist() == [6 * 8 * 3 + 2, 7 * 8 * 3, 7 * 8 * 3 + 1]  # what waits
    row, target, piece = later.take(range(6, 8))
    assert (row.tolist(), target.tolist(), piece.tolist()) == ([6, 7, 7], [0, 0, 0], [2, 0, 1])


def test_a_run_is_cut_only_once_more_than_half_of_it_is_taken():
    """Memory given back at the right moments: a run of 40 crossings, 10 for each of four
    later blocks, is held whole until more than half is taken (20 of 40 is not), then
    keeps its last 10, then nothing."""
    later = _LaterCrossings(units=10, pieces=2, rows_per_block=2)
    later.take(range(0, 2))
    rows = np.repeat(np.arange(2, 10, 2), 10)
    later.keep(rows, np.arange(40) % 2, np.zeros(40, dtype=int))
    held = []
    for first in range(2, 10, 2):
        assert later.take(range(first, first + 2))[0].tolist() == [first] * 10
        held.append(len(later._runs[0]))
    assert held == [40, 40, 10, 0]
