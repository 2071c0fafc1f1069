"""Heavy Combat: the end of a duel and its score (issue 15; docs/game-end.md, A001.E1).

The duel is over when a ship is a wreck or has disengaged (R001.35, the scenario's
disengagement); the seed names no winner. Adopted reading (A001.E1, the attrition end of
`tactical.rules.ending`): a ship's strength is its internals; the share it has lost is
its destroyed boxes over its internals (plus a quarter of its shield damage points, a
measure for the agents only: the score counts ships crippled); it is crippled once the
destroyed boxes reach the catastrophic-damage threshold (round(3/4 x internals),
R001.35), out of the fight when it is a wreck or has disengaged. The game ends when a
side has no ship able to fight or at the turn limit (map option `turn_limit`).
"""

from __future__ import annotations

from tactical.errors import UserError
from tactical.model import GameState, Unit
from tactical.rules.ending import UnitCondition
from tactical.rules.heavy_combat import duel as duels
from tactical.rules.heavy_combat.ships import profile
from tactical.rules.heavy_combat.tables import catastrophic_threshold

SPEC_ID = "A001.E1"
SHIELD_SHARE = 0.25  # of a shield damage point, in internal boxes, for the share lost


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
    destroyed = ship.destroyed_total
    crippled = ship.out == "wreck" or destroyed >= max(1, catastrophic_threshold(card.internals))
    # the smooth measure also counts a quarter of the shield damage taken: the way through
    shields = sum(ship.shield_damage) * SHIELD_SHARE
    lost = 1.0 if crippled else min(0.99, (destroyed + shields) / value)
    return UnitCondition(value, lost, crippled, ship.out is None)
