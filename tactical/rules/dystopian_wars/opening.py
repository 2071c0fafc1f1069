"""The turn's opening and an activation's first segment, as choices and actions: each
fleet's Field Order roll (R002.20, R002.21), the initiative roll-off (G.5), activating a
squadron (R002.28, R002.61) and declaring its Commanded Element (R002.25, segment 1).
Rolling the initiative first closes a turn whose End Phase was left open
(`end_phase.close_turn`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tactical.dice import Dice
from tactical.errors import UserError
from tactical.model import FrozenMap, GameState
from tactical.rules.base import Action, ActionChoice, Event, Field, Resolution
from tactical.rules.dystopian_wars import command, flyers, tracking, victory
from tactical.rules.dystopian_wars.cards import squadron_units
from tactical.rules.dystopian_wars.dicework import roll_off
from tactical.rules.dystopian_wars.end_phase import close_turn
from tactical.rules.dystopian_wars.sequence import (
    Handler,
    activatable,
    choice,
    current_activation,
    need_stage,
    options_of,
    params_of,
    passive_until_winner,
    set_activation,
    turn_number,
)

# --------------------------------------------------------------------------- choices


def field_order_choices(state: GameState, side: str) -> tuple[ActionChoice, ...]:
    """R002.20: a fleet's Field Order roll (or FO 1, R002.21), on turn 1 until rolled."""
    if turn_number(state) != 1 or side in tracking.mapping(state, "field_orders"):
        return ()
    return (
        choice(
            "field-order",
            side,
            f"{side}: roll the Field Order",
            Field(
                "take_default", "bool", default=False, doc="take FO 1 instead", spec_id="R002.21"
            ),
            spec="R002.20",
        ),
    )


def initiative_choices(state: GameState, side: str) -> tuple[ActionChoice, ...]:
    """G.5: the initiative roll-off, offered to the first side once a turn."""
    if tracking.get(state, "initiative") is not None or side != state.sides[0]:
        return ()
    return (choice("initiative", side, "Roll for initiative", spec="G.5"),)


def command_choices(state: GameState, act: Mapping[str, Any]) -> tuple[ActionChoice, ...]:
    """R002.25: segment 1, the Commanded Element of the active squadron."""
    units = squadron_units(state, act["squadron"])
    element = command.command_element(units, float(options_of(state)["command_distance"]))
    return (
        choice(
            "command",
            act["side"],
            "Declare the Commanded Element",
            Field(
                "commander",
                "str",
                required=True,
                default=element.commander,
                choices=tuple(u.id for u in units),
                spec_id="R002.25",
            ),
            spec="R002.25",
        ),
    )


# --------------------------------------------------------------------------- actions


def _field_order(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    take_default = params_of(action).get("take_default", False)
    if not isinstance(take_default, bool):
        raise UserError(
            f"take_default must be true or false, not {take_default!r}", spec_id="R002.21"
        )
    return victory.roll_field_order(state, side, dice, take_default)


def _initiative(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    if tracking.get(state, "initiative") is not None:
        raise UserError("initiative is rolled once a turn", spec_id="G.5")
    events: list[Event] = []
    if not tracking.get(state, "turn_closed") and (
        tracking.get(state, "activated", ()) or tracking.mapping(state, "end_phase")
    ):
        state, events = close_turn(state)
    sides = state.sides
    if len(sides) < 2:
        winner = sides[0]
        result_events: tuple[Event, ...] = ()
    else:
        off = dice.chance(
            lambda source: roll_off(source, sides[0], sides[1], "initiative", "G.5"),
            key=lambda r: r.winner,
        )
        winner, result_events = off.winner, off.events
    state = tracking.put(state, initiative=FrozenMap(winner=winner), fc_used=(), turn_closed=None)
    events += [
        *result_events,
        Event.of("initiative", "G.5", winner=winner, turn=turn_number(state)),
    ]
    return Resolution(state, tuple(events), winner)


def _activate(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    if current_activation(state) is not None:
        raise UserError("a squadron is active: finish its activation first", spec_id="R002.28")
    key = str(params_of(action).get("squadron", ""))
    if ":" not in key:
        key = f"{side}:{key}"
    if key not in activatable(state, side):
        choices = ", ".join(activatable(state, side)) or "none"
        raise UserError(
            f"{key!r} cannot activate now (squadrons left: {choices})", spec_id="R002.28"
        )
    if passive_until_winner(state, side):
        raise UserError("the side that won the initiative activates first", spec_id="G.5")
    state = tracking.put(
        state,
        activation=FrozenMap(side=side, squadron=key, stage="command"),
        boosts=FrozenMap(),
        generators_used=FrozenMap(),
    )
    events = [Event.of("activate", "R002.28", side=side, squadron=key, turn=turn_number(state))]
    state, fuel_events = flyers.spend_fuel(state, key)
    events += fuel_events
    return Resolution(state, tuple(events), key)


def _command(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    act = need_stage(state, side, "command")
    units = squadron_units(state, act["squadron"])
    distance = float(options_of(state)["command_distance"])
    chosen = params_of(action).get("commander")
    element = command.command_element(units, distance, str(chosen) if chosen else None)
    state = tracking.put_in(state, "commanders", act["squadron"], element.commander)
    state = set_activation(state, stage="movement")
    return Resolution(state, command.element_events(element, distance), element.out_of_command)


HANDLERS: dict[str, Handler] = {
    "field-order": _field_order,
    "initiative": _initiative,
    "activate": _activate,
    "command": _command,
}
