"""The computer players the screen offers, and one decision of theirs.

The ui lists the levels on its side menus and runs a decision in a child process; the
players themselves (`tactical.agents`) are reached through here, so the screen names no
agent module. A computer player decides from its own side's view of the game (hidden
information stays hidden from it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tactical.agents import LEVELS, make_player
from tactical.agents.sight import decide_seeing
from tactical.rules.base import Action
from tactical.session.game import Game


def decide_elsewhere(
    game: Game, level: str, seed: int, options: Mapping[str, Any]
) -> tuple[Action, str]:
    """Runs in the worker: the player's action (completed) and its why."""
    decision = decide_seeing(make_player(level, seed, **options), game)  # its side's view
    return decision.action, decision.why


__all__ = ["LEVELS", "decide_elsewhere"]
