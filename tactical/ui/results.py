"""What a step did, in the words the cards, the status line and the log show."""

from __future__ import annotations

from dataclasses import dataclass

from tactical.model import FrozenMap
from tactical.session.controller import Session
from tactical.session.game import Step


@dataclass(frozen=True)
class ResultNote:
    """What the last roll did, for the cards of the units it touched."""

    step: int
    units: tuple[str, ...]
    lines: tuple[str, ...]


def step_result_lines(step: Step) -> tuple[str, ...]:
    """The outcome and every die of a step, as the cards and the status show them."""
    lines = [f"#{step.number} {step.title}"]
    if step.summary is not None:
        lines.append(f"result: {summary_text(step.summary)}")
    outcomes = [e for e in step.events if e.kind == "outcome"]
    for event in outcomes[-3:]:
        lines.append(event.describe())
    if step.rolls:
        dice = ", ".join(f"{roll.die}={roll.result}" for roll in step.rolls[:24])
        more = f" (+{len(step.rolls) - 24} more)" if len(step.rolls) > 24 else ""
        lines.append(f"dice: {dice}{more}")
    return tuple(lines)


def summary_text(summary: object) -> str:
    if isinstance(summary, tuple | list):
        return ", ".join(summary_text(part) for part in summary)
    if isinstance(summary, dict | FrozenMap):
        return ", ".join(f"{key}={summary_text(value)}" for key, value in summary.items())
    return str(summary)


def units_named(step: Step, unit_ids: set[str]) -> tuple[str, ...]:
    """The units a step concerned: its actor and every unit id among its parameters."""
    found = [step.action.actor] if step.action.actor in unit_ids else []
    for value in step.action.params.values():
        values = value if isinstance(value, tuple | list) else (value,)
        found.extend(v for v in values if isinstance(v, str) and v in unit_ids and v not in found)
    return tuple(found)


def step_state_units(session: Session):
    """The units of the game before and after the last step (a unit may have been removed)."""
    game = session.game
    units = list(game.state.units)
    history = session.history
    if history.cursor > 0:
        units.extend(history.games[history.cursor - 1].state.units)
    return units
