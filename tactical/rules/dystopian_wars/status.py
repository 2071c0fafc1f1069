"""Dystopian Wars in words: a model's status (its stat card and what `tracking` keeps) and a
resolution's summary.

Status: Hull Points left (R002.44 cards, `hull_lost`), Damage and Critical Ratings,
shield generators, lasting and end-of-turn critical effects, the squadron and whether it
is Broken (R002.27), activated this turn (R002.28), a prize (captured), a Tiny Flyer
wing's fuel (R002.54). Weapons: name, arc, Attack Dice by Range Band 1-4.
"""

from __future__ import annotations

from collections.abc import Sequence

from tactical.model import GameState, Unit
from tactical.rules.base import Action, Event, default_description, unit_name
from tactical.rules.dystopian_wars import tracking
from tactical.rules.dystopian_wars.cards import card
from tactical.rules.status import StatusValue, UnitStatus, WeaponStatus, counted, words


def unit_status(state: GameState, unit: Unit) -> UnitStatus:
    """What the card and the table show of a model now."""
    profile = card(unit)
    left = tracking.hull_left(state, unit)
    values = [
        counted(
            "Hull",
            left,
            profile.hull_points,
            help="Hull Points left",
            spec_id="R002.44",
            token="bar",
        ),
        counted("Damage rating", profile.damage_rating, help="hits for one Hull Point"),
        counted("Critical rating", profile.critical_rating, help="hits for a Critical Hit"),
    ]
    if profile.shield_generators:
        values.append(counted("Shield generators", profile.shield_generators, spec_id="R002.49"))
    lasting = tracking.effects(state, unit.id)
    passing = tracking.until_end(state, unit.id)
    values.append(
        StatusValue(
            "Critical effects",
            ", ".join(words(code) for code in lasting) or "none",
            help="lasting until repaired",
        )
    )
    if passing:
        values.append(
            StatusValue("Until the End Phase", ", ".join(words(code) for code in passing))
        )
    squadron = profile.squadron.split(":", 1)[-1]
    broken = profile.squadron in tuple(tracking.get(state, "broken", ()))
    activated = profile.squadron in tuple(tracking.get(state, "activated", ()))
    values.append(StatusValue("Squadron", words(squadron) + (" (broken)" if broken else "")))
    values.append(
        StatusValue("Activated this turn", "yes" if activated else "no", spec_id="R002.28")
    )
    prize = tracking.mapping(state, "prizes").get(unit.id)
    if prize:
        values.append(StatusValue("Captured by", str(prize)))
    wing = tracking.mapping(state, "wings").get(profile.squadron)
    if wing is not None and wing.get("fuel") is not None:
        values.append(counted("Fuel", int(wing["fuel"]), profile.fuel, spec_id="R002.54"))
    marks = [words(code) for code in (*lasting, *passing)]
    if broken:
        marks.append("broken")
    if activated:
        marks.append("activated")
    weapons = tuple(
        WeaponStatus(
            weapon.name,
            words(weapon.arc_name),
            "bands 1-4",
            "-".join(str(d) for d in weapon.attack_dice) + " dice",
            "",
        )
        for weapon in profile.weapons
    )
    return UnitStatus(tuple(values), weapons, tuple(marks), wreck=left <= 0)


def describe(before: GameState, action: Action, events: Sequence[Event]) -> str:
    """An attack as "Markgraf's Main turrets at Ruler: 8 dice, 6 hits, 1 saved — no effect";
    other steps by what they decided."""
    actor = unit_name(before, action.actor)
    declare = next((e for e in events if e.kind == "declare" and e.get("weapon")), None)
    if declare is not None and any(e.kind in ("hits", "damage") for e in events):
        return _attack_words(before, declare, events)
    for event in events:
        if event.kind == "initiative":
            return f"{event.get('winner')} wins the initiative for turn {event.get('turn')}"
        if event.kind == "activate":
            squadron = str(event.get("squadron", "")).split(":", 1)[-1]
            return f"{actor} activates {words(squadron)}"
        if event.kind == "field-order":
            return f"{actor}'s Field Order {event.get('order')}: {event.get('text')}"
        if event.kind == "boost":
            return (
                f"{actor}'s {event.get('generator')} generator boost: "
                f'{event.get("inches")}" more, {event.get("movement")}" in all'
            )
        if event.kind == "move":
            return f'{actor} moves {float(event.get("distance", 0)):.2f}" ({event.get("path")})'
        if event.kind == "declared":
            target = unit_name(before, str(event.get("target")))
            return f"{actor} declares {event.get('weapon')} at {target}"
    return default_description(before, action, events)


def _attack_words(before: GameState, declare: Event, events: Sequence[Event]) -> str:
    attacker = unit_name(before, str(declare.get("attacker")))
    target = unit_name(before, str(declare.get("target")))
    head = f"{attacker}'s {declare.get('weapon')} at {target}"
    hits = next((e for e in events if e.kind == "hits"), None)
    saved = sum(1 for e in events if e.kind == "shield" and e.get("saved"))
    damage = next((e for e in events if e.kind == "damage"), None)
    parts = []
    if hits is not None:
        count = int(hits.get("hits", 0))
        parts.append(f"{hits.get('dice')} dice, {count} hit{'' if count == 1 else 's'}")
    parts.append(f"{saved} saved" if saved else "none saved")
    said = f"{head}: " + ", ".join(parts)
    if damage is not None:
        result = str(damage.get("result", ""))
        said += f" — {result}"
    return said
