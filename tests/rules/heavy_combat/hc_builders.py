"""Builders for Heavy Combat states (GameState values built directly, no map file)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tactical.dice import ScriptedDice
from tactical.model import Board, FrozenMap, GameState, MovementClass, Pose, RectBase, Unit
from tactical.rules import registry
from tactical.rules.base import Action, Resolution
from tactical.rules.heavy_combat.duel import Duel, Ship, from_rule_state, to_rule_state

RULES = "heavy-combat"
HC = registry.get(RULES)


def ship(ship_id: str, x: float, y: float, heading: float, side: str, **stats: Any) -> Unit:
    return Unit(
        ship_id,
        ship_id,
        side,
        Pose(x, y, heading),
        RectBase(1.5, 3.0),
        MovementClass.SPACE,
        stats=FrozenMap(stats),
    )


def duel(
    a_stats: dict[str, Any] | None = None,
    b_stats: dict[str, Any] | None = None,
    *,
    distance: float = 18.0,
    a_heading: float = 90.0,
    b_heading: float = 270.0,
    **options: Any,
) -> GameState:
    """Ship "a" (side A) at (20, 24) and ship "b" (side B) `distance` inches to its right,
    set up. By default they face each other (each presents its fore) at range 2."""
    state = GameState(
        RULES,
        Board(72, 48),
        options=FrozenMap(options),
        units=(
            ship("a", 20.0, 24.0, a_heading, "A", **(a_stats or {})),
            ship("b", 20.0 + distance, 24.0, b_heading, "B", **(b_stats or {})),
        ),
    )
    return HC.setup(state)


def the_duel(state: GameState) -> Duel:
    return from_rule_state(state)


def with_ship(state: GameState, ship_id: str, **changes: Any) -> GameState:
    """The state with fields of one ship's rule state changed."""
    current = from_rule_state(state)
    return to_rule_state(
        state, current.with_ship(ship_id, replace(current.ship(ship_id), **changes))
    )


def ship_state(state: GameState, ship_id: str) -> Ship:
    return from_rule_state(state).ship(ship_id)


def act(state: GameState, kind: str, actor: str, dice: list[int] | None = None, **params: Any):
    """Apply one action with scripted dice; returns the Resolution."""
    return HC.apply(state, Action(kind, actor, FrozenMap(params)), ScriptedDice(dice or []))


def run(state: GameState, *steps: tuple) -> tuple[GameState, list[Resolution]]:
    """Apply (kind, actor, dice, params) steps in order, threading the state."""
    done = []
    for kind, actor, dice, params in steps:
        resolution = act(state, kind, actor, dice, **params)
        state = resolution.state
        done.append(resolution)
    return state, done


def events_of(resolution: Resolution, kind: str) -> list:
    return [e for e in resolution.events if e.kind == kind]
