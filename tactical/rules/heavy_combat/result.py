"""The Heavy Combat Result step (R001.3 phase 5): the turn's declarations carried out.

`resolve` fires every declared weapon with the range, facings and statuses of
the start of the step (R001.8): `fire_contexts` decides each shot, `fire_phase`
folds all the shots and then each ship's queued internal hits (its states
merged by `duel_key`, so the odds of a whole Result are exact). Then movement
(rotation steps, lateral moves, the range change, R001.9-R001.12), repair
(R001.36, A001.14), the expiry of reinforcement and countermeasures (R001.26,
R001.27), the cloak transitions (R001.29, R001.38) and the next turn. The readings
adopted for the order of all this are listed in `turn`.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, replace

from tactical.dice import Dice
from tactical.model import GameState
from tactical.rules.base import Event
from tactical.rules.heavy_combat.combat import FireContext, commit_fire, fire_context, shoot
from tactical.rules.heavy_combat.duel import Bucket, Duel, Orders, Turning, to_rule_state
from tactical.rules.heavy_combat.duel_state import Table
from tactical.rules.heavy_combat.engagement import engage_facing, present_facing, shift_range
from tactical.rules.heavy_combat.hidden import note_sightings
from tactical.rules.heavy_combat.internals import (
    EFFECT_CATEGORIES,
    Queue,
    canonical_destroyed,
    effect_categories,
    queued,
    resolve_internals,
)
from tactical.rules.heavy_combat.ships import Profile
from tactical.rules.heavy_combat.systems import (
    can_manoeuvre,
    cloak_down,
    rotation_step_turns,
    warp_ok,
)
from tactical.rules.heavy_combat.tables import (
    CATEGORIES,
    MAX_CLOAK_TURNS,
    MAX_RANGE,
    REPAIR_POINTS_PER_SYSTEM,
)


@dataclass(frozen=True, slots=True)
class Volley:
    """The Result's fire so far (the fold state of `fire_phase`): the duel, the events, and
    the internal hits queued for each ship."""

    duel: Duel
    events: tuple[Event, ...] = ()
    queues: tuple[tuple[str, Queue], ...] = ()


def fire_contexts(table: Table) -> tuple[FireContext, ...]:
    """Every declared weapon's context, from the state at the start of the Result (R001.8)."""
    contexts = []
    for key, ship in table.duel.ships:
        for order in ship.orders.fire:
            contexts.append(
                fire_context(table.duel, table.cards, table.view, key, order, table.options)
            )
    return tuple(contexts)


def _merged(
    queues: tuple[tuple[str, Queue], ...], more: tuple[tuple[str, Queue], ...], track: set[str]
) -> tuple[tuple[str, Queue], ...]:
    found = dict(queues)
    for ship_id, queue in more:
        if ship_id in track:
            for item in queue:
                found[ship_id] = queued(found.get(ship_id, ()), item)
    return tuple(sorted(found.items()))


def fire_phase(
    duel: Duel,
    contexts: tuple[FireContext, ...],
    cards: Mapping[str, Profile],
    dice: Dice,
    ships: tuple[str, ...] | None = None,
    detail: str = "systems",
    effects: tuple[str, ...] = EFFECT_CATEGORIES,
) -> Volley:
    """All declared fire (side by side, each side's declarations in order): every shot's
    to-hit, damage and shields (`combat.shoot`), then each ship's internal hits in the order
    they were caused (`internals.resolve_internals`). One fold, its states merged by
    `duel_key` and the queued hits; `ships` limits the internals resolved to those ships,
    `detail="count"` merges by boxes lost rather than by systems, `effects` names the
    systems with an effect (see `internal_damage`)."""
    track = set(duel.ids if ships is None else ships)

    def shot(ctx: FireContext):
        def step(volley: Volley, source: Dice) -> Volley:
            done = shoot(ctx, volley.duel, cards, source)
            return Volley(
                commit_fire(done.duel, ctx.firer, ctx.weapon),
                volley.events + done.events,
                _merged(volley.queues, done.queues, track),
            )

        return step

    def internals(ship_id: str):
        def step(volley: Volley, source: Dice) -> Volley:
            queue = dict(volley.queues).get(ship_id, ())
            after, events = resolve_internals(
                volley.duel, cards, ship_id, queue, source, detail, effects
            )
            rest = tuple((key, q) for key, q in volley.queues if key != ship_id)
            return Volley(after, volley.events + events, rest)

        return step

    steps = [shot(ctx) for ctx in contexts] + [internals(k) for k in duel.ids if k in track]
    return dice.fold(
        Volley(duel), steps, key=lambda v: (duel_key(cards, v.duel, detail, effects), v.queues)
    )


def duel_key(
    cards: Mapping[str, Profile],
    duel: Duel,
    detail: str = "systems",
    effects: tuple[str, ...] = EFFECT_CATEGORIES,
) -> Hashable:
    """A duel up to the chart's symmetry (`internals.canonical_destroyed`), or with only the
    number of boxes destroyed (`detail="count"`): what the Result's fold merges states by."""
    return tuple(
        (
            key,
            ship.evolve(destroyed=()),
            sum(ship.destroyed)
            if detail == "count"
            else canonical_destroyed(cards[key], ship.destroyed, effects),
        )
        for key, ship in duel.ships
    )


@dataclass(frozen=True, slots=True)
class TurnResult:
    """The summary of a Result step: per ship (shield points taken, internal boxes lost),
    and the range band after it."""

    turn: int
    damage: tuple[tuple[str, int, int], ...]
    band: int | None


def damage_summary(before: Duel, after: Duel) -> tuple[tuple[str, int, int], ...]:
    return tuple(
        (
            key,
            sum(after.ship(key).shield_damage) - sum(ship.shield_damage),
            after.ship(key).destroyed_total - ship.destroyed_total,
        )
        for key, ship in before.ships
    )


def resolve(table: Table, dice: Dice) -> tuple[GameState, tuple[Event, ...], TurnResult]:
    """R001.3 Result: all fire (R001.8: the start-of-turn range and facings), movement,
    repair, expiry, cloak, the next turn."""
    duel, turn = table.duel, table.duel.turn
    events: list[Event] = [Event.of("result", "R001.3", turn=turn, band=table.view.band)]
    effects = effect_categories(str(table.options["system_failure"]))
    volley = fire_phase(duel, fire_contexts(table), table.cards, dice, effects=effects)
    events.extend(volley.events)
    damage = damage_summary(table.duel, volley.duel)
    state, duel = _movement(table, volley.duel, events)
    duel = _repairs(duel, events)
    duel = _end_of_turn(table, duel, events)
    after = Table(state, duel) if not duel.over else None
    summary = TurnResult(turn, damage, after.view.band if after is not None else None)
    events.append(Event.of("turn", "R001.3", turn=duel.turn))
    # R001.29: a cloak engaged here hides the ship from now on, one dropped shows it again
    state = note_sightings(to_rule_state(state, duel), table.duel, duel)
    return state, tuple(events), summary


def _movement(table: Table, duel: Duel, events: list[Event]) -> tuple[GameState, Duel]:
    """Rotation steps, lateral moves, then the range change (R001.9-R001.12)."""
    state, turn, options = table.state, table.duel.turn, table.options
    start = table.duel
    for key, ship0 in start.ships:
        if ship0.turning is None or ship0.out:
            continue
        card = table.cards[key]
        if not can_manoeuvre(card, ship0):
            rule = "R001.13" if not warp_ok(card, ship0) else "R001.12"
            events.append(Event.of("rotation-paused", rule, ship=key))
            continue
        turning = ship0.turning
        elapsed = turning.elapsed + 1
        needed = rotation_step_turns(card, ship0)
        if elapsed < needed:
            turning = replace(turning, elapsed=elapsed)
            duel = duel.with_ship(key, replace(duel.ship(key), turning=turning))
            events.append(
                Event.of(
                    "rotation",
                    "R001.11",
                    ship=key,
                    toward=turning.toward,
                    turn_of_step=elapsed,
                    step_turns=needed,
                )
            )
            continue
        state, duel = present_facing(state, duel, key, turning.toward, options)
        following = (
            None
            if turning.step + 2 >= len(turning.path)
            else Turning(turning.path, turning.step + 1, 0)
        )
        duel = duel.with_ship(key, replace(duel.ship(key), turning=following))
        events.append(
            Event.of("facing", "R001.11", ship=key, facing=turning.toward, done=following is None)
        )
    shifts: dict[str, int] = {}
    for key, ship0 in start.ships:
        for move in ship0.manoeuvres:
            if move.completes != turn:
                continue
            if move.kind == "lateral":
                assert move.engage is not None
                state, duel = engage_facing(state, duel, key, move.engage, options)
                events.append(
                    Event.of(
                        "lateral",
                        "R001.10",
                        ship=key,
                        engaged=move.engage,
                        enemy=duel.opponent(key),
                    )
                )
            else:
                shifts[key] = shifts.get(key, 0) + (-1 if move.kind == "close" else 1)
    if shifts:
        band = table.view.band
        net = sum(shifts.values())
        if net > 0 and band + net > MAX_RANGE and options["allow_disengage"]:
            for key, shift in shifts.items():
                if shift > 0:
                    duel = duel.with_ship(key, replace(duel.ship(key), out="disengaged"))
                    events.append(Event.of("disengage", "A001.18", ship=key, band=band))
        else:
            new_band = min(max(band + net, 1), max(MAX_RANGE, band))
            state, duel = shift_range(state, duel, shifts, new_band - band, options)
            events.append(
                Event.of(
                    "range",
                    "R001.9",
                    before=band,
                    declared=net,
                    after=new_band,
                    clamped=new_band != band + net,
                )
            )
    for key, ship in duel.ships:
        remaining = tuple(m for m in ship.manoeuvres if m.completes > turn)
        duel = duel.with_ship(key, replace(ship, manoeuvres=remaining))
    return state, duel


def _repairs(duel: Duel, events: list[Event]) -> Duel:
    """R001.36 / A001.14: repair points accumulate per system; 3 restore one box."""
    for key, ship in duel.ships:
        if not ship.orders.repair:
            continue
        points = list(ship.repair_points)
        destroyed = list(ship.destroyed)
        for system, given in ship.orders.repair:
            k = CATEGORIES.index(system)
            points[k] += given
            while points[k] >= REPAIR_POINTS_PER_SYSTEM and destroyed[k] > 0:
                points[k] -= REPAIR_POINTS_PER_SYSTEM
                destroyed[k] -= 1
                events.append(
                    Event.of("repaired", "R001.36", ship=key, system=system, destroyed=destroyed[k])
                )
            if destroyed[k] == 0:
                points[k] = 0
            events.append(
                Event.of("repair-points", "A001.14", ship=key, system=system, points=points[k])
            )
        duel = duel.with_ship(
            key, replace(ship, repair_points=tuple(points), destroyed=tuple(destroyed))
        )
    return duel


def _expiry(
    ship_id: str, buckets: tuple[Bucket, ...], kept: tuple[Bucket, ...], what: str, spec_id: str
) -> list[Event]:
    """Each bucket of reinforcement (R001.26, named with its facing) or countermeasures
    (R001.27) carried into the next turn or expired."""
    return [
        Event.of(
            f"{what}-carried" if bucket in kept else f"{what}-expired",
            spec_id,
            ship=ship_id,
            **({"facing": bucket.facing} if what == "reinforcement" else {}),
            points=bucket.points,
        )
        for bucket in buckets
    ]


def _end_of_turn(table: Table, duel: Duel, events: list[Event]) -> Duel:
    """Expiry of reinforcement and countermeasures (R001.26, R001.27), cloak (R001.29; a
    cloak whose chart row is down drops, R001.38), power and declarations cleared, the
    next turn."""
    turn = duel.turn
    failure = str(table.options["system_failure"])
    ships = []
    for key, ship in duel.ships:
        kept = tuple(
            b for b in ship.reinforcement if b.turn == turn and b.facing not in ship.fired_on
        )
        events.extend(_expiry(key, ship.reinforcement, kept, "reinforcement", "R001.26"))
        counters = tuple(b for b in ship.countermeasures if b.turn == turn and not ship.fired_at)
        events.extend(_expiry(key, ship.countermeasures, counters, "countermeasures", "R001.27"))
        state = ship.cloak
        used = ship.cloak_turns
        failed = cloak_down(table.cards[key], ship, failure)
        rule = "R001.29"
        if state == "engaging":
            # R001.38: a cloak whose row is lost before it engages never engages
            state, rule = ("off", "R001.38") if failed else ("on", rule)
        elif state == "on":
            used += 1
            if ship.orders.cloak == "decloak" or used >= MAX_CLOAK_TURNS:
                state = "disengaging"
            elif failed:
                state, rule = "disengaging", "R001.38"
        elif state == "disengaging":
            state = "off"
        if state != ship.cloak:
            events.append(Event.of("cloak", rule, ship=key, state=state, turns_used=used))
        ships.append(
            (
                key,
                replace(
                    ship,
                    power=None,
                    spent=0,
                    reinforcement=kept,
                    countermeasures=counters,
                    cloak=state,
                    cloak_turns=used,
                    fired_on=(),
                    fired_at=False,
                    orders=Orders(),
                ),
            )
        )
    return replace(duel, turn=turn + 1, ships=tuple(ships))
