"""A model's status set by hand in a game (adjust mode).

Dystopian Wars keeps damage in `tracking`, not on the stat card: the values a player may
set are the Hull Points left (`hull_lost`, from 1 to the card's Hull Points: a model at 0
is destroyed, its loss recorded, which a hand cannot do: delete it instead), whether its
squadron is Broken (R002.27: the whole squadron), whether it is Derelict (R002.19: it
Drifts in the End Phase; the booklet does not say what makes a model Derelict, so a
player marks it), a Wing's Fuel (R002.54, 0 to 6) and the lasting Critical Hits it
carries, by their Critical Hit Table totals (R002.1: 2D6, 2 to 12; "7, 9", or "none";
other lasting effects, such as a generator's, are kept). Setting them rolls nothing.

An adjustment may not change the squadron that is activating (`adjustment_refused`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tactical.errors import UserError
from tactical.model import FrozenMap, GameState, Unit
from tactical.rules.base import Field, unit_name
from tactical.rules.dystopian_wars import tracking
from tactical.rules.dystopian_wars.cards import card, squadron_key
from tactical.rules.dystopian_wars.tables import WING_FUEL

HULL, BROKEN, FUEL, CRITICALS, DERELICT = "hull", "broken", "fuel", "criticals", "derelict"
CRITICAL_PREFIX = "critical-"  # `dicework.critical_code`: the table's entry for a 2D6 total


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
    if not profile.is_tiny_flyer:  # a Wing is Lost or Lands, it never drifts (R002.59)
        fields.append(
            Field(
                DERELICT,
                "bool",
                default=tracking.is_derelict(state, unit.id),
                doc="a Derelict model drifts in the End Phase and moves no more",
                spec_id="R002.19",
                title="Derelict",
            )
        )
    totals = [code.removeprefix(CRITICAL_PREFIX) for code in _criticals(state, unit)]
    fields.append(
        Field(
            CRITICALS,
            "str",
            default=", ".join(totals) or "none",
            doc='lasting Critical Hits by their 2D6 totals, e.g. "7, 9", or "none"',
            spec_id="R002.1",
            title="Critical hits",
        )
    )
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
    if DERELICT in values:
        derelicts = tuple(u for u in tracking.get(state, "derelicts") or () if u != unit.id)
        if values[DERELICT]:
            derelicts += (unit.id,)
        state = tracking.put(state, derelicts=derelicts or None)
    if CRITICALS in values:
        codes = _critical_codes(unit_name(state, unit.id), str(values[CRITICALS]))
        others = [c for c in tracking.effects(state, unit.id) if not c.startswith(CRITICAL_PREFIX)]
        state = tracking.put_in(state, "effects", unit.id, tuple(others + codes) or None)
    if FUEL in values:
        wing = dict(tracking.mapping(state, "wings")[profile.squadron])
        wing["fuel"] = int(values[FUEL])
        state = tracking.put_in(state, "wings", profile.squadron, FrozenMap(wing))
    return state


def adjustment_refused(before: GameState, after: GameState) -> str | None:
    """R002.28: the squadron being activated keeps its models until its activation is over.
    A model of it taken off the table, moved to another side or squadron, or a model added
    to it, would leave the activation's record (its commander, the models moved, the
    attacks declared) naming models it no longer has: every later step failed, and the save
    would not reopen. The reason in words, or None."""
    act = tracking.get(before, "activation")
    if not act or not act.get("squadron"):
        return None
    squadron = str(act["squadron"])
    members = [unit for unit in before.units if squadron_key(unit) == squadron]
    changed = [
        unit
        for unit in members
        if not after.has_unit(unit.id) or squadron_key(after.unit(unit.id)) != squadron
    ]
    joined = [
        unit
        for unit in after.units
        if squadron_key(unit) == squadron and unit.id not in {m.id for m in members}
    ]
    if changed:
        name = unit_name(before, changed[0].id)
        return f"the {name} is activating: finish or undo its activation first"
    if joined and members:
        name = unit_name(before, members[0].id)
        return f"the {name}'s squadron is activating: finish or undo its activation first"
    return None


def _criticals(state: GameState, unit: Unit) -> list[str]:
    return [c for c in tracking.effects(state, unit.id) if c.startswith(CRITICAL_PREFIX)]


def _critical_codes(name: str, text: str) -> list[str]:
    """ "7, 9" (or "7 9") -> the Critical Hit codes; "none" -> none. UserError otherwise."""
    words = text.replace(",", " ").split()
    if words in ([], ["none"]):
        return []
    codes = []
    for word in words:
        if not word.isdigit() or not 2 <= int(word) <= 12:
            raise UserError(
                f"{name}: Critical hits: {word!r} is not a Critical Hit Table "
                'total (2D6: 2 to 12); write them as "7, 9", or "none"',
                spec_id="R002.1",
            )
        codes.append(f"{CRITICAL_PREFIX}{int(word)}")
    return codes
