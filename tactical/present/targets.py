"""The units an open declaration may take, and the declarations against each of them.

A declaration with a unit field (an attack's target) lists the units it may take: they
are ringed on the table, a click fills the field, hovering one shows the odds against
it, and the odds against every one are computed ahead, nearest first. Pure functions of
the choice, the form's values and the table; nothing here draws.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tactical.model import FrozenMap, GameState
from tactical.present.declaration import unit_fields
from tactical.rules.base import Action, ActionChoice

MAX_PREFETCH = 40  # targets of one declaration whose odds are computed ahead


def _target_field(choice: ActionChoice, state: GameState) -> str | None:
    """The choice's first field that names a unit on the table, if any."""
    names = unit_fields(choice, tuple(unit.id for unit in state.units))
    return names[0] if names else None


def takes_a_unit(choice: ActionChoice, state: GameState) -> bool:
    """Whether the choice has a field that names a unit on the table (a target)."""
    return _target_field(choice, state) is not None


def open_targets(choice: ActionChoice, state: GameState) -> tuple[str, ...]:
    """The values the choice's unit field offers (what it may take), () without one."""
    name = _target_field(choice, state)
    if name is None:
        return ()
    field = next(f for f in choice.fields if f.name == name)
    return tuple(field.choices or ())


def against(
    choice: ActionChoice, values: Mapping[str, Any], state: GameState, target: str
) -> Action:
    """The declaration on the form with its unit field set to `target`."""
    name = _target_field(choice, state)
    return Action(choice.kind, choice.actor, FrozenMap({**values, name: target}))


def nearest_targets(
    choice: ActionChoice, values: Mapping[str, Any], state: GameState, limit: int = MAX_PREFETCH
) -> tuple[Action, ...]:
    """The declaration against every unit it may take, nearest the actor first (at most
    `limit`): the odds computed ahead of a hover."""
    name = _target_field(choice, state)
    if name is None:
        return ()
    field = next(f for f in choice.fields if f.name == name)
    # a field may offer "" (none: a spotter left out) besides the units
    candidates = [uid for uid in field.choices or () if uid and state.has_unit(uid)]
    if state.has_unit(choice.actor):
        actor = state.unit(choice.actor)
        candidates.sort(
            key=lambda uid: (state.unit(uid).x - actor.x) ** 2 + (state.unit(uid).y - actor.y) ** 2
        )
    return tuple(
        Action(choice.kind, choice.actor, FrozenMap({**values, name: uid}))
        for uid in candidates[:limit]
    )


def attacker(choice: ActionChoice, state: GameState) -> str | None:
    """During an attack (a declaration with a unit to take), the attacker on the table:
    the pair panel measures from it to the hovered unit."""
    if not state.has_unit(choice.actor) or not open_targets(choice, state):
        return None
    return choice.actor
