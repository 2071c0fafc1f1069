"""Revised Rules for Heavy Combat (seed 001): the tables T001.1-T001.8 and the arithmetic rules.

Everything here is data or a pure function of plain numbers: facings and their
adjacency (GEO001.2/GEO001.3), rounding (R001.2), power conversion (R001.6),
range multipliers (R001.7), to-hit thresholds (T001.2), the charts
(T001.3-T001.7), weapon arcs (T001.8) and the dice the charts are rolled with.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import product
from types import MappingProxyType
from typing import Final

from tactical.dice import D6, D10, Die

# --------------------------------------------------------------------------- facings

FORE, AFT, PORT, STARBOARD, DORSAL, VENTRAL = (
    "fore",
    "aft",
    "port",
    "starboard",
    "dorsal",
    "ventral",
)
# T001.4 order: the direction table numbers the facings 1-6 in this order
FACINGS: Final = (FORE, AFT, PORT, STARBOARD, DORSAL, VENTRAL)
IN_PLANE: Final = (FORE, STARBOARD, AFT, PORT)
ELEVATIONS: Final = ("level", DORSAL, VENTRAL)
OPPOSITE: Final = MappingProxyType(
    {FORE: AFT, AFT: FORE, PORT: STARBOARD, STARBOARD: PORT, DORSAL: VENTRAL, VENTRAL: DORSAL}
)
# GEO001.7: the relative bearing at the middle of each in-plane facing's quadrant
FACING_BEARING: Final = MappingProxyType({FORE: 0.0, STARBOARD: 90.0, AFT: 180.0, PORT: 270.0})


def adjacent(a: str, b: str) -> bool:
    """GEO001.3: two facings one 90° step apart (every facing but itself and its opposite)."""
    return a != b and OPPOSITE[a] != b


def facing_steps(a: str, b: str) -> int:
    """GEO001.3: 90° steps between two facings: 0, 1 (adjacent) or 2 (opposite)."""
    if a == b:
        return 0
    return 2 if OPPOSITE[a] == b else 1


def between(a: str, b: str) -> tuple[str, ...]:
    """The facings a two-step rotation from `a` to its opposite `b` may pass through
    (dorsal and ventral first: a roll, as in X001.1)."""
    if OPPOSITE[a] != b:
        return ()
    order = (DORSAL, VENTRAL, FORE, AFT, PORT, STARBOARD)
    return tuple(f for f in order if adjacent(a, f) and adjacent(f, b))


# --------------------------------------------------------------------------- R001.2 rounding


def round_half_up(value: Fraction | int) -> int:
    """R001.2 / A001.5: to the nearest integer, .5 up (17.25 -> 17, 16.5 -> 17)."""
    exact = value if type(value) is Fraction else Fraction(value)
    # floor(n/d + 1/2) in integers: the same number without adding Fractions
    return (2 * exact.numerator + exact.denominator) // (2 * exact.denominator)


def split(damage: int) -> tuple[int, int]:
    """R001.2: an integer split in two: the first part ceil(D/2), the second floor(D/2)."""
    return damage - damage // 2, damage // 2


def halve(damage: int) -> int:
    """R001.22: the half of directed-energy damage that reaches the target (R001.2)."""
    return round_half_up(Fraction(damage, 2))


def backlash(raw: int) -> int:
    """R001.17 / A001.8: a photon fired at range 1 costs the firer 1/4 of the raw damage."""
    return round_half_up(Fraction(raw, 4))


@lru_cache(maxsize=256)
def catastrophic_threshold(internals: int) -> int:
    """R001.35: round(3/4 x internals), R001.2 rounding (Fed CA 23 -> 17.25 -> 17)."""
    return round_half_up(Fraction(3 * internals, 4))


def converted_points(power: int) -> tuple[int, int]:
    """R001.6: power spent on reinforcement or countermeasures -> (points, wasted power)."""
    return power // 2, power % 2


# --------------------------------------------------------------------------- T001.1 costs

PHASER_POINT_COST: Final = 1  # p points -> base damage p
COSTS: Final = MappingProxyType(
    {
        "photon": 1,
        "disruptors": 1,
        "cloak": 1,
        "close": 1,
        "retreat": 1,
        "lateral": 2,
        "reinforce": 2,  # per reinforcement point
        "countermeasures": 2,  # per countermeasure point
        "flash_detect": 10,
        "repair": 1,  # per repair point: repair points are power points (R001.36)
        "rotate": 0,  # [derived] from X001.1
    }
)
REPAIR_LIMIT: Final = 2  # points a turn (R001.36)
REPAIR_LIMIT_WARP_LOST: Final = 1  # R001.13
REPAIR_POINTS_PER_SYSTEM: Final = 3  # A001.14
MAX_CLOAK_TURNS: Final = 10  # R001.29
TORPEDO_MAGAZINE_CA: Final = 20  # R001.17
PHOTON_INTERVAL: Final = 2  # fired in t -> next in t + 2 (R001.17)
DISRUPTOR_INTERVAL: Final = 3  # fired in t -> next in t + 3 (R001.19)
LATERAL_INTERVAL: Final = 2  # R001.10
ROTATION_TURNS_PER_STEP: Final = 2  # R001.11
HALF_IMPULSE_FACTOR: Final = 2  # R001.12 / A001.26

# --------------------------------------------------------------------------- T001.2 range

RANGES: Final = (1, 2, 3)
MAX_RANGE: Final = 3  # R001.21
RANGE_NAMES: Final = MappingProxyType({1: "Close", 2: "Medium", 3: "Max"})
PHOTON_TO_HIT: Final = MappingProxyType({1: None, 2: None, 3: 3})  # None: always hits
DISRUPTOR_TO_HIT: Final = MappingProxyType({1: None, 2: None, 3: 2})  # range 1: A001.7
SENSORS_HALF_TO_HIT_MAX: Final = 3  # R001.31: 1d6 in 1-3


def multiplier(range_band: int) -> int:
    """R001.7: M(r) = 4 - r (Close x3, Medium x2, Max x1)."""
    if range_band not in RANGES:
        raise ValueError(f"range band {range_band} is not 1, 2 or 3")
    return 4 - range_band


def hits_at_least(roll: int, needed: int | None) -> bool:
    """T001.2: a to-hit roll succeeds at `needed` or more; None means it always hits."""
    return needed is None or roll >= needed


# --------------------------------------------------------------------------- T001.3 specific


def _sum_die(name: str, count: int, faces: tuple[int, ...]) -> Die:
    """`count` dice summed, as one die whose equally likely faces are every ordered total."""
    return Die(name, tuple(sorted(sum(t) for t in product(faces, repeat=count))))


TWO_D6: Final = _sum_die("2d6", 2, D6.values)
SPECIFIC_CHART: Final = MappingProxyType(
    {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 7, 9: 8, 10: 9, 11: 10, 12: None}
)
SPECIFIC_SUCCESS: Final = 1  # R001.37 / A001.9: the system is hit on a result of 1
SPECIFIC_DICE: Final = MappingProxyType({"d10": D10, "2d6": TWO_D6})


def specific_result(die_name: str, roll: int) -> int | None:
    """R001.37: the 1-10 result of a specific-system roll; None means reroll (2d6: 12)."""
    if die_name == "d10":
        return roll
    return SPECIFIC_CHART[roll]


# --------------------------------------------------------------------------- T001.4 direction

DIRECTION_TABLE: Final = MappingProxyType(dict(zip(range(1, 7), FACINGS, strict=True)))

# --------------------------------------------------------------------------- T001.5/6 charts

BRIDGE, SENSORS, WEAPONS, IMPULSE, BATTERIES, WARP = (
    "bridge",
    "sensors",
    "weapons",
    "impulse",
    "batteries",
    "warp",
)
CATEGORIES: Final = (BRIDGE, SENSORS, WEAPONS, IMPULSE, BATTERIES, WARP)  # chart rolls 1-6
CHARTS: Final = MappingProxyType(
    {
        "federation": MappingProxyType(
            {
                1: "Fire Control / Bridge / Auxiliary Bridge",
                2: "Sensors",
                3: "Phasers / Photons",
                4: "Impulse",
                5: "Batteries",
                6: "Warp Core",
            }
        ),
        "klingon": MappingProxyType(
            {
                1: "Fire Control / Bridge / Auxiliary Bridge",
                2: "Sensors",
                3: "Armor / Cloak / Disruptors / Photons",
                4: "Impulse",
                5: "Batteries",
                6: "Warp",
            }
        ),
    }
)


def chart_category(roll: int) -> str:
    """T001.5/T001.6: the chart row a 1d6 roll names, as the category key."""
    return CATEGORIES[roll - 1]


# --------------------------------------------------------------------------- T001.7


CATASTROPHIC_TABLE: Final = MappingProxyType({1: 6, 2: 5, 3: 4, 4: 3, 5: 2, 6: 1})


def catastrophic_losses(roll: int) -> int:
    """T001.7: additional internals lost = 7 - roll."""
    return CATASTROPHIC_TABLE[roll]


# --------------------------------------------------------------------------- T001.8 arcs

PHASER_ARCS: Final = frozenset(FACINGS)
FORWARD_LAUNCHER_ARCS: Final = frozenset({FORE, DORSAL, VENTRAL})  # A001.17
AFT_LAUNCHER_ARCS: Final = frozenset({AFT, DORSAL, VENTRAL})
KLINGON_DISRUPTOR_ARCS: Final = frozenset({FORE, DORSAL, VENTRAL})


def launcher_arcs(launcher: int) -> frozenset[str]:
    """R001.18: launcher 1 (and every odd one) covers the forward arcs, 2 (every even) the aft."""
    return FORWARD_LAUNCHER_ARCS if launcher % 2 == 1 else AFT_LAUNCHER_ARCS


# --------------------------------------------------------------------------- dice


def rerolled(die: Die, allowed: frozenset[int]) -> Die:
    """The die a reroll is made with (R001.34 destroyed systems, T001.3 a 12): the whole
    die, rolled again while it shows a value outside `allowed` (G.1: each reroll consumes
    the next result, so a scripted or recorded sequence that rolls a destroyed category
    twice in a row replays; X001.9: 12 then 7; X001.10: 2 then 4). In distribution it is
    one roll among the allowed faces, each keeping its multiplicity: what exact odds use."""
    return Die(
        f"{die.name} reroll",
        die.values,
        reroll=frozenset(v for v in die.values if v not in allowed),
    )


def damage_die(name: str) -> Die:
    """A001.6 (configurable): the tracking weapons' damage roll, 1d6 or 2d6."""
    return D6 if name == "1d6" else TWO_D6
