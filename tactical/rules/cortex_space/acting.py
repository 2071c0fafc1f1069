"""Cortex Space: the unit taking an action, looked up and checked before any roll.

A weapon looked up by name (`weapon_of`; a unit by id is the rules' shared `table_unit`),
checked able to act or to be attacked (`require_active`, `require_target`: a vessel out of
action takes no action), and the penalty of its character's next action this turn
(`action_modifier`, R003.8). Attacks, manoeuvres, stations, missiles and bombardment start
here.
"""

from __future__ import annotations

from tactical.errors import UserError
from tactical.model import GameState, Unit
from tactical.rules.cortex_space import tracker
from tactical.rules.cortex_space.rolls import multi_action_steps
from tactical.rules.cortex_space.tracker import StepModifier
from tactical.rules.cortex_space.units import Vessel, Weapon


def weapon_of(unit: Unit, card: Vessel, name: str) -> Weapon:
    weapon = card.weapon(name)
    if weapon is None:
        offer = ", ".join(w.name for w in card.weapons) or "none"
        raise UserError(
            f"unknown weapon {name!r} for unit {unit.id!r}: it carries {offer}",
            spec_id="R003.48",
        )
    return weapon


def require_active(unit: Unit, card: Vessel, what: str) -> None:
    """A vessel out of action (destroyed or adrift) takes no action (base Cortex, G.5)."""
    if card.destroyed or card.disabled:
        state = "destroyed" if card.destroyed else "disabled"
        raise UserError(f"{unit.id!r} is {state} and cannot {what}", spec_id="R003.7")


def require_target(unit: Unit, card: Vessel) -> None:
    if card.destroyed:
        raise UserError(f"{unit.id!r} is already destroyed", spec_id="R003.7")


def action_modifier(state: GameState, character: str, actions: int = 0) -> StepModifier | None:
    """R003.8: the penalty of this character's next action (`actions` more this turn)."""
    number = tracker.actions_taken(state, character) + 1 + actions
    steps = multi_action_steps(number)
    return StepModifier(f"action {number} this turn", steps, "R003.8") if steps else None
