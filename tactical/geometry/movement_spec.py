"""Turning rules as data: what a rule system tells the movement code (GEO002.8, R004.51).

A rule system turns a unit, its stats and the activation's choices (boost
rolls, declared speed) into one `TurningRules` value; `tactical.geometry.movement`
checks a path against it without knowing which rule system it came from. Each
limit carries the SPEC id that a violation of it cites.
"""

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
class Note:
    """Something a move implies that is not a violation, e.g. R004.39 "no fire after All-Out"."""

    rule: str
    message: str


@dataclass(frozen=True, slots=True)
class TurningRules:
    """How one unit may move this activation.

    Angles in degrees, distances in inches. `None` means no limit. The `*_rule`
    fields are the SPEC ids a violation of the matching limit cites.
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
    # Radius of the flight stand where it differs from the base; 0 means the base is the stand.
    stand_length: float = 0.0
    # Rotation about the centre (`C` steps): None = an ordinary turn; a number = only allowed as
    # the whole move, up to that many degrees (R002.32 disengaging: 90).
    disengage_rotation: float | None = None
    # A unit whose base leaves the table is lost (R002.59, flying wings) rather than stopped
    # by an illegal move.
    lost_off_board: bool = False
    treacherous_fails_on: int = 1  # Treacherous Terrain Test (external): 1D6, fails on <= this
    notes: tuple[Note, ...] = ()  # reported with every plan of this unit's move
    step_turn_rule: str = "GEO002.8"
    move_turn_rule: str = "R004.51"
    distance_rule: str = "GEO002.8"
    min_move_rule: str = "R002.30"
    min_total_rule: str = "R002.48"
    backwards_rule: str = "R002.31"
    disengage_rule: str = "R002.32"
    snaking_rule: str = "R002.34"
    off_board_rule: str = "R002.59"
