"""The threat map: at each point of a 0.5" grid, how many enemy weapons could bear on a unit
of the side standing there, and the damage they would expect to deal to it.

For each enemy unit and weapon (`RuleSystem.weapon_reach`: its arcs and firing bands) a
grid cell counts when the target, placed with its own base and heading at the cell's
centre, is

- in one of the weapon's arcs under the system's arc test (by its centre; "any part of
  its base" takes the base's circumscribed circle, a cell-sized approximation);
- at a range in one of the weapon's bands, measured as the system measures (from the
  firer's centre or base edge to the target's centre or the nearest point of its base,
  exactly for the target's base);
- in line of sight: the terrain that blocks this pair (`blocks_los`, per line-of-sight
  level) and the bases of the models that block it (`model_blocking`, R002.41: neither
  the firer's nor the target's own) are cast as a horizon around the firer, 1440
  bearings (0.25°) each with the distance where the first blocking edge meets it; a
  cell beyond its bearing's horizon is out of sight.

Everything is numpy over all cells at once, one firer at a time. Expected damage comes
from the exact odds of the very attack, one enumeration per firer, weapon and band
(`DamageCache`), with the target at the first cell of that band.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from tactical.errors import UserError
from tactical.geometry.arcs_spec import ArcSpec, Channel, Omni, Sector
from tactical.geometry.shapes import CircleBase, Pose, RectBase
from tactical.model import GameState, Terrain, Unit
from tactical.rules import registry
from tactical.rules.base import RuleSystem, WeaponReach
from tactical.threat.damage import DamageCache

GRID_STEP = 0.5  # inches between cell centres (the issue's 0.5" grid)
HORIZON_BINS = 1440  # bearings of a firer's line-of-sight horizon (0.25° each)


@dataclass(frozen=True)
class Grid:
    """Cell centres over the table: `xs` (nx,) and `ys` (ny,), row-major cells (ny, nx)."""

    xs: np.ndarray
    ys: np.ndarray
    step: float

    @classmethod
    def over(cls, width: float, height: float, step: float = GRID_STEP) -> Grid:
        nx, ny = max(1, round(width / step)), max(1, round(height / step))
        return cls(
            (np.arange(nx) + 0.5) * (width / nx), (np.arange(ny) + 0.5) * (height / ny), step
        )

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.ys), len(self.xs)

    def points(self) -> tuple[np.ndarray, np.ndarray]:
        """Flat x and y of every cell centre, row by row from the bottom."""
        x, y = np.meshgrid(self.xs, self.ys)
        return x.ravel(), y.ravel()

    def window(self, x: float, y: float, radius: float) -> tuple[slice, slice]:
        """The rows and columns of the cells within `radius` of (x, y) in each direction."""
        if not math.isfinite(radius):
            return slice(None), slice(None)
        columns = slice(
            int(np.searchsorted(self.xs, x - radius)),
            int(np.searchsorted(self.xs, x + radius, "right")),
        )
        rows = slice(
            int(np.searchsorted(self.ys, y - radius)),
            int(np.searchsorted(self.ys, y + radius, "right")),
        )
        return rows, columns

    def cell_of(self, x: float, y: float) -> tuple[int, int]:
        """(row, column) of the cell holding (x, y), clipped to the grid."""
        column = int(np.clip(np.searchsorted(self.xs + self.step / 2, x), 0, len(self.xs) - 1))
        row = int(np.clip(np.searchsorted(self.ys + self.step / 2, y), 0, len(self.ys) - 1))
        return row, column


@dataclass(frozen=True)
class WeaponThreat:
    """One enemy weapon's share of the map: where it bears, and its expected damage there."""

    attacker: str
    weapon: str
    cells: int
    damage: float | None


@dataclass(frozen=True)
class ThreatMap:
    """Per cell: `count` of enemy weapons that could bear, and `damage` they would expect to
    deal to `target` (None without a selected unit)."""

    side: str
    target: str
    grid: Grid
    count: np.ndarray
    damage: np.ndarray | None
    measure: str
    weapons: tuple[WeaponThreat, ...] = field(default=())
    # the names of the models whose bases cut an enemy firer's line of sight (R002.41)
    blocking_models: tuple[str, ...] = field(default=())

    def at(self, x: float, y: float) -> tuple[int, float | None]:
        row, column = self.grid.cell_of(x, y)
        damage = None if self.damage is None else float(self.damage[row, column])
        return int(self.count[row, column]), damage


# --------------------------------------------------------------------------- the map


def side_units(state: GameState, side: str) -> tuple[Unit, ...]:
    """The side's units, or a UserError naming the sides on the map."""
    if side not in state.sides:
        raise UserError(
            f"unknown side {side!r}: the sides on this map are {', '.join(state.sides)}"
        )
    return tuple(u for u in state.units if u.side == side)


def check_combat(system: RuleSystem) -> None:
    if not system.has_combat:
        raise UserError(
            f"rule system {system.id!r} ({system.title}) has no combat resolvers: "
            "no weapon can bear, so there is no threat to map"
        )


# Units a threat map is worked out for: every enemy weapon is checked against the table's
# other units (sight, the rule system's consent), so the work grows with the square of
# the units; 1,000 (five times the stress map) take seconds (its move advice under half a
# minute), 19,600 took over ten minutes.
MAX_THREAT_UNITS = 1000


def check_table_size(state: GameState) -> None:
    """UserError for a table with more units than a threat map is worked out for."""
    if len(state.units) > MAX_THREAT_UNITS:
        raise UserError(
            f"the threat map is worked out for tables of at most {MAX_THREAT_UNITS:,} units; "
            f"this one has {len(state.units):,} (check measures any table)"
        )


def threat_map(
    state: GameState,
    side: str,
    unit_id: str | None = None,
    *,
    step: float = GRID_STEP,
    damage: bool | None = None,
    cache: DamageCache | None = None,
) -> ThreatMap:
    """The threat to `side` over the table: every enemy weapon against a unit of the side
    (`unit_id`, else the side's first unit) at each cell. With a unit (or `damage=True`),
    the expected damage too."""
    system = registry.get(state.rules)
    check_combat(system)
    mine = side_units(state, side)
    if unit_id is not None:
        target = state.unit(unit_id) if state.has_unit(unit_id) else None
        if target is None:
            known = ", ".join(u.id for u in mine) or "none"
            raise UserError(f"unknown unit {unit_id!r}: side {side}'s units are {known}")
        if target.side != side:
            raise UserError(f"unit {unit_id!r} is on side {target.side}, not side {side}")
    elif mine:
        target = mine[0]
    else:
        raise UserError(f"side {side} has no units on this map: there is nothing to threaten")
    want_damage = unit_id is not None if damage is None else damage
    options = system.options(state.options)
    grid = Grid.over(state.board.width, state.board.height, step)
    shape = grid.shape
    grid_x, grid_y = grid.xs.astype(np.float32), grid.ys.astype(np.float32)
    count = np.zeros(shape, dtype=np.int32)
    expected = np.zeros(shape) if want_damage else None
    cache = cache if cache is not None else DamageCache()
    sight = SightCaster(state, system)
    measures: list[str] = []
    shares = []
    for attacker in state.units:
        if attacker.side == side:
            continue
        reaches = cache.reaches(system, attacker, options)
        if not reaches:
            continue
        # only the cells the longest weapon can reach: its window of the grid
        reach_limit = max(r.max_range for r in reaches) + _circumradius(target)
        reach_limit += _circumradius(attacker)
        rows, columns = grid.window(attacker.x, attacker.y, reach_limit)
        geometry = CellGeometry(attacker, target, grid_x[columns], grid_y[rows], system)
        visible = sight.visible(attacker, target, geometry, reach_limit)
        for reach in reaches:
            band_index = geometry.band_index(reach)
            bears = visible & geometry.in_arcs(reach.arcs) & (band_index >= 0)
            table = np.zeros(len(reach.bands))
            for k, band in enumerate(reach.bands):
                question = (state, system, attacker, reach.weapon, band.name, target)
                refused = cache.known_refusal(*question)
                value = cache.known_damage(*question) if expected is not None else None
                if refused is not cache.UNKNOWN and (refused or value is not cache.UNKNOWN):
                    if refused:  # known from an earlier map: no need to find its cells
                        bears &= band_index != k
                    elif value is not None:
                        table[k] = value.value
                        if value.measure and value.measure not in measures:
                            measures.append(value.measure)
                    continue
                inside = np.flatnonzero(bears & (band_index == k))
                if len(inside) == 0:
                    continue
                # the rule system judges the attack at a cell in the middle of the band's
                # cells: a weapon that may not target this unit (its type, its level) counts
                # nowhere in that band
                middle = int(inside[len(inside) // 2])
                where = Pose(*geometry.cell(middle), target.heading)
                if cache.refusal(*question, target_at=where):
                    bears[inside] = False
                    continue
                if expected is not None:
                    found = cache.get(*question, target_at=where)
                    table[k] = found.value
                    if found.measure and found.measure not in measures:
                        measures.append(found.measure)
            cells = int(np.count_nonzero(bears))
            if not cells:
                continue
            window_shape = count[rows, columns].shape
            count[rows, columns] += bears.reshape(window_shape)
            total = None
            if expected is not None:
                gained = np.where(bears, table[np.maximum(band_index, 0)], 0.0)
                expected[rows, columns] += gained.reshape(window_shape)
                total = float(gained.max())
            shares.append(WeaponThreat(attacker.id, reach.weapon, cells, total))
    names = state.shown_names
    blockers = tuple(names.get(u.id, u.id) for k, u in enumerate(state.units) if k in sight.shading)
    return ThreatMap(
        side, target.id, grid, count, expected, " / ".join(measures), tuple(shares), blockers
    )


# --------------------------------------------------------------------------- per firer


class CellGeometry:
    """One firer against the target placed at every cell: bearings and ranges as arrays."""

    def __init__(
        self, attacker: Unit, target: Unit, xs: np.ndarray, ys: np.ndarray, system: RuleSystem
    ) -> None:
        """`xs` (columns) and `ys` (rows) of a window of cells: every array below is the
        window's cells flattened row by row, computed by broadcasting (no grid copies)."""
        self.attacker, self.target, self.system = attacker, target, system
        dx = (xs - np.float32(attacker.x))[None, :]
        dy = (ys - np.float32(attacker.y))[:, None]
        self._dx, self._dy = dx, dy
        self.shape = (len(ys), len(xs))
        self.centre = np.hypot(dx, dy).ravel()
        self.angle = np.arctan2(dx, dy).ravel()  # compass radians in (-pi, pi]
        self.compass = self.angle * np.float32(180.0 / math.pi)  # degrees, not yet wrapped
        self.extent = _circumradius(target)
        self._range: dict[str, np.ndarray] = {}
        self._arcs: dict[tuple[ArcSpec, ...], np.ndarray] = {}
        self._slack: np.ndarray | None = None

    def cell(self, index: int) -> tuple[float, float]:
        """The table point of the window's cell `index` (row by row)."""
        row, column = divmod(index, self.shape[1])
        return (
            float(self._dx[0, column]) + self.attacker.x,
            float(self._dy[row, 0]) + self.attacker.y,
        )

    def _local(self, heading: float, sign: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
        """Each cell's offset from the firer (sign -1: the firer's from the cell) in the frame
        of `heading` (starboard, forward), flattened."""
        h = math.radians(heading)
        dx, dy = sign * self._dx, sign * self._dy
        lx = dx * np.float32(math.cos(h)) - dy * np.float32(math.sin(h))
        ly = dx * np.float32(math.sin(h)) + dy * np.float32(math.cos(h))
        return lx.ravel(), ly.ravel()

    def range(self, measured_from: str) -> np.ndarray:
        """Range to the target at each cell as the system measures it from `measured_from`."""
        if measured_from not in self._range:
            to = self.system.conventions.distance_to
            distance = self.centre if to == "centre" else self._to_nearest()
            if measured_from == "edge":
                distance = np.maximum(distance - self._edge_reach(), 0.0)
            self._range[measured_from] = distance
        return self._range[measured_from]

    def _to_nearest(self) -> np.ndarray:
        """From the firer's centre to the nearest point of the target's base at each cell."""
        base = self.target.base
        if isinstance(base, CircleBase):
            return np.maximum(self.centre - base.radius, 0.0)
        assert isinstance(base, RectBase)
        lx, ly = self._local(self.target.heading, -1.0)  # the firer seen from each cell
        return np.hypot(
            np.maximum(np.abs(lx) - base.width / 2, 0.0),
            np.maximum(np.abs(ly) - base.length / 2, 0.0),
        )

    def _edge_reach(self) -> np.ndarray:
        """How far the firer's base reaches from its centre toward each cell (its edge)."""
        base = self.attacker.base
        if isinstance(base, CircleBase):
            return np.full(self.centre.shape, base.radius)
        lx, ly = self._local(self.attacker.heading)
        length = np.maximum(np.hypot(lx, ly), 1e-12)
        sx, sy = np.abs(lx) / length, np.abs(ly) / length
        with np.errstate(divide="ignore"):
            across = np.where(sx > 1e-12, (base.width / 2) / sx, np.inf)
            along = np.where(sy > 1e-12, (base.length / 2) / sy, np.inf)
        return np.minimum(across, along)

    def band_index(self, reach: WeaponReach) -> np.ndarray:
        """Index of the firing band holding each cell's range (-1: none)."""
        distance = self.range(reach.measured_from)
        index = np.full(distance.shape, -1, dtype=np.int32)
        for k, band in enumerate(reach.bands):
            low_ok = (
                distance >= band.low if k == 0 or band.low == 0.0 else distance > band.low + 1e-9
            )
            inside = low_ok & (distance <= band.high + 1e-9) & (index < 0)
            index[inside] = k
        return index

    def in_arcs(self, arcs: tuple[ArcSpec, ...]) -> np.ndarray:
        """Whether the target at each cell is in any of `arcs` under the system's arc test."""
        if arcs not in self._arcs:
            self._arcs[arcs] = self._in_arcs(arcs)
        return self._arcs[arcs]

    def _in_arcs(self, arcs: tuple[ArcSpec, ...]) -> np.ndarray:
        any_part = self.system.conventions.arc_test == "any"
        if any_part and self._slack is None:
            ratio = np.minimum(1.0, self.extent / np.maximum(self.centre, 1e-9))
            self._slack = np.degrees(np.arcsin(ratio)).astype(np.float32)
        slack = self._slack if any_part else np.float32(0.0)
        found = np.zeros(self.centre.shape, dtype=bool)
        for arc in arcs:
            if isinstance(arc, Omni) or (isinstance(arc, Sector) and arc.span >= 360.0):
                return np.ones(self.centre.shape, dtype=bool)
            if isinstance(arc, Sector):
                start = np.float32(self.attacker.heading + arc.start)
                offset = np.mod(self.compass - start + slack, 360.0)
                found |= offset <= arc.span + 2 * slack + 1e-6
            elif isinstance(arc, Channel):
                found |= self._in_channel(any_part)
        return found

    def _in_channel(self, any_part: bool) -> np.ndarray:
        lx, ly = self._local(self.attacker.heading)
        base = self.attacker.base
        if isinstance(base, CircleBase):
            half = front = base.radius
        else:
            half, front = base.width / 2, base.length / 2
        grow = self.extent if any_part else 0.0
        return (np.abs(lx) <= half + grow) & (ly + grow >= front)


def _circumradius(unit: Unit) -> float:
    base = unit.base
    if isinstance(base, CircleBase):
        return base.radius
    return math.hypot(base.width / 2, base.length / 2)


# --------------------------------------------------------------------------- line of sight


class SightCaster:
    """The terrain's edges, grouped by which line-of-sight levels they block (R002.40 etc.),
    then the edges of the bases of the models that block sight (`model_blocking`, R002.41):
    the firer's and the target's own never shade its cells."""

    def __init__(self, state: GameState, system: RuleSystem) -> None:
        self.state, self.system = state, system
        self.pieces: tuple[Terrain, ...] = state.terrain
        self.models = system.model_blocking(state)
        blockers = () if self.models is None else self.models.blockers.tolist()
        outlines = [piece.outline() for piece in self.pieces]
        outlines += [state.units[k].footprint.exterior.coords[:-1] for k in blockers]
        starts, ends, owner = [], [], []
        for index, outline in enumerate(outlines):
            ring = np.asarray(outline, dtype=float)
            starts.append(ring)
            ends.append(np.roll(ring, -1, axis=0))
            owner.append(np.full(len(ring), index))
        if starts:
            self.a = np.concatenate(starts)
            self.b = np.concatenate(ends)
            self.owner = np.concatenate(owner)
        else:
            self.a = self.b = np.zeros((0, 2))
            self.owner = np.zeros(0, dtype=int)
        self._masks: dict[tuple[str, str], np.ndarray] = {}
        self.shading: set[int] = set()  # units whose bases cut some firer's sight (R002.41)

    def _blocking(self, viewer: Unit, target: Unit) -> np.ndarray:
        key = (self.system.los_level(viewer), self.system.los_level(target))
        if key not in self._masks:
            pieces = np.array(
                [self.system.blocks_los(p, viewer, target) for p in self.pieces], dtype=bool
            )
            self._masks[key] = pieces
        pieces = self._masks[key]
        if self.models is not None:
            pieces = np.concatenate((pieces, self._model_mask(viewer, target)))
        return pieces[self.owner] if len(self.owner) else np.zeros(0, dtype=bool)

    def _model_mask(self, viewer: Unit, target: Unit) -> np.ndarray:
        """Which blockers' bases block the viewer's sight of the target (R002.41), neither
        of theirs."""
        models = self.models
        assert models is not None
        ids = [u.id for u in self.state.units]
        mask = np.zeros(len(models.blockers), dtype=bool)
        if viewer.id not in ids or target.id not in ids:
            return mask
        v, t = ids.index(viewer.id), ids.index(target.id)
        mask = models.mask[models.levels[v], models.levels[t]].copy()
        mask &= (models.blockers != v) & (models.blockers != t)
        return mask

    def visible(
        self, viewer: Unit, target: Unit, cells: CellGeometry, reach: float = math.inf
    ) -> np.ndarray:
        """Whether each cell's centre (all within `reach` of the viewer in x and y) is in
        sight of the viewer's centre."""
        edges = self._blocking(viewer, target)
        if edges.any() and np.isfinite(reach):
            # edges wholly outside the square the cells lie in cannot shade them
            lo_x, hi_x = viewer.x - reach, viewer.x + reach
            lo_y, hi_y = viewer.y - reach, viewer.y + reach
            a, b = self.a, self.b
            edges = edges & ~(
                ((a[:, 0] < lo_x) & (b[:, 0] < lo_x))
                | ((a[:, 0] > hi_x) & (b[:, 0] > hi_x))
                | ((a[:, 1] < lo_y) & (b[:, 1] < lo_y))
                | ((a[:, 1] > hi_y) & (b[:, 1] > hi_y))
            )
        if not edges.any():
            return np.ones(cells.centre.shape, dtype=bool)
        horizon, nearest = self.horizon(viewer.x, viewer.y, self.a[edges], self.b[edges], True)
        if self.models is not None:  # the models' bases that set the horizon within reach
            owner = self.owner[np.flatnonzero(edges)[nearest[nearest >= 0]]]
            close = horizon[nearest >= 0] <= reach
            blockers = self.models.blockers
            self.shading.update(
                blockers[owner[close & (owner >= len(self.pieces))] - len(self.pieces)].tolist()
            )
        bins = ((cells.angle + math.pi) * (HORIZON_BINS / (2 * math.pi))).astype(np.int64)
        bins = np.minimum(bins, HORIZON_BINS - 1)
        return cells.centre <= horizon[bins]

    @staticmethod
    def horizon(x: float, y: float, a: np.ndarray, b: np.ndarray, which: bool = False):
        """For each bearing bin, the distance from (x, y) to the first edge its middle ray
        meets (inf: none): every edge spans the bins between its ends' bearings. With
        `which`, also that edge's index for each bin (-1: none)."""
        horizon = np.full(HORIZON_BINS, np.inf)
        nearest = np.full(HORIZON_BINS, -1, dtype=np.int64)
        pa, pb = a - (x, y), b - (x, y)
        ta = np.arctan2(pa[:, 0], pa[:, 1])
        tb = np.arctan2(pb[:, 0], pb[:, 1])
        low, high = np.minimum(ta, tb), np.maximum(ta, tb)
        wraps = high - low > math.pi  # the edge crosses the bearing ±pi
        scale = HORIZON_BINS / (2 * math.pi)
        first = np.where(wraps, (high + math.pi) * scale, (low + math.pi) * scale)
        last = np.where(wraps, (low + math.pi) * scale + HORIZON_BINS, (high + math.pi) * scale)
        first_bin = np.ceil(first - 0.5).astype(np.int64)
        last_bin = np.floor(last - 0.5).astype(np.int64)
        counts = np.maximum(last_bin - first_bin + 1, 0)
        if counts.sum() == 0:
            return (horizon, nearest) if which else horizon
        edge = np.repeat(np.arange(len(a)), counts)
        offsets = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
        k = np.repeat(first_bin, counts) + offsets
        theta = (k + 0.5) / scale - math.pi
        dirx, diry = np.sin(theta), np.cos(theta)
        ex, ey = pb[edge, 0] - pa[edge, 0], pb[edge, 1] - pa[edge, 1]
        # ray (t * dir) meets a + s * e: solve t * dir - s * e = a
        det = dirx * (-ey) - diry * (-ex)
        with np.errstate(divide="ignore", invalid="ignore"):
            t = (pa[edge, 0] * (-ey) - pa[edge, 1] * (-ex)) / det
        t = np.where(np.isfinite(t) & (t >= 0.0), t, np.inf)
        np.minimum.at(horizon, k % HORIZON_BINS, t)
        if not which:
            return horizon
        first = np.isfinite(t) & (t == horizon[k % HORIZON_BINS])
        nearest[k[first] % HORIZON_BINS] = edge[first]
        return horizon, nearest
