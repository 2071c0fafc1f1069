"""A model's move in segment 2a, played through the generic action protocol.

The path is planned by `tactical.geometry.movement.plan_path` under the unit's turning
rules (`movement.turning_rules`, fed this activation's generator boost from rule_state
`boosts`), and swept against the table by `tactical.geometry.sweep.first_contact`: the
terrain the unit collides with (`RuleSystem.terrain_collides`, R002.35), other models on
its line-of-sight level (a ram) and the table's edge — the same checks
`tactical.session.movement.plan_move` makes for `tactical move` (the rule layer cannot
import the session layer, so the few lines that put them together are repeated here).

Playing it: an illegal path is a UserError citing the violated rule; each Snaking turn
takes a Treacherous Terrain Test (R002.34, A002.10: 1D6, failed on the movement rules'
`treacherous_fails_on`, costing one Hull Point — external); the unit stops at the first
collision or ram (recorded for segment 2b); a Tiny Flyer Wing that leaves the table is
Lost, and any other model's move off it is refused (R002.59; option `lost_off_table`).
The unit stops just short of any contact, so it never ends on another model and the
readjustment of R002.33 is not needed here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from operator import is_
from typing import Any

import numpy as np

from tactical.dice import Dice
from tactical.errors import UserError
from tactical.geometry.movement import (
    Motion,
    PathPlan,
    Translation,
    Violation,
    parse_path,
    plan_path,
)
from tactical.geometry.movement_spec import TurningRules
from tactical.geometry.shapes import Pose
from tactical.geometry.sweep import (
    CONTACT_TOLERANCE,
    Obstacles,
    board_exterior,
    coarse_bounds,
    first_contact,
)
from tactical.model import Board, FrozenMap, GameState, Terrain, Unit
from tactical.model.frozen import remembered
from tactical.rules.base import Event, PlannedMove, Resolution, unit_name
from tactical.rules.dystopian_wars import declaration, movement, tracking
from tactical.rules.dystopian_wars.cards import card
from tactical.rules.dystopian_wars.combat import settings
from tactical.rules.dystopian_wars.dicework import d6
from tactical.rules.dystopian_wars.flyers import formation_valid, lost_off_table
from tactical.rules.dystopian_wars.measures import centres
from tactical.rules.dystopian_wars.resolving import destroy

EDGE = "table-edge"
CONTACT_DISTANCE = 0.01  # inches: bases this close are in a collision or ram (R002.32)


@dataclass(frozen=True)
class Maneuver:
    """A planned move: the path plan, the contact that stops it, where the unit ends."""

    unit: str
    rules: TurningRules
    plan: PathPlan
    contact_kind: str | None  # "terrain", "ram", "edge" or None
    contact_id: str | None
    contact_step: int | None
    final: Pose
    treacherous: tuple[int, ...]  # indices of executed turns needing a TT test
    # the path as declared (its own checks only, without the disengage refusal `plan`
    # holds), the fraction of the stopping motion made, and whether a disengage is refused
    # (R002.32): what the session's preview reads of the move (`planned_move`)
    declared: PathPlan | None = None
    contact_t: float | None = None
    disengage_refused: bool = False

    @property
    def legal(self) -> bool:
        return self.plan.legal and not (
            self.contact_kind == "edge" and not self.rules.lost_off_board
        )

    @property
    def lost(self) -> bool:
        return self.contact_kind == "edge" and self.rules.lost_off_board


def off_table_refusal(state: GameState, unit: Unit) -> str:
    """R002.59: why `unit` may not leave the table, in words (who may, by the option)."""
    who = (
        "only a flying model may, and it is Lost"
        if settings(state)["lost_off_table"] == "flying"
        else "only a Tiny Flyer Wing may leave it, and the Wing is Lost"
    )
    return f"{unit_name(state, unit.id)} would leave the table: {who}"


def turning_rules(state: GameState, unit: Unit) -> TurningRules:
    """The unit's turning rules with this activation's boost (rule-state `boosts`)."""
    return _turning_rules(unit, tracking.mapping(state, "boosts").get(unit.id), state.options)


def _turning_rules(
    unit: Unit, boost: Mapping[str, Any] | None, given: Mapping[str, Any]
) -> TurningRules:
    try:
        return _remembered_rules(unit, boost, given)
    except TypeError:  # a boost or options that are not values: worked out afresh
        return _worked_out_rules(unit, boost, given)


@lru_cache(maxsize=1024)
def _remembered_rules(
    unit: Unit, boost: Mapping[str, Any] | None, given: Mapping[str, Any]
) -> TurningRules:
    """`_worked_out_rules` by value: every path offered, weighed or made for a unit in one
    activation is planned under the same rules (R002.30-R002.34, R002.45, R002.48)."""
    return _worked_out_rules(unit, boost, given)


def _worked_out_rules(
    unit: Unit, boost: Mapping[str, Any] | None, given: Mapping[str, Any]
) -> TurningRules:
    options = dict(given)
    if boost:
        options["activation"] = dict(boost)
    return movement.turning_rules(unit, declaration.settings(options))


def plan(state: GameState, unit: Unit, path: str) -> Maneuver:
    """Plan `unit`'s move along `path` (GEO002.8) and find what stops it (R002.35, R002.59).

    Remembered also by the models near its path (`_near`): the sweep meets only obstacles
    that cross a box around one of its motions, so a table where only models away from the
    path moved plans the same move (the other models of a squadron move one by one, and
    each of their moves is planned again on every table of the segment)."""
    boost = tracking.mapping(state, "boosts").get(unit.id)
    read = (unit, boost, state.options, state.terrain, state.board)
    slot = (*map(id, read), path)
    kept = _NEAR_PLANS.get(slot)
    if kept is not None and all(map(is_, kept[0], read)):
        region, models, found, seen = kept[1], kept[2], kept[3], kept[4]
        if seen is state.units:  # the very table it was planned or found near-alike on
            return found
        if region is None:  # the box and the models in it, worked out when first asked again
            region = _region(unit, found.plan.motions)
            models = _near(models, unit, region)
        near = _near(state.units, unit, region)
        if len(near) == len(models) and all(map(is_, near, models)):
            # the table held (kept beside the plan): asked again on it, nothing to compare
            _NEAR_PLANS[slot] = (read, region, models, found, state.units)
            return found
    found = _plan(unit, path, boost, state.options, state.units, state.terrain, state.board)
    if len(_NEAR_PLANS) >= MAX_NEAR_PLANS:
        _NEAR_PLANS.clear()
    # most paths planned (the computer players weigh many) are never asked again: the
    # models near the path are found from the table's models when one is
    _NEAR_PLANS[slot] = (read, None, state.units, found, state.units)
    return found


# plans by the unit, its boost, the options, terrain and board (kept beside their ids, so
# that no id is reused) and the path; with the box around the path and the models in it
# (None and the table's models until the plan is asked for again), and the last table it
# held for (the same models near the path)
_NEAR_PLANS: dict[tuple[Any, ...], tuple[tuple[Any, ...], Any, tuple, Any, tuple]] = {}
MAX_NEAR_PLANS = 2048
NEAR_MARGIN = 1.0  # inches around the path's boxes: more than any contact tolerance


def planned_move(
    state: GameState, unit: Unit, path: str, rules: TurningRules
) -> PlannedMove | None:
    """`RuleSystem.planned_move` (GEO002.8, R002.32, R002.35, R002.59): the move `plan` makes
    for the move action, as the session's preview reads it; None where the rules the
    preview holds the unit to (`rules`) are not those the move is made under (an option
    read without its default), so that the preview plans it itself as it always did. The
    computer players preview every path they weigh, then try it: one plan serves both."""
    found = plan(state, unit, path)
    if found.rules != rules or found.declared is None:
        return None
    contact = None
    if found.contact_kind is not None:
        assert found.contact_id is not None and found.contact_step is not None
        assert found.contact_t is not None
        contact = (
            found.contact_kind,
            found.contact_id,
            found.contact_step,
            found.contact_t,
            found.final,
        )
    return PlannedMove(found.rules, found.declared, contact, found.disengage_refused)


def _region(unit: Unit, motions: tuple[Motion, ...]) -> tuple[float, float, float, float]:
    """A box holding the unit where it stands and every box the sweep queries along its
    path (`coarse_bounds`, with the whole base: the sweep's is shrunk), `NEAR_MARGIN` wider:
    an obstacle outside it is never a candidate of the sweep, nor in contact at the start."""
    r = unit.base.radius
    boxes = [(unit.x - r, unit.y - r, unit.x + r, unit.y + r)]
    boxes += [coarse_bounds(motion, unit.base) for motion in motions]
    return (
        min(b[0] for b in boxes) - NEAR_MARGIN,
        min(b[1] for b in boxes) - NEAR_MARGIN,
        max(b[2] for b in boxes) + NEAR_MARGIN,
        max(b[3] for b in boxes) + NEAR_MARGIN,
    )


def _near(
    units: tuple[Unit, ...], unit: Unit, region: tuple[float, float, float, float]
) -> tuple[Unit, ...]:
    """The other models whose bases may reach into `region` (their circumscribed circle
    does), in table order."""
    x0, y0, x1, y1 = region
    found = []
    me = unit.id
    for other, other_id, x, y, radius in remembered(_ROWS, units, _rows, MAX_ROWS):
        if other_id == me:
            continue
        dx = max(x0 - x, 0.0, x - x1)
        dy = max(y0 - y, 0.0, y - y1)
        if math.hypot(dx, dy) <= radius:
            found.append(other)
    return tuple(found)


def _rows(units: tuple[Unit, ...]) -> tuple[tuple[Unit, str, float, float, float], ...]:
    """Each model with what `_near` reads of it (its id, centre and circumradius), read once
    per table: every path planned on it asks them again."""
    return tuple((u, u.id, u.x, u.y, u.base.radius) for u in units)


# the rows of a table's models, by the units' tuple itself (kept beside it)
_ROWS: dict[int, tuple[Any, Any]] = {}
MAX_ROWS = 256


@lru_cache(maxsize=512)
def _plan(
    unit: Unit,
    path: str,
    boost: Mapping[str, Any] | None,
    options: Mapping[str, Any],
    units: tuple[Unit, ...],
    terrain: tuple[Terrain, ...],
    board: Board,
) -> Maneuver:
    """`plan` from everything it reads, by value: the same move is planned again and again
    (offered as the default path at every step of an activation, weighed by the computer
    players, then made) on a table where nothing it reads changed."""
    rules, planned = _path_plan(unit, path, boost, options)
    obstacles, allowed, others = _obstacles(unit, units, terrain, board)
    contact = first_contact(
        planned.motions, unit.base, obstacles, allowed, ignore_touching=planned.disengage
    )
    declared = planned
    refused = planned.disengage and not _in_contact(unit, obstacles, allowed)
    if refused:
        planned = replace(
            planned,
            violations=(
                *planned.violations,
                Violation(
                    rules.disengage_rule,
                    "only a unit in a collision or ram may disengage by rotating about its centre",
                ),
            ),
        )
    executed = planned.steps
    kind = contact_id = None
    step = t = None
    final = planned.end
    if contact is not None:
        step, t = contact.motion, contact.t
        executed = planned.steps[: contact.motion + 1]
        final = contact.pose
        terrain_count = len(terrain)
        if contact.obstacle < terrain_count:
            kind, contact_id = "terrain", terrain[contact.obstacle].id
        elif contact.obstacle < terrain_count + len(others):
            kind, contact_id = "ram", others[contact.obstacle - terrain_count].id
        else:
            kind, contact_id = "edge", EDGE
    treacherous = tuple(
        s.index for s in executed if s.treacherous and (step is None or s.index < step)
    )
    return Maneuver(
        unit.id, rules, planned, kind, contact_id, step, final, treacherous, declared, t, refused
    )


@lru_cache(maxsize=1024)
def _path_plan(
    unit: Unit, path: str, boost: Mapping[str, Any] | None, options: Mapping[str, Any]
) -> tuple[TurningRules, PathPlan]:
    """The unit's rules and its path applied to them (GEO002.8), by all they read: a move
    is planned again wherever a model near its path moved (`plan`), its path the same
    (the squadron's next model's default path after each move of the one before)."""
    rules = _turning_rules(unit, boost, options)
    return rules, plan_path(unit.pose, unit.base, parse_path(path), rules)


def _obstacles(
    unit: Unit, units: tuple[Unit, ...], terrain: tuple[Terrain, ...], board: Board
) -> tuple[Obstacles, np.ndarray, tuple[Unit, ...]]:
    """What `unit`'s moves are swept against (R002.35, R002.59): the terrain, the models, the
    table's outside, indexed once per table (every model moved or weighed on it meets the
    same ones); which of them it collides with (never its own base); the models, in the
    table's order. Kept by the very objects read (beside their ids, so that no id is
    reused): every path offered or weighed for a unit on one table meets the same ones."""
    read = (units, terrain, board)
    slot = tuple(map(id, read))
    found = _OBSTACLES.get(slot)
    if found is None or not all(map(is_, found[0], read)):
        geometries = [t.geometry for t in terrain] + [u.footprint for u in units]
        geometries.append(board_exterior(board.width, board.height))
        found = (read, Obstacles(geometries), {})
        if len(_OBSTACLES) >= MAX_OBSTACLES:
            _OBSTACLES.clear()
        _OBSTACLES[slot] = found
    obstacles, masks = found[1], found[2]
    mask = masks.get(id(unit))
    if mask is None or mask[0] is not unit:
        level = declaration.los_level(unit)
        allowed = np.array(
            [movement.terrain_collides(unit, t) for t in terrain]
            + [u.id != unit.id and declaration.los_level(u) == level for u in units]
            + [True],
            dtype=bool,
        )
        allowed.setflags(write=False)  # shared by every plan of the unit on this table
        mask = masks[id(unit)] = (unit, allowed)  # the unit kept beside its id
    return obstacles, mask[1], units


# the obstacles of a table by the very objects read, with each unit's mask by its identity
_OBSTACLES: dict[tuple[int, ...], tuple[tuple[object, ...], Obstacles, dict[int, Any]]] = {}
MAX_OBSTACLES = 64


def _in_contact(unit: Unit, obstacles: Obstacles, allowed: np.ndarray) -> bool:
    """R002.32: whether the unit touches (within `CONTACT_DISTANCE`) colliding terrain or a
    model on its level — what it may disengage from (the table's edge is not)."""
    near = obstacles.tree.query(unit.footprint, predicate="dwithin", distance=CONTACT_DISTANCE)
    return any(allowed[i] and i < len(allowed) - 1 for i in near)


def default_path(state: GameState, unit: Unit) -> str:
    """A legal path to offer first: straight ahead as far as the unit may, else shorter,
    else turning to the side with more room (GEO002.8).

    A candidate whose first motion goes straight as far as a contact an earlier one met
    (and farther) meets it too, so it is passed over unplanned: a unit hemmed in by terrain
    is offered its path after one sweep, not six."""
    candidates = default_candidates(turning_rules(state, unit))
    stopped_by = None  # where straight ahead the unit certainly meets something
    for candidate in candidates:
        if stopped_by is not None and _stopped_within(state, unit, candidate, stopped_by):
            continue  # not clear, whatever else the plan says
        found = plan(state, unit, candidate)
        if found.legal and found.contact_kind is None:
            return candidate
        if stopped_by is None:
            stopped_by = _straight_contact(found)
    for candidate in candidates:
        if plan(state, unit, candidate).legal:
            return candidate
    return candidates[0]


def default_candidates(rules: TurningRules) -> list[str]:
    """The paths `default_path` asks, in order: straight on all the way, half way, then a
    turn each side after the least straight move (GEO002.8, R002.30)."""
    move = rules.max_distance or 0.0
    least = max(rules.min_total_distance, rules.min_straight_before_turn)
    half = max(least, move / 2)
    candidates = [f"F{move:g}", f"F{half:g}"]
    if least:
        for side in ("P", "S"):
            candidates.append(f"F{least:g} {side}45 F{max(0.0, move - least):g}")
            candidates.append(f"F{least:g} {side}45 {side}45")
    else:
        candidates += ["P45", "S45", "P45 P45", "S45 S45"]
    return candidates


def _straight_contact(found: Maneuver) -> tuple[Translation, float] | None:
    """The straight first motion of a planned move stopped on it, and how far along it the
    unit certainly touches (the stop is `CONTACT_TOLERANCE`/2 short of the touch: a whole
    tolerance more is past it); None for any other move."""
    if found.contact_step != 0 or found.contact_t is None or found.declared is None:
        return None
    first = found.declared.motions[0]
    if not isinstance(first, Translation) or first.distance <= 0 or found.declared.disengage:
        return None
    return first, found.contact_t * first.distance + CONTACT_TOLERANCE


def _stopped_within(
    state: GameState, unit: Unit, path: str, stopped: tuple[Translation, float]
) -> bool:
    """Whether `path`'s move certainly meets an obstacle (R002.35, R002.59) without sweeping
    it: its first motion goes straight ahead from the same pose as `stopped`'s, as far as
    that contact or farther, and so meets it (or one before it) on the same obstacles, the
    same ones ignored where the unit starts (GEO002.8)."""
    first, reach = stopped
    _, planned = _path_plan(
        unit, path, tracking.mapping(state, "boosts").get(unit.id), state.options
    )
    if not planned.steps or planned.disengage:
        return False
    motion = planned.motions[0]
    return (
        isinstance(motion, Translation) and motion.start == first.start and motion.distance >= reach
    )


def move(
    state: GameState, unit: Unit, path: str, dice: Dice
) -> tuple[Resolution, Mapping[str, Any] | None]:
    """Play the move (see the module doc); returns the resolution and the collision, if any."""
    found = plan(state, unit, path)
    for violation in found.plan.violations:
        raise UserError(
            f"illegal move for {unit.id!r}: {violation.message}", spec_id=violation.rule
        )
    if found.contact_kind == "edge" and not found.rules.lost_off_board:
        raise UserError(off_table_refusal(state, unit), spec_id="R002.59")
    events = [
        Event.of(
            "move",
            "GEO002.8",
            unit=unit.id,
            path=path,
            x=round(found.final.x, 4),
            y=round(found.final.y, 4),
            heading=round(found.final.heading, 4),
            distance=round(found.plan.distance, 4),
            boost=tracking.mapping(state, "boosts").get(unit.id),
        )
    ]
    damage = 0
    for index in found.treacherous:
        token = found.plan.steps[index].step.token
        value, event = d6(
            dice, unit.id, f"Treacherous Terrain Test, Snaking turn {token}", "R002.34"
        )
        failed = value <= found.rules.treacherous_fails_on
        damage += failed
        events += [
            event,
            Event.of(
                "treacherous-terrain",
                "R002.34",
                unit=unit.id,
                turn=token,
                roll=value,
                failed=failed,
                keeps_moving=True,
            ),
        ]
    collision = None
    if found.lost:
        events.append(Event.of("lost", "R002.59", unit=unit.id, wing=card(unit).squadron))
        return Resolution(lost_off_table(state, unit), tuple(events), "lost"), None
    moved = state.replace_unit(unit.moved_to(found.final))
    if found.contact_kind in ("terrain", "ram"):
        collision = FrozenMap(unit=unit.id, kind=found.contact_kind, obstacle=found.contact_id)
        events.append(
            Event.of(
                "collision" if found.contact_kind == "terrain" else "ram",
                "R002.35" if found.contact_kind == "terrain" else "R002.28",
                unit=unit.id,
                obstacle=found.contact_id,
                step=found.contact_step,
            )
        )
    if damage:
        lost = tracking.hull_lost(moved, unit.id) + damage
        moved = tracking.put_in(moved, "hull_lost", unit.id, lost)
        events.append(
            Event.of("damage", "G.5", unit=unit.id, hull_lost=damage, cause="Treacherous Terrain")
        )
        if lost >= card(unit).hull_points:
            moved = destroy(moved, moved.unit(unit.id))
            events.append(Event.of("destroyed", "G.5", unit=unit.id))
    summary = (found.contact_kind or "clear", damage)
    return Resolution(moved, tuple(events), summary), collision


def _leading_first(units: tuple[Unit, ...]) -> list[Unit]:
    """The Wing's TFs ordered front to back along their heading, so none rams another."""
    pose = units[0].pose
    forward = np.subtract(pose.to_world(0.0, 1.0), (pose.x, pose.y))
    ahead = centres(units) @ forward
    return [units[i] for i in np.argsort(-ahead, kind="stable")]


def wing_path_keeps_formation(state: GameState, units: tuple[Unit, ...], path: str) -> bool:
    """Whether every TF can legally take `path` (leading TF first) and the Wing ends in a
    valid formation (R002.52). Planned only: no dice, nothing changed."""
    current = state
    for unit in _leading_first(units):
        found = plan(current, current.unit(unit.id), path)
        if not found.legal or found.lost:
            return False
        current = current.replace_unit(current.unit(unit.id).moved_to(found.final))
    return formation_valid(tuple(current.unit(u.id) for u in units))


def move_wing(
    state: GameState, units: tuple[Unit, ...], path: str, dice: Dice
) -> tuple[Resolution, tuple[Mapping[str, Any], ...]]:
    """A Tiny Flyer Wing moved as a formation: every TF along the same path, the leading TF
    first so none rams another; the Wing must still be a valid formation (R002.52)."""
    if not units:
        raise UserError("the Wing has no Tiny Flyers on the table", spec_id="R002.52")
    events: list[Event] = []
    collisions = []
    summaries = []
    current = state
    for unit in _leading_first(units):
        if not current.has_unit(unit.id):
            continue
        resolution, collision = move(current, current.unit(unit.id), path, dice)
        current = resolution.state
        events.extend(resolution.events)
        summaries.append(resolution.summary)
        if collision:
            collisions.append(collision)
    remaining = tuple(current.unit(u.id) for u in units if current.has_unit(u.id))
    if remaining and not formation_valid(remaining):
        raise UserError(
            f"moving the Wing along {path!r} breaks its formation: every Tiny Flyer must stay "
            "in base contact with the Wing",
            spec_id="R002.52",
        )
    events.append(
        Event.of("wing-formation", "R002.52", units=tuple(u.id for u in remaining), valid=True)
    )
    return Resolution(current, tuple(events), tuple(summaries)), tuple(collisions)


def default_wing_path(state: GameState, units: tuple[Unit, ...]) -> str | None:
    """A path that keeps the Wing in formation, straight ahead as far as it can; None when
    no straight move does (the Wing then stays where it is)."""
    move_limit = min((turning_rules(state, u).max_distance or 0.0) for u in units)
    for fraction in (1.0, 0.75, 0.5, 0.25, 0.1):
        path = f"F{round(move_limit * fraction, 2):g}"
        if wing_path_keeps_formation(state, units, path):
            return path
    return None
