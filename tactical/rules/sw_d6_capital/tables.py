"""Star Wars D6 capital ship tables T004.1-T004.20 and the small rules that read them.

Everything here is data or a pure function of plain numbers (pips, margins,
crew sizes). Die codes are `tactical.dice.DieCode` values held as pips
(R004.1: 3 pips = 1D). Damage levels are the strings of `LEVELS`, ordered
from undamaged to destroyed.
"""

from __future__ import annotations

from dataclasses import dataclass

from tactical.errors import UserError
from tactical.geometry.arcs_spec import Sector

# --------------------------------------------------------------------------- arcs (GEO004.3/4)

FRONT = Sector("front", 315.0, 45.0)
RIGHT = Sector("right", 45.0, 135.0)
REAR = Sector("rear", 135.0, 225.0)
LEFT = Sector("left", 225.0, 315.0)
ARC_SECTORS = (FRONT, RIGHT, REAR, LEFT)
ARCS = tuple(sector.name for sector in ARC_SECTORS)  # front, right, rear, left

PIPS_PER_DIE = 3  # R004.1

# --------------------------------------------------------------------------- T004.1 turn sequence

INITIATIVE, COMMAND, DAMAGE_CONTROL, ACTION, MOVEMENT = (
    "Initiative",
    "Command",
    "Damage Control",
    "Action",
    "Movement",
)
TURN_SEQUENCE = (
    (INITIATIVE, "R004.11", None),
    (COMMAND, "R004.15", "lowest-first"),  # orders lowest -> highest Initiative (R004.14)
    (DAMAGE_CONTROL, "R004.19", None),
    (ACTION, "R004.25", "highest-first"),  # fire highest -> lowest (R004.14)
    (MOVEMENT, "R004.50", "lowest-first"),  # move lowest -> highest (R004.14)
)

# --------------------------------------------------------------------------- R004.4 difficulties

DIFFICULTY_BANDS = (
    ("very-easy", 1, 5),
    ("easy", 6, 10),
    ("moderate", 11, 15),
    ("difficult", 16, 20),
    ("very-difficult", 21, 30),
    ("heroic", 31, None),
)


def difficulty_name(value: int) -> str:
    """R004.4: the Appendix A band holding a difficulty number."""
    for name, low, high in DIFFICULTY_BANDS:
        if value >= low and (high is None or value <= high):
            return name
    return "very-easy"


def named_difficulty(name: str) -> int:
    """R004.4 [interp]: a difficulty named without a number is the top of its band
    (Easy = 10, Moderate = 15); Heroic is 31 (A004.29)."""
    for band, low, high in DIFFICULTY_BANDS:
        if band == name:
            return high if high is not None else low
    known = ", ".join(band for band, _, _ in DIFFICULTY_BANDS)
    raise UserError(f"unknown difficulty {name!r}: expected one of {known}", spec_id="R004.4")


def succeeds(roll: int, difficulty: int, meet_or_beat: bool = True) -> bool:
    """R004.5: success iff roll >= difficulty, or iff roll > difficulty when a tie fails (a
    to-hit roll, A004.5: `options.tie_succeeds` says which)."""
    return roll >= difficulty if meet_or_beat else roll > difficulty


# --------------------------------------------------------------------------- T004.2 orders

STEADY, EVASIVE, FULL_EVASION = "steady", "evasive", "full-evasion"
ORDERS = (STEADY, EVASIVE, FULL_EVASION)


@dataclass(frozen=True, slots=True)
class Order:
    """T004.2: one order's incoming to-hit terms, its MAP, and whether the ship may fire."""

    name: str
    title: str
    fighter_title: str
    adds_ship_defence: bool
    difficulty_bonus: int
    map_dice: int  # MAP on subsequent actions (incl. the Damage Control roll)
    may_fire: bool


ORDER_TABLE = {
    STEADY: Order(STEADY, "Steady As She Goes", "Fly Casual", False, 0, 0, True),
    EVASIVE: Order(EVASIVE, "Evasive Action", "Evasive Action", True, 0, 1, True),
    FULL_EVASION: Order(FULL_EVASION, "Full Evasion", "Full Evasion", True, 10, 2, False),
}


def incoming_difficulty(range_difficulty: int, order: str, ship_defence: int) -> int:
    """R004.30 / T004.2: the to-hit Difficulty against a target under `order`."""
    entry = ORDER_TABLE[order]
    defence = ship_defence if entry.adds_ship_defence else 0
    return range_difficulty + defence + entry.difficulty_bonus


# --------------------------------------------------------------------------- T004.2a tracker


def command_tracker(margin: int) -> int:
    """R004.16 / T004.2a: Command margin -> tracker modifier in pips (one pip per full 3)."""
    return margin // 3 if margin >= 0 else -((-margin) // 3)


# --------------------------------------------------------------------------- T004.3 states

NONE, LIGHT, HEAVY, SEVERE, DESTROYED = "none", "light", "heavy", "severe", "destroyed"
CATASTROPHIC = "catastrophic"
LEVELS = (NONE, LIGHT, HEAVY, SEVERE, DESTROYED)
LEVEL_TITLES = {
    NONE: "Undamaged",
    LIGHT: "Lightly Damaged",
    HEAVY: "Heavily Damaged",
    SEVERE: "Severely Damaged",
    DESTROYED: "Destroyed",
    CATASTROPHIC: "Catastrophically Damaged",
}


def level_rank(level: str) -> int:
    return LEVELS.index(DESTROYED if level == CATASTROPHIC else level)


@dataclass(frozen=True, slots=True)
class DamageState:
    """T004.3: one row — crew penalty (dice), repair Difficulty, passenger damage (dice) and the
    crew-casualty penalties for large ships: (dice for 1 round, rest of battle, until replaced)."""

    level: str
    crew_penalty: int
    repair_difficulty: int | None
    passenger_damage: int
    casualties: tuple[int, int, int] | None


DAMAGE_STATES = {
    LIGHT: DamageState(LIGHT, 1, 10, 1, (1, 0, 0)),
    HEAVY: DamageState(HEAVY, 2, 20, 3, (3, 2, 1)),
    SEVERE: DamageState(SEVERE, 3, 30, 6, (6, 4, 2)),
    DESTROYED: DamageState(DESTROYED, 0, None, 12, None),
}
SHIELD_REPAIR_DIFFICULTY = 10  # per started 1D of shields (R004.22)


def crew_penalty_dice(level: str) -> int:
    """R004.18: Lightly -1D, Heavily -2D, Severely -3D on the crew skill die codes."""
    state = DAMAGE_STATES.get(level)
    return state.crew_penalty if state is not None else 0


def passenger_damage_dice(level: str) -> int:
    """R004.47: passenger damage baseline Light 1D, Heavy 3D, Severe 6D, Destroyed 12D."""
    state = DAMAGE_STATES.get(DESTROYED if level == CATASTROPHIC else level)
    return state.passenger_damage if state is not None else 0


def shield_units(pips: int) -> int:
    """A004.12: shield repair units are started dice, ceil(pips / 3) (3D+2 -> 4)."""
    return -(-max(pips, 0) // PIPS_PER_DIE)


def repair_difficulty(level: str | None, shield_pips: int) -> int:
    """R004.22 / T004.3: 10 per started 1D of shields plus 10/20/30 for the damage level."""
    total = SHIELD_REPAIR_DIFFICULTY * shield_units(shield_pips)
    if level is not None and level in DAMAGE_STATES and level != DESTROYED:
        total += DAMAGE_STATES[level].repair_difficulty or 0
    return total


# --------------------------------------------------------------------------- T004.4 DC outcome

REPAIRED, ONE_STEP, SHIELDS_1D, NO_CHANGE = "repaired", "one-step", "shields-1d", "no-change"


def damage_control_outcome(
    roll: int,
    difficulty: int,
    covers_damage: bool,
    covers_shields: bool,
    prefer: str = "damage",
    meet_or_beat: bool = True,
) -> str:
    """R004.23 / T004.4: full repair, one step (or 1D of shields, captain's choice), or nothing.

    Failing by exactly 10 still drops a level (A004.13).
    """
    if succeeds(roll, difficulty, meet_or_beat):
        return REPAIRED
    shortfall = difficulty - roll
    if shortfall > 10:
        return NO_CHANGE
    if covers_damage and (not covers_shields or prefer == "damage"):
        return ONE_STEP
    if covers_shields:
        return SHIELDS_1D
    return NO_CHANGE


def step_down(level: str) -> str:
    """One damage level less (Severe -> Heavy -> Light -> undamaged)."""
    if level in (NONE, DESTROYED, CATASTROPHIC):
        return level
    return LEVELS[LEVELS.index(level) - 1]


# --------------------------------------------------------------------------- T004.5 battery caps

POINT_BLANK, SHORT, MEDIUM, LONG = "point-blank", "short", "medium", "long"
RANGE_BANDS = (POINT_BLANK, SHORT, MEDIUM, LONG)
BATTERY_DAMAGE_REDUCTION = {POINT_BLANK: None, SHORT: 1, MEDIUM: 2, LONG: 3}  # dice


def battery_damage_cap(battery_pips: int, band: str, deck_limit_pips: int | None = None) -> int:
    """R004.31 / T004.5: most battery pips allocable to Damage at this range band.

    Point Blank: no cap; Short/Medium/Long: Battery - 1D/2D/3D, floor 0D; never more
    than the deck's Battery Dice Damage Allocation Limitation (A004.38: the minimum).
    """
    reduction = BATTERY_DAMAGE_REDUCTION[band]
    cap = battery_pips if reduction is None else max(0, battery_pips - PIPS_PER_DIE * reduction)
    if deck_limit_pips is not None:
        cap = min(cap, max(deck_limit_pips, 0))
    return cap


# --------------------------------------------------------------------------- T004.6 chart

NO_EFFECT, SHIELDS_DRAINED = "no-effect", "shields-drained"


def capital_damage_result(margin: int) -> str:
    """R004.35 / T004.6: damage margin -> result (no-effect, shields-drained, light, heavy,
    severe, destroyed)."""
    if margin < 0:
        return NO_EFFECT
    if margin <= 3:
        return SHIELDS_DRAINED
    if margin <= 8:
        return LIGHT
    if margin <= 12:
        return HEAVY
    if margin <= 15:
        return SEVERE
    return DESTROYED


# --------------------------------------------------------------------------- T004.7-T004.9 effects


@dataclass(frozen=True, slots=True)
class EffectEntry:
    """One row of an effect table: the 1D face, the effect code and its size.

    `dice` is a die-code loss in dice (maneuverability, shields, sensors, fire control,
    battery), `moves` a Lost Move count; `sub` lists (low, high, code, dice) rows of the
    re-roll the entry calls for.
    """

    face: int
    code: str
    dice: int = 0
    moves: int = 0
    sub: tuple[tuple[int, int, str, int], ...] = ()


MANEUVERABILITY = "maneuverability"
SENSORS_DAMAGED = "sensors-damaged"
SENSOR_SUITE = "sensor-suite"
FIRE_CONTROL = "fire-control"
WEAPONS_DAMAGED = "weapons-damaged"
WEAPONS_BADLY_DAMAGED = "weapons-badly-damaged"
WEAPONS_INOPERATIVE = "weapons-inoperative"
WEAPONS_DESTROYED = "weapons-destroyed"
HYPERDRIVE_DAMAGED = "hyperdrive-damaged"
SHIELDS_BLOWN = "shields-blown"
ENGINES_DAMAGED = "engines-damaged"
DEAD_IN_SPACE = "dead-in-space"
OVERLOADED_REACTOR = "overloaded-reactor"
DISABLED_HYPERDRIVE = "disabled-hyperdrive"
DISABLED_WEAPONS = "disabled-weapons"
WEAPONS_SEVERELY_DAMAGED = "weapons-severely-damaged"
ALL_WEAPONS_DESTROYED = "all-weapons-destroyed"
CONTROLS_DAMAGED = "controls-damaged"
SENSORS_DESTROYED = "sensors-destroyed"

LIGHT_EFFECTS = (
    EffectEntry(1, MANEUVERABILITY, dice=1, moves=1),
    EffectEntry(2, SENSORS_DAMAGED, sub=((1, 3, SENSOR_SUITE, 1), (4, 6, FIRE_CONTROL, 1))),
    EffectEntry(3, WEAPONS_DAMAGED, dice=1),
    EffectEntry(4, HYPERDRIVE_DAMAGED),
    EffectEntry(5, SHIELDS_BLOWN, dice=1),
    EffectEntry(6, ENGINES_DAMAGED, moves=1),
)
HEAVY_EFFECTS = (
    EffectEntry(1, MANEUVERABILITY, dice=2, moves=2),
    EffectEntry(2, SENSORS_DAMAGED, sub=((1, 3, SENSOR_SUITE, 2), (4, 6, FIRE_CONTROL, 2))),
    EffectEntry(
        3,
        WEAPONS_BADLY_DAMAGED,
        sub=((1, 3, WEAPONS_INOPERATIVE, 0), (4, 6, WEAPONS_DESTROYED, 0)),
    ),
    EffectEntry(4, HYPERDRIVE_DAMAGED),
    EffectEntry(5, SHIELDS_BLOWN, dice=2),
    EffectEntry(6, ENGINES_DAMAGED, moves=2),
)
SEVERE_EFFECTS = (
    EffectEntry(1, DEAD_IN_SPACE),
    EffectEntry(2, OVERLOADED_REACTOR),
    EffectEntry(3, DISABLED_HYPERDRIVE),
    EffectEntry(
        4,
        DISABLED_WEAPONS,
        sub=((1, 4, WEAPONS_SEVERELY_DAMAGED, 0), (5, 6, ALL_WEAPONS_DESTROYED, 0)),
    ),
    EffectEntry(5, CONTROLS_DAMAGED, dice=3),
    EffectEntry(6, SENSORS_DESTROYED, dice=4),
)
EFFECT_TABLES = {LIGHT: LIGHT_EFFECTS, HEAVY: HEAVY_EFFECTS, SEVERE: SEVERE_EFFECTS}
EFFECT_TABLE_IDS = {LIGHT: "T004.7", HEAVY: "T004.8", SEVERE: "T004.9"}


def effect_entry(level: str, face: int) -> EffectEntry:
    """R004.37: the row of the level's effect table for a 1D face."""
    return EFFECT_TABLES[level][face - 1]


def sub_effect(entry: EffectEntry, face: int) -> tuple[str, int]:
    """The (code, dice) of an entry's re-roll for a 1D face."""
    for low, high, code, dice in entry.sub:
        if low <= face <= high:
            return code, dice
    raise ValueError(f"face {face} outside the re-roll of {entry.code}")


# --------------------------------------------------------------------------- T004.10 catastrophic

STRUCTURAL_DAMAGE, BLAZING_HULK, EXPLODES = "structural-damage", "blazing-hulk", "explodes"


def catastrophic_result(face: int) -> str:
    """R004.49 / T004.10: 1-3 Structural Damage, 4-5 Blazing Hulk, 6 Destroyed."""
    if face <= 3:
        return STRUCTURAL_DAMAGE
    if face <= 5:
        return BLAZING_HULK
    return EXPLODES


# --------------------------------------------------------------------------- T004.11 escalation


def escalate(current: str, new: str) -> str:
    """R004.36 / T004.11: the damage level after a new damage-level result.

    Heavily + (Light or Heavy) -> Severely; Severely + any -> Destroyed; Lightly +
    Light -> Heavily (A004.16); otherwise the worse of the two.
    """
    if new not in (LIGHT, HEAVY, SEVERE, DESTROYED):
        return current
    if current in (DESTROYED, CATASTROPHIC):
        return current
    if current == SEVERE:
        return DESTROYED
    if current == HEAVY and new in (LIGHT, HEAVY):
        return SEVERE
    if current == LIGHT and new == LIGHT:
        return HEAVY
    return LEVELS[max(LEVELS.index(current), LEVELS.index(new))]


# --------------------------------------------------------------------------- T004.12 locations

LOCATIONS = ("manoeuvring", "sensors", "weapons", "hyperdrive", "shields", "engines")
LOCATION_PENALTY = 6  # A004.18: +6 to the Difficulty
LOCATION_FACES = {  # T004.12: the effect-table face each targeted system takes, per level
    "manoeuvring": {LIGHT: 1, HEAVY: 1, SEVERE: 5},
    "sensors": {LIGHT: 2, HEAVY: 2, SEVERE: 6},
    "weapons": {LIGHT: 3, HEAVY: 3, SEVERE: 4},
    "hyperdrive": {LIGHT: 4, HEAVY: 4, SEVERE: 3},
    "shields": {LIGHT: 5, HEAVY: 5, SEVERE: 2},
    "engines": {LIGHT: 6, HEAVY: 6, SEVERE: 1},
}


def location_face(location: str, level: str) -> int:
    """R004.32 / T004.12: the effect-table row a hit on a targeted system takes."""
    return LOCATION_FACES[location][level]


# --------------------------------------------------------------------------- T004.13 lost moves

SPEED_ORDER = ("stationary", "cautious", "cruising", "high", "all-out")


def lost_moves_limit(lost: int) -> str:
    """R004.45 / T004.13: the fastest speed a ship with `lost` Lost Moves may use."""
    if lost <= 0:
        return "all-out"
    if lost == 1:
        return "high"
    if lost == 2:
        return "cruising"
    if lost == 3:
        return "cautious"
    return "stationary"


def drives_destroyed(lost: int) -> bool:
    """T004.13: -5 Lost Moves or worse destroys the drives (not repairable in battle)."""
    return lost >= 5


# --------------------------------------------------------------------------- T004.14 speeds

SPEED_MULTIPLIERS = {  # [external] D6 REUP defaults; only All-Out is in the source
    "stationary": 0.0,
    "cautious": 0.5,
    "cruising": 1.0,
    "high": 2.0,
    "all-out": 4.0,
}
CAPITAL_MAX_TURN = {  # R004.51: degrees per turn (a Stationary ship comes about as at Cautious)
    "stationary": 90.0,
    "cautious": 90.0,
    "cruising": 45.0,
    "high": 45.0,
    "all-out": 45.0,
}


# --------------------------------------------------------------------------- T004.15 ionization


def ionization_dice(margin: int) -> int:
    """R004.43 / T004.15: an ion hit's margin (>= 0) -> Ionization dice, max(1, ceil(m / 4))."""
    return max(1, -(-margin // 4))


CONTROLS_DEAD_LIMIT = 4  # R004.44: more than 4D of active Ionization


def controls_dead_degree(total_dice: int) -> str | None:
    """R004.44 / T004.15b: the damage degree of Controls Dead, None at 4D or less."""
    if total_dice <= CONTROLS_DEAD_LIMIT:
        return None
    return {5: LIGHT, 6: HEAVY, 7: SEVERE}.get(total_dice, DESTROYED)


# --------------------------------------------------------------------------- T004.16 unit sizes

UNIT_SIZES = {  # name: (fighters, scale/strength modifier in pips)
    "single": (1, 0),
    "element": (2, 3),
    "section": (3, 5),
    "flight": (4, 6),
    "squadron": (12, 9),
}
FIGHTER_SCALE_PIPS = 18  # 6D


# --------------------------------------------------------------------------- T004.17 unit damage

DISRUPTED = "disrupted"
UNIT_LOSSES = (  # (highest margin, result, strength loss in dice)
    (3, DISRUPTED, 0),
    (8, "light-losses", 1),
    (12, "heavy-losses", 2),
    (15, "severe-losses", 3),
    (None, "catastrophic-losses", 4),
)


def unit_damage_result(margin: int) -> tuple[str, int]:
    """R004.55 / T004.17: margin -> (result, Unit Strength loss in dice); (no-effect, 0) if < 0."""
    if margin < 0:
        return NO_EFFECT, 0
    for high, result, loss in UNIT_LOSSES:
        if high is None or margin <= high:
            return result, loss
    raise AssertionError("unreachable")


EFFECTIVE, COMBAT_INEFFECTIVE, WIPED_OUT = "effective", "combat-ineffective", "wiped-out"


def unit_strength_state(strength_pips: int) -> str:
    """R004.56: above 0 pips effective; 0 or less but above -1D Combat Ineffective;
    -1D or less Wiped Out (A004.27: 0D+2 is still effective)."""
    if strength_pips > 0:
        return EFFECTIVE
    if strength_pips > -PIPS_PER_DIE:
        return COMBAT_INEFFECTIVE
    return WIPED_OUT


# --------------------------------------------------------------------------- T004.18 command


def command_difficulty(crew: int) -> int:
    """R004.15 / T004.18: Command Difficulty by crew size including gunners (closed form)."""
    if crew < 1:
        raise UserError(f"a crew of {crew}: expected at least 1", spec_id="T004.18")
    if crew < 100:
        return 1 + crew // 20
    if crew < 1_000:
        return 6 + (crew - 100) // 180
    if crew < 10_000:
        return 11 + (crew - 1_000) // 1_800
    if crew < 100_000:
        return 16 + (crew - 10_000) // 18_000
    if crew < 1_000_000:
        return 21 + (crew - 100_000) // 90_000
    return 31


# --------------------------------------------------------------------------- T004.19 / T004.20

RANGE_DIFFICULTY_DEFAULTS = {POINT_BLANK: 5, SHORT: 10, MEDIUM: 15, LONG: 20}


def max_repair_actions(current_cso_pips: int) -> int:
    """R004.20 / T004.20 / A004.10: one additional repair action per full 1D of current CSO."""
    return max(current_cso_pips, 0) // PIPS_PER_DIE


def damage_control_map(extra_actions: int) -> int:
    """R004.21 / T004.20: Action-Phase MAP in dice after Damage Control with `a` extra actions."""
    return 1 + extra_actions
