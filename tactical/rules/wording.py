"""The protocol's default words (`tactical.rules.protocol`): a unit's name as a player
reads it (`unit_name`), its stats as a status (`default_status`), an action in words
(`default_description`) and what it changed (`status_changes`). Built from the words of
`tactical.rules.status`; `tactical.rules.base` re-exports them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from tactical.model import GameState, Unit
from tactical.rules.schema import Field
from tactical.rules.status import StatusValue, UnitStatus, label, plain_value, words
from tactical.rules.values import Action, Event


class _StatusOf(Protocol):
    """A rule system as `status_changes` asks it (`RuleSystem.unit_status`)."""

    def unit_status(self, state: GameState, unit: Unit) -> UnitStatus: ...


def default_status(fields: Sequence[Field], unit: Unit) -> UnitStatus:
    """Each stat of `unit` with its field's label and doc; tables of rows are counted."""
    docs = {f.name: f for f in fields}
    values = []
    for key, value in unit.stats.items():
        spec = docs.get(key)
        shown = f"{len(value)}" if isinstance(value, tuple | list) else plain_value(value)
        values.append(
            StatusValue(
                spec.label if spec else label(key),
                shown,
                help=spec.doc if spec else "",
                spec_id=spec.spec_id if spec else None,
            )
        )
    return UnitStatus(tuple(values))


def unit_name(state: GameState, unit_id: str) -> str:
    """A unit's name as a player reads it (`GameState.shown_names`: numbered where units
    share a name; its id when it has none or was never on the table)."""
    return state.shown_names.get(unit_id, unit_id)


def default_description(before: GameState, action: Action, events: Sequence[Event]) -> str:
    """The action's actor and each outcome event's values in words."""
    actor = unit_name(before, action.actor)
    parts = []
    for event in events:
        if event.kind != "outcome":
            continue
        pairs = []
        for key, value in event.data:
            shown = (
                unit_name(before, value)
                if isinstance(value, str) and before.has_unit(value)
                else plain_value(value)
            )
            pairs.append(f"{words(key)} {shown}")
        parts.append(", ".join(pairs))
    what = words(action.kind)
    return f"{actor}: {what}" + (f": {'; '.join(parts)}" if parts else "")


def units_named(state: GameState, action: Action, events: Sequence[Event]) -> tuple[str, ...]:
    """The units an action concerned: its actor, its parameters' and its events' unit ids."""
    found: list[str] = []

    def add(value: Any) -> None:
        if isinstance(value, str):
            if state.has_unit(value) and value not in found:
                found.append(value)
        elif isinstance(value, tuple | list):
            for item in value:
                add(item)

    add(action.actor)
    for value in action.params.values():
        add(value)
    for event in events:
        for _, value in event.data:
            add(value)
    return tuple(found)


def status_changes(
    system: _StatusOf, before: GameState, after: GameState, unit_ids: Sequence[str]
) -> list[str]:
    """What changed in each unit's status between two states, in words:
    "Avenger: Hull 7 → 6", "Avenger is removed", "Avenger is a wreck"."""
    lines = []
    for unit_id in unit_ids:
        if not before.has_unit(unit_id):
            continue
        name = unit_name(before, unit_id)
        if not after.has_unit(unit_id):
            lines.append(f"{name} is removed")
            continue
        old = system.unit_status(before, before.unit(unit_id))
        new = system.unit_status(after, after.unit(unit_id))
        if new.wreck and not old.wreck:
            lines.append(f"{name} is a wreck")
            continue
        olds = {value.label: value for value in old.values}
        # numbers that moved (hull, shields, counts); bookkeeping words are not news
        changed = [
            f"{value.label} {olds[value.label].text} → {value.text}"
            for value in new.values
            if value.label in olds
            and (value.maximum is not None or value.token)
            and value.current is not None
            and olds[value.label].current is not None
            and olds[value.label].current != value.current
        ]
        gained = [mark for mark in new.marks if mark not in old.marks]
        if gained:
            changed.append("now " + ", ".join(gained))
        if changed:
            lines.append(f"{name}: " + ", ".join(changed))
    return lines
