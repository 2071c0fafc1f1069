"""Cortex Space pilot rolls: Agility + Pilot for whoever flies the vessel.

The less-skilled pilot's for a wing (R003.31), the pilot's or helm officer's
skill for a crewed ship (`pilot_character`), with the character's
multiple-action penalty (R003.8) when the roll is an action and any crew steps
on that station; the DOGFIGHTING trait joins it for the Advantage (R003.10).
Dogfighting, collisions, strafing, wings and missiles all roll it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tactical.model import GameState, Unit
from tactical.rules.base import Event
from tactical.rules.cortex_space import crew, tracker
from tactical.rules.cortex_space.acting import action_modifier
from tactical.rules.cortex_space.rolls import Pool, skill_pool
from tactical.rules.cortex_space.tracker import StepModifier
from tactical.rules.cortex_space.units import Vessel, vessel

# --------------------------------------------------------------------------- pilot rolls


def pilot_character(unit: Unit, card: Vessel, options: Mapping[str, Any]) -> str:
    """Who flies: the crew's pilot / helm officer, or the vessel's own pilot."""
    person = crew.pilot_member(card, options)
    return tracker.character_key(unit.id, person.name) if person is not None else unit.id


@dataclass(frozen=True)
class PilotRoll:
    pool: Pool
    modifiers: tuple[StepModifier, ...]
    entries: tuple
    character: str


def pilot_roll(
    state: GameState,
    unit: Unit,
    options: Mapping[str, Any],
    *,
    extra_actions: int = 0,
    counts: bool = True,
    bonus: tuple[StepModifier, ...] = (),
    trait: bool = False,
) -> PilotRoll:
    """Agility + Pilot (+ DOGFIGHTING trait when `trait`), with the pilot's action penalty
    (R003.8) when the roll is an action (`counts`) and the crew's steps on the pilot."""
    card = vessel(unit)
    character = pilot_character(unit, card, options)
    modifiers: list[StepModifier] = []
    if counts:
        penalty = action_modifier(state, character, extra_actions)
        if penalty:
            modifiers.append(penalty)
    modifiers.extend(bonus)
    entries: tuple = ()
    person = crew.pilot_member(card, options)
    if person is not None:
        entries = tracker.matching(state, unit.id, "crew", station=person.name)
        modifiers.extend(tracker.as_modifiers(entries))
    steps = sum(m.steps for m in modifiers)
    dogfighting = ("DOGFIGHTING", card.dogfighting) if trait else None
    pool = skill_pool(
        ("agility", card.agility), crew.pilot_skill(card, options), dogfighting, steps
    )
    return PilotRoll(pool, tuple(modifiers), entries, character)


def modifier_events(modifiers: tuple[StepModifier, ...], roll: str) -> tuple[Event, ...]:
    """A roll's step modifiers as events, each with the rule that grants it (R003.2)."""
    return tuple(
        Event.of("modifier", m.spec_id, roll=roll, source=m.source, steps=m.steps)
        for m in modifiers
    )
