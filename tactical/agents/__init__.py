"""Computer players for any registered rule system.

The agents play only through the generic protocol: the choices offered and their
fields (`candidates`), the exact odds and the resolvers' own outcomes, the move planner
and the table geometry (`evaluation`), and the game-end measure (`RuleSystem.outcome`,
`unit_condition`). Nothing in this package names a rule system; a rule system's optional
hints are registered from above (`hints`).

- `players`: the levels `random` and `greedy` (`Decision`); `search`: the `search`
  level; `levels`: any of them by name (`make_player`).
- `games`: `play_game(state, seed, players={side: level}) -> GameRecord`, the public
  entry point for whole games (tests, benchmarks, a balance lab).
"""

from __future__ import annotations

from tactical.agents.games import GameRecord, mirrored, play_game, with_options
from tactical.agents.levels import make_player
from tactical.agents.players import LEVELS, Decision, GreedyPlayer, Player, RandomPlayer
from tactical.agents.search import Budget, SearchPlayer

__all__ = [
    "LEVELS",
    "Budget",
    "Decision",
    "GameRecord",
    "GreedyPlayer",
    "Player",
    "RandomPlayer",
    "SearchPlayer",
    "make_player",
    "mirrored",
    "play_game",
    "with_options",
]
