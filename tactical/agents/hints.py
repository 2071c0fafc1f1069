"""Optional hints for the agents, registered per rule system id.

The agents need nothing from a rule system beyond the generic protocol; a hint only
sharpens their judgement. Rule systems sit below the agents (import-linter layers), so a
hint is registered from above, e.g. by a front end or a balance lab:

    from tactical.agents import hints
    hints.register("my-rules", hints.Hints(unit_value=lambda unit: unit.stats["points"]))

- `unit_value(unit)`: a unit's value, instead of the strength the rule system's
  `unit_condition` gives (which is also what its game-end score counts).
- `avoid_kinds`: action kinds the agents never choose unless nothing else is offered
  (a kind that hands the decision to another player, say).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tactical.model import Unit


@dataclass(frozen=True)
class Hints:
    unit_value: Callable[[Unit], float] | None = None
    avoid_kinds: frozenset[str] = frozenset()


NONE = Hints()
_registered: dict[str, Hints] = {}


def register(rules_id: str, hints: Hints) -> None:
    """Register (or replace) the hints for one rule system."""
    _registered[rules_id] = hints


def unregister(rules_id: str) -> None:
    _registered.pop(rules_id, None)


def get(rules_id: str) -> Hints:
    return _registered.get(rules_id, NONE)
