"""Seed 003 tables T003.1-T003.20 as data, with the lookups the resolvers use.

Every table is written out exactly as the SPEC reconstructs it (SPEC §4.16);
the functions below only read them. Difficulties are plain integers; step
modifiers are signed step counts (R003.2).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from tactical.dice import StepDie
from tactical.errors import UserError

Scale = Literal["personal", "planetcraft", "spacecraft"]
SCALES: tuple[Scale, ...] = ("personal", "planetcraft", "spacecraft")

# --------------------------------------------------------------------------- T003.1


def ladder_die(step: int) -> str:
    """T003.1: the die of a step index ('none' at 0 and below), e.g. 7 -> 'd12+d2'."""
    return StepDie(step).name if step > 0 else "none"


# --------------------------------------------------------------------------- T003.2

EASY, AVERAGE, HARD, FORMIDABLE, HEROIC, INCREDIBLE = 3, 7, 11, 15, 19, 23
DIFFICULTIES: dict[str, int] = {
    "EASY": EASY,
    "AVERAGE": AVERAGE,
    "HARD": HARD,
    "FORMIDABLE": FORMIDABLE,
    "HEROIC": HEROIC,
    "INCREDIBLE": INCREDIBLE,
}
EXTRAORDINARY_MARGIN = 7  # R003.5 / R003.6: result >= Difficulty + 7


def extraordinary_at(difficulty: int) -> int:
    """T003.2 second row: the result that is an Extraordinary Success."""
    return difficulty + EXTRAORDINARY_MARGIN


def difficulty_name(value: int) -> str | None:
    """The ladder name of a Difficulty value, None between rungs."""
    for name, rung in DIFFICULTIES.items():
        if rung == value:
            return name
    return None


# --------------------------------------------------------------------------- T003.3-T003.5


@dataclass(frozen=True, slots=True)
class ObstacleSize:
    """One row of T003.3."""

    d10: tuple[int, ...]
    name: str
    strength: str
    difficulty: int


OBSTACLE_SIZES: tuple[ObstacleSize, ...] = (
    ObstacleSize((1,), "Gigantic", "spacecraft scale Str d12+", INCREDIBLE),
    ObstacleSize((2, 3), "Colossal", "spacecraft scale Str d8-d10", HEROIC),
    ObstacleSize((4, 5), "Huge", "spacecraft scale Str d4-d6", FORMIDABLE),
    ObstacleSize((6, 7), "Large", "planetcraft scale Str d10+ / spacecraft scale Str d2", HARD),
    ObstacleSize((8, 9), "Medium", "planetcraft scale Str d6-d8", AVERAGE),
    ObstacleSize((10,), "Small", "planetcraft scale Str d2-d4", EASY),
)
SIZE_BY_NAME = {row.name: row for row in OBSTACLE_SIZES}


@dataclass(frozen=True, slots=True)
class ObstacleSpeed:
    """One row of T003.4: speeds `low`..`high` (None = no upper bound)."""

    d8: tuple[int, ...]
    name: str
    low: int
    high: int | None
    modifier: int


OBSTACLE_SPEEDS: tuple[ObstacleSpeed, ...] = (
    ObstacleSpeed((1,), "Very High", 9, None, +8),
    ObstacleSpeed((2, 3), "High", 6, 8, +4),
    ObstacleSpeed((4, 5), "Medium", 3, 5, 0),
    ObstacleSpeed((6, 7), "Slow", 1, 2, -4),
    ObstacleSpeed((8,), "Stationary", 0, 0, -8),
)


@dataclass(frozen=True, slots=True)
class ObstacleDirection:
    """One row of T003.5."""

    d6: tuple[int, ...]
    name: str
    modifier: int


OBSTACLE_DIRECTIONS: tuple[ObstacleDirection, ...] = (
    ObstacleDirection((1, 2), "toward", +4),
    ObstacleDirection((3, 4), "perpendicular", 0),
    ObstacleDirection((5, 6), "away", -4),
)
DIRECTION_BY_NAME = {row.name: row for row in OBSTACLE_DIRECTIONS}


def obstacle_size(scale: Scale, strength: StepDie) -> ObstacleSize:
    """T003.3 by scale and Strength die (A003.10: personal scale counts as Small)."""
    step = strength.step
    if scale == "spacecraft":
        if step >= 6:
            return SIZE_BY_NAME["Gigantic"]
        if step >= 4:
            return SIZE_BY_NAME["Colossal"]
        if step >= 2:
            return SIZE_BY_NAME["Huge"]
        return SIZE_BY_NAME["Large"]
    if scale == "planetcraft":
        if step >= 5:
            return SIZE_BY_NAME["Large"]
        if step >= 3:
            return SIZE_BY_NAME["Medium"]
        return SIZE_BY_NAME["Small"]
    return SIZE_BY_NAME["Small"]


def obstacle_speed(speed: int) -> ObstacleSpeed:
    """T003.4 by the highest speed of the colliding objects (R003.16)."""
    if speed < 0:
        raise UserError(f"a speed cannot be negative, got {speed}", spec_id="R003.16")
    for row in OBSTACLE_SPEEDS:
        if speed >= row.low and (row.high is None or speed <= row.high):
            return row
    raise AssertionError(speed)  # the rows cover every speed >= 0


def direction_row(name: str) -> ObstacleDirection:
    """T003.5 by name: toward, perpendicular or away."""
    return _entry(
        DIRECTION_BY_NAME,
        name,
        "R003.16",
        f"unknown obstacle direction {name!r}: expected toward, perpendicular or away",
    )


def _entry(table: Mapping[str, Any], key: str, spec_id: str, otherwise: str) -> Any:
    """`table[key]`; the UserError `otherwise` says when the table has no such row."""
    if key not in table:
        raise UserError(otherwise, spec_id=spec_id)
    return table[key]


def _by_roll(rows, column: str, roll: int):
    for row in rows:
        if roll in getattr(row, column):
            return row
    raise UserError(f"{roll} is not a result of the table's die", spec_id="A003.9")


def random_obstacle_rows(
    d10: int, d8: int, d6: int
) -> tuple[ObstacleSize, ObstacleSpeed, ObstacleDirection]:
    """R003.16 / A003.9: a randomly generated obstacle from d10, d8 and d6 rolls."""
    return (
        _by_roll(OBSTACLE_SIZES, "d10", d10),
        _by_roll(OBSTACLE_SPEEDS, "d8", d8),
        _by_roll(OBSTACLE_DIRECTIONS, "d6", d6),
    )


# --------------------------------------------------------------------------- T003.6


def strafing_difficulty(strength: StepDie) -> int:
    """T003.6 by the target's own Strength die (A003.14): d10+ AVERAGE, d6-d8 HARD, else
    FORMIDABLE."""
    if strength.step >= 5:
        return AVERAGE
    if strength.step >= 3:
        return HARD
    return FORMIDABLE


# --------------------------------------------------------------------------- T003.7

SENSORS, SUBLIGHT_DAMAGED, WEAPON, WEAPON_SYSTEM, FTL, SUBLIGHT_DESTROYED, WIDESPREAD = (
    "sensors damaged",
    "sublight engines damaged",
    "weapon damaged",
    "weapon system destroyed",
    "FTL engine destroyed",
    "sublight engines destroyed",
    "widespread damage",
)


@dataclass(frozen=True, slots=True)
class BattleDamageRow:
    """One row of T003.7: totals `low`..`high` (None = and up)."""

    low: int
    high: int | None
    system: str
    effect: str


BATTLE_DAMAGE: tuple[BattleDamageRow, ...] = (
    BattleDamageRow(2, 5, SENSORS, "all Skill rolls operating the sensors -2 steps"),
    BattleDamageRow(6, 10, SUBLIGHT_DAMAGED, "Speed halved, rounded down"),
    BattleDamageRow(11, 15, WEAPON, "one random weapon ceases to function"),
    BattleDamageRow(16, 20, WEAPON_SYSTEM, "one random weapon system ceases to function"),
    BattleDamageRow(21, 25, FTL, "FTL drive ceases to function"),
    BattleDamageRow(26, 30, SUBLIGHT_DESTROYED, "no manoeuvres possible"),
    BattleDamageRow(
        31, None, WIDESPREAD, "divide Wound damage by 2 (round down); roll twice, adding it"
    ),
)


def battle_damage_row(total: int) -> int | None:
    """The index of T003.7's row for `d10 + Wound`; None below 2 (A003.17)."""
    for index, row in enumerate(BATTLE_DAMAGE):
        if total >= row.low and (row.high is None or total <= row.high):
            return index
    return None


# --------------------------------------------------------------------------- T003.8

RANGE_ORDER = ("personal", "skirmish", "capital", "short DRADIS", "long DRADIS")  # GEO003.1


@dataclass(frozen=True, slots=True)
class MissileRange:
    """One range row of T003.8: lock Difficulty (None = impossible) and turns to target."""

    range: str
    lock: int | None
    turns: int | None


MISSILE_LOCKS: tuple[MissileRange, ...] = (
    MissileRange("personal", None, None),
    MissileRange("skirmish", None, None),
    MissileRange("capital", EASY, 1),
    MissileRange("short DRADIS", AVERAGE, 2),
    MissileRange("long DRADIS", HARD, 5),
)
SHOOT_DOWN_DIFFICULTY = FORMIDABLE  # R003.40
OUT_FLY_THRESHOLD = 15  # R003.41, an EASY Complex Action (R003.9)
DISTRACT_OBSTACLE_DIFFICULTY = AVERAGE  # R003.42
MISSILE_BY_RANGE = {row.range: row for row in MISSILE_LOCKS}


# --------------------------------------------------------------------------- T003.9


def group_attack_steps(n: int) -> int:
    """T003.9 wing attack / battery: +min(n-1, 5) (R003.32, R003.36)."""
    return max(0, min(n - 1, 5))


def wing_target_steps(n: int) -> int:
    """T003.9 attacking a wing of n: +floor(n/2) (R003.33)."""
    return max(0, n // 2)


def fire_linked_steps(n: int) -> int:
    """T003.9 fire-linked: +floor(log2 n) (R003.45)."""
    if n < 1:
        raise UserError(
            f"a fire-linked group needs at least one weapon, got {n}", spec_id="R003.45"
        )
    return n.bit_length() - 1


def group_damage_steps(hit: bool, extraordinary: bool) -> int:
    """T003.9 last row: damage die +1 step on a hit, +2 on an extraordinary hit (A003.4)."""
    if not hit:
        return 0
    return 2 if extraordinary else 1


# --------------------------------------------------------------------------- T003.10-T003.12

STATION_MODIFIER: dict[str, int] = {"botch": -1, "failure": 0, "success": 1, "extraordinary": 2}
HELM_ATTACK_MODIFIER = dict(STATION_MODIFIER)  # T003.11 (same values as T003.10)
HELM_EVASIVE_MODIFIER: dict[str, int] = {
    "botch": -4,
    "failure": -2,
    "success": -1,
    "extraordinary": 0,
}

# --------------------------------------------------------------------------- T003.13-T003.15

# Scale Chart 1 (to hit), minus signs restored (A003.1); None on the diagonal.
TO_HIT_RESTORED: dict[tuple[Scale, Scale], int] = {
    ("personal", "planetcraft"): +1,
    ("personal", "spacecraft"): +2,
    ("planetcraft", "personal"): -1,
    ("planetcraft", "spacecraft"): +1,
    ("spacecraft", "personal"): -3,
    ("spacecraft", "planetcraft"): -1,
}
# A003.1 configurable: the chart as printed, where the lost signs read as plus.
TO_HIT_PRINTED: dict[tuple[Scale, Scale], int] = {
    **TO_HIT_RESTORED,
    ("planetcraft", "personal"): +1,
    ("spacecraft", "personal"): +3,
}


def to_hit_steps(attacker: Scale, target: Scale, chart: str = "restored") -> int:
    """T003.13 (R003.57): the attacker's step modifier; 0 on the same scale."""
    if attacker == target:
        return 0
    table = TO_HIT_RESTORED if chart == "restored" else TO_HIT_PRINTED
    return table[(attacker, target)]


@dataclass(frozen=True, slots=True)
class ScaleDamage:
    """T003.14 cell: multiply the damage (`damage`) or the target's LP and Armor (`target`)."""

    multiplies: Literal["damage", "target", "none"]
    factor: int


def _factor(a: Scale, b: Scale) -> int:
    apart = abs(SCALES.index(a) - SCALES.index(b))
    return (1, 2, 5)[apart]


def scale_damage(attacker: Scale, target: Scale) -> ScaleDamage:
    """T003.14 (R003.58): larger attacker -> damage x k; smaller -> target LP/AR x k."""
    found = _SCALE_DAMAGE.get((attacker, target))
    return _scale_damage(attacker, target) if found is None else found


def _scale_damage(attacker: Scale, target: Scale) -> ScaleDamage:
    if attacker == target:
        return ScaleDamage("none", 1)
    factor = _factor(attacker, target)
    if SCALES.index(attacker) > SCALES.index(target):
        return ScaleDamage("damage", factor)
    return ScaleDamage("target", factor)


# T003.14 cell by cell, made once: every hit delivered asks it (`damage.absorb`)
_SCALE_DAMAGE: dict[tuple[str, str], ScaleDamage] = {
    (attacker, target): _scale_damage(attacker, target) for attacker in SCALES for target in SCALES
}


CALLED_SHOT: dict[tuple[Scale, Scale], int | None] = {
    ("personal", "personal"): AVERAGE,
    ("personal", "planetcraft"): EASY,
    ("personal", "spacecraft"): None,
    ("planetcraft", "personal"): HARD,
    ("planetcraft", "planetcraft"): AVERAGE,
    ("planetcraft", "spacecraft"): EASY,
    ("spacecraft", "personal"): FORMIDABLE,
    ("spacecraft", "planetcraft"): HARD,
    ("spacecraft", "spacecraft"): AVERAGE,
}


def called_shot_resist(attacker: Scale, target: Scale) -> int | None:
    """T003.15 (R003.59): the Difficulty to resist a called shot's effect; None = no effect.
    The chart's "Vehicle" is planetcraft scale (A003.2)."""
    return CALLED_SHOT[(attacker, target)]


# --------------------------------------------------------------------------- T003.16-T003.17

ATMOSPHERIC_INCREMENT_FEET: dict[str, int] = {
    "skirmish": 1_000,
    "capital": 5_000,
    "short DRADIS": 10_000,
    "long DRADIS": 25_000,
}


def range_increment_feet(space_range: str) -> int:
    """R003.60 / T003.16: a starship weapon's range increment in atmosphere."""
    return _entry(
        ATMOSPHERIC_INCREMENT_FEET,
        space_range,
        "R003.60",
        f"{space_range!r} has no atmospheric increment (T003.16 lists skirmish to long DRADIS)",
    )


def damage_kind(warhead: str) -> str:
    """R003.62: an explosive charge deals Basic damage, high-velocity fragments Wound."""
    if warhead == "explosive":
        return "basic"
    if warhead == "fragmentation":
        return "wound"
    raise UserError(
        f"unknown warhead {warhead!r}: expected explosive or fragmentation", spec_id="R003.62"
    )


@dataclass(frozen=True, slots=True)
class MissileBlast:
    """One row of T003.17."""

    scale: Scale
    weapon_type: str
    damage: str
    blast_feet: int


MISSILE_BLASTS: tuple[MissileBlast, ...] = (
    MissileBlast("planetcraft", "light", "4d2", 10),
    MissileBlast("planetcraft", "medium", "4d4", 25),
    MissileBlast("planetcraft", "heavy", "4d6", 50),
    MissileBlast("spacecraft", "light", "4d4", 250),
    MissileBlast("spacecraft", "medium", "4d4", 500),  # as printed (A003.33)
    MissileBlast("spacecraft", "heavy", "4d6", 1_000),
    MissileBlast("spacecraft", "extreme", "4d8", 2_000),
)
MISSILE_TYPES = ("light", "medium", "heavy", "extreme")


def missile_blast(scale: str, weapon_type: str) -> MissileBlast:
    """T003.17 (R003.61) by scale and weapon type."""
    for row in MISSILE_BLASTS:
        if row.scale == scale and row.weapon_type == weapon_type:
            return row
    known = ", ".join(f"{r.scale} {r.weapon_type}" for r in MISSILE_BLASTS)
    raise UserError(
        f"no {scale} {weapon_type} missile in T003.17 (known: {known})", spec_id="R003.61"
    )


# --------------------------------------------------------------------------- T003.18

SCATTER: dict[int, tuple[str, int]] = {
    1: ("long", 0),
    2: ("long and right", 45),
    3: ("right", 90),
    4: ("short and right", 135),
    5: ("short", 180),
    6: ("short and left", 225),
    7: ("left", 270),
    8: ("long and left", 315),
}


def scatter_feet(d10: int, margin: int) -> int:
    """T003.18 / A003.34: scatter distance in feet = d10 + 10 x miss margin."""
    return d10 + 10 * margin


# --------------------------------------------------------------------------- T003.19


@dataclass(frozen=True, slots=True)
class StructureRow:
    """One row of T003.19: hit Difficulty by the weapon's scale (None = not listed)."""

    kind: str
    planetcraft: int | None
    spacecraft: int | None
    life_points: int | None
    lp_scale: Scale | None
    armor_wound: int | None


STRUCTURES: tuple[StructureRow, ...] = (
    StructureRow("area", AVERAGE, HARD, None, None, None),
    StructureRow("small-building", AVERAGE, INCREDIBLE, 5, "planetcraft", 2),
    StructureRow("large-building", EASY, HEROIC, 10, "planetcraft", 5),
    StructureRow("small-city", None, HARD, 25, "spacecraft", 1),
    StructureRow("large-city", None, AVERAGE, 50, "spacecraft", 2),
    StructureRow("megalopolis", None, EASY, 150, "spacecraft", 5),
)
STRUCTURE_KINDS = tuple(row.kind for row in STRUCTURES)
STRUCTURE_BY_KIND = {row.kind: row for row in STRUCTURES}


def bombardment_difficulty(kind: str, weapon_scale: str) -> int:
    """T003.19 (R003.63, R003.65, A003.35): by target kind and the attacking weapon's scale."""
    row = _entry(
        STRUCTURE_BY_KIND,
        kind,
        "R003.65",
        f"{kind!r} is not a bombardment target: expected one of " + ", ".join(STRUCTURE_KINDS),
    )
    value = row.planetcraft if weapon_scale == "planetcraft" else None
    if weapon_scale == "spacecraft":
        value = row.spacecraft
    if value is None:
        raise UserError(
            f"a {weapon_scale}-scale weapon cannot bombard a {kind} (T003.19 lists no Difficulty)",
            spec_id="R003.65",
        )
    return value


# --------------------------------------------------------------------------- T003.20


@dataclass(frozen=True, slots=True)
class CrewStation:
    """One row of T003.20 (crew stations, 1st draft)."""

    station: str
    free_action: str
    action: str
    difficulty: int | None
    effect: str
    extra: str


CREW_STATIONS_A: tuple[CrewStation, ...] = (
    CrewStation(
        "CO / XO",
        "simple commands",
        "Willpower + Discipline or Influence/Leadership (+SSWA die)",
        HARD,
        "+1 step to one station next turn",
        "extraordinary +2; botch station -1",
    ),
    CrewStation(
        "Pilot",
        "roll Agility = Difficulty to hit ship",
        "Agility + Pilot = defense Difficulty",
        None,
        "-",
        "full-turn evasive: +2 def., gunners -1; full-turn offensive: +1 one gunner next turn, "
        "ship EASY target",
    ),
    CrewStation("Tactical officer", "-", "fire one weapon", None, "-", "-"),
    CrewStation(
        "DRADIS operator",
        "-",
        "Alertness + Pilot or Tech Eng/DRADIS",
        HARD,
        "+1 step defensive actions, or +1 step one gunner",
        "(defence use) extraordinary +2; botch pilot -1",
    ),
    CrewStation(
        "Communications",
        "simple commands",
        "Intelligence + Tech Eng/Comms",
        AVERAGE,
        "forward complex command keeping bonus",
        "-",
    ),
)
