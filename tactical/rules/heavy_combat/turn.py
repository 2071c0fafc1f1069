"""The Heavy Combat turn (R001.3): power, declarations, and the one Result step.

Phases, each side simultaneously (R001.3):

1. Roll power (R001.4) — `roll_power`: the ship's power dice; a cloaked ship
   pays its cloak's upkeep here (R001.29);
2. Reaction movement (R001.9-R001.12, R001.29) — `rotate` (free, R001.5),
   `close` / `retreat` (1), `lateral` (2), `cloak` (1) / `decloak`;
3. Countermeasures / reinforce (R001.26, R001.27, R001.36) — `reinforce`,
   `countermeasures` (2 power per point, R001.6), `repair` (R001.36);
4. Target selection / fire (R001.37, R001.33) — `fire` (one declaration per
   weapon, general location or specific system), `flash_detect` (10);
5. Result (R001.3) — `resolve`: all fire with the range, facings and
   statuses of the start of the step (R001.8), then movement, repair, the
   expiry of reinforcement and countermeasures (R001.26, R001.27), cloak
   transitions, and the next turn.

The declaration phases alternate (one declaration a go until both sides pass)
so a side can declare several things; every declaration is checked against
the power left (R001.4) and the rules, and costs its power at once.
Declarations roll no dice; `roll_power` and `resolve` do. `resolve` is offered
to whichever side acts first in the Result phase (and, should a session move
on without it, before anything else in a later turn).

Readings adopted where the SPEC leaves the mechanics open (documented so the
tests can pin them):

- a rotation, once begun, goes on each turn until it is complete; it pauses
  while the ship cannot manoeuvre (R001.12, R001.13); a new one can be declared
  only when none is under way; opposite facings pass through a declared `via`
  facing (dorsal or ventral first, the roll of X001.1);
- a lateral move engages the enemy's current facing or one next to it: at the
  Result (after rotations) the enemy presents that facing to the mover;
- close, retreat and lateral moves may not be combined with fire in either
  order of declaration; with half impulse they hold the ship for two turns;
- the Result resolves every shot (to-hit, damage, shields) in declaration
  order, side by side, then each ship's internal hits in the order they were
  caused, then movement, then repair (3 repair points restore one destroyed box
  of the system they were given to; repair points are power points);
- a ship whose internals are all destroyed is a wreck, and one that retreats
  beyond range 3 where the scenario allows it has disengaged: the duel is over.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from tactical.dice import D6, Dice
from tactical.errors import UserError
from tactical.model import FrozenMap, GameState
from tactical.rules.base import (
    Action,
    ActionChoice,
    Event,
    Field,
    Phase,
    Resolution,
    TurnPosition,
    TurnSequence,
)
from tactical.rules.heavy_combat.combat import (
    MOVES,
    FireContext,
    Queue,
    can_manoeuvre,
    canonical_destroyed,
    check_fire,
    cloaked,
    commit_fire,
    fire_context,
    fire_cost,
    impulse_state,
    manoeuvre_turns,
    queued,
    resolve_internals,
    roll_event,
    rotation_step_turns,
    shields_down,
    shoot,
    warp_ok,
    weapon_named,
    weapons_of,
)
from tactical.rules.heavy_combat.duel import (
    Bucket,
    Duel,
    Manoeuvre,
    Orders,
    Ship,
    Turning,
    from_rule_state,
    stored,
    to_rule_state,
)
from tactical.rules.heavy_combat.engagement import (
    engage_facing,
    engagement,
    present_facing,
    shift_range,
    table_mode,
)
from tactical.rules.heavy_combat.ships import Profile, profile, settings
from tactical.rules.heavy_combat.tables import (
    CATEGORIES,
    COSTS,
    FACINGS,
    LATERAL_INTERVAL,
    MAX_CLOAK_TURNS,
    MAX_RANGE,
    REPAIR_LIMIT,
    REPAIR_LIMIT_WARP_LOST,
    REPAIR_POINTS_PER_SYSTEM,
    adjacent,
    between,
    converted_points,
    facing_steps,
)

POWER, MOVEMENT, DEFENCE, FIRE, RESULT = (
    "Roll power",
    "Reaction movement",
    "Countermeasures / reinforce",
    "Target selection / fire",
    "Result",
)
TURN_SEQUENCE = TurnSequence(
    (
        Phase(POWER, "R001.4"),
        Phase(MOVEMENT, "R001.3", alternating=True),
        Phase(DEFENCE, "R001.3", alternating=True),
        Phase(FIRE, "R001.37", alternating=True),
        Phase(RESULT, "R001.3"),
    )
)

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


# --------------------------------------------------------------------------- setup


def setup(state: GameState) -> GameState:
    """The duel's rule state at the start of play (A001.22: two ships on two sides)."""
    options = settings(state.options)
    sides = state.sides
    if len(state.units) != 2 or len(sides) != 2:
        raise UserError(
            f"a Heavy Combat duel is two ships on two sides; this map has {len(state.units)} "
            f"unit(s) on {len(sides)} side(s)",
            spec_id="A001.22",
        )
    ordered = sorted(state.units, key=lambda u: sides.index(u.side))
    ships = []
    for unit in ordered:
        card = profile(unit)
        ships.append(
            (
                unit.id,
                Ship(
                    elevation=card.elevation,
                    launchers=(None,) * card.photon_launchers,
                    torpedoes=card.torpedoes,
                ),
            )
        )
    duel = Duel(1, tuple(ships))
    if not table_mode(options):
        # categorical play starts from the table's facings and band unless the map says
        table_view = engagement(state, duel, settings({**options, "geometry": "table"}))
        start = options.get("start_range") or min(table_view.band, MAX_RANGE)
        duel = Duel(
            1,
            tuple((key, replace(ship, facing=table_view.facing(key))) for key, ship in duel.ships),
            int(start),
        )
    return to_rule_state(state, duel)


def current(state: GameState) -> tuple[GameState, Duel]:
    """The state with its duel (set up now if play has not started) and the duel."""
    if not stored(state):
        state = setup(state)
    return state, from_rule_state(state)


def cards_of(state: GameState, duel: Duel) -> dict[str, Profile]:
    return {key: profile(state.unit(key)) for key in duel.ids}


def ship_of_side(state: GameState, duel: Duel, side: str) -> str | None:
    for key in duel.ids:
        if state.unit(key).side == side:
            return key
    return None


# --------------------------------------------------------------------------- declarations


@dataclass(frozen=True)
class Declared:
    """What a declaration handler returns: the new duel and its events."""

    duel: Duel
    events: tuple[Event, ...]
    summary: Hashable


class Table:
    """One state's fixed facts for the handlers: options, ship sheets, the engagement."""

    def __init__(self, state: GameState, duel: Duel) -> None:
        self.state = state
        self.duel = duel
        self.options = settings(state.options)
        self.cards = cards_of(state, duel)
        self.view = engagement(state, duel, self.options)


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
    cloak engages from the next turn; at most 10 cloaked turns per engagement."""
    ship = acting_ship(table, ship_id)
    if not table.cards[ship_id].cloak:
        raise UserError(f"{ship_id!r} has no cloaking device", spec_id="R001.29")
    _warp(table, ship_id, ship, "cloak")
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


# --------------------------------------------------------------------------- result


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
) -> Volley:
    """All declared fire (side by side, each side's declarations in order): every shot's
    to-hit, damage and shields (`combat.shoot`), then each ship's internal hits in the order
    they were caused (`combat.resolve_internals`). One fold, its states merged by
    `duel_key` and the queued hits; `ships` limits the internals resolved to those ships,
    `detail="count"` merges by boxes lost rather than by systems (see `internal_damage`)."""
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
            after, events = resolve_internals(volley.duel, cards, ship_id, queue, source, detail)
            rest = tuple((key, q) for key, q in volley.queues if key != ship_id)
            return Volley(after, volley.events + events, rest)

        return step

    steps = [shot(ctx) for ctx in contexts] + [internals(k) for k in duel.ids if k in track]
    return dice.fold(Volley(duel), steps, key=lambda v: (duel_key(cards, v.duel, detail), v.queues))


def duel_key(cards: Mapping[str, Profile], duel: Duel, detail: str = "systems") -> Hashable:
    """A duel up to the chart's symmetry (`combat.canonical_destroyed`), or with only the
    number of boxes destroyed (`detail="count"`): what the Result's fold merges states by."""
    return tuple(
        (
            key,
            ship.evolve(destroyed=()),
            sum(ship.destroyed)
            if detail == "count"
            else canonical_destroyed(cards[key], ship.destroyed),
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
    volley = fire_phase(duel, fire_contexts(table), table.cards, dice)
    events.extend(volley.events)
    damage = damage_summary(table.duel, volley.duel)
    state, duel = _movement(table, volley.duel, events)
    duel = _repairs(duel, events)
    duel = _end_of_turn(table, duel, events)
    after = Table(state, duel) if not duel.over else None
    summary = TurnResult(turn, damage, after.view.band if after is not None else None)
    events.append(Event.of("turn", "R001.3", turn=duel.turn))
    return to_rule_state(state, duel), tuple(events), summary


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


def _end_of_turn(table: Table, duel: Duel, events: list[Event]) -> Duel:
    """Expiry of reinforcement and countermeasures (R001.26, R001.27), cloak (R001.29),
    power and declarations cleared, the next turn."""
    turn = duel.turn
    ships = []
    for key, ship in duel.ships:
        kept = tuple(
            b for b in ship.reinforcement if b.turn == turn and b.facing not in ship.fired_on
        )
        for bucket in ship.reinforcement:
            carried = bucket in kept
            events.append(
                Event.of(
                    "reinforcement-carried" if carried else "reinforcement-expired",
                    "R001.26",
                    ship=key,
                    facing=bucket.facing,
                    points=bucket.points,
                )
            )
        counters = tuple(b for b in ship.countermeasures if b.turn == turn and not ship.fired_at)
        for bucket in ship.countermeasures:
            carried = bucket in counters
            events.append(
                Event.of(
                    "countermeasures-carried" if carried else "countermeasures-expired",
                    "R001.27",
                    ship=key,
                    points=bucket.points,
                )
            )
        state = ship.cloak
        used = ship.cloak_turns
        if state == "engaging":
            state = "on"
        elif state == "on":
            used += 1
            if ship.orders.cloak == "decloak" or used >= MAX_CLOAK_TURNS:
                state = "disengaging"
        elif state == "disengaging":
            state = "off"
        if state != ship.cloak:
            events.append(Event.of("cloak", "R001.29", ship=key, state=state, turns_used=used))
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


# --------------------------------------------------------------------------- protocol


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


def apply(state: GameState, action: Action, dice: Dice) -> Resolution:
    """Resolve any declared action (the RuleSystem.apply hook)."""
    state, duel = current(state)
    table = Table(state, duel)
    if action.kind == "resolve":
        action_params(action)
        if duel.over:
            raise UserError("the duel is over", spec_id="R001.34")
        new_state, events, summary = resolve(table, dice)
        return Resolution(new_state, events, summary)
    declared = declare(table, action, dice)
    return Resolution(to_rule_state(state, declared.duel), declared.events, declared.summary)


def _legal(table: Table, action: Action) -> bool:
    try:
        declare(table, action, _NoDice())
    except UserError:
        return False
    return True


class _NoDice:
    """Dice for the legality dry run of `actions`: declarations never roll."""

    def roll(self, die, *, who: str = "", what: str = "") -> int:
        return die.values[0]

    def fold(self, initial, steps, key=None):
        state = initial
        for step in steps:
            state = step(state, self)
        return state

    def chance(self, fn, key=None):
        return fn(self)


def actions(state: GameState, position: TurnPosition, side: str) -> tuple[ActionChoice, ...]:
    """The declarations `side` may make at `position` (RuleSystem.actions)."""
    state, duel = current(state)
    if duel.over:
        return ()
    resolve_choice = ActionChoice(
        "resolve", side, f"Result: resolve turn {duel.turn}", (), "R001.3"
    )
    if position.turn > duel.turn:
        return (resolve_choice,)  # the Result of an earlier turn is still to be applied
    if position.turn < duel.turn:
        return ()
    phase = TURN_SEQUENCE.phases[position.phase].name
    if phase == RESULT:
        return (resolve_choice,)
    ship_id = ship_of_side(state, duel, side)
    if ship_id is None or duel.ship(ship_id).out:
        return ()
    table = Table(state, duel)
    candidates = _candidates(table, ship_id, phase)
    return tuple(choice for choice, action in candidates if _legal(table, action))


def refusals(
    state: GameState, position: TurnPosition, side: str
) -> tuple[tuple[ActionChoice, UserError], ...]:
    """The declarations of the phase `actions` leaves out, each with the rules' refusal."""
    state, duel = current(state)
    if duel.over or position.turn != duel.turn:
        return ()
    phase = TURN_SEQUENCE.phases[position.phase].name
    ship_id = ship_of_side(state, duel, side)
    if phase == RESULT or ship_id is None or duel.ship(ship_id).out:
        return ()
    table = Table(state, duel)
    found = []
    for choice, action in _candidates(table, ship_id, phase):
        try:
            declare(table, action, _NoDice())
        except UserError as error:
            found.append((choice, error))
    return tuple(found)


def _fixed(name: str, value: Any, doc: str = "") -> Field:
    kind = "int" if isinstance(value, int) else "str"
    choices = (value,) if isinstance(value, str) else None
    return Field(name, kind, required=True, default=value, choices=choices, doc=doc)


def _candidates(table: Table, ship_id: str, phase: str) -> list[tuple[ActionChoice, Action]]:
    """Each possible declaration of the phase with its default parameters."""
    duel, ship = table.duel, table.duel.ship(ship_id)
    card = table.cards[ship_id]
    name = table.state.unit(ship_id).name
    found: list[tuple[ActionChoice, Action]] = []

    def offer(kind: str, title: str, spec_id: str, fields: tuple[Field, ...] = ()) -> None:
        defaults = {f.name: f.default for f in fields if f.default is not None}
        found.append(
            (
                ActionChoice(kind, ship_id, f"{name}: {title}", fields, spec_id),
                Action(kind, ship_id, FrozenMap(defaults)),
            )
        )

    left = ship.remaining_power
    if phase == POWER:
        offer("roll_power", f"roll power ({card.power_dice}d6)", "R001.4")
    elif phase == MOVEMENT:
        start = table.view.facing(ship_id)
        for to in FACINGS:
            if to == start:
                continue
            for via in between(start, to) or (None,):
                title = f"rotate {start} to {to}" + (f" via {via}" if via else "")
                fields = (_fixed("to", to),) + ((_fixed("via", via),) if via else ())
                offer("rotate", title, "R001.11", fields)
        offer("close", "close one range band (1 point)", "R001.9")
        offer("retreat", "retreat one range band (1 point)", "R001.9")
        enemy_facing = table.view.facing(duel.opponent(ship_id))
        engage = lateral_choices(enemy_facing)
        offer(
            "lateral",
            "lateral move (2 points)",
            "R001.10",
            (
                Field(
                    "engage",
                    "str",
                    required=True,
                    default=enemy_facing,
                    choices=engage,
                    doc="the enemy facing to engage",
                ),
            ),
        )
        offer("cloak", "engage cloak (1 point)", "R001.29")
        offer("decloak", "drop cloak", "R001.29")
    elif phase == DEFENCE:
        power_field = Field(
            "power",
            "int",
            required=True,
            default=2,
            low=2,
            high=max(2, left),
            doc="power spent: 2 per point (R001.6)",
        )
        offer(
            "reinforce",
            "reinforce a shield (2 power per point)",
            "R001.26",
            (
                Field(
                    "facing",
                    "str",
                    required=True,
                    default=table.view.facing(ship_id),
                    choices=FACINGS,
                ),
                power_field,
            ),
        )
        offer("countermeasures", "countermeasures (2 power per point)", "R001.27", (power_field,))
        damaged = tuple(c for c in CATEGORIES if ship.destroyed_in(c) > 0)
        if damaged:
            offer(
                "repair",
                "repair a system (1 power per point)",
                "R001.36",
                (
                    Field("system", "str", required=True, default=damaged[0], choices=damaged),
                    Field("power", "int", required=True, default=1, low=1, high=REPAIR_LIMIT),
                ),
            )
    elif phase == FIRE:
        enemy_id = duel.opponent(ship_id)
        enemy = duel.ship(enemy_id)
        for weapon in weapons_of(card):
            fields: list[Field] = [
                _fixed("weapon", weapon.name),
                _fixed("target", enemy_id),
            ]
            if weapon.points_chosen:
                fields.append(
                    Field(
                        "power",
                        "int",
                        required=True,
                        default=max(1, left),
                        low=1,
                        high=max(1, left),
                        doc="phaser points p: damage p x M(r)",
                    )
                )
            fields.append(
                Field(
                    "mode",
                    "str",
                    default="general",
                    choices=("general", "specific"),
                    doc="general location or a specific system (R001.37)",
                )
            )
            fields.append(
                Field("system", "str", choices=CATEGORIES, doc="the system a specific shot aims at")
            )
            if cloaked(enemy) and table.options["cloaked_direction"] == "declare":
                fields.append(
                    Field(
                        "direction",
                        "str",
                        required=True,
                        default=FACINGS[0],
                        choices=FACINGS,
                        doc="direction fired (R001.30)",
                    )
                )
            offer("fire", f"fire {weapon.name}", weapon.spec_id, tuple(fields))
        offer(
            "flash_detect",
            "flash-detect the cloaked enemy (10 points)",
            "R001.33",
            (Field("predicted", "str", required=True, default="none", choices=MOVES),),
        )
    return found
