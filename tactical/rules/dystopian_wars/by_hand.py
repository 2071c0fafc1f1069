"""A model's status set by hand in a game (adjust mode, issue 14).

Dystopian Wars keeps damage in `tracking`, not on the stat card: the values a player may
set are the Hull Points left (`hull_lost`, from 1 to the card's Hull Points: a model at 0
is destroyed, its loss recorded, which a hand cannot do: delete it instead), whether its
squadron is Broken (R002.27: the whole squadron) and a Wing's Fuel (R002.54, 0 to 6).
Setting them rolls nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tactical.model import FrozenMap, GameState, Unit
from tactical.rules.base import Field
from tactical.rules.dystopian_wars import tracking
from tactical.rules.dystopian_wars.cards import card
from tactical.rules.dystopian_wars.tables import WING_FUEL

HULL, BROKEN, FUEL = "hull", "broken", "fuel"


def status_fields(state: GameState, unit: Unit) -> tuple[Field, ...]:
    """The values of a model a player may set (module docstring), now."""
    profile = card(unit)
    fields = [
        Field(
            HULL,
            "int",
            default=tracking.hull_left(state, unit),
            low=1,
            high=profile.hull_points,
            doc="Hull Points left; a model at 0 is destroyed: delete it instead",
            spec_id="R002.44",
            title="Hull",
        ),
        Field(
            BROKEN,
            "bool",
            default=profile.squadron in tuple(tracking.get(state, "broken", ())),
            doc="the whole squadron is Broken: every model as if Out of Command",
            spec_id="R002.27",
            title="Squadron broken",
        ),
    ]
    wing = tracking.mapping(state, "wings").get(profile.squadron)
    if wing is not None and wing.get("fuel") is not None:
        fields.append(
            Field(
                FUEL,
                "int",
                default=int(wing["fuel"]),
                low=0,
                high=WING_FUEL,
                doc="the Wing's Fuel",
                spec_id="R002.54",
                title="Fuel",
            )
        )
    return tuple(fields)


def set_status(state: GameState, unit: Unit, values: Mapping[str, Any]) -> GameState:
    """The state with the model's values set in `tracking` (module docstring)."""
    profile = card(unit)
    if HULL in values:
        lost = profile.hull_points - int(values[HULL])
        state = tracking.put_in(state, "hull_lost", unit.id, lost or None)
    if BROKEN in values:
        broken = tuple(k for k in tracking.get(state, "broken", ()) if k != profile.squadron)
        if values[BROKEN]:
            broken += (profile.squadron,)
        state = tracking.put(state, broken=broken)
    if FUEL in values:
        wing = dict(tracking.mapping(state, "wings")[profile.squadron])
        wing["fuel"] = int(values[FUEL])
        state = tracking.put_in(state, "wings", profile.squadron, FrozenMap(wing))
    return state
