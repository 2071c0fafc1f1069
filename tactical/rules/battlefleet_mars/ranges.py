"""Battlefleet Mars range on the table (GEO000.1): centre to centre, in whole range units
(`tables.range_units` for the rounding), one pair at a time or every pair at once, and the
range a unit's fire reaches (R000.6) as the rule system's range bands."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from tactical.model import FrozenMap, Unit
from tactical.rules.base import with_defaults
from tactical.rules.battlefleet_mars.tables import max_range, range_units, range_units_array
from tactical.rules.battlefleet_mars.units import OPTION_FIELDS, profile


@dataclass(frozen=True, slots=True)
class RangeFacts:
    """GEO000.1: centre-to-centre distance (inches) and the integer range R."""

    distance: float
    range: int
    unit_inches: float
    rounding: str


def measure(attacker: Unit, target: Unit, options: Mapping[str, Any]) -> RangeFacts:
    """Range between two units on the table: centre to centre, in range units (GEO000.1)."""
    distance = math.hypot(target.x - attacker.x, target.y - attacker.y)
    unit_inches = float(options["range_unit_inches"])
    rounding = str(options["range_rounding"])
    return RangeFacts(distance, range_units(distance, unit_inches, rounding), unit_inches, rounding)


def range_matrix(units: tuple[Unit, ...], options: Mapping[str, Any]) -> np.ndarray:
    """Integer ranges R between every pair of units (vectorised `measure`)."""
    xy = np.array([(u.x, u.y) for u in units]).reshape(len(units), 2)
    delta = xy[:, None, :] - xy[None, :, :]
    scaled = np.hypot(delta[..., 0], delta[..., 1]) / float(options["range_unit_inches"])
    rounding = options["range_rounding"]
    if rounding == "floor":
        ranges = np.floor(scaled + 1e-9)
    elif rounding == "ceil":
        ranges = np.maximum(np.ceil(scaled - 1e-9), 0)
    else:
        ranges = np.floor(scaled + 0.5 + 1e-9)
    return ranges.astype(np.int64)


def range_band(unit: Unit, distance: float, options: Mapping[str, Any]) -> str | None:
    """`RuleSystem.range_band`: `R<n>`, the integer range (GEO000.1), None beyond the unit's
    laser reach (R000.6)."""
    unit_inches, rounding = _range_settings(options)
    reach = range_units(distance, unit_inches, rounding)
    card = profile(unit)
    if card.has_lasers and reach > max_range(card.laser_strength or 0):
        return None
    return f"R{reach}"


def _range_settings(options: Mapping[str, Any]) -> tuple[float, str]:
    """GEO000.1: the range unit (inches) and the rounding the options set, read once per
    options value (the computer players ask a band for every candidate place)."""
    if isinstance(options, FrozenMap):
        return _frozen_range_settings(options)
    settings = with_defaults(OPTION_FIELDS, options)
    return float(settings["range_unit_inches"]), str(settings["range_rounding"])


@lru_cache(maxsize=64)
def _frozen_range_settings(options: FrozenMap) -> tuple[float, str]:
    settings = with_defaults(OPTION_FIELDS, options)
    return float(settings["range_unit_inches"]), str(settings["range_rounding"])


def range_band_indices(
    unit: Unit, distances: np.ndarray, options: Mapping[str, Any]
) -> tuple[tuple[str | None, ...], np.ndarray]:
    """`range_band` of many distances at once: `R0` .. `R<n>` and None, as far as the
    unit's laser reach (R000.6) or its farthest distance (GEO000.1)."""
    settings = with_defaults(OPTION_FIELDS, options)
    reach = range_units_array(
        distances, float(settings["range_unit_inches"]), str(settings["range_rounding"])
    )
    card = profile(unit)
    if card.has_lasers:
        last = max_range(card.laser_strength or 0)
        reach = np.where(reach > last, last + 1, reach)  # past the reach: None
    else:
        last = int(reach.max()) if len(reach) else 0
    return (*(f"R{k}" for k in range(last + 1)), None), reach
