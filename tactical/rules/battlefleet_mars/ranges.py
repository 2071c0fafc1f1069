"""Battlefleet Mars range on the table (GEO000.1): centre to centre, in whole range units
(`tables.range_units` for the rounding), one pair at a time or every pair at once."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from tactical.model import Unit
from tactical.rules.battlefleet_mars.tables import range_units


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
