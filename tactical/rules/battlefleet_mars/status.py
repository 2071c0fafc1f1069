"""Battlefleet Mars in words: a unit's status (SPEC §1) and a resolution's summary.

A ship's or base's damage codes go to the base game (R000.12), except that an L
result lowers its laser strength (A000.11); what the seed tracks is shown: laser
strength now and as printed ("2/5", R000.2, A000.11), missiles and fighters carried
and launched this turn (R000.17), a group's count, and whether the unit has fired
this turn (one attack a turn, see `play`).
"""

from __future__ import annotations

from collections.abc import Sequence

from tactical.model import GameState, Unit
from tactical.rules.base import Action, Event, TurnPosition, unit_name
from tactical.rules.battlefleet_mars import play
from tactical.rules.battlefleet_mars.combat import (
    LASER,
    MISSILES,
    available_missiles,
    weapons_of,
)
from tactical.rules.battlefleet_mars.tables import launch_limit, max_range
from tactical.rules.battlefleet_mars.units import GROUPS, UnitType, profile
from tactical.rules.lookups import first_event
from tactical.rules.status import StatusValue, Unavailable, UnitStatus, WeaponStatus, counted

TYPE_NAMES = {
    UnitType.BASE: "base",
    UnitType.CATAPULT: "catapult",
    UnitType.TRANSPORT: "transport",
    UnitType.MINER: "miner",
    UnitType.SHIP: "ship",
    UnitType.FIGHTER: "fighter group",
    UnitType.MISSILE: "missile group",
}


def unit_status(state: GameState, unit: Unit) -> UnitStatus:
    """What the card and the table show of a BFM unit now."""
    card = profile(unit)
    fired = unit.id in play.fired(state)
    values = [StatusValue("Type", TYPE_NAMES[card.kind], help="BFM unit type", spec_id="A000.2")]
    if card.has_lasers:
        values.append(
            counted(
                "Laser strength",
                card.laser_strength or 0,
                card.printed_laser_strength,
                help="now (lowered by L results) / as printed; to-hit, damage and CIWS use "
                "the first",
                spec_id="A000.11",
            )
        )
    if card.kind in GROUPS:
        what = "fighters" if card.kind is UnitType.FIGHTER else "missiles"
        values.append(
            counted(
                "Count", card.count, help=f"{what} in the group", spec_id="R000.11", token="pips"
            )
        )
    if card.is_carrier:
        values.append(counted("Missiles carried", card.missiles, spec_id="R000.17"))
        values.append(counted("Fighters carried", card.fighters, spec_id="R000.17"))
        if card.launch_capacity:
            values.append(
                counted(
                    "Missiles launched this turn",
                    card.launched,
                    launch_limit(card.launch_capacity),
                    help="twice the launch capacity a turn",
                    spec_id="R000.17",
                )
            )
            values.append(
                counted(
                    "Fighters launched this turn",
                    card.fighters_launched,
                    card.launch_capacity,
                    spec_id="A000.13",
                )
            )
    values.append(
        StatusValue(
            "Fired this turn",
            "yes" if fired else "no",
            help="one attack per unit a turn",
            spec_id="R000.3",
        )
    )
    weapons = []
    for weapon in weapons_of(unit):
        if weapon == LASER:
            strength = card.laser_strength or 0
            printed = card.printed_laser_strength
            shown = f"{strength}/{printed}" if printed not in (None, strength) else f"{strength}"
            weapons.append(
                WeaponStatus(
                    "Laser",
                    "all round",
                    f"0-{max_range(strength)} range units",
                    f"strength {shown}",
                    "fired" if fired else "1 attack",
                )
            )
        elif weapon == MISSILES:
            left, _ = available_missiles(card)
            weapons.append(
                WeaponStatus(
                    "Missiles",
                    "all round",
                    "any",
                    "d10 + 1 each",
                    "fired" if fired else f"{left} ready",
                )
            )
    return UnitStatus(tuple(values), tuple(weapons), ("fired",) if fired else ())


def unavailable(state: GameState, position: TurnPosition, side: str) -> tuple[Unavailable, ...]:
    """In the combat sequence, the attacks of the side's units that have fired this turn
    (one attack per unit a turn, see `play`), each with the reason and its rule."""
    if play.TURN_SEQUENCE.phases[position.phase].name != play.COMBAT:
        return ()
    done = set(play.fired(state))
    found = []
    for unit in state.units:
        if unit.side != side or unit.id not in done:
            continue
        name = unit_name(state, unit.id)
        for weapon in weapons_of(unit):
            found.append(
                Unavailable(
                    unit.id,
                    f"{name}: {weapon}",
                    f"{name} has fired this turn: one attack per unit a turn",
                    "R000.3",
                )
            )
    return tuple(found)


def describe(before: GameState, action: Action, events: Sequence[Event]) -> str:
    """An attack's outcome ("Deimos Base's laser at Ares cruiser Nemesis: hit, result L3"),
    a purchase's or a launch's totals."""
    actor = unit_name(before, action.actor)
    if action.kind == "attack":
        weapon = str(action.params.get("weapon", ""))
        target = unit_name(before, str(action.params.get("target", "")))
        head = f"{actor}'s {weapon} at {target}"
        if weapon == MISSILES:
            return f"{head}: {_missile_words(events)}"
        return f"{head}: {_laser_words(events)}"
    # a purchase or a launch in the words of its totals' event
    totals = {"purchase": "lp-cost", "launch": "launch-declared"}.get(action.kind)
    event = first_event(events, totals)
    if event is None:
        return f"{actor}: {action.kind}"
    fighters, missiles = event.get("fighters", 0), event.get("missiles", 0)
    if action.kind == "purchase":
        return (
            f"{actor} buys {fighters} fighters and {missiles} missiles for {event.get('lp', 0)} LP"
        )
    return f"{actor} launches {missiles} missiles and {fighters} fighters"


def _laser_words(events: Sequence[Event]) -> str:
    needed = next((e.get("needed") for e in events if e.kind == "threshold"), None)
    roll = next((e.get("roll") for e in events if e.kind == "to-hit"), None)
    outcome = first_event(events, "outcome")
    if needed is None:
        need = ""
    elif int(needed) <= 0:  # R000.5: N = 0, no roll can miss
        need = f"rolled {roll}, any roll hits"
    else:
        need = f"rolled {roll}, needed {needed} or more"
    if outcome is None or outcome.get("result") == "miss":
        return f"miss ({need})" if need else "miss"
    result = outcome.get("result")
    said = f"hit ({need}), result {result}"
    if outcome.get("destroyed"):
        said += ", one destroyed"
    return said


def _missile_words(events: Sequence[Event]) -> str:
    declared = next((e.get("missiles") for e in events if e.kind == "declare"), 0)
    shot_down = sum(1 for e in events if e.kind == "ciws" and e.get("destroyed"))
    results = [str(e.get("result")) for e in events if e.kind == "lookup"]
    said = f"{declared} missiles, {shot_down} shot down by CIWS"
    if results:
        said += ", results " + " ".join(results)
    if any(e.kind == "outcome" and e.get("destroyed") for e in events):
        said += ", target destroyed"
    return said
