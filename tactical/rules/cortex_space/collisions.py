"""Cortex Space collisions and ramming (R003.15-R003.20, T003.3-T003.5, A003.9).

What a vessel may hit (`Obstacle`: another vessel, a terrain piece by its
height class, GEO003.7, or a random obstacle, A003.9), the Difficulty to avoid
it (`collision_difficulty`: the smaller size, the higher speed, the direction
of movement, R003.16), and `collide`: the avoidance roll and, when it fails,
the damage each party takes, as one fold the exact odds enumerate.
`resolve_avoid` and `resolve_ram` are the actions; a strafing run and a
missile's distraction avoid collisions through the same fold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from tactical.dice import D6, D10, Dice
from tactical.dice.core import ChanceStep, DieStep, Subroll
from tactical.errors import UserError
from tactical.model import GameState, Unit
from tactical.model.frozen import memo_of
from tactical.rules.base import Event, Resolution
from tactical.rules.cortex_space import damage, tracker
from tactical.rules.cortex_space.acting import require_active
from tactical.rules.cortex_space.pilot_rolls import (
    PilotRoll,
    modifier_events,
    pilot_character,
    pilot_roll,
)
from tactical.rules.cortex_space.positions import (
    collision_direction,
    edge_distance,
    terrain_distance,
    velocity,
)
from tactical.rules.cortex_space.rolls import (
    D8,
    Pool,
    PoolRoll,
    basic_damage,
    composite_roll,
    outcome,
    pool_composite,
    roll_pool,
    succeeded,
)
from tactical.rules.cortex_space.tables import (
    EASY,
    SIZE_BY_NAME,
    ObstacleDirection,
    ObstacleSize,
    ObstacleSpeed,
    direction_row,
    obstacle_size,
    obstacle_speed,
    random_obstacle_rows,
)
from tactical.rules.cortex_space.units import settings, vessel
from tactical.rules.lookups import table_unit

RANDOM_OBSTACLE = "random"
# GEO003.7: a terrain piece's height class read as an obstacle size (T003.3 rows)
TERRAIN_SIZES = {
    "tiny": "Small",
    "small": "Medium",
    "medium": "Large",
    "large": "Huge",
    "massive": "Colossal",
}

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


def require_near(
    state: GameState,
    unit: Unit,
    obstacle: Obstacle,
    options: Mapping[str, Any],
    reach_key: str,
    spec_id: str,
    hint: str = "",
) -> None:
    """A UserError unless the obstacle is within the option `reach_key`'s inches (`near`)."""
    if not near(state, unit, obstacle, float(options[reach_key])):
        raise UserError(
            f'{obstacle.id!r} is not within {options[reach_key]}" of {unit.id!r}{hint}',
            spec_id=spec_id,
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
    return RandomObstacle.of(unit)(dice)


@dataclass(frozen=True, slots=True)
class RandomObstacle(Subroll):
    """A003.9: the roll of a random obstacle's Difficulty as a value (all it reads of the
    vessel): a computer player weighs the same avoidance many times, and its 480 outcomes
    are past the bound it enumerates whole actions to, a refusal the enumerator then
    remembers by value instead of replaying it each time."""

    who: str
    own: ObstacleSize
    speed: int

    @classmethod
    def of(cls, unit: Unit) -> RandomObstacle:
        return cls(unit.id, vessel_size(unit), vessel(unit).speed)

    def __call__(self, dice: Dice) -> tuple[CollisionDifficulty, tuple[Event, ...]]:
        who = self.who
        size_roll = dice.roll(D10, who=who, what="random obstacle size")
        speed_roll = dice.roll(D8, who=who, what="random obstacle speed")
        direction_roll = dice.roll(D6, who=who, what="random obstacle direction")
        size, speed, direction = random_obstacle_rows(size_roll, speed_roll, direction_roll)
        own = self.own
        smaller = own if own.difficulty <= size.difficulty else size
        faster = obstacle_speed(max(self.speed, speed.low))
        events = (
            Event.of("roll", "A003.9", who=who, what="obstacle size", die="d10", result=size_roll),
            Event.of("roll", "A003.9", who=who, what="obstacle speed", die="d8", result=speed_roll),
            Event.of(
                "roll",
                "A003.9",
                who=who,
                what="obstacle direction",
                die="d6",
                result=direction_roll,
            ),
        )
        return CollisionDifficulty(smaller, faster, direction), events

    def key(self, outcome: tuple[CollisionDifficulty, tuple[Event, ...]]) -> int:
        """Only the Difficulty matters from here on (`collide`)."""
        return outcome[0].value


@dataclass(frozen=True, slots=True)
class AvoidRoll(Subroll):
    """The other pilot's roll to avoid the collision (R003.19) as a value: its pool and who
    rolls it, enumerated once per value by the exact odds."""

    pool: Pool
    who: str

    def __call__(self, dice: Dice) -> PoolRoll:
        return roll_pool(self.pool, dice, who=self.who, what="avoid collision")


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

    pilot: damage.Target
    other: damage.Target | None
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
        obstacle_roll = RandomObstacle.of(unit)
        difficulty, rolled = dice.chance(obstacle_roll, key=obstacle_roll.key)
        events.extend(rolled)
    events.append(difficulty.event())
    value = difficulty.value
    other_unit = state.unit(obstacle.id) if obstacle.kind == "unit" else None
    other_start = damage.target_of(vessel(other_unit)) if other_unit is not None else None
    start = Crash(damage.target_of(vessel(unit)), other_start)
    if not difficulty.needs_roll:
        events.append(
            Event.of("collision", "R003.17", difficulty=value, avoided=True, rolled=False)
        )
        return start, value, tuple(events)
    pilot_receiver = damage.receiver_of(unit, options)
    other_receiver = damage.receiver_of(other_unit, options) if other_unit is not None else None

    def avoid_roll(
        roll_with: Pool, source: Dice, who: str, roll_spec: str, spec_id: str
    ) -> tuple[bool, int, tuple[Event, ...]]:
        """One party's roll to avoid the collision: avoided, its total and its events."""
        roll = roll_pool(roll_with, source, who=who, what="avoid collision")
        return avoid_events(roll, who, roll_spec, spec_id)

    def avoid_events(
        roll: PoolRoll, who: str, roll_spec: str, spec_id: str
    ) -> tuple[bool, int, tuple[Event, ...]]:
        avoided = succeeded(outcome(roll.total, roll.botch, value))
        events = (
            *roll.events(who, "avoid collision", roll_spec),
            Event.of(
                "collision-roll",
                spec_id,
                who=who,
                roll=roll.total,
                difficulty=value,
                avoided=avoided,
            ),
        )
        return avoided, roll.total, events

    def pilot_step(crash: Crash, source: Dice) -> Crash:
        if pool is None:
            return replace(
                crash,
                pending=("failed", 0),
                events=(
                    Event.of("collision-roll", "R003.20", who=unit.id, rolled=False, avoided=False),
                ),
            )
        avoided, total, events = avoid_roll(pool, source, unit.id, "R003.15", "R003.18")
        pending = ("avoided",) if avoided else ("failed", total)
        return replace(crash, pending=pending, events=events)

    def other_step(crash: Crash, source: Dice) -> Crash:
        if crash.pending[0] != "failed" or other_unit is None or other_pool is None:
            return replace(crash, pending=(*crash.pending, 0))
        avoided, total, events = avoid_roll(other_pool, source, other_unit.id, "R003.19", "R003.19")
        pending = ("avoided",) if avoided else (*crash.pending, total)
        return replace(crash, pending=pending, events=(*crash.events, *events))

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

        def hurt(target: damage.Target, receiver: Any, rolled: int) -> damage.Target:
            """R003.18: basic damage by how far the roll fell short of the Difficulty."""
            harm = basic_damage(value - rolled)
            return damage.deliver(
                target, receiver, harm.stun, harm.wound, receiver.scale, source, who=unit.id
            )

        pilot = hurt(crash.pilot, pilot_receiver, own)
        events.extend(pilot.events)
        other = crash.other
        if other is not None and other_receiver is not None:
            other = hurt(other, other_receiver, theirs)
            events.extend(other.events)
            other = replace(other, events=())
        return Crash(replace(pilot, events=()), other, ("collided",), crash.events + tuple(events))

    steps: list[Any] = [pilot_step, other_step, damage_step]
    # a pilot's roll as one composite die (`DieStep`) and the other party's as a sub-roll
    # (`AvoidRoll`), or none where it does not try (`ChanceStep`): read face by face, state
    # by state, by the exact odds instead of replayed (the same rolls, states, weights,
    # order and replay counts), a crash made only where its key is reached first
    rolled = None if pool is None else pool_composite(pool)
    if rolled is not None:
        die, count = rolled

        def pilot_face(crash: Crash, total: int) -> Crash:
            avoided, total, events = avoid_events(
                composite_roll(die, count, total), unit.id, "R003.15", "R003.18"
            )
            pending = ("avoided",) if avoided else ("failed", total)
            return replace(crash, pending=pending, events=events)

        def pilot_key(key: Any, total: int) -> tuple:
            avoided = succeeded(outcome(total, total == count, value))
            return key[0], key[1], ("avoided",) if avoided else ("failed", total)

        steps[0] = DieStep(die, pilot_face, unit.id, "avoid collision", pilot_key)
    tries = other_unit is not None and other_pool is not None
    if not tries or pool_composite(other_pool) is not None:  # type: ignore[arg-type]
        other_roll = AvoidRoll(other_pool, other_unit.id) if tries else None  # type: ignore[arg-type, union-attr]

        def other_rolls(crash: Crash) -> AvoidRoll | None:
            return other_roll if crash.pending[0] == "failed" else None

        def other_rolled(crash: Crash, roll: PoolRoll | None) -> Crash:
            if roll is None:
                return replace(crash, pending=(*crash.pending, 0))
            avoided, total, events = avoid_events(roll, other_unit.id, "R003.19", "R003.19")  # type: ignore[union-attr]
            pending = ("avoided",) if avoided else (*crash.pending, total)
            return replace(crash, pending=pending, events=(*crash.events, *events))

        def other_keys(crash: Crash, key: Any, rolls: Sequence[PoolRoll | None]) -> list:
            if rolls[0] is None:
                return [(key[0], key[1], (*crash.pending, 0))]
            return [
                (
                    key[0],
                    key[1],
                    ("avoided",)
                    if succeeded(outcome(roll.total, roll.botch, value))  # type: ignore[union-attr]
                    else (*crash.pending, roll.total),  # type: ignore[union-attr]
                )
                for roll in rolls
            ]

        steps[1] = ChanceStep(other_rolls, other_rolled, other_keys)
    crash = dice.fold(start, tuple(steps), key=_crash_key)
    return crash, value, (*events, *crash.events)


def pilot_collides(
    state: GameState,
    unit: Unit,
    obstacle: Obstacle,
    roll: PilotRoll,
    dice: Dice,
    other: Pool | None,
    difficulty: CollisionDifficulty | None,
    *,
    counts: bool = True,
) -> tuple[GameState, Crash, int, tuple[Event, ...]]:
    """`collide` with the pilot's roll, written back to the state; the roll counts as the
    pilot's action and spends its bonuses when `counts`."""
    crash, value, events = collide(
        state, unit, obstacle, roll.pool, dice, other_pool=other, difficulty=difficulty
    )
    new_state = collision_state(state, unit, obstacle, crash)
    if counts:
        new_state = tracker.count_action(new_state, roll.character)
        new_state = tracker.consume(new_state, unit.id, roll.entries)
    return new_state, crash, value, events


def collision_state(state: GameState, unit: Unit, obstacle: Obstacle, crash: Crash) -> GameState:
    new_state = damage.write_back(state, unit.id, crash.pilot)
    if crash.other is not None:
        new_state = damage.write_back(new_state, obstacle.id, crash.other)
    return new_state


def _summary(
    state: GameState, unit: Unit, obstacle: Obstacle, crash: Crash, value: int
) -> CollisionSummary:
    start_pilot = damage.target_of(vessel(unit))
    destroyed = []
    if crash.pilot.destroyed and not start_pilot.destroyed:
        destroyed.append(unit.id)
    other_stun = other_wound = 0
    if crash.other is not None:
        start_other = damage.target_of(vessel(state.unit(obstacle.id)))
        other_stun, other_wound = damage.damage_dealt(start_other, crash.other)
        if crash.other.destroyed and not start_other.destroyed:
            destroyed.append(obstacle.id)
    pilot_stun, pilot_wound = damage.damage_dealt(start_pilot, crash.pilot)
    return CollisionSummary(
        crash.pending[:1] != ("collided",),
        value,
        pilot_stun,
        pilot_wound,
        other_stun,
        other_wound,
        tuple(destroyed),
    )


def other_pool(
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
    unit, obstacle, roll, other, difficulty, declared = _avoid_plan(
        state, unit_id, obstacle_name, other_rolls
    )
    new_state, crash, value, events = pilot_collides(
        state,
        unit,
        obstacle,
        roll,
        dice,
        other,
        difficulty,
        counts=difficulty is None or difficulty.needs_roll,
    )
    summary = _summary(state, unit, obstacle, crash, value)
    all_events = (
        *declared,
        *events,
        Event.of("outcome", "R003.18", avoided=summary.avoided, destroyed=summary.destroyed),
    )
    return Resolution(new_state, all_events, summary)


def _avoid_plan(state: GameState, unit_id: str, obstacle_name: str, other_rolls: bool) -> tuple:
    """`resolve_avoid`'s checks, rolls' pools, Difficulty and declaration before any roll,
    remembered while the state lives (by its identity, `memo_of`): a computer player
    weighs an avoidance by its exact odds, then by seeded rolls, on the same state. A
    refused avoidance raises each time."""
    memo = memo_of(_AVOIDS, state)
    key = (unit_id, obstacle_name, other_rolls)
    found = memo.get(key)
    if found is None:
        options = settings(state)
        check_collision_options(options)
        unit = table_unit(state, unit_id, "piloting")
        require_active(unit, vessel(unit), "manoeuvre")
        obstacle = obstacle_of(state, obstacle_name)
        if obstacle.id == unit.id:
            raise UserError(f"{unit.id!r} cannot collide with itself", spec_id="R003.15")
        require_near(
            state, unit, obstacle, options, "contact_inches", "GEO003.7", ": no collision to avoid"
        )
        roll = pilot_roll(state, unit, options)
        difficulty = table_difficulty(unit, obstacle) if obstacle.kind != "random" else None
        declared = (
            Event.of("declare", "R003.15", unit=unit.id, obstacle=obstacle.id),
            *modifier_events(roll.modifiers, "avoid collision"),
        )
        other = other_pool(state, obstacle, options, other_rolls)
        found = memo[key] = (unit, obstacle, roll, other, difficulty, declared)
    return found


_AVOIDS: dict[int, tuple[Any, dict]] = {}  # avoidance plans by state (`memo_of`), then by names


def resolve_ram(
    state: GameState, unit_id: str, target_id: str, dice: Dice, *, target_rolls: bool = True
) -> Resolution:
    """R003.20: ramming on purpose; the rammer does not try to avoid (A003.12), the target's
    pilot may (R003.19)."""
    options = settings(state)
    check_collision_options(options)
    unit = table_unit(state, unit_id, "ramming")
    target = table_unit(state, target_id, "rammed")
    require_active(unit, vessel(unit), "ram")
    if target.id == unit.id or target.side == unit.side:
        raise UserError(f"{unit.id!r} can only ram an enemy vessel", spec_id="R003.20")
    obstacle = obstacle_of(state, target.id)
    require_near(state, unit, obstacle, options, "contact_inches", "GEO003.7")
    character = pilot_character(unit, vessel(unit), options)
    difficulty = table_difficulty(unit, obstacle)
    crash, value, events = collide(
        state,
        unit,
        obstacle,
        None,
        dice,
        other_pool=other_pool(state, obstacle, options, target_rolls),
        difficulty=difficulty,
    )
    new_state = tracker.count_action(collision_state(state, unit, obstacle, crash), character)
    summary = _summary(state, unit, obstacle, crash, value)
    all_events = (
        Event.of("declare", "R003.20", unit=unit.id, target=target.id),
        *events,
        Event.of("outcome", "R003.18", avoided=summary.avoided, destroyed=summary.destroyed),
    )
    return Resolution(new_state, all_events, summary)
