"""What Heavy Combat tracks beyond the ship sheets (SPEC §2.0 "Ship state"), as values.

`Duel` is the system's `GameState.rule_state`: the turn number, each ship's
`Ship` record (power, shields, internals, rotation, cooldowns, cloak, this
turn's declarations) and, in categorical geometry, the range band. Stored in
the state as plain values (`to_rule_state` / `from_rule_state`) so a save is
plain data; used in the resolvers as frozen dataclasses.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, is_dataclass
from functools import lru_cache
from typing import Any

from tactical.errors import UserError
from tactical.model import FrozenMap, GameState
from tactical.model.frozen import remembered
from tactical.rules.heavy_combat.tables import CATEGORIES, FACINGS

SYSTEM_KEY = "heavy_combat"  # the rule_state key everything below lives under


@dataclass(frozen=True, slots=True)
class Turning:
    """GEO001.3: a rotation in progress along `path` (adjacent facings, start first);
    `step` indexes the current step path[step] -> path[step + 1], `elapsed` counts the
    turns of that step already completed."""

    path: tuple[str, ...]
    step: int = 0
    elapsed: int = 0

    @property
    def origin(self) -> str:
        return self.path[self.step]

    @property
    def toward(self) -> str:
        return self.path[self.step + 1]

    @property
    def final(self) -> str:
        return self.path[-1]


@dataclass(frozen=True, slots=True)
class Bucket:
    """Reinforcement (on `facing`) or countermeasure points (facing None) declared in `turn`."""

    points: int
    turn: int
    facing: str | None = None


@dataclass(frozen=True, slots=True)
class Manoeuvre:
    """A declared close / retreat / lateral move (R001.9, R001.10): declared in `declared`,
    takes effect in the Result of `completes` (one turn later with half impulse, R001.12)."""

    kind: str
    declared: int
    completes: int
    engage: str | None = None  # lateral: the facing of the opponent to engage


@dataclass(frozen=True, slots=True)
class FireOrder:
    """One weapon declared at the opponent (R001.37: general location or a specific system)."""

    weapon: str
    target: str
    power: int
    mode: str = "general"
    system: str | None = None
    direction: str | None = None


@dataclass(frozen=True, slots=True)
class Orders:
    """This turn's declarations that are resolved in the Result step."""

    cloak: str | None = None  # "cloak" or "decloak"
    repair: tuple[tuple[str, int], ...] = ()
    fire: tuple[FireOrder, ...] = ()
    flash: str | None = None  # R001.33: the predicted move of the cloaked opponent


@dataclass(frozen=True)
class Ship:
    """One ship's state in the duel (SPEC §2.0)."""

    power: int | None = None
    spent: int = 0
    elevation: str = "level"  # table geometry: the declared elevation (GEO001.7)
    facing: str | None = None  # categorical geometry: the facing presented to the enemy
    shield_damage: tuple[int, ...] = (0,) * len(FACINGS)
    reinforcement: tuple[Bucket, ...] = ()
    countermeasures: tuple[Bucket, ...] = ()
    destroyed: tuple[int, ...] = (0,) * len(CATEGORIES)
    repair_points: tuple[int, ...] = (0,) * len(CATEGORIES)
    catastrophic: bool = False
    turning: Turning | None = None
    manoeuvres: tuple[Manoeuvre, ...] = ()
    last_lateral: int | None = None
    launchers: tuple[int | None, ...] = ()
    disruptors_fired: int | None = None
    torpedoes: int = 0
    cloak: str = "off"  # off | engaging | on | disengaging (R001.29)
    cloak_turns: int = 0
    out: str | None = None  # wreck | disengaged
    fired_on: tuple[str, ...] = ()  # facings fired on this turn (R001.26)
    fired_at: bool = False  # fired at this turn at all (R001.27)
    orders: Orders = Orders()

    def evolve(self, **changes: Any) -> Ship:
        """A copy with some fields changed: `dataclasses.replace` without its per-call field
        introspection (the resolvers make many of these while odds are enumerated)."""
        unknown = changes.keys() - _SHIP_FIELDS
        if unknown:
            raise TypeError(f"Ship has no field(s) {sorted(unknown)}")
        copy = object.__new__(Ship)
        copy.__dict__.update(self.__dict__)
        copy.__dict__.update(changes)
        # where it came from, so that its plain form is its origin's with the changes
        # (`_plain_fields`: a resolver stores the duel after every roll)
        if len(_EVOLVED) >= EVOLVED_SIZE:
            _EVOLVED.clear()
        _EVOLVED[id(copy)] = (copy, self, changes)
        return copy

    def damage_on(self, facing: str) -> int:
        return self.shield_damage[FACINGS.index(facing)]

    def destroyed_in(self, category: str) -> int:
        return self.destroyed[CATEGORIES.index(category)]

    @property
    def destroyed_total(self) -> int:
        return sum(self.destroyed)

    @property
    def remaining_power(self) -> int:
        return (self.power or 0) - self.spent

    def reinforcement_on(self, facing: str) -> int:
        return sum(b.points for b in self.reinforcement if b.facing == facing)

    @property
    def countermeasure_points(self) -> int:
        return sum(b.points for b in self.countermeasures)

    def moving(self, turn: int) -> tuple[Manoeuvre, ...]:
        """The close / retreat / lateral moves under way in `turn` (no fire, R001.9/R001.10)."""
        return tuple(m for m in self.manoeuvres if m.declared <= turn <= m.completes)

    def lateral_in(self, turn: int) -> bool:
        return any(m.kind == "lateral" for m in self.moving(turn))


_SHIP_FIELDS = frozenset(f.name for f in fields(Ship))


@dataclass(frozen=True)
class Duel:
    """The whole rule state: turn number, ships in side order, categorical range."""

    turn: int
    ships: tuple[tuple[str, Ship], ...]
    range: int | None = None  # categorical geometry only (GEO001.1)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(ship_id for ship_id, _ in self.ships)

    def ship(self, ship_id: str) -> Ship:
        for key, ship in self.ships:
            if key == ship_id:
                return ship
        raise UserError(f"unit {ship_id!r} is not one of the duelling ships {self.ids}")

    def opponent(self, ship_id: str) -> str:
        self.ship(ship_id)
        return next(key for key in self.ids if key != ship_id)

    def with_ship(self, ship_id: str, ship: Ship) -> Duel:
        ships = tuple((key, ship if key == ship_id else old) for key, old in self.ships)
        return Duel(self.turn, ships, self.range)

    @property
    def over(self) -> bool:
        return any(ship.out for _, ship in self.ships)


# --------------------------------------------------------------------------- plain values


def plain(value: Any) -> Any:
    """A dataclass tree as plain mappings and tuples (for rule_state and saves)."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is tuple and all(type(v) in _SCALARS for v in value):
        return value  # plain already (a ship's counts): kept, not copied
    names = _field_names(kind)
    if names is not None:
        # by identity: a ship after a roll keeps most of its parts, and their plain forms
        return remembered(_PLAIN, value, _plain_fields, MEMO_SIZE)
    if isinstance(value, tuple | list):
        return tuple(plain(v) for v in value)
    return value


_SCALARS = frozenset({int, str, float, bool, type(None)})


def _plain_fields(value: Any) -> FrozenMap:
    evolved = _EVOLVED.get(id(value))
    if evolved is not None and evolved[0] is value:
        # a ship made by `Ship.evolve`: its origin's plain form with the changed fields
        # (the same keys in the same order, equal values). An origin evolved too and not
        # stored yet is passed over, its changes taken in: a roll evolves a ship several
        # times, and only the last one is stored
        _, origin, changes = evolved
        while True:
            known = _PLAIN.get(id(origin))
            if known is not None and known[0] is origin:
                break
            earlier = _EVOLVED.get(id(origin))
            if earlier is None or earlier[0] is not origin:
                break
            changes = {**earlier[2], **changes}
            origin = earlier[1]
        return plain(origin).updated({name: plain(v) for name, v in changes.items()})
    names = _field_names(type(value))
    assert names is not None
    return FrozenMap({name: plain(getattr(value, name)) for name in names})


@lru_cache(maxsize=64)
def _field_names(kind: type) -> tuple[str, ...] | None:
    """The field names of a dataclass type, None for any other type."""
    if not is_dataclass(kind):
        return None
    return tuple(f.name for f in fields(kind))


def _ints(values: Any) -> tuple[int, ...]:
    return tuple(int(v) for v in values)


def _turning(value: Mapping[str, Any] | None) -> Turning | None:
    if value is None:
        return None
    return Turning(tuple(value["path"]), int(value["step"]), int(value["elapsed"]))


def _orders(value: Mapping[str, Any]) -> Orders:
    return Orders(
        cloak=value["cloak"],
        repair=tuple((str(c), int(p)) for c, p in value["repair"]),
        fire=tuple(FireOrder(**dict(order)) for order in value["fire"]),
        flash=value["flash"],
    )


def ship_from_plain(value: Mapping[str, Any]) -> Ship:
    return Ship(
        power=value["power"],
        spent=int(value["spent"]),
        elevation=str(value["elevation"]),
        facing=value["facing"],
        shield_damage=_ints(value["shield_damage"]),
        reinforcement=tuple(Bucket(**dict(b)) for b in value["reinforcement"]),
        countermeasures=tuple(Bucket(**dict(b)) for b in value["countermeasures"]),
        destroyed=_ints(value["destroyed"]),
        repair_points=_ints(value["repair_points"]),
        catastrophic=bool(value["catastrophic"]),
        turning=_turning(value["turning"]),
        manoeuvres=tuple(Manoeuvre(**dict(m)) for m in value["manoeuvres"]),
        last_lateral=value["last_lateral"],
        launchers=tuple(value["launchers"]),
        disruptors_fired=value["disruptors_fired"],
        torpedoes=int(value["torpedoes"]),
        cloak=str(value["cloak"]),
        cloak_turns=int(value["cloak_turns"]),
        out=value["out"],
        fired_on=tuple(value["fired_on"]),
        fired_at=bool(value["fired_at"]),
        orders=_orders(value["orders"]),
    )


# Plain forms of ships and ships of plain forms, by identity (each kept beside its key, so
# an id is not reused while remembered): a resolver stores the duel after every roll and
# reads it back, and exact odds replay it thousands of times with most ships unchanged
_PLAIN: dict[int, tuple[Any, Any]] = {}
_PARSED: dict[int, tuple[Any, Any]] = {}
# ships made by `Ship.evolve`, by identity: (the ship, the ship it came from, the changes);
# a few: a ship's plain form is asked for when its roll is stored, right after it is made
_EVOLVED: dict[int, tuple[Ship, Ship, dict[str, Any]]] = {}
EVOLVED_SIZE = 512
MEMO_SIZE = 16384


def to_rule_state(state: GameState, duel: Duel) -> GameState:
    """The state with the duel stored in its rule_state (plain values only). The duel and
    its ships are remembered as what their plain forms read back as (`from_rule_state`
    gives an equal duel: every field round-trips), so that reading the state straight
    back (every unit's condition after every roll the computer players enumerate) does
    not parse it again."""
    ships = []
    for key, ship in duel.ships:
        form = plain(ship)
        _known(form, ship)
        ships.append(FrozenMap(id=key, ship=form))
    value = FrozenMap(turn=duel.turn, range=duel.range, ships=tuple(ships))
    _known(value, duel)
    return state.with_rule_state(**{SYSTEM_KEY: value})


def _known(form: FrozenMap, parsed: Any) -> None:
    """Remember `parsed` as what `form` reads back as (`remembered`'s memo, by identity)."""
    if len(_PARSED) >= MEMO_SIZE:
        _PARSED.clear()
    _PARSED[id(form)] = (form, parsed)


def stored(state: GameState) -> bool:
    return SYSTEM_KEY in state.rule_state


def _duel_from_plain(value: Mapping[str, Any]) -> Duel:
    return Duel(
        turn=int(value["turn"]),
        ships=tuple(
            (str(s["id"]), remembered(_PARSED, s["ship"], ship_from_plain, MEMO_SIZE))
            for s in value["ships"]
        ),
        range=value["range"],
    )


def from_rule_state(state: GameState) -> Duel:
    """The duel stored in a state's rule_state (see `to_rule_state`)."""
    try:
        value = state.rule_state[SYSTEM_KEY]
        return remembered(_PARSED, value, _duel_from_plain, MEMO_SIZE)
    except (KeyError, TypeError, ValueError) as error:
        raise UserError(
            f"the saved heavy-combat rule state is damaged ({error!r}): start the game again"
        ) from None
