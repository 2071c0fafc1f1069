"""Builders for Battlefleet Mars states (GameState values built directly, no map file)."""

from __future__ import annotations

from typing import Any

from tactical.model import Board, CircleBase, FrozenMap, GameState, MovementClass, Pose, Unit

RULES = "battlefleet-mars"


def unit(unit_id: str, x: float, y: float, side: str = "A", **stats: Any) -> Unit:
    return Unit(
        unit_id,
        unit_id,
        side,
        Pose(x, y),
        CircleBase(0.5),
        MovementClass.SPACE,
        stats=FrozenMap(stats),
    )


def table(*units: Unit, **options: Any) -> GameState:
    return GameState(RULES, Board(72, 48), options=FrozenMap(options), units=tuple(units))


def duel(
    attacker_stats: dict[str, Any],
    target_stats: dict[str, Any],
    distance: float = 0.0,
    **options: Any,
) -> GameState:
    """Attacker "a" at (10, 10) and target "t" `distance` inches to its right."""
    return table(
        unit("a", 10, 10, "A", **attacker_stats),
        unit("t", 10 + distance, 10, "B", **target_stats),
        **options,
    )
