"""Heavy Combat declarations (R001.3 phases 1-4): checked, paid for, recorded.

`declare` hands one declared action (`PARAMS` names each kind's parameters) to
its handler: `roll_power` (R001.4, a cloak's upkeep R001.29); the reaction
movement `rotate`, `range_move` (close / retreat), `lateral`, `cloak`,
`decloak` (R001.9-R001.12, R001.29); `reinforce`, `countermeasures`, `repair`
(R001.26, R001.27, R001.36); `fire`, `flash_detect` (R001.37, R001.33). Every
declaration is checked against the power left (R001.4) and the rules, costs
its power at once, and is carried out in the Result step (`result`); none
rolls dice but the power roll. The readings adopted for rotation, lateral moves
and moving instead of firing are listed in `turn`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from tactical.dice import D6, Dice
from tactical.errors import UserError
from tactical.rules.base import Action, Event
from tactical.rules.heavy_combat.duel import Bucket, Duel, Manoeuvre, Ship, Turning
from tactical.rules.heavy_combat.duel_state import Table
from tactical.rules.heavy_combat.internals import roll_event
from tactical.rules.heavy_combat.systems import (
    MOVES,
    cloak_down,
    cloaked,
    down_words,
    impulse_state,
    manoeuvre_turns,
    rotation_step_turns,
    shields_down,
    warp_ok,
)
from tactical.rules.heavy_combat.tables import (
    CATEGORIES,
    COSTS,
    FACINGS,
    LATERAL_INTERVAL,
    MAX_CLOAK_TURNS,
    MAX_RANGE,
    REPAIR_LIMIT,
    REPAIR_LIMIT_WARP_LOST,
    WEAPONS,
    adjacent,
    between,
    converted_points,
    facing_steps,
)
from tactical.rules.heavy_combat.weapons import check_fire, fire_cost, weapon_named

PARAMS: Mapping[str, tuple[str, ...]] = {
    "roll_power": (),
    "rotate": ("to", "via"),
    "close": (),
    "retreat": (),
    "lateral": ("engage",),
    "cloak": (),
    "decloak": (),
    "reinforce": ("facing", "power"),
    "countermeasures": ("power",),
    "repair": ("system", "power"),
    "fire": ("weapon", "target", "power", "mode", "system", "direction"),
    "flash_detect": ("predicted",),
    "resolve": (),
}


@dataclass(frozen=True)
class Declared:
    """What a declaration handler returns: the new duel and its events."""

    duel: Duel
    events: tuple[Event, ...]
    summary: Hashable


def acting_ship(table: Table, ship_id: str) -> Ship:
    """The duelling ship `ship_id`, while the duel is on (UserError otherwise)."""
    duel = table.duel
    if ship_id not in duel.ids:
        raise UserError(
            f"{ship_id!r} is not a duelling ship: the ships are {', '.join(duel.ids)}",
            spec_id="A001.22",
        )
    if duel.over:
        out = next(f"{key} ({ship.out})" for key, ship in duel.ships if ship.out)
        raise UserError(f"the duel is over: {out}", spec_id="R001.34")
    return duel.ship(ship_id)


def _int(value: Any, name: str, low: int, spec_id: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise UserError(f"{name} must be a whole number >= {low}, not {value!r}", spec_id=spec_id)
    return value


def _pay(ship: Ship, ship_id: str, cost: int, what: str) -> Ship:
    """R001.4: the cost must fit the power rolled this turn; it is spent at once."""
    if cost == 0:
        return ship
    if ship.power is None:
        raise UserError(f"{ship_id!r} must roll power before it can {what}", spec_id="R001.4")
    if cost > ship.remaining_power:
        raise UserError(
            f"{ship_id!r} cannot {what}: it costs {cost} and {ship.remaining_power} of its "
            f"{ship.power} power is left",
            spec_id="R001.4",
        )
    return replace(ship, spent=ship.spent + cost)


def _warp(table: Table, ship_id: str, ship: Ship, what: str) -> None:
    if not warp_ok(table.cards[ship_id], ship):
        raise UserError(
            f"{ship_id!r} has lost warp and cannot {what}: only repair (1 point a turn) until "
            "warp is repaired",
            spec_id="R001.13",
        )


def _manoeuvrable(table: Table, ship_id: str, ship: Ship, what: str) -> None:
    _warp(table, ship_id, ship, what)
    if impulse_state(table.cards[ship_id], ship) == "lost":
        raise UserError(f"{ship_id!r} has lost impulse and cannot {what}", spec_id="R001.12")


def _cost_event(ship_id: str, action: str, cost: int, ship: Ship, spec_id: str) -> Event:
    return Event.of(
        "declare",
        spec_id,
        ship=ship_id,
        action=action,
        cost=cost,
        spent=ship.spent,
        power=ship.power,
    )


def roll_power(table: Table, ship_id: str, dice: Dice) -> Declared:
    """R001.4: power = the total of the ship's power dice (A001.1); R001.29 cloak upkeep."""
    ship = acting_ship(table, ship_id)
    if ship.power is not None:
        raise UserError(
            f"{ship_id!r} has rolled its power for turn {table.duel.turn}", spec_id="R001.4"
        )
    card = table.cards[ship_id]
    rolled = power_roll(card.power_dice, dice, ship_id)
    events = [*rolled.events, Event.of("power", "R001.4", ship=ship_id, total=rolled.total)]
    ship = replace(ship, power=rolled.total, spent=0)
    if cloaked(ship):
        if warp_ok(card, ship):
            ship = replace(ship, spent=COSTS["cloak"])
            events.append(_cost_event(ship_id, "maintain cloak", COSTS["cloak"], ship, "R001.29"))
        else:
            ship = replace(ship, cloak="disengaging")
            events.append(Event.of("cloak", "R001.13", ship=ship_id, state="disengaging"))
    return Declared(table.duel.with_ship(ship_id, ship), tuple(events), rolled.total)


@dataclass(frozen=True, slots=True)
class PowerRoll:
    total: int
    events: tuple[Event, ...] = ()


def power_roll(count: int, dice: Dice, who: str = "") -> PowerRoll:
    """The power dice (R001.4), a fold whose states merge by their total."""

    def one(rolled: PowerRoll, source: Dice) -> PowerRoll:
        value = source.roll(D6, who=who, what="power")
        return PowerRoll(
            rolled.total + value,
            (*rolled.events, roll_event("R001.4", who, "power", D6, value)),
        )

    return dice.fold(PowerRoll(0), [one] * count, key=lambda rolled: rolled.total)


def rotate(table: Table, ship_id: str, to: Any, via: Any = None) -> Declared:
    """R001.11: begin rotating to another facing, 2 turns per 90° step (4 with half impulse,
    R001.12); free (R001.5). Opposite facings go through `via` (default: dorsal/ventral)."""
    ship = acting_ship(table, ship_id)
    _manoeuvrable(table, ship_id, ship, "rotate")
    if ship.turning is not None:
        raise UserError(
            f"{ship_id!r} is already rotating toward {ship.turning.final}", spec_id="R001.11"
        )
    start = table.view.facing(ship_id)
    if to not in FACINGS or to == start:
        others = ", ".join(f for f in FACINGS if f != start)
        raise UserError(
            f"{ship_id!r} presents {start}: rotate to one of {others}, not {to!r}",
            spec_id="R001.11",
        )
    if facing_steps(start, to) == 1:
        if via is not None:
            raise UserError(
                f"{start} to {to} is one step: there is no facing to pass through",
                spec_id="R001.11",
            )
        path: tuple[str, ...] = (start, to)
    else:
        middle = between(start, to)
        via = middle[0] if via is None else via
        if via not in middle:
            raise UserError(
                f"from {start} to {to} a rotation passes through one of {', '.join(middle)}, "
                f"not {via!r}",
                spec_id="R001.11",
            )
        path = (start, via, to)
    turns = (len(path) - 1) * rotation_step_turns(table.cards[ship_id], ship)
    ship = replace(ship, turning=Turning(path))
    event = Event.of("rotate", "R001.11", ship=ship_id, path=path, turns=turns, cost=0)
    return Declared(table.duel.with_ship(ship_id, ship), (event,), ("rotate", path))


def range_move(table: Table, ship_id: str, kind: str) -> Declared:
    """R001.9: close or retreat one band for 1 point; no fire that turn; clamped 1-3
    (A001.18). With half impulse it takes effect at the end of the next turn (R001.12)."""
    ship = acting_ship(table, ship_id)
    _manoeuvrable(table, ship_id, ship, kind)
    _no_fire_declared(ship, ship_id, kind, "R001.9")
    if any(m.kind in ("close", "retreat") for m in ship.moving(table.duel.turn)):
        raise UserError(f"{ship_id!r} is already closing or retreating", spec_id="R001.9")
    band = table.view.band
    if kind == "close" and band <= 1:
        raise UserError(f"{ship_id!r} is at range 1 and cannot close further", spec_id="A001.18")
    if kind == "retreat" and band >= MAX_RANGE and not table.options["allow_disengage"]:
        raise UserError(
            f"{ship_id!r} is at range {band}: retreating beyond 3 is not allowed in this "
            "scenario (option allow_disengage)",
            spec_id="A001.18",
        )
    return _manoeuvre(table, ship_id, ship, kind, None, "R001.9")


def lateral(table: Table, ship_id: str, engage: Any) -> Declared:
    """R001.10: 2 points to keep (or regain) a chosen facing of the enemy: the enemy then
    presents `engage` (its current facing or one next to it); no fire; once per 2 turns."""
    ship = acting_ship(table, ship_id)
    _manoeuvrable(table, ship_id, ship, "move laterally")
    _no_fire_declared(ship, ship_id, "lateral", "R001.10")
    turn = table.duel.turn
    if ship.last_lateral is not None and turn < ship.last_lateral + LATERAL_INTERVAL:
        raise UserError(
            f"{ship_id!r} moved laterally in turn {ship.last_lateral}: next in turn "
            f"{ship.last_lateral + LATERAL_INTERVAL}",
            spec_id="R001.10",
        )
    enemy_facing = table.view.facing(table.duel.opponent(ship_id))
    allowed = lateral_choices(enemy_facing)
    if engage not in allowed:
        raise UserError(
            f"the enemy presents {enemy_facing}: a lateral move engages one of "
            f"{', '.join(allowed)}, not {engage!r}",
            spec_id="R001.10",
        )
    declared = _manoeuvre(table, ship_id, ship, "lateral", engage, "R001.10")
    moved = replace(declared.duel.ship(ship_id), last_lateral=turn)
    return replace(declared, duel=declared.duel.with_ship(ship_id, moved))


def lateral_choices(enemy_facing: str) -> tuple[str, ...]:
    return tuple(f for f in FACINGS if f == enemy_facing or adjacent(f, enemy_facing))


def _no_fire_declared(ship: Ship, ship_id: str, what: str, spec_id: str) -> None:
    if ship.orders.fire:
        raise UserError(
            f"{ship_id!r} has declared fire this turn: a ship that moves cannot fire",
            spec_id=spec_id,
        )


def _manoeuvre(
    table: Table, ship_id: str, ship: Ship, kind: str, engage: str | None, spec_id: str
) -> Declared:
    turn = table.duel.turn
    cost = COSTS[kind]
    ship = _pay(ship, ship_id, cost, kind)
    completes = turn + manoeuvre_turns(table.cards[ship_id], ship) - 1
    ship = replace(ship, manoeuvres=(*ship.manoeuvres, Manoeuvre(kind, turn, completes, engage)))
    events = (
        _cost_event(ship_id, kind, cost, ship, spec_id),
        Event.of(kind, spec_id, ship=ship_id, completes=completes, engage=engage),
    )
    return Declared(table.duel.with_ship(ship_id, ship), events, (kind, engage))


def cloak(table: Table, ship_id: str) -> Declared:
    """R001.29: 1 point to initiate; this turn the ship has no shields and no weapons; the
    cloak engages from the next turn; at most 10 cloaked turns per engagement. Not with
    the Klingon chart's Armor / Cloak / Disruptors / Photons row down (R001.38)."""
    ship = acting_ship(table, ship_id)
    if not table.cards[ship_id].cloak:
        raise UserError(f"{ship_id!r} has no cloaking device", spec_id="R001.29")
    _warp(table, ship_id, ship, "cloak")
    failure = str(table.options["system_failure"])
    if cloak_down(table.cards[ship_id], ship, failure):
        raise UserError(
            f"{ship_id!r} cannot engage its cloak: "
            f"{down_words(table.cards[ship_id], WEAPONS, failure)}",
            spec_id="R001.38",
        )
    if ship.cloak != "off":
        raise UserError(f"{ship_id!r}'s cloak is {ship.cloak}", spec_id="R001.29")
    if ship.cloak_turns >= MAX_CLOAK_TURNS:
        raise UserError(
            f"{ship_id!r} has been cloaked {ship.cloak_turns} turns: the limit is "
            f"{MAX_CLOAK_TURNS} per engagement",
            spec_id="R001.29",
        )
    _no_fire_declared(ship, ship_id, "cloak", "R001.29")
    ship = _pay(ship, ship_id, COSTS["cloak"], "cloak")
    ship = replace(ship, cloak="engaging", orders=replace(ship.orders, cloak="cloak"))
    events = (
        _cost_event(ship_id, "cloak", COSTS["cloak"], ship, "R001.29"),
        Event.of("cloak", "R001.29", ship=ship_id, state="engaging"),
    )
    return Declared(table.duel.with_ship(ship_id, ship), events, "cloak")


def decloak(table: Table, ship_id: str) -> Declared:
    """R001.29: drop the cloak at the end of this turn; the next turn has no shields and
    no weapons (A001.11)."""
    ship = acting_ship(table, ship_id)
    if not cloaked(ship):
        raise UserError(f"{ship_id!r} is not cloaked", spec_id="R001.29")
    if ship.orders.cloak == "decloak":
        raise UserError(f"{ship_id!r} has already declared its decloak", spec_id="R001.29")
    ship = replace(ship, orders=replace(ship.orders, cloak="decloak"))
    event = Event.of("decloak", "R001.29", ship=ship_id)
    return Declared(table.duel.with_ship(ship_id, ship), (event,), "decloak")


def reinforce(table: Table, ship_id: str, facing: Any, power: Any) -> Declared:
    """R001.26: 2 power per reinforcement point on one facing (R001.6), this turn; carried
    one more turn if that facing is not fired on."""
    ship = acting_ship(table, ship_id)
    _warp(table, ship_id, ship, "reinforce shields")
    if shields_down(ship) or cloaked(ship):
        raise UserError(
            f"{ship_id!r} has no shields to reinforce while its cloak is {ship.cloak}",
            spec_id="R001.29",
        )
    if facing not in FACINGS:
        raise UserError(f"reinforce one of {', '.join(FACINGS)}, not {facing!r}", spec_id="R001.26")
    power = _int(power, "reinforcement power", COSTS["reinforce"], "R001.6")
    points, wasted = converted_points(power)
    ship = _pay(ship, ship_id, power, "reinforce")
    ship = replace(ship, reinforcement=_added(ship.reinforcement, points, table.duel.turn, facing))
    events = (
        _cost_event(ship_id, "reinforce", power, ship, "R001.5"),
        Event.of("convert", "R001.6", power=power, points=points, wasted=wasted),
        Event.of("reinforce", "R001.26", ship=ship_id, facing=facing, points=points),
    )
    return Declared(table.duel.with_ship(ship_id, ship), events, ("reinforce", facing, points))


def _added(
    buckets: tuple[Bucket, ...], points: int, turn: int, facing: str | None = None
) -> tuple[Bucket, ...]:
    """Points declared this turn join this turn's bucket for the same facing (one expiry)."""
    if points == 0:
        return buckets
    for k, bucket in enumerate(buckets):
        if bucket.turn == turn and bucket.facing == facing:
            merged = replace(bucket, points=bucket.points + points)
            return (*buckets[:k], merged, *buckets[k + 1 :])
    return (*buckets, Bucket(points, turn, facing))


def countermeasures(table: Table, ship_id: str, power: Any) -> Declared:
    """R001.27: 2 power per countermeasure point (R001.6); usable in the turn before a cloak
    engages; carried one more turn if the ship is not fired on."""
    ship = acting_ship(table, ship_id)
    _warp(table, ship_id, ship, "use countermeasures")
    power = _int(power, "countermeasure power", COSTS["countermeasures"], "R001.6")
    points, wasted = converted_points(power)
    ship = _pay(ship, ship_id, power, "use countermeasures")
    ship = replace(ship, countermeasures=_added(ship.countermeasures, points, table.duel.turn))
    events = (
        _cost_event(ship_id, "countermeasures", power, ship, "R001.5"),
        Event.of("convert", "R001.6", power=power, points=points, wasted=wasted),
        Event.of("countermeasures", "R001.27", ship=ship_id, points=points),
    )
    return Declared(table.duel.with_ship(ship_id, ship), events, ("countermeasures", points))


def repair(table: Table, ship_id: str, system: Any, power: Any) -> Declared:
    """R001.36: up to 2 repair points a turn (1 with warp lost, R001.13), each on a damaged
    system; 3 points restore one of its destroyed boxes (A001.14)."""
    ship = acting_ship(table, ship_id)
    damaged = tuple(c for c in CATEGORIES if ship.destroyed_in(c) > 0)
    if system not in damaged:
        offer = ", ".join(damaged) or "none"
        raise UserError(
            f"repair goes to a damaged system ({offer}), not {system!r}", spec_id="R001.36"
        )
    power = _int(power, "repair points", 1, "R001.36")
    card = table.cards[ship_id]
    limit = REPAIR_LIMIT if warp_ok(card, ship) else REPAIR_LIMIT_WARP_LOST
    already = sum(p for _, p in ship.orders.repair)
    if already + power > limit:
        rule = "R001.36" if limit == REPAIR_LIMIT else "R001.13"
        raise UserError(
            f"{ship_id!r} may repair {limit} point(s) a turn; {already} already declared",
            spec_id=rule,
        )
    ship = _pay(ship, ship_id, power * COSTS["repair"], "repair")
    ship = replace(ship, orders=replace(ship.orders, repair=(*ship.orders.repair, (system, power))))
    events = (
        _cost_event(ship_id, "repair", power, ship, "R001.36"),
        Event.of("repair", "R001.36", ship=ship_id, system=system, points=power),
    )
    return Declared(table.duel.with_ship(ship_id, ship), events, ("repair", system, power))


def fire(table: Table, ship_id: str, params: Mapping[str, Any]) -> Declared:
    """R001.37: declare one weapon at the enemy (general location or a specific system),
    paying its cost (T001.1); resolved in the Result step."""
    acting_ship(table, ship_id)
    given = dict(params)
    weapon_name = given.pop("weapon", None)
    target = given.pop("target", table.duel.opponent(ship_id))
    order = check_fire(
        table.duel,
        table.cards,
        table.view,
        ship_id,
        str(weapon_name),
        str(target),
        given,
        table.options,
    )
    ship = table.duel.ship(ship_id)
    weapon = weapon_named(table.cards[ship_id], order.weapon, ship_id)
    cost = fire_cost(weapon, order.power)
    ship = _pay(ship, ship_id, cost, f"fire {weapon.name}")
    ship = replace(ship, orders=replace(ship.orders, fire=(*ship.orders.fire, order)))
    events = (
        _cost_event(ship_id, f"fire {weapon.name}", cost, ship, "R001.5"),
        Event.of(
            "target",
            "R001.37",
            ship=ship_id,
            weapon=order.weapon,
            target=order.target,
            mode=order.mode,
            system=order.system,
            power=order.power,
            direction=order.direction,
        ),
    )
    return Declared(table.duel.with_ship(ship_id, ship), events, ("fire", order.weapon))


def flash_detect(table: Table, ship_id: str, predicted: Any) -> Declared:
    """R001.33: 10 points to sensors flash-detect the cloaked enemy this turn; fire at it
    hits when the predicted move is the move it makes."""
    ship = acting_ship(table, ship_id)
    _warp(table, ship_id, ship, "flash-detect")
    enemy = table.duel.ship(table.duel.opponent(ship_id))
    if not cloaked(enemy):
        raise UserError("the enemy is not cloaked: there is nothing to detect", spec_id="R001.33")
    if ship.orders.flash is not None:
        raise UserError(f"{ship_id!r} has already flash-detected this turn", spec_id="R001.33")
    if predicted not in MOVES:
        raise UserError(
            f"predict the cloaked ship's move: one of {', '.join(MOVES)}, not {predicted!r}",
            spec_id="R001.33",
        )
    ship = _pay(ship, ship_id, COSTS["flash_detect"], "flash-detect")
    ship = replace(ship, orders=replace(ship.orders, flash=predicted))
    events = (
        _cost_event(ship_id, "flash detection", COSTS["flash_detect"], ship, "R001.33"),
        Event.of("flash-detect", "R001.33", ship=ship_id, predicted=predicted),
    )
    return Declared(table.duel.with_ship(ship_id, ship), events, ("flash_detect", predicted))


# --------------------------------------------------------------------------- dispatch


def action_params(action: Action) -> dict[str, Any]:
    """An action's parameters, checked against its kind (UserError naming what is allowed)."""
    allowed = PARAMS.get(action.kind)
    if allowed is None:
        raise UserError(
            f"rule system 'heavy-combat' has no action {action.kind!r}: its actions are "
            + ", ".join(PARAMS)
        )
    given = dict(action.params)
    unknown = sorted(set(given) - set(allowed))
    if unknown:
        raise UserError(
            f"{action.kind} takes no {', '.join(unknown)} "
            f"(its parameters: {', '.join(allowed) or 'none'})"
        )
    return given


def declare(table: Table, action: Action, dice: Dice | None) -> Declared:
    """Dispatch one declared action (no dice for anything but roll_power)."""
    given = action_params(action)
    actor = action.actor
    kind = action.kind
    if kind == "roll_power":
        if dice is None:
            raise UserError("rolling power needs dice")
        return roll_power(table, actor, dice)
    handlers: dict[str, Callable[[], Declared]] = {
        "rotate": lambda: rotate(table, actor, given.get("to"), given.get("via")),
        "close": lambda: range_move(table, actor, "close"),
        "retreat": lambda: range_move(table, actor, "retreat"),
        "lateral": lambda: lateral(table, actor, given.get("engage")),
        "cloak": lambda: cloak(table, actor),
        "decloak": lambda: decloak(table, actor),
        "reinforce": lambda: reinforce(table, actor, given.get("facing"), given.get("power")),
        "countermeasures": lambda: countermeasures(table, actor, given.get("power")),
        "repair": lambda: repair(table, actor, given.get("system"), given.get("power")),
        "fire": lambda: fire(table, actor, given),
        "flash_detect": lambda: flash_detect(table, actor, given.get("predicted")),
    }
    return handlers[kind]()
