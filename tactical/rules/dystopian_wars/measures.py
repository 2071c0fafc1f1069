"""The table questions of seed 002 (GEO002.2-GEO002.7, GEO002.10, GEO002.11), asked of
`tactical.geometry` — never re-derived here.

- weapon range: from the centre of the model (R002.14, batteries) or, for an Armoured
  model's Broadside and Fixed Channel weapons, from its base edge (R002.12), to the
  nearest point of the target; an FSA Rocket Battery as a Turret (R002.15);
- arcs: any part of the target's base in the weapon's arc (the system's arc test);
- line of sight: centre to centre (`tactical.geometry.los`, as `tactical check` reports it),
  blocked per `dw_blocks_los` (R002.40); models never block it, which is what R002.41 asks
  of Auxiliary weapons;
- "within X": `tactical.geometry.proximity.within` with the measuring points of each
  rule (centre to centre for Command Distance R002.23; from a centre to the nearest
  point for the 8" generator and Fleet Commodore checks).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import numpy as np

from tactical.geometry import los
from tactical.geometry.arcs import in_arc
from tactical.geometry.arcs_spec import BROADSIDES, CHANNEL, ArcSpec
from tactical.geometry.los import TerrainIndex
from tactical.geometry.measure import BaseArrays, edge_distance_matrix, measure
from tactical.geometry.proximity import connected_components, within
from tactical.geometry.sweep import CONTACT_TOLERANCE
from tactical.model import GameState, MovementClass, Terrain, Unit
from tactical.rules.dystopian_wars import RULE_SYSTEM
from tactical.rules.dystopian_wars.cards import Weapon

EDGE_ARCS = {arc.name for arc in (*BROADSIDES, CHANNEL)}


def system():
    return RULE_SYSTEM


@lru_cache(maxsize=32)
def terrain_index(terrain: tuple[Terrain, ...]) -> TerrainIndex:
    """The table's terrain indexed once for line-of-sight queries (terrain rarely changes)."""
    return TerrainIndex.build([t.id for t in terrain], [t.geometry for t in terrain])


_MASKS: dict[tuple[tuple[Terrain, ...], str, str], np.ndarray] = {}


def _blocking(terrain: tuple[Terrain, ...], viewer: Unit, target: Unit) -> np.ndarray:
    """Which pieces block this pair: asked once per pair of line-of-sight levels (the
    system's promise: `blocks_los` answers alike for units of the same level)."""
    key = (terrain, system().los_level(viewer), system().los_level(target))
    mask = _MASKS.get(key)
    if mask is None:
        if len(_MASKS) > 256:
            _MASKS.clear()
        blocks = system().blocks_los
        mask = _MASKS[key] = np.array([blocks(p, viewer, target) for p in terrain], dtype=bool)
    return mask


def line_of_sight(state: GameState, source: Unit, target: Unit) -> tuple[bool, tuple[str, ...]]:
    """Centre-to-centre line of sight (`tactical.geometry.los.line_of_sight`) with the pieces
    that block this pair per `dw_blocks_los` (R002.40), and what blocks it in order."""
    if not state.terrain:
        return True, ()
    found = los.line_of_sight(
        terrain_index(state.terrain),
        (source.x, source.y),
        (target.x, target.y),
        _blocking(state.terrain, source, target),
    )
    return found.clear, found.blocked_by


def weapon_measured_from(unit: Unit, weapon: Weapon) -> str:
    """T002.4: "edge" for an Armoured model's Broadside / Fixed Channel weapons (R002.12),
    else "centre" (R002.14 batteries; R002.15 a Rocket Battery is a Turret)."""
    if (
        unit.movement is MovementClass.ARMOURED
        and not weapon.rocket_battery
        and weapon.arc.name in EDGE_ARCS
    ):
        return "edge"
    return "centre"


def weapon_distance(unit: Unit, weapon: Weapon, target: Unit) -> float:
    """Inches from the weapon's measuring point to the nearest point of the target."""
    start = weapon_measured_from(unit, weapon)
    return measure(unit.pose, unit.base, target.pose, target.base, start, "nearest").distance  # type: ignore[arg-type]


def in_weapon_arc(unit: Unit, arc: ArcSpec, target: Unit) -> bool:
    """Whether any part of the target's base is in the arc (the system's arc test)."""
    return in_arc(unit.pose, unit.base, arc, target.pose, target.base, "any")


def range_band(unit: Unit, distance: float, options: Mapping[str, Any]) -> str | None:
    return system().range_band(unit, distance, options)


def within_from_centre(source: Unit, target: Unit, inches: float) -> bool:
    """GEO002.4: the target's nearest point within `inches` of the source's centre."""
    return within(source.pose, source.base, target.pose, target.base, inches, "centre", "nearest")


def within_centres(source: Unit, target: Unit, inches: float) -> bool:
    """GEO002.3: centre to centre within `inches` (Command Distance, R002.23)."""
    return within(source.pose, source.base, target.pose, target.base, inches, "centre", "centre")


def within_edges(source: Unit, target: Unit, inches: float) -> bool:
    """Base edge to base edge within `inches` (boarding, Landing and Launch reach)."""
    return within(source.pose, source.base, target.pose, target.base, inches, "edge", "nearest")


def centres(units: tuple[Unit, ...]) -> np.ndarray:
    return np.array([(u.x, u.y) for u in units], dtype=float).reshape(-1, 2)


def contact_graph_connected(units: tuple[Unit, ...]) -> bool:
    """GEO002.11 / A002.14: the bases' contact graph is connected (touching = edge distance
    within the sweep's contact tolerance)."""
    if len(units) <= 1:
        return True
    arrays = BaseArrays.build([u.pose for u in units], [u.base for u in units])
    touching = edge_distance_matrix(arrays) <= CONTACT_TOLERANCE
    return bool(np.all(connected_components(touching) == 0))


def removable_for_formation(units: tuple[Unit, ...]) -> tuple[str, ...]:
    """R002.52: the ids whose removal leaves the rest of the Wing a valid formation."""
    found = []
    for index, unit in enumerate(units):
        rest = units[:index] + units[index + 1 :]
        if contact_graph_connected(rest):
            found.append(unit.id)
    return tuple(found)


def on_table(state: GameState, unit: Unit) -> bool:
    minx, miny, maxx, maxy = unit.footprint.bounds
    board = state.board
    return (
        minx >= -1e-9
        and miny >= -1e-9
        and maxx <= board.width + 1e-9
        and maxy <= board.height + 1e-9
    )
