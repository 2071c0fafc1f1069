"""The three levels of play by name (`make_player`): `random` and `greedy` (`players`),
`search` (`search`)."""

from __future__ import annotations

from typing import Any

from tactical.agents.players import LEVELS, GreedyPlayer, Player, RandomPlayer
from tactical.agents.search import Budget, SearchPlayer
from tactical.errors import UserError

__all__ = ["LEVELS", "make_player"]


def make_player(level: str, seed: int = 0, **options: Any) -> Player:
    """A player of `level` ("random", "greedy" or "search"); `options` go to `search`'s
    `Budget` (playouts, seconds, width, horizon, turn_end)."""
    if level == "random":
        return RandomPlayer(seed)
    if level == "greedy":
        return GreedyPlayer(seed)
    if level == "search":
        return SearchPlayer(seed, Budget(**options) if options else Budget())
    raise UserError(f"unknown AI level {level!r}: expected one of {', '.join(LEVELS)}")
