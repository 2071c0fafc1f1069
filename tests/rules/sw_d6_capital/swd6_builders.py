"""Builders for sw-d6-capital states (GameState values built directly, no map file)."""

from __future__ import annotations

from typing import Any

from tactical.dice import ScriptedDice
from tactical.model import Board, CircleBase, FrozenMap, GameState, MovementClass, Pose, Unit
from tactical.rules import registry
from tactical.rules.sw_d6_capital import ledger
from tactical.rules.sw_d6_capital.condition import Condition

RULES = "sw-d6-capital"
SYSTEM = registry.get(RULES)

TURBOLASER = {
    "name": "Turbolasers",
    "arc": "front",
    "fire_control": "4D",
    "damage": "5D",
    "battery": "4D",
    "ranges": "3-15/35/75",
}
ION = {
    "name": "Ion Cannon",
    "arc": "front",
    "fire_control": "3D",
    "damage": "4D",
    "battery": "3D+2",
    "ranges": "1-10/25/50",
    "ion": True,
}
ISD = {
    "scale": "capital",
    "hull": "7D",
    "shields": "3D+2",
    "maneuverability": "1D",
    "cso": "5D+1",
    "initiative": "4D",
    "command": "4D",
    "command_difficulty": 17,
    "space": 6,
    "weapons": [TURBOLASER],
}
NOWHERE = {
    "scale": "capital",
    "hull": "5D",
    "shields": "3D",
    "maneuverability": "1D",
    "cso": "5D+2",
    "initiative": "5D",
    "command": "4D",
    "command_difficulty": 12,
    "space": 5,
    "weapons": [{"name": "Quad Turbolasers", "damage": "6D", "fire_control": "3D"}],
}


def ship(
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


def table(*units: Unit, width: float = 72, height: float = 48, **options: Any) -> GameState:
    return GameState(RULES, Board(width, height), options=FrozenMap(options), units=tuple(units))


def duel(
    attacker: dict[str, Any],
    target: dict[str, Any],
    distance: float = 20.0,
    target_heading: float = 180.0,
    **options: Any,
) -> GameState:
    """Attacker "a" at (30, 10) facing up, target "t" `distance` inches straight ahead."""
    return SYSTEM.setup(
        table(
            ship("a", 30, 10, "A", 0.0, **attacker),
            ship("t", 30, 10 + distance, "B", target_heading, **target),
            **options,
        )
    )


def with_condition(state: GameState, unit_id: str, **changes: Any) -> GameState:
    """The state with some fields of a ship's condition changed."""
    from dataclasses import replace

    current = ledger.condition(state, unit_id)
    return ledger.with_condition(state, unit_id, replace(current, **changes))


def condition(state: GameState, unit_id: str) -> Condition:
    return ledger.condition(state, unit_id)


def faces_for(total: int, dice: int) -> list[int]:
    """d6 faces summing to `total` (as even as possible), for scripted rolls."""
    assert dice <= total <= 6 * dice
    base, extra = divmod(total, dice)
    return [base + 1] * extra + [base] * (dice - extra)


def scripted(*values: int) -> ScriptedDice:
    return ScriptedDice(list(values))
