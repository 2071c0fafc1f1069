"""Segments 3b-3d of an activation (R002.28, T002.5), as choices and actions: the declared
attacks are resolved step by step in the order of `COMBAT_STEPS` (ack-ack and concussion
Counterattacks, Tiny Flyer combat, then the rest); in a simultaneous step a destroyed model
stays on the table until the step ends. An attack whose attacker or target has gone, or
that is no longer legal, is void.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tactical.dice import Dice
from tactical.errors import UserError
from tactical.model import GameState
from tactical.rules.base import Action, ActionChoice, Event, Field, Resolution, unit_name
from tactical.rules.dystopian_wars import combat, resolving, tracking
from tactical.rules.dystopian_wars.sequence import (
    Handler,
    choice,
    current_activation,
    current_step,
    need_stage,
    params_of,
    set_activation,
)
from tactical.rules.dystopian_wars.tables import COMBAT_STEPS

SIMULTANEOUS = {name for name, simultaneous in COMBAT_STEPS if simultaneous}


# --------------------------------------------------------------------------- choices


def _named(state: GameState, record: Mapping[str, Any], role: str) -> str:
    """A declared attack's attacker or target by name, "(gone)" once it has left the
    table."""
    unit_id = str(record[role])
    if state.has_unit(unit_id):
        return unit_name(state, unit_id)
    return f"{record.get(f'{role}_name', unit_id)} (gone)"


def segment_of(step: str) -> str:
    """The R002.28 segment a combat step belongs to, as the rules number it ("3b" for the
    Counterattack Ack Ack step "3b-ack-ack", "3c" for the Tiny Flyers' "3c-ii")."""
    return step.split("-", 1)[0]


def resolve_choices(state: GameState, act: Mapping[str, Any]) -> tuple[ActionChoice, ...]:
    """R002.28: the declared attacks of the current combat step still to resolve."""
    step = current_step(act)
    found = []
    for index, record in enumerate(act.get("declared", ())):
        if record["resolved"] or record["step"] != step:
            continue
        found.append(
            choice(
                "resolve-attack",
                str(act["side"]),
                f"{_named(state, record, 'attacker')}: {record['weapon']} at "
                f"{_named(state, record, 'target')} (segment {segment_of(step)})",
                Field(
                    "attack",
                    "int",
                    required=True,
                    default=index,
                    choices=None,
                    low=index,
                    high=index,
                ),
                spec="R002.28",
            )
        )
    return tuple(found)


# --------------------------------------------------------------------------- actions


def _resolve_attack(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    act = need_stage(state, side, "resolve")
    index = params_of(action).get("attack")
    records = list(act.get("declared", ()))
    if not isinstance(index, int) or not 0 <= index < len(records) or records[index]["resolved"]:
        raise UserError(f"no declared attack {index!r} waiting to be resolved", spec_id="R002.28")
    record = records[index]
    step = current_step(act)
    if record["step"] != step:
        raise UserError(
            f"attacks of step {step} are resolved before those of step {record['step']}",
            spec_id="R002.28",
        )
    simultaneous = step in SIMULTANEOUS
    resolution = _resolve_record(state, record, dice, simultaneous)
    state = resolution.state
    records[index] = record.set("resolved", True)
    state = set_activation(state, declared=tuple(records))
    events = list(resolution.events)
    act = current_activation(state)
    assert act is not None
    if current_step(act) != step:
        state, more = _end_step(state, step)
        events += more
    if current_step(current_activation(state) or {}) is None:
        state = set_activation(state, stage="boarding")
    return Resolution(state, tuple(events), resolution.summary)


def _resolve_record(
    state: GameState, record: Mapping[str, Any], dice: Dice, simultaneous: bool
) -> Resolution:
    pending = set(tracking.get(state, "pending_removals", ()))
    attacker, target = str(record["attacker"]), str(record["target"])
    gone = [
        u
        for u in (attacker, target)
        if not state.has_unit(u) or (u in pending and not simultaneous)
    ]
    if gone:
        event = Event.of(
            "attack-void", "R002.28", attacker=attacker, target=target, gone=tuple(gone)
        )
        return Resolution(state, (event,), "void")
    params = dict(record["params"])
    for key in ("linked", "combined"):
        if key in params:
            ids = combat._ids(params[key], key)
            params[key] = tuple(i for i in ids if state.has_unit(i))
    try:
        attack = combat.declared_on(state, attacker, str(record["weapon"]), target, params)
    except UserError as error:
        event = Event.of(
            "attack-void", "R002.28", attacker=attacker, target=target, reason=error.message
        )
        return Resolution(state, (event,), "void")
    return resolving.resolve_declared(state, attack, dice, defer=simultaneous)


def _end_step(state: GameState, step: str) -> tuple[GameState, list[Event]]:
    """The end of a combat step: units destroyed in a simultaneous step leave the table."""
    pending = tuple(tracking.get(state, "pending_removals", ()))
    for unit_id in pending:
        if state.has_unit(unit_id):
            gone = state.unit(unit_id)
            state = resolving.close_up(state.without_unit(unit_id), gone)
    state = tracking.put(state, pending_removals=())
    return state, [Event.of("step-done", "R002.28", step=step, removed=pending)]


HANDLERS: dict[str, Handler] = {
    "resolve-attack": _resolve_attack,
}
