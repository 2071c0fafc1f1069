"""Piloting: Advantage and Initiative (R003.10-R003.14), collisions and ramming (R003.15-
R003.20), strafing runs (R003.21-R003.24) and forming fighter wings (R003.30, R003.31).

Every pilot roll is Agility + Pilot (the less-skilled pilot's for a wing, R003.31; the
pilot's or helm officer's skill for a crewed ship) with the character's multiple-action
penalty (R003.8) and any crew steps on that station.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from tactical.dice import D6, D10, Dice
from tactical.errors import UserError
from tactical.model import FrozenMap, GameState, Unit
from tactical.rules.base import Event, Resolution
from tactical.rules.cortex_space import crew, tracker
from tactical.rules.cortex_space.acting import action_modifier, require_active, unit_of
from tactical.rules.cortex_space.damage import Target, deliver, receiver_of, target_of, write_back
from tactical.rules.cortex_space.positions import (
    centre_distance,
    collision_direction,
    edge_distance,
    in_formation,
    strafe_inches,
    terrain_distance,
    velocity,
)
from tactical.rules.cortex_space.rolls import (
    D8,
    Pool,
    PoolRoll,
    basic_damage,
    opposed,
    outcome,
    roll_pool,
    skill_pool,
    succeeded,
)
from tactical.rules.cortex_space.tables import (
    AVERAGE,
    EASY,
    HARD,
    SIZE_BY_NAME,
    ObstacleDirection,
    ObstacleSize,
    ObstacleSpeed,
    direction_row,
    obstacle_size,
    obstacle_speed,
    random_obstacle_rows,
    strafing_difficulty,
)
from tactical.rules.cortex_space.tracker import StepModifier
from tactical.rules.cortex_space.units import MAX_WING, Vessel, settings, vessel

RANDOM_OBSTACLE = "random"
# GEO003.7: a terrain piece's height class read as an obstacle size (T003.3 rows)
TERRAIN_SIZES = {
    "tiny": "Small",
    "small": "Medium",
    "medium": "Large",
    "large": "Huge",
    "massive": "Colossal",
}

# --------------------------------------------------------------------------- pilot rolls


def pilot_character(unit: Unit, card: Vessel, options: Mapping[str, Any]) -> str:
    """Who flies: the crew's pilot / helm officer, or the vessel's own pilot."""
    person = crew.pilot_member(card, options)
    return tracker.character_key(unit.id, person.name) if person is not None else unit.id


@dataclass(frozen=True)
class PilotRoll:
    pool: Pool
    modifiers: tuple[StepModifier, ...]
    entries: tuple
    character: str


def pilot_roll(
    state: GameState,
    unit: Unit,
    options: Mapping[str, Any],
    *,
    extra_actions: int = 0,
    counts: bool = True,
    bonus: tuple[StepModifier, ...] = (),
    trait: bool = False,
) -> PilotRoll:
    """Agility + Pilot (+ DOGFIGHTING trait when `trait`), with the pilot's action penalty
    (R003.8) when the roll is an action (`counts`) and the crew's steps on the pilot."""
    card = vessel(unit)
    character = pilot_character(unit, card, options)
    modifiers: list[StepModifier] = []
    if counts:
        penalty = action_modifier(state, character, extra_actions)
        if penalty:
            modifiers.append(penalty)
    modifiers.extend(bonus)
    entries: tuple = ()
    person = crew.pilot_member(card, options)
    if person is not None:
        entries = tracker.matching(state, unit.id, "crew", station=person.name)
        modifiers.extend(tracker.as_modifiers(entries))
    steps = sum(m.steps for m in modifiers)
    dogfighting = ("DOGFIGHTING", card.dogfighting) if trait else None
    pool = skill_pool(
        ("agility", card.agility), crew.pilot_skill(card, options), dogfighting, steps
    )
    return PilotRoll(pool, tuple(modifiers), entries, character)


def _modifier_events(modifiers, roll: str) -> tuple[Event, ...]:
    return tuple(
        Event.of("modifier", m.spec_id, roll=roll, source=m.source, steps=m.steps)
        for m in modifiers
    )


def _pool_chance(pool: Pool, dice: Dice, who: str, what: str) -> PoolRoll:
    return roll_pool(pool, dice, who=who, what=what)


# --------------------------------------------------------------------------- dogfighting


@dataclass(frozen=True, slots=True)
class AdvantageSummary:
    """R003.11 / R003.14: who holds the Advantage (None on a tie) and by how many steps."""

    holder: str | None
    steps: int


def advantage_roll(
    state: GameState, unit: Unit, opponent: Unit, options: Mapping[str, Any]
) -> PilotRoll:
    """R003.10 / R003.12: Agility + Pilot + DOGFIGHTING, +1 step for holding the Advantage
    over the same opponent last turn (A003.8)."""
    bonus = ()
    if (unit.id, opponent.id) in tracker.get(state, tracker.PREVIOUS_ADVANTAGE, ()):
        bonus = (StepModifier("held the Advantage last turn", 1, "R003.12"),)
    return pilot_roll(state, unit, options, counts=False, bonus=bonus, trait=True)


def advantage_steps(winner_extraordinary: bool, loser_botched: bool) -> int:
    """R003.14: the modifiers become 2 steps on a botch by the loser or an extraordinary
    win, else 1 (R003.13)."""
    return 2 if winner_extraordinary or loser_botched else 1


def resolve_advantage(state: GameState, unit_id: str, opponent_id: str, dice: Dice) -> Resolution:
    """R003.10-R003.14: the opposed Advantage rolls of two vessels; both results are also
    their Initiative this turn (the winner acts first, R003.11)."""
    options = settings(state)
    unit, opponent = unit_of(state, unit_id, "dogfighting"), unit_of(state, opponent_id, "opposing")
    if unit.side == opponent.side:
        raise UserError(f"{unit.id!r} and {opponent.id!r} are on the same side", spec_id="R003.10")
    if not options["dogfighting"]:
        raise UserError("dogfighting is not in play (option dogfighting)", spec_id="R003.10")
    for who in (unit, opponent):
        require_active(who, vessel(who), "dogfight")
        if who.id in tracker.table(state, tracker.INITIATIVE):
            raise UserError(f"{who.id!r} has already rolled for this turn", spec_id="R003.10")
    first = advantage_roll(state, unit, opponent, options)
    second = advantage_roll(state, opponent, unit, options)

    def roll_first(rolls: tuple, source: Dice) -> tuple:
        return (_pool_chance(first.pool, source, unit.id, "Advantage"),)

    def roll_second(rolls: tuple, source: Dice) -> tuple:
        return (*rolls, _pool_chance(second.pool, source, opponent.id, "Advantage"))

    a, b = dice.fold(
        (), (roll_first, roll_second), key=lambda rolls: tuple((r.total, r.botch) for r in rolls)
    )
    contest = opposed(a.total, b.total)
    events = [
        Event.of("declare", "R003.10", unit=unit.id, opponent=opponent.id),
        *_modifier_events(first.modifiers, f"{unit.id} Advantage"),
        *_modifier_events(second.modifiers, f"{opponent.id} Advantage"),
        *a.events(unit.id, "Advantage", "R003.10"),
        *b.events(opponent.id, "Advantage", "R003.10"),
    ]
    initiative = (
        tracker.table(state, tracker.INITIATIVE).set(unit.id, a.total).set(opponent.id, b.total)
    )
    new_state = state.with_rule_state(**{tracker.INITIATIVE: initiative})
    if contest.winner is None:
        events.append(Event.of("advantage", "A003.6", holder=None, simultaneous=True))
        return Resolution(new_state, tuple(events), AdvantageSummary(None, 0))
    holder, against = (unit, opponent) if contest.winner == 0 else (opponent, unit)
    loser_roll = b if contest.winner == 0 else a
    steps = advantage_steps(contest.extraordinary, loser_roll.botch)
    entry = FrozenMap(holder=holder.id, against=against.id, steps=steps)
    advantages = (*tracker.get(state, tracker.ADVANTAGE, ()), entry)
    new_state = new_state.with_rule_state(**{tracker.ADVANTAGE: advantages})
    events.append(
        Event.of(
            "advantage",
            "R003.14" if steps == 2 else "R003.11",
            holder=holder.id,
            against=against.id,
            steps=steps,
            extraordinary=contest.extraordinary,
            loser_botched=loser_roll.botch,
        )
    )
    return Resolution(new_state, tuple(events), AdvantageSummary(holder.id, steps))


def initiative_pool(unit: Unit) -> Pool:
    """Initiative of a vessel not dogfighting: Agility + Alertness (base Cortex, G.5), the
    less-skilled pilot's vessel for a wing (R003.31)."""
    card = vessel(unit)
    return Pool(
        skill_pool(("agility", card.agility)).dice + skill_pool(("alertness", card.alertness)).dice
    )


def resolve_initiative(state: GameState, unit_id: str, dice: Dice) -> Resolution:
    """A vessel's Initiative roll; the order of action follows the results (R003.11)."""
    unit = unit_of(state, unit_id, "rolling")
    require_active(unit, vessel(unit), "roll for Initiative")
    if unit.id in tracker.table(state, tracker.INITIATIVE):
        raise UserError(f"{unit.id!r} has already rolled for this turn", spec_id="R003.10")
    roll = roll_pool(initiative_pool(unit), dice, who=unit.id, what="Initiative")
    new_state = tracker.put(state, tracker.INITIATIVE, unit.id, roll.total)
    events = (
        Event.of("declare", "R003.11", unit=unit.id),
        *roll.events(unit.id, "Initiative", "R003.11"),
    )
    return Resolution(new_state, events, roll.total)


# --------------------------------------------------------------------------- collisions


@dataclass(frozen=True, slots=True)
class Obstacle:
    """What a vessel may collide with: another vessel, a terrain piece or a random obstacle."""

    kind: str  # "unit" | "terrain" | "random"
    id: str
    size: ObstacleSize | None = None
    speed: int = 0
    velocity: tuple[float, float] = (0.0, 0.0)
    xy: tuple[float, float] = (0.0, 0.0)
    piloted: bool = False


def vessel_size(unit: Unit) -> ObstacleSize:
    """T003.3 from the vessel's scale and Strength (the wing's weakest Strength)."""
    card = vessel(unit)
    strength = card.strength
    if card.is_wing and card.fighters:
        strength = min((m.strength for m in card.fighters), key=lambda s: s.step)
    return obstacle_size(card.scale, strength)  # type: ignore[arg-type]


def obstacle_of(state: GameState, name: str) -> Obstacle:
    """A unit id, a terrain id or "random" (A003.9)."""
    if name == RANDOM_OBSTACLE:
        return Obstacle("random", name)
    if state.has_unit(name):
        unit = state.unit(name)
        card = vessel(unit)
        return Obstacle(
            "unit",
            name,
            vessel_size(unit),
            card.speed,
            velocity(unit),
            (unit.x, unit.y),
            not (card.destroyed or card.disabled),
        )
    for piece in state.terrain:
        if piece.id == name:
            point = piece.geometry.centroid
            return Obstacle(
                "terrain",
                name,
                SIZE_BY_NAME[TERRAIN_SIZES[piece.height.value]],
                0,
                (0.0, 0.0),
                (point.x, point.y),
                False,
            )
    raise UserError(
        f"unknown obstacle {name!r}: expected a unit id, a terrain id or 'random'",
        spec_id="R003.15",
    )


def near(state: GameState, unit: Unit, obstacle: Obstacle, reach: float) -> bool:
    """GEO003.2 / GEO003.7: the obstacle is within `reach` inches, base to base or outline."""
    if obstacle.kind == "random":
        return True
    if obstacle.kind == "unit":
        return edge_distance(unit, state.unit(obstacle.id)) <= reach + 1e-9
    piece = state.terrain_piece(obstacle.id)
    return terrain_distance(unit, piece) <= reach + 1e-9


@dataclass(frozen=True, slots=True)
class CollisionDifficulty:
    """R003.15 / R003.16: base (smaller size) + speed (highest) + direction modifiers."""

    size: ObstacleSize
    speed: ObstacleSpeed
    direction: ObstacleDirection

    @property
    def value(self) -> int:
        return self.size.difficulty + self.speed.modifier + self.direction.modifier

    @property
    def needs_roll(self) -> bool:
        """R003.17 / A003.11: below EASY (3) the obstacle is avoided without a roll."""
        return self.value >= EASY

    def event(self) -> Event:
        return Event.of(
            "collision-difficulty",
            "R003.15",
            size=self.size.name,
            base=self.size.difficulty,
            speed=self.speed.name,
            speed_modifier=self.speed.modifier,
            direction=self.direction.name,
            direction_modifier=self.direction.modifier,
            difficulty=self.value,
        )


def collision_difficulty(
    size_a: ObstacleSize, size_b: ObstacleSize, highest_speed: int, direction: str
) -> CollisionDifficulty:
    """R003.16: the smaller object's size, the higher speed, the direction of movement."""
    smaller = size_a if size_a.difficulty <= size_b.difficulty else size_b
    return CollisionDifficulty(smaller, obstacle_speed(highest_speed), direction_row(direction))


def table_difficulty(unit: Unit, obstacle: Obstacle) -> CollisionDifficulty:
    """GEO003.3 / GEO003.7: classify a collision on the table."""
    assert obstacle.size is not None
    direction = collision_direction(
        (unit.x, unit.y), velocity(unit), obstacle.xy, obstacle.velocity
    )
    return collision_difficulty(
        vessel_size(unit), obstacle.size, max(vessel(unit).speed, obstacle.speed), direction
    )


def random_difficulty(unit: Unit, dice: Dice) -> tuple[CollisionDifficulty, tuple[Event, ...]]:
    """R003.16 / A003.9: a randomly generated obstacle (d10 size, d8 speed, d6 direction)."""
    size_roll = dice.roll(D10, who=unit.id, what="random obstacle size")
    speed_roll = dice.roll(D8, who=unit.id, what="random obstacle speed")
    direction_roll = dice.roll(D6, who=unit.id, what="random obstacle direction")
    size, speed, direction = random_obstacle_rows(size_roll, speed_roll, direction_roll)
    own = vessel_size(unit)
    smaller = own if own.difficulty <= size.difficulty else size
    faster = obstacle_speed(max(vessel(unit).speed, speed.low))
    events = (
        Event.of("roll", "A003.9", who=unit.id, what="obstacle size", die="d10", result=size_roll),
        Event.of("roll", "A003.9", who=unit.id, what="obstacle speed", die="d8", result=speed_roll),
        Event.of(
            "roll",
            "A003.9",
            who=unit.id,
            what="obstacle direction",
            die="d6",
            result=direction_roll,
        ),
    )
    return CollisionDifficulty(smaller, faster, direction), events


@dataclass(frozen=True, slots=True)
class CollisionSummary:
    """What a collision check came to: avoided or not, and the damage each party took."""

    avoided: bool
    difficulty: int
    pilot_stun: int
    pilot_wound: int
    other_stun: int
    other_wound: int
    destroyed: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Crash:
    """A collision in progress (fold state): each party's damage state and what is pending."""

    pilot: Target
    other: Target | None
    pending: tuple = ()
    events: tuple[Event, ...] = ()


def _crash_key(crash: Crash) -> tuple:
    return crash.pilot.key, crash.other.key if crash.other else None, crash.pending


def collide(
    state: GameState,
    unit: Unit,
    obstacle: Obstacle,
    pool: Pool | None,
    dice: Dice,
    *,
    other_pool: Pool | None,
    difficulty: CollisionDifficulty | None,
) -> tuple[Crash, int, tuple[Event, ...]]:
    """R003.15-R003.20: the pilot's roll (none when `pool` is None: a rammer, who counts as
    failing, A003.12), the other pilot's roll when it is a ship that tries (R003.19), and
    Basic damage `Difficulty - own roll` to each party on a collision (R003.18, A003.13)."""
    options = settings(state)
    events: list[Event] = []
    if difficulty is None:
        # only the Difficulty matters from here on: the exact odds merge equal ones
        difficulty, rolled = dice.chance(
            lambda source: random_difficulty(unit, source), key=lambda found: found[0].value
        )
        events.extend(rolled)
    events.append(difficulty.event())
    value = difficulty.value
    other_unit = state.unit(obstacle.id) if obstacle.kind == "unit" else None
    start = Crash(
        target_of(vessel(unit)), target_of(vessel(other_unit)) if other_unit is not None else None
    )
    if not difficulty.needs_roll:
        events.append(
            Event.of("collision", "R003.17", difficulty=value, avoided=True, rolled=False)
        )
        return start, value, tuple(events)
    pilot_receiver = receiver_of(unit, options)
    other_receiver = receiver_of(other_unit, options) if other_unit is not None else None

    def pilot_step(crash: Crash, source: Dice) -> Crash:
        if pool is None:
            return replace(
                crash,
                pending=("failed", 0),
                events=(
                    Event.of("collision-roll", "R003.20", who=unit.id, rolled=False, avoided=False),
                ),
            )
        roll = roll_pool(pool, source, who=unit.id, what="avoid collision")
        avoided = succeeded(outcome(roll.total, roll.botch, value))
        events = (
            *roll.events(unit.id, "avoid collision", "R003.15"),
            Event.of(
                "collision-roll",
                "R003.18",
                who=unit.id,
                roll=roll.total,
                difficulty=value,
                avoided=avoided,
            ),
        )
        pending = ("avoided",) if avoided else ("failed", roll.total)
        return replace(crash, pending=pending, events=events)

    def other_step(crash: Crash, source: Dice) -> Crash:
        if crash.pending[0] != "failed" or other_unit is None or other_pool is None:
            return replace(crash, pending=(*crash.pending, 0))
        roll = roll_pool(other_pool, source, who=other_unit.id, what="avoid collision")
        avoided = succeeded(outcome(roll.total, roll.botch, value))
        events = (
            *crash.events,
            *roll.events(other_unit.id, "avoid collision", "R003.19"),
            Event.of(
                "collision-roll",
                "R003.19",
                who=other_unit.id,
                roll=roll.total,
                difficulty=value,
                avoided=avoided,
            ),
        )
        pending = ("avoided",) if avoided else (*crash.pending, roll.total)
        return replace(crash, pending=pending, events=events)

    def damage_step(crash: Crash, source: Dice) -> Crash:
        if crash.pending[0] != "failed":
            return replace(
                crash,
                pending=("avoided",),
                events=(
                    *crash.events,
                    Event.of("collision", "R003.19", difficulty=value, avoided=True),
                ),
            )
        _, own, theirs = crash.pending
        events = [Event.of("collision", "R003.18", difficulty=value, avoided=False)]
        hurt = basic_damage(value - own)
        pilot = deliver(
            crash.pilot,
            pilot_receiver,
            hurt.stun,
            hurt.wound,
            pilot_receiver.scale,
            source,
            who=unit.id,
        )
        events.extend(pilot.events)
        other = crash.other
        if other is not None and other_receiver is not None:
            theirs_hurt = basic_damage(value - theirs)
            other = deliver(
                other,
                other_receiver,
                theirs_hurt.stun,
                theirs_hurt.wound,
                other_receiver.scale,
                source,
                who=unit.id,
            )
            events.extend(other.events)
            other = replace(other, events=())
        return Crash(replace(pilot, events=()), other, ("collided",), crash.events + tuple(events))

    crash = dice.fold(start, (pilot_step, other_step, damage_step), key=_crash_key)
    return crash, value, (*events, *crash.events)


def _collision_state(state: GameState, unit: Unit, obstacle: Obstacle, crash: Crash) -> GameState:
    new_state = write_back(state, unit.id, crash.pilot)
    if crash.other is not None:
        new_state = write_back(new_state, obstacle.id, crash.other)
    return new_state


def _summary(
    state: GameState, unit: Unit, obstacle: Obstacle, crash: Crash, value: int
) -> CollisionSummary:
    start_pilot = target_of(vessel(unit))
    destroyed = []
    if crash.pilot.destroyed and not start_pilot.destroyed:
        destroyed.append(unit.id)
    other_stun = other_wound = 0
    if crash.other is not None:
        start_other = target_of(vessel(state.unit(obstacle.id)))
        other_stun = crash.other.stun - start_other.stun
        other_wound = crash.other.wound - start_other.wound
        if crash.other.destroyed and not start_other.destroyed:
            destroyed.append(obstacle.id)
    return CollisionSummary(
        crash.pending[:1] != ("collided",),
        value,
        crash.pilot.stun - start_pilot.stun,
        crash.pilot.wound - start_pilot.wound,
        other_stun,
        other_wound,
        tuple(destroyed),
    )


def _other_pool(
    state: GameState, obstacle: Obstacle, options: Mapping[str, Any], tries: bool
) -> Pool | None:
    if obstacle.kind != "unit" or not obstacle.piloted or not tries:
        return None
    return pilot_roll(state, state.unit(obstacle.id), options, counts=False).pool


def check_collision_options(options: Mapping[str, Any]) -> None:
    if not options["collisions"]:
        raise UserError("collisions are not in play (option collisions)", spec_id="R003.15")


def resolve_avoid(
    state: GameState, unit_id: str, obstacle_name: str, dice: Dice, *, other_rolls: bool = True
) -> Resolution:
    """R003.15-R003.19: a vessel in contact with an obstacle tries to avoid it."""
    options = settings(state)
    check_collision_options(options)
    unit = unit_of(state, unit_id, "piloting")
    require_active(unit, vessel(unit), "manoeuvre")
    obstacle = obstacle_of(state, obstacle_name)
    if obstacle.id == unit.id:
        raise UserError(f"{unit.id!r} cannot collide with itself", spec_id="R003.15")
    if not near(state, unit, obstacle, float(options["contact_inches"])):
        raise UserError(
            f'{obstacle.id!r} is not within {options["contact_inches"]}" of {unit.id!r}: no '
            "collision to avoid",
            spec_id="GEO003.7",
        )
    roll = pilot_roll(state, unit, options)
    difficulty = table_difficulty(unit, obstacle) if obstacle.kind != "random" else None
    crash, value, events = collide(
        state,
        unit,
        obstacle,
        roll.pool,
        dice,
        other_pool=_other_pool(state, obstacle, options, other_rolls),
        difficulty=difficulty,
    )
    new_state = _collision_state(state, unit, obstacle, crash)
    if difficulty is None or difficulty.needs_roll:
        new_state = tracker.count_action(new_state, roll.character)
        new_state = tracker.consume(new_state, unit.id, roll.entries)
    summary = _summary(state, unit, obstacle, crash, value)
    all_events = (
        Event.of("declare", "R003.15", unit=unit.id, obstacle=obstacle.id),
        *_modifier_events(roll.modifiers, "avoid collision"),
        *events,
        Event.of("outcome", "R003.18", avoided=summary.avoided, destroyed=summary.destroyed),
    )
    return Resolution(new_state, all_events, summary)


def resolve_ram(
    state: GameState, unit_id: str, target_id: str, dice: Dice, *, target_rolls: bool = True
) -> Resolution:
    """R003.20: ramming on purpose; the rammer does not try to avoid (A003.12), the target's
    pilot may (R003.19)."""
    options = settings(state)
    check_collision_options(options)
    unit = unit_of(state, unit_id, "ramming")
    target = unit_of(state, target_id, "rammed")
    require_active(unit, vessel(unit), "ram")
    if target.id == unit.id or target.side == unit.side:
        raise UserError(f"{unit.id!r} can only ram an enemy vessel", spec_id="R003.20")
    obstacle = obstacle_of(state, target.id)
    if not near(state, unit, obstacle, float(options["contact_inches"])):
        raise UserError(
            f'{target.id!r} is not within {options["contact_inches"]}" of {unit.id!r}',
            spec_id="GEO003.7",
        )
    character = pilot_character(unit, vessel(unit), options)
    difficulty = table_difficulty(unit, obstacle)
    crash, value, events = collide(
        state,
        unit,
        obstacle,
        None,
        dice,
        other_pool=_other_pool(state, obstacle, options, target_rolls),
        difficulty=difficulty,
    )
    new_state = tracker.count_action(_collision_state(state, unit, obstacle, crash), character)
    summary = _summary(state, unit, obstacle, crash, value)
    all_events = (
        Event.of("declare", "R003.20", unit=unit.id, target=target.id),
        *events,
        Event.of("outcome", "R003.18", avoided=summary.avoided, destroyed=summary.destroyed),
    )
    return Resolution(new_state, all_events, summary)


# --------------------------------------------------------------------------- strafing


@dataclass(frozen=True, slots=True)
class StrafeSummary:
    """R003.22-R003.24: "collided" (run aborted), "failed" or "strafing"."""

    result: str
    stun: int
    wound: int


def resolve_strafe(state: GameState, unit_id: str, target_id: str, dice: Dice) -> Resolution:
    """R003.21-R003.24: avoid collision, then the run against T003.6 by the target's Strength
    (A003.14); success leaves only the target's point defense able to attack this turn."""
    options = settings(state)
    if not options["strafing_runs"]:
        raise UserError("strafing runs are not in play (option strafing_runs)", spec_id="R003.21")
    unit = unit_of(state, unit_id, "strafing")
    target = unit_of(state, target_id, "strafed")
    card, target_card = vessel(unit), vessel(target)
    require_active(unit, card, "strafe")
    if card.scale != "planetcraft":
        raise UserError(
            f"only a planetcraft-scale vessel may strafe; {unit.id!r} is {card.scale} scale",
            spec_id="R003.21",
        )
    if target_card.scale != "spacecraft" or target.side == unit.side:
        raise UserError(f"{target.id!r} is not an enemy spacecraft", spec_id="R003.21")
    reach = strafe_inches(options)
    if edge_distance(unit, target) > reach + 1e-9:
        raise UserError(
            f'{unit.id!r} must close to within 30 feet ({reach:.3g}") of {target.id!r} to strafe',
            spec_id="R003.22",
        )
    roll = pilot_roll(state, unit, options)
    obstacle = obstacle_of(state, target.id)
    difficulty = table_difficulty(unit, obstacle)
    crash, _, events = collide(
        state,
        unit,
        obstacle,
        roll.pool,
        dice,
        other_pool=_other_pool(state, obstacle, options, True),
        difficulty=difficulty,
    )
    new_state = _collision_state(state, unit, obstacle, crash)
    new_state = tracker.count_action(new_state, roll.character)
    new_state = tracker.consume(new_state, unit.id, roll.entries)
    start = target_of(card)
    if crash.pending[:1] == ("collided",):
        summary = StrafeSummary(
            "collided", crash.pilot.stun - start.stun, crash.pilot.wound - start.wound
        )
        return Resolution(
            new_state,
            (
                Event.of("declare", "R003.21", unit=unit.id, target=target.id),
                *events,
                Event.of("outcome", "R003.22", result="collided", aborted=True),
            ),
            summary,
        )
    needed = strafing_difficulty(target_card.strength)
    run = roll_pool(roll.pool, dice, who=unit.id, what="strafing run")
    result = outcome(run.total, run.botch, needed)
    events = (
        *events,
        *run.events(unit.id, "strafing run", "R003.23"),
        Event.of(
            "strafing-run",
            "R003.23",
            strength=target_card.strength.name,
            difficulty=needed,
            roll=run.total,
            result=result,
        ),
    )
    if succeeded(result):
        new_state = tracker.put(new_state, tracker.STRAFING, unit.id, target.id)
    verdict = "strafing" if succeeded(result) else "failed"
    summary = StrafeSummary(verdict, 0, 0)
    return Resolution(
        new_state,
        (
            Event.of("declare", "R003.21", unit=unit.id, target=target.id),
            *_modifier_events(roll.modifiers, "strafing"),
            *events,
            Event.of(
                "outcome", "R003.24", result=verdict, only_point_defense=verdict == "strafing"
            ),
        ),
        summary,
    )


# --------------------------------------------------------------------------- fighter wings


def join_difficulty(strengths: list) -> int:
    """R003.30: AVERAGE (7), HARD (11) when the wing mixes Strength die types."""
    return HARD if len({s.step for s in strengths}) > 1 else AVERAGE


def _member_of(unit: Unit) -> dict[str, Any]:
    card = vessel(unit)
    stats = unit.stats
    return {
        "id": unit.id,
        "pilot": str(stats.get("pilot", "d6")),
        "gunnery": str(stats.get("gunnery", "d6")),
        "strength": str(stats.get("strength", "d6")),
        "life_points": card.life_points,
        "wound": card.wound,
        "stun": card.stun,
    }


def resolve_join(state: GameState, unit_id: str, wing_id: str, dice: Dice) -> Resolution:
    """R003.30: a fighter in formation rolls Agility + Pilot to join; on success the wing
    holds it as a member (at most six) and it leaves the table as a model of its own."""
    options = settings(state)
    if not options["fighter_wings"]:
        raise UserError("fighter wings are not in play (option fighter_wings)", spec_id="R003.30")
    unit, wing = unit_of(state, unit_id, "joining"), unit_of(state, wing_id, "wing")
    card, wing_card = vessel(unit), vessel(wing)
    require_active(unit, card, "join a wing")
    require_active(wing, wing_card, "take a fighter")
    if unit.id == wing.id or unit.side != wing.side:
        raise UserError(f"{unit.id!r} can only join a friendly fighter", spec_id="R003.30")
    if card.is_wing or card.scale == "spacecraft" or wing_card.scale == "spacecraft":
        raise UserError(
            "only single fighters (not spacecraft) join a fighter or a wing", spec_id="R003.30"
        )
    size = len(wing_card.fighters) if wing_card.is_wing else 1
    if size + 1 > MAX_WING:
        raise UserError(
            f"{wing.id!r} already has {size} fighters: a wing is at most six", spec_id="R003.30"
        )
    if not in_formation(unit, wing, options):
        raise UserError(
            f'{unit.id!r} must be within {options["wing_inches"]}" of {wing.id!r} at the same '
            f"speed and heading (within {options['wing_heading_tolerance']} degrees) to join",
            spec_id="GEO003.2",
        )
    strengths = (
        [m.strength for m in wing_card.fighters] if wing_card.is_wing else [wing_card.strength]
    )
    difficulty = join_difficulty([*strengths, card.strength])
    roll = pilot_roll(state, unit, options)
    rolled = roll_pool(roll.pool, dice, who=unit.id, what="join wing")
    result = outcome(rolled.total, rolled.botch, difficulty)
    new_state = tracker.count_action(state, roll.character)
    events = (
        Event.of(
            "declare",
            "R003.30",
            unit=unit.id,
            wing=wing.id,
            distance=round(centre_distance(unit, wing), 6),
        ),
        *_modifier_events(roll.modifiers, "join wing"),
        *rolled.events(unit.id, "join wing", "R003.30"),
        Event.of("join-wing", "R003.30", difficulty=difficulty, roll=rolled.total, result=result),
    )
    if not succeeded(result):
        return Resolution(new_state, events, result)
    members = [dict(m) for m in wing.stats.get("members", ())] or [_member_of(wing)]
    members.append(_member_of(unit))
    new_state = new_state.replace_unit(wing.with_stats(members=members))
    new_state = tracker.mark_done(new_state.without_unit(unit.id), unit.id)
    return Resolution(
        new_state,
        (*events, Event.of("wing", "R003.31", wing=wing.id, fighters=len(members))),
        result,
    )
