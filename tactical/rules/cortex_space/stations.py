"""Crew station actions (R003.46-R003.55): what the characters aboard a ship declare.

Each resolver rolls the station's pool (see `crew.station_pool`) with the character's
multiple-action penalty (R003.8), the crew steps already granted to that station, and
the sensors-damaged penalty on rolls that operate the sensors (R003.29); its outcome
becomes step modifiers stored in `rule_state` (see `tracker`): this turn's, next turn's,
or "once" for the next roll of that kind (R003.51).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tactical.dice import Dice
from tactical.errors import UserError
from tactical.model import FrozenMap, GameState, Unit
from tactical.model.frozen import memo_of
from tactical.rules.base import Event, Resolution
from tactical.rules.cortex_space import crew, tracker
from tactical.rules.cortex_space.acting import action_modifier, require_active
from tactical.rules.cortex_space.rolls import (
    Pool,
    PoolRoll,
    outcome,
    roll_pool,
    skill_pool,
    succeeded,
)
from tactical.rules.cortex_space.tables import (
    AVERAGE,
    EASY,
    HARD,
    HELM_ATTACK_MODIFIER,
    HELM_EVASIVE_MODIFIER,
    STATION_MODIFIER,
)
from tactical.rules.cortex_space.tracker import StepModifier, modifier_entry
from tactical.rules.cortex_space.units import CrewMember, Vessel, settings, vessel
from tactical.rules.lookups import table_unit

ASSIST_STEPS = {"botch": -1, "failure": 0, "success": 1, "extraordinary": 2}  # R003.46
DRADIS_DEFENSE_STEPS = {"botch": 0, "failure": 0, "success": 1, "extraordinary": 2}  # R003.49
DRADIS_GUNNER_STEPS = {"botch": 0, "failure": 0, "success": 1, "extraordinary": 1}  # A003.30
EVASIVE_DEFENSE_STEPS = 2  # R003.47
EVASIVE_GUNNER_STEPS = -1  # R003.47
OFFENSIVE_GUNNER_STEPS = 1  # R003.47

# action kind -> (variant, stations that may take it)
STATION_ACTIONS: dict[str, tuple[str, tuple[str, ...]]] = {
    "assist": ("A", ("co", "xo")),
    "forward-command": ("A", ("comms",)),
    "agility-defense": ("AB", ("pilot", "helm")),
    "pilot-defense": ("A", ("pilot", "helm")),
    "evasive-manoeuvre": ("AB", ("pilot", "helm")),
    "offensive-manoeuvre": ("A", ("pilot", "helm")),
    "attack-manoeuvre": ("B", ("helm", "pilot")),
    "dradis-defense": ("A", ("dradis",)),
    "dradis-gunner": ("A", ("dradis",)),
    "station-roll": ("B", ("co", "xo", "tactical")),
}


def station_members(card: Vessel, options: Mapping[str, Any], kind: str) -> tuple[CrewMember, ...]:
    """The crew who may take this station action under the variant in play."""
    if kind not in STATION_ACTIONS or not crew.crewed(card, options):
        return ()
    variants, stations = STATION_ACTIONS[kind]
    if crew.variant(options) not in variants:
        return ()
    if stations[0] in ("pilot", "helm"):
        person = crew.pilot_member(card, options)
        return (person,) if person is not None else ()
    return card.crew_at(*stations)


def _member(state: GameState, unit: Unit, kind: str, name: str | None) -> CrewMember:
    options = settings(state)
    card = vessel(unit)
    people = station_members(card, options, kind)
    if not people:
        _, stations = STATION_ACTIONS.get(kind, ("", ()))
        raise UserError(
            f"{unit.id!r} has no {' or '.join(stations) or kind} station for {kind!r} under "
            f"crew variant {crew.variant(options)}",
            spec_id="R003.56",
        )
    if not name:
        return people[0]
    for person in people:
        if person.name == name:
            return person
    raise UserError(
        f"{name!r} cannot take {kind!r} aboard {unit.id!r}: expected one of "
        + ", ".join(p.name for p in people),
        spec_id="R003.56",
    )


def _station_roll(
    state: GameState,
    unit: Unit,
    person: CrewMember,
    *,
    counts: bool = True,
    extra: tuple[StepModifier, ...] = (),
    scopes: tuple[str, ...] = (),
) -> tuple:
    """The member's station pool with every step modifier that applies to it."""
    options = settings(state)
    card = vessel(unit)
    sensors = (
        (
            StepModifier(
                f"sensors damaged x{card.sensors_damaged}", crew.sensor_steps(card), "R003.29"
            ),
        )
        if person.station in ("dradis", "tactical") and card.sensors_damaged
        else ()
    )
    modifiers, entries, character = _modifiers(state, unit, person, counts, scopes, sensors)
    modifiers.extend(extra)
    pool = crew.station_pool(card, person, options, sum(m.steps for m in modifiers))
    return pool, tuple(modifiers), entries, character


def _modifiers(
    state: GameState,
    unit: Unit,
    person: CrewMember,
    counts: bool,
    scopes: tuple[str, ...],
    sensors: tuple[StepModifier, ...] = (),
) -> tuple[list[StepModifier], Any, str]:
    """A crew member's step modifiers in order (the action penalty when the roll counts as an
    action, damaged sensors, then the tracked bonuses of the station and of `scopes`), the
    tracked entries the roll uses up, and the member's character key."""
    character = tracker.character_key(unit.id, person.name)
    modifiers: list[StepModifier] = []
    if counts:
        penalty = action_modifier(state, character)
        if penalty:
            modifiers.append(penalty)
    modifiers.extend(sensors)
    entries = tracker.matching(state, unit.id, "crew", station=person.name)
    for scope in scopes:
        entries += tracker.matching(state, unit.id, scope)
    modifiers.extend(tracker.as_modifiers(entries))
    return modifiers, entries, character


def _events(
    unit: Unit,
    person: CrewMember,
    kind: str,
    spec_id: str,
    modifiers,
    roll: PoolRoll,
    difficulty: int | None,
    result: str | None,
) -> tuple[Event, ...]:
    return (
        Event.of(
            "declare", spec_id, unit=unit.id, crew=person.name, station=person.station, action=kind
        ),
        *(
            Event.of("modifier", m.spec_id, roll=kind, source=m.source, steps=m.steps)
            for m in modifiers
        ),
        *roll.events(f"{unit.id}/{person.name}", kind, spec_id),
        *(
            (
                Event.of(
                    "station-result", spec_id, difficulty=difficulty, roll=roll.total, result=result
                ),
            )
            if difficulty is not None
            else ()
        ),
    )


def _finish(
    state: GameState, unit: Unit, character: str, entries, counts: bool = True
) -> GameState:
    new_state = tracker.count_action(state, character) if counts else state
    return tracker.consume(new_state, unit.id, entries)


def _station_action(
    state: GameState,
    unit: Unit,
    person: CrewMember,
    dice: Dice,
    what: str,
    difficulty: int,
    *,
    counts: bool = True,
    scopes: tuple[str, ...] = (),
) -> tuple[GameState, PoolRoll, str, tuple[StepModifier, ...]]:
    """A station roll made against `difficulty`: the state after it (the action counted unless
    it is free, the bonuses it used spent), the roll, its result and its modifiers."""
    pool, modifiers, finished = _ready_station(state, unit, person, counts, scopes)
    roll = roll_pool(pool, dice, who=f"{unit.id}/{person.name}", what=what)
    result = outcome(roll.total, roll.botch, difficulty)
    return finished, roll, result, modifiers


def _ready_station(
    state: GameState, unit: Unit, person: CrewMember, counts: bool, scopes: tuple[str, ...]
) -> tuple[Pool, tuple[StepModifier, ...], GameState]:
    """A station roll's pool and modifiers (`_station_roll`) and the state once it is made
    (`_finish`), whatever it rolls: remembered while the state lives (by its identity,
    `memo_of`), as the exact odds resolve the same roll on the same state once per
    outcome."""
    memo = memo_of(_READY, state)
    key = (unit.id, person, counts, scopes)
    found = memo.get(key)
    if found is None:
        pool, modifiers, entries, character = _station_roll(
            state, unit, person, counts=counts, scopes=scopes
        )
        finished = _finish(state, unit, character, entries, counts)
        found = memo[key] = (pool, modifiers, finished)
    return found


_READY: dict[int, tuple[Any, dict]] = {}  # station rolls made ready, by state, then by roll


def resolve_station(
    state: GameState, unit_id: str, kind: str, params: Mapping[str, Any], dice: Dice
) -> Resolution:
    """Resolve a station action of the variant in play (R003.46-R003.54)."""
    options = settings(state)
    unit = table_unit(state, unit_id, "crewed")
    card = vessel(unit)
    require_active(unit, card, "act")
    person = _member(state, unit, kind, str(params.get("crew", "") or ""))
    handler = _HANDLERS[kind]
    full = tracker.table(state, tracker.FULL_TURN).get(unit.id)
    pilot = crew.pilot_member(card, options)
    if full and pilot is not None and person.name == pilot.name and kind != "agility-defense":
        raise UserError(
            f"{person.name!r} is flying a full-turn {full} this turn", spec_id="R003.47"
        )
    return handler(state, unit, person, params, dice)


# --------------------------------------------------------------------------- variant A


def _assist(state, unit, person, params, dice) -> Resolution:
    """R003.46: HARD 11 to give a station +1 step next turn (+2 extraordinary, -1 botch);
    through the communications officer when the command is complex (R003.50)."""
    card = vessel(unit)
    station = str(params.get("station", ""))
    names = [p.name for p in card.crew if p.name != person.name]
    if station not in names:
        raise UserError(
            "assist which station? expected one of " + ", ".join(names), spec_id="R003.46"
        )
    via = bool(params.get("via_comms", False))
    new_state, roll, result, modifiers = _station_action(state, unit, person, dice, "assist", HARD)
    steps = ASSIST_STEPS[result]
    entry = modifier_entry(
        "crew", steps, "R003.46", f"{person.name} assist ({result})", station=station
    )
    where = "none"
    if steps and via and succeeded(result):
        pending = tuple(tracker.table(new_state, tracker.PENDING_COMMANDS).get(unit.id, ()))
        new_state = tracker.put(new_state, tracker.PENDING_COMMANDS, unit.id, (*pending, entry))
        where = "pending"
    elif steps:
        new_state = tracker.add_modifier(new_state, unit.id, entry, next_turn=True)
        where = "next turn"
    events = (
        *_events(unit, person, "assist", "R003.46", modifiers, roll, HARD, result),
        Event.of("crew-bonus", "R003.46", station=station, steps=steps, applies=where),
    )
    return Resolution(new_state, events, result)


def _forward(state, unit, person, params, dice) -> Resolution:
    """R003.50: AVERAGE 7 forwards a successful complex command keeping its step bonus."""
    pending = tuple(tracker.table(state, tracker.PENDING_COMMANDS).get(unit.id, ()))
    if not pending:
        raise UserError(f"no complex command waiting aboard {unit.id!r}", spec_id="R003.50")
    new_state, roll, result, modifiers = _station_action(
        state, unit, person, dice, "forward command", AVERAGE
    )
    command, rest = pending[0], pending[1:]
    new_state = tracker.put(new_state, tracker.PENDING_COMMANDS, unit.id, rest)
    if succeeded(result):
        new_state = tracker.add_modifier(new_state, unit.id, command, next_turn=True)
    events = (
        *_events(unit, person, "forward-command", "R003.50", modifiers, roll, AVERAGE, result),
        Event.of(
            "crew-bonus",
            "R003.50",
            station=command["station"],
            steps=int(command["steps"]) if succeeded(result) else 0,
            applies="next turn" if succeeded(result) else "lost",
        ),
    )
    return Resolution(new_state, events, result)


def _defensive_roll(state, unit, person, *, with_skill: bool, counts: bool):
    options = settings(state)
    card = vessel(unit)
    scopes = ("defense",) if crew.variant(options) == "A" else ()
    modifiers, entries, character = _modifiers(state, unit, person, counts, scopes)
    steps = sum(m.steps for m in modifiers)
    skill = ("pilot", person.skill or card.pilot) if with_skill else None
    return (
        skill_pool(("agility", card.agility), skill, None, steps),
        tuple(modifiers),
        entries,
        character,
    )


def _agility_defense(state, unit, person, params, dice) -> Resolution:
    """R003.47 / R003.54: the ship's Agility rolled as a free action sets the Difficulty to
    hit it this turn."""
    options = settings(state)
    full = tracker.table(state, tracker.FULL_TURN).get(unit.id)
    if crew.variant(options) == "A" and full == "offensive-manoeuvre":
        raise UserError(
            "after an offensive manoeuvre the ship is an EASY target this turn", spec_id="R003.47"
        )
    pool, modifiers, entries, _ = _defensive_roll(
        state, unit, person, with_skill=False, counts=False
    )
    roll = roll_pool(pool, dice, who=f"{unit.id}/{person.name}", what="agility defense")
    spec = "R003.47" if crew.variant(options) == "A" else "R003.54"
    new_state = tracker.set_defense(state, unit.id, roll.total, spec, "Agility (free action)")
    new_state = tracker.consume(new_state, unit.id, entries)
    events = (
        *_events(unit, person, "agility-defense", spec, modifiers, roll, None, None),
        Event.of("defense-set", spec, value=roll.total),
    )
    return Resolution(new_state, events, roll.total)


def _pilot_defense(state, unit, person, params, dice) -> Resolution:
    """R003.47: Agility + Pilot as an action: the result is the ship's defense Difficulty."""
    pool, modifiers, entries, character = _defensive_roll(
        state, unit, person, with_skill=True, counts=True
    )
    roll = roll_pool(pool, dice, who=f"{unit.id}/{person.name}", what="pilot defense")
    new_state = tracker.set_defense(state, unit.id, roll.total, "R003.47", "Agility + Pilot")
    new_state = _finish(new_state, unit, character, entries)
    events = (
        *_events(unit, person, "pilot-defense", "R003.47", modifiers, roll, None, None),
        Event.of("defense-set", "R003.47", value=roll.total),
    )
    return Resolution(new_state, events, roll.total)


def _full_turn(state: GameState, unit: Unit, person: CrewMember, kind: str) -> GameState:
    character = tracker.character_key(unit.id, person.name)
    if tracker.actions_taken(state, character):
        raise UserError(
            f"{person.name!r} has already acted this turn: a {kind} takes the whole turn",
            spec_id="R003.47",
        )
    new_state = tracker.put(state, tracker.FULL_TURN, unit.id, kind)
    return tracker.count_action(new_state, character)


def _evasive_a(state, unit, person, params, dice) -> Resolution:
    """R003.47: full-turn evasive manoeuvre: +2 steps on defensive actions, gunners -1."""
    new_state = _full_turn(state, unit, person, "evasive-manoeuvre")
    new_state = tracker.add_modifier(
        new_state,
        unit.id,
        modifier_entry("defense", EVASIVE_DEFENSE_STEPS, "R003.47", "evasive manoeuvre"),
    )
    new_state = tracker.add_modifier(
        new_state,
        unit.id,
        modifier_entry("attack", EVASIVE_GUNNER_STEPS, "R003.47", "evasive manoeuvre"),
    )
    events = (
        Event.of("declare", "R003.47", unit=unit.id, crew=person.name, action="evasive-manoeuvre"),
        Event.of(
            "crew-bonus", "R003.47", defense=EVASIVE_DEFENSE_STEPS, gunners=EVASIVE_GUNNER_STEPS
        ),
    )
    return Resolution(new_state, events, "evasive")


def _gunner(state, unit, params, what: str, spec_id: str) -> str:
    """The gunner `params` names (the first aboard by default), one of the ship's gunners."""
    names = [p.name for p in crew.gunners(vessel(unit), settings(state))]
    gunner = str(params.get("gunner", "") or (names[0] if names else ""))
    if gunner not in names:
        raise UserError(
            f"{what} for which gunner? expected one of " + (", ".join(names) or "none aboard"),
            spec_id=spec_id,
        )
    return gunner


def _offensive(state, unit, person, params, dice) -> Resolution:
    """R003.47: full-turn offensive manoeuvre: one gunner +1 step next turn; the ship is an
    EASY (3) target this turn."""
    gunner = _gunner(state, unit, params, "offensive manoeuvre", "R003.47")
    new_state = _full_turn(state, unit, person, "offensive-manoeuvre")
    new_state = tracker.add_modifier(
        new_state,
        unit.id,
        modifier_entry(
            "attack", OFFENSIVE_GUNNER_STEPS, "R003.47", "offensive manoeuvre", gunner=gunner
        ),
        next_turn=True,
    )
    new_state = tracker.set_defense(new_state, unit.id, EASY, "R003.47", "offensive manoeuvre")
    events = (
        Event.of(
            "declare",
            "R003.47",
            unit=unit.id,
            crew=person.name,
            action="offensive-manoeuvre",
            gunner=gunner,
        ),
        Event.of("defense-set", "R003.47", value=EASY),
        Event.of(
            "crew-bonus",
            "R003.47",
            gunner=gunner,
            steps=OFFENSIVE_GUNNER_STEPS,
            applies="next turn",
        ),
    )
    return Resolution(new_state, events, "offensive")


def _dradis_defense(state, unit, person, params, dice) -> Resolution:
    """R003.49: HARD 11: +1 step (+2 extraordinary) to the ship's defensive actions this
    turn; a botch costs the pilot 1 step."""
    options = settings(state)
    new_state, roll, result, modifiers = _station_action(
        state, unit, person, dice, "DRADIS defense", HARD
    )
    steps = DRADIS_DEFENSE_STEPS[result]
    if steps:
        new_state = tracker.add_modifier(
            new_state, unit.id, modifier_entry("defense", steps, "R003.49", f"DRADIS ({result})")
        )
    pilot = crew.pilot_member(vessel(unit), options)
    if result == "botch":
        entry = (
            modifier_entry("crew", -1, "R003.49", "DRADIS botch", station=pilot.name)
            if pilot is not None
            else modifier_entry("defense", -1, "R003.49", "DRADIS botch")
        )
        new_state = tracker.add_modifier(new_state, unit.id, entry)
    events = (
        *_events(unit, person, "dradis-defense", "R003.49", modifiers, roll, HARD, result),
        Event.of("crew-bonus", "R003.49", defense=steps, pilot=-1 if result == "botch" else 0),
    )
    return Resolution(new_state, events, result)


def _dradis_gunner(state, unit, person, params, dice) -> Resolution:
    """R003.49 / A003.30: HARD 11: +1 step to one gunner's attack rolls this turn."""
    gunner = _gunner(state, unit, params, "DRADIS support", "R003.49")
    new_state, roll, result, modifiers = _station_action(
        state, unit, person, dice, "DRADIS gunner", HARD
    )
    steps = DRADIS_GUNNER_STEPS[result]
    if steps:
        new_state = tracker.add_modifier(
            new_state,
            unit.id,
            modifier_entry("attack", steps, "A003.30", "DRADIS targeting", gunner=gunner),
        )
    events = (
        *_events(unit, person, "dradis-gunner", "R003.49", modifiers, roll, HARD, result),
        Event.of("crew-bonus", "A003.30", gunner=gunner, steps=steps),
    )
    return Resolution(new_state, events, result)


# --------------------------------------------------------------------------- variant B


def _station_b(state, unit, person, params, dice) -> Resolution:
    """R003.51-R003.53: once per turn, HARD 11 -> T003.10 steps on a later roll: the CO's or
    XO's on the helm roll or the attack roll (chosen), the tactical officer's on both."""
    used = tuple(tracker.table(state, tracker.STATIONS_USED).get(unit.id, ()))
    if person.name in used:
        raise UserError(f"{person.name!r} has made the station roll this turn", spec_id="R003.51")
    if person.station == "tactical":
        targets = ("helm", "attack")
        spec = "R003.53"
    else:
        apply_to = str(params.get("apply_to", "attack"))
        if apply_to not in ("helm", "attack"):
            raise UserError(
                f"the CO's or XO's bonus goes to 'helm' or 'attack', not {apply_to!r}",
                spec_id="R003.52",
            )
        targets = (apply_to,)
        spec = "R003.52"
    new_state, roll, result, modifiers = _station_action(
        state, unit, person, dice, "station roll", HARD, counts=False
    )
    steps = STATION_MODIFIER[result]
    new_state = tracker.put(new_state, tracker.STATIONS_USED, unit.id, (*used, person.name))
    if steps:
        for scope in targets:
            new_state = tracker.add_modifier(
                new_state,
                unit.id,
                modifier_entry(scope, steps, spec, f"{person.name} ({result})", once=True),
            )
    events = (
        *_events(unit, person, "station-roll", "R003.51", modifiers, roll, HARD, result),
        Event.of("lookup", "T003.10", result=result, steps=steps, applies=targets),
    )
    return Resolution(new_state, events, result)


def _helm(kind: str):
    def resolve(state, unit, person, params, dice) -> Resolution:
        """R003.54: one attack or evasive manoeuvre a turn (more take the multiple-action
        penalty): Agility + Pilot with the pending helm bonuses."""
        pool, modifiers, new_state = _ready_station(state, unit, person, True, ("helm",))
        roll = roll_pool(pool, dice, who=f"{unit.id}/{person.name}", what=kind)
        result = outcome(roll.total, roll.botch, HARD)
        made = tuple(tracker.table(state, tracker.MANOEUVRES).get(unit.id, ()))
        new_state = tracker.put(new_state, tracker.MANOEUVRES, unit.id, (*made, kind))
        if kind == "attack-manoeuvre":
            steps = HELM_ATTACK_MODIFIER[result]
            table_id = "T003.11"
            new_state = tracker.set_defense(new_state, unit.id, EASY, "R003.54", "attack manoeuvre")
            defense = EASY
        else:
            steps = HELM_EVASIVE_MODIFIER[result]
            table_id = "T003.12"
            new_state = tracker.set_defense(
                new_state, unit.id, roll.total, "R003.54", "evasive manoeuvre"
            )
            defense = roll.total
        if steps:
            new_state = tracker.add_modifier(
                new_state, unit.id, modifier_entry("attack", steps, table_id, f"{kind} ({result})")
            )
        events = (
            *_events(unit, person, kind, "R003.54", modifiers, roll, HARD, result),
            Event.of("lookup", table_id, result=result, attack_steps=steps),
            Event.of("defense-set", "R003.54", value=defense),
        )
        return Resolution(new_state, events, result)

    return resolve


def _evasive(state, unit, person, params, dice) -> Resolution:
    if crew.variant(settings(state)) == "A":
        return _evasive_a(state, unit, person, params, dice)
    return _helm("evasive-manoeuvre")(state, unit, person, params, dice)


_HANDLERS = {
    "assist": _assist,
    "forward-command": _forward,
    "agility-defense": _agility_defense,
    "pilot-defense": _pilot_defense,
    "evasive-manoeuvre": _evasive,
    "offensive-manoeuvre": _offensive,
    "attack-manoeuvre": _helm("attack-manoeuvre"),
    "dradis-defense": _dradis_defense,
    "dradis-gunner": _dradis_gunner,
    "station-roll": _station_b,
}


def pending_commands(state: GameState, unit_id: str) -> tuple[FrozenMap, ...]:
    return tuple(tracker.table(state, tracker.PENDING_COMMANDS).get(unit_id, ()))
