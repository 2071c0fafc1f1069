"""Dystopian Wars movement: turning template, minimum move, boosts, collisions (R002.11-R002.13,
R002.30-R002.35, R002.45, R002.48, R002.59, T002.12).

The activation's choices reach `turning_rules` through the options mapping
under the key `"activation"` (the map's options are never changed):

- `{"kinetic": r}` — the Kinetic Generator roll r (1-6) made before moving (R002.48):
  +r" Movement and +r" Minimum Move, and at least `max(MinMove + r, half(Mv + r))`
  in all;
- `{"tesla": r}` — the Tesla Generator roll r (1-3, R002.45): +r" Movement and at
  least `half(Mv + r)` in all;
- `{"tesla": r, "kinetic": s}` — both (R002.48 forbids only a second Kinetic
  Generator): +r+s" Movement, +s" Minimum Move, at least
  `max(MinMove + s, half(Mv + r + s))` in all (option `tesla_with_kinetic`; false
  plays the earlier reading, one boost only).

Half is exact (A002.9 as revised: Mv 11 needs 5.5"); the `half_rounding` option rounds
it up or down. A unit boosts only with that generator in its `generators` stat.

Leaving the table (R002.59): only a Tiny Flyer Wing is Lost (`lost_off_board`); any
other model's move off the table is refused. Option `lost_off_table = "flying"` plays
the earlier reading: every flying model is lost.

The Treacherous Terrain Test is a base-game roll (external, G.5): here 1D6, failed on
a 1.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from tactical.errors import UserError
from tactical.geometry.movement_spec import Pivot, TurningRules
from tactical.model import MovementClass, SizeClass, Terrain, Unit

TEMPLATE_ANGLE = 45.0  # the 45° Turning Template (R002.34, GEO002.8)
BACKWARDS_LIMIT = 2.0  # R002.31
DISENGAGE_ANGLE = 90.0  # R002.32
SNAKING_STRAIGHT = 1.0  # R002.34
TREACHEROUS_FAILS_ON = 1  # external default: a Treacherous Terrain Test fails on a 1
BOOSTS = {"kinetic": (6, "R002.48"), "tesla": (3, "R002.45")}  # highest roll, rule

PIVOTS = {
    MovementClass.NAVAL: Pivot.SIDE_CENTRE,  # R002.11
    MovementClass.ARMOURED: Pivot.FRONT_CORNER,  # R002.12
    MovementClass.AERIAL: Pivot.STAND_FRONT,  # R002.13
    MovementClass.SPACE: Pivot.CENTRE,
}

AIRBORNE = ("flying", "obscured")


def height_level(unit: Unit) -> str:
    """The unit's Height Level: surface, diving, flying or obscured (stats; aerial units fly)."""
    level = str(unit.stats.get("height_level", "surface"))
    if level == "surface" and unit.movement is MovementClass.AERIAL:
        return "flying"
    return level


def is_airborne(unit: Unit) -> bool:
    return height_level(unit) in AIRBORNE


def collision_layer(unit: Unit) -> str:
    """Models ram and overlap only models on the same layer: surface, below or in the air."""
    level = height_level(unit)
    return "air" if level in AIRBORNE else level


def generators(unit: Unit) -> set[str]:
    return {
        g.strip().lower() for g in str(unit.stats.get("generators", "")).split(",") if g.strip()
    }


def half(value: float, rounding: str) -> float:
    """Half a movement value (A002.9): exact (the revised reading), or rounded up or down."""
    if rounding == "exact":
        return value / 2
    return float(math.ceil(value / 2 - 1e-9) if rounding == "up" else math.floor(value / 2 + 1e-9))


def is_tiny_flyer(unit: Unit) -> bool:
    """A Tiny Flyer: a model of a Wing (its `wing_type` stat, R002.53)."""
    return unit.stats.get("wing_type") is not None


def lost_off_board(unit: Unit, options: Mapping[str, Any]) -> bool:
    """R002.59: whether leaving the table loses the unit: a Tiny Flyer Wing's; with
    `lost_off_table = "flying"` (the earlier reading) any flying model's."""
    if str(options.get("lost_off_table", "wing")) == "flying":
        return is_airborne(unit)
    return is_tiny_flyer(unit)


def boosts_of(
    unit: Unit, activation: Mapping[str, Any], both: bool = True
) -> tuple[tuple[str, int], ...]:
    """The generator boosts chosen for this activation, checked (R002.45, R002.48): a
    Tesla and a Kinetic boost may go together unless `both` is false (the earlier reading,
    one boost per activation)."""
    chosen = [(kind, activation[kind]) for kind in BOOSTS if activation.get(kind) is not None]
    if len(chosen) > 1 and not both:
        raise UserError(
            "a unit uses at most one generator boost per activation, not "
            + " and ".join(kind for kind, _ in chosen),
            spec_id="R002.48",
        )
    for kind, roll in chosen:
        highest, rule = BOOSTS[kind]
        if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= highest:
            die = "1D6" if highest == 6 else "1D3"
            raise UserError(
                f"a {kind} boost is a {die} roll from 1 to {highest}, not {roll!r}", spec_id=rule
            )
        if kind not in generators(unit):
            raise UserError(f"unit {unit.id!r} has no {kind} generator to boost with", spec_id=rule)
    return tuple(chosen)


def turning_rules(unit: Unit, options: Mapping[str, Any]) -> TurningRules:
    """How a Dystopian Wars unit may move this activation (see the module doc)."""
    move = float(unit.stats.get("move", 6.0))
    min_move = float(unit.stats.get("min_move", 0.0))
    rounding = str(options.get("half_rounding", "exact"))
    activation = options.get("activation") or {}
    boosts = dict(boosts_of(unit, activation, bool(options.get("tesla_with_kinetic", True))))
    min_total = 0.0
    min_total_rule = "R002.48"
    if boosts:
        move += sum(boosts.values())
        min_move += boosts.get("kinetic", 0)
        min_total = max(min_move if "kinetic" in boosts else 0.0, half(move, rounding))
        if "kinetic" not in boosts:
            min_total_rule = "R002.45"
    return TurningRules(
        pivot=PIVOTS[unit.movement],
        max_turn_per_step=TEMPLATE_ANGLE,
        max_distance=move,
        min_straight_before_turn=min_move,
        min_total_distance=min_total,
        max_backwards=BACKWARDS_LIMIT,
        snaking_straight=SNAKING_STRAIGHT,
        disengage_rotation=DISENGAGE_ANGLE,
        lost_off_board=lost_off_board(unit, options),
        treacherous_fails_on=TREACHEROUS_FAILS_ON,
        min_total_rule=min_total_rule,
    )


def terrain_collides(unit: Unit, terrain: Terrain) -> bool:
    """T002.12 / R002.35 / A002.7: water collides with soft and dense terrain, land with dense,
    the air with dense terrain tall enough to reach it (Surface Height medium or more, base game).

    Obstructing terrain (cliffs, smoke in this library) is treated like dense.
    """
    hard = terrain.kind in ("dense", "obstructing")
    if is_airborne(unit):
        # by rank: SizeClass defines < and <= only, so > would compare the names as strings
        return hard and terrain.height.rank > SizeClass.SMALL.rank
    if unit.movement is MovementClass.ARMOURED:
        return hard
    return hard or terrain.kind == "soft"
