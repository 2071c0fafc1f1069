"""Moves as data: path steps, turning-template pivots and the checks of GEO002.8.

A path is a sequence of steps (docs/architecture.md "Command line"): `F3` forward 3",
`B1.5` backwards, `P45` / `S30` a turn to port / starboard using the unit's
turning rule, `C90` / `C-90` a rotation about the centre (clockwise positive).
`plan_path` applies the steps to a pose and checks them against the unit's
`TurningRules`, returning every pose on the way, the violations (each citing
its SPEC id) and the turns that need a Treacherous Terrain test.

Readings adopted here (documented so the tests can pin them):

- One `P`/`S` token is one use of the turning template: `P90` is over the 45°
  template (GEO002.8) and refused; `P45 P45` is two uses and allowed, and
  consecutive turns to the same side never snake (R002.34).
- Turns pivot; they do not use up movement. `distance` counts `F` and `B`.
- A path with any `B` step is a backwards move (R002.31): at most 2" in all,
  turns allowed without the Minimum Move, and no forward steps in it.
- Where rotation about the centre is the disengage move (R002.32), a path of
  `C` steps only, totalling at most 90°, is the whole move; a `C` step mixed
  with anything else is refused. Where it is not (free-turning systems) a `C`
  step is an ordinary turn.
- The Minimum Move (R002.30) is straight-ahead distance before the first turn;
  a move that never turns does not have to reach it (only a boosted move has a
  total minimum, R002.45 / R002.48).
- Snaking (R002.34, A002.10): a template turn to the other side from the
  previous turn with less than 1" of straight movement (forwards or backwards)
  since then makes the unit Snaking; that turn and every later turn of the move
  needs a Treacherous Terrain test.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from tactical.errors import UserError
from tactical.geometry.movement_spec import Note, Pivot, TurningRules
from tactical.geometry.shapes import Base, CircleBase, Pose

EPSILON = 1e-9  # inches or degrees: a limit met to within this is met
MAX_STEPS = 200  # a longer path is certainly a mistake

PORT, STARBOARD = -1, 1


class StepKind(StrEnum):
    """The five kinds of path step."""

    FORWARD = "F"
    BACKWARD = "B"
    PORT = "P"
    STARBOARD = "S"
    CENTRE = "C"


@dataclass(frozen=True, slots=True)
class Step:
    """One path token: inches for F/B, degrees (> 0) for P/S, signed degrees for C."""

    kind: StepKind
    amount: float

    @property
    def token(self) -> str:
        return f"{self.kind.value}{self.amount:g}"

    @property
    def is_turn(self) -> bool:
        return self.kind in (StepKind.PORT, StepKind.STARBOARD, StepKind.CENTRE)

    @property
    def side(self) -> int:
        """-1 port, +1 starboard (C steps by their sign), 0 for straight steps."""
        if self.kind is StepKind.PORT:
            return PORT
        if self.kind is StepKind.STARBOARD:
            return STARBOARD
        if self.kind is StepKind.CENTRE:
            return STARBOARD if self.amount > 0 else PORT
        return 0

    @property
    def heading_change(self) -> float:
        """Signed change of heading in degrees, clockwise positive."""
        if self.kind is StepKind.CENTRE:
            return self.amount
        return self.side * self.amount if self.is_turn else 0.0


_TOKEN = re.compile(r"([A-Za-z])([+-]?(?:\d+(?:\.\d*)?|\.\d+))(?:\"|°)?")
_SEPARATOR = re.compile(r"[\s,;]*")
_EXPECTED = 'expected F<inches>, B<inches>, P<degrees>, S<degrees> or C<±degrees>, e.g. "F3 P45 F2"'


def parse_path(path: str | Sequence[str]) -> tuple[Step, ...]:
    """Parse a path such as "F3 P45 F2" (tokens separated by spaces or commas). GEO002.8.

    Raises `UserError` naming the offending token and what was expected.
    """
    text = path if isinstance(path, str) else " ".join(path)
    steps: list[Step] = []
    position = _SEPARATOR.match(text, 0).end()  # type: ignore[union-attr]
    while position < len(text):
        found = _TOKEN.match(text, position)
        if found is None:
            bad = re.match(r"[^\s,;]+", text[position:])
            token = bad.group(0) if bad else text[position:]
            raise UserError(f"path {text!r}: token {token!r} not understood; {_EXPECTED}")
        steps.append(_step(found.group(1), found.group(2), found.group(0), text))
        position = _SEPARATOR.match(text, found.end()).end()  # type: ignore[union-attr]
        if len(steps) > MAX_STEPS:
            raise UserError(f"path {text[:40]!r}...: more than {MAX_STEPS} steps")
    if not steps:
        raise UserError(f"path {text!r} is empty; {_EXPECTED}")
    return tuple(steps)


def _step(letter: str, number: str, token: str, text: str) -> Step:
    try:
        kind = StepKind(letter.upper())
    except ValueError:
        raise UserError(f"path {text!r}: token {token!r} not understood; {_EXPECTED}") from None
    amount = float(number)
    if kind is StepKind.CENTRE:
        if amount == 0 or abs(amount) > 360:
            raise UserError(
                f"path {text!r}: {token!r} needs a rotation from -360 to 360 degrees, not 0"
            )
        return Step(kind, amount)
    if number[0] in "+-":
        raise UserError(
            f"path {text!r}: {token!r} takes no sign; use B for backwards, P/S for the side"
        )
    if amount <= 0:
        raise UserError(f"path {text!r}: {token!r} needs an amount greater than 0")
    if kind in (StepKind.PORT, StepKind.STARBOARD) and amount > 360:
        raise UserError(f"path {text!r}: {token!r} turns more than a full circle")
    return Step(kind, amount)


def format_path(steps: Sequence[Step]) -> str:
    return " ".join(step.token for step in steps)


# --------------------------------------------------------------------------- motions


@dataclass(frozen=True, slots=True)
class Translation:
    """A straight move of `distance` inches along the start heading (negative: backwards)."""

    start: Pose
    distance: float

    def pose_at(self, t: float) -> Pose:
        radians = math.radians(self.start.heading)
        step = self.distance * t
        return Pose(
            self.start.x + step * math.sin(radians),
            self.start.y + step * math.cos(radians),
            self.start.heading,
        )

    @property
    def end(self) -> Pose:
        return self.pose_at(1.0)

    def part(self, t0: float, t1: float) -> Translation:
        """The sub-motion between fractions t0 and t1."""
        return Translation(self.pose_at(t0), self.distance * (t1 - t0))

    def travel(self, base: Base) -> float:
        """The farthest any point of the base travels (for tolerances)."""
        return abs(self.distance)


@dataclass(frozen=True, slots=True)
class Rotation:
    """A rotation of `angle` degrees (clockwise positive) about `pivot` in table inches."""

    start: Pose
    pivot: tuple[float, float]
    angle: float

    def pose_at(self, t: float) -> Pose:
        px, py = self.pivot
        radians = math.radians(self.angle * t)
        cos, sin = math.cos(radians), math.sin(radians)
        dx, dy = self.start.x - px, self.start.y - py
        # clockwise rotation seen from above with y up
        return Pose(
            px + dx * cos + dy * sin,
            py - dx * sin + dy * cos,
            self.start.heading + self.angle * t,
        )

    @property
    def end(self) -> Pose:
        return self.pose_at(1.0)

    def part(self, t0: float, t1: float) -> Rotation:
        return Rotation(self.pose_at(t0), self.pivot, self.angle * (t1 - t0))

    def reach(self, base: Base) -> float:
        """Distance from the pivot to the farthest point of the base."""
        return math.hypot(self.start.x - self.pivot[0], self.start.y - self.pivot[1]) + base.radius

    def travel(self, base: Base) -> float:
        return abs(math.radians(self.angle)) * self.reach(base)


Motion = Translation | Rotation


def pivot_point(
    pose: Pose, base: Base, pivot: Pivot, side: int, stand_length: float = 0.0
) -> tuple[float, float]:
    """The turning pivot on `side` (-1 port, +1 starboard), in table inches. R002.11-R002.13.

    Naval: the mid-length point of that side; armoured: the front corner of the
    base on that side; aerial: the front of the flight stand on that side. A
    round base (or flight stand, radius `stand_length` when given) has its
    side point abeam the centre and its "front corner" on the rim 45° off the
    bow toward that side.
    """
    if pivot is Pivot.CENTRE:
        return pose.x, pose.y
    if pivot is Pivot.STAND_FRONT and stand_length > 0:
        reach = stand_length * math.sqrt(0.5)
        return pose.to_world(side * reach, reach)
    if isinstance(base, CircleBase):
        if pivot is Pivot.SIDE_CENTRE:
            return pose.to_world(side * base.radius, 0.0)
        reach = base.radius * math.sqrt(0.5)
        return pose.to_world(side * reach, reach)
    if pivot is Pivot.SIDE_CENTRE:
        return pose.to_world(side * base.width / 2, 0.0)
    return pose.to_world(side * base.width / 2, base.length / 2)


def motion_for(pose: Pose, base: Base, step: Step, rules: TurningRules) -> Motion:
    """The motion one step makes from `pose` under the unit's turning rules."""
    if step.kind is StepKind.FORWARD:
        return Translation(pose, step.amount)
    if step.kind is StepKind.BACKWARD:
        return Translation(pose, -step.amount)
    if step.kind is StepKind.CENTRE:
        return Rotation(pose, (pose.x, pose.y), step.amount)
    point = pivot_point(pose, base, rules.pivot, step.side, rules.stand_length)
    return Rotation(pose, point, step.heading_change)


# --------------------------------------------------------------------------- planning


@dataclass(frozen=True, slots=True)
class Violation:
    """A broken rule: the SPEC id, a sentence, and the step (0-based) where it broke, if one."""

    rule: str
    message: str
    step: int | None = None


@dataclass(frozen=True, slots=True)
class PlannedStep:
    """One step of a planned path with its motion and the poses before and after it."""

    index: int
    step: Step
    motion: Motion
    start: Pose
    end: Pose
    treacherous: bool = False  # R002.34: this turn needs a Treacherous Terrain test

    @property
    def distance(self) -> float:
        return self.step.amount if self.step.kind in (StepKind.FORWARD, StepKind.BACKWARD) else 0.0


@dataclass(frozen=True)
class PathPlan:
    """A path applied to a pose and checked against `TurningRules` (GEO002.8)."""

    start: Pose
    steps: tuple[PlannedStep, ...]
    violations: tuple[Violation, ...]
    notes: tuple[Note, ...] = ()
    disengage: bool = False

    @property
    def end(self) -> Pose:
        return self.steps[-1].end if self.steps else self.start

    @property
    def legal(self) -> bool:
        return not self.violations

    @property
    def distance(self) -> float:
        return sum(step.distance for step in self.steps)

    @property
    def snaking(self) -> bool:
        return any(step.treacherous for step in self.steps)

    @property
    def treacherous_steps(self) -> tuple[PlannedStep, ...]:
        return tuple(step for step in self.steps if step.treacherous)

    @property
    def motions(self) -> tuple[Motion, ...]:
        return tuple(step.motion for step in self.steps)


def plan_path(start: Pose, base: Base, steps: Sequence[Step], rules: TurningRules) -> PathPlan:
    """Apply `steps` from `start` and check them against `rules`. GEO002.8, R002.30-R002.34.

    Every step is applied even when it breaks a rule, so the plan shows where the
    path would end; `violations` says why it is illegal.
    """
    violations: list[Violation] = []
    planned: list[PlannedStep] = []
    backwards_move = any(s.kind is StepKind.BACKWARD for s in steps)
    centre_only = bool(steps) and all(s.kind is StepKind.CENTRE for s in steps)
    disengage = rules.disengage_rotation is not None and centre_only

    pose = start
    straight_before_turn = 0.0
    turned = False
    straight_since_turn = 0.0
    last_side = 0
    snaking = False
    total_turn = 0.0
    forwards = backwards = 0.0

    for index, step in enumerate(steps):
        treacherous = False
        if step.kind is StepKind.FORWARD:
            forwards += step.amount
            straight_since_turn += step.amount
            if not turned:
                straight_before_turn += step.amount
        elif step.kind is StepKind.BACKWARD:
            backwards += step.amount
            straight_since_turn += step.amount
        elif step.kind is StepKind.CENTRE and rules.disengage_rotation is not None:
            if not disengage:
                violations.append(
                    Violation(
                        rules.disengage_rule,
                        f"{step.token}: rotating about the centre is only allowed as the whole "
                        "move, to disengage from a collision or ram",
                        index,
                    )
                )
            total_turn += abs(step.amount)
        else:
            angle = abs(step.heading_change)
            if step.kind is not StepKind.CENTRE:
                limit = rules.max_turn_per_step
                if limit is not None and angle > limit + EPSILON:
                    violations.append(
                        Violation(
                            rules.step_turn_rule,
                            f"{step.token}: one use of the turning template turns at most "
                            f"{limit:g}°, not {angle:g}° (split it into several turns)",
                            index,
                        )
                    )
            if (
                not turned
                and not backwards_move
                and straight_before_turn < rules.min_straight_before_turn - EPSILON
            ):
                violations.append(
                    Violation(
                        rules.min_move_rule,
                        f"{step.token}: the unit must move its Minimum Move of "
                        f'{rules.min_straight_before_turn:g}" straight ahead before any turn, '
                        f'and has moved {straight_before_turn:g}"',
                        index,
                    )
                )
            if (
                rules.snaking_straight is not None
                and step.kind is not StepKind.CENTRE
                and last_side
                and step.side != last_side
                and straight_since_turn < rules.snaking_straight - EPSILON
            ):
                snaking = True
            treacherous = snaking and rules.snaking_straight is not None
            last_side = step.side
            straight_since_turn = 0.0
            turned = True
            total_turn += angle
        motion = motion_for(pose, base, step, rules)
        end = motion.end
        planned.append(PlannedStep(index, step, motion, pose, end, treacherous))
        pose = end

    violations.extend(_whole_move_violations(rules, forwards, backwards, total_turn, disengage))
    return PathPlan(start, tuple(planned), tuple(violations), rules.notes, disengage)


def _whole_move_violations(
    rules: TurningRules, forwards: float, backwards: float, total_turn: float, disengage: bool
) -> list[Violation]:
    found: list[Violation] = []
    if backwards > 0:
        if not rules.allow_backwards:
            found.append(Violation(rules.backwards_rule, "this unit may not move backwards"))
        elif rules.max_backwards is not None and backwards > rules.max_backwards + EPSILON:
            found.append(
                Violation(
                    rules.backwards_rule,
                    f'a unit moving backwards moves at most {rules.max_backwards:g}", '
                    f'not {backwards:g}"',
                )
            )
        if forwards > 0:
            found.append(
                Violation(
                    rules.backwards_rule,
                    "a backwards move is backwards only: it cannot also move forwards",
                )
            )
    if disengage and rules.disengage_rotation is not None:
        if total_turn > rules.disengage_rotation + EPSILON:
            found.append(
                Violation(
                    rules.disengage_rule,
                    f"disengaging rotates at most {rules.disengage_rotation:g}° about the centre, "
                    f"not {total_turn:g}°",
                )
            )
    elif rules.max_turn_per_move is not None and total_turn > rules.max_turn_per_move + EPSILON:
        found.append(
            Violation(
                rules.move_turn_rule,
                f"this unit may turn at most {rules.max_turn_per_move:g}° in one move, "
                f"and the path turns {total_turn:g}°",
            )
        )
    distance = forwards + backwards
    if rules.max_distance is not None and distance > rules.max_distance + EPSILON:
        found.append(
            Violation(
                rules.distance_rule,
                f"the path moves {distance:g}\", past the unit's "
                f'{rules.max_distance:g}" of movement',
            )
        )
    if not disengage and distance < rules.min_total_distance - EPSILON:
        found.append(
            Violation(
                rules.min_total_rule,
                f'a boosted unit must move at least {rules.min_total_distance:g}" in all, '
                f'and the path moves {distance:g}"',
            )
        )
    return found
