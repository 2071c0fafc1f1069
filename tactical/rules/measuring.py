"""A table measured the way its rule system measures: the numbers `tactical check` prints and
the play screen shows on hover (DESIGN.md "Rule systems", GEO items of every system).

`TableGeometry.of(state)` indexes the terrain and the units once; `pair(a, b)` gives
one `PairReport`, `all_pairs()` every ordered pair through the vectorised matrix,
and `row(a)` one unit against all others (fast enough for every frame).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import shapely

from tactical.errors import UserError
from tactical.geometry.arcs import QUADRANT_NAMES, ArcMargin, arc_margin
from tactical.geometry.arcs_spec import ArcSpec
from tactical.geometry.los import TerrainIndex, los_hits
from tactical.geometry.matrix import LevelBlocking, PairMatrix, UnitRow, pair_matrix, unit_row
from tactical.geometry.measure import BaseArrays, Measurement, measure, pair_edge_distances
from tactical.model import CircleBase, GameState, Unit
from tactical.rules import registry
from tactical.rules.base import RuleSystem

PROBE_STEP = 0.25  # inches between range-band probes; bands narrower than this could be missed
PROBE_PRECISION = 1e-4  # inches: band limits are found to this precision


def band_limits(
    system: RuleSystem, unit: Unit, options: Mapping[str, Any], limit: float
) -> tuple[tuple[str, float], ...]:
    """(band name, outer limit in inches) of each range band of `unit` closing within `limit`.

    Found by asking the rule system's own `range_band` along the distance axis
    (a scan then bisection), so map options and per-weapon ranges are honoured
    without a second copy of any rule's numbers.
    """
    limits: list[tuple[str, float]] = []
    previous = system.range_band(unit, 0.0, options)
    distance = 0.0
    while distance < limit:
        step_end = min(distance + PROBE_STEP, limit)
        band = system.range_band(unit, step_end, options)
        if band != previous:
            low, high = distance, step_end
            while high - low > PROBE_PRECISION:
                middle = (low + high) / 2
                if system.range_band(unit, middle, options) == previous:
                    low = middle
                else:
                    high = middle
            if previous is not None:
                limits.append((previous, round(low, 3)))
            previous = band
        distance = step_end
    return tuple(limits)


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

    def as_json(self) -> dict:
        """The DESIGN.md keys of `tactical check --json` (fixed), then extra detail."""
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


def _round(value: float) -> float:
    # 1e-6" is far below any table's precision and keeps the JSON stable across platforms
    rounded = round(float(value), 6)
    return 0.0 if rounded == 0 else rounded


@dataclass(frozen=True, eq=False)
class TableGeometry:
    """One state's units and terrain, indexed for the rule system's questions."""

    state: GameState
    system: RuleSystem
    units: BaseArrays
    terrain: TerrainIndex
    arcs: tuple[ArcSpec, ...]
    unit_arc_names: tuple[frozenset[str], ...]
    blocking: LevelBlocking

    @classmethod
    def of(cls, state: GameState, system: RuleSystem | None = None) -> TableGeometry:
        system = system or registry.get(state.rules)
        units = BaseArrays.build([u.pose for u in state.units], [u.base for u in state.units])
        terrain = TerrainIndex.build(
            [t.id for t in state.terrain], [t.geometry for t in state.terrain]
        )
        arcs: dict[str, ArcSpec] = {}
        names = []
        for unit in state.units:
            own = system.unit_arcs(unit)
            names.append(frozenset(a.name for a in own))
            for arc in own:
                arcs.setdefault(arc.name, arc)
        return cls(
            state,
            system,
            units,
            terrain,
            tuple(arcs.values()),
            tuple(names),
            _level_blocking(system, state),
        )

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
    ) -> list[PairReport]:
        """Reports for every ordered pair, or those from / to the named units.

        Witness segments are measured only when asked for (one scalar measurement
        per pair; everything else comes from the vectorised matrix)."""
        n = len(self.state.units)
        i_all = [self.index(source_id)] if source_id else list(range(n))
        j_all = [self.index(target_id)] if target_id else list(range(n))
        if source_id and target_id and i_all == j_all:
            raise UserError(f"unit {source_id!r} cannot be checked against itself")
        pairs = [(i, j) for i in i_all for j in j_all if i != j]
        if not pairs:
            return []
        source = self.row(source_id) if source_id else self.matrix
        sources, targets = (list(x) for x in zip(*pairs, strict=True))
        return self.reports(source, sources, targets, witness)

    def reports(
        self,
        source: PairMatrix | UnitRow,
        sources: list[int],
        targets: list[int],
        witness: bool = False,
    ) -> list[PairReport]:
        """Reports for the pairs (sources[k], targets[k]) from a matrix or from one unit's row."""
        i = np.asarray(sources)
        j = np.asarray(targets)
        row_index = (i,) if isinstance(source, PairMatrix) else ()

        def pick(array: np.ndarray) -> np.ndarray:
            return array[(*row_index, j)] if row_index else array[j]

        conventions = self.system.conventions
        centre = pick(source.centre_distance)
        edge = pick(source.edge_distance)
        bearing = pick(source.bearing)
        quadrant = pick(source.centre_quadrant)
        in_arc = pick(
            source.in_arc_centre if conventions.arc_test == "centre" else source.in_arc_any
        )
        clear = pick(source.los_clear)
        distance = self.range_distances(i, j)
        blocked = self.blocked_by(i[~clear], j[~clear])
        units, options = self.state.units, self.state.options
        reports = []
        for k, (a, b) in enumerate(zip(sources, targets, strict=True)):
            unit, target = units[a], units[b]
            own = self.unit_arc_names[a]
            reports.append(
                PairReport(
                    source=unit.id,
                    target=target.id,
                    centre_distance=float(centre[k]),
                    edge_distance=float(edge[k]),
                    bearing=float(bearing[k]),
                    centre_arc=QUADRANT_NAMES[quadrant[k]],
                    arcs=tuple(
                        arc.name
                        for arc, inside in zip(self.arcs, in_arc[k], strict=True)
                        if inside and arc.name in own
                    ),
                    los=bool(clear[k]),
                    blocked_by=blocked.get((a, b), ()),
                    range_band=self.system.range_band(unit, float(distance[k]), options),
                    distance=float(distance[k]),
                    arc_margins=tuple(
                        (arc.name, arc_margin(unit.pose, unit.base, arc, target.x, target.y))
                        for arc in self.arcs
                        if arc.name in own
                    ),
                    witness=self.witness(a, b, conventions.distance_from, conventions.distance_to)
                    if witness
                    else None,
                    edge_witness=self.witness(a, b, "edge", "nearest") if witness else None,
                )
            )
        return reports

    def witness(self, i: int, j: int, from_: str, to: str) -> Measurement:
        a, b = self.state.units[i], self.state.units[j]
        return measure(a.pose, a.base, b.pose, b.base, from_, to)  # type: ignore[arg-type]

    def range_distances(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """Range as the rule system measures it (from centre or edge, to centre or nearest
        point), for the pairs (i[k], j[k]), vectorised."""
        conventions = self.system.conventions
        n = len(self.state.units)
        point = CircleBase(0.0)
        poses = [u.pose for u in self.state.units]
        firers = [point] * n if conventions.distance_from == "centre" else list(self.units.bases)
        targets = [point] * n if conventions.distance_to == "centre" else list(self.units.bases)
        both = BaseArrays.build(poses + poses, firers + targets)
        return pair_edge_distances(both, i, j + n)

    def blocked_by(self, i: np.ndarray, j: np.ndarray) -> dict[tuple[int, int], tuple[str, ...]]:
        """The terrain blocking each line i[k] -> j[k] (centre to centre), in order along it."""
        if len(i) == 0:
            return {}
        starts = np.column_stack([self.units.x[i], self.units.y[i]])
        ends = np.column_stack([self.units.x[j], self.units.y[j]])
        levels = self.blocking.levels
        masks = self.blocking.mask[levels[i], levels[j]]
        line, piece = los_hits(self.terrain, starts, ends, masks)
        lines = shapely.linestrings(np.stack([starts[line], ends[line]], axis=1))
        crossing = shapely.intersection(lines, self.terrain.geometries[piece])
        entry = shapely.distance(shapely.points(starts[line]), crossing)
        found: dict[tuple[int, int], list[tuple[float, str]]] = {}
        for k, t, along in zip(line, piece, entry, strict=True):
            found.setdefault((int(i[k]), int(j[k])), []).append((float(along), self.terrain.ids[t]))
        return {key: tuple(name for _, name in sorted(hits)) for key, hits in found.items()}


def _level_blocking(system: RuleSystem, state: GameState) -> LevelBlocking:
    """Which terrain blocks which pair, from the rule system's `blocks_los` (e.g. R002.40),
    asked once per pair of line-of-sight levels rather than once per pair of units."""
    levels: dict[str, Unit] = {}
    for unit in state.units:
        levels.setdefault(system.los_level(unit), unit)
    names = list(levels) or [""]
    codes = np.array([names.index(system.los_level(u)) for u in state.units], dtype=np.int64)
    mask = np.zeros((len(names), len(names), len(state.terrain)), dtype=bool)
    for a, name_a in enumerate(names):
        for b, name_b in enumerate(names):
            viewer, target = levels.get(name_a), levels.get(name_b)
            for t, piece in enumerate(state.terrain):
                mask[a, b, t] = system.blocks_los(piece, viewer, target)
    return LevelBlocking(codes, mask)
