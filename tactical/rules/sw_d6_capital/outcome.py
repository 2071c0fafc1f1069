"""Star Wars D6 capital ships: the end of a game and its score (docs/game-end.md,
A004.E1).

The seed names no victory conditions. Adopted reading (A004.E1, the attrition end of
`tactical.rules.ending`): a ship's strength is its Scale plus its Hull in pips (R004.33,
R004.34), times the number of craft of a fighter unit (T004.16); the share it has lost
is its damage level's rank (none 0, light 1/4, heavy 1/2, severe 3/4, destroyed 1;
R004.35); a ship at severe damage or worse, catastrophic (being abandoned) or dead in
space (controls dead, R004.44) is crippled: it counts as lost and cannot fight.
"""

from __future__ import annotations

from tactical.model import GameState, Unit
from tactical.model.frozen import remembered
from tactical.rules.ending import UnitCondition
from tactical.rules.sw_d6_capital import ledger
from tactical.rules.sw_d6_capital.condition import LEVELS, SEVERE, Condition
from tactical.rules.sw_d6_capital.deck import UNIT_SIZES, deck_of

SPEC_ID = "A004.E1"


def strength(unit: Unit) -> float:
    """A004.E1: Scale plus Hull in pips, times the craft of a fighter unit; remembered by
    the unit's identity: the computer players ask every ship's strength after every roll
    they enumerate, and checking its stats again each time was a third of that."""
    return remembered(_STRENGTHS, unit, _strength, 1024)


def _strength(unit: Unit) -> float:
    deck = deck_of(unit)
    craft = UNIT_SIZES[deck.unit_size][0] if deck.is_unit else 1
    return float(max(1, deck.scale.pips + deck.hull.pips) * max(1, craft))


_STRENGTHS: dict[int, tuple[Unit, float]] = {}  # by the unit's identity (`strength`)


def unit_condition(state: GameState, unit: Unit) -> UnitCondition:
    """A004.E1: how a ship as it started stands now; remembered by the identity of the
    ship's condition (`ledger.condition` reads it back by identity where a roll left it)."""
    value = strength(unit)
    if not state.has_unit(unit.id):
        return UnitCondition.gone(value)
    condition = ledger.condition(state, unit.id)
    slot = (id(unit), id(condition))
    known = _CONDITIONS.get(slot)
    if known is not None and known[0] is unit and known[1] is condition:
        return known[2]
    found = _unit_condition(value, condition)
    if len(_CONDITIONS) >= MEMO_SIZE:
        _CONDITIONS.clear()
    _CONDITIONS[slot] = (unit, condition, found)  # kept beside their ids: none reused
    return found


_CONDITIONS: dict[tuple[int, int], tuple[Unit, object, UnitCondition]] = {}
MEMO_SIZE = 4096


def _unit_condition(value: float, condition: Condition) -> UnitCondition:
    if condition.destroyed:
        return UnitCondition.gone(value)
    rank = LEVELS.index(condition.level) if condition.level in LEVELS else len(LEVELS) - 1
    crippled = condition.catastrophic or condition.controls_dead or rank >= LEVELS.index(SEVERE)
    lost = 1.0 if crippled else rank / (len(LEVELS) - 1)
    return UnitCondition(value, lost, crippled, not crippled)
