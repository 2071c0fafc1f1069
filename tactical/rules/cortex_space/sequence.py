"""The Cortex Space turn: its phases and the order of action (R003.10, R003.11).

Turn (R003.10, R003.11):

1. *Advantage / initiative* (alternating): a turn's first action is `start-turn`
   (missiles in flight come a turn closer and strike, R003.39; last turn's Advantage is
   remembered for R003.12); then every vessel rolls once: `advantage` against an enemy
   within the dogfight distance (opposed, R003.10-R003.14) or `initiative` (Agility +
   Alertness, base Cortex).
2. *Actions* (alternating): vessels act in order of their results, highest first; equal
   results act at the same time (R003.11, A003.6), so a vessel put out of action by
   one acting at the same time keeps its place in the order; being out of action, it is
   offered only `end` (the resolvers refuse a vessel out of action, base Cortex G.5).
   The vessels of the group in turn take actions (each further action of a character
   at -1 step more, R003.8) until they `end`.
   Point defense (R003.43) answers at any time on its side's go. A side with vessels in
   the group acting now passes by ending their activation (the rules' own `pass`), so
   the session's two passes in a row end the phase only once every vessel has acted.

`setup` reads the options and every unit's stats once and starts the rule state
at turn 1; `current_group` is the vessels acting now and `stage` shows them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tactical.model import FrozenMap, GameState, Unit
from tactical.model.frozen import last_asked
from tactical.rules.base import Phase, Stage, TurnPosition, TurnSequence
from tactical.rules.cortex_space import stations, tracker
from tactical.rules.cortex_space.units import settings, vessel

TURN_SEQUENCE = TurnSequence(
    (
        Phase("Advantage / initiative", "R003.10", alternating=True),
        Phase("Actions", "R003.11", alternating=True),
    )
)
ADVANTAGE_PHASE, ACTIONS_PHASE = 0, 1
PASS = "pass"  # the side's pass while its vessels act (the session's own kind, R003.11)

# kinds a vessel takes during its activation (checked against the order of action)
ACTIVATION_KINDS = (
    "attack",
    "lock-missile",
    "fire-missile",
    "shoot-down",
    "out-fly",
    "distract",
    "avoid-collision",
    "ram",
    "strafe",
    "join-wing",
    "bombard",
    *stations.STATION_ACTIONS,
    "end",
)


# --------------------------------------------------------------------------- setup


def setup(state: GameState) -> GameState:
    """Options and every unit's stats read once (UserError naming the problem), and the
    rule state at turn 1 (a game already under way, e.g. a saved one, is kept as it is)."""
    settings(state)
    for unit in state.units:
        vessel(unit)
    if tracker.TURN in state.rule_state:
        return state
    return tracker.initial(state)


def is_current(state: GameState, position: TurnPosition) -> bool:
    """Whether the bookkeeping has reached the position's turn."""
    return tracker.TURN in state.rule_state and tracker.turn(state) == position.turn


# --------------------------------------------------------------------------- order of action


def can_act(state: GameState, unit: Unit) -> bool:
    """Active, or put out of action by a vessel acting at the same time (R003.11)."""
    card = vessel(unit)
    if not (card.destroyed or card.disabled):
        return True
    wrecked = tracker.table(state, tracker.WRECKED)
    initiative = tracker.table(state, tracker.INITIATIVE)
    return unit.id in wrecked and initiative.get(unit.id) == wrecked[unit.id]


def _current_group(state: GameState) -> tuple[str, ...]:
    """The vessels acting now: those yet to end their activation with the highest result
    (vessels that rolled nothing act last, together). R003.11."""
    initiative = tracker.table(state, tracker.INITIATIVE)
    waiting = [u for u in state.units if not tracker.is_done(state, u.id) and can_act(state, u)]
    if not waiting:
        return ()
    ranks = {u.id: initiative.get(u.id) for u in waiting}
    best = max((r for r in ranks.values() if r is not None), default=None)
    return tuple(u.id for u in waiting if ranks[u.id] == best)


# `_current_group`, remembered for the last state asked, by identity (a pure function of an
# immutable state: the exact odds replay an action, and check its turn order, once per
# outcome)
current_group: Callable[[GameState], tuple[str, ...]] = last_asked(_current_group)


def stage(state: GameState, position: TurnPosition) -> Stage | None:
    """R003.11: in the Actions phase of the turn under way, the vessels acting now (the
    highest initiative among those yet to end their activation) and their result."""
    if position.phase != ACTIONS_PHASE or not is_current(state, position):
        return None
    group = current_group(state)
    if not group:
        return None
    rolled = tracker.table(state, tracker.INITIATIVE).get(group[0])
    facts: dict[str, Any] = {"acting now": group}
    if rolled is not None:
        facts["initiative"] = rolled
    return Stage((), None, FrozenMap(facts))
