"""Every decision of a few fixed AI games, as data: what the test of unchanged choices
compares. The computer players' speed-ups (cached effects, declarations checked once,
state not frozen again) must leave every choice, its score and its reason as they were.

Run as a script to write the record from the code as it stands:

    .venv/bin/python tests/agents/decision_record.py > tests/data/agent-decisions.json
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from tactical.agents import Budget, GreedyPlayer, Player, SearchPlayer, play_game, with_options
from tactical.io import builtin_map, load_map
from tactical.io.maps import unit_table
from tactical.model.frozen import thaw
from tactical.rules import registry
from tactical.session.game import Game

RULES = registry.rule_ids()
GREEDY_SEEDS = (100, 101)  # whole greedy-vs-greedy games of the built-in scenario
SEARCH_SEED = 15  # a search player against greedy over the scenario's first turn
SEARCH = {"playouts": 4, "seconds": None, "width": 2, "horizon": 2}


class Recorder(Player):
    """A player that asks another for each decision and writes it down."""

    def __init__(self, inner: Player, rows: list[dict[str, Any]]) -> None:
        super().__init__(inner.seed)
        self.inner = inner
        self.level = inner.level
        self.rows = rows

    def decide(self, game: Game):
        decision = self.inner.decide(game)
        action = decision.action
        self.rows.append(
            {
                "step": game.step_number,
                "side": game.side_to_act,
                "action": [action.kind, action.actor, _plain(action.params)],
                "why": decision.why,
                "score": repr(decision.score),
            }
        )
        return decision


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(thaw(value), sort_keys=True, default=str))


def state_digest(game: Game) -> str:
    """The final table: every unit's table and the rule system's own state."""
    state = game.state
    units = sorted(
        (unit.id, json.dumps(unit_table(unit), sort_keys=True, default=str)) for unit in state.units
    )
    rule_state = json.dumps(thaw(state.rule_state), sort_keys=True, default=str)
    text = json.dumps([game.side_to_act, game.turn, units, rule_state], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def record_game(rules_id: str, seed: int, search_side: str | None = None) -> dict[str, Any]:
    """One game's decisions and end: greedy on both sides, or search on `search_side`
    over the first turn."""
    state = load_map(builtin_map(rules_id))
    if search_side is not None:
        fields = {f.name for f in registry.get(rules_id).option_fields}
        key = "game_turns" if "game_turns" in fields else "turn_limit"
        state = with_options(state, **{key: 1})
    rows: list[dict[str, Any]] = []
    seats: dict[str, Player] = {}
    for index, side in enumerate(state.sides):
        player_seed = seed * 31 + index
        inner: Player
        if side == search_side:
            inner = SearchPlayer(player_seed, Budget(**SEARCH))
        else:
            inner = GreedyPlayer(player_seed)
        seats[side] = Recorder(inner, rows)
    record = play_game(state, seed, seats)
    outcome = record.outcome
    return {
        "rules": rules_id,
        "seed": seed,
        "search": search_side,
        "decisions": rows,
        "whys": [list(why) for why in record.whys],
        "outcome": [outcome.winner, [list(s) for s in outcome.scores], outcome.reason],
        "turns": record.turns,
        "steps": record.steps,
        "final": state_digest(record.game),
    }


def games() -> list[tuple[str, int, str | None]]:
    """The recorded games: (rule system, seed, the side search plays or None)."""
    found: list[tuple[str, int, str | None]] = []
    for rules_id in RULES:
        for seed in GREEDY_SEEDS:
            found.append((rules_id, seed, None))
        sides = load_map(builtin_map(rules_id)).sides
        found.append((rules_id, SEARCH_SEED, sides[0]))
    return found


if __name__ == "__main__":
    # one game a line: a change shows as the games it touches
    lines = [json.dumps(record_game(*game), sort_keys=True) for game in games()]
    print("[\n" + ",\n".join(lines) + "\n]")
