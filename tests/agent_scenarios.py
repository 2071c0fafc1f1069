"""Short games for the agent tests: one or two turns of each built-in scenario.

A plain module (not a conftest) so the tests can import it by name: tests/ holds
several conftest.py files, and `import conftest` finds whichever came first.
"""

from __future__ import annotations

from tactical.agents import with_options
from tactical.io import builtin_map, load_map
from tactical.rules import registry
from tactical.session.game import Game

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


def battle_at_combat() -> Game:
    """Battlefleet Mars at the first go of its tactical combat (both sides passed before)."""
    game = Game.new(short_scenario("battlefleet-mars", 2), 4)
    while game.phase_name != "Tactical combat":
        game = game.pass_go()
    return game


def fire_phase(seed: int = 0) -> Game:
    """A Heavy Combat game up to the first fire declaration: power rolled, all else passed
    (a ship that closes the range holds its fire, R001.9)."""
    game = Game.new(short_scenario("heavy-combat"), seed)
    for _ in range(40):
        kinds = {c.kind for c in game.choices()}
        if "fire" in kinds:
            return game
        actor = next((c.actor for c in game.choices() if c.kind == "roll_power"), None)
        if actor is not None:
            game = game.apply(game.declare("roll_power", actor))
        else:
            game = game.apply(game.declare("pass", game.side_to_act))
    raise AssertionError("no attack offered")
