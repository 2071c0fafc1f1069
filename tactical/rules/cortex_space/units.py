"""Cortex vessels (`[unit.stats]`) and the game's options (`[options]`): schema and reading.

Unit stats (every key optional; a unit with no stats is a d6 spacecraft with no weapons):

- `scale`: personal | planetcraft | spacecraft (SPEC §4.0, T003.13-T003.15).
- `agility`, `strength`, `vitality`, `alertness`, `intelligence`, `willpower`: vessel
  attributes as step dice ("d8", "d12+d2", R003.1).
- `pilot` (Pilot / Large Spacecraft Tactical Manoeuvring), `gunnery` (Heavy Weapons): the
  skill dice of the vessel's pilot and gunner; `dogfighting`: the DOGFIGHTING trait die
  ("" for none, R003.10).
- `life_points`, `armor_wound`, `armor_stun`, `speed`; `wound`, `stun`: damage taken so far,
  counted on Life Points x `lp_multiple` (default 1: the vessel's own scale; k once a
  smaller-scale attacker has hit it, whose hits count on the target's Life Points x k,
  R003.58 / T003.14).
- `ftl`, `ftl_destroyed`, `sensors_damaged`, `sublight_damaged`, `sublight_destroyed`:
  the systems battle damage acts on (R003.29).
- `weapons`: an array of tables `{name, kind = "gun" | "missile" | "point-defense",
  damage = "d12+d2" | "4d6", count (identical mounts, R003.35), linked (fire-linked guns
  per mount, R003.45), range (longest band: skirmish .. long DRADIS), scale (the weapon's
  own scale, default the vessel's), missiles (ammunition of a launcher), missile_type
  (T003.17), warhead = "explosive" | "fragmentation" (R003.62), disabled (mounts out of
  action), destroyed (the whole system, R003.29)}`.
- `members`: a fighter wing (R003.30-R003.34): `{id, pilot, gunnery, strength,
  life_points, wound, stun, lp_multiple}` per fighter; the unit's own pilot and damage are
  then unused.
- `crew`: characters as crew (R003.46-R003.55): `{station, name, attribute, skill, trait}`.

Options: the range bands in inches (GEO003.7), the optional and variant rules switched
on or off (all on by default; `crew_variant` picks draft A or B, R003.56), the
configurable readings (A003.1 `scale_chart`, A003.21 `wing_defense`), R003.34's
`wing_damage`, R003.58's `scale_reading` ("target-multiplied": a smaller-scale attacker's
hit counts whole on the target's Life Points and Armor x k; "damage-divided", the
reading before this revision and the value of a game recorded before it: the hit after
k x Armor divided by k on the target's own Life Points), and the table distances of
GEO003.2/GEO003.7.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from tactical.dice import StepDie
from tactical.errors import UserError
from tactical.model import FrozenMap, GameState, Unit
from tactical.rules.base import (
    Field,
    Problem,
    check_fields,
    options_check,
    turn_limit_field,
    with_defaults,
)
from tactical.rules.cortex_space.rolls import DamageDice, parse_damage, parse_step_die
from tactical.rules.cortex_space.tables import MISSILE_TYPES, RANGE_ORDER, SCALES
from tactical.rules.fields import choice, flag, number, text, whole

ATTRIBUTES = ("agility", "strength", "vitality", "alertness", "intelligence", "willpower")
SKILLS = ("pilot", "gunnery")
WEAPON_KINDS = ("gun", "missile", "point-defense")
WEAPON_RANGES = RANGE_ORDER
WARHEADS = ("explosive", "fragmentation")
STATIONS = ("co", "xo", "pilot", "helm", "tactical", "dradis", "comms", "officer")
MAX_WING = 6  # R003.30

_DIE_DOC = "a Cortex step die such as d8 or d12+d2"
# T003.14's factors are 2 and 5: a track counted for both is at most x10
MAX_LP_MULTIPLE = 10
_LP_MULTIPLE_DOC = (
    "Wound and Stun are counted on Life Points times this: k once a smaller-scale attacker "
    "has hit it"
)
SCALE_READINGS = ("target-multiplied", "damage-divided")
# a vessel's and a wing member's track are counted alike (R003.58)
LP_MULTIPLE_FIELD = whole("lp_multiple", 1, 1, MAX_LP_MULTIPLE, "R003.58", _LP_MULTIPLE_DOC)

WEAPON_FIELDS = (
    Field("name", "str", required=True),
    Field("kind", "str", default="gun", choices=WEAPON_KINDS, spec_id="R003.43"),
    Field("damage", "str", required=True, doc="damage die: d8, d12+d2 or a warhead's 4d6"),
    Field("count", "int", default=1, low=1, high=99, doc="identical mounts", spec_id="R003.35"),
    Field("linked", "int", default=1, low=1, high=64, doc="fire-linked guns", spec_id="R003.45"),
    Field("range", "str", default="capital", choices=WEAPON_RANGES, spec_id="GEO003.1"),
    Field("scale", "str", choices=SCALES, doc="the weapon's scale (default the vessel's)"),
    Field("missiles", "int", default=0, low=0, high=999, doc="launcher ammunition"),
    Field("missile_type", "str", choices=MISSILE_TYPES, spec_id="R003.61"),
    Field("warhead", "str", default="explosive", choices=WARHEADS, spec_id="R003.62"),
    Field("disabled", "int", default=0, low=0, high=99, spec_id="R003.29"),
    Field("destroyed", "bool", default=False, spec_id="R003.29"),
)

MEMBER_FIELDS = (
    Field("id", "str", required=True),
    Field("pilot", "str", default="d6", doc=_DIE_DOC),
    Field("gunnery", "str", default="d6", doc=_DIE_DOC),
    Field("strength", "str", default="d6", doc=_DIE_DOC),
    Field("life_points", "int", low=1, high=9999),
    Field("wound", "int", default=0, low=0, high=9999),
    Field("stun", "int", default=0, low=0, high=9999),
    LP_MULTIPLE_FIELD,
)

CREW_FIELDS = (
    Field("station", "str", required=True, choices=STATIONS, spec_id="R003.56"),
    Field("name", "str", required=True),
    Field("attribute", "str", default="d6", doc="the character's own attribute die"),
    Field("skill", "str", default="", doc="the character's skill die ('' = the ship's)"),
    Field("trait", "str", default="", doc="a trait die such as So Say We All"),
)

STATS_FIELDS = (
    Field("scale", "str", default="spacecraft", choices=SCALES, spec_id="R003.57"),
    *(Field(name, "str", default="d6", doc=_DIE_DOC, spec_id="R003.1") for name in ATTRIBUTES),
    Field("pilot", "str", default="d6", doc=_DIE_DOC, spec_id="R003.10"),
    Field("gunnery", "str", default="d6", doc=_DIE_DOC, spec_id="R003.55"),
    Field("dogfighting", "str", default="", doc="DOGFIGHTING trait die", spec_id="R003.10"),
    Field("life_points", "int", default=10, low=1, high=9999, spec_id="R003.25"),
    Field("armor_wound", "int", default=0, low=0, high=999, spec_id="R003.58"),
    Field("armor_stun", "int", default=0, low=0, high=999, spec_id="R003.58"),
    Field("speed", "int", default=6, low=0, high=99, spec_id="R003.16"),
    Field("wound", "int", default=0, low=0, high=9999),
    Field("stun", "int", default=0, low=0, high=9999),
    LP_MULTIPLE_FIELD,
    Field("ftl", "bool", default=False, spec_id="R003.29"),
    Field("ftl_destroyed", "bool", default=False, spec_id="R003.29"),
    Field("sensors_damaged", "int", default=0, low=0, high=99, spec_id="R003.29"),
    Field("sublight_damaged", "int", default=0, low=0, high=99, spec_id="R003.29"),
    Field("sublight_destroyed", "bool", default=False, spec_id="R003.29"),
    Field("weapons", "tables", default=(), fields=WEAPON_FIELDS),
    Field("members", "tables", default=(), fields=MEMBER_FIELDS, spec_id="R003.30"),
    Field("crew", "tables", default=(), fields=CREW_FIELDS, spec_id="R003.56"),
)

RANGE_NAMES = RANGE_ORDER
RANGE_DEFAULTS = (1.0, 12.0, 36.0, 72.0, 144.0)
RANGE_OPTION = {name: name.replace(" ", "_").lower() + "_inches" for name in RANGE_NAMES}
OPTIONAL_RULES = {
    "dogfighting": "R003.10",
    "collisions": "R003.15",
    "strafing_runs": "R003.21",
    "battle_damage": "R003.25",
    "fighter_wings": "R003.30",
    "weapon_batteries": "R003.35",
    "missile_locks": "R003.38",
    "point_defense": "R003.43",
    "fire_linked": "R003.45",
    "mixing_scales": "R003.57",
}

OPTION_FIELDS = (
    *(number(RANGE_OPTION[name], value, 0.1, 1000, "GEO003.7")
      for name, value in zip(RANGE_NAMES, RANGE_DEFAULTS, strict=True)),
    choice("crew_variant", ("A", "B", "none"), "R003.56",
           "characters as crew: 1st draft (A) or 2nd draft (B), never both", default="B"),
    *(flag(name, True, rule, "optional / variant rule in play")
      for name, rule in OPTIONAL_RULES.items()),
    choice("scale_chart", ("restored", "printed"), "A003.1"),
    choice("wing_defense", ("less-skilled", "worst-roll"), "A003.21"),
    choice("wing_damage", ("random", "chosen"), "R003.34"),
    choice("scale_reading", SCALE_READINGS, "R003.58",
           "a smaller-scale attacker's hit counts whole against the target's Life Points and "
           "Armor times k (target-multiplied) or is divided by k on its own Life Points "
           "(damage-divided); games recorded before this reading was revised: damage-divided",
           before=SCALE_READINGS[1]),
    flag("armor_reduces_damage", True, doc="base Cortex Armor (G.5)"),
    number("feet_per_inch", 100.0, 0.01, 100_000, "GEO003.7"),
    number("contact_inches", 0.5, 0, 100, "GEO003.7"),
    number("wing_inches", 3.0, 0, 100, "GEO003.2"),
    number("wing_heading_tolerance", 10.0, 0, 180, "GEO003.2"),
    number("distract_inches", 2.0, 0, 100, "GEO003.2"),
    number("dogfight_inches", 12.0, 0, 1000, "GEO003.4"),
    whole("max_actions", 3, 1, 10, "R003.8"),
    number("inches_per_speed", 1.0, 0, 100, "GEO003.7"),
    flag("atmosphere", False, "R003.60"),
    whole("atmosphere_steps_per_increment", 0, 0, 10, "R003.60"),
    whole("spotter_range_steps", 0, -10, 10, "R003.67"),
    whole("called_shot_steps", 0, -10, 0, "R003.59",
          "the base game's called-shot Skill penalty (G.5)"),
    Field("structures", "tables", default=(), spec_id="R003.66", fields=(
        text("terrain", None, required=True),
        whole("population", 0, 0, 10**10, "R003.66"),
    )),
    turn_limit_field("A003.E1"),  # docs/game-end.md
)  # fmt: skip


def settings(state: GameState) -> Mapping[str, Any]:
    """The options in force for a state, validated (UserError naming the key otherwise)."""
    return _options(state.options)


_options = options_check(OPTION_FIELDS)


# --------------------------------------------------------------------------- stats


def check_stats(stats: Mapping[str, Any]) -> list[Problem]:
    """Schema problems, then every die text (R003.1) and the wing size (R003.30)."""
    problems = check_fields(STATS_FIELDS, stats)
    if problems:
        return problems
    for name in (*ATTRIBUTES, *SKILLS, "dogfighting"):
        if name in stats:
            problems.extend(_die_problem(name, stats[name]))
    for index, weapon in enumerate(stats.get("weapons", ())):
        try:
            parse_damage(str(weapon["damage"]))
        except UserError:
            problems.append(
                Problem(f"weapons[{index}].damage", "a damage die: d8, d12+d2 or 4d6", "R003.1")
            )
        if int(weapon.get("disabled", 0)) > int(weapon.get("count", 1)):
            problems.append(Problem(f"weapons[{index}].disabled", "at most the count", "R003.29"))
    names = [str(w["name"]) for w in stats.get("weapons", ())]
    if len(set(names)) != len(names):
        problems.append(Problem("weapons", "weapons with different names"))
    members = stats.get("members", ())
    if len(members) > MAX_WING:
        problems.append(Problem("members", f"at most {MAX_WING} fighters in a wing", "R003.30"))
    for index, member in enumerate(members):
        for name in ("pilot", "gunnery", "strength"):
            if name in member:
                problems.extend(_die_problem(f"members[{index}].{name}", member[name]))
    for index, person in enumerate(stats.get("crew", ())):
        for name in ("attribute", "skill", "trait"):
            if name in person:
                problems.extend(_die_problem(f"crew[{index}].{name}", person[name]))
    return problems


def _die_problem(key: str, value: Any) -> list[Problem]:
    try:
        parse_step_die(str(value))
    except UserError:
        return [Problem(key, _DIE_DOC, "R003.1")]
    return []


@dataclass(frozen=True, slots=True)
class Weapon:
    """One weapon entry: `count` identical mounts, `working` of them in order (R003.29)."""

    index: int
    name: str
    kind: str
    damage: DamageDice
    count: int
    linked: int
    range: str
    scale: str
    missiles: int
    missile_type: str | None
    warhead: str
    disabled: int
    destroyed: bool

    @property
    def working(self) -> int:
        return 0 if self.destroyed else self.count - self.disabled

    @property
    def max_band(self) -> int:
        return RANGE_ORDER.index(self.range)


class _Counted:
    """Life Points counted x `lp_multiple` (R003.58), as a fighter's and a vessel's are."""

    __slots__ = ()
    life_points: int
    lp_multiple: int

    @property
    def printed_life_points(self) -> int:
        """The Life Points as printed (`life_points` counts them x `lp_multiple`)."""
        return self.life_points // self.lp_multiple


@dataclass(frozen=True, slots=True)
class Member(_Counted):
    """One fighter of a wing (R003.30)."""

    id: str
    pilot: StepDie
    gunnery: StepDie
    strength: StepDie
    life_points: int
    wound: int
    stun: int
    lp_multiple: int = 1

    @property
    def destroyed(self) -> bool:
        return self.wound >= self.life_points


@dataclass(frozen=True, slots=True)
class CrewMember:
    """One character at a station (R003.46-R003.55)."""

    station: str
    name: str
    attribute: StepDie
    skill: StepDie | None
    trait: StepDie


@dataclass(frozen=True)
class Vessel(_Counted):
    """A unit's Cortex stats with the defaults applied."""

    scale: str
    agility: StepDie
    strength: StepDie
    vitality: StepDie
    alertness: StepDie
    intelligence: StepDie
    willpower: StepDie
    pilot: StepDie
    gunnery: StepDie
    dogfighting: StepDie
    life_points: int  # x lp_multiple: what Wound and Stun are counted on (R003.58)
    armor_wound: int
    armor_stun: int
    speed: int
    wound: int
    stun: int
    ftl: bool
    ftl_destroyed: bool
    sensors_damaged: int
    sublight_damaged: int
    sublight_destroyed: bool
    weapons: tuple[Weapon, ...]
    members: tuple[Member, ...]
    crew: tuple[CrewMember, ...]
    lp_multiple: int = 1

    @property
    def is_wing(self) -> bool:
        return bool(self.members)

    @cached_property
    def fighters(self) -> tuple[Member, ...]:
        """The wing's surviving fighters."""
        return tuple(m for m in self.members if not m.destroyed)

    @cached_property
    def less_skilled(self) -> Member | None:
        """A003.20: the surviving fighter with the lowest Pilot die (the first listed on ties:
        the wing's player orders the members)."""
        if not self.fighters:
            return None
        return min(self.fighters, key=lambda m: m.pilot.step)

    @property
    def pilot_skill(self) -> StepDie:
        """The Pilot die used for the vessel's rolls (the less-skilled pilot's for a wing)."""
        leader = self.less_skilled
        return leader.pilot if leader is not None else self.pilot

    @property
    def gunnery_skill(self) -> StepDie:
        leader = self.less_skilled
        return leader.gunnery if leader is not None else self.gunnery

    @property
    def destroyed(self) -> bool:
        """Out of the fight for good: Wound >= Life Points (every fighter, for a wing)."""
        if self.is_wing:
            return not self.fighters
        return self.wound >= self.life_points

    @property
    def disabled(self) -> bool:
        """Adrift: Stun + Wound >= Life Points (base Cortex, G.5); a wing never is while a
        fighter flies."""
        if self.is_wing:
            return not self.fighters
        return self.wound + self.stun >= self.life_points

    def weapon(self, name: str) -> Weapon | None:
        for weapon in self.weapons:
            if weapon.name == name:
                return weapon
        return None

    def crew_at(self, *stations: str) -> tuple[CrewMember, ...]:
        return tuple(c for c in self.crew if c.station in stations)


def weapon_names(unit: Unit, options: Mapping[str, Any]) -> tuple[str, ...]:
    """`RuleSystem.weapons`: the weapons on the vessel's card, under any options."""
    return tuple(w.name for w in vessel(unit).weapons)


def vessel(unit: Unit) -> Vessel:
    """Read a unit's stats (validated by the map loader) with the defaults filled in."""
    stats = unit.stats
    # first by the stats map itself: equal maps that are not the same one (a unit rebuilt
    # after a roll) compare key by key in the value cache, and exact odds ask thousands
    found = _BY_STATS.get(id(stats))
    if found is not None and found[0] is stats:
        return found[1]
    frozen = stats if isinstance(stats, FrozenMap) else FrozenMap(stats)
    try:
        made = _vessel(frozen)
    except UserError as error:
        raise UserError(f"unit {unit.id!r}: {error.message}", spec_id=error.spec_id) from None
    if frozen is stats:  # (a plain mapping could change: read it each time)
        if len(_BY_STATS) >= MAX_VESSELS:
            _BY_STATS.clear()
        _BY_STATS[id(stats)] = (stats, made)  # the map kept beside it: its id stays its own
    return made


def remember_vessel(stats: FrozenMap, made: Vessel) -> None:
    """Let `vessel` read `stats` as `made`, what they parse as (a resolver that changes a
    vessel's tracks knows its card already)."""
    if len(_BY_STATS) >= MAX_VESSELS:
        _BY_STATS.clear()
    _BY_STATS[id(stats)] = (stats, made)


_BY_STATS: dict[int, tuple[object, Vessel]] = {}
MAX_VESSELS = 4096


@lru_cache(maxsize=4096)
def _vessel(stats: FrozenMap) -> Vessel:
    # cached by the (hashable, immutable) stats: the resolvers read the same units often.
    # The map loader validated the schema; a bad die text still fails in its parser.
    values = with_defaults(STATS_FIELDS, stats)
    scale = str(values["scale"])

    def die(name: str) -> StepDie:
        return parse_step_die(str(values[name]), what=name)

    weapons = tuple(
        Weapon(
            index=index,
            name=str(entry["name"]),
            kind=str(entry.get("kind", "gun")),
            damage=parse_damage(str(entry["damage"])),
            count=int(entry.get("count", 1)),
            linked=int(entry.get("linked", 1)),
            range=str(entry.get("range", "capital")),
            scale=str(entry.get("scale", scale)),
            missiles=int(entry.get("missiles", 0)),
            missile_type=entry.get("missile_type"),
            warhead=str(entry.get("warhead", "explosive")),
            disabled=int(entry.get("disabled", 0)),
            destroyed=bool(entry.get("destroyed", False)),
        )
        for index, entry in enumerate(values["weapons"])
    )
    members = tuple(
        Member(
            id=str(entry["id"]),
            pilot=parse_step_die(str(entry.get("pilot", "d6"))),
            gunnery=parse_step_die(str(entry.get("gunnery", "d6"))),
            strength=parse_step_die(str(entry.get("strength", "d6"))),
            life_points=int(entry.get("life_points", values["life_points"]))
            * int(entry.get("lp_multiple", 1)),
            wound=int(entry.get("wound", 0)),
            stun=int(entry.get("stun", 0)),
            lp_multiple=int(entry.get("lp_multiple", 1)),
        )
        for entry in values["members"]
    )
    crew = tuple(
        CrewMember(
            station=str(entry["station"]),
            name=str(entry["name"]),
            attribute=parse_step_die(str(entry.get("attribute", "d6"))),
            skill=parse_step_die(str(entry["skill"])) if entry.get("skill") else None,
            trait=parse_step_die(str(entry.get("trait", ""))),
        )
        for entry in values["crew"]
    )
    return Vessel(
        scale=scale,
        agility=die("agility"),
        strength=die("strength"),
        vitality=die("vitality"),
        alertness=die("alertness"),
        intelligence=die("intelligence"),
        willpower=die("willpower"),
        pilot=die("pilot"),
        gunnery=die("gunnery"),
        dogfighting=die("dogfighting"),
        life_points=int(values["life_points"]) * int(values["lp_multiple"]),
        armor_wound=int(values["armor_wound"]),
        armor_stun=int(values["armor_stun"]),
        speed=int(values["speed"]),
        wound=int(values["wound"]),
        stun=int(values["stun"]),
        ftl=bool(values["ftl"]),
        ftl_destroyed=bool(values["ftl_destroyed"]),
        sensors_damaged=int(values["sensors_damaged"]),
        sublight_damaged=int(values["sublight_damaged"]),
        sublight_destroyed=bool(values["sublight_destroyed"]),
        weapons=weapons,
        members=members,
        crew=crew,
        lp_multiple=int(values["lp_multiple"]),
    )
