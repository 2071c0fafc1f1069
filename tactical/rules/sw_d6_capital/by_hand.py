"""A ship's condition set by hand in a game (adjust mode).

Capital ship combat keeps a ship's damage in its `Condition` (`ledger`), not its Command
Deck: the values a player may set are its damage level (R004.18: undamaged, light,
heavy, severe, destroyed), its Ionization in dice (R004.41, 0 to 4) and its Force Points
(R004.13). Everything else of the condition (effects taken, the order, what it did this
turn) is kept, and setting them rolls nothing. A ship whose Command Deck stats are set by
hand keeps its condition too, taking anew only what the changed stats start (`adjusted`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from typing import Any

from tactical.model import GameState, Unit
from tactical.rules.base import Field, kept_rule_state
from tactical.rules.sw_d6_capital import ledger
from tactical.rules.sw_d6_capital.condition import Condition, initial_condition
from tactical.rules.sw_d6_capital.deck import STATS_FIELDS, deck_of
from tactical.rules.sw_d6_capital.tables import LEVELS

DAMAGE, IONIZATION, FORCE_POINTS = "damage", "ionization", "force_points"
_SCHEMA = {spec.name: spec for spec in STATS_FIELDS}


def status_fields(state: GameState, unit: Unit) -> tuple[Field, ...]:
    """The values of a ship a player may set (module docstring), now."""
    condition = ledger.condition(state, unit.id)
    return (
        Field(
            DAMAGE,
            "str",
            default=condition.level,
            choices=LEVELS,
            doc="the damage level",
            spec_id="R004.18",
            title="Damage",
        ),
        _count(IONIZATION, condition.ionization, "R004.41", doc="Ionization dice"),
        _count(FORCE_POINTS, condition.force_points, "R004.13", title="Force Points"),
    )


def _count(name: str, now: int, spec_id: str, **words: str) -> Field:
    """A count a player sets, from 0 to the stats schema's highest."""
    return Field(name, "int", default=now, low=0, high=_SCHEMA[name].high, spec_id=spec_id, **words)


def set_status(state: GameState, unit: Unit, values: Mapping[str, Any]) -> GameState:
    """The state with the ship's condition set in the ledger (module docstring)."""
    condition = ledger.condition(state, unit.id)
    changes: dict[str, Any] = {}
    if DAMAGE in values:
        changes["level"] = str(values[DAMAGE])
    if IONIZATION in values:
        changes["ionization"] = int(values[IONIZATION])
    if FORCE_POINTS in values:
        changes["force_points"] = int(values[FORCE_POINTS])
    return ledger.with_condition(state, unit.id, replace(condition, **changes))


def adjusted(before: GameState, after: GameState, fresh: GameState) -> GameState:
    """`RuleSystem.adjusted` for capital ships: the default (`kept_rule_state`: a ship whose
    stats were set by hand read anew from its Command Deck) with each such ship's condition
    kept and only what its changed stats start anew taken (its starting damage, Ionization,
    shield angles, Force Points...): the damage it took, its order and what it did this turn
    stay."""
    merged = kept_rule_state(before, after, fresh)
    for unit in after.units:
        if not before.has_unit(unit.id) or before.unit(unit.id).stats == unit.stats:
            continue
        if unit.id not in before.rule_state.get("ships", {}):
            continue  # not tracked yet: its condition is its deck's, as the default reads it
        old_start = initial_condition(deck_of(before.unit(unit.id)))
        new_start = initial_condition(deck_of(unit))
        kept = ledger.condition(before, unit.id)
        changed = {
            spec.name: getattr(new_start, spec.name)
            for spec in fields(Condition)
            if getattr(new_start, spec.name) != getattr(old_start, spec.name)
        }
        merged = ledger.with_condition(merged, unit.id, replace(kept, **changed))
    return merged
