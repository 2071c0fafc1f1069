"""What Dystopian Wars tracks beyond the stat cards, in `GameState.rule_state`.

Keys (plain values; documented here because saves keep them):

- `turn`: the turn number (int); `fc_used`: sides that used their Fleet Commodore
  re-roll this turn (R002.10); `activated`: squadrons activated this turn;
  `initiative`: {"winner": side} for this turn.
- `setup`: the game setup choices (R002.2-R002.4); `mfv`: {side: MFV};
  `core_forces`: {side: force}; `fleets`: {side: [{id, points, size, force,
  commodore}]}, the fleets as deployed (for Field Orders and VP).
- `field_orders`: {side: {"order": n, "roll": r or None, "chose_default": bool}}.
- `activation`: the Squadron Activation in progress (see `play`), or absent.
- `hull_lost`: {unit: Hull Points lost}; `effects`: {unit: [critical codes]} (lasting
  effects, repairable); `until_end`: {unit: [effect codes]} that end in the End Phase.
- `broken`: Broken squadrons (R002.27); `tested`: squadrons that took their Break Test.
- `losses`: [{id, side, points, size, force, commodore, how}] for every model
  destroyed, captured or lost (how: "destroyed" / "captured" / "lost").
- `prizes`: {unit: capturing side} for captured models still on the table.
- `derelicts`: the models made Derelict (set by hand: the booklet names Derelicts but
  not what makes one, G.5); they Drift in the End Phase (R002.19) and move no more.
- `wings`: {squadron: {"type", "fuel", "armed", "launched_turn"}} (R002.54, R002.55, R002.61).
- `aboard`: {carrier: Tiny Flyers aboard} (R002.60, R002.61); `cap`: {wing: parent}.
- `boosts`: {unit: {"kinetic": r} or {"tesla": r}} for the activation in progress:
  **the movement code reads this** (pass it as the `activation` of
  `tactical.session.movement.plan_move` / `play_move`, i.e. `options["activation"]`
  of `movement.turning_rules`).
- `offers`: {side: {...}} a roll the side's Fleet Commodore may re-roll now (R002.10).
- `pending_removals`: units destroyed in a simultaneous step, removed at its end (R002.28).
- `commanders`: {squadron: unit} the commanding model declared in segment 1 (R002.25);
  `generators_used`: {unit: [generator]} this activation; `launches`: {carrier#n: wing}.
- `end_phase`: {"started", "repaired", "bravery", "drifted"} for the End Phase under way;
  `turn_closed`: the End Phase has ended the turn (until the next Initiative).
- `result`: {"winner": side or None, "how": ..., "turn": n} once the game is decided.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tactical.model import FrozenMap, GameState, Unit, thaw
from tactical.model.frozen import memo_of
from tactical.rules.dystopian_wars.cards import card


def get(state: GameState, key: str, default: Any = None) -> Any:
    return state.rule_state.get(key, default)


def mapping(state: GameState, key: str) -> Mapping[str, Any]:
    return state.rule_state.get(key) or _EMPTY


_EMPTY = FrozenMap()  # one empty table for every key not set (immutable: shared)


def put(state: GameState, **changes: Any) -> GameState:
    return state.with_rule_state(**changes)


def put_in(state: GameState, key: str, item: str, value: Any) -> GameState:
    """Set `rule_state[key][item]` (value None removes the item). Removing an item the
    table does not hold gives the same state back (equal; the per-state memos of what
    follows kept: every action first clears its side's Fleet Commodore offer, R002.10)."""
    if value is None:
        stored = state.rule_state.get(key)
        if isinstance(stored, FrozenMap) and item not in stored:
            return state
    return state.with_rule_state(**{key: _table_with(mapping(state, key), {item: value})})


def put_items(state: GameState, *items: tuple[str, str, Any]) -> GameState:
    """`put_in` of each (key, item, value) in turn, in one new state (G.5, R002.10: a resolved
    roll sets a model's Hull Points lost, its Critical Hit and the Fleet Commodore's offers
    at once)."""
    tables: dict[str, dict[str, Any]] = {}
    for key, item, value in items:
        tables.setdefault(key, {})[item] = value
    if not tables:
        return state
    changes = {key: _table_with(mapping(state, key), entries) for key, entries in tables.items()}
    return state.with_rule_state(**changes)


def _table_with(current: Mapping[str, Any], entries: Mapping[str, Any]) -> FrozenMap:
    """The table `current` with each of `entries` set (a value None: the item removed)."""
    if isinstance(current, FrozenMap) and all(value is not None for value in entries.values()):
        # only the new values frozen: the table's others are already (every roll sets one)
        return current.updated(entries)
    table = dict(current)
    for item, value in entries.items():
        if value is None:
            table.pop(item, None)
        else:
            table[item] = value
    return FrozenMap(table)


def add_to(state: GameState, key: str, *items: Any) -> GameState:
    """Append to the tuple `rule_state[key]` (no duplicates)."""
    current = tuple(get(state, key, ()))
    new = current + tuple(i for i in items if i not in current)
    return state.with_rule_state(**{key: new})


def plain(value: Any) -> Any:
    """A rule-state value as plain dicts/lists (for building a changed copy)."""
    return thaw(value)


# --------------------------------------------------------------------------- damage


def hull_lost(state: GameState, unit_id: str) -> int:
    return int(mapping(state, "hull_lost").get(unit_id, 0))


def hull_left(state: GameState, unit: Unit) -> int:
    return max(0, card(unit).hull_points - hull_lost(state, unit.id))


def effects(state: GameState, unit_id: str) -> tuple[str, ...]:
    return tuple(mapping(state, "effects").get(unit_id, ()))


def until_end(state: GameState, unit_id: str) -> tuple[str, ...]:
    return tuple(mapping(state, "until_end").get(unit_id, ()))


def add_effect(state: GameState, unit_id: str, code: str, *, lasting: bool = True) -> GameState:
    key = "effects" if lasting else "until_end"
    codes = tuple(mapping(state, key).get(unit_id, ()))
    return put_in(state, key, unit_id, (*codes, code))


def replace_last_effect(state: GameState, unit_id: str, old: str, new: str) -> GameState:
    codes = list(effects(state, unit_id))
    for index in range(len(codes) - 1, -1, -1):
        if codes[index] == old:
            codes[index] = new
            break
    return put_in(state, "effects", unit_id, tuple(codes))


def remove_effect(state: GameState, unit_id: str, code: str) -> GameState:
    codes = list(effects(state, unit_id))
    if code in codes:
        codes.remove(code)
    return put_in(state, "effects", unit_id, tuple(codes) if codes else None)


# --------------------------------------------------------------------------- losses


def loss_record(unit: Unit, how: str) -> FrozenMap:
    """The record of a model lost (R002.22: what the Field Orders and Victory Points read),
    made once per unit and how it was lost (`memo_of`, by the unit's identity): the exact
    odds destroy the same model once per outcome that sinks it."""
    made = memo_of(_LOSS_RECORDS, unit, MAX_LOSS_RECORDS)
    found = made.get(how)
    if found is None:
        profile = card(unit)
        found = made[how] = FrozenMap(
            id=unit.id,
            side=unit.side,
            points=profile.points,
            size=unit.size.value,
            force=profile.force,
            commodore=profile.fleet_commodore,
            squadron=profile.squadron,
            how=how,
        )
    return found


_LOSS_RECORDS: dict[int, tuple[Any, dict]] = {}
MAX_LOSS_RECORDS = 1024


def losses(state: GameState) -> tuple[Mapping[str, Any], ...]:
    return tuple(get(state, "losses", ()))


_LOST_IDS: dict[int, tuple[object, frozenset[str]]] = {}


def lost_ids(state: GameState) -> frozenset[str]:
    """The ids of the models lost (`losses`), kept per rule state: a unit's condition asks
    it for every unit of the table, many times a decision."""
    records = get(state, "losses", ())
    found = _LOST_IDS.get(id(records))
    if found is not None and found[0] is records:
        return found[1]
    ids = frozenset(str(record["id"]) for record in records)
    if len(_LOST_IDS) > 256:
        _LOST_IDS.clear()
    _LOST_IDS[id(records)] = (records, ids)
    return ids


def record_loss(state: GameState, unit: Unit, how: str) -> GameState:
    """A model destroyed / captured / lost: recorded (for VP and Field Orders)."""
    if any(r["id"] == unit.id for r in losses(state)):
        return state
    return put(state, losses=(*losses(state), loss_record(unit, how)))


def is_prize(state: GameState, unit_id: str) -> bool:
    return unit_id in mapping(state, "prizes")


def is_derelict(state: GameState, unit_id: str) -> bool:
    """R002.19: a Derelict model (it Drifts in the End Phase)."""
    return unit_id in tuple(get(state, "derelicts") or ())


def adrift(state: GameState, unit_id: str) -> bool:
    """A Prize or a Derelict: a model that drifts rather than moves (R002.19)."""
    return is_prize(state, unit_id) or is_derelict(state, unit_id)


def game_over(state: GameState) -> bool:
    return get(state, "result") is not None
