"""A table measured the way its rule system measures: the numbers `tactical check` prints and
the play screen shows on hover (docs/architecture.md; GEO items of every system).

`TableGeometry.of(state)` indexes the terrain and the units once; `pair(a, b)` gives
one `PairReport`, `all_pairs()` every ordered pair through the vectorised matrix,
and `row(a)` one unit against all others (fast enough for every frame).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import pairwise
from typing import overload

import numpy as np

from tactical.errors import UserError
from tactical.geometry.arcs import QUADRANT_NAMES, ArcMargin
from tactical.geometry.arcs_spec import ArcSpec
from tactical.geometry.compiled_kernels import available, worth_compiling
from tactical.geometry.crossings import order_crossings
from tactical.geometry.los import TerrainIndex, los_hits
from tactical.geometry.margins import arc_margins, centre_angles, margin_unit
from tactical.geometry.matrix import LevelBlocking, PairMatrix, UnitRow, pair_matrix, unit_row
from tactical.geometry.matrix_blocks import RowBlock, matrix_row_blocks, matrix_rows
from tactical.geometry.measure import BaseArrays, Measurement, measure, pair_edge_distances
from tactical.model import CircleBase, GameState, Terrain, Unit
from tactical.rules import registry
from tactical.rules.base import ModelBlocking, RuleSystem

# the range-band probe lives with the conventions (the protocol asks it too); named here as
# the front ends found it
from tactical.rules.conventions import PROBE_STEP as PROBE_STEP
from tactical.rules.conventions import band_limits as band_limits
from tactical.rules.report_json import Columns, RowLists, entry_tables, text_of, texts
from tactical.rules.report_json import table as json_table

# pairs reported at once by `report_blocks`: a block's text runs to tens of megabytes, and
# twice as many pairs a block cost more memory and were no faster
BLOCK_PAIRS = 1 << 15


@dataclass(frozen=True)
class PairReport:
    """Everything between one unit and a target, under the rule system's conventions.

    `distance`/`witness` are measured as the system measures range (from centre or
    base edge, to centre or nearest point); `edge_witness` is the edge-to-edge
    segment; `arcs` are the firer's arcs holding the target under the system's arc
    test; `arc_margins` give, for each of the firer's arcs, how far inside (+) or
    outside (-) the target's centre lies, in degrees (inches for a fixed channel).
    """

    source: str
    target: str
    centre_distance: float
    edge_distance: float
    bearing: float
    centre_arc: str
    arcs: tuple[str, ...]
    los: bool
    blocked_by: tuple[str, ...]
    range_band: str | None
    distance: float
    arc_margins: tuple[tuple[str, ArcMargin], ...]
    witness: Measurement | None = None
    edge_witness: Measurement | None = None
    # the models whose bases block the line (R002.41), by id and by the name a player
    # reads, in order along it; `blocked_by` holds the terrain
    blocking_models: tuple[str, ...] = ()
    blocking_model_names: tuple[str, ...] = ()

    def as_json(self) -> dict:
        """The docs/architecture.md keys of `tactical check --json` (fixed), then extra detail."""
        return {
            "from": self.source,
            "to": self.target,
            "centre_distance": _round(self.centre_distance),
            "edge_distance": _round(self.edge_distance),
            "bearing": _round(self.bearing),
            "centre_arc": self.centre_arc,
            "arcs": list(self.arcs),
            "los": self.los,
            "blocked_by": list(self.blocked_by),
            "blocked_by_models": [
                {"name": name, "id": unit_id}
                for unit_id, name in zip(
                    self.blocking_models, self.blocking_model_names, strict=True
                )
            ],
            "range_band": self.range_band,
            "range_distance": _round(self.distance),
            "arc_margins": {
                name: {"value": None if math.isinf(m.value) else _round(m.value), "unit": m.unit}
                for name, m in self.arc_margins
            },
        } | {
            key: [list(map(_round, w.start)), list(map(_round, w.end))]
            for key, w in (("range_witness", self.witness), ("edge_witness", self.edge_witness))
            if w is not None
        }


def blocker_words(report: PairReport, terrain_names: Mapping[str, str]) -> str:
    """What blocks a line of sight as a player reads it: the terrain by its names, then the
    models in the way by theirs (R002.41), e.g. "Fog bank and the model Tribal Class
    Cruiser 1"."""
    parts = [terrain_names.get(piece, piece) for piece in report.blocked_by]
    text = ", ".join(parts)
    models = report.blocking_model_names
    if models:
        named = ("the model " if len(models) == 1 else "the models ") + ", ".join(models)
        text = f"{text} and {named}" if text else named
    return text


@dataclass(frozen=True, eq=False)
class PairReports(Sequence[PairReport]):
    """Many pairs' reports as columns, one array per field (indexing gives a `PairReport`,
    made on demand): pair k is sources[k] -> targets[k] (unit indices); `bands` indexes
    `band_names`; `blocker_lists` holds the pieces in each line's way in order along it,
    and `model_lists` the units whose bases block it (R002.41) likewise (`blockers` and
    `models` the same as (P, K) matrices, -1 after the last); `own` and `margins` are
    (P, A) over the table's arcs."""

    geometry: TableGeometry
    sources: np.ndarray
    targets: np.ndarray
    centre_distance: np.ndarray
    edge_distance: np.ndarray
    bearing: np.ndarray
    centre_quadrant: np.ndarray
    in_arc: np.ndarray
    los: np.ndarray
    blocker_lists: RowLists
    band_names: tuple[str | None, ...]
    bands: np.ndarray
    distance: np.ndarray
    own: np.ndarray
    margins: np.ndarray
    witnesses: tuple[tuple[Measurement, Measurement], ...] | None = None
    model_lists: RowLists | None = None
    # written by the compiled kernels (`compiled_kernels.worth_compiling`: a big stream's)
    use_kernel: bool = False

    @cached_property
    def blockers(self) -> np.ndarray:
        """(P, K): the pieces in each line's way, in order along it, -1 after the last."""
        return self.blocker_lists.matrix()

    @cached_property
    def models(self) -> np.ndarray | None:
        """(P, K'): the units whose bases block each line (R002.41), -1 after the last; None
        where the rule system's models block no sight."""
        return None if self.model_lists is None else self.model_lists.matrix()

    def __len__(self) -> int:
        return len(self.sources)

    @overload
    def __getitem__(self, k: int) -> PairReport: ...
    @overload
    def __getitem__(self, k: slice) -> list[PairReport]: ...
    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[m] for m in range(*k.indices(len(self)))]
        if not -len(self) <= k < len(self):
            raise IndexError(f"report {k} of {len(self)}")
        k %= len(self)
        g = self.geometry
        a, b = int(self.sources[k]), int(self.targets[k])
        margins = tuple(
            (arc.name, ArcMargin(float(value), margin_unit(arc)))  # type: ignore[arg-type]
            for arc, value, own in zip(g.arcs, self.margins[k], self.own[k], strict=True)
            if own
        )
        witness = self.witnesses[k] if self.witnesses is not None else (None, None)
        models = () if self.models is None else [m for m in self.models[k].tolist() if m >= 0]
        model_ids = tuple(g.state.units[m].id for m in models)
        return PairReport(
            source=g.state.units[a].id,
            target=g.state.units[b].id,
            centre_distance=float(self.centre_distance[k]),
            edge_distance=float(self.edge_distance[k]),
            bearing=float(self.bearing[k]),
            centre_arc=QUADRANT_NAMES[self.centre_quadrant[k]],
            arcs=tuple(
                arc.name for arc, inside in zip(g.arcs, self.in_arc[k], strict=True) if inside
            ),
            los=bool(self.los[k]),
            blocked_by=tuple(g.terrain.ids[t] for t in self.blockers[k].tolist() if t >= 0),
            range_band=self.band_names[self.bands[k]],
            distance=float(self.distance[k]),
            arc_margins=margins,
            witness=witness[0],
            edge_witness=witness[1],
            blocking_models=model_ids,
            blocking_model_names=tuple(g.state.shown_names.get(m, m) for m in model_ids),
        )

    def json_text(self, first: bool = True) -> bytes | bytearray:
        """The reports as `json.dumps` writes them in the `tactical check --json` list, joined
        by ", " (and led by ", " unless `first`): the same text as `[r.as_json() ...]`
        through json.dumps, from the columns at once (tactical.rules.report_json)."""
        if len(self) == 0:
            return b""
        if self.witnesses is not None:  # measured pair by pair anyway: the plain way
            text = ", ".join(text_of(report.as_json()) for report in self)
            return (text if first else ", " + text).encode()
        g = self.geometry
        ids = g.id_table
        rows = Columns(len(self))
        rows.constant(', {"from": ')
        rows.pick(ids, self.sources)
        rows.constant(', "to": ')
        rows.pick(ids, self.targets)
        rows.constant(', "centre_distance": ')
        rows.number(self.centre_distance)
        rows.constant(', "edge_distance": ')
        rows.number(self.edge_distance)
        rows.constant(', "bearing": ')
        rows.number(self.bearing)
        rows.constant(', "centre_arc": ')
        rows.pick(json_table([text_of(q) for q in QUADRANT_NAMES]), self.centre_quadrant)
        rows.constant(', "arcs": ')
        # each row's arcs as a number (arc a is bit a), then one text per number present
        weights = 1 << np.arange(len(g.arcs), dtype=np.int64)
        held, arc_codes = np.unique(self.in_arc.astype(np.int64) @ weights, return_inverse=True)
        arc_lists = [
            [arc.name for arc, w in zip(g.arcs, weights.tolist(), strict=True) if h & w]
            for h in held.tolist()
        ]
        rows.pick(json_table([text_of(names) for names in arc_lists]), arc_codes.reshape(-1))
        rows.constant(', "los": ')
        rows.pick(json_table(["false", "true"]), self.los.astype(np.intp))
        rows.constant(', "blocked_by": ')
        rows.constant("[")
        rows.lists(*g.piece_table, self.blocker_lists)
        rows.constant("]")
        rows.constant(', "blocked_by_models": [')
        if self.model_lists is not None:
            rows.lists(*g.model_table, self.model_lists)
        rows.constant("]")
        rows.constant(', "range_band": ')
        rows.pick(json_table([text_of(name) for name in self.band_names]), self.bands)
        rows.constant(', "range_distance": ')
        rows.number(self.distance)
        rows.constant(', "arc_margins": {')
        before = np.cumsum(self.own, axis=1) - self.own  # own arcs before each arc
        for k, arc in enumerate(g.arcs):
            own = self.own[:, k]
            lead = f'{text_of(arc.name)}: {{"value": '
            rows.pick(json_table(["", lead, ", " + lead]), np.where(own, 1 + (before[:, k] > 0), 0))
            rows.number_or_null(self.margins[:, k], own)
            tail = f', "unit": {text_of(margin_unit(arc))}}}'
            rows.pick(json_table(["", tail]), own.astype(np.intp))
        rows.constant("}}")
        text = texts(rows, lambda k: ", " + text_of(self[k].as_json()), self.use_kernel)
        if first:
            del text[:2]  # in place: the block's text is large
        return text


def _round(value: float) -> float:
    # 1e-6" is far below any table's precision and keeps the JSON stable across platforms
    rounded = round(float(value), 6)
    return 0.0 if rounded == 0 else rounded


def _terrain_index(terrain: tuple[Terrain, ...]) -> TerrainIndex:
    """The table's terrain indexed (immutable), kept for the very tuple of pieces (beside its
    id): a game's terrain never changes, and the players measure many tables a turn."""
    found = _TERRAIN_INDEXES.get(id(terrain))
    if found is None or found[0] is not terrain:
        index = TerrainIndex.build([t.id for t in terrain], [t.geometry for t in terrain])
        _TERRAIN_INDEXES.clear()  # one table at a time
        found = _TERRAIN_INDEXES[id(terrain)] = (terrain, index)
    return found[1]


_TERRAIN_INDEXES: dict[int, tuple[tuple[Terrain, ...], TerrainIndex]] = {}


@dataclass(frozen=True, eq=False)
class TableGeometry:
    """One state's units and terrain, indexed for the rule system's questions.

    Where the rule system's models block line of sight (`RuleSystem.model_blocking`, e.g.
    R002.41) `terrain` indexes, after the table's pieces, the bases of the models that may
    block: `model_units[k]` is the unit whose base is piece `len(state.terrain) + k`."""

    state: GameState
    system: RuleSystem
    units: BaseArrays
    terrain: TerrainIndex
    arcs: tuple[ArcSpec, ...]
    unit_arc_names: tuple[frozenset[str], ...]
    blocking: LevelBlocking
    model_units: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.intp))

    @classmethod
    def of(cls, state: GameState, system: RuleSystem | None = None) -> TableGeometry:
        system = system or registry.get(state.rules)
        units = BaseArrays.build([u.pose for u in state.units], [u.base for u in state.units])
        terrain = _terrain_index(state.terrain)
        arcs: dict[str, ArcSpec] = {}
        names = []
        for unit in state.units:
            own = system.unit_arcs(unit)
            names.append(frozenset(a.name for a in own))
            for arc in own:
                arcs.setdefault(arc.name, arc)
        blocking = _level_blocking(system, state)
        models = system.model_blocking(state)
        if models is None:
            return cls(state, system, units, terrain, tuple(arcs.values()), tuple(names), blocking)
        blockers = np.asarray(models.blockers, dtype=np.intp)
        terrain = terrain.with_convex(
            [state.units[k].id for k in blockers.tolist()],
            [state.units[k].footprint for k in blockers.tolist()],
        )
        return cls(
            state,
            system,
            units,
            terrain,
            tuple(arcs.values()),
            tuple(names),
            _with_models(blocking, models),
            blockers,
        )

    @property
    def pieces(self) -> int:
        """How many of `terrain`'s pieces are the table's (the rest are models' bases)."""
        return len(self.terrain) - len(self.model_units)

    # ------------------------------------------------------------------ lookups

    def index(self, unit_id: str) -> int:
        for k, unit in enumerate(self.state.units):
            if unit.id == unit_id:
                return k
        known = ", ".join(u.id for u in self.state.units) or "none"
        raise UserError(f"unknown unit {unit_id!r}: the units on this table are {known}")

    @cached_property
    def matrix(self) -> PairMatrix:
        return pair_matrix(self.units, self.terrain, self.arcs, self.blocking)

    @cached_property
    def longest_range(self) -> float | None:
        """The farthest any unit's range table reaches (inches; `RuleSystem.range_table`), or
        None when a unit's system bands its distances otherwise."""
        options = self.state.options
        tables = [self.system.range_table(unit, options) for unit in self.state.units]
        if any(table is None for table in tables):
            return None
        return max((table.max_range for table in tables), default=0.0)

    @cached_property
    def matrix_in_range(self) -> PairMatrix:
        """The matrix of the pairs within `longest_range` of each other (`pair_matrix` with
        a reach: the rest skipped through a spatial index); the full matrix when the
        system has no range tables."""
        reach = self.longest_range
        if reach is None:
            return self.matrix
        return pair_matrix(self.units, self.terrain, self.arcs, self.blocking, reach=reach)

    def row(self, unit_id: str) -> UnitRow:
        """One unit against all others, computed afresh (for the hovered or moved unit)."""
        return unit_row(self.units, self.index(unit_id), self.terrain, self.arcs, self.blocking)

    # ------------------------------------------------------------------ reports

    def pair(self, source_id: str, target_id: str) -> PairReport:
        """The report for one ordered pair, with its witness segments."""
        i, j = self.index(source_id), self.index(target_id)
        if i == j:
            raise UserError(f"unit {source_id!r} cannot be checked against itself")
        return self.reports(self.row(source_id), [i], [j], witness=True)[0]

    def all_pairs(
        self, source_id: str | None = None, target_id: str | None = None, witness: bool = False
    ) -> Sequence[PairReport]:
        """Reports for every ordered pair, or those from / to the named units.

        Witness segments are measured only when asked for (one scalar measurement
        per pair; everything else comes from the vectorised matrix)."""
        sources, targets = self._pairs(source_id, target_id)
        if len(sources) == 0:
            return []
        source = self.row(source_id) if source_id else self.matrix
        return self.reports(source, sources, targets, witness)

    def report_blocks(
        self,
        source_id: str | None = None,
        target_id: str | None = None,
        witness: bool = False,
        pairs_per_block: int = BLOCK_PAIRS,
    ) -> Iterator[PairReports]:
        """`all_pairs` in the same order, a block of firers at a time, each block from its
        own rows of the matrix (`matrix_rows`): memory grows with the block, not with the
        table, so a caller can stream any table (`tactical check --json`)."""
        if source_id:
            sources, targets = self._pairs(source_id, target_id)
            if len(sources):
                yield self.reports(self.row(source_id), sources, targets, witness)
            return
        n = len(self.state.units)
        per_block = max(1, pairs_per_block // max(n, 1))
        # the compiled kernels where the whole stream repays loading them (a big table)
        use_kernel = not witness and not target_id and worth_compiling(n * n)
        if target_id:  # the lines to one target only: each block of firers by itself
            aimed = np.array([self.index(target_id)], dtype=np.intp)
            blocks = (
                matrix_rows(self.units, rows, self.terrain, arcs=self.arcs, blocking=self.blocking)
                for rows in (range(k, min(n, k + per_block)) for k in range(0, n, per_block))
            )
        else:  # every line tested once, its crossings kept for both its units' blocks
            aimed = np.arange(n, dtype=np.intp)
            blocks = matrix_row_blocks(
                self.units, self.terrain, self.arcs, self.blocking, rows_per_block=per_block,
                use_kernel=use_kernel,
            )  # fmt: skip
        # each block's pairs made with the block: the table's N² pairs are never held at once
        for block in blocks:
            rows = block.rows
            sources = np.repeat(np.arange(rows.start, rows.stop, dtype=np.intp), len(aimed))
            targets = np.tile(aimed, len(rows))
            keep = sources != targets
            if keep.any():
                yield self.reports(block, sources[keep], targets[keep], witness, use_kernel)

    def _pairs(self, source_id: str | None, target_id: str | None) -> tuple[np.ndarray, ...]:
        """The ordered pairs `all_pairs` reports, firer by firer: two index arrays."""
        n = len(self.state.units)
        i_all = np.array([self.index(source_id)] if source_id else range(n), dtype=np.intp)
        j_all = np.array([self.index(target_id)] if target_id else range(n), dtype=np.intp)
        if source_id and target_id and i_all[0] == j_all[0]:
            raise UserError(f"unit {source_id!r} cannot be checked against itself")
        sources = np.repeat(i_all, len(j_all))
        targets = np.tile(j_all, len(i_all))
        keep = sources != targets
        return sources[keep], targets[keep]

    def reports(
        self,
        source: PairMatrix | UnitRow | RowBlock,
        sources: Sequence[int] | np.ndarray,
        targets: Sequence[int] | np.ndarray,
        witness: bool = False,
        use_kernel: bool = False,
    ) -> PairReports:
        """Reports for the pairs (sources[k], targets[k]) from a matrix, a block of its rows or
        one unit's row, as columns (`PairReports`): range bands by table lookup, arc margins
        and the order of blockers vectorised; witness segments measured pair by pair.
        `use_kernel`: blockers ordered and text written by the compiled kernels (a big
        stream's blocks: `report_blocks`), the same reports."""
        i = np.asarray(sources, dtype=np.intp)
        j = np.asarray(targets, dtype=np.intp)
        if isinstance(source, PairMatrix):
            index: tuple = (i, j)
        elif isinstance(source, RowBlock):
            index = (i - source.first, j)
        else:
            index = (j,)
        conventions = self.system.conventions
        in_arc = source.in_arc_centre if conventions.arc_test == "centre" else source.in_arc_any
        own = self.own_arcs[i]
        clear = source.los_clear[index]
        if isinstance(source, RowBlock):  # the block kept every blocking piece: pick ours
            hits = _hits_of(source, i, j, len(self.units))
            line, piece = self.ordered_hits(i, j, hits, use_kernel)
        else:
            blocked = np.flatnonzero(~clear)
            line, piece = self.ordered_hits(i[blocked], j[blocked])
            line = blocked[line]  # each report's own row (still in order)
        models = None
        if len(self.model_units):  # models' bases in the way: apart from the terrain
            blockers, models = _split_lists(
                line, piece, self.pieces, self.model_units, len(i), use_kernel
            )
        else:
            blockers = RowLists(np.bincount(line, minlength=len(i)), piece)
        distance = self.range_distances(i, j)
        band_names, bands = self.range_bands(i, distance)
        margins = np.full((len(i), len(self.arcs)), math.inf)
        angles = None  # each pair's angle once, for all its arcs
        if own.any():
            angles = np.zeros(len(i))
            some = np.flatnonzero(own.any(axis=1))
            angles[some] = centre_angles(self.units, i[some], j[some])
        for k, arc in enumerate(self.arcs):
            held = np.flatnonzero(own[:, k])
            if len(held):
                margins[held, k] = arc_margins(self.units, i[held], j[held], arc, angles[held])
        witnesses = None
        if witness:
            witnesses = tuple(
                (
                    self.witness(a, b, conventions.distance_from, conventions.distance_to),
                    self.witness(a, b, "edge", "nearest"),
                )
                for a, b in zip(i.tolist(), j.tolist(), strict=True)
            )
        return PairReports(
            self, i, j, source.centre_distance[index], source.edge_distance[index],
            source.bearing[index], source.centre_quadrant[index], in_arc[index] & own, clear,
            blockers, band_names, bands, distance, own, margins, witnesses, models, use_kernel,
        )  # fmt: skip

    @cached_property
    def id_table(self) -> np.ndarray:
        """Every unit's id as JSON text, a `report_json.table` (rows in unit order)."""
        return json_table([text_of(unit.id) for unit in self.state.units])

    @cached_property
    def model_table(self) -> tuple[np.ndarray, np.ndarray]:
        """Every unit as a blocking model in JSON text (its name, then its id), after an
        empty row, bare and after ", " (rows in unit order; `entry_tables`)."""
        names = self.state.shown_names
        texts = [
            text_of({"name": names.get(unit.id, unit.id), "id": unit.id})
            for unit in self.state.units
        ]
        return entry_tables(texts)

    @cached_property
    def piece_table(self) -> tuple[np.ndarray, np.ndarray]:
        """Every piece's id as JSON text, after an empty row, bare and after ", "
        (`entry_tables`)."""
        return entry_tables([text_of(name) for name in self.terrain.ids])

    @cached_property
    def own_arcs(self) -> np.ndarray:
        """(N, A): whether unit n has arc a of `arcs` (the arcs its weapons name)."""
        return np.array(
            [[arc.name in names for arc in self.arcs] for names in self.unit_arc_names],
            dtype=bool,
        ).reshape(len(self.unit_arc_names), len(self.arcs))

    def range_bands(
        self, i: np.ndarray, distance: np.ndarray
    ) -> tuple[tuple[str | None, ...], np.ndarray]:
        """The range band of each pair (i[k] firing, range distance[k]) as indices into a
        tuple of names: all of a firer's distances at once where the system can
        (`RuleSystem.range_band_indices`: a table's searchsorted, or the system's own
        vectorised banding), else `range_band` pair by pair."""
        units, options = self.state.units, self.state.options
        names: dict[str | None, int] = {}
        codes = np.empty(len(i), dtype=np.intp)
        order = np.argsort(i, kind="stable")
        firers, starts = np.unique(i[order], return_index=True)
        bounds = [*starts.tolist(), len(i)]
        for firer, (begin, end) in zip(firers.tolist(), pairwise(bounds), strict=True):
            rows = order[begin:end]
            unit = units[firer]
            found = self.system.range_band_indices(unit, distance[rows], options)
            if found is not None:
                band_names, indices = found
                lookup = np.array([names.setdefault(n, len(names)) for n in band_names])
                codes[rows] = lookup[indices]
                continue
            for row, value in zip(rows.tolist(), distance[rows].tolist(), strict=True):
                band = self.system.range_band(unit, value, options)
                codes[row] = names.setdefault(band, len(names))
        return tuple(names), codes

    def witness(self, i: int, j: int, from_: str, to: str) -> Measurement:
        a, b = self.state.units[i], self.state.units[j]
        return measure(a.pose, a.base, b.pose, b.base, from_, to)  # type: ignore[arg-type]

    def range_distances(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """Range as the rule system measures it (from centre or edge, to centre or nearest
        point), for the pairs (i[k], j[k]), vectorised."""
        return pair_edge_distances(self._range_ends, i, j + len(self.state.units))

    @cached_property
    def _range_ends(self) -> BaseArrays:
        """Every unit as a firer (rows 0..N-1) and as a target (N..2N-1), each a point or its
        base as the conventions measure range."""
        conventions = self.system.conventions
        units = self.units
        n = len(units)
        point, zero = CircleBase(0.0), np.zeros(n)

        def ends(centre: bool) -> tuple[list, tuple[np.ndarray, ...]]:
            if centre:
                return [point] * n, (zero, zero, zero)
            return list(units.bases), (units.half_width, units.half_length, units.radius)

        firers, firer_core = ends(conventions.distance_from == "centre")
        targets, target_core = ends(conventions.distance_to == "centre")
        # `BaseArrays.build` of the poses twice with those ends, from the units' own rows (the
        # same numbers: a pose's row is its own, a point's core and radius are zero)
        own = (units.x, units.y, units.heading, units.sin, units.cos)
        columns = [np.concatenate((column, column)) for column in own]
        columns += [np.concatenate(pair) for pair in zip(firer_core, target_core, strict=True)]
        return BaseArrays(units.poses + units.poses, tuple(firers + targets), *columns)

    def blocked_by(self, i: np.ndarray, j: np.ndarray) -> dict[tuple[int, int], tuple[str, ...]]:
        """The terrain blocking each line i[k] -> j[k] (centre to centre), in order along it
        (a line blocked by models' bases alone is left out: `reports` names them)."""
        i, j = np.asarray(i, dtype=np.intp), np.asarray(j, dtype=np.intp)
        ids, pieces = self.terrain.ids, self.pieces
        found = {}
        for a, b, row in zip(
            i.tolist(), j.tolist(), self.blocker_slots(i, j).tolist(), strict=True
        ):
            terrain = tuple(ids[t] for t in row if 0 <= t < pieces)
            if terrain:
                found[(a, b)] = terrain
        return found

    def blocker_slots(
        self, i: np.ndarray, j: np.ndarray, hits: tuple[np.ndarray, ...] | None = None
    ) -> np.ndarray:
        """(M, K): the pieces blocking each line i[k] -> j[k], in the order the line meets
        them, -1 after the last (K the most pieces on one line, at least 1).

        `hits`: (line k, piece) pairs already known (a `RowBlock`'s), else found here
        (GEO002.10; the order: `ordered_hits`)."""
        line, piece = self.ordered_hits(i, j, hits)
        return RowLists(np.bincount(line, minlength=len(i)), piece).matrix()

    def ordered_hits(
        self,
        i: np.ndarray,
        j: np.ndarray,
        hits: tuple[np.ndarray, ...] | None = None,
        use_kernel: bool = False,
    ) -> tuple[np.ndarray, np.ndarray]:
        """The (line k, piece) pairs of the pieces blocking each line i[k] -> j[k], sorted by
        line and along each line in the order it meets them (GEO002.10; `hits`: the
        (line k, piece) pairs already known, else found here; the order:
        `order_crossings`)."""
        if len(i) == 0:
            return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp)
        x, y = self.units.x, self.units.y
        if hits is None:
            starts = np.column_stack([x[i], y[i]])
            ends = np.column_stack([x[j], y[j]])
            hits = los_hits(self.terrain, starts, ends, self.blocking.lines(i, j))
        return order_crossings(self.terrain, x, y, i, j, *hits, use_kernel)


def _split_lists(
    line: np.ndarray,
    piece: np.ndarray,
    pieces: int,
    model_units: np.ndarray,
    rows: int,
    use_kernel: bool = False,
) -> tuple[RowLists, RowLists]:
    """The (line, piece) hits of `rows` lines, sorted by line, as two lists a line in the
    same order: the table's pieces (piece < `pieces`) and the models whose bases block
    it (R002.41; piece `pieces + k` is unit model_units[k]). `use_kernel`: in one
    compiled pass where it may run (`report_json_kernel.split_lists`), the same lists."""
    if use_kernel and available():
        from tactical.rules import report_json_kernel  # imports numba

        found = report_json_kernel.split_lists(
            np.asarray(line, dtype=np.intp), np.asarray(piece, dtype=np.intp), pieces,
            np.asarray(model_units, dtype=np.intp), rows,
        )  # fmt: skip
        return RowLists(*found[:2]), RowLists(*found[2:])
    base = piece >= pieces
    terrain = np.flatnonzero(~base)
    base = np.flatnonzero(base)  # index lists: numpy compresses by a mask far slower
    models = RowLists(
        np.bincount(line.take(base), minlength=rows), model_units.take(piece.take(base) - pieces)
    )
    line, piece = line.take(terrain), piece.take(terrain)
    return RowLists(np.bincount(line, minlength=rows), piece), models


def _hits_of(block: RowBlock, i: np.ndarray, j: np.ndarray, n: int) -> tuple[np.ndarray, ...]:
    """The block's (line, piece) hits of the lines i[k] -> j[k], as (k, piece) pairs (in
    the block's order): where the lines are every pair from the block's rows in order
    (`report_blocks`), k is counted from the hit's row and target; else each line's place
    is looked up in a (rows, N) table of the block."""
    rows = len(block.centre_distance)
    if len(i) == rows * (n - 1) and n > 1:
        local = np.arange(rows).repeat(n - 1)
        target = np.tile(np.arange(n - 1), rows)
        target += target >= local + block.first  # the row's own unit left out
        if np.array_equal(i, local + block.first) and np.array_equal(j, target):
            k = block.hit_row * (n - 1) + block.hit_target
            k -= block.hit_target > block.hit_row + block.first
            return k, block.hit_piece
    place = np.full(rows * n, -1, dtype=np.intp)
    place[(i - block.first) * n + j] = np.arange(len(i))
    found = place.take(block.hit_row * n + block.hit_target)
    kept = np.flatnonzero(found >= 0)
    return found.take(kept), block.hit_piece.take(kept)


def _with_models(terrain: LevelBlocking, models: ModelBlocking) -> LevelBlocking:
    """The terrain's level blocking and the models' (R002.41) as one over the table's pieces
    and then the blockers' bases: each unit's code a pair of its two codes, each base
    owned by its unit (a model never blocks its own line)."""
    model_levels = np.asarray(models.levels, dtype=np.int64)
    # the distinct (terrain, model) code pairs in lexicographic order, as `np.unique` of the
    # rows gives them: each pair one number (the model code below its stride), far cheaper
    stride = int(model_levels.max()) + 1 if len(model_levels) else 1
    pairs = terrain.levels * stride + model_levels
    if len(pairs) and pairs.min() >= 0 and pairs.max() < MAX_MARKED_CODES:
        # `np.unique`'s answer from a mark per code: far cheaper than its sort on a table
        marked = np.zeros(int(pairs.max()) + 1, dtype=bool)
        marked[pairs] = True
        found, codes = np.flatnonzero(marked), (np.cumsum(marked) - 1).take(pairs)
    else:
        found, codes = np.unique(pairs, return_inverse=True)
    on_terrain, on_models = found // stride, found % stride
    mask = np.concatenate(
        (
            terrain.mask[on_terrain[:, None], on_terrain[None, :]],
            np.asarray(models.mask, dtype=bool)[on_models[:, None], on_models[None, :]],
        ),
        axis=2,
    )
    owners = np.concatenate(
        (np.full(terrain.mask.shape[2], -1), np.asarray(models.blockers, dtype=np.int64))
    )
    return LevelBlocking(codes.reshape(-1), mask, owners)


MAX_MARKED_CODES = 1 << 16  # (terrain, model) codes `_with_models` marks rather than sorts


def _level_blocking(system: RuleSystem, state: GameState) -> LevelBlocking:
    """Which terrain blocks which pair, from the rule system's `blocks_los` (e.g. R002.40),
    asked once per pair of line-of-sight levels rather than once per pair of units."""
    levels: dict[str, Unit] = {}
    own = [system.los_level(unit) for unit in state.units]
    for level, unit in zip(own, state.units, strict=True):
        levels.setdefault(level, unit)
    names = list(levels) or [""]
    codes = np.array([names.index(level) for level in own], dtype=np.int64)
    return LevelBlocking(codes, _level_mask(system, state.terrain, names, levels))


def _level_mask(
    system: RuleSystem, terrain: tuple[Terrain, ...], names: list[str], levels: dict[str, Unit]
) -> np.ndarray:
    """`_level_blocking`'s (L, L, T) mask: `blocks_los` of each piece between the first
    units of each two levels. Kept by exactly what it asks (the rule system, the very
    tuple of pieces, the levels and their first units by value): the players measure many
    tables a turn whose first units stay the same."""
    key = (id(system), id(terrain), tuple(names), tuple(levels.values()))
    try:
        found = _LEVEL_MASKS.get(key)
    except TypeError:  # a unit that cannot be hashed: asked afresh
        key, found = None, None
    if found is not None and found[0] is system and found[1] is terrain:
        return found[2]
    mask = np.zeros((len(names), len(names), len(terrain)), dtype=bool)
    for a, name_a in enumerate(names):
        for b, name_b in enumerate(names):
            viewer, target = levels.get(name_a), levels.get(name_b)
            for t, piece in enumerate(terrain):
                mask[a, b, t] = system.blocks_los(piece, viewer, target)
    if key is not None:
        if len(_LEVEL_MASKS) >= MAX_LEVEL_MASKS:
            _LEVEL_MASKS.clear()
        mask.flags.writeable = False  # shared between tables
        _LEVEL_MASKS[key] = (system, terrain, mask)
    return mask


MAX_LEVEL_MASKS = 256  # level masks `_level_mask` keeps (a few tables' worth)
# by the rule system's and the pieces' ids with the other things asked, each kept alive
# beside its mask (an id is never reused while the object lives)
_LEVEL_MASKS: dict[tuple, tuple[RuleSystem, tuple[Terrain, ...], np.ndarray]] = {}
