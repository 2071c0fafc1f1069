"""The sw-d6-capital turn sequence, and the steps that happen on their own.

The five phases (T004.1, R004.10: `TURN_SEQUENCE`, each alternating) and the
phase each action kind belongs to (`PHASE_OF`). The automatic steps run inside
the first action that needs them: `setup` (turn 0, every ship's starting
condition); `prepare` (shields regenerate as the Damage Control phase begins,
R004.19, once per turn; an unfinished firing action ends with the Action
Phase); and `start_turn`, the new turn: the upkeep (per-turn flags cleared, 1D
of Ionization rolls off, countdowns, blazing hulks, returning fighter units:
R004.41, R004.42, T004.9, T004.10) and the Initiative contest (R004.11-R004.13).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from tactical.dice import D6, Dice
from tactical.model import GameState
from tactical.model.frozen import memo_of
from tactical.rules.base import Event, Phase, Resolution, TurnSequence
from tactical.rules.sw_d6_capital import fighters, initiative, ledger, repair
from tactical.rules.sw_d6_capital.condition import Condition, initial_condition
from tactical.rules.sw_d6_capital.deck import deck_of
from tactical.rules.sw_d6_capital.tables import (
    ACTION,
    COMMAND,
    DAMAGE_CONTROL,
    DESTROYED,
    INITIATIVE,
    MOVEMENT,
)
from tactical.rules.sw_d6_capital.tables import TURN_SEQUENCE as PHASE_TABLE

TURN_SEQUENCE = TurnSequence(
    tuple(Phase(name, spec_id, alternating=True) for name, spec_id, _ in PHASE_TABLE)
)
PHASES = tuple(name for name, _, _ in PHASE_TABLE)
PHASE_OF = {
    "initiative": INITIATIVE,
    "force-point": INITIATIVE,
    "command": COMMAND,
    "orders": COMMAND,
    "damage-control": DAMAGE_CONTROL,
    "astromech": DAMAGE_CONTROL,
    "reactor-shutdown": DAMAGE_CONTROL,
    "angle-shields": DAMAGE_CONTROL,
    "attack": ACTION,
    "maneuver": ACTION,
    "hold-fire": ACTION,
    "move": MOVEMENT,
    "recover": MOVEMENT,
    "hold-position": MOVEMENT,
}


# --------------------------------------------------------------------------- setup


def setup(state: GameState) -> GameState:
    """rule_state at the start of play: turn 0 and every ship's starting condition."""
    ships = {u.id: initial_condition(deck_of(u)).to_plain() for u in state.units}
    return state.with_rule_state(turn=0, ships=ships, dc_turn=0, initiative={}, batch=None)


def ensure_setup(state: GameState) -> GameState:
    if "ships" in state.rule_state:
        return state
    return setup(state)


def prepare(state: GameState, phase: str) -> tuple[GameState, tuple[Event, ...]]:
    """The automatic steps before an action of `phase`: shields regenerate as the Damage
    Control phase begins (R004.19); an unfinished firing action ends with the Action Phase.
    Worked out once per state and phase: the state it makes is then the same object each
    time (an attack resolved over every roll meets one prepared table, and what is
    remembered of that table is found again)."""
    memo = memo_of(_PREPARED, state)
    found = memo.get(phase)
    if found is None:
        found = memo[phase] = _prepared(state, phase)
    return found


_PREPARED: dict[int, tuple[Any, dict]] = {}  # by the state's identity (`memo_of`)


def _prepared(state: GameState, phase: str) -> tuple[GameState, tuple[Event, ...]]:
    state = ensure_setup(state)
    events: list[Event] = []
    turn = ledger.turn_of(state)
    index = PHASES.index(phase)
    regenerate = index >= PHASES.index(DAMAGE_CONTROL) and turn >= 1
    if regenerate and int(state.rule_state.get("dc_turn", 0)) < turn:
        state, regenerated = _regenerate_all(state)
        state = state.with_rule_state(dc_turn=turn)
        events.extend(regenerated)
    if index >= PHASES.index(MOVEMENT) and ledger.batch(state) is not None:
        state = state.with_rule_state(batch=None)
    return state, tuple(events)


def _regenerate_all(state: GameState) -> tuple[GameState, list[Event]]:
    updates: dict[str, Condition] = {}
    events: list[Event] = []
    for unit in state.units:
        cond = ledger.condition(state, unit.id)
        updated, happened = repair.regenerate(cond, deck_of(unit))
        if happened:
            updates[unit.id] = updated
            events.extend(_tag(unit.id, happened))
    return ledger.with_conditions(state, updates), events


def _tag(unit_id: str, events: Sequence[Event]) -> list[Event]:
    return [Event(e.kind, e.spec_id, (("unit", unit_id), *e.data)) for e in events]


def active(state: GameState, unit_id: str) -> bool:
    return not ledger.condition(state, unit_id).out_of_action(ledger.turn_of(state))


# ---- Initiative


def start_turn(state: GameState, dice: Dice) -> Resolution:
    """R004.10-R004.13: a new turn begins — upkeep, then every captain rolls Initiative."""
    events: list[Event] = []
    if ledger.turn_of(state) >= 1:
        state, regenerated = prepare(state, DAMAGE_CONTROL)
        events.extend(regenerated)
    turn = ledger.turn_of(state) + 1
    state = state.with_rule_state(turn=turn, batch=None, initiative={})
    events.append(Event.of("turn", "R004.10", turn=turn))
    state, upkeep = turn_upkeep(state, dice)
    events.extend(upkeep)
    entries = contest_entries(state)
    if not entries:
        return Resolution(state, tuple(events), ("", False))
    contest = initiative.resolve_contest(entries, dice)
    events.extend(contest.events)
    bonuses = initiative.next_bonuses({e.ship: e.bonus for e in entries}, contest.winner)
    updates = {
        ship: replace(ledger.condition(state, ship), initiative_bonus=bonus)
        for ship, bonus in bonuses.items()
    }
    state = ledger.with_conditions(state, updates)
    info = {
        "order": contest.order,
        "totals": dict(contest.totals),
        "winner": contest.winner,
        "margin": contest.margin,
        "masterstroke": contest.masterstroke,
    }
    state = state.with_rule_state(initiative=info)
    events.append(
        Event.of(
            "initiative",
            "R004.11",
            order=contest.order,
            winner=contest.winner,
            margin=contest.margin,
            bonuses=tuple(sorted(bonuses.items())),
        )
    )
    events.append(
        Event.of(
            "masterstroke",
            "R004.13",
            winner=contest.winner,
            margin=contest.margin,
            masterstroke=contest.masterstroke,
        )
    )
    return Resolution(state, tuple(events), (contest.winner, contest.masterstroke))


def contest_entries(state: GameState) -> tuple[initiative.Entry, ...]:
    """The captains in this turn's contest: every ship that can act."""
    rounding = str(ledger.settings(state)["initiative_rounding"])
    entries = []
    for unit in state.units:
        if not active(state, unit.id):
            continue
        deck, cond = deck_of(unit), ledger.condition(state, unit.id)
        entries.append(
            initiative.Entry(unit.id, deck.initiative_code(rounding).pips, cond.initiative_bonus)
        )
    return tuple(entries)


def turn_upkeep(state: GameState, dice: Dice) -> tuple[GameState, list[Event]]:
    """Start-of-turn bookkeeping: flags cleared, Ionization rolls off 1D (R004.41, R004.42),
    reactors and abandoned hulls count down, blazing hulks roll (T004.10), units return."""
    events: list[Event] = []
    for unit in list(state.units):
        cond = ledger.condition(state, unit.id).new_turn()
        if cond.ionization:
            cond = replace(cond, ionization=cond.ionization - 1)
            events.append(
                Event.of(
                    "ionization-rolls-off",
                    "R004.41",
                    unit=unit.id,
                    ionization=cond.ionization,
                    lost_moves=cond.lost_moves,
                )
            )
        doomed = None
        if cond.reactor_countdown is not None:
            cond = replace(cond, reactor_countdown=cond.reactor_countdown - 1)
            if cond.reactor_countdown <= 0:
                doomed = "T004.9"
        if cond.abandon_countdown is not None:
            cond = replace(cond, abandon_countdown=cond.abandon_countdown - 1)
            if cond.abandon_countdown <= 0:
                doomed = "T004.10"
        if cond.blazing and doomed is None:
            face = blazing_roll(unit.id, dice)
            events.append(
                Event.of("roll", "T004.10", who=unit.id, what="blazing hulk", die="d6", result=face)
            )
            if face == 1:
                doomed = "T004.10"
        if doomed is not None:
            cond = replace(cond, level=DESTROYED, reactor_countdown=None, blazing=False)
            events.append(Event.of("explodes", doomed, unit=unit.id))
            state = ledger.with_condition(state, unit.id, cond).without_unit(unit.id)
            continue
        state = ledger.with_condition(state, unit.id, cond)
        state, returned = fighters.return_from_recovery(state, unit.id)
        events.extend(returned)
    return state, events


def blazing_roll(unit_id: str, dice: Dice) -> int:
    """T004.10 Blazing Hulk: 1D every round, the ship explodes on a 1."""
    return dice.roll(D6, who=unit_id, what="blazing hulk")
