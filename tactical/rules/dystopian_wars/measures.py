"""The table questions of seed 002 (GEO002.2-GEO002.7, GEO002.10, GEO002.11), asked of
`tactical.geometry` — never re-derived here.

- weapon range: from the centre of the model (R002.14, batteries) or, for an Armoured
  model's Broadside and Fixed Channel weapons, from its base edge (R002.12), to the
  nearest point of the target; an FSA Rocket Battery as a Turret (R002.15);
- arcs: any part of the target's base in the weapon's arc (the system's arc test);
- line of sight: centre to centre (`tactical.geometry.los`, as `tactical check` reports it),
  blocked by terrain per `dw_blocks_los` (R002.40) and, between two Surface models, by the
  base of any other Surface model it crosses (R002.41 / A002.21, `models_block`), except
  for Auxiliary weapons, which ignore models;
- "within X": `tactical.geometry.proximity.within` with the measuring points of each
  rule (centre to centre for Command Distance R002.23; from a centre to the nearest
  point for the 8" generator and Fleet Commodore checks).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from operator import is_
from typing import Any

import numpy as np
import shapely

from tactical.geometry import los
from tactical.geometry.arcs import in_arc
from tactical.geometry.arcs_spec import BROADSIDES, CHANNEL, ArcSpec, Omni, Sector
from tactical.geometry.los import TerrainIndex
from tactical.geometry.measure import BaseArrays, edge_distance_matrix, measure
from tactical.geometry.proximity import connected_components, within
from tactical.geometry.shapes import Base, Pose
from tactical.model import (
    CircleBase,
    FrozenMap,
    GameState,
    MovementClass,
    SizeClass,
    Terrain,
    Unit,
)
from tactical.model.frozen import remembered
from tactical.rules.base import ModelBlocking
from tactical.rules.dystopian_wars import declaration
from tactical.rules.dystopian_wars.cards import Weapon, card

EDGE_ARCS = {arc.name for arc in (*BROADSIDES, CHANNEL)}


@lru_cache(maxsize=32)
def terrain_index(terrain: tuple[Terrain, ...]) -> TerrainIndex:
    """The table's terrain indexed once for line-of-sight queries (terrain rarely changes)."""
    return TerrainIndex.build([t.id for t in terrain], [t.geometry for t in terrain])


# by the terrain's identity (kept beside it, so that no id is reused) and the two levels
_MASKS: dict[tuple[int, str, str], tuple[tuple[Terrain, ...], np.ndarray]] = {}


def _blocking(terrain: tuple[Terrain, ...], viewer: Unit, target: Unit) -> np.ndarray:
    """Which pieces block this pair: asked once per pair of line-of-sight levels (the
    system's promise: `blocks_los` answers alike for units of the same level), and by
    the terrain's identity (a table's terrain hashed by value costs more than the line)."""
    key = (id(terrain), declaration.los_level(viewer), declaration.los_level(target))
    found = _MASKS.get(key)
    if found is not None and found[0] is terrain:
        return found[1]
    if len(_MASKS) > 256:
        _MASKS.clear()
    blocks = declaration.dw_blocks_los
    mask = np.array([blocks(p, viewer, target) for p in terrain], dtype=bool)
    _MASKS[key] = (terrain, mask)
    return mask


@dataclass(frozen=True, slots=True)
class Sight:
    """A line of sight between two models: the terrain blocking it (ids) and the models
    blocking it (ids), each in order along the line."""

    terrain: tuple[str, ...] = ()
    models: tuple[str, ...] = ()

    @property
    def clear(self) -> bool:
        return not (self.terrain or self.models)


def line_of_sight(state: GameState, source: Unit, target: Unit, *, models: bool = True) -> Sight:
    """Centre-to-centre line of sight (`tactical.geometry.los.line_of_sight`): the terrain
    that blocks this pair per `dw_blocks_los` (R002.40), and unless `models` is False (an
    Auxiliary weapon, R002.41) the models whose bases block it (`models_blocking`)."""
    terrain: tuple[str, ...] = ()
    if state.terrain:
        read = (state.terrain, source, target)
        terrain = _kept(_TERRAIN_SIGHT, read, lambda: _terrain_sight(*read))
    if not models:
        return Sight(terrain)
    read = (state.units, state.options, source, target)
    return Sight(terrain, _kept(_MODEL_SIGHT, read, lambda: models_blocking(state, source, target)))


def _terrain_sight(terrain: tuple[Terrain, ...], source: Unit, target: Unit) -> tuple[str, ...]:
    """The terrain blocking the line between the two models' centres (R002.40); none without
    drawing it where the line passes clear of every blocking piece's box (most lines)."""
    blocking = _blocking(terrain, source, target)
    ends = (source.x, source.y, target.x, target.y)
    if not any(
        blocks and _meets_box(*ends, box)
        for blocks, box in zip(blocking.tolist(), _boxes(terrain), strict=True)
    ):
        return ()
    return los.line_of_sight(
        terrain_index(terrain), (source.x, source.y), (target.x, target.y), blocking
    ).blocked_by


@lru_cache(maxsize=32)
def _boxes(terrain: tuple[Terrain, ...]) -> tuple[tuple[float, float, float, float], ...]:
    """Each piece's bounding box, read once per table's terrain (it rarely changes)."""
    return tuple(tuple(float(v) for v in t.geometry.bounds) for t in terrain)  # type: ignore[misc]


_BOX_MARGIN = 1e-6  # inches: far beyond the rounding of a table's coordinates (~1e-13)


def _meets_box(
    ax: float, ay: float, bx: float, by: float, box: tuple[float, float, float, float]
) -> bool:
    """Whether the segment from (ax, ay) to (bx, by) comes within `_BOX_MARGIN` of the box
    (the box grown by it, clipped along each axis in turn): False only for a segment
    surely clear of everything inside the box."""
    m = _BOX_MARGIN
    x0, y0, x1, y1 = box
    enter, leave = 0.0, 1.0
    for start, delta, low, high in ((ax, bx - ax, x0 - m, x1 + m), (ay, by - ay, y0 - m, y1 + m)):
        if delta == 0.0:
            if start < low or start > high:
                return False
            continue
        near, far = (low - start) / delta, (high - start) / delta
        if near > far:
            near, far = far, near
        enter, leave = max(enter, near), min(leave, far)
        if enter > leave:
            return False
    return True


def _kept(memo: dict, read: tuple[Any, ...], make: Callable[[], Any]) -> Any:
    """`make` of what it reads, remembered by the very objects read (beside their ids, so
    that no id is reused): the choices try every weapon of a model at every enemy, and each
    weapon asks for the same line (of terrain: whatever the other models do)."""
    slot = tuple(map(id, read))
    found = memo.get(slot)
    if found is not None and all(map(is_, found[0], read)):
        return found[1]
    made = make()
    if len(memo) >= MAX_KEPT:
        memo.clear()
    memo[slot] = (read, made)
    return made


_TERRAIN_SIGHT: dict[tuple[int, ...], tuple[tuple[Any, ...], tuple[str, ...]]] = {}
_MODEL_SIGHT: dict[tuple[int, ...], tuple[tuple[Any, ...], tuple[str, ...]]] = {}
MAX_KEPT = 4096


# --------------------------------------------------------------------------- models (R002.41)

MODELS_BLOCK = ("all", "larger", "none")


def blocks_sight(unit: Unit) -> bool:
    """A002.21: a model whose base may block line of sight: on the Surface, and no Tiny
    Flyer (a Wing's stands never block)."""
    profile = card(unit)
    return profile.height == "surface" and not profile.is_tiny_flyer


def _sight_key(unit: Unit, mode: str) -> tuple[bool, int]:
    """What `model_blocks` asks of a viewer or a target: on the Surface, and (for "larger")
    its size class."""
    return card(unit).height == "surface", unit.size.rank if mode == "larger" else 0


def model_blocks(blocker: Unit, viewer: Unit, target: Unit, mode: str) -> bool:
    """R002.41 / A002.21: whether `blocker`'s base, if the line crosses it, blocks line of
    sight from `viewer` to `target` (neither of them: a model never blocks its own line).
    Only between two Surface models (R002.40: to or from the air only terrain blocks);
    `mode` is the `models_block` option: "all", "larger" (a blocker of the target's size
    class or bigger) or "none"."""
    if mode == "none" or blocker.id in (viewer.id, target.id) or not blocks_sight(blocker):
        return False
    (viewer_surface, _), (target_surface, target_rank) = (
        _sight_key(viewer, mode),
        _sight_key(target, mode),
    )
    return viewer_surface and target_surface and blocker.size.rank >= target_rank


def models_block(state: GameState) -> str:
    """The `models_block` option in force (A002.21), remembered by the options' identity:
    every line of sight between two models asks it."""
    if not isinstance(state.options, FrozenMap):  # not immutable: read afresh
        return _mode_of(state.options)
    return remembered(_MODES, state.options, _mode_of, 16)


def _mode_of(options: Mapping[str, Any]) -> str:
    return str(declaration.settings(options)["models_block"])


_MODES: dict[int, tuple[Any, str]] = {}


def _sight_facts(units: tuple[Unit, ...]) -> tuple[tuple[bool, bool, int], ...]:
    """What R002.41 / A002.21 read of each model of a table (`blocks_sight`, on the Surface,
    its size class's rank), read once per table: the pair matrix and every line of sight
    drawn on it ask them again (a rank is no cheap read)."""
    return remembered(_FACTS, units, _facts_of, MAX_FACTS)


def _facts_of(units: tuple[Unit, ...]) -> tuple[tuple[bool, bool, int], ...]:
    # each model's by itself: a move makes a new table of the same models but one
    return tuple([remembered(_UNIT_FACTS, u, _unit_facts, MAX_UNIT_FACTS) for u in units])


def _unit_facts(unit: Unit) -> tuple[bool, bool, int]:
    return blocks_sight(unit), card(unit).height == "surface", _RANKS[unit.size]


_RANKS = {size: size.rank for size in SizeClass}
# the facts of a table's models, by the units' tuple itself (kept beside it)
_FACTS: dict[int, tuple[Any, Any]] = {}
MAX_FACTS = 256
_UNIT_FACTS: dict[int, tuple[Any, Any]] = {}
MAX_UNIT_FACTS = 4096


def model_blocking(state: GameState) -> ModelBlocking | None:
    """R002.41 / A002.21 for the pair matrix: the models that may block (`blocks_sight`),
    each unit's `_sight_key` as its code, and `model_blocks`'s answer per pair of codes
    and blocker, as arrays; None when no model blocks on this table."""
    mode = models_block(state)
    facts = _sight_facts(state.units)
    found = _BLOCKING.get((mode, facts), _UNKNOWN)
    if found is _UNKNOWN:
        found = _model_blocking(mode, facts)
        if len(_BLOCKING) >= MAX_BLOCKING:
            _BLOCKING.clear()
        _BLOCKING[(mode, facts)] = found
    return found


# `model_blocking` by all it reads: the option and each model's facts, in the table's order
# (the position scorer measures a unit's places on tables of the same models again and
# again); its arrays are read-only, shared by every table of those facts
_BLOCKING: dict[tuple[str, tuple[tuple[bool, bool, int], ...]], ModelBlocking | None] = {}
MAX_BLOCKING = 256
_UNKNOWN = object()


def _model_blocking(mode: str, facts: tuple[tuple[bool, bool, int], ...]) -> ModelBlocking | None:
    """`model_blocking` from the option and each model's facts (`_sight_facts`)."""
    blockers = np.array([k for k, fact in enumerate(facts) if fact[0]], dtype=np.intp)
    if mode == "none" or len(blockers) == 0:
        return None
    keys: dict[tuple[bool, int], int] = {}
    larger = mode == "larger"  # `_sight_key`: the rank read only then
    levels = np.array(
        [keys.setdefault((surface, rank if larger else 0), len(keys)) for _, surface, rank in facts]
    )
    surface = np.array([key[0] for key in keys])
    rank = np.array([key[1] for key in keys])
    blocker_rank = np.array([facts[k][2] for k in blockers.tolist()])
    # model_blocks, for every pair of codes and every blocker at once
    mask = (surface[:, None, None] & surface[None, :, None]) & (
        blocker_rank[None, None, :] >= rank[None, :, None]
    )
    for shared in (blockers, levels, mask):
        shared.setflags(write=False)
    return ModelBlocking(blockers, levels, mask)


def models_blocking(state: GameState, source: Unit, target: Unit) -> tuple[str, ...]:
    """The ids of the models whose bases the line from `source`'s centre to `target`'s
    crosses (its interior, as for terrain: GEO002.10) and that block it (`model_blocks`),
    in the order the line enters them."""
    mode = models_block(state)
    if mode == "none":
        return ()
    start, end = np.array((source.x, source.y)), np.array((target.x, target.y))
    along = end - start
    length2 = float(along @ along)
    if length2 == 0.0:
        return ()
    # `model_blocks` with what it asks of the viewer and the target read once: only between
    # two Surface models, by a blocker of the target's size class or bigger ("larger")
    (viewer_surface, _), (target_surface, target_rank) = (
        _sight_key(source, mode),
        _sight_key(target, mode),
    )
    if not (viewer_surface and target_surface):
        return ()
    ends = (source.id, target.id)
    found = []
    sx, sy = source.x, source.y
    ax, ay = float(along[0]), float(along[1])
    for unit, (blocks, _, rank) in zip(state.units, _sight_facts(state.units), strict=True):
        if unit.id in ends or not blocks or rank < target_rank:
            continue
        # a base whose circumscribed circle the line misses cannot be crossed
        if _misses_circle(unit, sx, sy, ax, ay, length2, start, along):
            continue
        line, base = shapely.linestrings([start, end]), unit.footprint
        if shapely.relate_pattern(line, base, los.INTERIOR_PATTERN):
            entry = shapely.distance(shapely.points(start), shapely.intersection(line, base))
            found.append((float(entry), unit.id))
    return tuple(unit_id for _, unit_id in sorted(found))


def _misses_circle(
    unit: Unit,
    sx: float,
    sy: float,
    ax: float,
    ay: float,
    length2: float,
    start: np.ndarray,
    along: np.ndarray,
) -> bool:
    """Whether the line from (sx, sy) along (ax, ay) passes farther than `unit`'s
    circumscribed circle (+1e-9) from its centre (R002.41's cheap test before the base's).
    In plain floats; within `_NEAR_EDGE` of the limit, decided by the arrays as it always
    was (their rounding may differ in the last bits: the answer never does)."""
    limit = _circumradius(unit) + 1e-9
    ox, oy = unit.x - sx, unit.y - sy
    t = min(max((ox * ax + oy * ay) / length2, 0.0), 1.0)
    apart = math.hypot(ox - t * ax, oy - t * ay)
    if abs(apart - limit) > _NEAR_EDGE:
        return apart > limit
    offset = np.array((unit.x, unit.y)) - start
    t = min(max(float(offset @ along) / length2, 0.0), 1.0)
    return bool(np.hypot(*(offset - t * along)) > limit)


_NEAR_EDGE = 1e-9  # inches: far beyond the rounding of a table's distances (~1e-13)


def _circumradius(unit: Unit) -> float:
    base = unit.base
    if isinstance(base, CircleBase):
        return base.radius
    return math.hypot(base.width / 2, base.length / 2)


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
    return _kept(_DISTANCES, (unit, target, start), lambda: _distance(unit, target, start))


def surely_farther(unit: Unit, weapon: Weapon, target: Unit, inches: float) -> bool:
    """Whether `weapon_distance` is surely more than `inches` (GEO002.7), read from the
    centres alone: the target's nearest point is no nearer than its centre less its
    circumradius, and a weapon measured from the base edge (R002.12) is nearer by at most
    the firer's. True only where the measured distance is farther by `_FAR_MARGIN` at
    least; False says nothing."""
    apart = math.hypot(unit.x - target.x, unit.y - target.y) - _circumradius(target)
    if weapon_measured_from(unit, weapon) == "edge":
        apart -= _circumradius(unit)
    return apart > inches + _FAR_MARGIN


_FAR_MARGIN = 1e-6  # inches: far beyond the rounding of a table's distances (~1e-13)


def _distance(unit: Unit, target: Unit, start: str) -> float:
    """Inches from the unit's centre or edge (`start`) to the target's nearest point (the
    same for every weapon measured from there: remembered, `_kept`)."""
    return measure(unit.pose, unit.base, target.pose, target.base, start, "nearest").distance  # type: ignore[arg-type]


_DISTANCES: dict[tuple[int, ...], tuple[tuple[Any, ...], float]] = {}


def in_weapon_arc(unit: Unit, arc: ArcSpec, target: Unit) -> bool:
    """Whether any part of the target's base is in the arc (the system's arc test)."""
    # first by the very objects (kept beside their ids, so that no id is reused): the
    # targets offered, each declaration and its reach ask it of the same models, and the
    # poses, bases and arc hashed by value cost more than the rest of a remembered answer
    slot = (id(unit), id(arc), id(target))
    found = _ARCS.get(slot)
    if found is not None and found[0] is unit and found[1] is arc and found[2] is target:
        return found[3]
    inside = _arc_at_a_glance(unit, arc, target)
    if inside is None:
        inside = _in_arc_any(unit.pose, unit.base, arc, target.pose, target.base)
    if len(_ARCS) >= MAX_KEPT:
        _ARCS.clear()
    _ARCS[slot] = (unit, arc, target, inside)
    return inside


_ARCS: dict[tuple[int, int, int], tuple[Unit, ArcSpec, Unit, bool]] = {}


def _arc_at_a_glance(unit: Unit, arc: ArcSpec, target: Unit) -> bool | None:
    """`_in_arc_any` read from the centres (GEO002.7), where it is sure: every bearing of the
    target's base lies within its circumscribed circle's half-angle of the bearing of its
    centre, so a centre well inside a sector has part of the base in it, and a circle well
    clear of the sector has none; an all-round arc holds everything. None within
    `_ARC_MARGIN` of a sector's line or near the firer's centre (the arc test decides)."""
    if isinstance(arc, Omni):
        return True
    if not isinstance(arc, Sector):
        return None
    dx, dy = target.x - unit.x, target.y - unit.y
    apart = math.hypot(dx, dy)
    radius = _circumradius(target)
    if apart <= radius + _NEAR_CENTRE:
        return None
    bearing = math.degrees(math.atan2(dx, dy)) - unit.heading
    offset = (bearing - arc.start) % 360.0  # clockwise from the sector's first line
    span = arc.span
    if _ARC_MARGIN <= offset <= span - _ARC_MARGIN:
        return True
    half = math.degrees(math.asin(min(radius / apart, 1.0))) + _ARC_MARGIN
    if span + half < offset < 360.0 - half:
        return False
    return None


# degrees: far beyond the rounding of a table's bearings (~1e-12) and the arc test's
# tolerance (1e-9) at once; inches: beyond the test's tolerance for a firer's centre inside
# the target's base
_ARC_MARGIN = 1e-6
_NEAR_CENTRE = 1e-6


@lru_cache(maxsize=8192)
def _in_arc_any(pose: Pose, base: Base, arc: ArcSpec, target_pose: Pose, target_base: Base) -> bool:
    # a pure function of hashable values: every declaration checks its arc, and the
    # choices and the computer players' replays declare the same pairs many times
    return in_arc(pose, base, arc, target_pose, target_base, "any")


def range_band(unit: Unit, distance: float, options: Mapping[str, Any]) -> str | None:
    return declaration.range_band(unit, distance, options)


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
    return _connected(tuple(units))


@lru_cache(maxsize=1024)
def _connected(units: tuple[Unit, ...]) -> bool:
    """`contact_graph_connected` by the units' values (their poses and bases are all it
    reads): the exact odds of an attack on a Wing ask it of the same Tiny Flyers once per
    outcome that destroys one (R002.52), and every step of a Wing's move again."""
    # here: the sweep (and the movement it imports) is no part of how the system measures
    from tactical.geometry.sweep import CONTACT_TOLERANCE

    arrays = BaseArrays.build([u.pose for u in units], [u.base for u in units])
    touching = edge_distance_matrix(arrays) <= CONTACT_TOLERANCE
    return bool(np.all(connected_components(touching) == 0))


def removable_for_formation(units: tuple[Unit, ...]) -> tuple[str, ...]:
    """R002.52: the ids whose removal leaves the rest of the Wing a valid formation."""
    return _removable(tuple(units))


@lru_cache(maxsize=1024)
def _removable(units: tuple[Unit, ...]) -> tuple[str, ...]:
    """`removable_for_formation` by the units' values: asked again for the same Wing by
    every outcome of an attack's exact odds that destroys one of its Tiny Flyers."""
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
