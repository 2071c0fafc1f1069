"""Heavy Combat fire (seed 001): weapons, to-hit, the damage pipeline, internals.

One weapon's fire is `shoot(context, duel, cards, dice)`: the to-hit step (the
weapon's own roll, R001.17/R001.19; or 1d6 <= 3 with half the sensors lost,
R001.31; or the direction procedure against a cloaked ship or without sensors,
R001.30/R001.32; or a flash-detected prediction, R001.33), then either the
specific-system roll (R001.37) or the damage pipeline of R001.24: raw damage
(R001.15/R001.17/R001.19) -> the firer's rotation halving (R001.22) -> the
target's rotation split (R001.23) -> reinforcement (R001.26) -> countermeasures
(R001.27, A001.12) -> shields (R001.28). What overflows is queued as internal
hits (R001.25), which `resolve_internals` rolls on the chart with rerolls
(R001.34), with the catastrophic roll (R001.35). A photon at range 1 costs its
firer a quarter (R001.17, A001.8).

Everything the table and the declarations decide is computed first, from the
state at the start of the Result step (`fire_context`: range, facings,
rotation, sensors, cloak — fire is simultaneous, R001.3); only the rolls are
left to the dice. `fire_step` is one weapon fired at once (its internals
straight after); the Result step (`result.fire_phase`) shoots every declared
weapon, then resolves each ship's queued internal hits in the order they were
caused. The exact odds enumerate these very functions
(`tactical.dice.enumerate_outcomes`); the internal hits are a fold whose states
merge up to the chart's symmetry (`canonical_destroyed`).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from tactical.dice import D6, Dice, Die
from tactical.errors import UserError
from tactical.rules.base import Event
from tactical.rules.heavy_combat.duel import Bucket, Duel, FireOrder, Ship
from tactical.rules.heavy_combat.engagement import Engagement
from tactical.rules.heavy_combat.ships import Profile
from tactical.rules.heavy_combat.tables import (
    CATASTROPHIC_TABLE,
    CATEGORIES,
    DIRECTION_TABLE,
    DISRUPTOR_INTERVAL,
    DISRUPTOR_TO_HIT,
    FACINGS,
    HALF_IMPULSE_FACTOR,
    KLINGON_DISRUPTOR_ARCS,
    PHASER_ARCS,
    PHOTON_INTERVAL,
    PHOTON_TO_HIT,
    ROTATION_TURNS_PER_STEP,
    SENSORS_HALF_TO_HIT_MAX,
    SPECIFIC_DICE,
    SPECIFIC_SUCCESS,
    backlash,
    catastrophic_losses,
    catastrophic_threshold,
    chart_category,
    damage_die,
    halve,
    hits_at_least,
    launcher_arcs,
    multiplier,
    rerolled,
    specific_result,
    split,
)

PHASERS, ROMULAN, PHOTON, DISRUPTORS = "phasers", "romulan-disruptors", "photon", "disruptors"
GENERAL, SPECIFIC = "general", "specific"
MOVES = ("none", "close", "retreat", "lateral", "rotate")  # what a flash detector predicts
FIRE_PARAMS = ("power", "mode", "system", "direction")


def roll_event(spec_id: str, who: str, what: str, die: Die, result: int) -> Event:
    return Event.of("roll", spec_id, who=who, what=what, die=die.name, result=result)


# --------------------------------------------------------------------------- weapons


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon a ship can declare: its name, class (R001.14) and arcs (T001.8)."""

    name: str
    kind: str
    directed: bool
    arcs: frozenset[str]
    launcher: int | None = None

    @property
    def spec_id(self) -> str:
        return {PHASERS: "R001.15", ROMULAN: "R001.16", PHOTON: "R001.17", DISRUPTORS: "R001.19"}[
            self.kind
        ]

    @property
    def arc_rule(self) -> str:
        return {PHASERS: "R001.15", ROMULAN: "R001.16", PHOTON: "R001.18", DISRUPTORS: "R001.19"}[
            self.kind
        ]

    @property
    def points_chosen(self) -> bool:
        """Phaser-like weapons spend p chosen points (T001.1); the others cost 1."""
        return self.directed


def weapons_of(card: Profile) -> tuple[Weapon, ...]:
    """The weapons on a ship's sheet, in declaration order."""
    found: list[Weapon] = []
    if card.phasers:
        found.append(Weapon(PHASERS, PHASERS, True, PHASER_ARCS))
    if card.romulan_disruptors:
        found.append(Weapon(ROMULAN, ROMULAN, True, card.romulan_disruptor_arcs))
    for launcher in range(1, card.photon_launchers + 1):
        found.append(Weapon(f"photon-{launcher}", PHOTON, False, launcher_arcs(launcher), launcher))
    if card.disruptors:
        found.append(Weapon(DISRUPTORS, DISRUPTORS, False, KLINGON_DISRUPTOR_ARCS))
    return tuple(found)


def weapon_named(card: Profile, name: str, ship_id: str) -> Weapon:
    for weapon in weapons_of(card):
        if weapon.name == name:
            return weapon
    offer = ", ".join(w.name for w in weapons_of(card)) or "none"
    raise UserError(
        f"{ship_id!r} has no weapon {name!r}: its weapons are {offer}", spec_id="R001.14"
    )


def fire_cost(weapon: Weapon, power: int) -> int:
    """T001.1: phasers (and Romulan disruptors) p points; a photon launch or a disruptor 1."""
    return power if weapon.points_chosen else 1


# --------------------------------------------------------------------------- ship status


def _lost(destroyed: int, capacity: int) -> str:
    if destroyed >= capacity:
        return "lost"
    return "half" if 2 * destroyed >= capacity else "ok"


def sensors_state(card: Profile, ship: Ship) -> str:
    """R001.31/R001.32: ok, half (>= 1/2 of the capacity lost) or lost (all of it)."""
    return _lost(ship.destroyed_in("sensors"), card.capacity("sensors"))


def impulse_state(card: Profile, ship: Ship) -> str:
    """R001.12: ok, half (>= 1/2 lost) or lost."""
    return _lost(ship.destroyed_in("impulse"), card.capacity("impulse"))


def warp_ok(card: Profile, ship: Ship) -> bool:
    """R001.13: warp capacity is lost when every warp box is destroyed."""
    return ship.destroyed_in("warp") < card.capacity("warp")


def can_manoeuvre(card: Profile, ship: Ship) -> bool:
    """R001.12/R001.13: no manoeuvre without impulse or without warp."""
    return impulse_state(card, ship) != "lost" and warp_ok(card, ship)


def manoeuvre_turns(card: Profile, ship: Ship) -> int:
    """R001.12 / A001.26: manoeuvres take twice as long with half the impulse lost."""
    return HALF_IMPULSE_FACTOR if impulse_state(card, ship) == "half" else 1


def rotation_step_turns(card: Profile, ship: Ship) -> int:
    """R001.11/R001.12: turns per facing step, 2 (4 with half impulse)."""
    return ROTATION_TURNS_PER_STEP * manoeuvre_turns(card, ship)


def rotating(card: Profile, ship: Ship) -> bool:
    """A ship is rotating this turn when a rotation is under way and it can manoeuvre."""
    return ship.turning is not None and can_manoeuvre(card, ship)


def rotation_phase(card: Profile, ship: Ship) -> int:
    """A001.3: the 1st or 2nd "phase" of a rotation step (the first or second half of it)."""
    assert ship.turning is not None
    return 1 if 2 * ship.turning.elapsed < rotation_step_turns(card, ship) else 2


def shields_down(ship: Ship) -> bool:
    """R001.29: no shields in the turn before a cloak engages and the turn after it drops."""
    return ship.cloak in ("engaging", "disengaging")


def cloaked(ship: Ship) -> bool:
    return ship.cloak == "on"


def moves_of(card: Profile, ship: Ship, turn: int) -> frozenset[str]:
    """R001.33: the moves a ship is making this turn, as a flash detector predicts them."""
    moves = {m.kind for m in ship.moving(turn)}
    if rotating(card, ship):
        moves.add("rotate")
    return frozenset(moves or {"none"})


# --------------------------------------------------------------------------- context


@dataclass(frozen=True, slots=True)
class FireContext:
    """Everything one weapon's fire depends on besides the dice (see the module docstring)."""

    firer: str
    target: str
    weapon: Weapon
    order: FireOrder
    range: int
    multiplier: int
    true_direction: str  # GEO001.5: the firer's facing toward the target
    in_arc: bool
    target_facing: str
    split_to: str | None
    halved: bool
    procedure: str  # weapon | sensors-half | direction | flash
    needed: int | None
    prediction: str | None  # the flash detector's predicted move (read by "flash" only)
    predicted_right: bool | None
    bypass: str | None  # why shields are bypassed: cloaked | shields-down | None
    countermeasures: bool
    damage_die: str
    specific_die: str
    backlash: bool

    @property
    def facings_fired_on(self) -> tuple[str, ...]:
        if self.order.mode == SPECIFIC:
            return ()
        return (self.target_facing,) + ((self.split_to,) if self.split_to else ())

    def facts(self) -> dict[str, Any]:
        return {
            "range": self.range,
            "multiplier": self.multiplier,
            "firer_facing": self.true_direction,
            "in_arc": self.in_arc,
            "target_facing": self.target_facing,
            "split_to": self.split_to,
            "halved": self.halved,
            "procedure": self.procedure,
            "needed": self.needed,
            "bypass_shields": self.bypass,
            "mode": self.order.mode,
            "system": self.order.system,
            "power": self.order.power,
        }


def fire_context(
    duel: Duel,
    cards: Mapping[str, Profile],
    view: Engagement,
    firer_id: str,
    order: FireOrder,
    options: Mapping[str, Any],
) -> FireContext:
    """The decided part of one weapon's fire, from the state at the start of the Result."""
    firer, target = duel.ship(firer_id), duel.ship(order.target)
    card, target_card = cards[firer_id], cards[order.target]
    weapon = weapon_named(card, order.weapon, firer_id)
    # check_fire refused the order beyond range 3 (R001.21); the range holds all turn (R001.8)
    assert view.range is not None
    direction = view.facing(firer_id)
    target_facing = view.facing(order.target)
    split_to = None
    if rotating(target_card, target) and not target.lateral_in(duel.turn):
        # R001.23: tracking weapons split in both turns of a step, directed energy in the
        # second; a target moving laterally takes everything on its facing (R001.10)
        assert target.turning is not None
        toward = target.turning.toward
        phase = rotation_phase(target_card, target)
        if toward != target_facing and (not weapon.directed or phase == 2):
            split_to = toward
    sensors = sensors_state(card, firer)
    if cloaked(target):
        procedure = "flash" if firer.orders.flash is not None else "direction"
    elif sensors == "lost":
        procedure = "direction"
    elif sensors == "half":
        procedure = "sensors-half"
    else:
        procedure = "weapon"
    needed = None
    if weapon.kind == PHOTON:
        needed = PHOTON_TO_HIT[view.range]
    elif weapon.kind == DISRUPTORS:
        needed = DISRUPTOR_TO_HIT[view.range]
    predicted = None
    if procedure == "flash":
        predicted = firer.orders.flash in moves_of(target_card, target, duel.turn)
    bypass = "cloaked" if cloaked(target) else ("shields-down" if shields_down(target) else None)
    return FireContext(
        firer=firer_id,
        target=order.target,
        weapon=weapon,
        order=order,
        range=view.range,
        multiplier=multiplier(view.range),
        true_direction=direction,
        in_arc=direction in weapon.arcs,
        target_facing=target_facing,
        split_to=split_to,
        halved=weapon.directed and rotating(card, firer),
        procedure=procedure,
        needed=needed,
        prediction=firer.orders.flash,
        predicted_right=predicted,
        bypass=bypass,
        countermeasures=options["countermeasures"] == "negate",
        damage_die=str(options["tracking_damage_die"]),
        specific_die=str(options["specific_system_die"]),
        backlash=weapon.kind == PHOTON and view.range == 1,
    )


# --------------------------------------------------------------------------- to-hit


@dataclass(frozen=True, slots=True)
class ToHit:
    hit: bool
    events: tuple[Event, ...]


def to_hit(ctx: FireContext, dice: Dice) -> ToHit:
    """The to-hit step of one weapon, by the procedure the context names."""
    who, what = ctx.firer, f"{ctx.weapon.name} to-hit"
    if ctx.procedure == "flash":
        hit = bool(ctx.predicted_right) and ctx.in_arc
        return ToHit(
            hit,
            (
                Event.of(
                    "to-hit",
                    "R001.33",
                    procedure="flash",
                    predicted=ctx.prediction,
                    prediction_right=ctx.predicted_right,
                    in_arc=ctx.in_arc,
                    hit=hit,
                ),
            ),
        )
    if ctx.procedure == "direction":
        rule = "R001.30" if ctx.bypass == "cloaked" else "R001.32"
        events: list[Event] = []
        if ctx.order.direction is not None:
            nominated = ctx.order.direction
        else:
            roll = dice.roll(D6, who=who, what=f"{ctx.weapon.name} direction")
            nominated = DIRECTION_TABLE[roll]
            events.append(roll_event(rule, who, f"{ctx.weapon.name} direction", D6, roll))
            events.append(Event.of("lookup", "T001.4", roll=roll, direction=nominated))
        hit = nominated == ctx.true_direction and ctx.in_arc
        events.append(
            Event.of(
                "to-hit",
                rule,
                procedure="direction",
                nominated=nominated,
                actual=ctx.true_direction,
                in_arc=ctx.in_arc,
                hit=hit,
            )
        )
        return ToHit(hit, tuple(events))
    if ctx.procedure == "sensors-half":
        roll = dice.roll(D6, who=who, what=what)
        hit = roll <= SENSORS_HALF_TO_HIT_MAX
        return ToHit(
            hit,
            (
                roll_event("R001.31", who, what, D6, roll),
                Event.of("to-hit", "R001.31", roll=roll, needed_at_most=3, hit=hit),
            ),
        )
    if ctx.needed is None:
        return ToHit(
            True,
            (Event.of("to-hit", ctx.weapon.spec_id, range=ctx.range, automatic=True, hit=True),),
        )
    roll = dice.roll(D6, who=who, what=what)
    hit = hits_at_least(roll, ctx.needed)
    return ToHit(
        hit,
        (
            roll_event(ctx.weapon.spec_id, who, what, D6, roll),
            Event.of(
                "to-hit", ctx.weapon.spec_id, range=ctx.range, roll=roll, needed=ctx.needed, hit=hit
            ),
        ),
    )


# --------------------------------------------------------------------------- internals


# Categories the rules give an effect to (R001.31, R001.32, R001.12, R001.13); the chart's
# other rows (bridge, weapons, batteries) have none, so they are interchangeable for the odds
EFFECT_CATEGORIES: tuple[str, ...] = ("sensors", "impulse", "warp")
_EFFECT_INDEX = tuple(CATEGORIES.index(c) for c in EFFECT_CATEGORIES)
_OTHER_INDEX = tuple(k for k in range(len(CATEGORIES)) if k not in _EFFECT_INDEX)
MAX_CATASTROPHIC = max(CATASTROPHIC_TABLE.values())

# Internal damage waiting to be resolved on one ship, in order: a whole number n is n hits
# on the chart (shield overflow, R001.25), a category name one specific-system hit (R001.37)
Queue = tuple[int | str, ...]


def queued(queue: Queue, item: int | str) -> Queue:
    """`queue` with `item` appended (consecutive chart hits counted together)."""
    if isinstance(item, int):
        if item <= 0:
            return queue
        if queue and isinstance(queue[-1], int):
            return (*queue[:-1], queue[-1] + item)
    return (*queue, item)


def queue_length(queue: Queue) -> int:
    return sum(item if isinstance(item, int) else 1 for item in queue)


@dataclass(frozen=True, slots=True)
class Internals:
    """The internal-hit process: boxes destroyed per category, whether the catastrophic
    roll was made, the hits still queued, catastrophic hits still to resolve, and a compact
    log of what happened (`events` words it; kept plain because exact odds replay this
    process hundreds of thousands of times)."""

    destroyed: tuple[int, ...]
    catastrophic: bool
    queue: Queue = ()
    extra: int = 0
    log: tuple[tuple[Any, ...], ...] = ()
    who: str = ""
    table: str = "T001.5"

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(e for entry in self.log for e in _logged(entry, self.who, self.table))

    def but(self, **changes: Any) -> Internals:
        return replace(self, **changes)


def _logged(entry: tuple[Any, ...], who: str, table: str) -> tuple[Event, ...]:
    """The events of one log entry of the internal-hit process."""
    what = entry[0]
    if what == "hit":
        _, rule, first, reroll_faces, roll, category, count = entry
        events = []
        if first is not None:
            events.append(roll_event("R001.34", who, "internal damage chart", D6, first))
        if reroll_faces is not None:
            events.append(
                Event.of(
                    "reroll", "R001.34", roll=first, system=chart_category(first), destroyed=True
                )
            )
            die = _reroll_die(reroll_faces)
            events.append(roll_event("R001.34", who, "internal damage chart reroll", die, roll))
        if first is not None:
            events.append(Event.of("lookup", table, roll=roll, system=category))
        events.append(Event.of("internal", rule, ship=who, system=category, destroyed=count))
        return tuple(events)
    if what == "catastrophic":
        _, roll, extra, total, threshold = entry
        return (
            roll_event("R001.35", who, "catastrophic damage", D6, roll),
            Event.of(
                "catastrophic",
                "T001.7",
                ship=who,
                destroyed=total,
                threshold=threshold,
                roll=roll,
                additional=extra,
            ),
        )
    if what == "wreck":
        return (Event.of("wreck", "R001.34", ship=who, rolled=False),)
    _, system = entry
    return (Event.of("no-effect", "R001.37", ship=who, system=system, already_destroyed=True),)


@lru_cache(maxsize=64)
def _reroll_die(live: frozenset[int]) -> Die:
    return rerolled(D6, live)


@lru_cache(maxsize=65536)
def _live(boxes: tuple[int, ...], destroyed: tuple[int, ...]) -> frozenset[int]:
    """The chart rolls (1-6) whose category still has boxes (R001.34)."""
    return frozenset(k + 1 for k in range(len(boxes)) if destroyed[k] < boxes[k])


def _destroyed_one(destroyed: tuple[int, ...], index: int) -> tuple[int, ...]:
    return (*destroyed[:index], destroyed[index] + 1, *destroyed[index + 1 :])


@dataclass(frozen=True, slots=True)
class _Chart:
    """A ship's internal damage chart and catastrophic threshold (read once per fold)."""

    boxes: tuple[int, ...]
    threshold: int

    @classmethod
    def of(cls, card: Profile) -> _Chart:
        return cls(card.boxes, catastrophic_threshold(card.internals))

    def hit(self, s: Internals, dice: Dice, rule: str) -> Internals:
        """One box destroyed on the race's chart (R001.34): 1d6, a destroyed category
        rerolled (the reroll is one roll among the categories left, `tables.rerolled`)."""
        live = _live(self.boxes, s.destroyed)
        if not live:
            return s.but(log=(*s.log, ("wreck",)))
        first = roll = dice.roll(D6, who=s.who, what="internal damage chart")
        faces = None
        if roll not in live:
            faces = live
            roll = dice.roll(_reroll_die(live), who=s.who, what="internal damage chart reroll")
        index = roll - 1
        destroyed = _destroyed_one(s.destroyed, index)
        entry = ("hit", rule, first, faces, roll, CATEGORIES[index], destroyed[index])
        return Internals(
            destroyed, s.catastrophic, s.queue, s.extra, (*s.log, entry), s.who, s.table
        )

    def system_hit(self, s: Internals, system: str) -> Internals:
        """R001.37: a specific-system hit destroys one box of that system, if any is left."""
        index = CATEGORIES.index(system)
        if s.destroyed[index] >= self.boxes[index]:
            return s.but(log=(*s.log, ("no-effect", system)))
        destroyed = _destroyed_one(s.destroyed, index)
        entry = ("hit", "R001.37", None, None, None, system, destroyed[index])
        return s.but(destroyed=destroyed, log=(*s.log, entry))

    def catastrophe(self, s: Internals, dice: Dice) -> Internals:
        """R001.35: the first time the destroyed boxes reach round(3/4 x internals), 1d6 on
        T001.7 gives 7 - roll further hits (resolved next, on the chart). Once (A001.19)."""
        total = sum(s.destroyed)
        if s.catastrophic or total < self.threshold:
            return s
        roll = dice.roll(D6, who=s.who, what="catastrophic damage")
        extra = catastrophic_losses(roll)
        entry = ("catastrophic", roll, extra, total, self.threshold)
        return Internals(s.destroyed, True, s.queue, extra, (*s.log, entry), s.who, s.table)

    def step(self, s: Internals, dice: Dice) -> Internals:
        """One step of the internal-hit fold: a catastrophic hit if any is pending, else the
        next queued hit (which may set off the catastrophic roll)."""
        if s.extra > 0:
            waiting = Internals(
                s.destroyed, s.catastrophic, s.queue, s.extra - 1, s.log, s.who, s.table
            )
            return self.hit(waiting, dice, "R001.35")
        if not s.queue:
            return s
        head, rest = s.queue[0], s.queue[1:]
        if isinstance(head, int):
            rest = (head - 1, *rest) if head > 1 else rest
            waiting = Internals(s.destroyed, s.catastrophic, rest, s.extra, s.log, s.who, s.table)
            return self.catastrophe(self.hit(waiting, dice, "R001.25"), dice)
        return self.catastrophe(self.system_hit(s.but(queue=rest), head), dice)


def canonical_destroyed(card: Profile, destroyed: tuple[int, ...]) -> Hashable:
    """Destroyed boxes up to the chart's symmetry: the categories without an effect are
    interchangeable when their capacities are equal (what the odds merge states by)."""
    return (
        tuple(destroyed[k] for k in _EFFECT_INDEX),
        tuple(sorted((card.boxes[k], destroyed[k]) for k in _OTHER_INDEX)),
    )


def internal_damage(
    card: Profile,
    ship: Ship,
    queue: Queue | int,
    dice: Dice,
    *,
    who: str,
    detail: str = "systems",
) -> Internals:
    """The queued internal hits of one ship resolved in order (R001.25 chart hits,
    R001.34 rerolls, R001.35 catastrophic damage, R001.37 specific-system hits).

    One fold, a step per queued hit (plus room for the catastrophic hits when the threshold
    can be reached). Its states are merged by `canonical_destroyed`, so exact odds stay
    polynomial; with `detail="count"`, for a caller that only reports how many boxes are
    lost, by the number destroyed: a chart hit adds one box whichever system it finds, and
    the catastrophic roll looks only at that number (not so for a specific-system hit,
    which keeps the systems' detail)."""
    if isinstance(queue, int):
        queue = queued((), queue)
    chart = _Chart.of(card)
    table = "T001.6" if card.chart == "klingon" else "T001.5"
    start = Internals(ship.destroyed, ship.catastrophic, queue, 0, (), who, table)
    steps = queue_length(queue)
    if not ship.catastrophic and sum(ship.destroyed) + steps >= chart.threshold:
        steps += MAX_CATASTROPHIC
    if steps == 0:
        return start
    effect, other = _EFFECT_INDEX, _OTHER_INDEX
    boxes = card.boxes

    def key(s: Internals) -> Hashable:
        d = s.destroyed
        return (
            tuple(d[k] for k in effect),
            tuple(sorted((boxes[k], d[k]) for k in other)),
            s.catastrophic,
            s.queue,
            s.extra,
        )

    def count_key(s: Internals) -> Hashable:
        return sum(s.destroyed), s.catastrophic, s.queue, s.extra

    by_count = detail == "count" and all(isinstance(item, int) for item in queue)
    return dice.fold(start, [chart.step] * steps, key=count_key if by_count else key)


def resolve_internals(
    duel: Duel,
    cards: Mapping[str, Profile],
    ship_id: str,
    queue: Queue,
    dice: Dice,
    detail: str = "systems",
) -> tuple[Duel, tuple[Event, ...]]:
    """One ship's queued internal hits applied: boxes destroyed, catastrophic, wreck
    (`detail` as for `internal_damage`)."""
    if not queue:
        return duel, ()
    card, ship = cards[ship_id], duel.ship(ship_id)
    internals = internal_damage(card, ship, queue, dice, who=ship_id, detail=detail)
    events = list(internals.events)
    after = _wrecked(
        card,
        ship.evolve(destroyed=internals.destroyed, catastrophic=internals.catastrophic),
        events,
    )
    return duel.with_ship(ship_id, after), tuple(events)


def _wrecked(card: Profile, ship: Ship, events: list[Event]) -> Ship:
    if ship.out is None and sum(ship.destroyed) >= card.internals:
        events.append(Event.of("wreck", "R001.34", internals=card.internals))
        return ship.evolve(out="wreck")
    return ship


# --------------------------------------------------------------------------- damage


@dataclass(frozen=True, slots=True)
class Absorbed:
    """What a hit did before the internals: the ship's shields, reinforcement and
    countermeasures after it, points on shields, points absorbed, points overflowing."""

    ship: Ship
    shield_points: int
    absorbed: int
    overflow: int
    events: tuple[Event, ...]


def _absorb(buckets: tuple[Bucket, ...], facing: str | None, points: int) -> tuple[tuple, int]:
    """Consume up to `points` from the buckets matching `facing` (oldest first)."""
    absorbed = 0
    kept: list[Bucket] = []
    for bucket in sorted(buckets, key=lambda b: b.turn):
        if bucket.facing == facing and absorbed < points:
            used = min(bucket.points, points - absorbed)
            absorbed += used
            if bucket.points > used:
                kept.append(replace(bucket, points=bucket.points - used))
        else:
            kept.append(bucket)
    return tuple(kept), absorbed


def absorb_hit(
    card: Profile,
    ship: Ship,
    portions: tuple[tuple[str, int], ...],
    *,
    bypass: str | None,
    countermeasures: bool,
) -> Absorbed:
    """R001.24-R001.28: each facing's share through reinforcement, countermeasures and the
    shield; what overflows (everything, when shields are bypassed) goes to the internals."""
    events: list[Event] = []
    absorbed_total = shield_points = overflow = 0
    damage = list(ship.shield_damage)
    reinforcements, counters = ship.reinforcement, ship.countermeasures
    for facing, points in portions:
        left = points
        if bypass is None and left > 0:
            reinforcements, used = _absorb(reinforcements, facing, left)
            if used:
                left -= used
                absorbed_total += used
                events.append(
                    Event.of("reinforcement", "R001.26", facing=facing, absorbed=used, left=left)
                )
        if countermeasures and left > 0:
            counters, used = _absorb(counters, None, left)
            if used:
                left -= used
                absorbed_total += used
                events.append(
                    Event.of("countermeasures", "R001.27", facing=facing, negated=used, left=left)
                )
        if bypass is not None:
            overflow += left
            if left:
                rule = "R001.30" if bypass == "cloaked" else "R001.29"
                events.append(Event.of("bypass", rule, facing=facing, internals=left, why=bypass))
            continue
        index = FACINGS.index(facing)
        capacity = card.shields[index]
        on_shield = min(left, max(0, capacity - damage[index]))
        damage[index] += on_shield
        shield_points += on_shield
        overflow += left - on_shield
        events.append(
            Event.of(
                "shield",
                "R001.28",
                facing=facing,
                points=on_shield,
                total=damage[index],
                capacity=capacity,
                overflow=left - on_shield,
            )
        )
    after = ship.evolve(
        shield_damage=tuple(damage), reinforcement=reinforcements, countermeasures=counters
    )
    return Absorbed(after, shield_points, absorbed_total, overflow, tuple(events))


# --------------------------------------------------------------------------- one weapon


@dataclass(frozen=True, slots=True)
class Shot:
    """One weapon's fire up to the internals: the duel after its shield damage, events,
    what it did, and the internal hits it queued for each ship (target, and the firer's
    own photon backlash)."""

    duel: Duel
    events: tuple[Event, ...]
    hit: bool
    shield_damage: int = 0
    absorbed: int = 0
    backlash: int = 0
    specific: bool | None = None
    queues: tuple[tuple[str, Queue], ...] = ()


def shoot(ctx: FireContext, duel: Duel, cards: Mapping[str, Profile], dice: Dice) -> Shot:
    """One weapon's fire (module docstring) up to the internal hits it causes."""
    firer_card, target_card = cards[ctx.firer], cards[ctx.target]
    target = duel.ship(ctx.target)
    fired_on = tuple(dict.fromkeys(target.fired_on + ctx.facings_fired_on))
    duel = duel.with_ship(ctx.target, target.evolve(fired_on=fired_on, fired_at=True))
    events: list[Event] = [
        Event.of(
            "fire",
            ctx.weapon.spec_id,
            firer=ctx.firer,
            weapon=ctx.weapon.name,
            target=ctx.target,
            **ctx.facts(),
        )
    ]
    shot = to_hit(ctx, dice)
    events.extend(shot.events)
    if not shot.hit:
        return Shot(duel, tuple(events), False)
    who = ctx.firer
    if ctx.order.mode == SPECIFIC:
        assert ctx.order.system is not None
        die = SPECIFIC_DICE[ctx.specific_die]
        what = f"{ctx.weapon.name} specific system"
        roll = dice.roll(die, who=who, what=what)
        events.append(roll_event("R001.37", who, what, die, roll))
        result = specific_result(ctx.specific_die, roll)
        if result is None:
            again = rerolled(die, frozenset(v for v in die.values if v != roll))
            events.append(Event.of("reroll", "T001.3", roll=roll))
            roll = dice.roll(again, who=who, what=f"{what} reroll")
            events.append(roll_event("T001.3", who, f"{what} reroll", again, roll))
            result = specific_result(ctx.specific_die, roll)
        success = result == SPECIFIC_SUCCESS
        events.append(
            Event.of(
                "specific",
                "R001.37",
                system=ctx.order.system,
                roll=roll,
                result=result,
                success=success,
            )
        )
        queues = ((ctx.target, (ctx.order.system,)),) if success else ()
        return Shot(duel, tuple(events), True, specific=success, queues=queues)
    if ctx.weapon.directed:
        raw = ctx.order.power * ctx.multiplier
        events.append(
            Event.of(
                "damage",
                ctx.weapon.spec_id,
                points=ctx.order.power,
                multiplier=ctx.multiplier,
                raw=raw,
            )
        )
    else:
        die = damage_die(ctx.damage_die)
        what = f"{ctx.weapon.name} damage"
        roll = dice.roll(die, who=who, what=what)
        raw = roll * ctx.multiplier
        events.append(roll_event("A001.6", who, what, die, roll))
        events.append(
            Event.of("damage", ctx.weapon.spec_id, roll=roll, multiplier=ctx.multiplier, raw=raw)
        )
    delivered = raw
    if ctx.halved:
        delivered = halve(raw)
        events.append(Event.of("halved", "R001.22", raw=raw, delivered=delivered))
    if ctx.split_to is not None:
        first, second = split(delivered)
        portions: tuple[tuple[str, int], ...] = (
            (ctx.target_facing, first),
            (ctx.split_to, second),
        )
        events.append(
            Event.of(
                "split",
                "R001.23",
                damage=delivered,
                first=ctx.target_facing,
                first_points=first,
                second=ctx.split_to,
                second_points=second,
            )
        )
    else:
        portions = ((ctx.target_facing, delivered),)
    taken = absorb_hit(
        target_card,
        duel.ship(ctx.target),
        portions,
        bypass=ctx.bypass,
        countermeasures=ctx.countermeasures,
    )
    events.extend(taken.events)
    duel = duel.with_ship(ctx.target, taken.ship)
    queues: list[tuple[str, Queue]] = [(ctx.target, queued((), taken.overflow))]
    backlash_points = 0
    if ctx.backlash:
        backlash_points = backlash(raw)
        events.append(
            Event.of(
                "backlash", "R001.17", raw=raw, points=backlash_points, facing=ctx.true_direction
            )
        )
        firer = duel.ship(ctx.firer)
        own = absorb_hit(
            firer_card,
            firer,
            ((ctx.true_direction, backlash_points),),
            # no fire while a cloak changes, no cloak after fire (R001.29): shields are up
            bypass=None,
            countermeasures=False,
        )
        events.extend(own.events)
        duel = duel.with_ship(ctx.firer, own.ship)
        queues.append((ctx.firer, queued((), own.overflow)))
    return Shot(
        duel,
        tuple(events),
        True,
        shield_damage=taken.shield_points,
        absorbed=taken.absorbed,
        backlash=backlash_points,
        queues=tuple((key, queue) for key, queue in queues if queue),
    )


@dataclass(frozen=True, slots=True)
class FireOutcome:
    """The summary of one weapon's fire (what the odds are about): whether it hit, shield
    points added, internal boxes destroyed (in all, and of the systems with an effect:
    sensors, impulse, warp), whether it set off the catastrophic roll, points absorbed by
    reinforcement and countermeasures, the firer's photon backlash, and for a
    specific-system shot whether the system was hit."""

    hit: bool
    shield_damage: int = 0
    internals_total: int = 0
    effects: tuple[int, ...] = (0,) * len(EFFECT_CATEGORIES)
    catastrophic: bool = False
    absorbed: int = 0
    backlash: int = 0
    specific: bool | None = None

    @property
    def systems(self) -> str:
        named = [f"{c}:{n}" for c, n in zip(EFFECT_CATEGORIES, self.effects, strict=True) if n]
        other = self.internals_total - sum(self.effects)
        if other:
            named.append(f"other:{other}")
        return ", ".join(named) or "none"


def effect_losses(lost: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(lost[k] for k in _EFFECT_INDEX)


@dataclass(frozen=True, slots=True)
class Fired:
    duel: Duel
    events: tuple[Event, ...]
    outcome: FireOutcome


def fire_step(ctx: FireContext, duel: Duel, cards: Mapping[str, Profile], dice: Dice) -> Fired:
    """One weapon's fire resolved at once: `shoot`, then the internal hits it caused."""
    before = duel.ship(ctx.target)
    shot = shoot(ctx, duel, cards, dice)
    duel, events = shot.duel, list(shot.events)
    for ship_id, queue in shot.queues:
        duel, internal_events = resolve_internals(duel, cards, ship_id, queue, dice)
        events.extend(internal_events)
    after = duel.ship(ctx.target)
    lost = tuple(n - o for n, o in zip(after.destroyed, before.destroyed, strict=True))
    return Fired(
        duel,
        tuple(events),
        FireOutcome(
            shot.hit,
            shield_damage=shot.shield_damage,
            internals_total=sum(lost),
            effects=effect_losses(lost),
            catastrophic=after.catastrophic and not before.catastrophic,
            absorbed=shot.absorbed,
            backlash=shot.backlash,
            specific=shot.specific,
        ),
    )


def commit_fire(duel: Duel, firer_id: str, weapon: Weapon) -> Duel:
    """After a weapon fires: the launcher's or disruptors' turn recorded, a torpedo spent."""
    ship = duel.ship(firer_id)
    if weapon.kind == PHOTON:
        assert weapon.launcher is not None
        launchers = list(ship.launchers)
        launchers[weapon.launcher - 1] = duel.turn
        ship = ship.evolve(launchers=tuple(launchers), torpedoes=ship.torpedoes - 1)
    elif weapon.kind == DISRUPTORS:
        ship = ship.evolve(disruptors_fired=duel.turn)
    return duel.with_ship(firer_id, ship)


# --------------------------------------------------------------------------- declaring


def check_fire(
    duel: Duel,
    cards: Mapping[str, Profile],
    view: Engagement,
    firer_id: str,
    weapon_name: str,
    target_id: str,
    params: Mapping[str, Any],
    options: Mapping[str, Any],
) -> FireOrder:
    """A weapon declaration checked against the rules (UserError with the SPEC id if not)."""
    firer = duel.ship(firer_id)
    if target_id != duel.opponent(firer_id):
        raise UserError(
            f"{firer_id!r} can only fire at its opponent {duel.opponent(firer_id)!r}, "
            f"not {target_id!r} (a duel of two ships)",
            spec_id="A001.22",
        )
    target = duel.ship(target_id)
    unknown = sorted(set(params) - set(FIRE_PARAMS))
    if unknown:
        raise UserError(
            f"a fire declaration takes no {', '.join(unknown)} "
            f"(its parameters: {', '.join(FIRE_PARAMS)})"
        )
    card = cards[firer_id]
    weapon = weapon_named(card, weapon_name, firer_id)
    if not warp_ok(card, firer):
        raise UserError(
            f"{firer_id!r} has lost warp: only repair is possible until warp is repaired",
            spec_id="R001.13",
        )
    if cloaked(firer):
        raise UserError(f"{firer_id!r} is cloaked and cannot fire", spec_id="R001.29")
    if shields_down(firer):
        raise UserError(
            f"{firer_id!r} has no weapons in the turn before its cloak engages or after it drops",
            spec_id="R001.29",
        )
    moving = firer.moving(duel.turn)
    if moving:
        rule = "R001.10" if moving[0].kind == "lateral" else "R001.9"
        raise UserError(
            f"{firer_id!r} is making a {moving[0].kind} move this turn and cannot fire",
            spec_id=rule,
        )
    if view.range is None:
        raise UserError(
            f"{target_id!r} is beyond weapons range of {firer_id!r}: band {view.band} "
            f'({view.distance:.2f}"), the maximum is 3',
            spec_id="R001.21",
        )
    direction = view.facing(firer_id)
    if not cloaked(target) and direction not in weapon.arcs:
        raise UserError(
            f"{target_id!r} is off {firer_id!r}'s {direction} facing: {weapon.name} fires "
            f"through {', '.join(f for f in FACINGS if f in weapon.arcs)}",
            spec_id=weapon.arc_rule,
        )
    declared = firer.orders.fire
    if any(order.weapon == weapon.name for order in declared):
        raise UserError(
            f"{firer_id!r} has already declared its {weapon.name} this turn",
            spec_id=weapon.spec_id,
        )
    if weapon.kind == PHOTON:
        assert weapon.launcher is not None
        last = firer.launchers[weapon.launcher - 1]
        if last is not None and duel.turn < last + PHOTON_INTERVAL:
            raise UserError(
                f"{weapon.name} fired in turn {last}: it can fire again in turn "
                f"{last + PHOTON_INTERVAL} (every other turn)",
                spec_id="R001.17",
            )
        launching = sum(1 for o in declared if o.weapon.startswith("photon-"))
        if firer.torpedoes - launching < 1:
            raise UserError(f"{firer_id!r} has no photon torpedoes left", spec_id="R001.17")
    if weapon.kind == DISRUPTORS and firer.disruptors_fired is not None:
        ready = firer.disruptors_fired + DISRUPTOR_INTERVAL
        if duel.turn < ready:
            raise UserError(
                f"disruptors fired in turn {firer.disruptors_fired}: they can fire again in "
                f"turn {ready} (every third turn)",
                spec_id="R001.19",
            )
    power = params.get("power")
    if weapon.points_chosen:
        if power is None:
            power = default_phaser_power(card, firer)
        if not isinstance(power, int) or isinstance(power, bool) or power < 1:
            raise UserError(
                f"{weapon.name} fire needs a whole number of power points >= 1, not {power!r}",
                spec_id="R001.15",
            )
    elif power not in (None, 1):
        raise UserError(f"{weapon.name} costs 1 point; it takes no power", spec_id="R001.5")
    mode = params.get("mode", GENERAL)
    if mode not in (GENERAL, SPECIFIC):
        raise UserError(
            f"target selection is 'general' or 'specific', not {mode!r}", spec_id="R001.37"
        )
    system = params.get("system")
    if mode == SPECIFIC and system not in CATEGORIES:
        raise UserError(
            f"a specific-system shot names one of {', '.join(CATEGORIES)}, not {system!r}",
            spec_id="R001.37",
        )
    if mode == GENERAL and system is not None:
        raise UserError(
            "a system is named only for a specific-system shot (mode = 'specific')",
            spec_id="R001.37",
        )
    direction_given = params.get("direction")
    nominating = options["cloaked_direction"] == "declare" and cloaked(target)
    if nominating and direction_given not in FACINGS:
        raise UserError(
            f"firing at the cloaked {target_id!r}: nominate a direction, one of "
            f"{', '.join(FACINGS)} (not {direction_given!r})",
            spec_id="R001.30",
        )
    if not nominating and direction_given is not None:
        raise UserError(
            "a direction is nominated only against a cloaked ship when the option "
            "cloaked_direction is 'declare'",
            spec_id="R001.30",
        )
    return FireOrder(
        weapon.name,
        target_id,
        int(power) if weapon.points_chosen else 1,
        mode,
        system,
        direction_given,  # None unless nominating (refused above otherwise)
    )


def default_phaser_power(card: Profile, ship: Ship) -> int:
    """Phaser points when none are given: the power left this turn, or before the power roll
    the expected roll (3.5 per die, R001.2 rounding) so that odds can be asked any time."""
    if ship.power is not None:
        return max(1, ship.remaining_power)
    return (7 * card.power_dice + 1) // 2
