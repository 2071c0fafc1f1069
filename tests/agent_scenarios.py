"""Short games for the agent tests: one or two turns of each built-in scenario.

A plain module (not a conftest) so the tests can import it by name: tests/ holds
several conftest.py files, and `import conftest` finds whichever came first.
"""

from __future__ import annotations

from tactical.agents import with_options
from tactical.io import builtin_map, load_map
from tactical.rules import registry

RULES = registry.rule_ids()
# two rounds of play-outs: enough for search to leave the greedy choice
TINY_SEARCH = {"playouts": 4, "seconds": None, "width": 2, "horizon": 2}


def short_scenario(rules_id: str, turns: int = 1):
    """The built-in scenario of `rules_id`, ending after `turns` turns (its turn limit, or
    the Dystopian Wars game length of R002.3)."""
    state = load_map(builtin_map(rules_id))
    if "game_turns" in {f.name for f in registry.get(rules_id).option_fields}:
        return with_options(state, game_turns=turns)
    return with_options(state, turn_limit=turns)
