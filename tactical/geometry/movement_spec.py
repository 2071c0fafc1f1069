"""Turning rules as data: what a rule system tells the movement code (GEO002.8, R004.51)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Pivot(StrEnum):
    """Where a template turn pivots (R002.11-R002.13)."""

    SIDE_CENTRE = "side-centre"  # naval: mid-length point of the side turned toward
    FRONT_CORNER = "front-corner"  # armoured: front corner of the base on that side
    STAND_FRONT = "stand-front"  # aerial: front of the flight stand on that side
    CENTRE = "centre"  # space / free turning: rotate about the centre


@dataclass(frozen=True, slots=True)
class TurningRules:
    """How one unit may move this activation.

    Angles in degrees, distances in inches. `None` means no limit.
    """

    pivot: Pivot = Pivot.CENTRE
    max_turn_per_step: float | None = None  # the turning template's angle (45 in DW)
    max_turn_per_move: float | None = None  # total heading change allowed in one move (SW D6)
    max_distance: float | None = None  # the unit's movement this activation
    min_straight_before_turn: float = 0.0  # R002.30 Minimum Move
    min_total_distance: float = 0.0  # at least this far in all (R002.45, R002.48)
    max_backwards: float | None = None  # R002.31: 2"
    allow_backwards: bool = True
    snaking_straight: float | None = None  # R002.34: 1" straight between turns of opposite side
    stand_length: float = 0.0  # aerial flight stand: distance from centre to its front
