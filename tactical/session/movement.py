"""Planning and playing a unit's move on a table (GEO002.8, R002.30-R002.35, R002.59, R004.51).

`plan_move` answers "where does this move end": it parses the path, applies
the unit's turning rules from its rule system, checks every rule (each
violation cites its SPEC id), sweeps the base along the whole path and stops
it at the first terrain it collides with (`RuleSystem.terrain_collides`), the
first model on its layer (a ram; layer = `RuleSystem.los_level`) or the table
edge (a flying unit that leaves the table is lost, R002.59; any other unit may
not leave it). Turns that need a Treacherous Terrain test (R002.34 Snaking)
are listed, not rolled. The state is never changed.

`play_move` carries a legal plan out with injected dice: it rolls the
Treacherous Terrain tests (each recorded), moves the unit (or removes it when
lost) and, should the unit still end on another model, readjusts them
(R002.33). It returns a new state; an illegal plan raises `UserError` and
changes nothing.

Activation choices (a generator boost roll, a declared speed) are passed as
`activation`, e.g. `{"kinetic": 4}`, `{"tesla": 2}` or `{"speed": "high"}`;
they reach the rule system as `options["activation"]`.
"""

from __future__ import annotations

import weakref
from collections.abc import Hashable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import Any

import shapely

from tactical.dice import D6, Dice, Roll
from tactical.errors import UserError
from tactical.geometry.movement import (
    PathPlan,
    PlannedStep,
    Step,
    StepKind,
    Violation,
    format_path,
    parse_path,
    plan_path,
)
from tactical.geometry.movement_spec import TurningRules
from tactical.geometry.shapes import Base, Pose
from tactical.geometry.sweep import coarse_bounds, swept_pieces
from tactical.model import GameState, Terrain, Unit
from tactical.physics.contacts import PathContact, TableObstacles
from tactical.physics.overlap import Displacement, overlapping_pairs, resolve_overlaps
from tactical.rules import registry
from tactical.rules.base import RuleSystem

ACTIVATION_KEY = "activation"
DECIMALS = 4  # inches and degrees in JSON output

_OBSTACLE_CACHE: dict[int, tuple[weakref.ref[GameState], TableObstacles]] = {}
_CACHE_SIZE = 8


def table_obstacles(state: GameState) -> TableObstacles:
    """The state's terrain, units and table edge indexed once (cached while the state lives)."""
    cached = _OBSTACLE_CACHE.get(id(state))
    if cached is not None and cached[0]() is state:
        return cached[1]
    obstacles = TableObstacles(state.terrain, state.units, (state.board.width, state.board.height))
    if len(_OBSTACLE_CACHE) >= _CACHE_SIZE:
        _OBSTACLE_CACHE.pop(next(iter(_OBSTACLE_CACHE)))
    _OBSTACLE_CACHE[id(state)] = (weakref.ref(state), obstacles)
    return obstacles


def find_unit(state: GameState, unit_id: str) -> Unit:
    """The unit with this id, or a UserError listing the ids on the map."""
    try:
        return state.unit(unit_id)
    except KeyError:
        known = ", ".join(u.id for u in state.units[:20]) or "none"
        more = " ..." if len(state.units) > 20 else ""
        raise UserError(f"no unit {unit_id!r} on this map; units: {known}{more}") from None


def turning_rules_for(
    system: RuleSystem, state: GameState, unit: Unit, activation: Mapping[str, Any] | None
) -> TurningRules:
    """`unit`'s turning rules now: the declared activation, else what the rule system's
    state gives this unit (`RuleSystem.move_activation`: a boost rolled this activation)."""
    options = dict(state.options)
    if not activation:
        activation = system.move_activation(state, unit)
    if activation:
        options[ACTIVATION_KEY] = dict(activation)
    return system.turning_rules(unit, options)


@dataclass(frozen=True)
class MovePlan:
    """A move planned on a table: the declared path, what stops it, where the unit ends."""

    unit_id: str
    rules: TurningRules
    base: Base
    path: PathPlan  # the whole path as declared, with its rule checks
    executed: tuple[PlannedStep, ...]  # the steps actually made (the last one partial if stopped)
    contact: PathContact | None  # the first obstacle met (terrain, ram or the table edge)
    violations: tuple[Violation, ...]

    @property
    def final(self) -> Pose:
        return self.executed[-1].end if self.executed else self.path.start

    @property
    def legal(self) -> bool:
        return not self.violations

    @property
    def distance(self) -> float:
        """Inches actually moved (straight steps; turns pivot)."""
        return sum(_moved(step) for step in self.executed)

    @property
    def lost(self) -> bool:
        """R002.59: a flying unit that left the table."""
        return self.left_board and self.rules.lost_off_board

    @property
    def left_board(self) -> bool:
        return self.contact is not None and self.contact.kind == "edge"

    @property
    def collision(self) -> PathContact | None:
        """The terrain collision or ram that stopped the unit (R002.35), None without one."""
        if self.contact is not None and self.contact.kind in ("terrain", "ram"):
            return self.contact
        return None

    @property
    def treacherous_steps(self) -> tuple[PlannedStep, ...]:
        """The turns made that need a Treacherous Terrain test (R002.34)."""
        return tuple(step for step in self.executed if step.treacherous)

    def as_dict(self, state: GameState | None = None) -> dict[str, Any]:
        """The `tactical move --json` answer (docs/architecture.md keys first, then extras)."""
        final = self.final
        tokens = [step.step.token for step in self.path.steps]
        collision = None
        if self.collision is not None:
            hit = self.collision
            collision = {
                "kind": hit.kind,
                "id": hit.id,
                **_pose_dict(hit.pose),
                "step": hit.step,
                "token": tokens[hit.step],
            }
            if state is not None and hit.kind == "terrain":
                collision["terrain_kind"] = state.terrain_piece(hit.id).kind
        left = None
        if self.left_board and self.contact is not None:
            left = {**_pose_dict(self.contact.pose), "step": self.contact.step, "lost": self.lost}
        treacherous = self.treacherous_steps
        return {
            "unit": self.unit_id,
            "path": format_path([s.step for s in self.path.steps]),
            **_pose_dict(final),
            "distance": _round(self.distance),
            "legal": self.legal,
            "violations": [
                {"rule": v.rule, "message": v.message, "step": v.step} for v in self.violations
            ],
            "snaking": bool(treacherous),
            "treacherous_tests": [
                {"step": s.index, "token": s.step.token, "rule": self.rules.snaking_rule}
                for s in treacherous
            ],
            "collision": collision,
            "left_board": left,
            "lost": self.lost,
            "notes": [{"rule": n.rule, "message": n.message} for n in self.path.notes],
            "disengage": self.path.disengage,
            "planned": {**_pose_dict(self.path.end), "distance": _round(self.path.distance)},
            "steps": [
                {"step": s.index, "token": s.step.token, **_pose_dict(s.end)} for s in self.executed
            ],
            "swept_bounds": [_round(v) for v in self.swept_bounds()],
        }

    def swept_bounds(self) -> tuple[float, float, float, float]:
        """(xmin, ymin, xmax, ymax) of the area the base sweeps along the executed path."""
        if not self.executed:
            return (self.final.x, self.final.y, self.final.x, self.final.y)
        return tuple(shapely.total_bounds(self.swept_pieces()).tolist())  # type: ignore[return-value]

    def swept_pieces(self) -> tuple[Any, ...]:
        """Polygons covering the area swept along the executed path (for drawing)."""
        return tuple(p for step in self.executed for p in swept_pieces(step.motion, self.base))


def _moved(step: PlannedStep) -> float:
    if step.step.kind not in (StepKind.FORWARD, StepKind.BACKWARD):
        return 0.0
    return abs(step.motion.distance)  # type: ignore[union-attr]


def _round(value: float) -> float:
    rounded = round(float(value), DECIMALS)
    return 0.0 if rounded == 0 else rounded


def _pose_dict(pose: Pose) -> dict[str, float]:
    heading = _round(pose.heading)
    return {"x": _round(pose.x), "y": _round(pose.y), "heading": 0.0 if heading >= 360 else heading}


def plan_move(
    state: GameState,
    unit_id: str,
    path: str | Sequence[str],
    activation: Mapping[str, Any] | None = None,
) -> MovePlan:
    """Plan `unit_id`'s move along `path` on `state` without changing it (see the module doc)."""
    unit = find_unit(state, unit_id)
    system = registry.get(state.rules)
    memo = _REMEMBERED.get()
    if memo is None:  # planned afresh
        steps = parse_path(path)
        rules = turning_rules_for(system, state, unit, activation)
        planned = plan_path(unit.pose, unit.base, steps, rules)
        return _planned_move(state, system, unit, rules, planned, table_obstacles(state))
    steps = memo.parsed(path)
    if activation:
        rules = turning_rules_for(system, state, unit, activation)
        reads = _unit_reads(state, system, unit)
    else:  # a unit's paths on one table share what they read of it (`_Plans.on_table`)
        rules, reads = memo.on_table(state, system, unit)
        # the rule system's own plan where it has one (a game the computer plays: each path
        # previewed is then tried, and planned once for both)
        ruled = _ruled(state, system, unit, path, rules)
        if ruled is not None:
            return ruled
    planned, bounds = _path_plan(memo, unit, steps, rules)
    obstacles = table_obstacles(state)
    key = _plan_key(state, system, steps, rules, bounds, obstacles, reads)
    found = memo.plans.get(key) if key is not None else None
    if found is not None and found[0] is state.terrain:
        return found[1]
    plan = _planned_move(state, system, unit, rules, planned, obstacles)
    if key is not None:
        if len(memo.plans) >= MAX_PLANS:
            memo.plans.clear()
        memo.plans[key] = (state.terrain, plan)
    return plan


class _Plans:
    """Plans by what they read (`_plan_key`) and paths by their inputs, for one game: the
    computer players plan every unit's moves again after each table move, and a move
    changes one unit, far from most others' paths."""

    __slots__ = ("_parsed", "_tables", "paths", "plans")

    def __init__(self) -> None:
        self.plans: dict[Hashable, tuple[tuple[Terrain, ...], MovePlan]] = {}
        self.paths: dict[Hashable, PathPlan] = {}
        self._parsed: dict[str, tuple[Step, ...]] = {}
        # by the table's identity (kept beside) and the unit: its turning rules and what its
        # plans read of the table besides its path (a player plans several paths a unit)
        self._tables: dict[tuple[int, str], tuple[GameState, TurningRules, Hashable]] = {}

    def parsed(self, path: str | Sequence[str]) -> tuple[Step, ...]:
        """`parse_path`, remembered for a text path (a refused one is parsed again)."""
        if not isinstance(path, str):
            return parse_path(path)
        found = self._parsed.get(path)
        if found is None:
            found = parse_path(path)
            if len(self._parsed) >= MAX_PLANS:
                self._parsed.clear()
            self._parsed[path] = found
        return found

    def on_table(
        self, state: GameState, system: RuleSystem, unit: Unit
    ) -> tuple[TurningRules, Hashable]:
        """The unit's turning rules on `state` with no activation declared
        (`turning_rules_for`) and `_unit_reads`, once per table and unit."""
        key = (id(state), unit.id)
        found = self._tables.get(key)
        if found is not None and found[0] is state:
            return found[1], found[2]
        rules = turning_rules_for(system, state, unit, None)
        reads = _unit_reads(state, system, unit)
        if len(self._tables) >= MAX_TABLES:
            self._tables.clear()
        self._tables[key] = (state, rules, reads)
        return rules, reads


_REMEMBERED: ContextVar[_Plans | None] = ContextVar("plans_remembered", default=None)
MAX_PLANS = 4096  # plans (and paths) one game remembers
MAX_TABLES = 64  # (table, unit) pairs whose turning rules one game remembers (the latest)
NEAR_MARGIN = 0.5  # inches around a path's sweep within which another unit is read


@contextmanager
def plans_remembered() -> Iterator[None]:
    """Plans remembered from table to table inside the block (a whole game the computer
    plays, `agents.play_game`), then forgotten; a block inside another shares its memory."""
    if _REMEMBERED.get() is not None:
        yield
        return
    token = _REMEMBERED.set(_Plans())
    try:
        yield
    finally:
        _REMEMBERED.reset(token)


def _path_plan(
    memo: _Plans, unit: Unit, steps: tuple[Step, ...], rules: TurningRules
) -> tuple[PathPlan, tuple[float, float, float, float]]:
    """`plan_path` from the unit's pose (GEO002.8) and the box its sweep may read
    (`_swept_box`), remembered by their inputs (all values)."""
    key = (unit.pose, unit.base, steps, rules)
    try:
        found = memo.paths.get(key)
    except TypeError:  # a value that cannot be hashed: planned again
        planned = plan_path(unit.pose, unit.base, steps, rules)
        return planned, _swept_box(unit, planned)
    if found is None:
        planned = plan_path(unit.pose, unit.base, steps, rules)
        found = (planned, _swept_box(unit, planned))
        if len(memo.paths) >= MAX_PLANS:
            memo.paths.clear()
        memo.paths[key] = found
    return found


def _swept_box(unit: Unit, planned: PathPlan) -> tuple[float, float, float, float]:
    """The box the path's sweep covers, with the unit where it stands, widened by
    `NEAR_MARGIN`: every unit a plan reads comes within it (`_plan_key`)."""
    boxes = [coarse_bounds(motion, unit.base) for motion in planned.motions]
    boxes.append(unit.footprint.bounds)
    return (
        min(b[0] for b in boxes) - NEAR_MARGIN,
        min(b[1] for b in boxes) - NEAR_MARGIN,
        max(b[2] for b in boxes) + NEAR_MARGIN,
        max(b[3] for b in boxes) + NEAR_MARGIN,
    )


def _plan_key(
    state: GameState,
    system: RuleSystem,
    steps: tuple[Step, ...],
    rules: TurningRules,
    bounds: tuple[float, float, float, float],
    obstacles: TableObstacles,
    reads: Hashable,
) -> Hashable | None:
    """What a move's plan reads of the table: the unit's id, place, base, layer and which
    terrain stops it (`reads`, `_unit_reads`), its path and turning rules, the rule system,
    the board, the terrain (by identity: kept beside the plan), and the id, place, base and
    layer of every unit whose base comes within `bounds` (`_swept_box`: the sweep's broad
    phase and its contact checks read no other, and nothing else of a unit: not its stats);
    None when a part cannot be hashed."""
    layer = system.los_level
    key = (
        state.rules,
        reads,
        steps,
        rules,
        state.board,
        id(state.terrain),
        tuple((u.id, u.pose, u.base, layer(u)) for u in obstacles.units_within(bounds)),
    )
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _unit_reads(state: GameState, system: RuleSystem, unit: Unit) -> Hashable:
    """What a plan reads of the moving unit and the terrain (`_plan_key`): its id, place,
    base and layer, and which pieces stop it."""
    return (
        (unit.id, unit.pose, unit.base, system.los_level(unit)),
        tuple(system.terrain_collides(unit, piece) for piece in state.terrain),
    )


def _planned_move(
    state: GameState,
    system: RuleSystem,
    unit: Unit,
    rules: TurningRules,
    planned: PathPlan,
    obstacles: TableObstacles,
) -> MovePlan:
    """The plan itself: the sweep's first contact (R002.35), the disengage check (R002.32)
    and the table's edge (R002.59)."""
    contact = obstacles.first_contact(
        unit,
        planned.motions,
        lambda piece: system.terrain_collides(unit, piece),
        system.los_level,
        state.rules,
        ignore_touching=planned.disengage,
    )
    refused = planned.disengage and not obstacles.in_contact(
        unit, lambda piece: system.terrain_collides(unit, piece), system.los_level, state.rules
    )
    return _assembled(unit, rules, planned, contact, refused)


def _ruled(
    state: GameState, system: RuleSystem, unit: Unit, path: str | Sequence[str], rules: TurningRules
) -> MovePlan | None:
    """The plan from the rule system's own move planner (`RuleSystem.planned_move`), where it
    plans the move under the same turning rules: the same plan, the table not swept again
    (the computer players preview every path they weigh, then try it); None otherwise."""
    if not isinstance(path, str):
        return None
    found = system.planned_move(state, unit, path, rules)
    if found is None:
        return None
    contact = None if found.contact is None else PathContact(*found.contact)  # type: ignore[arg-type]
    return _assembled(unit, rules, found.path, contact, found.disengage_refused)


def _assembled(
    unit: Unit,
    rules: TurningRules,
    planned: PathPlan,
    contact: PathContact | None,
    disengage_refused: bool,
) -> MovePlan:
    """The plan from the path planned and what stops it: the steps made, and the violations
    (the path's own, a refused disengage, R002.32, and leaving the table, R002.59)."""
    executed = planned.steps
    violations = list(planned.violations)
    if disengage_refused:
        violations.append(
            Violation(
                rules.disengage_rule,
                "only a unit in a collision or ram may disengage by rotating about its centre",
            )
        )
    if contact is not None:
        done = list(planned.steps[: contact.step])
        stopped = planned.steps[contact.step]
        motion = stopped.motion.part(0.0, contact.t)
        done.append(replace(stopped, motion=motion, end=contact.pose))
        executed = tuple(done)
        if contact.kind == "edge" and not rules.lost_off_board:
            violations.append(
                Violation(
                    rules.off_board_rule,
                    f"{stopped.step.token}: the base would leave the table at "
                    f"({contact.pose.x:.2f}, {contact.pose.y:.2f}), and the rules do not let "
                    "this unit leave it",
                    contact.step,
                )
            )
    return MovePlan(unit.id, rules, unit.base, planned, executed, contact, tuple(violations))


@dataclass(frozen=True, slots=True)
class TreacherousTest:
    """One Treacherous Terrain test rolled for a Snaking turn (R002.34)."""

    step: int
    token: str
    roll: int
    failed: bool


@dataclass(frozen=True)
class MoveOutcome:
    """A move played: the new state, the plan, the tests rolled and any readjustment."""

    state: GameState
    plan: MovePlan
    tests: tuple[TreacherousTest, ...]
    rolls: tuple[Roll, ...]
    displacements: tuple[Displacement, ...] = ()


def play_move(
    state: GameState,
    unit_id: str,
    path: str | Sequence[str],
    dice: Dice,
    activation: Mapping[str, Any] | None = None,
) -> MoveOutcome:
    """Play a move with injected dice (see the module doc). Illegal: UserError, nothing changed."""
    plan = plan_move(state, unit_id, path, activation)
    if not plan.legal:
        first = plan.violations[0]
        raise UserError(f"illegal move for {unit_id!r}: {first.message}", spec_id=first.rule)
    system = registry.get(state.rules)
    tests = []
    recorded_from = len(getattr(dice, "rolls", ()))
    for step in plan.treacherous_steps:
        roll = dice.roll(
            D6, who=unit_id, what=f"Treacherous Terrain test, Snaking turn {step.step.token}"
        )
        tests.append(
            TreacherousTest(
                step.index, step.step.token, roll, roll <= plan.rules.treacherous_fails_on
            )
        )
    rolls = tuple(getattr(dice, "rolls", ())[recorded_from:])
    unit = state.unit(unit_id)
    if plan.lost:
        return MoveOutcome(state.without_unit(unit_id), plan, tuple(tests), rolls)
    moved = state.replace_unit(unit.moved_to(plan.final))
    displacements: tuple[Displacement, ...] = ()
    if overlapping_pairs(moved.units, system.los_level, among=[unit_id]):
        resolution = resolve_overlaps(
            moved.units,
            moved.terrain,
            collides=system.terrain_collides,
            layer_of=system.los_level,
            table=(moved.board.width, moved.board.height),
        )
        moved = replace(moved, units=resolution.units)
        displacements = resolution.displacements
    return MoveOutcome(moved, plan, tuple(tests), rolls, displacements)
