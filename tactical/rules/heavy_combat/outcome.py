"""Heavy Combat: the end of a duel and its score (docs/game-end.md, A001.E1).

The duel is over when a ship is a wreck or has disengaged (R001.35, the scenario's
disengagement); the seed names no winner. Adopted reading (A001.E1, the attrition end of
`tactical.rules.ending`): a ship's strength is its internals; the share it has lost is
its destroyed boxes over its internals (plus the shields' wear, a measure for the agents
only: the score counts ships crippled); it is crippled once the
destroyed boxes reach the catastrophic-damage threshold (round(3/4 x internals),
R001.35), out of the fight when it is a wreck or has disengaged. The game ends when a
side has no ship able to fight or at the turn limit (map option `turn_limit`).
"""

from __future__ import annotations

from tactical.errors import UserError
from tactical.model import GameState, Unit
from tactical.rules.ending import UnitCondition
from tactical.rules.heavy_combat import duel as duels
from tactical.rules.heavy_combat.ships import Profile, profile
from tactical.rules.heavy_combat.tables import catastrophic_threshold

SPEC_ID = "A001.E1"
LOST_CAP = 0.99  # the share lost of a ship still able to fight (crippled: 1)


def unit_condition(state: GameState, unit: Unit) -> UnitCondition:
    """A001.E1: how a ship as it started stands now."""
    card = profile(unit)
    value = float(max(1, card.internals))
    if not state.has_unit(unit.id):
        return UnitCondition.gone(value)
    if not duels.stored(state):
        return UnitCondition(value)
    try:
        ship = duels.from_rule_state(state).ship(unit.id)
    except UserError:  # a unit outside the duel: untouched
        return UnitCondition(value)
    # by the ship's record and the unit, both immutable (each roll the computer players
    # enumerate changes one ship of the two)
    known = _CONDITIONS.get((id(ship), id(unit)))
    if known is not None and known[0] is ship and known[1] is unit:
        return known[2]
    found = _ship_condition(card, ship, value)
    if len(_CONDITIONS) >= MEMO_SIZE:
        _CONDITIONS.clear()
    _CONDITIONS[(id(ship), id(unit))] = (ship, unit, found)
    return found


_CONDITIONS: dict[tuple[int, int], tuple[duels.Ship, Unit, UnitCondition]] = {}
MEMO_SIZE = 4096


def _ship_condition(card: Profile, ship: duels.Ship, value: float) -> UnitCondition:
    """A001.E1: a ship in the duel, from its record and its sheet."""
    destroyed = ship.destroyed_total
    threshold = max(1, catastrophic_threshold(card.internals))
    crippled = ship.out == "wreck" or destroyed >= threshold
    if crippled:
        return UnitCondition(value, 1.0, True, ship.out is None)
    # the smooth measure also counts the shields' wear (the way through to the internals):
    # their damage over their capacity fills the room between the most boxes short of
    # crippling and the cap, so more damage always counts for more until the ship is
    # crippled (a share of the shield points over the internals reached the cap first, and
    # the last shots before crippling a ship counted for nothing)
    room = max(0.0, LOST_CAP - (threshold - 1) / value)
    capacity = sum(card.shields)
    taken = sum(min(d, c) for d, c in zip(ship.shield_damage, card.shields, strict=True))
    wear = taken / capacity if capacity > 0 else 0.0
    lost = min(LOST_CAP, destroyed / value + room * wear)
    return UnitCondition(value, lost, False, ship.out is None)
