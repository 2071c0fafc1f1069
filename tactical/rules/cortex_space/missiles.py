"""Missiles after the lock (R003.38-R003.42, R003.61, R003.62, T003.8, T003.17).

A lock (see `missile_lock`) lets its owner fire the missile at any later point (R003.38); the
missile then flies for T003.8's turns by the range at launch and strikes its target at the
start of the turn its flight ends (`impacts`, run by the turn-start action). Until then any
ship may shoot it down (FORMIDABLE 15, R003.40), its target may out-fly it (an EASY Complex
Action, Threshold 15, one roll per turn, R003.41, A003.25) or distract it onto another ship
or object (avoid collision, then an opposed roll or AVERAGE 7 against an unpiloted
obstacle, R003.42, A003.26).

A missile's damage is its T003.17 warhead (by scale and `missile_type`) or its weapon's
damage die; an explosive charge deals Basic damage, fragments deal Wound (R003.62).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tactical.dice import Dice
from tactical.errors import UserError
from tactical.model import FrozenMap, GameState, Unit
from tactical.rules.base import Event, Resolution
from tactical.rules.cortex_space import tracker
from tactical.rules.cortex_space.acting import require_active, weapon_of
from tactical.rules.cortex_space.attack_pools import attack_roll
from tactical.rules.cortex_space.collisions import (
    collide,
    obstacle_of,
    require_near,
    table_difficulty,
)
from tactical.rules.cortex_space.combat import GUN, POINT_DEFENSE
from tactical.rules.cortex_space.damage import deliver, receiver_of, target_of, write_back
from tactical.rules.cortex_space.gunnery import after_damage
from tactical.rules.cortex_space.pilot_rolls import pilot_roll
from tactical.rules.cortex_space.positions import band_index, band_of, centre_distance
from tactical.rules.cortex_space.rolls import (
    ComplexAction,
    PoolRoll,
    basic_damage,
    opposed,
    outcome,
    parse_damage,
    roll_damage,
    roll_pool,
    succeeded,
)
from tactical.rules.cortex_space.tables import (
    DISTRACT_OBSTACLE_DIFFICULTY,
    MISSILE_BY_RANGE,
    OUT_FLY_THRESHOLD,
    SHOOT_DOWN_DIFFICULTY,
    damage_kind,
    missile_blast,
)
from tactical.rules.cortex_space.units import settings, vessel
from tactical.rules.lookups import table_unit

CLOSEST_FLIGHT = "capital"  # a locked target now nearer than capital range: T003.8's 1 turn


def missiles_in_flight(state: GameState) -> tuple[FrozenMap, ...]:
    return tuple(tracker.get(state, tracker.MISSILES, ()))


def missile(state: GameState, missile_id: str) -> FrozenMap:
    for entry in missiles_in_flight(state):
        if entry["id"] == missile_id:
            return entry
    known = ", ".join(m["id"] for m in missiles_in_flight(state)) or "none"
    raise UserError(f"no missile {missile_id!r} in flight (in flight: {known})", spec_id="R003.39")


def _without(state: GameState, missile_id: str) -> GameState:
    kept = tuple(m for m in missiles_in_flight(state) if m["id"] != missile_id)
    return state.with_rule_state(**{tracker.MISSILES: kept})


def _replace_missile(state: GameState, entry: FrozenMap) -> GameState:
    kept = tuple(entry if m["id"] == entry["id"] else m for m in missiles_in_flight(state))
    return state.with_rule_state(**{tracker.MISSILES: kept})


def flight_turns(band: str | None) -> int:
    """T003.8 / R003.39: turns of movement to the target by the range at launch."""
    if band is None:
        raise UserError(
            "the target is beyond long DRADIS range: the missile cannot reach it", spec_id="R003.39"
        )
    row = MISSILE_BY_RANGE[
        band if band_index(band) >= band_index(CLOSEST_FLIGHT) else CLOSEST_FLIGHT
    ]
    assert row.turns is not None
    return row.turns


def warhead_damage(scale: str, missile_type: str | None, damage_text: str) -> str:
    """T003.17 / R003.61: a typed missile's warhead dice, else the weapon's damage die."""
    if missile_type:
        return missile_blast(scale, missile_type).damage
    return damage_text


# --------------------------------------------------------------------------- firing


def resolve_fire(state: GameState, owner_id: str, weapon_name: str, target_id: str) -> Resolution:
    """R003.38 / R003.39: fire a locked missile; it flies for T003.8's turns (no roll)."""
    options = settings(state)
    owner = table_unit(state, owner_id, "firing")
    target = table_unit(state, target_id, "target")
    card = vessel(owner)
    require_active(owner, card, "fire a missile")
    weapon = weapon_of(owner, card, weapon_name)
    lock = (owner.id, weapon.name, target.id)
    if lock not in tracker.get(state, tracker.LOCKS, ()):
        raise UserError(
            f"{owner.id!r} has no {weapon.name} lock on {target.id!r}: establish one first",
            spec_id="R003.38",
        )
    if weapon.missiles < 1:
        raise UserError(f"{owner.id!r}'s {weapon.name} has no missiles left", spec_id="R003.38")
    band = band_of(centre_distance(owner, target), options)
    turns = flight_turns(band)
    number = int(tracker.get(state, tracker.NEXT_MISSILE, 1))
    entry = FrozenMap(
        id=f"missile-{number}",
        owner=owner.id,
        weapon=weapon.name,
        target=target.id,
        turns_left=turns,
        progress=0,
        damage=warhead_damage(weapon.scale, weapon.missile_type, weapon.damage.name),
        warhead=weapon.warhead,
        scale=weapon.scale,
        blast_feet=missile_blast(weapon.scale, weapon.missile_type).blast_feet
        if weapon.missile_type
        else 0,
    )
    weapons = [dict(w) for w in owner.stats.get("weapons", ())]
    weapons[weapon.index]["missiles"] = weapon.missiles - 1
    new_state = state.replace_unit(owner.with_stats(weapons=weapons))
    locks = tuple(lk for lk in tracker.get(state, tracker.LOCKS, ()) if lk != lock)
    new_state = new_state.with_rule_state(
        **{
            tracker.LOCKS: locks,
            tracker.MISSILES: (*missiles_in_flight(state), entry),
            tracker.NEXT_MISSILE: number + 1,
        }
    )
    who = attack_roll(state, owner, weapon, target, options).firer
    new_state = tracker.count_action(new_state, who.character)
    events = (
        Event.of(
            "fire-missile",
            "R003.38",
            owner=owner.id,
            weapon=weapon.name,
            target=target.id,
            missile=entry["id"],
        ),
        Event.of(
            "flight",
            "R003.39",
            band=band,
            turns=turns,
            damage=entry["damage"],
            warhead=weapon.warhead,
        ),
    )
    return Resolution(new_state, events, entry["id"])


# --------------------------------------------------------------------------- shooting down


def resolve_shoot_down(
    state: GameState, shooter_id: str, weapon_name: str, missile_id: str, dice: Dice
) -> Resolution:
    """R003.40: an attack roll against FORMIDABLE (15) destroys the missile."""
    options = settings(state)
    shooter = table_unit(state, shooter_id, "shooting")
    card = vessel(shooter)
    require_active(shooter, card, "shoot")
    weapon = weapon_of(shooter, card, weapon_name)
    if weapon.kind not in (GUN, POINT_DEFENSE):
        raise UserError(
            f"{weapon.name} is a {weapon.kind}: a missile is shot down with guns or point defense",
            spec_id="R003.40",
        )
    if weapon.working - tracker.fired(state, shooter.id, weapon.name) < 1:
        raise UserError(f"{shooter.id!r}'s {weapon.name} has fired this turn", spec_id="R003.40")
    entry = missile(state, missile_id)
    roll = attack_roll(state, shooter, weapon, None, options)
    rolled = roll_pool(roll.pool, dice, who=shooter.id, what="shoot down missile")
    result = outcome(rolled.total, rolled.botch, SHOOT_DOWN_DIFFICULTY)
    destroyed = succeeded(result)
    new_state = tracker.count_fired(state, shooter.id, weapon.name, 1)
    new_state = tracker.count_action(new_state, roll.firer.character)
    new_state = tracker.consume(new_state, shooter.id, roll.entries)
    if destroyed:
        new_state = _without(new_state, entry["id"])
    events = (
        Event.of("declare", "R003.40", shooter=shooter.id, weapon=weapon.name, missile=entry["id"]),
        *(
            Event.of("modifier", m.spec_id, roll="attack", source=m.source, steps=m.steps)
            for m in roll.modifiers
        ),
        *rolled.events(shooter.id, "shoot down missile", "R003.40"),
        Event.of(
            "outcome",
            "R003.40",
            missile=entry["id"],
            difficulty=SHOOT_DOWN_DIFFICULTY,
            roll=rolled.total,
            result=result,
            destroyed=destroyed,
        ),
    )
    return Resolution(new_state, events, result)


# --------------------------------------------------------------------------- out-flying


@dataclass(frozen=True, slots=True)
class OutFlySummary:
    """R003.41: the running total after this turn's roll and whether it reached 15."""

    progress: int
    evaded: bool


def _targeted(state: GameState, unit: Unit, missile_id: str) -> FrozenMap:
    entry = missile(state, missile_id)
    if entry["target"] != unit.id:
        raise UserError(
            f"{entry['id']} is after {entry['target']!r}, not {unit.id!r}", spec_id="R003.41"
        )
    return entry


def resolve_out_fly(state: GameState, unit_id: str, missile_id: str, dice: Dice) -> Resolution:
    """R003.41 / R003.9: one Agility + Pilot roll per turn added to the running total; the
    missile is shaken off when it reaches 15 before it strikes (A003.25)."""
    options = settings(state)
    unit = table_unit(state, unit_id, "evading")
    require_active(unit, vessel(unit), "out-fly a missile")
    entry = _targeted(state, unit, missile_id)
    if entry["id"] in tracker.get(state, tracker.OUTFLY_ROLLED, ()):
        raise UserError(
            f"{unit.id!r} has already rolled to out-fly {entry['id']} this turn", spec_id="R003.41"
        )
    roll = pilot_roll(state, unit, options)
    rolled = roll_pool(roll.pool, dice, who=unit.id, what="out-fly missile")
    action = ComplexAction(OUT_FLY_THRESHOLD, int(entry["progress"])).add(rolled.total)
    new_state = tracker.count_action(state, roll.character)
    new_state = tracker.consume(new_state, unit.id, roll.entries)
    new_state = new_state.with_rule_state(
        **{tracker.OUTFLY_ROLLED: (*tracker.get(state, tracker.OUTFLY_ROLLED, ()), entry["id"])}
    )
    if action.reached:
        new_state = _without(new_state, entry["id"])
    else:
        new_state = _replace_missile(new_state, entry.set("progress", action.total))
    events = (
        Event.of("declare", "R003.41", unit=unit.id, missile=entry["id"]),
        *(
            Event.of("modifier", m.spec_id, roll="out-fly", source=m.source, steps=m.steps)
            for m in roll.modifiers
        ),
        *rolled.events(unit.id, "out-fly missile", "R003.41"),
        Event.of(
            "complex-action",
            "R003.9",
            threshold=OUT_FLY_THRESHOLD,
            total=action.total,
            turns_left=int(entry["turns_left"]),
            reached=action.reached,
        ),
    )
    return Resolution(new_state, events, OutFlySummary(action.total, action.reached))


# --------------------------------------------------------------------------- distraction


@dataclass(frozen=True, slots=True)
class DistractSummary:
    """R003.42: "collided", "kept" (the missile stays on its target) or "retargeted"."""

    result: str
    target: str


def resolve_distract(
    state: GameState, unit_id: str, missile_id: str, decoy: str, dice: Dice
) -> Resolution:
    """R003.42: fly very close to another ship or object: avoid collision (action k), then
    the opposed Agility + Pilot (action k+1; the lower result is the missile's target, a tie
    keeps it, A003.26) or AVERAGE (7) against an unpiloted obstacle."""
    options = settings(state)
    if not options["collisions"]:
        raise UserError(
            "distracting a missile needs the collision rules (option collisions)", spec_id="R003.42"
        )
    unit = table_unit(state, unit_id, "evading")
    require_active(unit, vessel(unit), "distract a missile")
    entry = _targeted(state, unit, missile_id)
    obstacle = obstacle_of(state, decoy)
    if obstacle.kind == "random" or obstacle.id == unit.id:
        raise UserError(
            "a missile is distracted onto another ship or object on the table", spec_id="R003.42"
        )
    require_near(
        state, unit, obstacle, options, "distract_inches", "R003.42", ": fly very close to it first"
    )
    avoid = pilot_roll(state, unit, options)
    contest = pilot_roll(state, unit, options, extra_actions=1)
    other_pool = (
        pilot_roll(state, state.unit(obstacle.id), options, counts=False).pool
        if obstacle.piloted
        else None
    )
    crash, _, events = collide(
        state,
        unit,
        obstacle,
        avoid.pool,
        dice,
        other_pool=other_pool,
        difficulty=table_difficulty(unit, obstacle),
    )
    new_state = write_back(state, unit.id, crash.pilot)
    if crash.other is not None:
        new_state = write_back(new_state, obstacle.id, crash.other)
    new_state = after_damage(new_state, state, unit.id, unit.id)
    head = (
        Event.of("declare", "R003.42", unit=unit.id, missile=entry["id"], decoy=obstacle.id),
        *(
            Event.of("modifier", m.spec_id, roll="avoid collision", source=m.source, steps=m.steps)
            for m in avoid.modifiers
        ),
        *events,
    )
    if crash.pending[:1] == ("collided",):
        new_state = tracker.count_action(new_state, avoid.character)
        return Resolution(
            new_state,
            (*head, Event.of("outcome", "R003.42", result="collided", target=unit.id)),
            DistractSummary("collided", unit.id),
        )
    new_state = tracker.count_action(new_state, avoid.character, 2)
    new_state = tracker.consume(new_state, unit.id, avoid.entries)
    if obstacle.piloted:
        assert other_pool is not None

        def mine(rolls: tuple, source: Dice) -> tuple:
            return (roll_pool(contest.pool, source, who=unit.id, what="distract missile"),)

        def theirs(rolls: tuple, source: Dice) -> tuple:
            return (*rolls, roll_pool(other_pool, source, who=obstacle.id, what="distract missile"))

        own, other = dice.fold((), (mine, theirs), key=lambda rs: tuple(r.total for r in rs))
        result = opposed(own.total, other.total)
        # R003.42: the lower result becomes (or stays) the target; a tie keeps it (A003.26)
        retarget = result.winner == 0
        detail = (
            *own.events(unit.id, "distract missile", "R003.42"),
            *other.events(obstacle.id, "distract missile", "R003.42"),
            Event.of(
                "opposed",
                "R003.6" if result.winner is not None else "A003.26",
                own=own.total,
                other=other.total,
                winner=(unit.id, obstacle.id)[result.winner] if result.winner is not None else None,
            ),
        )
    else:
        rolled: PoolRoll = roll_pool(contest.pool, dice, who=unit.id, what="distract missile")
        retarget = succeeded(outcome(rolled.total, rolled.botch, DISTRACT_OBSTACLE_DIFFICULTY))
        detail = (
            *rolled.events(unit.id, "distract missile", "R003.42"),
            Event.of(
                "distract",
                "R003.42",
                difficulty=DISTRACT_OBSTACLE_DIFFICULTY,
                roll=rolled.total,
                success=retarget,
            ),
        )
    modifiers = tuple(
        Event.of("modifier", m.spec_id, roll="distract", source=m.source, steps=m.steps)
        for m in contest.modifiers
    )
    if retarget and obstacle.kind == "unit":
        new_state = _replace_missile(new_state, entry.set("target", obstacle.id))
        verdict, target = "retargeted", obstacle.id
    elif retarget:
        new_state = _without(new_state, entry["id"])  # it strikes the obstacle instead
        verdict, target = "retargeted", obstacle.id
    else:
        verdict, target = "kept", unit.id
    return Resolution(
        new_state,
        (*head, *modifiers, *detail, Event.of("outcome", "R003.42", result=verdict, target=target)),
        DistractSummary(verdict, target),
    )


# --------------------------------------------------------------------------- impacts


@dataclass(frozen=True, slots=True)
class Impact:
    """One missile reaching its target (fold state over the missiles due this turn)."""

    state: GameState
    hits: tuple[tuple[str, tuple], ...]  # (target, its damage key after the hits), by target
    events: tuple[Event, ...]


def impacts(state: GameState, dice: Dice) -> Impact:
    """R003.39: every missile in flight comes a turn closer; those arriving strike now
    (R003.61, R003.62): warhead dice as Basic (explosive) or Wound (fragmentation)."""
    options = settings(state)
    feet_per_inch = float(options["feet_per_inch"])
    flying, due = [], []
    for entry in missiles_in_flight(state):
        left = int(entry["turns_left"]) - 1
        (due if left <= 0 else flying).append(entry.set("turns_left", left))
    start = Impact(
        state.with_rule_state(**{tracker.MISSILES: tuple(flying)}),
        (),
        tuple(
            Event.of("flight", "R003.39", missile=m["id"], turns_left=int(m["turns_left"]))
            for m in flying
        ),
    )

    def strike_with(entry: FrozenMap):
        def step(impact: Impact, source: Dice) -> Impact:
            current = impact.state
            target_id = str(entry["target"])
            if not current.has_unit(target_id) or vessel(current.unit(target_id)).destroyed:
                return replace(
                    impact,
                    events=(
                        *impact.events,
                        Event.of(
                            "impact", "R003.39", missile=entry["id"], target=target_id, hit=False
                        ),
                    ),
                )
            target = current.unit(target_id)
            rolled = roll_damage(
                parse_damage(str(entry["damage"])),
                source,
                who=str(entry["owner"]),
                what=f"{entry['id']} warhead",
            )
            if damage_kind(str(entry["warhead"])) == "wound":
                stun, wound = 0, rolled.total
            else:
                basic = basic_damage(rolled.total)
                stun, wound = basic.stun, basic.wound
            hit = deliver(
                target_of(vessel(target)),
                receiver_of(target, options),
                stun,
                wound,
                str(entry["scale"]),
                source,
                who=str(entry["owner"]),
            )
            after = write_back(current, target_id, hit)
            after = after_damage(after, current, target_id, str(entry["owner"]))
            events = (
                Event.of("impact", "R003.39", missile=entry["id"], target=target_id, hit=True),
                Event.of(
                    "blast",
                    "R003.61",
                    feet=int(entry.get("blast_feet", 0)),
                    inches=round(int(entry.get("blast_feet", 0)) / feet_per_inch, 6),
                ),
                *rolled.events(str(entry["owner"]), f"{entry['id']} warhead", "R003.61"),
                Event.of(
                    "warhead",
                    "R003.62",
                    damage=str(entry["damage"]),
                    warhead=str(entry["warhead"]),
                    stun=stun,
                    wound=wound,
                ),
                *hit.events,
            )
            # one entry a target, its damage after every missile so far: the fold merges
            # orders of arrival that leave the same damage, so N missiles stay polynomial
            hits = dict(impact.hits)
            hits[target_id] = replace(hit, events=()).key
            return Impact(after, tuple(sorted(hits.items())), impact.events + events)

        return step

    return dice.fold(start, [strike_with(entry) for entry in due], key=lambda impact: impact.hits)
