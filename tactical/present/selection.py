"""What the renderer shows for a selected unit, as plain values in table inches.

Computed from the rules (arcs, range bands, and line of sight through the
rules layer's `TableGeometry`, which asks the system's `blocks_los`) and the
geometry layer (arc regions); drawn by `layers`. No pygame
here, so the same values can be checked in tests and cached between frames.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from tactical.errors import UserError
from tactical.geometry.arcs import arc_region
from tactical.geometry.arcs_spec import ArcSpec, Omni, Sector
from tactical.model import GameState, Unit
from tactical.rules.base import RuleSystem
from tactical.rules.measuring import PROBE_STEP, TableGeometry, band_limits

__all__ = ["band_limits"]  # re-exported: the ui found it here first


@dataclass(frozen=True)
class ArcShape:
    """One arc of the selected unit as a region on the table (clipped to the table)."""

    name: str
    region: BaseGeometry
    all_round: bool = False  # the whole disc: drawn as its outline only (a tint would cover all)


@dataclass(frozen=True)
class RangeRing:
    """The outer limit of a range band: `distance` inches, measured as the rule system measures."""

    name: str
    distance: float
    outline: BaseGeometry


@dataclass(frozen=True)
class SightLine:
    """Line of sight from the selected unit's centre to another unit's centre."""

    target: str
    start: tuple[float, float]
    end: tuple[float, float]
    clear: bool
    blocked_by: tuple[str, ...]
    in_range: bool = True  # within the unit's longest range band: the lines drawn


@dataclass(frozen=True)
class SelectionView:
    """Everything drawn for a selected unit: arcs, range rings, lines of sight, blocking terrain."""

    unit_id: str
    radius: float
    arcs: tuple[ArcShape, ...]
    rings: tuple[RangeRing, ...]
    sight_lines: tuple[SightLine, ...]
    blocking: tuple[str, ...]


def is_all_round(arc: ArcSpec) -> bool:
    """An arc that covers every bearing (omnidirectional, or a 360° sector)."""
    return isinstance(arc, Omni) or (isinstance(arc, Sector) and arc.span >= 360.0)


def selected_unit(state: GameState, unit_id: str) -> Unit:
    """The unit `unit_id`, or a UserError naming the ids the map has."""
    if state.has_unit(unit_id):
        return state.unit(unit_id)
    known = ", ".join(u.id for u in state.units[:12])
    more = f" and {len(state.units) - 12} more" if len(state.units) > 12 else ""
    raise UserError(
        f"unknown unit {unit_id!r}: the map has "
        + (f"{known}{more}" if state.units else "no units")
    )


def selection_view(
    state: GameState,
    system: RuleSystem,
    unit_id: str,
    sight_lines: bool = True,
    table_geometry: TableGeometry | None = None,
) -> SelectionView:
    """Arcs out to the longest range band (or the table diagonal), rings, and lines of sight.

    Lines of sight come from the rules layer's `TableGeometry` (the very numbers
    `tactical check` prints); pass one already built for `state` to reuse its indexes.
    """
    unit = selected_unit(state, unit_id)
    board = state.board
    table = shapely.box(*board.bounds)
    diagonal = math.hypot(board.width, board.height)
    options = system.options(state.options)
    probe_limit = max(diagonal, _declared_max_range(system)) + PROBE_STEP
    limits = _cached_band_limits(system, unit, options, probe_limit)
    # a band still open at the probe's end reaches past the table: arcs cover it all
    still_in_range = system.range_band(unit, probe_limit, options) is not None
    radius = diagonal if still_in_range or not limits else min(limits[-1][1], diagonal)
    arcs = tuple(
        ArcShape(arc.name, region, is_all_round(arc))
        for arc in system.unit_arcs(unit)
        if not (
            region := arc_region(unit.pose, unit.base, arc, radius).intersection(table)
        ).is_empty
    )
    measured_from = (
        unit.footprint
        if system.conventions.distance_from == "edge"
        else shapely.Point(unit.x, unit.y)
    )
    rings = tuple(
        RangeRing(name, distance, measured_from.buffer(distance, quad_segs=32).exterior)
        for name, distance in limits
        if distance > 0
    )
    lines: tuple[SightLine, ...] = ()
    blocking: tuple[str, ...] = ()
    if sight_lines:
        geometry = table_geometry or TableGeometry.of(state, system)
        # drawn only to the units in range when the unit's bands end on the table: on a big
        # table lines to everyone would hide the ones that matter (and cost frames)
        reach = None if still_in_range or not limits or radius >= diagonal else radius
        lines = _sight_lines(state, geometry, unit, reach)
        drawn = (line for line in lines if line.in_range)
        blocking = tuple(dict.fromkeys(t for line in drawn for t in line.blocked_by))
    return SelectionView(unit.id, radius, arcs, rings, lines, blocking)


def _sight_lines(
    state: GameState, geometry: TableGeometry, viewer: Unit, reach: float | None = None
) -> tuple[SightLine, ...]:
    """Centre-to-centre lines to every other unit; the rule system's `blocks_los` decides
    which terrain blocks each pair (through the geometry's level blocking, e.g. R002.40).
    A line is `in_range` when the target is within `reach` inches, measured as the rule
    system measures range (every line, without a reach)."""
    viewer_index = geometry.index(viewer.id)
    row = geometry.row(viewer.id)
    targets = np.flatnonzero(np.arange(len(state.units)) != viewer_index)
    in_range = np.ones(len(targets), dtype=bool)
    if reach is not None and len(targets):
        distance = geometry.range_distances(np.full(len(targets), viewer_index), targets)
        in_range = distance <= reach
    clear = row.los_clear[targets]
    blocked = geometry.blocked_by(np.full(int((~clear).sum()), viewer_index), targets[~clear])
    start = (viewer.x, viewer.y)
    return tuple(
        SightLine(
            state.units[j].id,
            start,
            (state.units[j].x, state.units[j].y),
            bool(is_clear),
            () if is_clear else blocked.get((viewer_index, int(j)), ()),
            near,
        )
        for j, is_clear, near in zip(
            targets.tolist(), clear.tolist(), in_range.tolist(), strict=True
        )
    )


_BAND_LIMITS: dict[tuple, tuple[tuple[str, float], ...]] = {}


def _cached_band_limits(
    system: RuleSystem, unit: Unit, options: Mapping[str, Any], limit: float
) -> tuple[tuple[str, float], ...]:
    """`band_limits`, kept per rule system, unit profile (all but where the unit stands and
    what it is called), options and limit: a fleet of one class probes its bands once."""
    try:
        key = (
            system.id, unit.side, unit.base, unit.movement, unit.size, unit.stats,
            tuple(sorted(options.items())), limit,
        )  # fmt: skip
        hash(key)
    except TypeError:  # an unhashable option value: probe afresh
        return band_limits(system, unit, options, limit)
    found = _BAND_LIMITS.get(key)
    if found is None:
        if len(_BAND_LIMITS) > 256:
            _BAND_LIMITS.clear()
        found = _BAND_LIMITS[key] = band_limits(system, unit, options, limit)
    return found


def _declared_max_range(system: RuleSystem) -> float:
    bands = system.conventions.range_bands
    return bands.max_range if bands else 0.0
