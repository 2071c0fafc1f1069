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
    scored = _scored(results) if type(results) is tuple else _scoring(results)
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


def _scoring(results: Iterable[str]) -> tuple[str, ...]:
    """The results scored against a ship or base (not a miss: no result of T000.2)."""
    return tuple(r for r in results if r != NO_EFFECT and r in RESULT_CODES)


# once per record: the same few come back after every roll the computer players enumerate
_scored = lru_cache(maxsize=1024)(_scoring)


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
    plan = _plan(units)
    records = state.rule_state.get(HITS, _NO_HITS) if plan.any_ship else None
    if records is not None and type(records) is not FrozenMap:
        # a table that notes what is read of it (a new one at every reading): the records
        # are read entry by entry every time, never found by their identity
        return _given(_read_conditions(state, plan, records))
    slot = (id(units), id(state.units), id(records))
    known = _TABLES.get(slot)
    if known is not None and known[0] is units and known[1] is state.units and known[2] is records:
        return known[3]
    found = _given(_read_conditions(state, plan, records))
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


class _Plan:
    """How `unit_conditions` reads one sequence of starting units (`_plan`): per unit, what
    it started as (the unit, its id, whether it is a group, its strength, its condition
    once gone: `_start_of`), whether any is a ship or base, and what each unit's condition
    was last read from with that condition (`seen`: a group's unit on the table, a ship's
    record). A roll changes one unit or one record: the others are their last reading,
    known by identity (a value is immutable), each slot set whole."""

    __slots__ = ("any_ship", "rows", "seen", "units")

    def __init__(self, units: Sequence[Unit]) -> None:
        self.units = units
        starts = [_start_of(unit) for unit in units]
        self.rows = tuple(
            (slot, unit, unit.id, start[2], start[1], start[3])
            for slot, (unit, start) in enumerate(zip(units, starts, strict=True))
        )
        self.any_ship = any(not start[2] for start in starts)
        self.seen: list[tuple[object, UnitCondition | None]] = [(_NOTHING, None)] * len(starts)


_NOTHING = object()  # read before no reading


def _plan(units: Sequence[Unit]) -> _Plan:
    """The `_Plan` of `units`, by the sequence's identity (kept beside it): the same
    starting units are asked about after every roll."""
    known = _PLANS.get(id(units))
    if known is None or known.units is not units:
        if len(_PLANS) >= MEMO_SIZE:
            _PLANS.clear()
        known = _PLANS[id(units)] = _Plan(units)
    return known


def _read_conditions(state: GameState, plan: _Plan, records: Any) -> list[UnitCondition]:
    """A000.E1: each starting unit's condition in `state` (`_condition`): a unit read from
    what it was read from last gives that condition again (`_Plan.seen`); the same reads
    of the state (a unit's presence, a ship's record entry) in the same order as ever."""
    found: list[UnitCondition] = []
    keep, on_table, seen = found.append, state.unit_or_none, plan.seen
    record = None if records is None else records.get
    for slot, unit, unit_id, group, value, gone in plan.rows:
        now = on_table(unit_id)
        if now is None:
            keep(gone)
            continue
        read = now if group else record(unit_id, ())  # type: ignore[misc]
        last = seen[slot]
        if last[0] is read:
            keep(last[1])  # type: ignore[arg-type]
            continue
        condition = _remembered(unit, value, now, None if group else read)
        seen[slot] = (read, condition)  # one assignment: the pair stays whole
        keep(condition)
    return found


_TABLES: dict[tuple[int, int, int], tuple[Any, Any, Any, list[UnitCondition]]] = {}
_GIVEN: dict[tuple[int, ...], list[UnitCondition]] = {}
_PLANS: dict[int, _Plan] = {}


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
        found.append(_remembered(unit, start[1], now, record))
    return found


def _remembered(unit: Unit, value: float, now: Unit, record: object) -> UnitCondition:
    """`_condition`, remembered by the identities of what it reads (kept beside them)."""
    slot = (id(unit), id(now), id(record))
    known = _CONDITIONS.get(slot)
    if known is not None and known[0] is unit and known[1] is now and known[2] is record:
        return known[3]
    condition = _condition(unit, value, now, record)
    if len(_CONDITIONS) >= MEMO_SIZE:
        _CONDITIONS.clear()
    _CONDITIONS[slot] = (unit, now, record, condition)  # kept beside their ids: none reused
    return condition


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
