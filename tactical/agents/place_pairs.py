"""What the position scorer (`tactical.agents.evaluation.Position`) reads of the pair matrix
(GEO002.10) between a unit's candidate places and its enemies: from the table's whole
matrix, or measured for those pairs alone where models block sight (R002.41) and each
unit's places have a table of their own."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from tactical.geometry.matrix_pairs import matrix_pairs
from tactical.rules.measuring import TableGeometry


@dataclass(frozen=True, eq=False)
class PairSight:
    """What `Position._measured_by_bands` reads of the pair matrix (GEO002.10) between a unit's
    places (rows r) and its enemies (columns s): from place to enemy the centre distance,
    the arcs holding (the rule system's arc test) and the line of sight, (R, S) and
    (R, S, A); from enemy to place the arcs and the sight."""

    out_distance: np.ndarray
    out_arc: np.ndarray
    out_clear: np.ndarray
    in_arc: np.ndarray
    in_clear: np.ndarray


def pair_sight(
    geometry: TableGeometry, rows: range, enemies: list[int], whole: bool, centre: bool
) -> PairSight:
    """`PairSight` read from the table's whole matrix (`whole`: one serves a side's units),
    else measured for those pairs alone (`matrix_pairs`: the same numbers, where every
    other model stays a blocker; no (N, N) arrays filled and read back)."""
    mine, theirs = _grid(rows, enemies)
    if whole:
        matrix = geometry.matrix
        in_arc = matrix.in_arc_centre if centre else matrix.in_arc_any
        return PairSight(
            matrix.centre_distance[mine, theirs],
            in_arc[mine, theirs],
            matrix.los_clear[mine, theirs],
            in_arc[theirs, mine],
            matrix.los_clear[theirs, mine],
        )
    i = np.concatenate((mine.ravel(), theirs.ravel()))
    j = np.concatenate((theirs.ravel(), mine.ravel()))
    found = matrix_pairs(geometry.units, geometry.terrain, i, j, geometry.arcs, geometry.blocking)
    shape, arcs = mine.shape, len(geometry.arcs)
    half = mine.size
    in_arc = found.in_arc_centre if centre else found.in_arc_any
    return PairSight(
        found.centre_distance[:half].reshape(shape),
        in_arc[:half].reshape(*shape, arcs),
        found.los_clear[:half].reshape(shape),
        in_arc[half:].reshape(*shape, arcs),
        found.los_clear[half:].reshape(shape),
    )


def _grid(rows: range, enemies: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """(R, S) index grids: each place's row, each enemy's column (`np.broadcast_arrays` of
    them, filled rather than broadcast: its Python set-up costs more than the pairs)."""
    mine = np.empty((len(rows), len(enemies)), dtype=np.intp)
    theirs = np.empty_like(mine)
    mine[...] = np.asarray(rows, dtype=np.intp)[:, None]
    theirs[...] = np.asarray(enemies, dtype=np.intp)
    return mine, theirs


@dataclass(frozen=True, eq=False)
class PartialMatrix:
    """The table's (N, N) matrix arrays holding only the pairs a unit's places are scored by
    (`partial_matrix`): the rest are never read."""

    centre_distance: np.ndarray
    in_arc_centre: np.ndarray
    in_arc_any: np.ndarray
    los_clear: np.ndarray


def partial_matrix(geometry: TableGeometry, rows: range, enemies: list[int]) -> PartialMatrix:
    """The pair matrix's answers (GEO002.10) between `rows` and `enemies` both ways, measured
    for those pairs alone (`matrix_pairs`: the same numbers as the whole matrix, where every
    other model stays a blocker)."""
    mine, theirs = _grid(rows, enemies)
    i = np.concatenate((mine.ravel(), theirs.ravel()))
    j = np.concatenate((theirs.ravel(), mine.ravel()))
    found = matrix_pairs(geometry.units, geometry.terrain, i, j, geometry.arcs, geometry.blocking)
    n, arcs = len(geometry.units), len(geometry.arcs)
    distance = np.zeros((n, n))
    centre = np.zeros((n, n, arcs), dtype=bool)
    any_part = np.zeros((n, n, arcs), dtype=bool)
    clear = np.zeros((n, n), dtype=bool)
    distance[i, j] = found.centre_distance
    centre[i, j] = found.in_arc_centre
    any_part[i, j] = found.in_arc_any
    clear[i, j] = found.los_clear
    return PartialMatrix(distance, centre, any_part, clear)


def named(names: Sequence[str], inside: np.ndarray) -> frozenset[str]:
    """The names of the table's arcs a row of the pair matrix marks as holding."""
    return frozenset(name for name, held in zip(names, inside.tolist(), strict=True) if held)
