"""Everything between every pair of units at once: distances, bearings, arcs, line of sight.

`pair_matrix` computes, for N units and T terrain pieces, vectorised with
numpy (and GEOS only for degenerate line-of-sight cases):

- `centre_distance` and `edge_distance` (N, N), symmetric;
- `bearing` (N, N): relative bearing of j's centre from i's heading, and
  `centre_quadrant` (N, N) indices into `QUADRANT_NAMES` (docs/architecture.md `centre_arc`);
- `in_arc_centre` / `in_arc_any` (N, N, A) for the given arcs, by the target's
  centre and by any part of its base;
- `los_clear` (N, N) centre to centre, with `blocked_by(i, j)` listing the
  blocking terrain in order along the line, and `witness(i, j)` the measured
  segment, both computed on demand for one pair.

`unit_row(units, i, ...)` computes the same for one unit against all others,
bit for bit the matrix's row (fast enough to call every frame: the row's budget
is 0.5 ms for 200 units and 40 pieces); `PairMatrix.unit_row(i)` slices a
computed matrix. The row works from data that depends only on the state, kept
on the `BaseArrays` and the `TerrainIndex` the first time a row asks for it
(units grouped by base kind with their rectangles' vertices laid out flat; both
discs of every piece as columns), so each row does only the work of its source.
The diagonal (a unit against itself) holds distance 0, bearing 0, quadrant fore,
no arcs and a clear line.

Which terrain blocks which pair is the rule system's decision (R002.40): pass
a (T,) mask for every pair, or a `LevelBlocking` (each unit a level code, and
a (levels, levels, T) mask) so the choice is made once per viewer, target level
and piece. Line of sight: a unit's candidate pieces are found by sorting the
bearings to all other units (by level, where levels decide) and taking, for each
piece, the bearings inside the piece's bounding disc's tangent cone
(searchsorted); only those few pairs are tested, most by the piece's inscribed
disc, the rest edge by edge.

Importing this module calls `tune_allocator()` (tactical.geometry.measure):
without it, glibc's page faults on numpy's temporaries make the matrix 1.5-2x
slower on the project's machines.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import shapely
from shapely import STRtree

from tactical.errors import UserError
from tactical.geometry.arcs import (
    QUADRANT_NAMES,
    ArcTest,
    pair_arc_masks,
    quadrant_index,
    wrap_bearings,
)
from tactical.geometry.arcs_spec import QUADRANTS, ArcSpec
from tactical.geometry.compiled_kernels import available
from tactical.geometry.los import (
    DISC_TOLERANCE,
    INNER_MARGIN,
    Lines,
    TerrainIndex,
    blocked_segments,
    cone_candidates,
    hits_among,
    hits_from_point,
    order_along,
    reaching_hits,
)
from tactical.geometry.measure import (
    BLOCK_ELEMENTS,
    BaseArrays,
    From,
    Measurement,
    To,
    measure,
    pair_edge_distances,
    row_blocks,
    tune_allocator,
    unit_edge_distances,
)

tune_allocator()  # see its docstring: numpy temporaries without page faults

_ROW_STRIDE = 8.0  # > 2π: separates the rows of sorted bearings (radians) in one flat array
# Operands of the one-unit row as 0-d arrays: numpy converts a Python float on every call.
_TINY = np.array(1e-300)  # inches: shorter than any line between two distinct centres
_CONE_SLACK = np.array(1e-9)  # radians added to each side of a bounding disc's cone
_HALF_TURN, _FULL_TURN = np.array(math.pi), np.array(2 * math.pi)
_ZERO = np.array(0.0)


@dataclass(frozen=True, eq=False)
class LevelBlocking:
    """Which terrain blocks line of sight between which units (e.g. R002.40).

    `levels[i]` is unit i's level code (0 .. L-1; e.g. surface, flying);
    `mask[a, b, t]` says whether piece t blocks a line between a unit of level a
    and one of level b. A symmetric mask (mask[a, b] == mask[b, a]) lets the
    matrix test each line once.

    `owners` (optional, (T,)): the unit each piece is the base of (a model blocking sight,
    R002.41), -1 for terrain: a piece never blocks a line from or to its own unit, whose
    centre it holds.
    """

    levels: np.ndarray
    mask: np.ndarray
    owners: np.ndarray | None = None

    def __post_init__(self) -> None:
        levels = np.asarray(self.levels, dtype=np.int64)
        mask = np.asarray(self.mask, dtype=bool)
        if mask.ndim != 3 or mask.shape[0] != mask.shape[1]:
            raise UserError(f"a level blocking mask must have shape (L, L, T), got {mask.shape}")
        if levels.size and (levels.min() < 0 or levels.max() >= mask.shape[0]):
            raise UserError(f"unit level codes must be 0..{mask.shape[0] - 1}")
        object.__setattr__(self, "levels", levels)
        object.__setattr__(self, "mask", mask)
        if self.owners is not None:
            owners = np.asarray(self.owners, dtype=np.int64)
            if owners.shape != mask.shape[2:]:
                raise UserError(f"{owners.shape} piece owners for {mask.shape[2]} pieces")
            object.__setattr__(self, "owners", owners)

    @cached_property
    def symmetric(self) -> bool:
        return bool(np.array_equal(self.mask, self.mask.transpose(1, 0, 2)))

    def for_pair(self, i: int, j: int) -> np.ndarray:
        """The (T,) mask of pieces blocking the line from unit i to unit j."""
        mask = self.mask[self.levels[i], self.levels[j]]
        if self.owners is not None:
            mask = mask & (self.owners != i) & (self.owners != j)
        return mask

    def allows(
        self, i: np.ndarray, j: np.ndarray, piece: np.ndarray, at: np.ndarray | None = None
    ) -> np.ndarray:
        """Whether piece[k] may block the line from unit i[k] to unit j[k] (vectorised);
        `at`: `pair_rows(i, j)` where already known (the candidates of one line share it)."""
        if at is None:
            at = self.pair_rows(i, j)
        keep = self.mask.reshape(-1).take(at + piece)
        if self.owners is not None:
            owner = self.owners.take(piece)
            keep &= (owner != i) & (owner != j)
        return keep

    def pair_rows(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """Where the (T,) mask of each pair i[k] -> j[k] starts in the flattened mask."""
        levels, pieces = self.mask.shape[1:]
        return (self.levels.take(i) * levels + self.levels.take(j)) * pieces

    def lines(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """(M, T): which pieces may block each line i[k] -> j[k]."""
        mask = self.mask[self.levels[i], self.levels[j]]
        if self.owners is not None:
            mask = mask & (self.owners != i[:, None]) & (self.owners != j[:, None])
        return mask


Blocking = LevelBlocking | np.ndarray | None


def _check_blocking(blocking: Blocking, units: BaseArrays, terrain: TerrainIndex) -> Blocking:
    if blocking is None:
        return None
    if isinstance(blocking, LevelBlocking):
        if blocking.levels.shape != (len(units),) or blocking.mask.shape[2] != len(terrain):
            raise UserError(
                f"level blocking for {blocking.levels.shape[0]} units and "
                f"{blocking.mask.shape[2]} pieces does not match {len(units)} units "
                f"and {len(terrain)} pieces"
            )
        return blocking
    mask = np.asarray(blocking, dtype=bool)
    if mask.shape != (len(terrain),):
        raise UserError(f"a blocking mask needs one flag per terrain piece ({len(terrain)})")
    return mask


def _pair_mask(blocking: Blocking, i: int, j: int, pieces: int) -> np.ndarray:
    if blocking is None:
        return np.ones(pieces, dtype=bool)
    if isinstance(blocking, LevelBlocking):
        return blocking.for_pair(i, j)
    return blocking


# --------------------------------------------------------------------------- line of sight


@dataclass(frozen=True, eq=False)
class _Cones:
    """What each viewer (row) sees of each piece (column), in compass radians.

    Outer cone: bearings whose ray may meet the piece's bounding disc, as one or
    two intervals (it may wrap past ±π); `near` is the distance the line must
    reach to touch that disc. Inner cone: a line with bearing within `inner_half`
    of `inner_theta` that reaches `inner_reach` passes through the piece's
    inscribed disc, so surely crosses its interior.
    """

    low: np.ndarray
    high: np.ndarray
    low2: np.ndarray
    high2: np.ndarray
    near: np.ndarray
    inner_theta: np.ndarray
    inner_half: np.ndarray
    inner_reach: np.ndarray

    @classmethod
    def of(cls, units: BaseArrays, terrain: TerrainIndex, rows: np.ndarray) -> _Cones:
        vx, vy = units.x[rows][:, None], units.y[rows][:, None]
        to_x = terrain.outer_centre[None, :, 0] - vx
        to_y = terrain.outer_centre[None, :, 1] - vy
        gap = np.sqrt(to_x * to_x + to_y * to_y)
        reach = terrain.outer_radius + DISC_TOLERANCE
        inside = gap <= reach
        ratio = np.divide(reach, gap, out=np.ones_like(gap), where=~inside)
        half = np.arcsin(np.minimum(ratio, 1.0)) + 1e-9
        full = inside | (half >= math.pi)
        theta = np.arctan2(to_x, to_y)
        low = np.where(full, -math.pi, theta - half)
        high = np.where(full, math.pi, theta + half)
        wrap_low, wrap_high = low < -math.pi, high > math.pi
        low2 = np.where(wrap_low, low + 2 * math.pi, np.where(wrap_high, -math.pi, 1.0))
        high2 = np.where(wrap_low, math.pi, np.where(wrap_high, high - 2 * math.pi, -1.0))
        near = np.where(inside, -np.inf, gap - reach)

        to_x = terrain.inner_centre[None, :, 0] - vx
        to_y = terrain.inner_centre[None, :, 1] - vy
        gap = np.sqrt(to_x * to_x + to_y * to_y)
        # the disc shrunk by 1e-7": a line inside its tangents passes at least that far inside
        # the inscribed disc, far beyond the rounding of the bearings
        radius = np.broadcast_to(np.maximum(terrain.inner_radius - INNER_MARGIN, 0.0), gap.shape)
        within = gap < radius  # the viewer stands in the (shrunk) inscribed disc
        ratio = np.divide(radius, gap, out=np.zeros_like(gap), where=~within)
        inner_half = np.where(within, 4.0, np.arcsin(np.minimum(ratio, 1.0)))
        inner_reach = np.where(within, 0.0, gap)
        return cls(
            np.maximum(low, -math.pi).ravel(), np.minimum(high, math.pi).ravel(),
            low2.ravel(), high2.ravel(), near.ravel(),
            np.arctan2(to_x, to_y).ravel(), inner_half.ravel(), inner_reach.ravel(),
        )  # fmt: skip


def _los_blocked(
    units: BaseArrays,
    terrain: TerrainIndex,
    pair_i: np.ndarray,
    pair_j: np.ndarray,
    row_of: np.ndarray,
    cones: _Cones,
    angle: np.ndarray,
    distance: np.ndarray,
    blocking: Blocking,
    every_hit: bool = False,
    use_kernel: bool = False,
):
    """Whether the line between the centres of each pair (pair_i[k], pair_j[k]) is blocked.

    With `every_hit`, instead every (pair, piece) whose line crosses the piece (each line
    tested against all its candidate pieces, not only until one blocks it), as
    `(hit_pair, hit_piece)`: a line is blocked where it has one; `use_kernel` (a big
    stream's blocks) settles the candidates by the compiled kernel, the same hits.

    `row_of[k]` is the viewer pair_i[k]'s row in `cones`; `angle` and `distance`
    the compass bearing (radians, from arctan2) and distance of j from i.
    Candidates are found by sorting the pairs by viewer and bearing and taking,
    for each viewer and piece, the bearings in the piece's outer cone
    (searchsorted); inner cones settle most lines; the rest go to the exact test.
    """
    pieces = len(terrain)
    blocked = np.zeros(len(pair_i), dtype=bool)
    no_hits = (np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp))
    if pieces == 0 or len(pair_i) == 0:
        return no_hits if every_hit else blocked
    rows = len(cones.low) // pieces
    by_level = isinstance(blocking, LevelBlocking)
    levels = blocking.mask.shape[0] if by_level else 1
    # a viewer's targets in bands by their level (one band a row without level blocking):
    # a cone is searched only in the bands of the levels the piece may block a line to, so
    # no candidate the rules drop is ever expanded (R002.40)
    band = row_of * levels + blocking.levels.take(pair_j) if by_level else row_of
    keys = angle + _ROW_STRIDE * band
    order = np.argsort(keys)
    keys = keys[order]
    # only the cones of pieces a band's longest line can reach hold candidates: each cone
    # (a band's view of a piece) numbered band * pieces + piece, its data at row * pieces +
    # piece in `cones`
    longest = np.full(rows * levels, -np.inf)
    np.maximum.at(longest, band, distance)
    live, flat = _live_cones(cones.near, longest.reshape(rows, levels), pieces)
    if by_level:
        # the rules' choice for a viewer's level, a band's level and a piece, and never the
        # viewer's own base (R002.41), settled a cone at a time
        row_unit = np.zeros(rows, dtype=np.intp)
        row_unit[row_of] = pair_i
        viewer = row_unit.take(flat // pieces)
        piece = flat - flat // pieces * pieces
        level_pair = blocking.levels.take(viewer) * levels + live // pieces % levels
        keep = blocking.mask.reshape(-1).take(level_pair * pieces + piece)
        if blocking.owners is not None:
            keep &= blocking.owners.take(piece) != viewer
        keep = np.flatnonzero(keep)
        live, flat = live.take(keep), flat.take(keep)
    # each cone's interval, then the second intervals of the cones wrapping past ±π (the
    # others' second interval is empty: low2 > high2)
    wraps = np.flatnonzero(cones.low2.take(flat) <= cones.high2.take(flat))
    both = np.concatenate((live, live.take(wraps)))
    both_flat = np.concatenate((flat, flat.take(wraps)))
    offset = _ROW_STRIDE * (both // pieces)
    lows = np.concatenate((cones.low.take(flat), cones.low2.take(flat.take(wraps)))) + offset
    highs = np.concatenate((cones.high.take(flat), cones.high2.take(flat.take(wraps)))) + offset
    # the bounds searched in increasing order (numpy's search starts where the last ended,
    # and the keys stay in cache: several times faster), the answers put back in cone order
    by_low, by_high = np.argsort(lows), np.argsort(highs)
    left, right = np.empty(len(lows), dtype=np.intp), np.empty(len(lows), dtype=np.intp)
    left[by_low] = np.searchsorted(keys, lows.take(by_low), side="left")
    right[by_high] = np.searchsorted(keys, highs.take(by_high), side="right")
    counts = np.maximum(right - left, 0)
    cone = np.flatnonzero(counts)  # (viewer, piece) intervals holding candidates
    left, counts = left[cone], counts[cone]
    cone = both_flat[cone]
    ends = np.cumsum(counts)
    ambiguous_pair, ambiguous_piece = [], []
    sure_pair, sure_piece = [], []
    first = 0
    if every_hit and use_kernel and len(cone) and available():  # all batches in one loop
        owners, mask = (blocking.owners, None) if by_level else (None, blocking)
        found = cone_candidates(cone, left, counts, order, distance, angle, pair_j, cones,
                                pieces, owners, mask)  # fmt: skip
        sure_pair, sure_piece, ambiguous_pair, ambiguous_piece = ([part] for part in found)
        first = len(cone)
    while first < len(cone):
        # a batch of whole intervals expanding to about BLOCK_ELEMENTS candidates
        done = ends[first - 1] if first else 0
        last = max(first + 1, int(np.searchsorted(ends, done + BLOCK_ELEMENTS, side="right")))
        batch = slice(first, last)
        size = counts[batch]
        position = np.arange(ends[last - 1] - done) + np.repeat(
            left[batch] - (ends[batch] - size - done), size
        )
        flat = np.repeat(cone[batch], size)  # row * pieces + piece
        # gathers by take: a third faster than indexing by an array
        pair = order.take(position)
        reach = distance.take(pair)
        # the candidates each line reaches (a zero-length line is clear) and the rules let
        # block it: the others dropped before anything more is computed of them
        keep = np.flatnonzero((reach >= cones.near.take(flat)) & (reach > 0.0))
        flat, pair, reach = flat.take(keep), pair.take(keep), reach.take(keep)
        piece = flat - flat // pieces * pieces  # flat % pieces, at a third of its cost
        if by_level:
            # levels and the viewer's own base settled by the cones: the target's own base
            if blocking.owners is not None:
                keep = np.flatnonzero(blocking.owners.take(piece) != pair_j.take(pair))
                flat, pair, reach, piece = (a.take(keep) for a in (flat, pair, reach, piece))
        elif blocking is not None:
            keep = np.flatnonzero(blocking[piece])
            flat, pair, reach, piece = (a.take(keep) for a in (flat, pair, reach, piece))
        delta = angle.take(pair) - cones.inner_theta.take(flat)
        delta = np.abs(np.where(delta > math.pi, delta - 2 * math.pi, delta))
        delta = np.where(delta > math.pi, 2 * math.pi - delta, delta)
        sure = (delta < cones.inner_half.take(flat)) & (reach >= cones.inner_reach.take(flat))
        unsure = np.flatnonzero(~sure)
        sure = np.flatnonzero(sure)
        if every_hit:
            sure_pair.append(pair.take(sure))
            sure_piece.append(piece.take(sure))
        else:
            blocked[pair.take(sure)] = True
        ambiguous_pair.append(pair.take(unsure))
        ambiguous_piece.append(piece.take(unsure))
        first = last
    if not ambiguous_pair:
        return no_hits if every_hit else blocked
    pair, piece = np.concatenate(ambiguous_pair), np.concatenate(ambiguous_piece)
    if every_hit:
        i, j = pair_i.take(pair), pair_j.take(pair)
        lines = Lines(units.x.take(i), units.y.take(i), units.x.take(j), units.y.take(j))
        # found by the cones, of length > 0 (`reach > 0`): no bounding-disc filter needed
        hit = reaching_hits(terrain, lines, piece, use_kernel)
        return np.concatenate((*sure_pair, pair[hit])), np.concatenate((*sure_piece, piece[hit]))
    still = ~blocked[pair]
    pair, piece = pair[still], piece[still]
    i, j = pair_i[pair], pair_j[pair]
    lines = Lines(units.x[i], units.y[i], units.x[j], units.y[j])
    # found by the cones, of length > 0 (`reach > 0`): no bounding-disc filter needed
    return blocked | blocked_segments(
        terrain, lines, piece, pair, len(pair_i), inner_done=True, reaching=True
    )


def _live_cones(near: np.ndarray, longest: np.ndarray, pieces: int) -> tuple[np.ndarray, ...]:
    """The cones some line of their band reaches: (R, L) `longest` lines of each row's L
    bands, `near` (R x pieces) the distance a line must reach to touch each piece's disc.
    Each cone as band * pieces + piece, with its row's place row * pieces + piece (band by
    band: the order of the cones changes no answer, only the order of the hits)."""
    levels = longest.shape[1]
    if levels == 1:
        flat = np.flatnonzero(near <= np.repeat(longest[:, 0], pieces))
        return flat, flat
    found = [
        np.flatnonzero(near <= np.repeat(longest[:, level], pieces)) for level in range(levels)
    ]
    flat = np.concatenate(found)
    row = flat // pieces
    live = (row * levels + np.repeat(np.arange(levels), [len(f) for f in found])) * pieces
    live += flat - row * pieces
    return live, flat


def _row_los_blocked(
    units: BaseArrays,
    terrain: TerrainIndex,
    i: int,
    angle: np.ndarray,
    distance: np.ndarray,
    blocking: Blocking,
) -> np.ndarray:
    """Whether the line from unit i's centre to each unit's centre is blocked: the one-row
    twin of `_los_blocked`, with the same answers.

    `angle` and `distance` are each target's compass bearing (radians, from arctan2)
    and distance from i. Every line starts at the viewer, so a piece's candidates are
    the targets whose bearing lies in the piece's outer cone: the bearings are sorted
    once and repeated one turn higher, so that each cone, even one crossing ±π, is one
    range of that array (searchsorted). Inner cones settle most candidates; the rest
    go to the exact test (`hits_from_point`).
    """
    n, pieces = len(units), len(terrain)
    blocked = np.zeros(n, dtype=bool)
    if pieces == 0 or n < 2:
        return blocked
    sight = terrain.sight
    vx, vy = units.x[i, ...], units.y[i, ...]  # 0-d arrays: cheaper operands than floats
    # both discs of every piece at once: bounding discs [:pieces], inscribed ones [pieces:]
    to_x, to_y = sight.x - vx, sight.y - vy
    gap = np.hypot(to_x, to_y)
    theta = np.arctan2(to_x, to_y)
    half = np.arcsin(sight.radius / np.maximum(gap, sight.scale))
    inside = gap <= sight.radius  # the viewer stands in the disc
    outer_inside = inside[:pieces]
    # the outer cone, widened by 1e-9 rad; the whole turn from inside the disc. The sorted
    # bearings are repeated a turn lower and higher, so that every cone is one range.
    widened = half[:pieces] + _CONE_SLACK
    low, high = theta[:pieces] - widened, theta[:pieces] + widened
    low[outer_inside], high[outer_inside] = -math.pi, math.pi
    order = angle.argsort()
    keys = angle[order]
    keys = np.concatenate((keys - _FULL_TURN, keys, keys + _FULL_TURN))
    left = keys.searchsorted(low, side="left")
    counts = keys.searchsorted(high, side="right") - left
    if isinstance(blocking, np.ndarray):
        counts[~blocking] = 0
    ends = counts.cumsum()
    total = int(ends[-1])
    if total == 0:
        return blocked
    target = order[(np.arange(total) + (left - ends + counts).repeat(counts)) % n]
    piece = np.arange(pieces).repeat(counts)
    length = distance[target]
    # how far a line must reach to meet the disc; above 0, so that a zero-length line (to
    # the viewer itself or a unit on the same spot) is never a candidate: it is clear
    near = np.maximum(gap[:pieces] - sight.radius[:pieces], _TINY)
    keep = length >= near[piece]
    if isinstance(blocking, LevelBlocking):
        if blocking.owners is None:
            keep &= blocking.mask[blocking.levels[i], blocking.levels[target], piece]
        else:
            keep &= blocking.allows(np.full(len(piece), i), target, piece)
    keep = keep.nonzero()[0]
    target, piece, length = target[keep], piece[keep], length[keep]
    # the inscribed disc: a line within its tangents that reaches its centre crosses the
    # interior (the disc is shrunk by INNER_MARGIN, far beyond the rounding of the bearings)
    inner = piece + pieces
    delta = np.abs(angle[target] - theta[inner])
    delta = np.where(delta > _HALF_TURN, _FULL_TURN - delta, delta)
    sure = (delta < half[inner]) & (length >= gap[inner])
    sure |= inside[inner]
    blocked[target[sure]] = True
    rest = (~(sure | blocked[target])).nonzero()[0]
    if len(rest) == 0:
        return blocked
    target, piece = target[rest], piece[rest]
    hit = hits_from_point(
        terrain, (vx, vy), units.x[target], units.y[target], piece, outer_inside[piece]
    )
    blocked[target[hit]] = True
    return blocked


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, eq=False)
class PairArrays:
    """The arrays every pair answer is read from, shared by the whole matrix (N, N), one
    unit's row (N) and a block of rows (R, N): distances, bearings, arc masks (a last axis
    of A arcs) and line of sight, with the units, terrain, arcs and blocking they came from."""

    units: BaseArrays
    terrain: TerrainIndex
    arcs: tuple[ArcSpec, ...]
    centre_distance: np.ndarray
    edge_distance: np.ndarray
    bearing: np.ndarray
    centre_quadrant: np.ndarray
    in_arc_centre: np.ndarray
    in_arc_any: np.ndarray
    los_clear: np.ndarray
    blocking: Blocking = field(default=None, repr=False)


@dataclass(frozen=True, eq=False)
class UnitRow(PairArrays):
    """One unit (`index`) against every unit: arrays of length N (and (N, A) for arcs)."""

    index: int = field(kw_only=True)

    @property
    def centre_arc(self) -> tuple[str, ...]:
        """Name of the quadrant holding each unit's centre (docs/architecture.md `centre_arc`)."""
        return tuple(QUADRANT_NAMES[k] for k in self.centre_quadrant)

    def arcs_containing(self, j: int, test: ArcTest = "centre") -> tuple[str, ...]:
        mask = self.in_arc_centre[j] if test == "centre" else self.in_arc_any[j]
        return tuple(arc.name for arc, inside in zip(self.arcs, mask, strict=True) if inside)

    def blocked_by(self, j: int) -> tuple[str, ...]:
        """Terrain blocking the line from this unit to unit j, in order along the line."""
        if self.los_clear[j]:
            return ()
        return _blocked_by(self.units, self.terrain, self.blocking, self.index, j)

    def witness(self, j: int, from_: From = "edge", to: To = "nearest") -> Measurement:
        return measure(
            self.units.poses[self.index], self.units.bases[self.index],
            self.units.poses[j], self.units.bases[j], from_, to,
        )  # fmt: skip


def _blocked_by(
    units: BaseArrays, terrain: TerrainIndex, blocking: Blocking, i: int, j: int
) -> tuple[str, ...]:
    start, end = (units.x[i], units.y[i]), (units.x[j], units.y[j])
    candidates = np.flatnonzero(_pair_mask(blocking, i, j, len(terrain)))
    size = len(candidates)
    lines = Lines(*(np.full(size, value) for value in (*start, *end)))
    hit = hits_among(terrain, lines, candidates)
    return order_along(terrain, start, end, candidates[hit])


@dataclass(frozen=True, eq=False)
class PairMatrix(PairArrays):
    """All-pairs geometry of N units against T terrain pieces (see the module docstring)."""

    within: np.ndarray | None = field(default=None, repr=False)  # (N, N): measured pairs

    def __len__(self) -> int:
        return len(self.units)

    def blocked_by(self, i: int, j: int) -> tuple[str, ...]:
        """Terrain blocking the line from unit i to unit j, in the order the line meets it
        (computed for this one pair)."""
        if self.los_clear[i, j]:
            return ()
        return _blocked_by(self.units, self.terrain, self.blocking, i, j)

    def witness(self, i: int, j: int, from_: From = "edge", to: To = "nearest") -> Measurement:
        """The measured segment between units i and j (computed for this one pair)."""
        u = self.units
        return measure(u.poses[i], u.bases[i], u.poses[j], u.bases[j], from_, to)

    def arcs_containing(self, i: int, j: int, test: ArcTest = "centre") -> tuple[str, ...]:
        """Names of i's arcs holding unit j, by centre or by any part of its base."""
        mask = self.in_arc_centre[i, j] if test == "centre" else self.in_arc_any[i, j]
        return tuple(arc.name for arc, inside in zip(self.arcs, mask, strict=True) if inside)

    def centre_arc(self, i: int, j: int) -> str:
        return QUADRANT_NAMES[self.centre_quadrant[i, j]]

    def unit_row(self, i: int) -> UnitRow:
        """Row i of the computed matrix (no recomputation)."""
        return UnitRow(
            self.units, self.terrain, self.arcs,
            self.centre_distance[i], self.edge_distance[i], self.bearing[i],
            self.centre_quadrant[i], self.in_arc_centre[i], self.in_arc_any[i],
            self.los_clear[i], self.blocking, index=i,
        )  # fmt: skip


# --------------------------------------------------------------------------- compute


def _row_geometry(
    units: BaseArrays, rows: slice, arcs: tuple[ArcSpec, ...]
) -> tuple[np.ndarray, ...]:
    """Rows `rows` of the matrix against every unit, all but line of sight: centre distance,
    compass angle (radians), bearing, edge distance and the two arc masks, with the
    diagonal's edge distance 0 and no arcs."""
    n = len(units)
    every = np.arange(n)
    count = len(range(*rows.indices(n)))
    centre_distance = np.empty((count, n))
    absolute = np.empty((count, n))
    bearing = np.empty((count, n))
    edge = np.empty((count, n))
    in_centre = np.empty((count, n, len(arcs)), dtype=bool)
    in_any = np.empty((count, n, len(arcs)), dtype=bool)
    # round and rectangular targets apart: each needs only its own half of the arc work
    round_target = units.point_core
    column_groups = [
        c for c in (np.flatnonzero(round_target), np.flatnonzero(~round_target)) if len(c)
    ]
    first = rows.start or 0
    for block in row_blocks(count, n):
        sources = every[block.start + first : block.stop + first]
        dx = units.x[None, :] - units.x[sources, None]
        dy = units.y[None, :] - units.y[sources, None]
        centre_distance[block] = np.sqrt(dx * dx + dy * dy)
        absolute[block] = np.arctan2(dx, dy)
        turned = wrap_bearings(np.degrees(absolute[block]) - units.heading[sources, None])
        bearing[block] = np.where((dx == 0.0) & (dy == 0.0), 0.0, turned)
        edge[block] = pair_edge_distances(units, sources[:, None], every[None, :])
        for columns in column_groups:
            masks = pair_arc_masks(
                units, sources[:, None], columns[None, :], arcs, bearing[block][:, columns]
            )
            in_centre[block, columns], in_any[block, columns] = masks
    local = np.arange(count)
    own = local + first
    in_centre[local, own] = False
    in_any[local, own] = False
    edge[local, own] = 0.0
    return centre_distance, absolute, bearing, edge, in_centre, in_any


def pair_matrix(
    units: BaseArrays,
    terrain: TerrainIndex,
    arcs: Sequence[ArcSpec] = QUADRANTS,
    blocking: Blocking = None,
    reach: float | None = None,
) -> PairMatrix:
    """Compute every pairwise answer for `units` on a table with `terrain` (vectorised).

    With `reach` (inches, e.g. the longest weapon range), only the pairs whose bases come
    within `reach` of each other are measured (`PairMatrix.within`), found through a
    spatial index (STRtree) so that the work grows with N x k, k the units in reach;
    their numbers are the full matrix's, bit for bit (see `_reach_matrix`)."""
    arcs = tuple(arcs)
    blocking = _check_blocking(blocking, units, terrain)
    if reach is not None:
        return _reach_matrix(units, terrain, arcs, blocking, float(reach))
    n = len(units)
    every = np.arange(n)
    centre_distance, absolute, bearing, edge, in_centre, in_any = _row_geometry(
        units, slice(0, n), arcs
    )
    symmetric = not isinstance(blocking, LevelBlocking) or blocking.symmetric
    if symmetric:  # line of sight is symmetric: test each line once
        pair_i, pair_j = np.triu_indices(n, 1)
    else:
        pair_i, pair_j = np.nonzero(~np.eye(n, dtype=bool))
    blocked = _los_blocked(
        units, terrain, pair_i, pair_j, pair_i, _Cones.of(units, terrain, every),
        absolute[pair_i, pair_j], centre_distance[pair_i, pair_j], blocking,
    )  # fmt: skip
    los_clear = np.ones((n, n), dtype=bool)
    los_clear[pair_i[blocked], pair_j[blocked]] = False
    if symmetric:
        los_clear &= los_clear.T
    return PairMatrix(
        units, terrain, arcs, centre_distance, edge, bearing, quadrant_index(bearing),
        in_centre, in_any, los_clear, blocking,
    )  # fmt: skip


def _reach_matrix(
    units: BaseArrays,
    terrain: TerrainIndex,
    arcs: tuple[ArcSpec, ...],
    blocking: Blocking,
    reach: float,
) -> PairMatrix:
    """`pair_matrix` of the pairs within `reach`: the pairs whose centres lie within reach
    plus both bases' bounding radii (so every pair of bases within reach edge to edge,
    and no pair beyond it plus the radii), through an STRtree of the centres. The same
    element-wise operations as the full matrix, on those pairs only (targets split by
    base kind for the arcs as there); the other pairs hold an infinite distance, a NaN
    bearing, no arcs and no line of sight, and `within` False."""
    if not reach >= 0.0:
        raise UserError(f"a matrix reach must be a distance >= 0 inches, got {reach}")
    n = len(units)
    bound = np.hypot(units.half_width, units.half_length) + units.radius
    centres = shapely.points(units.x, units.y)
    widest = reach + 2.0 * float(bound.max(initial=0.0))
    i, j = STRtree(centres).query(centres, predicate="dwithin", distance=widest)
    dx, dy = units.x[j] - units.x[i], units.y[j] - units.y[i]
    distance = np.sqrt(dx * dx + dy * dy)
    keep = (distance <= reach + bound[i] + bound[j]) & (i != j)
    i, j, dx, dy, distance = i[keep], j[keep], dx[keep], dy[keep], distance[keep]
    absolute = np.arctan2(dx, dy)
    turned = wrap_bearings(np.degrees(absolute) - units.heading[i])
    bearing = np.where((dx == 0.0) & (dy == 0.0), 0.0, turned)
    edge = pair_edge_distances(units, i, j)
    in_centre = np.zeros((len(i), len(arcs)), dtype=bool)
    in_any = np.zeros((len(i), len(arcs)), dtype=bool)
    round_target = (units.half_width == 0.0) & (units.half_length == 0.0)
    for group in (round_target[j], ~round_target[j]):
        chosen = np.flatnonzero(group)
        if len(chosen):
            in_centre[chosen], in_any[chosen] = pair_arc_masks(
                units, i[chosen], j[chosen], arcs, bearing[chosen]
            )
    symmetric = not isinstance(blocking, LevelBlocking) or blocking.symmetric
    lines = np.flatnonzero(i < j) if symmetric else np.arange(len(i))
    blocked = _los_blocked(
        units, terrain, i[lines], j[lines], i[lines], _Cones.of(units, terrain, np.arange(n)),
        absolute[lines], distance[lines], blocking,
    )  # fmt: skip
    within = np.eye(n, dtype=bool)
    within[i, j] = True
    full_distance = np.full((n, n), np.inf)
    np.fill_diagonal(full_distance, 0.0)
    full_distance[i, j] = distance
    full_edge = full_distance.copy()
    full_edge[i, j] = edge
    full_bearing = np.full((n, n), np.nan)
    np.fill_diagonal(full_bearing, 0.0)
    full_bearing[i, j] = bearing
    quadrant = np.zeros((n, n), dtype=np.int8)
    quadrant[i, j] = quadrant_index(bearing)
    centre_masks = np.zeros((n, n, len(arcs)), dtype=bool)
    any_masks = np.zeros((n, n, len(arcs)), dtype=bool)
    centre_masks[i, j], any_masks[i, j] = in_centre, in_any
    los_clear = np.eye(n, dtype=bool)
    los_clear[i, j] = True
    los_clear[i[lines[blocked]], j[lines[blocked]]] = False
    if symmetric:
        los_clear &= los_clear.T
    return PairMatrix(
        units, terrain, arcs, full_distance, full_edge, full_bearing, quadrant,
        centre_masks, any_masks, los_clear, blocking, within,
    )  # fmt: skip


def unit_row(
    units: BaseArrays,
    i: int,
    terrain: TerrainIndex,
    arcs: Sequence[ArcSpec] = QUADRANTS,
    blocking: Blocking = None,
) -> UnitRow:
    """Unit i against every unit, computed afresh (for a unit being moved or hovered)."""
    n = len(units)
    if not 0 <= i < n:
        raise UserError(f"unit index {i} is not one of the {n} units")
    arcs = tuple(arcs)
    blocking = _check_blocking(blocking, units, terrain)
    dx, dy = units.x - units.x[i, ...], units.y - units.y[i, ...]
    distance2 = dx * dx + dy * dy
    centre_distance = np.sqrt(distance2)
    absolute = np.arctan2(dx, dy)
    bearing = wrap_bearings(np.degrees(absolute) - units.heading[i, ...])
    bearing[(dx == _ZERO) & (dy == _ZERO)] = 0.0
    in_centre, in_any = pair_arc_masks(
        units, i, slice(None), arcs, bearing, (dx, dy, distance2, centre_distance)
    )
    in_centre[i] = False
    in_any[i] = False
    edge = unit_edge_distances(units, i)
    # every unit as a target: the unit itself is a zero-length line, never a candidate
    los_clear = ~_row_los_blocked(units, terrain, i, absolute, centre_distance, blocking)
    return UnitRow(
        units, terrain, arcs, centre_distance, edge, bearing, quadrant_index(bearing),
        in_centre, in_any, los_clear, blocking, index=i,
    )  # fmt: skip
