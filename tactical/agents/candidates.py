"""The actions an agent may consider: every offered choice with its fields filled in.

Generic over rule systems: a choice's `fields` say what a declaration takes. A field
with listed `choices` is tried with each of them (a required one) or keeps its default
(an optional one; without a default it is left out); a required bool is tried both
ways, an optional one keeps its default; a required int with bounds takes every value
of a small range, else its low and high ends and the middle; an optional int its default
and its high end (as it is, or all of it); a `path` (a
move) takes its default and the paths `move_paths` finds legal with the move planner
(a move declared by a side rather than a unit: its default only).
A required field nothing can fill (free text without a default) leaves the choice out.

Candidates are not yet known to be legal: the rule system decides when one is applied
(`Game.apply` refuses with a UserError and changes nothing), and the players keep
only those it accepts.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from itertools import islice, product
from typing import Any

from tactical.errors import UserError
from tactical.model import FrozenMap
from tactical.rules.base import Action, ActionChoice, Field
from tactical.session.game import MOVE, PASS, Game

PATH = "path"
MAX_PER_CHOICE = 24  # parameter sets tried per choice
MAX_INT_VALUES = 6  # a bounded int with at most this many values is tried whole
FREE_MOVE_REACH = 12.0  # inches a unit without a movement limit is offered (a table move)
TURN_ANGLE = 45.0  # degrees of one turn where the rules set no template


@dataclass(frozen=True)
class Candidate:
    """An action to consider and the choice it fills in."""

    action: Action
    choice: ActionChoice

    @property
    def is_pass(self) -> bool:
        return self.action.kind == PASS

    @property
    def is_move(self) -> bool:
        return PATH in self.action.params

    @property
    def target(self) -> str | None:
        """The unit the action is aimed at, when its declaration names one."""
        value = self.action.params.get("target")
        return str(value) if isinstance(value, str) and value else None


def field_values(spec: Field) -> tuple[Any, ...] | None:
    """The values to try for one (non-path) field; () to leave it out; None: cannot fill."""
    if spec.choices:
        if spec.required:
            return tuple(spec.choices)
        # an optional choice keeps its default, or is left out (a mode's own detail, say)
        return (spec.default,) if spec.default is not None else ()
    if spec.kind == "bool":
        if spec.default is not None and not spec.required:
            return (spec.default,)
        return (False, True) if spec.default is None else (spec.default, not spec.default)
    if spec.kind == "int" and spec.low is not None and spec.high is not None:
        low, high = math.ceil(spec.low), math.floor(spec.high)
        if high < low:
            return None if spec.required else ()
        if not spec.required and spec.default is not None:
            return tuple(dict.fromkeys((spec.default, high)))  # as it is, or all of it
        if high - low + 1 <= MAX_INT_VALUES:
            values = list(range(low, high + 1))
        else:
            values = [low, (low + high) // 2, high]
        if spec.default is not None and spec.default in values:
            values.remove(spec.default)
            values.insert(0, spec.default)
        return tuple(values)
    if spec.default is not None:
        return (spec.default,)
    return None if spec.required else ()


def choice_params(choice: ActionChoice, paths: tuple[str, ...] = ()) -> Iterator[FrozenMap]:
    """Parameter sets for one choice (the module docstring), defaults first."""
    names: list[str] = []
    options: list[tuple[Any, ...]] = []
    for spec in choice.fields:
        if spec.name == PATH:
            values: tuple[Any, ...] | None = paths or (
                (spec.default,) if spec.default is not None else None
            )
        else:
            values = field_values(spec)
        if values is None:
            return
        if values:
            names.append(spec.name)
            options.append(values)
    if not names:
        yield FrozenMap()
        return
    for combination in islice(product(*options), MAX_PER_CHOICE):
        yield FrozenMap(dict(zip(names, combination, strict=True)))


def move_paths(
    game: Game, unit_id: str, default: str | None = None, *, limit: int | None = None
) -> tuple[str, ...]:
    """Paths the move planner finds legal for `unit_id` now: straight on (all the way, half
    way), a turn each side after the minimum straight, and the choice's default path;
    the first `limit` legal ones only, when given (a quick player's play-outs).

    Built from the unit's turning rules (its movement this activation, template angle,
    minimum move), so that any rule system with movement rules gets sensible moves."""
    state = game.state
    if not state.has_unit(unit_id):
        return ()
    try:
        rules = game.system.turning_rules(state.unit(unit_id), state.options)
    except UserError:
        return ()
    reach = rules.max_distance if rules.max_distance is not None else FREE_MOVE_REACH
    angle = rules.max_turn_per_step or rules.max_turn_per_move or TURN_ANGLE
    straight = max(rules.min_straight_before_turn, 0.0)
    wanted: list[str] = []
    if default:
        wanted.append(default)
    if reach > 0:
        for distance in (reach, reach / 2):
            wanted.append(f"F{_inches(distance)}")
        for side in ("P", "S"):
            rest = reach - straight
            head = f"F{_inches(straight)} " if straight > 0 else ""
            if rest > 0:
                wanted.append(f"{head}{side}{_inches(angle)} F{_inches(rest)}")
                wanted.append(f"{head}{side}{_inches(angle)} F{_inches(rest / 2)}")
            else:
                wanted.append(f"{head}{side}{_inches(angle)}")
    found = []
    for path in dict.fromkeys(wanted):
        try:
            plan = game.preview_move(unit_id, path)
        except UserError:
            continue
        if plan.legal and not plan.lost:
            found.append(path)
            if limit is not None and len(found) >= limit:
                break
    return tuple(found)


def _inches(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text or "0"


def candidates(
    game: Game,
    *,
    table_moves: bool = True,
    paths_per_move: int | None = None,
    moved: Collection[str] = (),
) -> tuple[Candidate, ...]:
    """Every candidate action of the side to act (not yet checked against the rules).

    `table_moves=False` leaves out the session's free table moves (they are not a go:
    a player that may always move again must stop somewhere), `moved` those of these
    units (their paths are not planned); `paths_per_move` keeps that many legal paths of
    a move (a player that does not weigh positions needs one)."""
    found: list[Candidate] = []
    for choice in game.choices():
        is_table_move = choice.kind == MOVE and game.is_session_action(Action(MOVE, choice.actor))
        if is_table_move and (not table_moves or choice.actor in moved):
            continue
        paths: tuple[str, ...] = ()
        path_field = next((f for f in choice.fields if f.name == PATH), None)
        if path_field is not None and game.state.has_unit(choice.actor):
            paths = move_paths(game, choice.actor, path_field.default, limit=paths_per_move)
            if not paths:
                continue
        # a move a side declares (a Wing's in formation, say) is not one unit's: the planner
        # cannot plan it, so it takes the rule system's own default path
        for params in choice_params(choice, paths):
            found.append(Candidate(Action(choice.kind, choice.actor, params), choice))
    return tuple(found)
