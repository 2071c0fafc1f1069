"""The generic action protocol for sw-d6-capital: turn sequence, choices, apply, odds.

The turn (T004.1, R004.10) is five phases, each *alternating* in the generic
sequence: the sides take turns, one action each, until every side has passed
in a row. Which captain may act is the rule system's business (R004.14):
`actions()` offers a side its choices only when one of its ships is next —
orders lowest to highest Initiative, fire highest to lowest (a round of
actions at a time, R004.25), movement lowest to highest. A side that passes
while its ship is next holds: the other sides' captains go on (the passes just
made are read from `TurnPosition.passes`), and it may act again later.

Action kinds (the `Action.kind`; `actor` is a unit id except for Initiative):

- Initiative: `initiative` (actor: a side; R004.11-R004.13), `force-point` (R004.13). No
  side passes before the turn's Initiative is rolled (`status.pass_refused`, R004.11).
- Command: `command` (R004.15, R004.16); `orders` with `order`, `speed` (R004.17,
  R004.39, A004.31).
- Damage Control: `damage-control` with `extra_actions`, `repair_damage`, `shield_dice`,
  `prefer` (R004.18-R004.23); `astromech` with `what` (R004.53); `reactor-shutdown`
  (T004.9 #2); `angle-shields` with `front`, `right`, `rear`, `left` (R004.24).
- Action: `attack` with `weapon`, `target`, `battery_damage`, `location`, `batch`
  (R004.25-R004.40); `maneuver` with `path`, `batch` (R004.40, the Tactical
  Masterstroke); `hold-fire` (R004.25).
- Movement: `move` with `path` (R004.50, R004.51, GEO004.7); `recover` (R004.57);
  `hold-position` (R004.50).

Automatic steps happen inside the first action that needs them and are in its
events: a new turn (Initiative: per-turn flags cleared, 1D of Ionization rolls
off, countdowns, blazing hulks, returning fighter units), and the regeneration
of shields as the Damage Control phase begins (R004.19, once per turn).

This module is the protocol's face: `apply` hands an action to its handler, and
the names the rule system uses are here (`__all__`). The turn is split along its
seams: `sequence` (the phases, setup and the automatic steps, the new turn),
`choices` (who is next, what a side is offered), `handlers` (what each action
does), `odds` (the exact odds of an action before its roll).
"""

from __future__ import annotations

from tactical.dice import Dice
from tactical.errors import UserError
from tactical.model import GameState
from tactical.rules.base import Action, Resolution
from tactical.rules.sw_d6_capital.choices import actions
from tactical.rules.sw_d6_capital.handlers import HANDLERS
from tactical.rules.sw_d6_capital.odds import action_odds
from tactical.rules.sw_d6_capital.sequence import (
    PHASE_OF,
    TURN_SEQUENCE,
    ensure_setup,
    prepare,
    setup,
    start_turn,
)

# --------------------------------------------------------------------------- apply


def apply(state: GameState, action: Action, dice: Dice) -> Resolution:
    """Resolve any declared action with the given dice (module docstring)."""
    phase = PHASE_OF.get(action.kind)
    if phase is None:
        known = ", ".join(PHASE_OF)
        raise UserError(f"sw-d6-capital has no action {action.kind!r}: its actions are {known}")
    state = ensure_setup(state)
    if action.kind == "initiative":
        return start_turn(state, dice)
    state, prepared = prepare(state, phase)
    params = dict(action.params)
    handler = HANDLERS[action.kind]
    resolution = handler(state, action.actor, params, dice)
    return Resolution(resolution.state, prepared + resolution.events, resolution.summary)


__all__ = [
    "TURN_SEQUENCE",
    "action_odds",
    "actions",
    "apply",
    "prepare",
    "setup",
]
