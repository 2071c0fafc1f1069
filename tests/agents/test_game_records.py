"""What `play_game` hands back (`GameRecord`) and how it seats the players.

The record's losses are the material measure of the final state, its damage dealt the
enemies' lost strength in the rule system's units; the players are seeded by the game's
seed and their seat, and a side that is not in the game is refused by name.
"""

from __future__ import annotations

import re

import pytest
from agent_scenarios import short_scenario

from tactical.agents import GreedyPlayer, RandomPlayer, SearchPlayer, play_game
from tactical.agents.evaluation import Material
from tactical.agents.games import players_for
from tactical.errors import UserError
from tactical.session.game import Game


@pytest.fixture(scope="module")
def record():
    return play_game(short_scenario("battlefleet-mars", turns=2), 4, {"Ares": "random"})


def test_the_record_counts_each_sides_losses_and_the_damage_it_dealt(record):
    game = record.game
    material = Material(game)
    losses = material.losses(game.state)
    strength = material.total_strength
    assert record.losses == {side: losses.get(side, 0.0) for side in game.sides}
    assert record.damage_dealt == {
        "Mars": losses.get("Ares", 0.0) * strength["Ares"],
        "Ares": losses.get("Mars", 0.0) * strength["Mars"],
    }
    assert any(value > 0 for value in record.damage_dealt.values())  # a game with hits
    assert record.players == {"Mars": "greedy", "Ares": "random"}
    assert record.seed == 4
    assert record.turns == record.outcome.turn
    assert record.steps == game.step_number == len(record.whys)
    assert record.winner == record.outcome.winner


def test_levels_become_players_seeded_by_the_game_and_the_seat():
    game = Game.new(short_scenario("heavy-combat"), 0)
    mine = RandomPlayer(99)
    seats = players_for(game, {"Klingon": "search", "Federation": mine}, 7, playouts=5)
    assert seats["Federation"] is mine
    klingon = seats["Klingon"]
    assert isinstance(klingon, SearchPlayer)
    assert klingon.seed == 7 * 31 + 1  # the second seat
    assert klingon.budget.playouts == 5
    default = players_for(game, {}, 7)
    assert isinstance(default["Federation"], GreedyPlayer)
    assert [player.seed for player in default.values()] == [7 * 31, 7 * 31 + 1]


def test_a_side_not_in_the_game_is_refused_by_name():
    game = Game.new(short_scenario("heavy-combat"), 0)
    with pytest.raises(UserError) as refused:
        players_for(game, {"Romulan": "greedy"}, 0)
    assert str(refused.value) == (
        "no side 'Romulan' in this game: its sides are Federation, Klingon"
    )


def test_a_game_that_does_not_end_in_its_steps_is_refused():
    with pytest.raises(UserError) as refused:
        play_game(short_scenario("heavy-combat"), 0, max_steps=3)
    assert str(refused.value).startswith("the game did not end in 3 steps (turn 1, ")


def test_the_search_budget_given_to_play_game_reaches_the_search_players():
    record = play_game(
        short_scenario("heavy-combat", turns=2), 1, {"Federation": "search"},
        playouts=2, seconds=None, width=2, horizon=1,
    )  # fmt: skip
    spent = [
        int(found.group(1))
        for _, side, why in record.whys
        if side == "Federation" and (found := re.search(r"\((\d+) for \d+ choices", why))
    ]
    assert spent  # close calls were played out
    assert max(spent) <= 2  # the default budget would play out 64
