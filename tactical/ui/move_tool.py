"""The move tool of the play screen: draw a path with keys, drags and turn handles.

A `MoveDraft` is the path being drawn as path tokens (docs/architecture.md "Command line":
F/B inches, P/S template turns, C rotation about the centre); `MoveTool` edits
it from input events and asks a preview function (the App passes
`Session.preview_move`) for the `MovePlan` of each new path, once per path.
Every limit comes from the unit's `TurningRules` and the plan: the template
angle, the minimum move, the maximum distance, whether it may go backwards, and
the SPEC id each violation cites. Nothing here knows which rule system it is.
"""

from __future__ import annotations

import math
import re
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Literal

import pygame
import shapely

from tactical.errors import UserError
from tactical.geometry.movement import Step, StepKind
from tactical.geometry.movement_spec import TurningRules
from tactical.geometry.shapes import Pose, footprint
from tactical.model import Unit
from tactical.session.movement import MovePlan
from tactical.ui.camera import Camera
from tactical.ui.move_preview import collision_rule, handle_points, status_tag

Preview = Callable[[str, str], MovePlan]
Verdict = Literal["confirm", "cancel"]
Tone = Literal["ok", "bad", "warn", "info"]

SNAP = 0.1  # inches and degrees: drafts are rounded to this
STRAIGHT_STEP = 1.0  # inches per W/S press
FINE_STRAIGHT_STEP = 0.1  # with Shift
FINE_TURN_STEP = 5.0  # degrees per Shift+A/D press
FREE_TURN_STEP = 45.0  # degrees per A/D press for a unit with no turning template
FULL_TURN = 360.0  # a P/S/C token turns at most this (the path parser's limit)
HANDLE_GRAB = 12  # pixels: how near a press must be to grab a handle
PLAN_CACHE = 64  # plans kept (a drag revisits recent paths)

_STRAIGHT = (StepKind.FORWARD, StepKind.BACKWARD)
_SIDES = {"P": StepKind.PORT, "S": StepKind.STARBOARD}


def _snap(value: float) -> float:
    snapped = round(round(value / SNAP) * SNAP, 1)
    return 0.0 if snapped == 0 else snapped


def _signed(step: Step) -> float:
    return step.amount if step.kind is StepKind.FORWARD else -step.amount


@dataclass(frozen=True, slots=True)
class MoveDraft:
    """The path being drawn for one unit: path tokens, edited by returning new drafts."""

    unit_id: str
    tokens: tuple[Step, ...] = ()

    @property
    def path(self) -> str:
        """The path as `tactical move` takes it, e.g. "F2 P45 F1" ("" when nothing is drawn)."""
        return " ".join(step.token for step in self.tokens)

    @property
    def last(self) -> Step | None:
        return self.tokens[-1] if self.tokens else None

    def _with_last(self, step: Step | None) -> MoveDraft:
        """The draft with its last token replaced by `step` (dropped when None)."""
        kept = self.tokens[:-1]
        return replace(self, tokens=kept if step is None else (*kept, step))

    def _straight(self, length: float, allow_backwards: bool) -> Step | None:
        length = _snap(length)
        if length > 0:
            return Step(StepKind.FORWARD, length)
        if length < 0 and allow_backwards:
            return Step(StepKind.BACKWARD, -length)
        return None

    def set_last_straight(self, length: float, allow_backwards: bool = True) -> MoveDraft:
        """The trailing straight set to `length` inches (negative: backwards), snapped to 0.1".

        A draft ending in a turn (or empty) gets a new straight; a length of 0 removes it.
        """
        step = self._straight(length, allow_backwards)
        last = self.last
        if last is not None and last.kind in _STRAIGHT:
            return self._with_last(step)
        return self if step is None else replace(self, tokens=(*self.tokens, step))

    def forward(self, delta: float, allow_backwards: bool = True) -> MoveDraft:
        """The trailing straight lengthened by `delta` inches (shortened when negative)."""
        last = self.last
        current = _signed(last) if last is not None and last.kind in _STRAIGHT else 0.0
        return self.set_last_straight(current + delta, allow_backwards)

    def turn(self, side: str, degrees: float, limit: float | None = None) -> MoveDraft:
        """A turn to port ("P") or starboard ("S") by `degrees`, one template use at most `limit`.

        A trailing turn to the same side grows up to the limit; what is left over (or a turn
        after a straight or to the other side) starts a new token.
        """
        if side not in _SIDES:
            raise UserError(f'turn side {side!r}: expected "P" (port) or "S" (starboard)')
        kind = _SIDES[side]
        cap = min(limit, FULL_TURN) if limit is not None else FULL_TURN
        remaining = _snap(degrees)
        if remaining <= 0:
            return self
        draft = self
        last = self.last
        if last is not None and last.kind is kind and last.amount < cap:
            grown = _snap(min(last.amount + remaining, cap))
            remaining = _snap(remaining - (grown - last.amount))
            draft = self._with_last(Step(kind, grown))
        while remaining > 0:
            # a template finer than the snap still turns: the plan then shows it is too far
            amount = max(SNAP, _snap(min(remaining, cap)))
            draft = replace(draft, tokens=(*draft.tokens, Step(kind, amount)))
            remaining = max(0.0, _snap(remaining - amount))
        return draft

    def rotate(self, degrees: float) -> MoveDraft:
        """A rotation about the centre (C token, clockwise positive); joins a trailing C token."""
        last = self.last
        if last is not None and last.kind is StepKind.CENTRE:
            total = _snap(max(-FULL_TURN, min(FULL_TURN, last.amount + degrees)))
            return self._with_last(Step(StepKind.CENTRE, total) if total else None)
        amount = _snap(max(-FULL_TURN, min(FULL_TURN, degrees)))
        return (
            replace(self, tokens=(*self.tokens, Step(StepKind.CENTRE, amount))) if amount else self
        )

    def pop(self) -> MoveDraft:
        """The draft without its last token."""
        return replace(self, tokens=self.tokens[:-1])

    def clear(self) -> MoveDraft:
        return replace(self, tokens=())


_FORWARD_KEYS = (pygame.K_w, pygame.K_UP)
_BACK_KEYS = (pygame.K_s, pygame.K_DOWN)
_PORT_KEYS = (pygame.K_a, pygame.K_LEFT)
_STARBOARD_KEYS = (pygame.K_d, pygame.K_RIGHT)
_CONFIRM_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER)
_EDIT_KEYS = (*_FORWARD_KEYS, *_BACK_KEYS, *_PORT_KEYS, *_STARBOARD_KEYS, pygame.K_c)
_TOOL_KEYS = (*_EDIT_KEYS, pygame.K_BACKSPACE, *_CONFIRM_KEYS, pygame.K_ESCAPE)
_SHORTCUT_MODS = pygame.KMOD_CTRL | pygame.KMOD_ALT | pygame.KMOD_META


class MoveTool:
    """Draws one unit's move: the draft, its plan (cached per path) and the input that edits it."""

    def __init__(
        self,
        unit: Unit,
        rules: TurningRules,
        preview: Preview,
        names: Mapping[str, str] | None = None,
    ) -> None:
        self.unit = unit
        self.rules = rules
        self.preview = preview
        # how the units and terrain pieces read, by id (what a move stops against is named)
        self.names: Mapping[str, str] = names or {}
        self.draft = MoveDraft(unit.id)
        self._plans: OrderedDict[str, MovePlan | UserError] = OrderedDict()
        self._grab: tuple[Pose, float] | None = None  # (anchor, offset) while dragging the end

    # ------------------------------------------------------------------ the plan

    @property
    def turn_step(self) -> float:
        """Degrees of one A/D press: the template angle, where the unit has one."""
        return self.rules.max_turn_per_step or FREE_TURN_STEP

    def _planned(self) -> MovePlan | UserError | None:
        path = self.draft.path
        if not path:
            return None
        found = self._plans.get(path)
        if found is None:
            try:
                found = self.preview(self.unit.id, path)
            except UserError as error:
                found = error
            self._plans[path] = found
            if len(self._plans) > PLAN_CACHE:
                self._plans.popitem(last=False)
        else:
            self._plans.move_to_end(path)
        return found

    @property
    def plan(self) -> MovePlan | None:
        """The plan of the path drawn so far (None before anything is drawn)."""
        found = self._planned()
        return found if isinstance(found, MovePlan) else None

    def problem(self) -> str | None:
        """Why Enter would be refused (the first violation with its SPEC id), None if legal."""
        found = self._planned()
        if found is None:
            return "no path drawn yet"
        if isinstance(found, UserError):
            return str(found)
        if found.legal:
            return None
        first = found.violations[0]
        where = f" (step {first.step + 1})" if first.step is not None else ""
        return f"{first.rule}{where}: {first.message}"

    def status(self) -> str:
        """One line: path, distance of the maximum, minimum move, stop, Snaking, violations."""
        return " · ".join(text for text, _ in self.report())

    def _named(self, text: str) -> str:
        """A refusal with the units and pieces it quotes by id ('markgraf') by their names."""
        return re.sub(r"'([^'\s]+)'", lambda found: self.names.get(found[1], found[0]), text)

    def report(self) -> list[tuple[str, Tone]]:
        """The plan of the drawn path as lines with a tone each, for the status line and the
        panel: path and verdict, distance of the maximum and minimum move, the collision or
        table-edge stop, the Snaking tests and every violation with its SPEC id."""
        found = self._planned()
        if found is None:
            name = self.names.get(self.unit.id) or self.unit.name or "this unit"
            return [(f"{name}: no path yet (W/drag ahead, A/D turn)", "info")]
        if isinstance(found, UserError):
            return [(f"{self.draft.path} — {self._named(str(found))}", "bad")]
        plan = found
        verdict = "legal" if plan.legal else "ILLEGAL"
        lines: list[tuple[str, Tone]] = [
            (f"{self.draft.path} — {verdict}", "ok" if plan.legal else "bad"),
            (status_tag(plan), "info"),
        ]
        if plan.collision is not None:
            hit = plan.collision
            what = "rams" if hit.kind == "ram" else "collides with"
            token = plan.path.steps[hit.step].step.token
            rule = collision_rule(plan.rules)
            cited = f" ({rule})" if rule else ""
            lines.append(
                (
                    f"stops: {what} {self.names.get(hit.id, hit.id)} during {token} at "
                    f'x {hit.pose.x:.2f}", '
                    f'y {hit.pose.y:.2f}"{cited}',
                    "warn",
                )
            )
        elif plan.left_board and plan.contact is not None:
            where = plan.contact.pose
            fate = f"and is lost ({plan.rules.off_board_rule})" if plan.lost else "(not allowed)"
            lines.append((f'leaves the table at x {where.x:.2f}", y {where.y:.2f}" {fate}', "warn"))
        tests = plan.treacherous_steps
        if tests:
            turns = ", ".join(f"{s.step.token} (step {s.index + 1})" for s in tests)
            lines.append(
                (
                    f"Snaking: Treacherous Terrain test for each of {turns}"
                    f" ({plan.rules.snaking_rule})",
                    "warn",
                )
            )
        for violation in plan.violations:
            where = f" (step {violation.step + 1})" if violation.step is not None else ""
            lines.append((f"✗ {violation.rule}{where}: {violation.message}", "bad"))
        return lines

    # ------------------------------------------------------------------ where things are

    def end_pose(self) -> Pose:
        """Where the drawn path ends (before any collision stop): the drag handle's place."""
        plan = self.plan
        return plan.path.end if plan is not None else self.unit.pose

    def _straight_anchor(self) -> Pose:
        """The pose the trailing straight starts from (where a drag measures its length)."""
        plan = self.plan
        last = self.draft.last
        if plan is None or not plan.path.steps:
            return self.unit.pose
        if last is not None and last.kind in _STRAIGHT:
            return plan.path.steps[-1].start
        return plan.path.end

    def handles(self, camera: Camera) -> dict[str, tuple[float, float]]:
        """Screen points of the handles: "end" at the path end, "port"/"starboard" beside it."""
        return handle_points(camera, self.end_pose(), self.unit.base)

    # ------------------------------------------------------------------ input

    def press(self, world_point: tuple[float, float], camera: Camera) -> bool:
        """A press at a table point: grabs the path end (its handle or the base drawn there),
        or turns by a port/starboard handle.

        Returns True when the press was the tool's (the App then does not select units).
        """
        px, py = camera.to_screen(*world_point)
        handles = self.handles(camera)
        nearest = min(handles, key=lambda name: math.dist(handles[name], (px, py)))
        if math.dist(handles[nearest], (px, py)) > HANDLE_GRAB:
            # the base at the path end is a handle too: a unit is dragged by its body
            end = footprint(self.end_pose(), self.unit.base)
            if not end.covers(shapely.Point(world_point)):
                return False
            nearest = "end"
        if nearest == "end":
            anchor = self._straight_anchor()
            self._grab = (anchor, self._along(anchor, world_point) - self._trailing_length())
        else:
            self.draft = self.draft.turn(
                "P" if nearest == "port" else "S", self.turn_step, self.rules.max_turn_per_step
            )
        return True

    def drag(self, world_point: tuple[float, float]) -> None:
        """While the end is held: the trailing straight's length is the point projected on the
        heading from where that straight starts."""
        if self._grab is None:
            return
        anchor, offset = self._grab
        length = self._along(anchor, world_point) - offset
        self.draft = self.draft.set_last_straight(length, self.rules.allow_backwards)

    def release(self) -> None:
        self._grab = None

    @property
    def dragging(self) -> bool:
        return self._grab is not None

    def _trailing_length(self) -> float:
        last = self.draft.last
        return _signed(last) if last is not None and last.kind in _STRAIGHT else 0.0

    @staticmethod
    def _along(anchor: Pose, point: tuple[float, float]) -> float:
        radians = math.radians(anchor.heading)
        return (point[0] - anchor.x) * math.sin(radians) + (point[1] - anchor.y) * math.cos(radians)

    def handles_key(self, event: pygame.event.Event) -> bool:
        """Whether a key press is one of the tool's (so the App does not act on it too).

        Keys held with Ctrl, Alt or Meta are the App's shortcuts (Ctrl+S saves), not the tool's.
        """
        return (
            event.type == pygame.KEYDOWN
            and event.key in _TOOL_KEYS
            and not getattr(event, "mod", 0) & _SHORTCUT_MODS
        )

    def key(self, event: pygame.event.Event) -> Verdict | None:
        """W/Up +1" (Shift +0.1"), S/Down -1", A/Left port, D/Right starboard by the template
        (Shift: 5°), C rotate (Shift+C the other way), Backspace undo a token; Enter "confirm",
        Esc "cancel"."""
        if not self.handles_key(event):
            return None
        key = event.key
        if key in _CONFIRM_KEYS:
            return "confirm"
        if key == pygame.K_ESCAPE:
            return "cancel"
        shift = bool(getattr(event, "mod", 0) & pygame.KMOD_SHIFT)
        straight = FINE_STRAIGHT_STEP if shift else STRAIGHT_STEP
        turn = FINE_TURN_STEP if shift else self.turn_step
        draft = self.draft
        if key in _FORWARD_KEYS:
            draft = draft.forward(straight, self.rules.allow_backwards)
        elif key in _BACK_KEYS:
            draft = draft.forward(-straight, self.rules.allow_backwards)
        elif key in _PORT_KEYS:
            draft = draft.turn("P", turn, self.rules.max_turn_per_step)
        elif key in _STARBOARD_KEYS:
            draft = draft.turn("S", turn, self.rules.max_turn_per_step)
        elif key == pygame.K_c:
            draft = draft.rotate(-self.turn_step if shift else self.turn_step)
        elif key == pygame.K_BACKSPACE:
            draft = draft.pop()
        self.draft = draft
        return None
