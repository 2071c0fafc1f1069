"""Star Wars D6 capital ship movement: speeds from Space, turn limits (R004.39, R004.50, R004.51,
T004.14, GEO004.5).

A ship moves up to its speed, `Space x multiplier` Space units of
`inches_per_space` inches each (T004.14: Cautious ½, Cruising 1, High 2,
All-Out 4; a Stationary ship does not move). It turns about its centre (there
is no template) by at most 90° in all at Cautious speed and 45° at any other;
starfighters turn freely. A ship that moves All-Out may not fire this turn
(R004.39), which every plan of its move reports.

The declared speed is the unit's `speed` stat, or `{"speed": name}` under the
options key `"activation"` for this move. Reading adopted where T004.14 is
silent: a Stationary ship may still come about like one at Cautious speed
(90°), without moving. Leaving the table is not allowed (GEO004.1: positions
are on the table).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tactical.errors import UserError
from tactical.geometry.movement_spec import Note, Pivot, TurningRules
from tactical.model import Unit

SPEED_MULTIPLIERS = {
    "stationary": 0.0,
    "cautious": 0.5,
    "cruising": 1.0,
    "high": 2.0,
    "all-out": 4.0,
}
SLOW_SPEEDS = ("stationary", "cautious")
SLOW_TURN = 90.0  # R004.51 at Cautious speed
FAST_TURN = 45.0  # R004.51 at any other speed
ALL_OUT_NOTE = Note("R004.39", "moved All-Out: this ship may not fire in this turn's Action Phase")


def declared_speed(unit: Unit, options: Mapping[str, Any]) -> str:
    """The speed for this move: the activation's choice, else the unit's `speed` stat."""
    activation = options.get("activation") or {}
    speed = activation.get("speed") or unit.stats.get("speed", "cruising")
    if speed not in SPEED_MULTIPLIERS:
        raise UserError(
            f"unknown speed {speed!r}: expected one of " + ", ".join(SPEED_MULTIPLIERS),
            spec_id="R004.50",
        )
    return str(speed)


def turning_rules(unit: Unit, options: Mapping[str, Any]) -> TurningRules:
    """How a ship may move this turn at its declared speed (see the module doc)."""
    speed = declared_speed(unit, options)
    inches_per_space = float(options.get("inches_per_space", 1.0))
    space = float(unit.stats.get("space", 4))
    fighter = unit.stats.get("scale", "capital") == "starfighter"
    turn_limit = None if fighter else (SLOW_TURN if speed in SLOW_SPEEDS else FAST_TURN)
    return TurningRules(
        pivot=Pivot.CENTRE,
        max_turn_per_move=turn_limit,
        max_distance=space * SPEED_MULTIPLIERS[speed] * inches_per_space,
        notes=(ALL_OUT_NOTE,) if speed == "all-out" else (),
        distance_rule="R004.50",
        move_turn_rule="R004.51",
        off_board_rule="GEO004.1",
    )
