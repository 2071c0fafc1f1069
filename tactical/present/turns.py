"""Whose go it really is: the order the rules produced, unit by unit, by name.

The session lets the sides take turns in a phase; the rule system says who may
really act (`RuleSystem.actions`) and, where it keeps one, the order unit by
unit (`RuleSystem.acting_order`: the initiative results, who has acted, who acts
now). The tracker shows that order. A side the rules give nothing to do passes by
itself: that is the session's (`tactical.session.forced`), logged with the reason;
the screen only shows it. Nothing here names a rule system.
"""

from __future__ import annotations

from dataclasses import dataclass

from tactical.errors import UserError
from tactical.rules.status import OrderEntry
from tactical.session.game import Game


@dataclass(frozen=True)
class NamedEntry:
    """One unit of the acting order as the tracker shows it."""

    name: str
    side: str
    result: str = ""
    done: bool = False
    acting: bool = False


def acting_order(game: Game) -> tuple[OrderEntry, ...]:
    """The rule system's order for the phase under way (none when it keeps none)."""
    try:
        return tuple(game.system.acting_order(game.state, game.position))
    except UserError:
        return ()


def named_order(game: Game) -> tuple[NamedEntry, ...]:
    """The acting order with each unit by its name."""
    state = game.state
    return tuple(
        NamedEntry(
            state.shown_names.get(e.unit, e.unit),
            e.side,
            e.result,
            e.done,
            e.acting,
        )
        for e in acting_order(game)
    )


__all__ = ["NamedEntry", "acting_order", "named_order"]
