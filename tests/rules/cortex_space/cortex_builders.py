"""Builders for Cortex / BSG states (GameState values built directly, no map file)."""

from __future__ import annotations

from typing import Any

from tactical.model import Board, CircleBase, FrozenMap, GameState, MovementClass, Pose, Unit
from tactical.rules import registry

RULES = "cortex-space"
SYSTEM = registry.get(RULES)

VIPER = {
    "scale": "planetcraft",
    "agility": "d10",
    "strength": "d6",
    "alertness": "d6",
    "pilot": "d10",
    "gunnery": "d8",
    "life_points": 14,
    "speed": 9,
    "weapons": [{"name": "autocannons", "damage": "d8", "range": "skirmish"}],
}
RAIDER = {
    "scale": "planetcraft",
    "agility": "d10",
    "strength": "d6",
    "alertness": "d8",
    "pilot": "d8",
    "gunnery": "d8",
    "dogfighting": "d4",
    "life_points": 14,
    "speed": 9,
    "weapons": [
        {"name": "autocannons", "damage": "d6", "range": "skirmish"},
        {
            "name": "missiles",
            "kind": "missile",
            "damage": "4d2",
            "range": "short DRADIS",
            "missiles": 2,
            "missile_type": "light",
        },
    ],
}
BATTLESTAR = {
    "scale": "spacecraft",
    "agility": "d4",
    "strength": "d12+d10",
    "alertness": "d8",
    "pilot": "d6",
    "gunnery": "d8",
    "life_points": 40,
    "speed": 4,
    "ftl": True,
    "weapons": [
        {"name": "railguns", "damage": "d12+d2", "count": 24, "range": "capital"},
        {
            "name": "point-defense",
            "kind": "point-defense",
            "damage": "d12",
            "range": "skirmish",
            "scale": "planetcraft",
        },
    ],
}


def unit(
    unit_id: str,
    x: float,
    y: float,
    side: str = "A",
    heading: float = 0.0,
    diameter: float = 1.0,
    **stats: Any,
) -> Unit:
    return Unit(
        unit_id,
        unit_id,
        side,
        Pose(x, y, heading),
        CircleBase(diameter),
        MovementClass.SPACE,
        stats=FrozenMap(stats),
    )


def table(*units: Unit, terrain=(), setup: bool = True, **options: Any) -> GameState:
    state = GameState(
        RULES, Board(72, 48), options=FrozenMap(options), units=tuple(units), terrain=tuple(terrain)
    )
    return SYSTEM.setup(state) if setup else state


def with_stats(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**base, **changes}
