"""The generic action protocol (rules/base.py): choices offered and actions applied."""

from __future__ import annotations

from tactical.dice import ScriptedDice
from tactical.io import builtin_map, load_map
from tactical.model import FrozenMap
from tactical.rules import registry
from tactical.rules.base import Action, TurnPosition


def test_attack_choices_and_apply_match_the_attack_resolver():
    state = load_map(builtin_map("battlefleet-mars"))
    system = registry.get(state.rules)
    side = state.unit("deimos-base").side
    choices = system.actions(state, TurnPosition(1, 2), side)
    laser = next(
        c for c in choices if c.actor == "deimos-base" and c.kind == "attack" and "laser" in c.title
    )
    target_field = next(f for f in laser.fields if f.name == "target")
    assert "ares-cruiser" in target_field.choices
    assert all(state.unit(t).side != side for t in target_field.choices)

    action = Action("attack", "deimos-base", FrozenMap(weapon="laser", target="ares-cruiser"))
    via_action = system.apply(state, action, ScriptedDice([9, 9]))
    attack = system.declare_attack(state, "deimos-base", "laser", "ares-cruiser")
    direct = system.resolve_attack(state, attack, ScriptedDice([9, 9]))
    assert via_action.events == direct.events
    assert via_action.summary == direct.summary
    odds = system.action_odds(state, action)
    assert odds is not None and odds.as_dict() == system.attack_odds(state, attack).as_dict()


def test_unknown_action_kind_is_a_user_error():
    import pytest

    from tactical.errors import UserError

    state = load_map(builtin_map("battlefleet-mars"))
    system = registry.get(state.rules)
    with pytest.raises(UserError, match="no action 'dance'"):
        system.apply(state, Action("dance", "deimos-base"), ScriptedDice([]))
    assert system.action_odds(state, Action("dance", "deimos-base")) is None
