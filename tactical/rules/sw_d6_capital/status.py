"""Star Wars D6 capital combat in words: a ship's status (its Command Deck and `condition`)
and a resolution's summary.

Status: the damage level (R004.18: undamaged, light, heavy, severe, destroyed) as a bar of
levels left, the effects taken (R004.35), Ionization (R004.41), shields per arc as pips
(R004.24), the order (R004.17) and speed, Force Points (R004.13); marks for the order,
the effects and whether the ship has fired or is done this turn; a destroyed ship as a
wreck. Weapons: name, arc, ranges in Space units (GEO004.2), Fire Control and damage,
whether it has fired this turn.
"""

from __future__ import annotations

from collections.abc import Sequence

from tactical.errors import UserError
from tactical.model import GameState, Unit
from tactical.rules.base import Action, Event, TurnPosition, default_description, unit_name
from tactical.rules.lookups import first_event
from tactical.rules.status import (
    OrderEntry,
    StatusValue,
    Unavailable,
    UnitStatus,
    WeaponStatus,
    counted,
    words,
)
from tactical.rules.sw_d6_capital import choices, ledger, sequence
from tactical.rules.sw_d6_capital.codes import code_text
from tactical.rules.sw_d6_capital.deck import deck_of
from tactical.rules.sw_d6_capital.tables import (
    ACTION,
    ARCS,
    CATASTROPHIC,
    COMMAND,
    DESTROYED,
    LEVEL_TITLES,
    LEVELS,
    MOVEMENT,
    ORDER_TABLE,
)

STEPS = len(LEVELS) - 1  # undamaged to destroyed


def unit_status(state: GameState, unit: Unit) -> UnitStatus:
    """What the card and the table show of a ship or fighter unit now."""
    deck = deck_of(unit)
    try:
        condition = ledger.condition(state, unit.id)
    except UserError:
        return UnitStatus((StatusValue("Ship", "not in play"),))
    level = condition.level
    rank = LEVELS.index(level) if level in LEVELS else STEPS
    values = [
        StatusValue(
            "Damage",
            LEVEL_TITLES.get(level, words(level)),
            STEPS - rank,
            STEPS,
            help="levels left before destroyed",
            spec_id="R004.18",
            token="bar",
        )
    ]
    effects = [words(e.code) for e in condition.effects]
    values.append(StatusValue("Effects", ", ".join(effects) or "none", spec_id="R004.35"))
    values.append(counted("Ionization", condition.ionization, 4, unit="D", spec_id="R004.41"))
    shields = ", ".join(
        f"{arc} {code_text(pips)}" for arc, pips in zip(ARCS, condition.shield_arcs, strict=True)
    )
    values.append(
        StatusValue(
            "Shields",
            shields,
            help=f"{deck.shields} to angle over the arcs",
            spec_id="R004.24",
        )
    )
    order = ORDER_TABLE.get(condition.order) if condition.order else None
    values.append(StatusValue("Order", order.title if order else "none yet", spec_id="R004.17"))
    values.append(StatusValue("Speed", words(deck.speed), spec_id="R004.51"))
    if deck.force_points or condition.force_points:
        values.append(counted("Force Points", condition.force_points, spec_id="R004.13"))
    marks = list(effects)
    if order is not None and condition.order:
        marks.append(words(condition.order))  # the order's short name: "steady", "evasive"
    if condition.fired:
        marks.append("fired")
    if condition.done:
        marks.append("done")
    weapons = []
    for weapon in deck.weapons:
        low, short, medium, long = weapon.ranges
        weapons.append(
            WeaponStatus(
                weapon.name + (f" ×{weapon.count}" if weapon.count > 1 else ""),
                weapon.arc,
                f"{low:g}-{short:g}/{medium:g}/{long:g}",
                f"fire control {weapon.fire_control}, damage {weapon.damage}"
                + (", ion" if weapon.ion else ""),
                "fired" if weapon.id in condition.fired else "ready",
            )
        )
    wreck = level in (DESTROYED, CATASTROPHIC)
    return UnitStatus(tuple(values), tuple(weapons), tuple(marks), wreck=wreck)


def pass_refused(state: GameState, position: TurnPosition, side: str) -> Unavailable | None:
    """R004.10, R004.11: every captain rolls Initiative as the turn begins, so no side passes
    while this turn's roll is still to be made (unless the map keeps the reading before this
    fix, `initiative_pass`, where a pass left the roll to a later phase). R004.15, R004.17:
    in the Command phase every captain makes a Command roll and gives orders, so a side with
    a Command roll or its orders still open to it does not pass (unless `command_pass`, the
    reading before this fix). None otherwise."""
    try:
        state = sequence.ensure_setup(state)
        settings = ledger.settings(state)
    except UserError:
        return None
    if ledger.turn_of(state) < position.turn:
        if settings["initiative_pass"]:
            return None
        return Unavailable(
            side, "Pass", "every captain rolls Initiative at the start of each turn", "R004.11"
        )
    if settings["command_pass"]:
        return None
    try:
        phase = sequence.TURN_SEQUENCE.phases[position.phase].name
        if phase != COMMAND:
            return None
        prepared, _ = sequence.prepare(state, phase)
        owed = choices.command_choices(prepared, side, choices.excluded_sides(prepared, position))
    except UserError:
        return None
    if not owed:
        return None
    rolled = all(choice.kind != "command" for choice in owed)
    why = (
        "every captain gives orders for the turn"
        if rolled
        else "every captain makes a Command roll and gives orders for the turn"
    )
    return Unavailable(side, "Pass", why, "R004.17" if rolled else "R004.15")


def unavailable(state: GameState, position: TurnPosition, side: str) -> tuple[Unavailable, ...]:
    """In the Movement and Action phases, the side's ships still to go while another ship
    goes first (R004.50: lowest Initiative moves first; R004.25: the captain to act), each
    with the ship whose turn it is."""
    try:
        state = sequence.ensure_setup(state)
        if ledger.turn_of(state) < position.turn:
            return ()
        phase = sequence.TURN_SEQUENCE.phases[position.phase].name
        state, _ = sequence.prepare(state, phase)
    except UserError:
        return ()
    excluded = choices.excluded_sides(state, position)
    if phase == MOVEMENT:
        head, rule, doing = choices.move_head(state, excluded), "R004.50", "move"
        why = "moves first: ships move in Initiative order, lowest first"
    elif phase == ACTION:
        head, rule, doing = choices.fire_head(state, excluded), "R004.25", "act"
        why = "acts first: the captain with the fewest actions taken, highest Initiative first"
    else:
        return ()
    if head is None or head.side == side:
        return ()
    found = []
    for unit in state.units:
        if unit.side != side or (excluded and unit.side in excluded):
            continue
        condition = ledger.condition(state, unit.id)
        if condition.destroyed or (doing == "move" and condition.moved):
            continue
        if doing == "act" and condition.done:
            continue
        found.append(
            Unavailable(
                unit.id,
                f"{unit_name(state, unit.id)}: {doing}",
                f"{unit_name(state, head.id)} {why}",
                rule,
            )
        )
    return tuple(found)


def describe(before: GameState, action: Action, events: Sequence[Event]) -> str:
    """An attack as "Nowhere's Quad Turbolasers at Imperial Star Destroyer: hit (19 against
    15), damage 19 against 43: no effect"; other steps by what they decided."""
    declare = next((e for e in events if e.kind == "declare" and e.get("attacker")), None)
    to_hit = first_event(events, "to-hit")
    if declare is not None and to_hit is not None:
        attacker = unit_name(before, str(declare.get("attacker")))
        target = unit_name(before, str(declare.get("target")))
        weapon = _weapon_name(before, str(declare.get("attacker")), str(declare.get("weapon")))
        said = f"{attacker}'s {weapon} at {target}: "
        if not to_hit.get("hit"):
            return said + f"miss ({to_hit.get('roll')} against {to_hit.get('difficulty')})"
        said += f"hit ({to_hit.get('roll')} against {to_hit.get('difficulty')})"
        margin = first_event(events, "margin")
        outcome = first_event(events, "outcome")
        if margin is not None:
            said += f", damage {margin.get('damage')} against {margin.get('resistance')}"
        if outcome is not None:
            said += f": {words(str(outcome.get('result')))}"
        return said
    for event in events:
        if event.kind == "initiative":
            order = ", ".join(unit_name(before, str(u)) for u in event.get("order", ()))
            return f"Initiative order: {order}"
        if event.kind == "order":
            speed = words(str(event.get("speed")))
            return f"{unit_name(before, action.actor)} orders {event.get('title')}, {speed}"
        if event.kind == "move":
            return (
                f"{unit_name(before, action.actor)} moves {float(event.get('distance', 0)):g} "
                f"Space ({event.get('path')})"
            )
        if event.kind == "command":
            return (
                f"{unit_name(before, action.actor)}'s Command roll: {event.get('roll')} against "
                f"{event.get('difficulty')}"
            )
    return default_description(before, action, events)


def _weapon_name(state: GameState, unit_id: str, weapon_id: str) -> str:
    if state.has_unit(unit_id):
        for weapon in deck_of(state.unit(unit_id)).weapons:
            if weapon.id == weapon_id:
                return f"{weapon.name} ({weapon.arc})"
    return words(weapon_id)


def acting_order(state: GameState, position: TurnPosition) -> tuple[OrderEntry, ...]:
    """R004.11 / R004.14 / R004.25: the captains in this turn's Initiative order as the phase
    takes them — orders and movement lowest first, fire highest first — with each one's
    total, who has had his go and who acts now (nothing before the turn's contest)."""
    state = sequence.ensure_setup(state)
    info = ledger.initiative_info(state)
    totals = info.get("totals") or {}
    if ledger.turn_of(state) < position.turn or not totals:
        return ()
    phase = sequence.TURN_SEQUENCE.phases[position.phase].name
    state, _ = sequence.prepare(state, phase)
    turn = ledger.turn_of(state)
    order = ledger.initiative_order(state)
    excluded = choices.excluded_sides(state, position)
    head = None
    if phase == COMMAND:
        head = choices.order_head(state, excluded)
    elif phase == ACTION:
        head = choices.fire_head(state, excluded)
    elif phase == MOVEMENT:
        head = choices.move_head(state, excluded)
    if phase in (COMMAND, MOVEMENT):
        order = tuple(reversed(order))  # lowest Initiative first (R004.14)
    entries = []
    for unit_id in order:
        cond = ledger.condition(state, unit_id)
        if cond.out_of_action(turn):
            continue
        done = {
            COMMAND: cond.order is not None,
            ACTION: cond.done,
            MOVEMENT: cond.moved,
        }.get(phase, False)
        total = totals.get(unit_id)
        entries.append(
            OrderEntry(
                unit_id,
                state.unit(unit_id).side,
                f"initiative {total}" if total is not None else "",
                done=bool(done),
                acting=head is not None and head.id == unit_id,
            )
        )
    return tuple(entries)
