"""Stat cards: a unit's stats read into typed values, with the booklet's amendments (R002.44).

A unit's `stats` are the map's (validated by the schema); `card(unit)` gives
its weapons, generators, Model Assigned Rules, ratings and squadron. Squadrons
are keyed by side and name (`"A:cruisers"`) so both fleets may use the same
names; a unit without a `squadron` stat is a squadron of its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tactical.geometry.arcs_spec import TURRET_270, ArcSpec
from tactical.model import GameState, MovementClass, SizeClass, Unit
from tactical.model.frozen import remembered
from tactical.rules.dystopian_wars.declaration import ARCS_BY_NAME
from tactical.rules.dystopian_wars.movement import generators as _movement_generators
from tactical.rules.dystopian_wars.movement import height_level
from tactical.rules.dystopian_wars.schema import band_dice
from tactical.rules.dystopian_wars.tables import AUXILIARY, WEAPON_CLASS
from tactical.rules.status import words

# External default ratings by size class (base game, G.5): (Hull Points, DR, CR).
DEFAULT_RATINGS: dict[SizeClass, tuple[int, int, int]] = {
    SizeClass.TINY: (1, 1, 2),
    SizeClass.SMALL: (2, 3, 5),
    SizeClass.MEDIUM: (4, 5, 8),
    SizeClass.LARGE: (8, 7, 11),
    SizeClass.MASSIVE: (12, 9, 14),
}

# R002.44: Kingdom of Britannia models with an integrated Guardian Generator.
GUARDIAN_CLASSES = ("ruler class battleship", "sovereign class land ship", "eagle class war rotor")
BRITANNIA = "kingdom of britannia"
PRUSSIA = "prussian empire"
BLAZING_SUN = "empire of the blazing sun"
FSA = "federated states of america"


@dataclass(frozen=True, slots=True)
class Weapon:
    """One weapon of a stat card: AD by Range Band 1-4 (0: cannot fire in that band)."""

    name: str
    kind: str
    arc_name: str
    attack_dice: tuple[int, int, int, int]
    tesla_coils: bool
    rocket_battery: bool

    @property
    def weapon_class(self) -> str:
        """R002.36: ordnance, auxiliary or mines."""
        return WEAPON_CLASS[self.kind]

    @property
    def auxiliary(self) -> bool:
        return self.kind in AUXILIARY

    @property
    def arc(self) -> ArcSpec:
        """The arc it fires in; an FSA Rocket Battery is a Turret (R002.15)."""
        return TURRET_270 if self.rocket_battery else ARCS_BY_NAME[self.arc_name]

    def dice_at(self, band: str | None) -> int:
        """AD in a Range Band ("RB1".."RB4"); 0 beyond RB4."""
        if band is None:
            return 0
        return self.attack_dice[int(band[2:]) - 1]

    @property
    def permission_row(self) -> str:
        """Its row of T002.6."""
        if self.tesla_coils:
            return "tesla-coils"
        if self.auxiliary:
            return "auxiliary"
        return self.kind


def parse_attack_dice(text: str) -> tuple[int, int, int, int]:
    """'8-6-4-2' -> (8, 6, 4, 2); missing bands or '-' are 0 (cannot fire there)."""
    parts = str(text).split("-") if text else []
    values = []
    for part in parts[:4]:
        values.append(band_dice(part) or 0)  # a band the stats check refuses never reaches here
    while len(values) < 4:
        values.append(0)
    return (values[0], values[1], values[2], values[3])


@dataclass(frozen=True)
class Card:
    """A unit's stat card as the rules read it."""

    unit_id: str
    side: str
    squadron: str
    points: int
    size: SizeClass
    movement: MovementClass
    height: str
    faction: str
    model_class: str
    weapons: tuple[Weapon, ...]
    generators: frozenset[str]
    mars: frozenset[str]
    shield_generators: int
    hull_points: int
    damage_rating: int
    critical_rating: int
    fleet_commodore: bool
    commander: bool
    escort_of: str
    carrier_capacity: int
    tiny_flyers_aboard: int
    wing_type: str | None
    fuel: int | None
    assault_points: int
    ram_dice: int

    @property
    def is_tiny_flyer(self) -> bool:
        return self.wing_type is not None

    @property
    def is_carrier(self) -> bool:
        return self.carrier_capacity > 0

    @property
    def airborne(self) -> bool:
        return self.height in ("flying", "obscured")

    @property
    def force(self) -> str:
        """The Core Force a model belongs to (R002.4), from its movement class."""
        return {
            MovementClass.NAVAL: "naval",
            MovementClass.ARMOURED: "armoured",
            MovementClass.AERIAL: "aerial",
        }.get(self.movement, "naval")

    def weapon(self, name: str) -> Weapon | None:
        for weapon in self.weapons:
            if weapon.name == name:
                return weapon
        return None


def squadron_key(unit: Unit) -> str:
    """The squadron a unit belongs to, namespaced by side."""
    name = str(unit.stats.get("squadron", "") or unit.id)
    return f"{unit.side}:{name}"


def card(unit: Unit) -> Card:
    """The unit's stat card (cached per unit value, and first by the unit itself: hashing a
    unit's value costs more than the card's other uses, and a resolver asks for the same
    unit's card many times per roll)."""
    return remembered(_BY_UNIT, unit, _card_of, MAX_CARDS)


_BY_UNIT: dict[int, tuple[Unit, Card]] = {}
MAX_CARDS = 4096


def _card_of(unit: Unit) -> Card:
    """`_card` by the values it reads: not the unit's pose nor its base, so a model that
    moved (a new unit) keeps its card."""
    key = (unit.id, unit.name, unit.side, unit.movement, unit.size, unit.stats)
    found = _BY_VALUE.get(key)
    if found is None:
        if len(_BY_VALUE) >= MAX_CARDS:
            _BY_VALUE.clear()
        found = _BY_VALUE[key] = _card(unit)
    return found


_BY_VALUE: dict[tuple[Any, ...], Card] = {}


def _card(unit: Unit) -> Card:
    """The card worked out (R002.44's amendments made); it reads the unit's id, name, side,
    movement class, size class and stats only."""
    stats = unit.stats
    hull, damage, critical = DEFAULT_RATINGS[unit.size]
    faction = str(stats.get("faction", "")).strip()
    model_class = str(stats.get("model_class", "") or unit.name).strip()
    weapons = tuple(_weapon(w) for w in stats.get("weapons", ()))
    generators = frozenset(_movement_generators(unit))
    mars = frozenset(m.strip().lower() for m in str(stats.get("mars", "")).split(",") if m.strip())
    generators, mars = amended(unit, faction, model_class, weapons, generators, mars)
    shields = int(bool(stats.get("shield_generator", False))) + int("guardian" in generators)
    wing_type = stats.get("wing_type")
    fuel = stats.get("fuel")
    return Card(
        unit_id=unit.id,
        side=unit.side,
        squadron=squadron_key(unit),
        points=int(stats.get("points", 0)),
        size=unit.size,
        movement=unit.movement,
        height=height_level(unit),
        faction=faction,
        model_class=model_class,
        weapons=weapons,
        generators=generators,
        mars=mars,
        shield_generators=shields,
        hull_points=int(stats.get("hull_points", hull)),
        damage_rating=int(stats.get("damage_rating", damage)),
        critical_rating=int(stats.get("critical_rating", critical)),
        fleet_commodore=bool(stats.get("fleet_commodore", False)),
        commander=bool(stats.get("commander", False)),
        escort_of=str(stats.get("escort_of", "")),
        carrier_capacity=int(stats.get("carrier_capacity", 0)),
        tiny_flyers_aboard=int(stats.get("tiny_flyers_aboard", 0)),
        wing_type=str(wing_type) if wing_type else None,
        fuel=int(fuel) if fuel is not None else None,
        assault_points=int(stats.get("assault_points", 0)),
        ram_dice=int(stats.get("ram_dice", 0)),
    )


def _weapon(table: Mapping[str, Any]) -> Weapon:
    name = str(table["name"])
    kind = str(table["kind"])
    tesla = table.get("tesla_coils")
    if tesla is None:
        tesla = kind == "gunnery" and "tesla" in name.lower()
    return Weapon(
        name=name,
        kind=kind,
        arc_name=str(table.get("arc", "fore")),
        attack_dice=parse_attack_dice(str(table.get("attack_dice", ""))),
        tesla_coils=bool(tesla),
        rocket_battery=bool(table.get("rocket_battery", False)),
    )


def amended(
    unit: Unit,
    faction: str,
    model_class: str,
    weapons: tuple[Weapon, ...],
    generators: frozenset[str],
    mars: frozenset[str],
) -> tuple[frozenset[str], frozenset[str]]:
    """R002.44: the booklet's stat-card amendments.

    Prussian Empire models with Tesla Coils have Redoubtable (Tesla Coils); Empire of
    the Blazing Sun Naval models have Sharp Turn; the Kingdom of Britannia Ruler Class
    Battleship, Sovereign Class Land Ship and Eagle Class War Rotor have an integrated
    Guardian Generator at no points difference (a model of those classes with no
    faction given is taken to be Britannia's).
    """
    faction_key = faction.lower()
    if faction_key == PRUSSIA and any(w.tesla_coils for w in weapons):
        mars = mars | {"redoubtable (tesla coils)"}
    if faction_key == BLAZING_SUN and unit.movement is MovementClass.NAVAL:
        mars = mars | {"sharp turn"}
    if faction_key in (BRITANNIA, "") and model_class.lower() in GUARDIAN_CLASSES:
        generators = generators | {"guardian"}
    return generators, mars


def squadrons(state: GameState, side: str | None = None) -> dict[str, tuple[Unit, ...]]:
    """Squadron key -> its units on the table, in map order (optionally one side's)."""
    grouped = _grouped_of(state.units)
    if side is None:
        return dict(grouped)
    # a key is namespaced by its units' side: a side's keys, in the order they first appear
    return {key: units for key, units in grouped.items() if units[0].side == side}


def squadron_units(state: GameState, key: str) -> tuple[Unit, ...]:
    return _grouped_of(state.units).get(key, ())


def _grouped_of(units: tuple[Unit, ...]) -> dict[str, tuple[Unit, ...]]:
    """The table's squadrons (R002.28: key -> units, map order), remembered by the units'
    tuple itself: every step asks for its squadrons many times, and a move makes a new one."""
    return remembered(_SQUADRONS, units, _grouped, MAX_TABLES)


def _grouped(units: tuple[Unit, ...]) -> dict[str, tuple[Unit, ...]]:
    found: dict[str, list[Unit]] = {}
    for unit in units:
        found.setdefault(squadron_key(unit), []).append(unit)
    return {key: tuple(members) for key, members in found.items()}


def table_sides(state: GameState) -> tuple[str, ...]:
    """`state.sides` (in order of first appearance, R002.28), remembered by the units' tuple
    itself: every action and every listing asks whether its actor or side is one."""
    return remembered(_SIDES, state.units, _sides, MAX_TABLES)


def _sides(units: tuple[Unit, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(unit.side for unit in units))


_SIDES: dict[int, tuple[tuple[Unit, ...], tuple[str, ...]]] = {}

# the squadrons of a table's units by the tuple's identity (kept beside it: read-only,
# `squadrons` and `squadron_units` hand out copies or tuples)
_SQUADRONS: dict[int, tuple[tuple[Unit, ...], dict[str, tuple[Unit, ...]]]] = {}
MAX_TABLES = 256


def commanding_model(units: tuple[Unit, ...]) -> Unit:
    """A002.2: the squadron's commanding model: the one flagged `commander`, else the
    Fleet Commodore's vessel, else the first in map order."""
    for flag in ("commander", "fleet_commodore"):
        for unit in units:
            if unit.stats.get(flag):
                return unit
    return units[0]


def squadron_words(state: GameState, key: str) -> str:
    """A squadron's key ("A:battle-line", "A:avenger-wing-1") as a player reads it: its name
    as words, a Wing by its carrier's name ("battle line", "Avenger Class Carrier wing 1"),
    never the side's letter or a unit's id."""
    name = key.split(":", 1)[-1]
    names = state.shown_names
    # the carrier: the longest model id the name starts with before a "-", found among the
    # name's own prefixes (a few) rather than every model's id (asked at every step)
    cut = name.rfind("-")
    while cut >= 0:
        carrier = name[:cut]
        if carrier in names:
            return f"{names[carrier]} {words(name[cut + 1 :])}"
        cut = name.rfind("-", 0, cut)
    return words(name)
