"""AI-vs-AI games in every rule system at every level.

Every game ends (an `Outcome`), no decision is refused by the session (the actions
replay through a fresh `Game` one by one), nothing raises, and the same seed gives the
same game. The search level runs with a tiny deterministic budget (play-outs, no clock).
"""

from __future__ import annotations

import re

import pytest
from agent_scenarios import RULES, TINY_SEARCH
from plain_words import code_like

from tactical.agents import LEVELS, play_game
from tactical.session.game import Game
from tactical.session.log import game_log

SEED = 15


def ids_in(state, text: str) -> list[str]:
    """Unit ids a why names instead of the unit's name (ids like `ares-catapult`)."""
    return [
        u.id
        for u in state.units
        if u.name
        and u.name != u.id
        and re.search(rf"(?<![\w-]){re.escape(u.id)}(?![\w-])", text)
        and any(c in u.id for c in "-_0123456789")
    ]


def replayed(record) -> Game:
    """The record's actions applied one by one to a new game: UserError if one is refused."""
    game = Game.new(record.game.initial, record.seed)
    for step in record.game.steps:
        game = game.apply(step.action, forced=step.forced)  # as a save records it
    return game


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("rules_id", RULES)
def test_an_ai_game_ends_with_every_decision_accepted(scenarios, rules_id, level):
    state = scenarios[rules_id]
    players = {side: level for side in state.sides}
    record = play_game(state, SEED, players, **TINY_SEARCH)
    assert record.outcome is not None
    assert record.game.over and record.refused == 0
    assert len(record.whys) == record.steps > 0
    assert all(why.strip() for _, _, why in record.whys)
    assert not [why for _, _, why in record.whys if code_like(why) or ids_in(state, why)]
    again = replayed(record)
    assert again.outcome == record.outcome
    assert game_log(again).text() == record.log_text
    assert "Game over:" in record.log_text.splitlines()[-1]
    # the log a player exports or replays reads as words: no key=value, no code
    lines = record.log_text.splitlines()
    assert not [line for line in lines if "=" in line or code_like(line) or ids_in(state, line)]


@pytest.mark.parametrize("rules_id", RULES)
def test_the_same_seed_gives_the_same_game(scenarios, rules_id):
    state = scenarios[rules_id]
    sides = state.sides
    players = {sides[0]: "greedy", sides[-1]: "random"}
    first = play_game(state, SEED + 1, players, **TINY_SEARCH)
    second = play_game(state, SEED + 1, players, **TINY_SEARCH)
    assert first.log_text == second.log_text
    assert first.whys == second.whys
