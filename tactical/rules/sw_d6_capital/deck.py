"""The Command Deck (SPEC §5.0, Appendix B — missing from the source, A004.32) as unit stats.

`[unit.stats]` keys (every key is optional; the defaults make a small capital ship):

- `scale`: starfighter | frigate | capital — the scale class (starfighters and
  freighters use the fighter rules of R004.52-R004.57); `scale_dice` overrides
  the class's Scale die code (starfighter 6D, frigate 10D, capital 12D).
- `space` (movement units per turn), `speed` (the speed declared for this turn,
  T004.14: stationary | cautious | cruising | high | all-out).
- `hull`, `shields`, `maneuverability`: die codes.
- `cso`: Capital Ship Operation die code (R004.6; a fighter's piloting skill, R004.52).
- `initiative`: the Initiative die code, or `tactics` + `sensors` (captain's Tactics,
  crew Sensors) from which it is derived (R004.7). Without any: 2D.
- `initiative_bonus`: the Initiative Bonus Tracker at the start (R004.12).
- `command`: the captain's Command die code; `command_difficulty` (a house rule, e.g.
  *Nowhere*'s 12) or `crew` (crew size including gunners, T004.18).
- `shields_skill`: a fighter's Shields skill for re-angling (R004.24).
- `astromech`: an astromech's repair die code (R004.53).
- `unit_size`: single | element | section | flight | squadron (T004.16); a fighter
  unit larger than single tracks Unit Strength (R004.55).
- `mothership`, `squadrons_carried`, `uncommitted_squadrons`: Recovery (R004.57).
- `pc_crew`: a PC-manned ship (Catastrophic Damage instead of Destroyed, R004.49).
- `force_points`: Force Points the captain may spend on a Masterstroke (R004.13).
- `damage` (none | light | heavy | severe), `ionization` (dice): the ship's condition
  when the scenario starts.
- `shield_arcs`: `{front, right, rear, left}` die codes — the starting allocation of
  the shields (R004.24); by default spread evenly, front first.
- `weapons`: one table per weapon type per fire arc (R004.26): `name`, `arc`,
  `fire_control` (Gunnery Fire Control), `damage`, `battery` (Battery Dice), `ranges`
  ("pb-short/medium/long" in Space units, GEO004.2), `ion` (an ion weapon, R004.43),
  `damage_limit` (the Battery Dice Damage Allocation Limitation, A004.38), `count`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from tactical.dice import DieCode
from tactical.dice.d6codes import MAX_CODE_DICE
from tactical.errors import UserError
from tactical.model import FrozenMap, Unit
from tactical.rules.base import Field, Problem, check_fields, with_defaults
from tactical.rules.sw_d6_capital.codes import initiative_code, ship_defence
from tactical.rules.sw_d6_capital.options import OPTION_FIELDS
from tactical.rules.sw_d6_capital.tables import (
    ARCS,
    LEVELS,
    PIPS_PER_DIE,
    RANGE_BANDS,
    SPEED_ORDER,
    UNIT_SIZES,
    command_difficulty,
)

SCALE_DICE = {"starfighter": "6D", "frigate": "10D", "capital": "12D"}
LARGE_SHIPS = ("frigate", "capital")  # crews in the hundreds to hundreds of thousands (R004.48)
DEFAULT_RANGES = "3-15/35/75"

WEAPON_FIELDS = (
    Field("name", "str", required=True, doc="weapon type, e.g. Turbolasers"),
    Field("arc", "str", default="front", choices=ARCS, spec_id="GEO004.3"),
    Field("fire_control", "str", default="2D", doc="Gunnery Fire Control", spec_id="R004.28"),
    Field("damage", "str", default="4D", spec_id="R004.34"),
    Field("battery", "str", default="0D", doc="Battery Dice", spec_id="R004.31"),
    Field(
        "ranges",
        "str",
        default=DEFAULT_RANGES,
        doc="point-blank limit-short/medium/long in Space units",
        spec_id="GEO004.2",
    ),
    Field("ion", "bool", default=False, doc="an ion weapon", spec_id="R004.43"),
    Field(
        "damage_limit", "str", doc="Battery Dice Damage Allocation Limitation", spec_id="A004.38"
    ),
    Field("count", "int", default=1, low=1, high=999, doc="guns of this type in the arc"),
)

STATS_FIELDS = (
    Field("scale", "str", default="capital", choices=tuple(SCALE_DICE), spec_id="R004.33"),
    Field("scale_dice", "str", doc="Scale die code overriding the class", spec_id="R004.33"),
    Field("space", "int", default=4, low=0, high=20, doc="Space (movement units)"),
    Field("speed", "str", default="cruising", choices=SPEED_ORDER, spec_id="R004.51"),
    Field("hull", "str", default="4D", spec_id="R004.34"),
    Field("shields", "str", default="2D", spec_id="R004.24"),
    Field("maneuverability", "str", default="1D", spec_id="R004.8"),
    Field("cso", "str", default="3D", doc="Capital Ship Operation", spec_id="R004.6"),
    Field("initiative", "str", doc="Initiative die code", spec_id="R004.7"),
    Field("tactics", "str", doc="Captain's Tactics", spec_id="R004.7"),
    Field("sensors", "str", doc="Crew Sensors", spec_id="R004.7"),
    Field("initiative_bonus", "int", default=0, low=0, high=99, spec_id="R004.12"),
    Field("command", "str", default="3D", doc="Captain's Command", spec_id="R004.15"),
    Field("command_difficulty", "int", low=1, high=99, spec_id="R004.15"),
    Field("crew", "int", default=1, low=1, high=100_000_000, spec_id="T004.18"),
    Field("shields_skill", "str", doc="a fighter's Shields skill", spec_id="R004.24"),
    Field("astromech", "str", doc="astromech repair die code", spec_id="R004.53"),
    Field("unit_size", "str", default="single", choices=tuple(UNIT_SIZES), spec_id="R004.54"),
    Field("mothership", "str", doc="unit id of the fighters' base", spec_id="R004.57"),
    Field("squadrons_carried", "int", default=0, low=0, high=999, spec_id="R004.57"),
    Field("uncommitted_squadrons", "int", default=0, low=0, high=999, spec_id="R004.57"),
    Field("pc_crew", "bool", default=False, spec_id="R004.49"),
    Field("force_points", "int", default=0, low=0, high=99, spec_id="R004.13"),
    Field("damage", "str", default="none", choices=LEVELS[:4], spec_id="R004.18"),
    Field("ionization", "int", default=0, low=0, high=4, spec_id="R004.41"),
    Field(
        "shield_arcs",
        "table",
        fields=tuple(Field(arc, "str", default="0D") for arc in ARCS),
        spec_id="R004.24",
    ),
    Field("weapons", "tables", default=(), fields=WEAPON_FIELDS, spec_id="R004.26"),
)

CODE_KEYS = (
    "hull",
    "shields",
    "maneuverability",
    "cso",
    "initiative",
    "tactics",
    "sensors",
    "command",
    "shields_skill",
    "astromech",
    "scale_dice",
)
WEAPON_CODE_KEYS = ("fire_control", "damage", "battery", "damage_limit")
_RANGES = re.compile(
    r"^\s*(\d+(?:\.\d+)?)\s*-\s*(\d+(?:\.\d+)?)\s*/\s*(\d+(?:\.\d+)?)\s*/\s*(\d+(?:\.\d+)?)\s*$"
)


def parse_ranges(text: str) -> tuple[float, float, float, float]:
    """'3-15/35/75' -> (point-blank limit, short, medium, long) in Space units (GEO004.2)."""
    match = _RANGES.match(str(text))
    if not match:
        raise UserError(
            f"cannot read weapon ranges {text!r}: expected point-blank limit-short/medium/long "
            "in Space units, e.g. 3-15/35/75",
            spec_id="GEO004.2",
        )
    low, short, medium, long = (float(v) for v in match.groups())
    if not low <= short <= medium <= long:
        raise UserError(
            f"weapon ranges {text!r} must grow: point-blank limit <= short <= medium <= long",
            spec_id="GEO004.2",
        )
    return low, short, medium, long


def range_band(ranges: tuple[float, float, float, float], space_units: float) -> str | None:
    """GEO004.2: distance in Space units -> point-blank (< Short), short, medium, long, or None
    beyond Long ("within" is <=, G.4)."""
    low, short, medium, long = ranges
    if space_units < low - 1e-9:
        return RANGE_BANDS[0]
    for band, limit in zip(RANGE_BANDS[1:], (short, medium, long), strict=True):
        if space_units <= limit + 1e-9:
            return band
    return None


def range_band_indices(
    ranges: tuple[float, float, float, float], space_units: np.ndarray
) -> np.ndarray:
    """`range_band` of many distances (Space units) at once, as indices into
    (*RANGE_BANDS, None): the same comparisons, element by element."""
    low, short, medium, long = ranges
    space_units = np.asarray(space_units, dtype=float)
    conditions = [
        space_units < low - 1e-9,
        *(space_units <= limit + 1e-9 for limit in (short, medium, long)),
    ]
    return np.select(conditions, np.arange(len(RANGE_BANDS)), default=len(RANGE_BANDS))


def ship_range_band(unit: Unit, distance: float, options: Mapping[str, Any]) -> str | None:
    """`RuleSystem.range_band` (GEO004.2): the band of the unit's longest-ranged weapon (Point
    Blank below Short), its ranges in Space units of `inches_per_space` inches."""
    weapons = deck_of(unit).weapons
    if not weapons:
        return None
    scale = float(with_defaults(OPTION_FIELDS, options)["inches_per_space"])
    longest = max((w.ranges for w in weapons), key=lambda ranges: ranges[3])
    return range_band(longest, distance / scale)


def ship_range_band_indices(
    unit: Unit, distances: np.ndarray, options: Mapping[str, Any]
) -> tuple[tuple[str | None, ...], np.ndarray]:
    """`ship_range_band` of many distances at once (GEO004.2)."""
    weapons = deck_of(unit).weapons
    if not weapons:
        return (None,), np.zeros(len(distances), dtype=np.intp)
    scale = float(with_defaults(OPTION_FIELDS, options)["inches_per_space"])
    longest = max((w.ranges for w in weapons), key=lambda ranges: ranges[3])
    found = range_band_indices(longest, np.asarray(distances, dtype=float) / scale)
    return (*RANGE_BANDS, None), found


def weapon_units(unit: Unit, options: Mapping[str, Any]) -> tuple[str, ...]:
    """`RuleSystem.weapons` (R004.26): the unit's weapon units, `<arc>-<weapon type>`."""
    return tuple(weapon.id for weapon in deck_of(unit).weapons)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "weapon"


@dataclass(frozen=True, slots=True)
class WeaponUnit:
    """One weapon type in one fire arc: the unit of one Gunnery roll per turn (R004.26)."""

    id: str
    name: str
    arc: str
    fire_control: DieCode
    damage: DieCode
    battery: DieCode
    ranges: tuple[float, float, float, float]
    ion: bool
    damage_limit: DieCode | None
    count: int


@dataclass(frozen=True)
class Deck:
    """One unit's Command Deck, read from its stats (module docstring)."""

    scale_class: str
    scale: DieCode
    space: int
    speed: str
    hull: DieCode
    shields: DieCode
    maneuverability: DieCode
    cso: DieCode
    initiative: DieCode | None
    tactics: DieCode | None
    sensors: DieCode | None
    initiative_bonus: int
    command: DieCode
    command_difficulty: int
    crew: int
    shields_skill: DieCode | None
    astromech: DieCode | None
    unit_size: str
    mothership: str | None
    squadrons_carried: int
    uncommitted_squadrons: int
    pc_crew: bool
    force_points: int
    start_damage: str
    start_ionization: int
    shield_arcs: tuple[int, int, int, int]
    weapons: tuple[WeaponUnit, ...]

    @property
    def fighter(self) -> bool:
        """Starfighters and freighters at capital scale (R004.52)."""
        return self.scale_class == "starfighter"

    @property
    def is_unit(self) -> bool:
        """A fighter unit of more than one fighter: one target with Unit Strength (R004.54)."""
        return self.fighter and self.unit_size != "single"

    @property
    def initial_strength(self) -> int:
        """R004.55 [interp]: Unit Strength starts at the unit-size modifier (pips)."""
        return UNIT_SIZES[self.unit_size][1] if self.is_unit else 0

    @property
    def large_ship(self) -> bool:
        return self.scale_class in LARGE_SHIPS

    @property
    def ship_defence(self) -> int:
        """R004.8 / R004.9."""
        return ship_defence(self.maneuverability, self.cso, self.fighter)

    def initiative_code(self, rounding: str = "half-pips") -> DieCode:
        """R004.7: the deck's Initiative, or (Tactics + Sensors) / 2; 2D without either."""
        if self.initiative is not None:
            return self.initiative
        if self.tactics is not None and self.sensors is not None:
            return initiative_code(self.tactics, self.sensors, rounding)
        return DieCode(2 * PIPS_PER_DIE)

    def weapon(self, weapon_id: str) -> WeaponUnit:
        for unit in self.weapons:
            if unit.id == weapon_id:
                return unit
        raise KeyError(weapon_id)

    @property
    def recovery_reserve(self) -> int:
        """R004.57: 1D of Recovery per squadron carried plus 3D per uncommitted squadron."""
        return PIPS_PER_DIE * (self.squadrons_carried + 3 * self.uncommitted_squadrons)


def _code(values: Mapping[str, Any], key: str, default: str | None) -> DieCode | None:
    text = values.get(key, default)
    return None if text is None else DieCode.parse(str(text))


def even_shields(pips: int) -> tuple[int, int, int, int]:
    """The default allocation: the shield pips spread evenly over the four arcs, front first."""
    share, extra = divmod(max(pips, 0), 4)
    return tuple(share + (1 if k < extra else 0) for k in range(4))  # type: ignore[return-value]


def _weapon(item: Mapping[str, Any]) -> WeaponUnit:
    name = str(item["name"])
    arc = str(item.get("arc", "front"))
    limit = item.get("damage_limit")
    return WeaponUnit(
        id=f"{arc}-{slug(name)}",
        name=name,
        arc=arc,
        fire_control=DieCode.parse(str(item.get("fire_control", "2D"))),
        damage=DieCode.parse(str(item.get("damage", "4D"))),
        battery=DieCode.parse(str(item.get("battery", "0D"))),
        ranges=parse_ranges(str(item.get("ranges", DEFAULT_RANGES))),
        ion=bool(item.get("ion", False)),
        damage_limit=None if limit is None else DieCode.parse(str(limit)),
        count=int(item.get("count", 1)),
    )


@lru_cache(maxsize=1024)
def _deck(stats: FrozenMap) -> Deck:
    scale_class = str(stats.get("scale", "capital"))
    shields = _code(stats, "shields", "2D")
    assert shields is not None
    arcs_given = stats.get("shield_arcs")
    if arcs_given is None:
        shield_arcs = even_shields(shields.pips)
    else:
        shield_arcs = tuple(  # type: ignore[assignment]
            DieCode.parse(str(arcs_given.get(arc, "0D"))).pips for arc in ARCS
        )
    crew = int(stats.get("crew", 1))
    given_difficulty = stats.get("command_difficulty")
    return Deck(
        scale_class=scale_class,
        scale=_code(stats, "scale_dice", SCALE_DICE[scale_class]),  # type: ignore[arg-type]
        space=int(stats.get("space", 4)),
        speed=str(stats.get("speed", "cruising")),
        hull=_code(stats, "hull", "4D"),  # type: ignore[arg-type]
        shields=shields,
        maneuverability=_code(stats, "maneuverability", "1D"),  # type: ignore[arg-type]
        cso=_code(stats, "cso", "3D"),  # type: ignore[arg-type]
        initiative=_code(stats, "initiative", None),
        tactics=_code(stats, "tactics", None),
        sensors=_code(stats, "sensors", None),
        initiative_bonus=int(stats.get("initiative_bonus", 0)),
        command=_code(stats, "command", "3D"),  # type: ignore[arg-type]
        command_difficulty=int(given_difficulty)
        if given_difficulty is not None
        else command_difficulty(crew),
        crew=crew,
        shields_skill=_code(stats, "shields_skill", None),
        astromech=_code(stats, "astromech", None),
        unit_size=str(stats.get("unit_size", "single")),
        mothership=stats.get("mothership"),
        squadrons_carried=int(stats.get("squadrons_carried", 0)),
        uncommitted_squadrons=int(stats.get("uncommitted_squadrons", 0)),
        pc_crew=bool(stats.get("pc_crew", False)),
        force_points=int(stats.get("force_points", 0)),
        start_damage=str(stats.get("damage", "none")),
        start_ionization=int(stats.get("ionization", 0)),
        shield_arcs=shield_arcs,
        weapons=tuple(_weapon(item) for item in stats.get("weapons", ())),
    )


def deck_of(unit: Unit) -> Deck:
    """The unit's Command Deck (cached by its stats, by their identity first: the computer
    players ask it of the same units after every roll). UserError if the stats are invalid."""
    stats = unit.stats
    known = _DECKS.get(id(stats))
    if known is not None and known[0] is stats:
        return known[1]
    deck = _checked_deck(unit)
    if isinstance(stats, FrozenMap):  # immutable: its identity stands for its value
        if len(_DECKS) >= 1024:
            _DECKS.clear()
        _DECKS[id(stats)] = (stats, deck)  # kept beside its id: no id reused
    return deck


_DECKS: dict[int, tuple[FrozenMap, Deck]] = {}  # by the stats' identity (`deck_of`)


def _checked_deck(unit: Unit) -> Deck:
    problems = check_stats(unit.stats)
    if problems:
        problem = problems[0]
        raise UserError(
            f"unit {unit.id!r} stats.{problem.key}: expected {problem.expected}",
            spec_id=problem.spec_id,
        )
    return _deck(unit.stats)


def _bad_codes(table: Any, keys: Any, where: str, example: str) -> list[Problem]:
    """R004.1: a problem for each of `keys` in `table` that is not a die code."""
    return [
        Problem(
            f"{where}{key}", f"a die code such as {example} (at most {MAX_CODE_DICE}D)", "R004.1"
        )
        for key in keys
        if key in table and not _parses(table[key])
    ]


@lru_cache(maxsize=1024)
def _check(stats: FrozenMap) -> tuple[Problem, ...]:
    problems = check_fields(STATS_FIELDS, stats)
    if problems:
        return tuple(problems)
    problems += _bad_codes(stats, CODE_KEYS, "", "5D+2")
    arcs = stats.get("shield_arcs")
    if arcs is not None:
        problems += _bad_codes(arcs, ARCS, "shield_arcs.", "1D+1")
    seen: set[str] = set()
    for index, item in enumerate(stats.get("weapons", ())):
        problems += _bad_codes(item, WEAPON_CODE_KEYS, f"weapons[{index}].", "4D")
        try:
            parse_ranges(str(item.get("ranges", DEFAULT_RANGES)))
        except UserError:
            problems.append(
                Problem(
                    f"weapons[{index}].ranges",
                    "point-blank limit-short/medium/long in Space units, growing, e.g. 3-15/35/75",
                    "GEO004.2",
                )
            )
        weapon_id = f"{item.get('arc', 'front')}-{slug(str(item.get('name', '')))}"
        if weapon_id in seen:
            problems.append(
                Problem(
                    f"weapons[{index}].name",
                    "one entry per weapon type per fire arc (this type is already in this arc)",
                    "R004.26",
                )
            )
        seen.add(weapon_id)
    if stats.get("unit_size", "single") != "single" and stats.get("scale") != "starfighter":
        problems.append(
            Problem(
                "unit_size", "'single' unless scale is 'starfighter' (fighter units)", "R004.54"
            )
        )
    if not problems and arcs is not None:
        shields = DieCode.parse(str(stats.get("shields", "2D"))).pips
        allocated = sum(DieCode.parse(str(arcs.get(arc, "0D"))).pips for arc in ARCS)
        if allocated > shields:
            problems.append(
                Problem(
                    "shield_arcs",
                    f"an allocation of at most the ship's shields ({shields} pips), "
                    f"not {allocated} pips",
                    "R004.24",
                )
            )
    return tuple(problems)


def _parses(text: Any) -> bool:
    try:
        DieCode.parse(str(text))
    except UserError:
        return False
    return True


def check_stats(stats: Mapping[str, Any]) -> list[Problem]:
    """Problems with one unit's `[unit.stats]`: the schema, die codes, ranges, weapon units."""
    frozen = stats if isinstance(stats, FrozenMap) else FrozenMap(stats)
    return list(_check(frozen))
