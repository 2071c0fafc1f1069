"""Chosen pairs of the pair matrix, without the rest: centre distance, arc masks and line of
sight of the pairs (i[k], j[k]) only, bit for bit the numbers `pair_matrix` gives them.

Where a caller needs a few units against a few others on a big table (a computer player
scoring a unit's candidate places against its enemies, where models block sight so every
other model stays on the table as a blocker, R002.41) the full matrix would measure every
pair of the table. Each answer here is the matrix's: the same element-wise operations on
the same operands, the arc masks with round and rectangular targets apart, and each line
tested from the viewer the matrix tests it from (where sight is symmetric, from the pair's
lower index; GEO002.10).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from tactical.geometry.arcs import pair_arc_masks, wrap_bearings
from tactical.geometry.arcs_spec import QUADRANTS, ArcSpec
from tactical.geometry.los import TerrainIndex
from tactical.geometry.matrix import (
    Blocking,
    LevelBlocking,
    _check_blocking,
    _Cones,
    _los_blocked,
)
from tactical.geometry.measure import BaseArrays

__all__ = ["PairAnswers", "matrix_pairs"]


@dataclass(frozen=True, eq=False)
class PairAnswers:
    """The matrix's answers for the pairs (i[k], j[k]): arrays of length M ((M, A) for arcs)."""

    centre_distance: np.ndarray
    in_arc_centre: np.ndarray
    in_arc_any: np.ndarray
    los_clear: np.ndarray


def matrix_pairs(
    units: BaseArrays,
    terrain: TerrainIndex,
    i: np.ndarray,
    j: np.ndarray,
    arcs: Sequence[ArcSpec] = QUADRANTS,
    blocking: Blocking = None,
) -> PairAnswers:
    """`pair_matrix(units, terrain, arcs, blocking)`'s centre distance, arc masks and line
    of sight at the pairs (i[k], j[k]) (GEO002.10), computed for those pairs alone."""
    arcs = tuple(arcs)
    blocking = _check_blocking(blocking, units, terrain)
    i, j = np.asarray(i, dtype=np.intp), np.asarray(j, dtype=np.intp)
    dx, dy = units.x[j] - units.x[i], units.y[j] - units.y[i]
    distance = np.sqrt(dx * dx + dy * dy)
    absolute = np.arctan2(dx, dy)
    turned = wrap_bearings(np.degrees(absolute) - units.heading[i])
    bearing = np.where((dx == 0.0) & (dy == 0.0), 0.0, turned)
    in_centre = np.zeros((len(i), len(arcs)), dtype=bool)
    in_any = np.zeros((len(i), len(arcs)), dtype=bool)
    round_target = (units.half_width == 0.0) & (units.half_length == 0.0)
    for group in (round_target[j], ~round_target[j]):  # as the matrix's column groups
        chosen = np.flatnonzero(group & (i != j))
        if len(chosen):
            in_centre[chosen], in_any[chosen] = pair_arc_masks(
                units, i[chosen], j[chosen], arcs, bearing[chosen]
            )
    # each line from the viewer the matrix tests it from: both ways where sight may differ
    # (then its own), else once, from the lower index (its answer read both ways)
    symmetric = not isinstance(blocking, LevelBlocking) or blocking.symmetric
    lines = np.flatnonzero(i != j)
    viewer, seen = i[lines], j[lines]
    angle, length = absolute[lines], distance[lines]
    if symmetric:
        turn = np.flatnonzero(viewer > seen)
        viewer[turn], seen[turn] = seen[turn], viewer[turn]
        back_x = units.x[seen[turn]] - units.x[viewer[turn]]
        back_y = units.y[seen[turn]] - units.y[viewer[turn]]
        angle[turn] = np.arctan2(back_x, back_y)
        length[turn] = np.sqrt(back_x * back_x + back_y * back_y)
    # the distinct viewers in order and each line's among them (`np.unique`'s answer, from
    # a mark per unit: far cheaper than its sort on a small table)
    marked = np.zeros(len(units), dtype=bool)
    marked[viewer] = True
    viewers = np.flatnonzero(marked)
    row_of = (np.cumsum(marked) - 1).take(viewer)
    blocked = _los_blocked(
        units, terrain, viewer, seen, row_of, _Cones.of(units, terrain, viewers),
        angle, length, blocking,
    )  # fmt: skip
    los_clear = np.ones(len(i), dtype=bool)
    los_clear[lines[blocked]] = False
    return PairAnswers(distance, in_centre, in_any, los_clear)
