"""What the system keeps in `GameState.rule_state` (plain values, so saves stay data).

Keys:

- `"turn"`: the number of turns begun (0 before the first Initiative roll).
- `"ships"`: unit id -> the ship's `Condition` as plain values. A unit without an
  entry (a map just loaded) has its starting condition from its Command Deck.
- `"initiative"`: this turn's contest — `order` (ids, highest first), `totals`
  (id -> final total), `winner`, `margin`, `masterstroke` (bool).
- `"dc_turn"`: the last turn whose Damage Control phase has begun (shields
  regenerate once per turn, R004.19).
- `"batch"`: the firing action in progress (R004.27): `ship`, `size`, `used`.
- `"options"`: nothing — options stay in `GameState.options`.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from tactical.errors import UserError
from tactical.model import FrozenMap, GameState, Unit
from tactical.model.frozen import remembered
from tactical.rules.base import options_check
from tactical.rules.sw_d6_capital.condition import Condition, initial_condition
from tactical.rules.sw_d6_capital.deck import Deck, deck_of
from tactical.rules.sw_d6_capital.options import OPTION_FIELDS


def settings(state: GameState) -> Mapping[str, Any]:
    """The options in force, validated (UserError naming the key otherwise; a move's own
    `activation` entry is no option)."""
    return _options(state.options)


_options = options_check(OPTION_FIELDS)


def turn_of(state: GameState) -> int:
    return int(state.rule_state.get("turn", 0))


def find(state: GameState, unit_id: str) -> Unit:
    """The unit with this id, or a UserError listing the ids on the table."""
    try:
        return state.unit(unit_id)
    except KeyError:
        known = ", ".join(u.id for u in state.units) or "none"
        raise UserError(f"no unit {unit_id!r} on this table; units: {known}") from None


def condition(state: GameState, unit_id: str) -> Condition:
    """The ship's condition now (its starting condition if the system has not tracked it yet)."""
    stored = state.rule_state.get("ships", {}).get(unit_id)
    if stored is not None:
        # by the stored map's identity first: the computer players ask every ship's
        # condition after every roll they enumerate, of maps a roll left as they were
        return remembered(_CONDITIONS, stored, _from_plain, 4096)
    return initial_condition(deck_of(find(state, unit_id)))


_CONDITIONS: dict[int, tuple[Any, Condition]] = {}  # by the stored map's identity


@lru_cache(maxsize=4096)
def _from_plain(stored: FrozenMap) -> Condition:
    return Condition.from_plain(stored)


def with_condition(state: GameState, unit_id: str, updated: Condition) -> GameState:
    return with_conditions(state, {unit_id: updated})


def with_conditions(state: GameState, updates: Mapping[str, Condition]) -> GameState:
    ships = state.rule_state.get("ships", FrozenMap())
    changed = {
        unit_id: remembered(_PLAIN, updated, _plain, 4096) for unit_id, updated in updates.items()
    }
    return state.with_rule_state(ships=FrozenMap({**ships, **changed}))


def _plain(condition: Condition) -> FrozenMap:
    return FrozenMap(condition.to_plain())


# plain maps by the condition's identity: a resolver puts the same few conditions back
# after every roll the computer players enumerate (and `condition` reads them back by the
# map's identity)
_PLAIN: dict[int, tuple[Condition, FrozenMap]] = {}


def ship(state: GameState, unit_id: str) -> tuple[Unit, Deck, Condition]:
    unit = find(state, unit_id)
    return unit, deck_of(unit), condition(state, unit_id)


def initiative_info(state: GameState) -> Mapping[str, Any]:
    return state.rule_state.get("initiative", FrozenMap())


def initiative_order(state: GameState) -> tuple[str, ...]:
    """This turn's Initiative order, highest first; units in table order before any roll."""
    info = initiative_info(state)
    order = tuple(u for u in info.get("order", ()) if state.has_unit(u))
    rest = tuple(u.id for u in state.units if u.id not in order)
    return order + rest


def batch(state: GameState) -> Mapping[str, Any] | None:
    value = state.rule_state.get("batch")
    return value if value else None
