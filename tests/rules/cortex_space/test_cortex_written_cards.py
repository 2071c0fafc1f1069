"""A vessel's card after a roll is written back (`damage.write_back`) is read without parsing
its stats again: the card it remembers must be the very card the parser makes of the
written stats (every field, of the same type), its battle damage (R003.25-R003.29) too."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest

from tactical.dice import enumerate_outcomes
from tactical.io import builtin_map, load_map
from tactical.rules import registry
from tactical.rules.cortex_space import units
from tactical.rules.cortex_space.units import vessel

CORTEX = registry.get("cortex-space")


def _typed(card) -> tuple:
    """A card's fields with their types (True equals 1: a bool read as an int would pass)."""
    found = []
    for field in fields(card):
        value = getattr(card, field.name)
        if field.name == "weapons":
            value = tuple(_typed(weapon) for weapon in value)
        found.append((field.name, type(value), value))
    return tuple(found)


@pytest.mark.parametrize("wound", [0, 20])  # 20 of 40: every further hit rolls battle damage
def test_a_written_back_card_is_the_card_its_stats_parse_as(wound):
    state = load_map(builtin_map("cortex-space"))
    basestar = state.unit("basestar")
    state = state.replace_unit(replace(basestar, stats=basestar.stats.set("wound", wound)))
    attack = CORTEX.declare_attack(state, "galactica", "railguns", "basestar", {})
    outcomes = enumerate_outcomes(
        lambda dice: CORTEX.resolve_attack(state, attack, dice).state.unit("basestar"),
        key=lambda unit: unit.stats,
    )
    cards = [vessel(unit) for unit, _ in outcomes.pairs]
    assert len(cards) > 3
    for (unit, _), card in zip(outcomes.pairs, cards, strict=True):
        assert _typed(card) == _typed(units._vessel(unit.stats))
    damaged = [c for c in cards if c.sensors_damaged or any(w.disabled for w in c.weapons)]
    assert bool(damaged) == (wound > 0)
