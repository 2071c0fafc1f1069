"""Move advice: a unit's candidate end positions ranked by the damage it could deal next
against the damage it would take there. Advice only: nothing is applied.

Dealt: from each end pose, every weapon of the unit (`weapon_reach`: arcs, bands) on
every enemy in arc, in a firing band (measured as the rule system measures) and in line
of sight (the geometry's exact test, with the pieces `blocks_los` names for the pair and
the bases of the models `model_blocking` names, R002.41),
each worth the expected damage of its exact odds (`DamageCache`, per weapon, enemy and
band). Taken: the threat map's expected damage to the unit at the end's cell (the enemy
as they stand now, the unit with its present heading). Ranked by dealt - taken, then by
dealt; each advised move is re-planned with `plan_move` (the planner's exact sweep and
every rule) and dropped if it would be stopped or refused.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from tactical.errors import UserError
from tactical.geometry.arcs_spec import Channel, Omni, Sector
from tactical.geometry.los import TerrainIndex, lines_of_sight
from tactical.geometry.shapes import CircleBase, Pose, RectBase
from tactical.model import GameState, Unit
from tactical.rules import registry
from tactical.session.movement import plan_move
from tactical.threat.damage import DamageCache
from tactical.threat.heatmap import ThreatMap, check_combat, threat_map
from tactical.threat.reach import Reach, reach

SPREAD = 1.0  # inches: advised ends at least this far apart
MAX_CANDIDATES = 240  # end poses scored (evenly picked from the reach when it has more)


@dataclass(frozen=True)
class Advice:
    """One advised move: its path, where it ends, the damage dealt next and taken there."""

    path: str
    pose: Pose
    dealt: float
    taken: float

    @property
    def score(self) -> float:
        return self.dealt - self.taken


def move_advice(
    state: GameState,
    unit_id: str,
    best: int = 3,
    *,
    cache: DamageCache | None = None,
    threat: ThreatMap | None = None,
    found: Reach | None = None,
) -> tuple[Advice, ...]:
    """The `best` moves of `unit_id` by dealt - taken (see the module doc)."""
    system = registry.get(state.rules)
    check_combat(system)
    if not state.has_unit(unit_id):
        known = ", ".join(u.id for u in state.units[:20]) or "none"
        raise UserError(f"unknown unit {unit_id!r}: the units on this map are {known}")
    unit = state.unit(unit_id)
    cache = cache if cache is not None else DamageCache()
    threat = threat or threat_map(state, unit.side, unit.id, cache=cache)
    found = found or reach(state, unit.id)
    if len(found) == 0:
        return ()
    picked = np.unique(np.linspace(0, len(found) - 1, min(len(found), MAX_CANDIDATES)).astype(int))
    poses = found.poses[picked]
    dealt = damage_dealt(state, system, unit, poses, cache)
    taken = np.array([threat.at(x, y)[1] or 0.0 for x, y in poses[:, :2]])
    order = np.lexsort((-dealt, -(dealt - taken)))
    advice: list[Advice] = []
    for k in order:
        path = found.paths[int(picked[k])]
        if path != "stay":
            planned = plan_move(state, unit.id, path)
            if not planned.legal or planned.collision is not None:
                continue
        x, y, heading = poses[k]
        if any(math.hypot(a.pose.x - x, a.pose.y - y) < SPREAD for a in advice):
            continue  # advice is a choice of places, not one place three times
        advice.append(
            Advice(path, Pose(float(x), float(y), float(heading)), float(dealt[k]), float(taken[k]))
        )
        if len(advice) == best:
            break
    return tuple(advice)


def damage_dealt(
    state: GameState, system, unit: Unit, poses: np.ndarray, cache: DamageCache
) -> np.ndarray:
    """Expected damage `unit` could deal next from each pose in `poses` (n, 3)."""
    options = system.options(state.options)
    reaches = [system.weapon_reach(unit, w, options) for w in system.weapons(unit, options)]
    total = np.zeros(len(poses))
    enemies = [u for u in state.units if u.side != unit.side]
    if not reaches or not enemies:
        return total
    index = TerrainIndex.build([t.id for t in state.terrain], [t.geometry for t in state.terrain])
    models = system.model_blocking(state)
    ids = [u.id for u in state.units]
    if models is not None:  # the bases of the models that block sight (R002.41)
        blockers = models.blockers.tolist()
        index = index.with_convex(
            [ids[k] for k in blockers], [state.units[k].footprint for k in blockers]
        )
    for enemy in enemies:
        dx, dy = enemy.x - poses[:, 0], enemy.y - poses[:, 1]
        centre = np.hypot(dx, dy)
        bearing = np.mod(np.degrees(np.arctan2(dx, dy)) - poses[:, 2], 360.0)
        nearest = _to_nearest(enemy, poses[:, 0], poses[:, 1], centre)
        mask = np.array([system.blocks_los(p, unit, enemy) for p in state.terrain], dtype=bool)
        if models is not None:
            # the unit's own base moves with it and the enemy's holds its end: neither blocks
            v, t = ids.index(unit.id), ids.index(enemy.id)
            own = (models.blockers != v) & (models.blockers != t)
            mask = np.concatenate((mask, models.mask[models.levels[v], models.levels[t]] & own))
        clear = (
            lines_of_sight(index, poses[:, :2], np.tile((enemy.x, enemy.y), (len(poses), 1)), mask)
            if mask.any()
            else np.ones(len(poses), dtype=bool)
        )
        extent = _circumradius(enemy)
        for weapon in reaches:
            distance = nearest if system.conventions.distance_to == "nearest" else centre
            if weapon.measured_from == "edge":
                distance = np.maximum(distance - _circumradius(unit), 0.0)
            arcs = _in_arcs(
                weapon.arcs, bearing, centre, extent, system.conventions.arc_test, _half(unit)
            )
            for band in weapon.bands:
                inside = (distance <= band.high + 1e-9) & (
                    distance >= band.low if band.low == 0.0 else distance > band.low + 1e-9
                )
                bears = inside & arcs & clear
                if not bears.any():
                    continue
                first = int(np.flatnonzero(bears)[0])
                x, y, heading = poses[first]
                at = Pose(float(x), float(y), float(heading))
                value = cache.get(state, system, unit, weapon.weapon, band.name, enemy, at=at).value
                total += np.where(bears, value, 0.0)
    return total


def _to_nearest(target: Unit, x: np.ndarray, y: np.ndarray, centre: np.ndarray) -> np.ndarray:
    base = target.base
    if isinstance(base, CircleBase):
        return np.maximum(centre - base.radius, 0.0)
    assert isinstance(base, RectBase)
    h = math.radians(target.heading)
    vx, vy = x - target.x, y - target.y
    lx = vx * math.cos(h) - vy * math.sin(h)
    ly = vx * math.sin(h) + vy * math.cos(h)
    return np.hypot(
        np.maximum(np.abs(lx) - base.width / 2, 0.0), np.maximum(np.abs(ly) - base.length / 2, 0.0)
    )


def _circumradius(unit: Unit) -> float:
    base = unit.base
    return (
        base.radius if isinstance(base, CircleBase) else math.hypot(base.width / 2, base.length / 2)
    )


def _half(unit: Unit) -> float:
    base = unit.base
    return base.radius if isinstance(base, CircleBase) else base.width / 2


def _in_arcs(
    arcs, bearing: np.ndarray, centre: np.ndarray, extent: float, test: str, half: float
) -> np.ndarray:
    """Whether the target (circumscribed by `extent`) is in any of `arcs` from each pose."""
    slack = (
        np.degrees(np.arcsin(np.minimum(1.0, extent / np.maximum(centre, 1e-9))))
        if test == "any"
        else 0.0
    )
    found = np.zeros(bearing.shape, dtype=bool)
    for arc in arcs:
        if isinstance(arc, Omni) or (isinstance(arc, Sector) and arc.span >= 360.0):
            return np.ones(bearing.shape, dtype=bool)
        if isinstance(arc, Sector):
            found |= np.mod(bearing - arc.start + slack, 360.0) <= arc.span + 2 * slack + 1e-9
        elif isinstance(arc, Channel):  # a corridor ahead as wide as the firer's base
            turned = np.radians(bearing)
            grow = extent if test == "any" else 0.0
            found |= (np.abs(np.sin(turned) * centre) <= half + grow) & (np.cos(turned) > 0.0)
    return found
