"""A duelling ship's damage state set by hand in a game (adjust mode).

Heavy Combat keeps damage in its duel (`duel.Ship`), not in the ship sheets: the values a
player may set are the internal boxes left per chart category (R001.34), each shield
facing's capacity left (R001.28) and the photon torpedoes left (R001.17), each from 0 to
the ship's own sheet. Setting them rolls nothing (a catastrophic roll, R001.35, comes
with the next internal hit); a ship with every box gone is a wreck (R001.34), and one
given boxes back is in the duel again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tactical.model import GameState, Unit
from tactical.rules.base import Field
from tactical.rules.heavy_combat import duel_state
from tactical.rules.heavy_combat.duel import to_rule_state
from tactical.rules.heavy_combat.ships import profile
from tactical.rules.heavy_combat.tables import CATEGORIES, FACINGS

TORPEDOES = "photon_torpedoes"
WRECK = "wreck"


def shield_key(facing: str) -> str:
    return f"shield_{facing}"


def status_fields(state: GameState, unit: Unit) -> tuple[Field, ...]:
    """The values of a duelling ship a player may set (module docstring), now."""
    card = profile(unit)
    state, duel = duel_state.current(state)
    ship = duel.ship(unit.id)
    fields = [
        Field(
            category,
            "int",
            default=boxes - ship.destroyed_in(category),
            low=0,
            high=boxes,
            doc="internal boxes left",
            spec_id="R001.34",
            title=category.capitalize(),
        )
        for category, boxes in zip(CATEGORIES, card.boxes, strict=True)
    ]
    fields += [
        Field(
            shield_key(facing),
            "int",
            default=max(0, capacity - ship.damage_on(facing)),
            low=0,
            high=capacity,
            doc="shield points left on the facing",
            spec_id="R001.28",
            title=f"Shield {facing}",
        )
        for facing, capacity in zip(FACINGS, card.shields, strict=True)
    ]
    if card.photon_launchers:
        fields.append(
            Field(
                TORPEDOES,
                "int",
                default=ship.torpedoes,
                low=0,
                high=card.torpedoes,
                spec_id="R001.17",
                title="Photon torpedoes",
            )
        )
    return tuple(fields)


def set_status(state: GameState, unit: Unit, values: Mapping[str, Any]) -> GameState:
    """The state with the ship's values set in its duel (module docstring)."""
    card = profile(unit)
    state, duel = duel_state.current(state)
    ship = duel.ship(unit.id)
    destroyed = list(ship.destroyed)
    for index, (category, boxes) in enumerate(zip(CATEGORIES, card.boxes, strict=True)):
        if category in values:
            destroyed[index] = boxes - int(values[category])
    damage = list(ship.shield_damage)
    for index, (facing, capacity) in enumerate(zip(FACINGS, card.shields, strict=True)):
        if shield_key(facing) in values:
            # cumulative damage past a facing's capacity went on to the internals: left as is
            damage[index] = capacity - int(values[shield_key(facing)])
    changes: dict[str, Any] = {"destroyed": tuple(destroyed), "shield_damage": tuple(damage)}
    if TORPEDOES in values:
        changes["torpedoes"] = int(values[TORPEDOES])
    if sum(destroyed) >= sum(card.boxes):
        changes["out"] = WRECK
    elif ship.out == WRECK:
        changes["out"] = None
    return to_rule_state(state, duel.with_ship(unit.id, ship.evolve(**changes)))
