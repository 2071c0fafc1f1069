"""Battlefleet Mars: the end of a game and its score (docs/game-end.md, A000.E1).

The seed gives no victory conditions and leaves the effects of damage on ships and bases
to the base game (R000.12), but for L results lowering the laser strength (A000.11,
`combat`). Adopted reading (A000.E1, the attrition end of
`tactical.rules.ending`):

- a unit's strength: a ship or base, its laser strength as it started (at least 1) plus
  its launch capacity; a fighter 1/3 and a missile 1/6 (the LP price of one, T000.6), times the
  group's count;
- fighters and missiles are destroyed by the results of T000.5 (R000.10, R000.11) and
  leave the table; a group that shrinks has lost that share;
- every result scored against a ship or base is recorded (`hits` in the rule state);
  its damage points are the number of a B or L result, 2 for iL, 3 for R; a D result,
  or damage points reaching the ship's strength, cripples it (it counts as lost and
  can no longer fight).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from tactical.model import FrozenMap, GameState, Unit
from tactical.model.frozen import remembered
from tactical.rules.battlefleet_mars.tables import DESTROYED_RESULT, NO_EFFECT, RESULT_CODES
from tactical.rules.battlefleet_mars.units import GROUPS, UnitType, profile
from tactical.rules.ending import UnitCondition

SPEC_ID = "A000.E1"
HOOKS = {"unit_condition": "unit_condition", "unit_conditions": "unit_conditions"}
HITS = "hits"
FIGHTER_VALUE = 1 / 3  # 1 LP buys 3 fighters (T000.6)
MISSILE_VALUE = 1 / 6  # 1 LP buys 6 missiles
RESULT_POINTS = {"iL": 2, "R": 3}


def strength(unit: Unit) -> float:
    """A000.E1: the unit's value at full strength (module docstring), remembered by the
    unit's identity (the computer players ask it of every unit after every roll)."""
    return remembered(_STRENGTHS, unit, _strength, 1024)


_STRENGTHS: dict[int, tuple[Unit, float]] = {}  # by the unit's identity (`strength`)


def _strength(unit: Unit) -> float:
    card = profile(unit)
    if card.kind is UnitType.FIGHTER:
        return FIGHTER_VALUE * card.count
    if card.kind is UnitType.MISSILE:
        return MISSILE_VALUE * card.count
    return float(max(1, card.laser_strength or 0) + card.launch_capacity)


def damage_points(result: str) -> int:
    """A000.E1: B1-B4 and L1-L4 count their number, iL 2, R 3; "-" nothing, and nothing for
    what is no result of T000.2 (a missile's miss of the A000.8 roll, in older records)."""
    if result in (NO_EFFECT, DESTROYED_RESULT) or result not in RESULT_CODES:
        return 0
    if result in RESULT_POINTS:
        return RESULT_POINTS[result]
    return int(result[1:])


def record_results(state: GameState, target: str, results: Iterable[str]) -> GameState:
    """The state with the results scored against a ship or base added to its record (a miss,
    of the laser or of a missile's A000.8 roll, is no result of T000.2: not scored)."""
    scored = tuple(r for r in results if r != NO_EFFECT and r in RESULT_CODES)
    if not scored:
        return state
    hits = state.rule_state.get(HITS, _NO_HITS)
    if isinstance(hits, FrozenMap):
        # one entry set on the frozen table (the same entries, in the same order, as a
        # copy would hold): the others are neither copied nor frozen again, nor read
        record = (*hits.get(target, ()), *scored)
        return state.with_rule_state(**{HITS: hits.updated({target: record})})
    table = dict(hits)
    table[target] = (*table.get(target, ()), *scored)
    return state.with_rule_state(**{HITS: table})


_NO_HITS = FrozenMap()


def results_against(state: GameState, unit_id: str) -> tuple[str, ...]:
    return tuple(state.rule_state.get(HITS, {}).get(unit_id, ()))


def unit_condition(state: GameState, unit: Unit) -> UnitCondition:
    """A000.E1: how a unit as it started stands now, remembered by what it is read from:
    the unit as it started, as it stands and, for a ship or base, its record (all
    immutable; the computer players ask every unit's condition after every roll they
    enumerate, and a roll changes one unit or one record)."""
    start = _STARTS.get(id(unit))
    if start is None or start[0] is not unit:
        start = _start_of(unit)
    records = None if start[2] else state.rule_state.get(HITS, {})
    return _unit_conditions(state, (unit,), records, [start])[0]


def unit_conditions(state: GameState, units: Sequence[Unit]) -> list[UnitCondition]:
    """`unit_condition` of each of `units` (A000.E1), the records read once for them all;
    remembered for the table's units and records as they are (the same objects: a roll
    that missed, or that changed only what the conditions never read, leaves both). The
    same list again for the very same conditions (`_given`; read it, never change it): the
    computer players read the shares of a list once, and many enumerated outcomes come to
    the same conditions."""
    records = state.rule_state.get(HITS, {}) if _any_ship(units) else None
    slot = (id(units), id(state.units), id(records))
    known = _TABLES.get(slot)
    if known is not None and known[0] is units and known[1] is state.units and known[2] is records:
        return known[3]
    found = _given(_unit_conditions(state, units, records, _starts(units)[0]))
    if len(_TABLES) >= MEMO_SIZE:
        _TABLES.clear()
    _TABLES[slot] = (units, state.units, records, found)  # kept beside their ids
    return found


def _given(found: list[UnitCondition]) -> list[UnitCondition]:
    """The list given before for these very conditions (the same objects: conditions are
    remembered by what they are read from), else `found` itself, kept for the next."""
    slot = tuple(map(id, found))
    known = _GIVEN.get(slot)
    if known is not None:  # it holds the conditions of these ids: none was reused
        return known
    if len(_GIVEN) >= MEMO_SIZE:
        _GIVEN.clear()
    _GIVEN[slot] = found
    return found


def _any_ship(units: Sequence[Unit]) -> bool:
    """Whether any of `units` is a ship or base (whose record is read)."""
    return _starts(units)[1]


def _starts(units: Sequence[Unit]) -> tuple[list[tuple[Unit, float, bool, UnitCondition]], bool]:
    """What each of `units` as it started gives its condition (`_start_of`), and whether any
    is a ship or base, by the sequence's identity (the same starting units are asked about
    after every roll)."""
    known = _SHIPS.get(id(units))
    if known is None or known[0] is not units:
        starts = [_start_of(unit) for unit in units]
        if len(_SHIPS) >= MEMO_SIZE:
            _SHIPS.clear()
        known = _SHIPS[id(units)] = (units, starts, any(not start[2] for start in starts))
    return known[1], known[2]


_TABLES: dict[tuple[int, int, int], tuple[Any, Any, Any, list[UnitCondition]]] = {}
_GIVEN: dict[tuple[int, ...], list[UnitCondition]] = {}
_SHIPS: dict[int, tuple[Sequence[Unit], list, bool]] = {}


def _unit_conditions(
    state: GameState,
    units: Sequence[Unit],
    records: Any,
    starts: list[tuple[Unit, float, bool, UnitCondition]],
) -> list[UnitCondition]:
    found: list[UnitCondition] = []
    on_table = state.unit_or_none
    for unit, start in zip(units, starts, strict=True):
        now = on_table(unit.id)
        if now is None:
            found.append(start[3])
            continue
        record = None if start[2] else records.get(unit.id, ())
        slot = (id(unit), id(now), id(record))
        known = _CONDITIONS.get(slot)
        if known is not None and known[0] is unit and known[1] is now and known[2] is record:
            found.append(known[3])
            continue
        condition = _condition(unit, start[1], now, record)
        if len(_CONDITIONS) >= MEMO_SIZE:
            _CONDITIONS.clear()
        _CONDITIONS[slot] = (unit, now, record, condition)  # kept beside their ids: none reused
        found.append(condition)
    return found


def _condition(unit: Unit, value: float, now: Unit, record: object) -> UnitCondition:
    if record is None:  # a group: the share of its count lost
        count = profile(unit).count
        left = profile(now).count
        lost = 1 - left / count if count else 0.0
        return _group_condition(value, max(0.0, lost), left > 0)
    return _ship_condition(value, tuple(record))  # type: ignore[arg-type]


@lru_cache(maxsize=1024, typed=True)
def _group_condition(value: float, lost: float, able: bool) -> UnitCondition:
    # one object for equal conditions (`_given` knows conditions by identity)
    return UnitCondition(value, lost, False, able)


def _start_of(unit: Unit) -> tuple[Unit, float, bool, UnitCondition]:
    """What a unit as it started gives every reading of its condition: its strength, whether
    it is a group (fighters, missiles: no record) and its condition once gone."""
    value = strength(unit)
    found = (unit, value, profile(unit).kind in GROUPS, UnitCondition.gone(value))
    if len(_STARTS) >= MEMO_SIZE:
        _STARTS.clear()
    _STARTS[id(unit)] = found  # the unit kept beside its id: never reused
    return found


_CONDITIONS: dict[tuple[int, int, int], tuple[Unit, Unit, object, UnitCondition]] = {}
_STARTS: dict[int, tuple[Unit, float, bool, UnitCondition]] = {}
MEMO_SIZE = 4096


@lru_cache(maxsize=4096)
def _ship_condition(value: float, results: tuple[str, ...]) -> UnitCondition:
    # a pure function of the ship's strength and its record: the same few records come
    # back after every roll the computer players enumerate
    points = sum(damage_points(r) for r in results)
    crippled = DESTROYED_RESULT in results or points >= value
    lost = 1.0 if crippled else points / value
    return UnitCondition(value, lost, crippled, not crippled)
