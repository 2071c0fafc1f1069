"""Rows of the pair matrix a block at a time, for streaming a table of any size (`tactical
check`): memory grows with the block (rows x N), not with the table.

`matrix_rows(units, rows, terrain)` gives one block of consecutive rows, bit for bit the
rows of `pair_matrix`, with every piece blocking each of its lines (GEO002.10).
`matrix_row_blocks(units, terrain, rows_per_block=R)` gives every row, block after block:
where line of sight is symmetric (R002.40's levels block both ways alike), each line
is tested once, from the block of its first unit, and its crossings are kept for the
block of its other unit, so the whole table tests N²/2 lines rather than N².
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np

from tactical.errors import UserError
from tactical.geometry.arcs import quadrant_index
from tactical.geometry.arcs_spec import QUADRANTS, ArcSpec
from tactical.geometry.los import TerrainIndex
from tactical.geometry.matrix import (
    Blocking,
    LevelBlocking,
    PairArrays,
    _check_blocking,
    _Cones,
    _los_blocked,
    _row_geometry,
)
from tactical.geometry.measure import BaseArrays

__all__ = ["RowBlock", "matrix_row_blocks", "matrix_rows"]

_KEY_LIMIT = 2**62  # (row, target, piece) packed in one int64 key below this
# rows whose lines among themselves are each tested once: the crossings kept wait for at
# most BAND_ROWS² / 4 lines (a 3,000-ship table is one band)
BAND_ROWS = 3072


@dataclass(frozen=True, eq=False)
class RowBlock(PairArrays):
    """Rows `first` .. `first + R - 1` of the pair matrix: (R, N) arrays (and (R, N, A) for
    arcs) holding, bit for bit, the matrix's numbers for those rows."""

    first: int = field(kw_only=True)
    # every blocking piece of every blocked line: row - first, target, piece
    hit_row: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.intp), repr=False)
    hit_target: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.intp), repr=False)
    hit_piece: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.intp), repr=False)

    @property
    def rows(self) -> range:
        return range(self.first, self.first + len(self.centre_distance))


def matrix_rows(
    units: BaseArrays,
    rows: range,
    terrain: TerrainIndex,
    *,
    arcs: tuple[ArcSpec, ...] = QUADRANTS,
    blocking: Blocking = None,
) -> RowBlock:
    """Rows `rows` (a step-1 range) of `pair_matrix`, computed without the rest: memory
    grows with len(rows) x N, so a caller can walk a big table block by block. Every
    line from those rows is tested, from its viewer (the matrix tests each line once),
    against every candidate piece: the block keeps every piece blocking each line."""
    blocking = _check_blocking(blocking, units, terrain)
    return _block(units, rows, terrain, tuple(arcs), blocking, None)


def matrix_row_blocks(
    units: BaseArrays,
    terrain: TerrainIndex,
    arcs: Sequence[ArcSpec] = QUADRANTS,
    blocking: Blocking = None,
    *,
    rows_per_block: int,
    use_kernel: bool = False,
) -> Iterator[RowBlock]:
    """Every row of `pair_matrix`, `rows_per_block` rows a block in order, each block what
    `matrix_rows` gives for its rows. With a symmetric blocking each line between two
    units of one band of `BAND_ROWS` rows is tested once: from the block of its first
    unit, its crossings kept (packed, sorted) until the block of its other unit takes
    them; a line between two bands is tested from both ends, so that what is kept stays
    bounded (a band's lines) on any table. `use_kernel`: each block's lines settled by the
    compiled kernel (a big stream's: `los.reaching_hits`), the same blocks."""
    arcs = tuple(arcs)
    blocking = _check_blocking(blocking, units, terrain)
    n = len(units)
    per_block = max(1, rows_per_block)
    symmetric = not isinstance(blocking, LevelBlocking) or blocking.symmetric
    fits = n * n * max(len(terrain), 1) < _KEY_LIMIT
    later = _LaterCrossings(n, len(terrain), per_block) if symmetric and fits else None
    band_rows = max(1, BAND_ROWS // per_block) * per_block  # whole blocks
    for first in range(0, n, per_block):
        if later is not None:
            start = first - first % band_rows
            later.band = range(start, min(n, start + band_rows))
        rows = range(first, min(n, first + per_block))
        yield _block(units, rows, terrain, arcs, blocking, later, use_kernel)


def _block(
    units: BaseArrays,
    rows: range,
    terrain: TerrainIndex,
    arcs: tuple[ArcSpec, ...],
    blocking: Blocking,
    later: _LaterCrossings | None,
    use_kernel: bool = False,
) -> RowBlock:
    """The block of `rows`; with `later`, the rows before these were given already (their
    lines' crossings kept there) and the lines to later rows are kept there in turn."""
    n = len(units)
    if rows.step != 1 or not (0 <= rows.start <= rows.stop <= n):
        raise UserError(f"rows {rows} are not consecutive rows of the {n} units")
    centre_distance, absolute, bearing, edge, in_centre, in_any = _row_geometry(
        units, slice(rows.start, rows.stop), arcs
    )
    count = len(rows)
    # the lines tested: (row, target) pairs as flat places in the block's (rows, N) arrays
    column, viewer = np.arange(n), np.asarray(rows)[:, None]
    keep = column != viewer
    if later is not None:  # lines to the band's earlier rows were tested there
        band = later.band
        keep &= (column < band.start) | (column >= rows.stop) | (viewer < column)
    place = np.flatnonzero(keep)
    local = place // n  # not np.divmod: numpy divides by a constant far faster
    pair_j = place - local * n
    pair_i = local + rows.start
    hit_pair, piece = _los_blocked(
        units, terrain, pair_i, pair_j, local, _Cones.of(units, terrain, np.asarray(rows)),
        absolute.reshape(-1).take(place), centre_distance.reshape(-1).take(place), blocking,
        every_hit=True, use_kernel=use_kernel,
    )  # fmt: skip
    row, target = pair_i.take(hit_pair), pair_j.take(hit_pair)
    if later is not None:
        # a line within the block: the same crossings both ways; to a later row of the band:
        # kept for that row's block
        inside = np.flatnonzero((target >= rows.start) & (target < rows.stop))
        beyond = np.flatnonzero((target >= rows.stop) & (target < band.stop))
        kept_row, kept_target, kept_piece = later.take(rows)
        later.keep(target.take(beyond), row.take(beyond), piece.take(beyond))
        row, target, piece = (
            np.concatenate(parts)
            for parts in (
                (row, target.take(inside), kept_row),
                (target, row.take(inside), kept_target),
                (piece, piece.take(inside), kept_piece),
            )
        )
    los_clear = np.ones((count, n), dtype=bool)
    # flat places: one put rather than a fancy index of two arrays
    los_clear.reshape(-1).put((row - rows.start) * n + target, False)
    return RowBlock(
        units, terrain, arcs, centre_distance, edge, bearing,
        quadrant_index(bearing), in_centre, in_any, los_clear, blocking,
        first=rows.start, hit_row=row - rows.start, hit_target=target, hit_piece=piece,
    )  # fmt: skip


class _LaterCrossings:
    """Crossings (row, target, piece) of lines tested from an earlier block of the band,
    waiting for the block of `row`. Each keep's crossings are packed into int64 keys and
    sorted (a run), with where each of the band's blocks' part of the run begins (a row
    of `cuts`): a block takes its slice of every run, in the order they were kept, cut
    by numbers worked out at once, not by a step for each later block at each keep. A
    run is copied shorter once more than half of it is taken (memory bounded by what
    waits; each crossing copied once more at most)."""

    def __init__(self, units: int, pieces: int, rows_per_block: int) -> None:
        self.units, self.pieces = units, max(pieces, 1)
        self.per_block = rows_per_block
        self._band = range(0)
        self.band = range(units)  # the rows whose lines are kept for each other

    @property
    def band(self) -> range:
        return self._band

    @band.setter
    def band(self, rows: range) -> None:
        """A new band (its first row a block's first) starts with nothing kept."""
        if rows == self._band:
            return
        self._band = rows
        self._first = rows.start // self.per_block  # the band's first block
        blocks = -(-len(rows) // self.per_block)
        self._runs: list[np.ndarray] = []  # each keep's keys still waiting (its tail)
        # run r's keys of the band's block b: runs[r][cuts[r, b] - dropped[r]:...]
        self._cuts = np.zeros((blocks, blocks + 1), dtype=np.intp)
        self._dropped = np.zeros(blocks, dtype=np.intp)  # each run's keys cut off its front
        self._lengths = np.zeros(blocks, dtype=np.intp)  # each run's keys still held

    def keep(self, row: np.ndarray, target: np.ndarray, piece: np.ndarray) -> None:
        if not len(row):
            return
        key = np.sort((row * self.units + target) * self.pieces + piece)
        block_keys = self.per_block * self.units * self.pieces  # one block's rows of keys
        blocks = self._cuts.shape[1] - 1
        bounds = (self._first + np.arange(blocks + 1)) * block_keys
        self._cuts[len(self._runs)] = np.searchsorted(key, bounds)
        self._lengths[len(self._runs)] = len(key)
        self._runs.append(key)

    def take(self, rows: range) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The kept crossings of `rows` (the band's next block), as row, target, piece."""
        block = rows.start // self.per_block - self._first
        runs = len(self._runs)
        dropped = self._dropped[:runs]
        begin = (self._cuts[:runs, block] - dropped).tolist()
        end = self._cuts[:runs, block + 1] - dropped
        taken = [
            run[a:b] for run, a, b in zip(self._runs, begin, end.tolist(), strict=True) if b > a
        ]
        key = np.concatenate(taken) if taken else np.zeros(0, dtype=np.int64)
        # a run more than half taken: its tail copied, the rest of its memory given back
        for r in np.flatnonzero(2 * end > self._lengths[:runs]).tolist():
            cut = int(end[r])
            self._runs[r] = self._runs[r][cut:].copy()
            self._dropped[r] += cut
            self._lengths[r] -= cut
        # quotients and products, not np.divmod (several times slower, a crossing each)
        line = key // self.pieces
        piece = key - line * self.pieces
        row = line // self.units
        target = line - row * self.units
        # intp already where int64 is (no copy)
        return (
            row.astype(np.intp, copy=False),
            target.astype(np.intp, copy=False),
            piece.astype(np.intp, copy=False),
        )
