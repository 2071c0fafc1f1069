"""Heavy Combat fire (seed 001): one weapon's fire, its context, to-hit and damage pipeline.

One weapon's fire is `shoot(context, duel, cards, dice)`: the to-hit step (the
weapon's own roll, R001.17/R001.19; or 1d6 <= 3 with half the sensors lost,
R001.31; or the direction procedure against a cloaked ship, without sensors or
without Fire Control / Bridge, R001.30/R001.32/R001.38; or a flash-detected
prediction, R001.33), then either the
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

The pipeline is split along its seams: `weapons` (what a ship carries, and
`check_fire`, the declaration), `systems` (what damaged systems and the cloak
allow), `shields` (reinforcement, countermeasures and shields: `absorb_hit`),
`internals` (the queued internal hits). This module decides each shot
(`fire_context`), rolls to hit (`to_hit`) and fires one weapon (`shoot`,
`fire_step`, `commit_fire`).
"""

from __future__ import annotations

import operator
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from tactical.dice import D6, Dice, TooManyOutcomes, enumerate_outcomes
from tactical.rules.base import Event
from tactical.rules.heavy_combat.duel import Duel, FireOrder, Ship
from tactical.rules.heavy_combat.engagement import Engagement
from tactical.rules.heavy_combat.internals import (
    EFFECT_CATEGORIES,
    Internals,
    Queue,
    applied,
    effect_categories,
    effect_losses,
    internal_branches,
    internal_damage,
    queued,
    roll_event,
)
from tactical.rules.heavy_combat.shields import absorb_hit
from tactical.rules.heavy_combat.ships import Profile
from tactical.rules.heavy_combat.systems import (
    cloaked,
    fire_control_down,
    moves_of,
    rotating,
    rotation_phase,
    sensors_state,
    shields_down,
)
from tactical.rules.heavy_combat.tables import (
    DIRECTION_TABLE,
    DISRUPTOR_TO_HIT,
    PHOTON_TO_HIT,
    SENSORS_HALF_TO_HIT_MAX,
    SPECIFIC_DICE,
    SPECIFIC_SUCCESS,
    backlash,
    damage_die,
    halve,
    hits_at_least,
    multiplier,
    rerolled,
    specific_result,
    split,
)
from tactical.rules.heavy_combat.weapons import DISRUPTORS, PHOTON, SPECIFIC, Weapon, weapon_named

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
    failure: str = "off"  # option system_failure (A001.27): which categories stop systems
    blind: str | None = None  # why the direction procedure: R001.32 sensors, R001.38 bridge

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
    failure = str(options["system_failure"])
    blind = None
    if sensors == "lost":
        blind = "R001.32"
    elif fire_control_down(card, firer, failure):
        blind = "R001.38"  # Fire Control / Bridge down: as with the sensors lost
    if cloaked(target):
        procedure = "flash" if firer.orders.flash is not None else "direction"
    elif blind is not None:
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
        failure=failure,
        blind=blind,
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
        rule = "R001.30" if ctx.bypass == "cloaked" else (ctx.blind or "R001.32")
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
    specific-system shot whether the system was hit. `named` are the systems with an
    effect, in `effects` order (`internals.effect_categories`: with R001.38 in force the
    bridge and the weapons row count too)."""

    hit: bool
    shield_damage: int = 0
    internals_total: int = 0
    effects: tuple[int, ...] = (0,) * len(EFFECT_CATEGORIES)
    catastrophic: bool = False
    absorbed: int = 0
    backlash: int = 0
    specific: bool | None = None
    named: tuple[str, ...] = EFFECT_CATEGORIES

    @property
    def systems(self) -> str:
        return _systems_text(self.named, self.effects, self.internals_total)


@lru_cache(maxsize=4096)
def _systems_text(named: tuple[str, ...], effects: tuple[int, ...], total: int) -> str:
    """`FireOutcome.systems` (a report reads it for every outcome; few are different)."""
    found = [f"{c}:{n}" for c, n in zip(named, effects, strict=True) if n]
    other = total - sum(effects)
    if other:
        found.append(f"other:{other}")
    return ", ".join(found) or "none"


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
    effects = effect_categories(ctx.failure)
    finals = []
    for ship_id, queue in shot.queues:
        final = internal_damage(
            cards[ship_id], duel.ship(ship_id), queue, dice, who=ship_id, effects=effects
        )
        duel, internal_events = applied(duel, cards[ship_id], ship_id, final)
        events.extend(internal_events)
        finals.append((ship_id, final))
    return Fired(duel, tuple(events), fire_outcome(ctx, before, shot, tuple(finals)))


def fire_replays(ctx: FireContext, duel: Duel, cards: Mapping[str, Profile], max_nodes: int) -> int:
    """The runs an exact enumeration of `fire_step` makes (`enumerate_outcomes`: one a node
    of its tree of rolls, R001.24, R001.25), counted without making those past its shot:
    the shot's own tree is run, and under each shot every internal-hit fold is one
    branch a state it comes to, folded as `internal_damage` folds it. TooManyOutcomes as
    soon as the count passes `max_nodes`, or where a fold is refused, as the enumeration
    itself would be: a computer player asks before enumerating an attack too large to."""
    runs = 0
    effects = effect_categories(ctx.failure)

    def counted(dice: Dice) -> None:
        nonlocal runs
        runs += 1
        shot = shoot(ctx, duel, cards, dice)
        runs += _fold_runs(shot.duel, cards, shot.queues, effects, max_nodes, max_nodes - runs)

    enumerate_outcomes(counted, max_nodes=max_nodes)
    return runs


def _fold_runs(
    duel: Duel,
    cards: Mapping[str, Profile],
    queues: tuple[tuple[str, Queue], ...],
    effects: tuple[str, ...],
    max_nodes: int,
    budget: int,
) -> int:
    """The runs below a shot (`fire_replays`): each ship's queued hits in `fire_step`'s
    order, a fold branching into its final states, the next fold under each of them;
    TooManyOutcomes once they pass `budget` (what is left of `max_nodes`)."""
    if not queues:
        return 0
    (ship_id, queue), rest = queues[0], queues[1:]
    card = cards[ship_id]
    finals, rolled = internal_branches(
        card, duel.ship(ship_id), queue, who=ship_id, effects=effects, max_nodes=max_nodes
    )
    runs = len(finals) if rolled else 0
    if runs > budget:
        raise TooManyOutcomes(f"exact odds would need more than {max_nodes} replays")
    if rest:
        for final in finals:
            after = applied(duel, card, ship_id, final)[0]
            runs += _fold_runs(after, cards, rest, effects, max_nodes, budget - runs)
    return runs


def fire_outcome(
    ctx: FireContext, before: Ship, shot: Shot, finals: tuple[tuple[str, Internals], ...]
) -> FireOutcome:
    """What one weapon's fire came to (`FireOutcome`: R001.28 shields, R001.25 internals,
    R001.35 catastrophic), from its shot and the internal hits each ship took (`finals`:
    each ship's resolved `Internals`, in the shot's queue order)."""
    effects = effect_categories(ctx.failure)
    final = None
    for ship_id, internals in finals:  # the target's (the last, were it there twice)
        if ship_id == ctx.target:
            final = internals
    if final is None:
        after = shot.duel.ship(ctx.target)
        destroyed, catastrophic = after.destroyed, after.catastrophic
    else:
        destroyed, catastrophic = final.destroyed, final.catastrophic
    lost = tuple(map(operator.sub, destroyed, before.destroyed))
    return FireOutcome(
        shot.hit,
        shield_damage=shot.shield_damage,
        internals_total=sum(lost),
        effects=effect_losses(lost, effects),
        catastrophic=catastrophic and not before.catastrophic,
        absorbed=shot.absorbed,
        backlash=shot.backlash,
        specific=shot.specific,
        named=effects,
    )


def shot_key(shot: Shot) -> Hashable:
    """All of a shot that its internal hits and its `FireOutcome` read (not its events)."""
    return (
        shot.duel,
        shot.hit,
        shot.shield_damage,
        shot.absorbed,
        shot.backlash,
        shot.specific,
        shot.queues,
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
