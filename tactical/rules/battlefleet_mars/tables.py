"""Battlefleet Mars (seed 000): the numbers — formulas, tables T000.1-T000.6, range on the table.

Pure functions of integers; the resolvers in `combat` roll the dice and cite
these. Every die here is 1D10 read 0-9 (R000.1).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Literal

import numpy as np

from tactical.errors import UserError

NO_EFFECT = "-"
MAX_DIE = 9  # 1D10 read 0-9 (R000.1)

Column = Literal["ship", "base"]

# T000.2: damage total -> result, for totals -2..10 (11+ is D, below -2 is "-": A000.5)
DAMAGE_V_SHIP: dict[int, str] = {
    -2: NO_EFFECT,
    -1: "B1",
    0: "L1",
    1: "B1",
    2: "L1",
    3: "iL",
    4: "R",
    5: "L2",
    6: "B2",
    7: "L3",
    8: "B3",
    9: "L4",
    10: "B4",
}
DAMAGE_V_BASE: dict[int, str] = {
    -2: NO_EFFECT,
    -1: NO_EFFECT,
    0: NO_EFFECT,
    1: "L1",
    2: "L1",
    3: "iL",
    4: "R",
    5: "L1",
    6: "L2",
    7: "L2",
    8: "L3",
    9: "L3",
    10: "L4",
}
DESTROYED_RESULT = "D"
RESULT_CODES = (NO_EFFECT, "B1", "B2", "B3", "B4", "L1", "L2", "L3", "L4", "iL", "R", "D")

FIGHTER_KILLERS = frozenset({"iL", "R", "D"})  # R000.10
MISSILE_KILLERS = frozenset({"L1", "L2", "L3", "L4", "iL", "R", "D"})  # R000.11, A000.12

# T000.5 in plain words, by target type: a fighter dies to iL, R and D (R000.10), a missile
# to any L too (R000.11, A000.12); against a ship or base L1-L4 lower its laser strength
# (A000.11), and every code counts damage points toward the game's end (A000.E1: a B or L
# its number, iL 2, R 3; D cripples)
GROUP_CODES = ("B1–B4", "L1–L4", "iL", "R", "D")
SHIP_MEANING = {
    NO_EFFECT: "no effect",
    "B1–B4": "1–4 damage points",
    "L1–L4": "laser strength down 1–4",
    "iL": "2 damage points",
    "R": "3 damage points",
    "D": "crippled (counts as lost)",
}


def code_group(code: str) -> str:
    """The key's entry a result code falls under ("B2" -> "B1–B4")."""
    if code[:1] in ("B", "L") and code[1:].isdigit():
        return f"{code[0]}1–{code[0]}4"
    return code


def code_meaning(code: str, against: str) -> str:
    """What a result code (or its group, "L1–L4") does to a target of type `against`
    ("fighter", "missile", else a ship or base), in plain words (T000.5)."""
    group = code_group(code)
    if against == "fighter":
        return "destroyed" if group in FIGHTER_KILLERS else "no effect"
    if against == "missile":
        return "destroyed" if group in MISSILE_KILLERS or group == "L1–L4" else "no effect"
    return SHIP_MEANING.get(group, "no effect")


RESULT_KEY = (
    *(
        (
            group,
            f"ship or base: {code_meaning(group, 'ship')}; fighter: "
            f"{code_meaning(group, 'fighter')}; missile: {code_meaning(group, 'missile')}",
        )
        for group in GROUP_CODES
    ),
    (NO_EFFECT, "no effect on anything"),
)

FIGHTERS_PER_LP = 3  # T000.6
MISSILES_PER_LP = 6


def half_up(laser_strength: int) -> int:
    """ceil(LS / 2) (R000.4: "round UP")."""
    return -(-laser_strength // 2)


def laser_hits(roll: int, range_units: int, laser_strength: int) -> bool:
    """R000.4: a laser hits iff d > R - ceil(LS/2)."""
    return roll > range_units - half_up(laser_strength)


def to_hit_threshold(range_units: int, laser_strength: int) -> int | None:
    """R000.5 / T000.1: the minimum 0-9 score N = max(0, R - ceil(LS/2) + 1); None if N >= 10."""
    needed = max(0, range_units - half_up(laser_strength) + 1)
    return needed if needed <= MAX_DIE else None


def max_range(laser_strength: int) -> int:
    """R000.6 / T000.4: the last range a laser of strength LS can hit at, ceil(LS/2) + 8."""
    return half_up(laser_strength) + 8


def range_bracket(range_units: int) -> int:
    """GEO000.2: floor(R / 3), the range term of laser damage."""
    return range_units // 3


def laser_damage_total(roll: int, laser_strength: int, range_units: int) -> int:
    """R000.8: T = d2 + LS_firer - floor(R/3)."""
    return roll + laser_strength - range_bracket(range_units)


def missile_damage_total(roll: int) -> int:
    """R000.13: T = d + 1 (range ignored, launcher's LS not used, A000.9)."""
    return roll + 1


def damage_result(total: int, column: Column) -> str:
    """R000.9 / T000.2: the result code for a damage total in the target's column."""
    if total >= 11:
        return DESTROYED_RESULT
    if total < -2:
        return NO_EFFECT  # A000.5: unreachable for a hitting laser, defined anyway
    return (DAMAGE_V_BASE if column == "base" else DAMAGE_V_SHIP)[total]


def destroys(result: str, target_kind: str) -> bool | None:
    """T000.5: whether a result destroys a fighter (R000.10) or a missile (R000.11).

    None for ships and bases: their codes go to the base game unchanged (R000.12).
    """
    if target_kind == "fighter":
        return result in FIGHTER_KILLERS
    if target_kind == "missile":
        return result in MISSILE_KILLERS
    return None


LASER_RESULTS = ("L1", "L2", "L3", "L4")


def laser_loss(result: str) -> int:
    """A000.11: the laser strength an L1-L4 result takes from a ship or base (0 otherwise)."""
    return int(result[1:]) if result in LASER_RESULTS else 0


def lowered_strength(laser_strength: int, results: tuple[str, ...]) -> int:
    """A000.11: the current laser strength after `results`, never below 0."""
    return max(0, laser_strength - sum(laser_loss(result) for result in results))


def ciws_strength(laser_strength: int) -> int:
    """R000.20 (5.2a): CS = the target's current LS, never below 0."""
    return max(0, laser_strength)


def ciws_threshold(ciws: int, missile_index: int) -> int:
    """R000.22 / T000.3: the k-th declared missile is destroyed on d <= max(0, CS + 3 - (k-1))."""
    if missile_index < 1:
        raise ValueError("missiles are counted from 1 (R000.23)")
    return max(0, ciws + 3 - (missile_index - 1))


def ciws_destroys(roll: int, ciws: int, missile_index: int) -> bool:
    """R000.22: any CIWS hit destroys the missile; a threshold of 0 still kills on 0 (A000.6)."""
    return roll <= ciws_threshold(ciws, missile_index)


def launch_limit(launch_capacity: int) -> int:
    """R000.17: a ship or base may launch up to twice its launch capacity in missiles a turn."""
    return 2 * launch_capacity


# --------------------------------------------------------------------------- range on the table

Rounding = Literal["floor", "ceil", "nearest"]
ROUNDINGS: tuple[str, ...] = ("floor", "ceil", "nearest")
_EPSILON = 1e-9


def range_units(distance: float, unit_inches: float = 1.0, rounding: str = "floor") -> int:
    """GEO000.1: the integer range R for a centre-to-centre distance in inches.

    The source counts range on the BFM tactical display and does not define
    the metric; our reading (option `range_rounding`, default "floor") counts
    whole range units between the centres, so a target closer than one unit is
    at range 0 like a counter in the same display box, and an integer number
    of units is exactly that range. "ceil" counts every unit entered; "nearest"
    rounds halves up. A 1e-9 tolerance absorbs float noise at whole units.
    """
    if distance < 0 or unit_inches <= 0:
        raise ValueError("distance must be >= 0 and the range unit > 0")
    units = distance / unit_inches
    if rounding == "floor":
        return math.floor(units + _EPSILON)
    if rounding == "ceil":
        return max(0, math.ceil(units - _EPSILON))
    if rounding == "nearest":
        return math.floor(units + 0.5 + _EPSILON)
    raise ValueError(f"unknown range rounding {rounding!r}: expected one of {ROUNDINGS}")


def range_units_array(
    distances: np.ndarray, unit_inches: float = 1.0, rounding: str = "floor"
) -> np.ndarray:
    """`range_units` of many distances at once (the same arithmetic, element by element,
    so the same integers)."""
    distances = np.asarray(distances, dtype=float)
    if (distances < 0).any() or unit_inches <= 0:
        raise ValueError("distance must be >= 0 and the range unit > 0")
    units = distances / unit_inches
    if rounding == "floor":
        found = np.floor(units + _EPSILON)
    elif rounding == "ceil":
        found = np.maximum(0.0, np.ceil(units - _EPSILON))
    elif rounding == "nearest":
        found = np.floor(units + 0.5 + _EPSILON)
    else:
        raise ValueError(f"unknown range rounding {rounding!r}: expected one of {ROUNDINGS}")
    return found.astype(np.int64)


# --------------------------------------------------------------------------- logistics


def lp_cost(fighters: int, missiles: int, granularity: str = "whole") -> Fraction:
    """R000.15 / T000.6: LP to buy `fighters` and `missiles`.

    "whole" (A000.10, adopted): whole LP, one kind per LP, ceil(f/3) + ceil(m/6).
    "fractional": f/3 + m/6.
    """
    if fighters < 0 or missiles < 0:
        raise UserError("cannot buy a negative number of fighters or missiles", spec_id="R000.15")
    if granularity == "whole":
        return Fraction(-(-fighters // FIGHTERS_PER_LP) + -(-missiles // MISSILES_PER_LP))
    if granularity == "fractional":
        return Fraction(fighters, FIGHTERS_PER_LP) + Fraction(missiles, MISSILES_PER_LP)
    raise ValueError(f"unknown LP granularity {granularity!r}")


def budget_problems(limit: int, fighter_missile_lp: Fraction, other_lp: Fraction) -> list[str]:
    """R000.16: fighters/missiles and everything else are two budgets, each <= the limit L.

    Returns the reasons the spending is illegal (empty when legal).
    """
    problems = []
    if fighter_missile_lp > limit:
        problems.append(
            f"{_lp(fighter_missile_lp)} LP on fighters and missiles exceeds the limit of {limit} LP"
        )
    if other_lp > limit:
        problems.append(f"{_lp(other_lp)} LP on other things exceeds the limit of {limit} LP")
    return problems


def _lp(value: Fraction) -> str:
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"
