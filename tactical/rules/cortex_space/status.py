"""Cortex space in words: a vessel's status (its stats and `tracker`), a resolution's
summary, and what a side cannot do now, with the reason and rule (`unavailable`).

Status: Life Points left after Wound and Stun (R003.25, base Cortex G.5: out at Wound
>= Life Points, adrift at Wound + Stun; counted x k once a smaller-scale attacker has hit
it, R003.58), Armor, Speed (R003.16), the dice of the pilot
and the gunner, battle damage (R003.29: FTL, sensors, sublight), a wing's fighters left
(R003.30), actions taken this turn (R003.8); marks for an ended activation, battle damage
and a missile lock; a vessel put out of action as a wreck. Weapons: name, all round (the
seed has no arcs), the longest range band, damage dice, mounts working and fired this turn,
missiles left.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tactical.errors import UserError
from tactical.model import GameState, Unit
from tactical.rules.base import Action, Event, TurnPosition, default_description, unit_name
from tactical.rules.cortex_space import sequence, tracker
from tactical.rules.cortex_space.positions import centre_distance
from tactical.rules.cortex_space.units import settings, vessel
from tactical.rules.lookups import first_event
from tactical.rules.status import (
    OrderEntry,
    StatusValue,
    Unavailable,
    UnitStatus,
    WeaponStatus,
    counted,
    player_words,
    words,
)


def unit_status(state: GameState, unit: Unit) -> UnitStatus:
    """What the card and the table show of a vessel or wing now."""
    card = vessel(unit)
    values: list[StatusValue] = []
    if card.is_wing:
        values.append(
            counted(
                "Fighters",
                len(card.fighters),
                len(card.members),
                help="fighters of the wing still flying",
                spec_id="R003.30",
                token="pips",
            )
        )
    else:
        left = max(0, card.life_points - card.wound - card.stun)
        # R003.58: once a smaller-scale attacker has hit it, its damage is counted on its
        # Life Points x k (a basestar's 40 as 80), and the card says so
        counted_as = (
            f"; counted ×{card.lp_multiple} ({card.printed_life_points} printed) since a "
            "smaller-scale vessel hit it"
            if card.lp_multiple != 1
            else ""
        )
        values.append(
            counted(
                "Life points",
                left,
                card.life_points,
                help="left after Wound and Stun; adrift at none" + counted_as,
                spec_id="R003.58" if counted_as else "R003.25",
                token="bar",
            )
        )
        values.append(counted("Wound", card.wound, card.life_points, spec_id="R003.25"))
        values.append(counted("Stun", card.stun, card.life_points, spec_id="R003.25"))
    values.append(
        StatusValue("Armor", f"wound {card.armor_wound}, stun {card.armor_stun}", spec_id="R003.58")
    )
    values.append(counted("Speed", card.speed, spec_id="R003.16"))
    values.append(StatusValue("Pilot", card.pilot_skill.name, spec_id="R003.10"))
    values.append(StatusValue("Gunnery", card.gunnery_skill.name, spec_id="R003.55"))
    actions = tracker.actions_taken(state, tracker.character_key(unit.id))
    values.append(counted("Actions this turn", actions, spec_id="R003.8"))
    damage = []
    if card.ftl_destroyed:
        damage.append("FTL destroyed")
    if card.sensors_damaged:
        damage.append(f"sensors damaged ×{card.sensors_damaged}")
    if card.sublight_destroyed:
        damage.append("sublight destroyed")
    elif card.sublight_damaged:
        damage.append(f"sublight damaged ×{card.sublight_damaged}")
    values.append(StatusValue("Battle damage", ", ".join(damage) or "none", spec_id="R003.29"))
    marks = list(damage)
    if tracker.is_done(state, unit.id):
        marks.append("done")
    if any(lock[2] == unit.id for lock in tracker.get(state, tracker.LOCKS, ())):
        marks.append("locked on")
    weapons = []
    for weapon in card.weapons:
        fired = tracker.fired(state, unit.id, weapon.name)
        shots = f"{weapon.working - fired} of {weapon.count} ready"
        if weapon.missiles:
            shots += f", {weapon.missiles} missiles"
        weapons.append(
            WeaponStatus(
                weapon.name,
                "all round",
                f"to {weapon.range}",
                weapon.damage.name + (f" ×{weapon.linked} linked" if weapon.linked > 1 else ""),
                shots,
            )
        )
    wreck = unit.id in tracker.table(state, tracker.WRECKED) or card.destroyed
    return UnitStatus(tuple(values), tuple(weapons), tuple(marks), wreck=wreck)


def describe(before: GameState, action: Action, events: Sequence[Event]) -> str:
    """An attack as "Viper (Starbuck)'s autocannons at Cylon Raider: 1 attack, no hit (4
    against 13)"; other actions by their outcome or result."""
    declare = next((e for e in events if e.kind == "declare" and e.get("attacker")), None)
    attacks = [e for e in events if e.kind == "attack"]
    if declare is not None and attacks:
        attacker = unit_name(before, str(declare.get("attacker")))
        target = unit_name(before, str(declare.get("target")))
        hits = sum(1 for e in attacks if e.get("hit"))
        rolls = ", ".join(f"{e.get('attack')} against {e.get('defense')}" for e in attacks)
        outcome = first_event(events, "outcome")
        said = (
            f"{attacker}'s {declare.get('weapon')} at {target}: {len(attacks)} "
            f"attack{'s' if len(attacks) != 1 else ''}, "
            f"{hits if hits else 'no'} hit{'s' if hits != 1 else ''} ({rolls})"
        )
        if outcome is not None and (outcome.get("wound") or outcome.get("stun")):
            said += f", {outcome.get('wound')} wound and {outcome.get('stun')} stun"
        return said
    for tell in (_rolled, _missile_words, _collision_words, _strafe_words, _station_words):
        said = tell(before, action, events)
        if said is not None:
            return said
    return default_description(before, action, events)


def _missile_words(before: GameState, action: Action, events: Sequence[Event]) -> str | None:
    """A missile lock, launch, out-flying or shooting-down in words (R003.38-R003.44):
    "Cylon Raider 2 locks its missiles on Battlestar Galactica: 11 against 3, locked
    (extraordinary)"; "... fires its missiles at ...: 1 turn to strike (4d2)"."""
    actor = unit_name(before, action.actor)
    weapon = action.params.get("weapon", "missiles")
    target = action.params.get("target")
    aimed = unit_name(before, str(target)) if target else "its target"
    total = next((e.get("total") for e in events if e.kind == "total"), None)
    if action.kind == "lock-missile":
        outcome, reach = first_event(events, "outcome"), first_event(events, "range")
        if outcome is None or total is None:
            return None
        against = f" against {reach.get('difficulty')}" if reach is not None else ""
        result = str(outcome.get("result", ""))
        locked = "locked" if outcome.get("locked") else "no lock"
        extra = " (extraordinary)" if result == "extraordinary" and outcome.get("locked") else ""
        return f"{actor} locks its {weapon} on {aimed}: {total}{against}, {locked}{extra}"
    if action.kind == "fire-missile":
        flight = first_event(events, "flight")
        if flight is None:
            return None
        turns = int(flight.get("turns") or 0)
        when = f"{turns} turn{'s' if turns != 1 else ''} to strike" if turns else "strikes now"
        return f"{actor} fires its {weapon} at {aimed}: {when} ({flight.get('damage')})"
    if action.kind == "out-fly":
        effort = first_event(events, "complex-action")
        if effort is None or total is None:
            return None
        if effort.get("reached"):
            how = "out-flown"
        else:
            left = int(effort.get("turns_left") or 0)
            how = f"{left} turn{'s' if left != 1 else ''} left to reach {effort.get('threshold')}"
        return f"{actor} tries to out-fly a missile in flight: {total} ({how})"
    if action.kind == "shoot-down":
        outcome = first_event(events, "outcome")
        if outcome is None:
            return None
        hit = "shot down" if outcome.get("destroyed") else "missed"
        return (
            f"{actor}'s {weapon} at a missile in flight: {outcome.get('roll')} against "
            f"{outcome.get('difficulty')}, {hit}"
        )
    return None


def _collision_words(before: GameState, action: Action, events: Sequence[Event]) -> str | None:
    """Avoiding an obstacle (R003.15-R003.18): "Viper (Starbuck) tries to avoid Cylon
    Raider 1: 12 against 15, a collision"."""
    if action.kind != "avoid-collision":
        return None
    mine = next(
        (e for e in events if e.kind == "collision-roll" and e.get("who") == action.actor), None
    )
    if mine is None:
        return None
    obstacle = action.params.get("obstacle")
    if obstacle and before.has_unit(str(obstacle)):
        what = unit_name(before, str(obstacle))
    elif obstacle and obstacle != "random":
        what = before.shown_terrain_names.get(str(obstacle), "an obstacle")
    else:
        what = "a random obstacle"
    avoided = mine.get("avoided")
    said = (
        f"{unit_name(before, action.actor)} tries to avoid {what}: {mine.get('roll')} against "
        f"{mine.get('difficulty')}, {'avoided' if avoided else 'a collision'}"
    )
    outcome = first_event(events, "outcome")
    lost = tuple(outcome.get("destroyed") or ()) if outcome is not None else ()
    if lost:
        said += "; destroyed: " + ", ".join(unit_name(before, str(u)) for u in lost)
    return said


def _strafe_words(before: GameState, action: Action, events: Sequence[Event]) -> str | None:
    """A strafing run (R003.21-R003.24): "Cylon Raider 2 strafes Cylon Basestar: 11 against
    15 to close, a collision: the run is aborted"; "...: 16 against 15 to close, no
    collision; the run 12 against 11, success: only Cylon Basestar's point defense can
    attack it this turn"."""
    if action.kind != "strafe":
        return None
    mine = next(
        (e for e in events if e.kind == "collision-roll" and e.get("who") == action.actor), None
    )
    target = action.params.get("target")
    aimed = unit_name(before, str(target)) if target else "its target"
    said = f"{unit_name(before, action.actor)} strafes {aimed}"
    if mine is not None and mine.get("roll") is not None:
        said += f": {mine.get('roll')} against {mine.get('difficulty')} to close"
    run = first_event(events, "strafing-run")
    if run is None:
        said += ", a collision: the run is aborted"
    else:
        said += (
            f", no collision; the run {run.get('roll')} against {run.get('difficulty')}, "
            f"{words(str(run.get('result')))}"
        )
        outcome = first_event(events, "outcome")
        if outcome is not None and outcome.get("only_point_defense"):
            said += f": only {aimed}'s point defense can attack it this turn"
    outcome = first_event(events, "outcome")
    lost = tuple(outcome.get("destroyed") or ()) if outcome is not None else ()
    if lost:
        said += "; destroyed: " + ", ".join(unit_name(before, str(u)) for u in lost)
    return said


# where a crew member stands, as a player says it ("Adama in command", "Hoshi at the helm")
STATION_WORDS = {
    "co": "in command",
    "xo": "as XO",
    "helm": "at the helm",
    "pilot": "at the controls",
    "dradis": "on DRADIS",
    "comms": "on comms",
    "tactical": "at tactical",
}


def _station_words(before: GameState, action: Action, events: Sequence[Event]) -> str | None:
    """A crew member's station action (R003.45-R003.58): "Battlestar Galactica, Hoshi at
    the helm: evasive manoeuvre 2 against 11, failure; -2 steps on attack rolls; defense now 2"."""
    declare = first_event(events, "declare")
    if declare is None or not declare.get("station"):
        return None
    total = next((e.get("total") for e in events if e.kind == "total"), None)
    if total is None:
        return None
    crew, station = declare.get("crew"), str(declare.get("station"))
    post = STATION_WORDS.get(station, f"at the {words(station)} station")
    said = f"{unit_name(before, action.actor)}, {crew} {post}: {words(action.kind)} {total}"
    result = first_event(events, "station-result")
    if result is not None:
        said += f" against {result.get('difficulty')}, {words(str(result.get('result')))}"
    lookup = first_event(events, "lookup")
    if lookup is not None:
        steps = lookup.get("attack_steps", lookup.get("steps"))
        if steps:
            applies = " and ".join(map(str, lookup.get("applies") or ("attack",)))
            plural = "s" if abs(int(steps)) != 1 else ""
            said += f"; {int(steps):+d} step{plural} on {applies} rolls"
    defense = first_event(events, "defense-set")
    if defense is not None:
        said += f"; defense now {defense.get('value')}"
    return said


def _rolled(before: GameState, action: Action, events: Sequence[Event]) -> str | None:
    """An Initiative roll as "Battlestar Galactica rolls Initiative: 11" (base Cortex) and a
    dogfight for the Advantage as "Viper (Apollo) dogfights Cylon Raider 2 for the
    Advantage: 13 against 8; Viper (Apollo) has it, +2 steps (extraordinary)" (R003.10,
    R003.14); None for anything else."""
    totals = {str(e.get("who")): e.get("total") for e in events if e.kind == "total"}
    actor = unit_name(before, action.actor)
    if action.kind == "initiative" and action.actor in totals:
        return f"{actor} rolls Initiative: {totals[action.actor]}"
    opponent = action.params.get("opponent")
    if action.kind != "advantage" or action.actor not in totals or opponent not in totals:
        return None
    said = (
        f"{actor} dogfights {unit_name(before, str(opponent))} for the Advantage: "
        f"{totals[action.actor]} against {totals[opponent]}"
    )
    won = first_event(events, "advantage")
    holder = won.get("holder") if won is not None else None
    if not holder:
        return f"{said}; no one has it"
    steps = int(won.get("steps") or 1)
    how = " (extraordinary)" if won.get("extraordinary") else ""
    plural = "s" if steps != 1 else ""
    return f"{said}; {unit_name(before, str(holder))} has it, +{steps} step{plural}{how}"


def unavailable(state: GameState, position: TurnPosition, side: str) -> tuple[Unavailable, ...]:
    """What `side` cannot do now and why. Advantage / initiative: a vessel out of action
    rolls nothing (base Cortex, G.5), and one with no enemy within the dogfight distance cannot
    dogfight for the Advantage (R003.10). Actions: the vessels waiting while others act
    first (R003.11, vessels act in order of their results); in the group acting now, each
    gun and missile launcher no enemy can be fired at or locked on, with the reason the
    rules give for the nearest enemy (out of range, fired this turn, out of action...)."""
    if tracker.TURN not in state.rule_state:
        state = sequence.setup(state)
    if not sequence.is_current(state, position):
        return ()
    options = settings(state)
    if position.phase == sequence.ADVANTAGE_PHASE:
        return _rolls_refused(state, side, options)
    return _waiting(state, side) + _fire_refused(state, side, options)


def _rolls_refused(
    state: GameState, side: str, options: Mapping[str, Any]
) -> tuple[Unavailable, ...]:
    rolled = tracker.table(state, tracker.INITIATIVE)
    reach = float(options["dogfight_inches"])
    found = []
    for unit in state.units:
        card = vessel(unit)
        if unit.side != side or unit.id in rolled:
            continue
        name = unit_name(state, unit.id)
        if card.destroyed or card.disabled:
            found.append(
                Unavailable(
                    unit.id,
                    f"{name}: roll Initiative",
                    f"{name} is out of action (Wound and Stun at its Life Points): it rolls "
                    "nothing",
                    "G.5",
                )
            )
            continue
        if not options["dogfighting"]:
            continue
        near = [
            other
            for other in state.units
            if other.side != side
            and not vessel(other).destroyed
            and centre_distance(unit, other) <= reach + 1e-9
        ]
        if not near:
            found.append(
                Unavailable(
                    unit.id,
                    f"{name}: dogfight for the Advantage",
                    f'no enemy within the dogfight distance ({reach:g}") of {name}',
                    "R003.10",
                )
            )
    return tuple(found)


def _waiting(state: GameState, side: str) -> tuple[Unavailable, ...]:
    group = sequence.current_group(state)
    if not group:
        return ()
    head = state.unit(group[0])
    results = tracker.table(state, tracker.INITIATIVE)
    first = results.get(head.id)
    found = []
    for unit in state.units:
        if unit.side != side or unit.id in group or tracker.is_done(state, unit.id):
            continue
        if not sequence.can_act(state, unit):
            continue
        name = unit_name(state, unit.id)
        mine = results.get(unit.id)
        numbers = f" ({first} against {mine})" if first is not None and mine is not None else ""
        found.append(
            Unavailable(
                unit.id,
                f"{name}: act",
                f"{unit_name(state, head.id)} acts first{numbers}: vessels act in order of their "
                "results, highest first",
                "R003.11",
            )
        )
    return tuple(found)


def _fire_refused(
    state: GameState, side: str, options: Mapping[str, Any]
) -> tuple[Unavailable, ...]:
    from tactical.rules.cortex_space import combat

    group = sequence.current_group(state)
    found = []
    for unit in state.units:
        if unit.side != side or unit.id not in group:
            continue
        card = vessel(unit)
        if card.destroyed or card.disabled:
            continue  # out of action: it can only end (see play), there is no weapon to list
        enemies = sorted(
            (u for u in state.units if u.side != side and not vessel(u).destroyed),
            key=lambda other: centre_distance(unit, other),
        )
        name = unit_name(state, unit.id)
        for weapon in card.weapons:
            if weapon.kind == combat.GUN:
                title = f"{name}: fire {weapon.name}"
            elif weapon.kind == combat.MISSILE and options["missile_locks"]:
                title = f"{name}: lock {weapon.name}"
            else:
                continue
            fired = tracker.fired(state, unit.id, weapon.name)
            if weapon.kind == combat.GUN and 0 < weapon.working <= fired:
                found.append(
                    Unavailable(
                        unit.id,
                        title,
                        f"{name}'s {weapon.name} have fired this turn ({fired} of "
                        f"{weapon.working} working)",
                        "R003.37",
                    )
                )
                continue
            refusal = _refusal(state, unit, weapon.name, enemies, combat.declare)
            if refusal is not None:
                found.append(Unavailable(unit.id, title, refusal.message, refusal.spec_id))
    return tuple(found)


def _refusal(
    state: GameState, unit: Unit, weapon: str, enemies: Sequence[Unit], declare: Callable
) -> UserError | None:
    """The rules' refusal of `weapon` at the nearest enemy, when no enemy is accepted."""
    first = None
    for enemy in enemies:
        try:
            declare(state, unit.id, weapon, enemy.id, {})
        except UserError as error:
            said = player_words(state, error.message).removesuffix(f" ({error.spec_id})")
            first = first or UserError(said, spec_id=error.spec_id)
            continue
        return None
    return first


def acting_order(state: GameState, position: TurnPosition) -> tuple[OrderEntry, ...]:
    """R003.10 / R003.11: the vessels by their Advantage or Initiative result this turn,
    highest first (those yet to roll last): in the Actions phase, who has ended its
    activation and which group acts now. Nothing before the turn's bookkeeping starts."""
    if not sequence.is_current(state, position):
        return ()
    rolled = tracker.table(state, tracker.INITIATIVE)
    acting = sequence.current_group(state) if position.phase == sequence.ACTIONS_PHASE else ()
    if position.phase == sequence.ADVANTAGE_PHASE and not rolled:
        return ()
    units = [u for u in state.units if sequence.can_act(state, u) or u.id in rolled]
    units.sort(key=lambda u: (rolled.get(u.id) is None, -(rolled.get(u.id) or 0)))
    return tuple(
        OrderEntry(
            unit.id,
            unit.side,
            f"initiative {rolled[unit.id]}" if unit.id in rolled else "no roll yet",
            done=position.phase == sequence.ACTIONS_PHASE and tracker.is_done(state, unit.id),
            acting=unit.id in acting,
        )
        for unit in units
    )
