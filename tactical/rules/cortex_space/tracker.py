"""What the game tracks beyond unit stats: `GameState.rule_state` keys and their helpers.

Every value is plain and immutable (ints, strings, tuples, FrozenMaps), so a saved game
keeps it. Keys:

- `turn`: the turn the bookkeeping is at (R003.39 flights and R003.12 count turns);
- `initiative`: {unit: Advantage or Initiative result this turn} (R003.10, R003.11);
- `advantage`: this turn's Advantages, `{holder, against, steps}` (R003.11-R003.14);
  `previous_advantage`: last turn's (holder, against) pairs (R003.12, A003.8);
- `actions`: {character: actions taken this turn} (R003.8); `done`: units whose
  activation has ended; `wrecked`: {unit: initiative result of the group that put it
  out of action} (simultaneous action, R003.11);
- `fired`: {unit: {weapon: mounts fired this turn}}; `pd_engaged`: (PD unit, weapon,
  vessel) this turn (R003.43);
- `locks`: missile locks (owner, weapon, target) (R003.38); `missiles`: missiles in flight
  {id, owner, weapon, target, turns_left, progress, damage, warhead, scale} (R003.39);
  `next_missile`; `outfly_rolled`: missiles their target rolled to out-fly this turn;
- `defense`: {unit: {value, spec_id, source}} a fixed Difficulty to hit (R003.47, R003.54);
- `modifiers` / `next_modifiers`: {unit: (entry, ...)} step modifiers this turn / next turn
  from the crew (R003.46-R003.54), each `{scope, steps, spec_id, source, once, station,
  gunner}`; `stations_used`: {unit: stations rolled this turn} (R003.51);
  `full_turn`: {unit: the pilot's full-turn manoeuvre} (R003.47); `manoeuvres`:
  {unit: helm manoeuvres this turn} (R003.54); `pending_commands`: {unit: (entry, ...)}
  complex commands awaiting the communications officer (R003.50);
- `strafing`: {unit: target} successful strafing runs this turn (R003.24, A003.15);
- `structures`: {terrain id: {wound, stun}} bombarded structures (R003.65).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from tactical.model import FrozenMap, GameState

TURN = "turn"
INITIATIVE = "initiative"
ADVANTAGE = "advantage"
PREVIOUS_ADVANTAGE = "previous_advantage"
ACTIONS = "actions"
DONE = "done"
WRECKED = "wrecked"
FIRED = "fired"
PD_ENGAGED = "pd_engaged"
LOCKS = "locks"
MISSILES = "missiles"
NEXT_MISSILE = "next_missile"
OUTFLY_ROLLED = "outfly_rolled"
DEFENSE = "defense"
MODIFIERS = "modifiers"
NEXT_MODIFIERS = "next_modifiers"
STATIONS_USED = "stations_used"
FULL_TURN = "full_turn"
MANOEUVRES = "manoeuvres"
PENDING_COMMANDS = "pending_commands"
STRAFING = "strafing"
STRUCTURES = "structures"

# reset at the start of every turn (the rest carries over)
PER_TURN = (
    INITIATIVE,
    ADVANTAGE,
    ACTIONS,
    DONE,
    WRECKED,
    FIRED,
    PD_ENGAGED,
    OUTFLY_ROLLED,
    DEFENSE,
    MODIFIERS,
    STATIONS_USED,
    FULL_TURN,
    MANOEUVRES,
    PENDING_COMMANDS,
    STRAFING,
)
EMPTY = FrozenMap()


def get(state: GameState, key: str, default: Any = None) -> Any:
    return state.rule_state.get(key, default)


def table(state: GameState, key: str) -> FrozenMap:
    value = state.rule_state.get(key, EMPTY)
    return value if isinstance(value, FrozenMap) else FrozenMap(value)


def put(state: GameState, key: str, inner: str, value: Any) -> GameState:
    """rule_state[key][inner] = value."""
    return state.with_rule_state(**{key: table(state, key).set(inner, value)})


def turn(state: GameState) -> int:
    return int(get(state, TURN, 1))


def initial(state: GameState) -> GameState:
    """Turn 1 with nothing tracked yet (keeps structures already damaged)."""
    return _fresh(state, 1)


def _fresh(state: GameState, number: int) -> GameState:
    values = dict(state.rule_state)
    for key in PER_TURN:
        values.pop(key, None)
    values[TURN] = number
    return replace(state, rule_state=FrozenMap(values))


def next_turn(state: GameState) -> GameState:
    """The per-turn keys cleared, next turn's modifiers made current, Advantage remembered."""
    previous = tuple(
        (str(entry["holder"]), str(entry["against"])) for entry in get(state, ADVANTAGE, ())
    )
    carried = table(state, NEXT_MODIFIERS)
    fresh = _fresh(state, turn(state) + 1)
    return fresh.with_rule_state(
        **{PREVIOUS_ADVANTAGE: previous, MODIFIERS: carried, NEXT_MODIFIERS: EMPTY}
    )


# --------------------------------------------------------------------------- actions


def character_key(unit_id: str, character: str | None = None) -> str:
    """The key of whoever acts: the unit's pilot, or a named crew member (R003.8 counts per
    character)."""
    return f"{unit_id}/{character}" if character else unit_id


def actions_taken(state: GameState, character: str) -> int:
    return int(table(state, ACTIONS).get(character, 0))


def count_action(state: GameState, character: str, actions: int = 1) -> GameState:
    return put(state, ACTIONS, character, actions_taken(state, character) + actions)


def record_attack(
    state: GameState, unit_id: str, weapon: str, mounts: int, character: str, entries
) -> GameState:
    """One attack's bookkeeping in one step: mounts fired, the character's action counted,
    the crew's one-shot bonuses used up."""
    per_unit = table(state, FIRED).get(unit_id, EMPTY)
    changes: dict[str, Any] = {
        FIRED: table(state, FIRED).set(
            unit_id, per_unit.set(weapon, fired(state, unit_id, weapon) + mounts)
        ),
        ACTIONS: table(state, ACTIONS).set(character, actions_taken(state, character) + 1),
    }
    spent = {position for position, entry in entries if entry["once"]}
    if spent:
        kept = tuple(
            entry
            for position, entry in enumerate(table(state, MODIFIERS).get(unit_id, ()))
            if position not in spent
        )
        changes[MODIFIERS] = table(state, MODIFIERS).set(unit_id, kept)
    return state.with_rule_state(**changes)


def is_done(state: GameState, unit_id: str) -> bool:
    return unit_id in get(state, DONE, ())


def mark_done(state: GameState, unit_id: str) -> GameState:
    done = tuple(get(state, DONE, ()))
    if unit_id in done:
        return state
    return state.with_rule_state(**{DONE: (*done, unit_id)})


def fired(state: GameState, unit_id: str, weapon: str) -> int:
    return int(table(state, FIRED).get(unit_id, EMPTY).get(weapon, 0))


def count_fired(state: GameState, unit_id: str, weapon: str, mounts: int) -> GameState:
    per_unit = table(state, FIRED).get(unit_id, EMPTY)
    return put(state, FIRED, unit_id, per_unit.set(weapon, fired(state, unit_id, weapon) + mounts))


# --------------------------------------------------------------------------- modifiers


@dataclass(frozen=True, slots=True)
class StepModifier:
    """One step modifier of a roll, with the rule that grants it (R003.2)."""

    source: str
    steps: int
    spec_id: str

    def as_data(self) -> tuple[str, int, str]:
        return self.source, self.steps, self.spec_id


def modifier_entry(
    scope: str,
    steps: int,
    spec_id: str,
    source: str,
    *,
    once: bool = False,
    station: str = "",
    gunner: str = "",
) -> FrozenMap:
    return FrozenMap(
        scope=scope,
        steps=steps,
        spec_id=spec_id,
        source=source,
        once=once,
        station=station,
        gunner=gunner,
    )


def add_modifier(
    state: GameState, unit_id: str, entry: FrozenMap, *, next_turn: bool = False
) -> GameState:
    key = NEXT_MODIFIERS if next_turn else MODIFIERS
    entries = tuple(table(state, key).get(unit_id, ()))
    return put(state, key, unit_id, (*entries, entry))


def matching(
    state: GameState, unit_id: str, scope: str, *, station: str = "", gunner: str = ""
) -> tuple[tuple[int, FrozenMap], ...]:
    """This turn's modifier entries of a scope (with their positions, to consume `once` ones).

    An entry for a station applies to that station's rolls; an entry for a gunner only to
    that gunner's attacks (an entry without a gunner applies to every attack)."""
    found = []
    for position, entry in enumerate(table(state, MODIFIERS).get(unit_id, ())):
        if entry["scope"] != scope:
            continue
        if entry["station"] and entry["station"] != station:
            continue
        if entry["gunner"] and entry["gunner"] != gunner:
            continue
        found.append((position, entry))
    return tuple(found)


def as_modifiers(entries: Iterable[tuple[int, FrozenMap]]) -> tuple[StepModifier, ...]:
    return tuple(
        StepModifier(str(e["source"]), int(e["steps"]), str(e["spec_id"])) for _, e in entries
    )


def consume(state: GameState, unit_id: str, entries: Iterable[tuple[int, FrozenMap]]) -> GameState:
    """Remove the `once` entries just used (a bonus to "a subsequent action", R003.51)."""
    spent = {position for position, entry in entries if entry["once"]}
    if not spent:
        return state
    kept = tuple(
        entry
        for position, entry in enumerate(table(state, MODIFIERS).get(unit_id, ()))
        if position not in spent
    )
    return put(state, MODIFIERS, unit_id, kept)


def fixed_defense(state: GameState, unit_id: str) -> FrozenMap | None:
    value = table(state, DEFENSE).get(unit_id)
    return value if value else None


def set_defense(state: GameState, unit_id: str, value: int, spec_id: str, source: str) -> GameState:
    return put(state, DEFENSE, unit_id, FrozenMap(value=value, spec_id=spec_id, source=source))
