"""Steps the rules leave no choice for: the game takes them by itself, with the reason.

Two kinds, for the side to act, the same whoever plays it (a person, the computer, the
lab):

- *An automatic pass.* Nothing but a pass is offered; or the rules offer the side
  nothing (the session's free table moves aside: they are not a go) while they name
  another side's unit as acting now (`RuleSystem.acting_order`) or offer another side
  something: the go is really theirs.
- *A single-choice step.* Exactly one thing is offered and it leaves nothing to decide:
  every one of its fields has a single possible value ("End movement", "Resolve all
  Break Tests", the only Commanded Element there is). Taken only while the game's
  setting says so (`take_single`): a player may want to click through.

A step the game takes is applied with `Game.apply(action, forced=reason)`: it is an
ordinary action, marked and saved with its reason, so a replay applies exactly the
recorded steps and never derives them again. Nothing here names a rule system.
"""

from __future__ import annotations

from dataclasses import dataclass

from tactical.errors import UserError
from tactical.model import FrozenMap
from tactical.rules.base import Action, ActionChoice, Field
from tactical.rules.status import Unavailable
from tactical.session.game import PASS, Game, Step

WEAPON_FIELDS = frozenset({"weapon", "weapons"})  # a choice that fires names its weapon
MAX_FORCED = 64  # steps taken by the game after one decision, at most (a safety net)


@dataclass(frozen=True)
class Forced:
    """A step the game takes by itself: the action and why, in words for the log."""

    action: Action
    reason: str


def fixed_value(spec: Field) -> tuple[bool, object]:
    """(True, the value) when a field can hold one value only; (False, None) otherwise."""
    if spec.choices is not None and len(spec.choices) == 1:
        return True, spec.choices[0]
    if spec.kind in ("int", "float") and spec.low is not None and spec.low == spec.high:
        value = spec.default if spec.default is not None else spec.low
        return True, int(value) if spec.kind == "int" else float(value)
    return False, None


def no_decision(choice: ActionChoice) -> Action | None:
    """The action of a choice that leaves nothing to decide (each field has one value)."""
    params = {}
    for spec in choice.fields:
        fixed, value = fixed_value(spec)
        if not fixed:
            return None
        params[spec.name] = value
    return Action(choice.kind, choice.actor, FrozenMap(params))


def unavailable(game: Game) -> tuple[Unavailable, ...]:
    """What the side to act may not do now, with the rules' reasons (none when unsaid)."""
    try:
        return tuple(game.system.unavailable(game.state, game.position, game.side_to_act))
    except UserError:
        return ()


def _others_can_act(game: Game, side: str) -> tuple[str, ...]:
    """The other sides the rules offer something to at this moment."""
    found = []
    for other in game.sides:
        if other == side:
            continue
        try:
            if game.system.actions(game.state, game.position, other):
                found.append(other)
        except UserError:
            continue
    return tuple(found)


def pass_reason(game: Game) -> str | None:
    """Why the side to act can only pass now, in words for the log ("nothing else is open to
    it now", "Markgraf acts now (R002.28)"); None when it can act."""
    if game.over:
        return None
    side = game.side_to_act
    choices = game.choices()
    if not choices:
        return None
    cited = f" ({game.phase_spec_id})" if game.phase_spec_id else ""
    if all(choice.kind == PASS for choice in choices):
        reason = "nothing else is open to it now"
        refused = unavailable(game)
        if refused:
            first = refused[0]
            rule = f" ({first.spec_id})" if first.spec_id else ""
            reason += f"; {first.title}: {first.reason}{rule}"
        return reason
    if game.rule_choices():
        return None
    try:
        order = tuple(game.system.acting_order(game.state, game.position))
    except UserError:
        order = ()
    acting = [entry for entry in order if entry.acting]
    if acting and all(entry.side != side for entry in acting):
        names = ", ".join(game.state.shown_names.get(e.unit, e.unit) for e in acting)
        verb = "acts" if len(acting) == 1 else "act"
        return f"{names} {verb} now{cited}"
    others = _others_can_act(game, side)
    if others:
        acts = ", ".join(others)
        return f"the rules give it nothing to do now; {acts} to act{cited}"
    return None


def single_choice(game: Game) -> Forced | None:
    """The one step open to the side to act when it leaves nothing to decide, else None."""
    if game.over:
        return None
    choices = game.choices()  # a free table move is a choice: never a single one then
    if len(choices) != 1:
        return None
    choice = choices[0]
    if choice.kind == PASS:
        return None  # a pass is `pass_reason`'s, with its own words
    action = no_decision(choice)
    if action is None:
        return None
    rule = f" ({choice.spec_id})" if choice.spec_id else ""
    return Forced(action, f"the only step open to {game.side_to_act}{rule}")


def forced_step(game: Game, take_single: bool = True) -> Forced | None:
    """The step the game takes by itself now (see the module docstring), or None."""
    reason = pass_reason(game)
    if reason is not None:
        return Forced(Action(PASS, game.side_to_act), reason)
    return single_choice(game) if take_single else None


def settled(game: Game, take_single: bool = True) -> tuple[Game, ...]:
    """The games after each step the game takes by itself from `game`, in order (none
    when a decision is open). A step the rules then refuse ends the run: a person takes
    it from there, with the reason shown."""
    found: list[Game] = []
    current = game
    for _ in range(MAX_FORCED):
        step = forced_step(current, take_single)
        if step is None:
            break
        try:
            current = current.apply(step.action, forced=step.reason)
        except UserError:
            break
        found.append(current)
    return tuple(found)


def settle(game: Game, take_single: bool = True) -> Game:
    """`game` after every step the game takes by itself (the same game when none)."""
    games = settled(game, take_single)
    return games[-1] if games else game


def pass_loses(game: Game) -> str | None:
    """What a pass now would throw away, as the question to ask first ("Markgraf can still
    fire: pass anyway?"), or None: only when a pass is offered while the rules still offer
    the side an attack (a choice aimed at an enemy unit) or a move of one of its units (a
    choice with a path to draw). The session's free table moves are not a go: never lost."""
    if game.over or not any(c.kind == PASS for c in game.session_choices()):
        return None
    state = game.state
    side = game.side_to_act
    enemies = {unit.id for unit in state.units if unit.side != side}
    fire: list[str] = []
    move: list[str] = []
    other: list[str] = []  # aimed at an enemy, with no weapon: a dogfight, a boarding...
    for choice in game.rule_choices():
        if choice.kind == PASS or not state.has_unit(choice.actor):
            continue
        names = {spec.name for spec in choice.fields}
        for spec in choice.fields:
            if spec.choices and enemies.intersection(spec.choices):
                armed = bool(names & WEAPON_FIELDS)
                (fire if armed else other).append(choice.actor if armed else choice.title)
                break
            if spec.name == "path" and spec.kind == "str" and not spec.choices:
                move.append(choice.actor)
                break
    for units, verb in ((fire, "fire"), (move, "move")):
        if units:
            named = list(dict.fromkeys(state.shown_names.get(u, u) for u in units))
            more = f" and {len(named) - 1} more" if len(named) > 1 else ""
            return f"{named[0]}{more} can still {verb}: pass anyway?"
    if other:
        more = f" (and {len(other) - 1} more)" if len(other) > 1 else ""
        return f"{other[0]} is still open{more}: pass anyway?"
    return None


def is_decision(step: Step) -> bool:
    """Whether someone chose the step (it was not taken by the game itself)."""
    return not step.forced


__all__ = [
    "Forced",
    "fixed_value",
    "forced_step",
    "is_decision",
    "no_decision",
    "pass_loses",
    "pass_reason",
    "settle",
    "settled",
    "single_choice",
    "unavailable",
]
