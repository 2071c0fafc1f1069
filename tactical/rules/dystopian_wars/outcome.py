"""Dystopian Wars: the end of a game through the generic protocol.

The rules say how a Dystopian Wars game ends (R002.3 Game Length, R002.22 victory): the
End Phase checks for the end of the game (`play`), and `victory` records the result —
a Crushing Triumph the moment a fleet satisfies its Field Order, else at the end the
fleet with more Victory Points wins, equal VP a draw (A002.19). `outcome` reads that
record; the scores are Victory Points.

`unit_condition` (the agents' measure of the fight, and the table of losses): a model's
strength is its points; the share lost, its Hull Points lost; a model destroyed,
captured or lost is out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tactical.model import GameState, Unit
from tactical.model.frozen import remembered
from tactical.rules.dystopian_wars import tracking, victory
from tactical.rules.ending import Outcome, UnitCondition

ORDERS_RULE = "R002.22"
DRAW_RULE = "A002.19"
REASONS = {
    "crushing-triumph": "a fleet satisfied its Field Order (a Crushing Triumph)",
    "victory-points": "the game length is over: more Victory Points",
    "equal": "the game length is over: equal Victory Points",
    "both": "both fleets satisfied their Field Orders at once",
}


def unit_condition(state: GameState, unit: Unit) -> UnitCondition:
    """A model's condition (module docstring), remembered by what it is read from: the
    (starting) unit, whether it is lost and its Hull Points lost (the computer players
    ask every model's condition after every roll they enumerate)."""
    lost, hull_table = _damage(state)
    gone = unit.id in lost or not state.has_unit(unit.id)
    hull_lost = 0 if gone else int(hull_table.get(unit.id, 0))
    key = (id(unit), gone, hull_lost)
    known = _CONDITIONS.get(key)
    if known is not None and known[0] is unit:
        return known[1]
    card = tracking.card(unit)
    value = float(max(1, card.points))
    if gone:
        found = UnitCondition.gone(value)
    else:
        found = UnitCondition(value, min(1.0, hull_lost / max(1, card.hull_points)), False, True)
    if len(_CONDITIONS) >= MEMO_SIZE:
        _CONDITIONS.clear()
    _CONDITIONS[key] = (unit, found)
    return found


def unit_conditions(state: GameState, units: Sequence[Unit]) -> tuple[UnitCondition, ...]:
    """`unit_condition` of each of `units`, in order, reading the state once; the same
    tuple again for the same units, models on the table and losses (the computer players
    ask every starting model's condition after every roll they enumerate and every move
    they try, and the rolls that differ only in a Critical Hit's effect leave the same
    losses)."""
    lost, hull_table = _damage(state)
    on_table = remembered(_ON_TABLE, state.units, _ids, MEMO_SIZE)
    try:
        # the models on the table by their ids, not the tuple: a move makes a new one
        slot = (id(units), on_table, lost, hull_table)
        found = _BATCHES.get(slot)
    except TypeError:  # a loss table that is not a value: worked out afresh
        slot, found = None, None
    if found is not None and found[0] is units:
        return found[1]
    present = state.has_unit
    known = _CONDITIONS.get
    made = []
    for unit in units:
        unit_id = unit.id
        gone = unit_id in lost or not present(unit_id)
        entry = known((id(unit), gone, 0 if gone else int(hull_table.get(unit_id, 0))))
        made.append(
            entry[1] if entry is not None and entry[0] is unit else unit_condition(state, unit)
        )
    result = tuple(made)
    if slot is not None:
        if len(_BATCHES) >= MEMO_SIZE:
            _BATCHES.clear()
        _BATCHES[slot] = (units, result)
    return result


def _ids(units: tuple[Unit, ...]) -> frozenset[str]:
    return frozenset(unit.id for unit in units)


# the conditions of a sequence of units, by its identity (kept beside it, so that no id is
# reused), the ids of the models on the table and the losses by value
_BATCHES: dict[tuple[Any, ...], tuple[Any, tuple[UnitCondition, ...]]] = {}
# the ids of a table's models, by the units' tuple itself (kept beside it)
_ON_TABLE: dict[int, tuple[tuple[Unit, ...], frozenset[str]]] = {}


def _damage(state: GameState) -> tuple[frozenset[str], Mapping[str, Any]]:
    """The ids of the models lost and the Hull Points lost, read once per state (the last
    one asked, kept beside them): every model's condition is asked of one state in turn."""
    last = _LAST[0]  # one read of one slot: another thread may put its own state there
    if last is not None and last[0] is state:
        return last[1]
    found = (tracking.lost_ids(state), tracking.mapping(state, "hull_lost"))
    _LAST[0] = (state, found)
    return found


_LAST: list[Any] = [None]  # (the state last read, what `_damage` read of it)

# by the unit's identity (kept beside it, so that its id stays its own), whether it is
# lost and its Hull Points lost
_CONDITIONS: dict[tuple[int, bool, int], tuple[Unit, UnitCondition]] = {}
MEMO_SIZE = 4096


def outcome(state: GameState, start: GameState, turn: int | None = None) -> Outcome | None:
    """R002.22 / A002.19: the result the End Phase or a Crushing Triumph recorded (whatever
    the session's `turn`: the End Phase keeps the count)."""
    result = tracking.get(state, "result")
    if result is None:
        return None
    sides = start.sides
    scores = tuple((side, float(victory.total_victory_points(state, side))) for side in sides)
    how = str(result.get("how", "draw"))
    winner = result.get("winner")
    if how == "draw":
        how = "equal" if result.get("points") is not None else "both"
    spec_id = DRAW_RULE if how == "equal" else ORDERS_RULE
    return Outcome(
        winner=str(winner) if winner is not None else None,
        scores=scores,
        reason=REASONS.get(how, how),
        spec_id=spec_id,
        turn=int(result.get("turn", 1)),
        measure="VP",
    )
