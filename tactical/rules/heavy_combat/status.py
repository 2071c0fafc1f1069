"""Heavy Combat in words: a ship's status (SPEC §2.0 "Ship state"), a Result's summary, and
the declarations of the phase the rules refuse now, with their reasons.

Status: power left of the roll (R001.4), shields per facing (capacity less damage,
R001.28), internal boxes left in all and per system (R001.34, R001.35), photon
torpedoes (R001.17), cloak (R001.29), the facing presented; marks for the moves
under way (close, retreat, lateral: no fire, R001.9, R001.10), an engaged cloak,
catastrophic damage and a chart row that stops its systems (R001.38: its weapons
shown out of action); a ship out of the duel as a wreck (or disengaged).
"""

from __future__ import annotations

from collections.abc import Sequence

from tactical.errors import UserError
from tactical.model import GameState, Unit
from tactical.rules.base import Action, Event, TurnPosition, unit_name
from tactical.rules.heavy_combat import duel_state, turn
from tactical.rules.heavy_combat.ships import profile, settings
from tactical.rules.heavy_combat.systems import fire_control_down, weapons_down
from tactical.rules.heavy_combat.tables import CATEGORIES, FACINGS
from tactical.rules.heavy_combat.weapons import stopped, weapons_of
from tactical.rules.lookups import first_event
from tactical.rules.status import (
    StatusValue,
    Unavailable,
    UnitStatus,
    WeaponStatus,
    counted,
    plain_value,
    player_words,
    words,
)

# a cloak's state reads as its name ("off", "engaging", "on"), but a disengaging one drops
CLOAK_WORDS = {"disengaging": "dropping"}


def unit_status(state: GameState, unit: Unit) -> UnitStatus:
    """What the card and the table show of a duelling ship now."""
    card = profile(unit)
    try:
        state, duel = duel_state.current(state)
        ship = duel.ship(unit.id)
    except UserError:
        return UnitStatus((StatusValue("Ship", "not in the duel"),))
    values = []
    if ship.power is not None:
        values.append(
            counted(
                "Power left",
                ship.remaining_power,
                ship.power,
                help="this turn's roll, less spent",
                spec_id="R001.4",
            )
        )
    else:
        values.append(StatusValue("Power left", "not rolled yet", spec_id="R001.4"))
    internals = sum(card.boxes)
    values.append(
        counted(
            "Internals",
            internals - ship.destroyed_total,
            internals,
            help="internal boxes left; the last one lost is the end",
            spec_id="R001.35",
            token="bar",
        )
    )
    for category, boxes in zip(CATEGORIES, card.boxes, strict=True):
        values.append(counted(category.capitalize(), boxes - ship.destroyed_in(category), boxes))
    for facing, capacity in zip(FACINGS, card.shields, strict=True):
        extra = ship.reinforcement_on(facing)
        values.append(
            counted(
                f"Shield {facing}",
                max(0, capacity - ship.damage_on(facing)),
                capacity,
                help=f"{extra} reinforcement points this turn" if extra else "",
                spec_id="R001.28",
            )
        )
    if ship.countermeasure_points:
        values.append(counted("Countermeasures", ship.countermeasure_points, spec_id="R001.27"))
    if card.photon_launchers:
        values.append(
            counted("Photon torpedoes", ship.torpedoes, card.torpedoes, spec_id="R001.17")
        )
    if card.cloak:
        values.append(
            StatusValue("Cloak", CLOAK_WORDS.get(ship.cloak, ship.cloak), spec_id="R001.29")
        )
    values.append(StatusValue("Elevation", ship.elevation, spec_id="GEO001.7"))
    marks = [m.kind for m in ship.moving(duel.turn)]
    if ship.cloak in ("engaging", "on"):
        marks.append("cloaked" if ship.cloak == "on" else "cloaking")
    if ship.catastrophic:
        marks.append("catastrophic")
    failure = str(settings(state.options)["system_failure"])
    if weapons_down(card, ship, failure):
        marks.append("weapons down")
    if fire_control_down(card, ship, failure):
        marks.append("fire control down")
    if ship.out == "disengaged":
        marks.append("disengaged")
    weapons = []
    for weapon in weapons_of(card):
        arcs = (
            "all round"
            if set(weapon.arcs) == set(FACINGS)
            else ", ".join(f for f in FACINGS if f in weapon.arcs)
        )
        shots = ""
        if weapon.launcher is not None:
            last = (
                ship.launchers[weapon.launcher - 1]
                if weapon.launcher <= len(ship.launchers)
                else None
            )
            shots = f"{ship.torpedoes} torpedoes" + (f", fired turn {last}" if last else "")
        if stopped(card, ship, weapon, failure):
            shots = ", ".join(part for part in (shots, "out of action") if part)
        weapons.append(
            WeaponStatus(
                weapon.name.replace("-", " "),
                arcs,
                "bands 1-3",
                "power points" if weapon.points_chosen else "fixed",
                shots,
            )
        )
    return UnitStatus(tuple(values), tuple(weapons), tuple(marks), wreck=ship.out == "wreck")


def describe(before: GameState, action: Action, events: Sequence[Event]) -> str:
    """A declaration in words; a Result's fire and range change."""
    actor = unit_name(before, action.actor)
    if action.kind == "resolve":
        parts = [_fire_words(before, shot) for shot in _shots(events)]
        for event in events:
            if event.kind == "range":
                parts.append(f"range band {event.get('before')} → {event.get('after')}")
        return "Result: " + ("; ".join(parts) if parts else "nothing fired")
    if action.kind == "roll_power":
        total = next((e.get("total") for e in events if e.kind == "power"), None)
        return f"{actor} rolls {total} power"
    spent = first_event(events, "declare")
    tail = (
        f" ({spent.get('cost')} power, {spent.get('spent')} of {spent.get('power')} spent)"
        if spent
        else ""
    )
    # the power a declaration spends is in the tail: not said twice
    said = _declared(before, action, skip=("power",) if spent else ())
    return f"{actor} declares {action.kind.replace('_', ' ')}{said}{tail}"


def _declared(before: GameState, action: Action, skip: tuple[str, ...] = ()) -> str:
    """A declaration's fields in words: "photon 1 at IKS Kronos (Klingon HC), general
    mode"; a unit by its name, never its id."""
    params = {k: v for k, v in action.params.items() if k not in skip}
    if not params:
        return ""

    def shown(value: object) -> str:
        if isinstance(value, str) and before.has_unit(value):
            return unit_name(before, value)
        return words(value) if isinstance(value, str) else str(plain_value(value))

    head = []
    if "weapon" in params:
        head.append(shown(params.pop("weapon")))
    if "target" in params:
        target = f"at {shown(params.pop('target'))}"
        head = [" ".join([*head, target])]
    rest = [
        f"{shown(v)} {words(k)}" if k == "mode" else f"{words(k)} {shown(v)}"
        for k, v in params.items()
    ]
    return ": " + ", ".join([*head, *rest])


def _shots(events: Sequence[Event]) -> list[list[Event]]:
    """The Result's events cut into one list per weapon fired (each starts at its "fire")."""
    shots: list[list[Event]] = []
    for event in events:
        if event.kind == "fire":
            shots.append([event])
        elif shots and event.kind in ("to-hit", "shield", "internal", "wreck"):
            shots[-1].append(event)
    return shots


def _fire_words(before: GameState, shot: list[Event]) -> str:
    fire = shot[0]
    firer = unit_name(before, str(fire.get("firer")))
    target = unit_name(before, str(fire.get("target")))
    head = f"{firer}'s {str(fire.get('weapon')).replace('-', ' ')} at {target}"
    hit = next((e.get("hit") for e in shot if e.kind == "to-hit"), None)
    if hit is False:
        return f"{head}: miss"
    shields = sum(int(e.get("points", 0)) for e in shot if e.kind == "shield")
    internals = sum(int(e.get("destroyed", 1)) for e in shot if e.kind == "internal")
    said = f"{head}: hit, {shields} on shields, {internals} internal"
    if any(e.kind == "wreck" for e in shot):
        said += ", wrecked"
    return said


def unavailable(state: GameState, position: TurnPosition, side: str) -> tuple[Unavailable, ...]:
    """Each declaration of the phase the rules refuse now, with the refusal's words and rule."""
    return tuple(
        Unavailable(choice.actor, choice.title, player_words(state, error.message), error.spec_id)
        for choice, error in turn.refusals(state, position, side)
    )
