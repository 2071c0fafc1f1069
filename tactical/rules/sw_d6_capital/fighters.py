"""Fighter units at capital scale: Strength, Scale and Recovery (R004.52-R004.57).

A fighter unit (an Element, Section, Flight or Squadron, T004.16) is one
Gunnery target; hits cost it Unit Strength (T004.17), which starts at the
unit-size modifier, and its Scale is 6D + its current Strength (R004.55). At
0D (0 pips or less, above -1D) it is Combat Ineffective; at -1D Wiped Out
(R004.56).

Recovery (R004.57), declared in the Movement Phase instead of moving: a unit
that has lost Strength and whose mothership is on the table leaves play for
1D rounds; when it returns (at the start of a turn) the Strength it lost comes
back from the mothership's reserve (1D per squadron carried plus 3D per
uncommitted squadron), as far as the reserve goes. Reading adopted: the unit
stays where it is on the table while away, but cannot be used or fired at.
"""

from __future__ import annotations

from dataclasses import replace

from tactical.dice import D6, Dice
from tactical.errors import UserError
from tactical.model import GameState
from tactical.rules.base import Event
from tactical.rules.sw_d6_capital import ledger
from tactical.rules.sw_d6_capital.codes import code_text
from tactical.rules.sw_d6_capital.condition import Condition
from tactical.rules.sw_d6_capital.deck import Deck
from tactical.rules.sw_d6_capital.tables import unit_strength_state


def check_recovery(state: GameState, unit_id: str) -> tuple[Deck, Condition, str]:
    """R004.57: may this unit go back to Recover? Returns its deck, condition, mothership."""
    _unit, deck, cond = ledger.ship(state, unit_id)
    turn = ledger.turn_of(state)
    if not deck.is_unit:
        raise UserError(f"{unit_id!r} is not a fighter unit: only they Recover", spec_id="R004.57")
    if cond.out_of_action(turn):
        raise UserError(f"{unit_id!r} cannot act now", spec_id="R004.57")
    if cond.strength >= deck.initial_strength:
        raise UserError(f"{unit_id!r} has lost no Strength to recover", spec_id="R004.57")
    if cond.moved:
        raise UserError(f"{unit_id!r} has moved this turn", spec_id="R004.50")
    base = deck.mothership
    if not base or not state.has_unit(base):
        raise UserError(
            f"{unit_id!r} has no mothership on the table to recover at", spec_id="R004.57"
        )
    return deck, cond, base


def recovery_rounds(unit_id: str, dice: Dice) -> int:
    """R004.57: Recovery takes 1D rounds."""
    return dice.roll(D6, who=unit_id, what="recovery rounds")


def start_recovery(
    state: GameState, unit_id: str, dice: Dice
) -> tuple[GameState, tuple[Event, ...], int]:
    _deck, cond, base = check_recovery(state, unit_id)
    turn = ledger.turn_of(state)
    rounds = recovery_rounds(unit_id, dice)
    cond = replace(cond, recovering_until=turn + rounds + 1, moved=True)
    state = ledger.with_condition(state, unit_id, cond)
    events = (
        Event.of("roll", "R004.57", who=unit_id, what="recovery rounds", die="d6", result=rounds),
        Event.of(
            "recovery", "R004.57", unit=unit_id, mothership=base, back_on_turn=turn + rounds + 1
        ),
    )
    return state, events, rounds


def return_from_recovery(state: GameState, unit_id: str) -> tuple[GameState, tuple[Event, ...]]:
    """A unit whose Recovery is over comes back with Strength from its base's reserve."""
    _unit, deck, cond = ledger.ship(state, unit_id)
    turn = ledger.turn_of(state)
    if cond.recovering_until is None or turn < cond.recovering_until:
        return state, ()
    restored = 0
    base = deck.mothership
    if base and state.has_unit(base):
        base_cond = ledger.condition(state, base)
        restored = min(max(deck.initial_strength - cond.strength, 0), base_cond.reserve)
        state = ledger.with_condition(
            state, base, replace(base_cond, reserve=base_cond.reserve - restored)
        )
    cond = replace(cond, recovering_until=None, strength=cond.strength + restored)
    state = ledger.with_condition(state, unit_id, cond)
    return state, (
        Event.of(
            "recovered",
            "R004.57",
            unit=unit_id,
            restored=code_text(restored),
            strength=code_text(cond.strength),
            status=unit_strength_state(cond.strength),
        ),
    )
