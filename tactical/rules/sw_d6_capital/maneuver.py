"""Moving a ship as a declared action: the Movement Phase (R004.50) and a Tactical
Masterstroke move in the Action Phase (R004.40).

The path is checked by the same code as `tactical move`: the path tokens of
`tactical.geometry.movement.parse_path`, planned by `plan_path` against the
ship's `TurningRules` from `sw_d6_capital.movement` (speeds from Space, the
45°/90° turn limits of R004.51, the declared speed). On top of that:

- the speed is the one declared with the orders (the unit's `speed` stat),
  capped by Lost Moves (T004.13) — a ship dead in space does not move;
- at 0D Maneuverability the ship keeps its heading and speed (R004.41): the
  only legal move is straight ahead its full distance;
- the base is swept along the path (`tactical.geometry.sweep`): it stops at the
  first model or obstructing terrain (a planet) it meets, and may not leave
  the table (GEO004.1);
- GEO004.7 hazards: a path that crosses other terrain (asteroids, debris) or
  passes within `hazard_proximity` inches of another capital-scale ship is a
  tricky manoeuvre: a Piloting roll (the CSO, with every skill penalty, MAP and
  the Command Tracker) against `hazard_difficulty` [external, default Moderate
  15]. Reading adopted for a failure: the ship halts where the hazard begins.

Rule-system modules may not import the session layer, so this re-uses the
geometry functions the session's `plan_move` is built from (not pymunk).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

import numpy as np
import shapely

from tactical.dice import Dice, enumerate_outcomes
from tactical.errors import UserError
from tactical.geometry.movement import PathPlan, StepKind, parse_path, plan_path
from tactical.geometry.shapes import Pose, footprint
from tactical.geometry.sweep import (
    Obstacles,
    board_exterior,
    coarse_bounds,
    first_contact,
    swept_path,
)
from tactical.model import GameState, Terrain, Unit
from tactical.model.frozen import memo_of
from tactical.rules.base import Event
from tactical.rules.sw_d6_capital import ledger
from tactical.rules.sw_d6_capital import movement as ship_movement
from tactical.rules.sw_d6_capital.codes import CodeRoll, code_text, roll_code
from tactical.rules.sw_d6_capital.condition import Condition
from tactical.rules.sw_d6_capital.deck import Deck, deck_of
from tactical.rules.sw_d6_capital.options import tie_succeeds
from tactical.rules.sw_d6_capital.tables import PIPS_PER_DIE, SPEED_ORDER, succeeds

EDGE = "table-edge"


def terrain_collides(unit: Unit, terrain: Terrain) -> bool:
    """A ship (any ship: `RuleSystem.terrain_collides`) collides only with obstructing terrain
    (a planet, a moon); asteroid fields and debris are hazards to pilot through (GEO004.7)."""
    return terrain.kind == "obstructing"


def effective_speed(unit: Unit, deck: Deck, condition: Condition) -> str:
    """The declared speed capped by the Lost Moves limit (T004.13)."""
    declared = str(unit.stats.get("speed", deck.speed))
    limit = condition.max_speed()
    if SPEED_ORDER.index(declared) > SPEED_ORDER.index(limit):
        return limit
    return declared


def speed_distance(unit: Unit, speed: str, options: dict[str, Any]) -> float:
    """Inches the ship may move at `speed` (T004.14 via the movement rules)."""
    rules = ship_movement.turning_rules(unit, {**options, "activation": {"speed": speed}})
    return float(rules.max_distance or 0.0)


def default_path(unit: Unit, deck: Deck, condition: Condition, options: dict[str, Any]) -> str:
    """Straight ahead the full distance of the ship's speed (what a panel offers first)."""
    distance = speed_distance(unit, effective_speed(unit, deck, condition), options)
    return f"F{round(distance, 4):g}" if distance > 0 else ""


def piloting_code(deck: Deck, condition: Condition, turn: int, batch_map: int = 0) -> int:
    """GEO004.7: a Piloting roll — CSO with the skill penalties, the -4D of Sensors Destroyed
    (T004.9 #6), the MAPs, and the Command Tracker (R004.16)."""
    return (
        deck.cso.pips
        - condition.skill_penalty(turn)
        - condition.sensors_destroyed
        - condition.action_map()
        - PIPS_PER_DIE * batch_map
        + condition.command_mod
    )


@dataclass(frozen=True)
class ShipMove:
    """A checked move: the path plan, where a collision stops it, the hazards it meets."""

    unit: str
    speed: str
    path: str
    plan: PathPlan
    final: Pose
    collision: str | None
    hazards: tuple[str, ...]
    hazard_stop: Pose | None
    piloting_pips: int
    difficulty: int


def _other_units(state: GameState, unit: Unit) -> list[Unit]:
    turn = ledger.turn_of(state)
    return [
        u
        for u in state.units
        if u.id != unit.id and not ledger.condition(state, u.id).recovering(turn)
    ]


def plan_ship_move(
    state: GameState, unit_id: str, path: str | None, batch_map: int = 0
) -> ShipMove:
    """Check a declared move (UserError with the SPEC id when it is illegal); remembered
    while the state lives (R004.50: a pure function of the two): the computer players
    weigh a move's sampled roll, its exact odds (each outcome replays it on the same state)
    and then make it. A refused move raises each time."""
    memo = memo_of(_PLANNED, state)
    key = (unit_id, path, batch_map)
    found = memo.get(key)
    if found is None:
        found = memo[key] = _plan_ship_move(state, unit_id, path, batch_map)
    return found


_PLANNED: dict[int, tuple[Any, dict]] = {}  # by the state's identity (`memo_of`)


def _plan_ship_move(state: GameState, unit_id: str, path: str | None, batch_map: int) -> ShipMove:
    options = dict(ledger.settings(state))
    unit, deck, cond = ledger.ship(state, unit_id)
    turn = ledger.turn_of(state)
    if cond.out_of_action(turn):
        raise UserError(f"{unit_id!r} cannot move now", spec_id="R004.50")
    if cond.controls_dead:
        raise UserError(f"{unit_id!r} is Controls Dead and adrift", spec_id="R004.44")
    if cond.moved:
        raise UserError(f"{unit_id!r} has moved this turn", spec_id="R004.50")
    speed = effective_speed(unit, deck, cond)
    if speed == "stationary":
        raise UserError(
            f"{unit_id!r} is stationary this turn (declared, or dead in space)", spec_id="R004.45"
        )
    text = path if path else default_path(unit, deck, cond, options)
    steps = parse_path(text)
    rules = ship_movement.turning_rules(unit, {**options, "activation": {"speed": speed}})
    planned = plan_path(unit.pose, unit.base, steps, rules)
    if planned.violations:
        first = planned.violations[0]
        raise UserError(f"illegal move for {unit_id!r}: {first.message}", spec_id=first.rule)
    if cond.maneuverability(deck) <= 0:
        full = float(rules.max_distance or 0.0)
        straight = all(step.kind is StepKind.FORWARD for step in steps)
        if not straight or abs(planned.distance - full) > 1e-6:
            raise UserError(
                f"{unit_id!r} is at 0D Maneuverability: it keeps its heading and speed "
                f"(straight ahead F{full:g})",
                spec_id="R004.41",
            )
    motions = planned.motions
    table = _table_for(state, unit, float(options["hazard_proximity"]))
    names = table.names
    contact = first_contact(motions, unit.base, table.obstacles)
    final = planned.end
    collision = None
    executed = motions
    if contact is not None:
        collision = names[contact.obstacle]
        if collision == EDGE:
            raise UserError(
                f"{unit_id!r} would leave the table at ({contact.pose.x:.2f}, "
                f"{contact.pose.y:.2f})",
                spec_id="GEO004.1",
            )
        final = contact.pose
        executed = (*motions[: contact.motion], motions[contact.motion].part(0.0, contact.t))
    hazards, hazard_geoms = table.hazards, table.hazard_geometries
    met: tuple[str, ...] = ()
    stop = None
    if hazard_geoms and _may_meet(executed, unit, table.hazard_bounds):
        swept = swept_path(executed, unit.base) if executed else footprint(unit.pose, unit.base)
        hits = shapely.intersects(swept, np.array(hazard_geoms, dtype=object))
        met = tuple(name for name, hit in zip(hazards, hits, strict=True) if hit)
        if met:
            inside = [g for g, hit in zip(hazard_geoms, hits, strict=True) if hit]
            found = first_contact(executed, unit.base, Obstacles(inside))
            stop = found.pose if found is not None else unit.pose
    return ShipMove(
        unit=unit_id,
        speed=speed,
        path=text,
        plan=planned,
        final=final,
        collision=collision,
        hazards=met,
        hazard_stop=stop,
        piloting_pips=piloting_code(deck, cond, turn, batch_map),
        difficulty=int(options["hazard_difficulty"]),
    )


@dataclass(frozen=True, eq=False)
class _Table:
    """What a ship's moves meet on one table, whatever its path: what stops it (colliding
    terrain, the other ships on the field, the table's edge: GEO004.1, R004.50) indexed
    once, and the hazards that call for a Piloting check (GEO004.7)."""

    obstacles: Obstacles
    names: list[str]
    hazards: list[str]
    hazard_geometries: list[Any]

    @cached_property
    def hazard_bounds(self) -> np.ndarray:
        """Each hazard's box (xmin, ymin, xmax, ymax), a row each."""
        return shapely.bounds(np.array(self.hazard_geometries, dtype=object)).reshape(-1, 4)


NEAR = 0.01  # inches: a sweep's box grown by this before hazards are looked for in it


def _may_meet(motions: Sequence[Any], unit: Unit, hazards: np.ndarray) -> bool:
    """Whether any hazard's box comes near the box around everything the moves sweep
    (`coarse_bounds`): where none does, the path meets no hazard (GEO004.7), and its swept
    area need not be made."""
    if not motions:
        return True  # (the base where it stands: read as it is)
    boxes = np.array([coarse_bounds(motion, unit.base) for motion in motions])
    xmin, ymin = boxes[:, 0].min() - NEAR, boxes[:, 1].min() - NEAR
    xmax, ymax = boxes[:, 2].max() + NEAR, boxes[:, 3].max() + NEAR
    return bool(
        np.any(
            (hazards[:, 0] <= xmax)
            & (hazards[:, 2] >= xmin)
            & (hazards[:, 1] <= ymax)
            & (hazards[:, 3] >= ymin)
        )
    )


def _table_for(state: GameState, unit: Unit, proximity: float) -> _Table:
    """`_Table` of `unit` on `state`, made once per state and ship (the computer players
    check every candidate path of a ship on one table)."""
    memo = memo_of(_TABLES, state)
    key = (unit.id, proximity)
    found = memo.get(key)
    if found is None or found[0] is not unit:
        others = _other_units(state, unit)
        solid = [t for t in state.terrain if terrain_collides(unit, t)]
        geometries = [t.geometry for t in solid] + [u.footprint for u in others]
        geometries.append(board_exterior(state.board.width, state.board.height))
        names = [t.id for t in solid] + [u.id for u in others] + [EDGE]
        hazards, hazard_geometries = _hazards(state, unit, others, proximity)
        table = _Table(Obstacles(geometries), names, hazards, hazard_geometries)
        found = memo[key] = (unit, table)
    return found[1]


_TABLES: dict[int, tuple[Any, dict]] = {}  # by the state's identity (`memo_of`)


def _hazards(
    state: GameState, unit: Unit, others: Sequence[Unit], proximity: float
) -> tuple[list[str], list[Any]]:
    """GEO004.7: non-colliding terrain, and the space close to other capital-scale ships."""
    names, geometries = [], []
    for piece in state.terrain:
        if not terrain_collides(unit, piece):
            names.append(piece.id)
            geometries.append(piece.geometry)
    for other in others:
        if deck_of(other).large_ship and proximity > 0:
            names.append(other.id)
            geometries.append(other.footprint.buffer(proximity))
    return names, geometries


def piloting_roll(
    ship: str, pips: int, difficulty: int, dice: Dice, meet_or_beat: bool = True
) -> tuple[CodeRoll, bool]:
    roll = roll_code(pips, dice, who=ship, what="piloting")
    return roll, succeeds(roll.total, difficulty, meet_or_beat)


def piloting_odds(move: ShipMove, meet_or_beat: bool = True):
    """Exact P(the Piloting check succeeds), enumerating `piloting_roll` itself."""
    return enumerate_outcomes(
        lambda dice: piloting_roll(
            move.unit, move.piloting_pips, move.difficulty, dice, meet_or_beat
        )[1]
    ).sorted()


def carry_out(
    state: GameState, move: ShipMove, dice: Dice, masterstroke: bool = False
) -> tuple[GameState, tuple[Event, ...], str]:
    """Make a checked move: the Piloting check if it meets a hazard, then the new pose."""
    # R004.50: a Piloting check is a base-rules skill roll, not a to-hit roll (R004.5)
    meet = tie_succeeds(ledger.settings(state), to_hit=False)
    unit, _deck, cond = ledger.ship(state, move.unit)
    events: list[Event] = [
        Event.of(
            "move",
            "R004.40" if masterstroke else "R004.50",
            unit=move.unit,
            speed=move.speed,
            path=move.path,
            distance=round(move.plan.distance, 6),
        )
    ]
    final, outcome = move.final, "moved"
    if move.collision is not None:
        events.append(
            Event.of(
                "collision", "R004.50", unit=move.unit, hit=move.collision, x=final.x, y=final.y
            )
        )
        outcome = "collided"
    if move.hazards:
        roll, passed = piloting_roll(move.unit, move.piloting_pips, move.difficulty, dice, meet)
        events.append(roll.event(move.unit, "piloting", "GEO004.7"))
        events.append(
            Event.of(
                "piloting",
                "GEO004.7",
                hazards=move.hazards,
                code=code_text(move.piloting_pips),
                roll=roll.total,
                difficulty=move.difficulty,
                passed=passed,
            )
        )
        if not passed and move.hazard_stop is not None:
            final, outcome = move.hazard_stop, "halted"
    state = state.replace_unit(unit.moved_to(final))
    cond = replace(cond, moved=True, masterstroke_moved=cond.masterstroke_moved or masterstroke)
    if masterstroke:
        # R004.40: never again from an arc already used this turn, at any target
        used = tuple(dict.fromkeys(arc for _, arc in cond.arcs_at))
        cond = replace(cond, arcs_before_masterstroke=used)
    state = ledger.with_condition(state, move.unit, cond)
    events.append(
        Event.of(
            "position",
            "GEO004.1",
            unit=move.unit,
            x=round(final.x, 6),
            y=round(final.y, 6),
            heading=round(final.heading, 6),
        )
    )
    return state, tuple(events), outcome
