"""The order of play the tracker shows (G.5): the initiative winner activates first, so
once B wins the initiative the order reads B › A, although the session's goes keep the
map's order (A's first go in the activations offers it nothing)."""

from __future__ import annotations

import re

from tactical.io import builtin_map, load_map
from tactical.rules.dystopian_wars import sequence, tracking
from tactical.session.autoplay import next_game
from tactical.session.game import Game
from tactical.ui import palette
from tactical.ui.play_panels import TrackerView, tracker_html

B_WINS = 3  # the seed whose initiative roll-off B wins (both Field Orders rolled first)


def _after_initiative(seed: int) -> Game:
    game = Game.new(load_map(builtin_map("dystopian-wars")), seed)
    while tracking.get(game.state, "initiative") is None:
        game = next_game(game)
    return game


def _order_line(game: Game) -> str:
    view = TrackerView.of_game(game, palette.side_colours(game.state.sides))
    lines = [re.sub(r"<[^>]+>", "", line) for line in tracker_html(view).split("<br>")]
    return next(line for line in lines if line.startswith("Order:"))


def test_G5_the_tracker_shows_the_initiative_winner_first():
    game = _after_initiative(B_WINS)
    assert tracking.get(game.state, "initiative")["winner"] == "B"
    assert sequence.play_order(game.state) == ("B", "A")
    assert game.play_order == ("B", "A")
    assert game.order == ("A", "B")  # whose go it is: the session's order, unchanged
    assert _order_line(game) == "Order: B › A"
    # B really activates first: A's go in the activations offers it nothing
    while game.phase_name != sequence.ACTIVATION:
        game = next_game(game)
    assert game.side_to_act == "A"
    assert game.system.actions(game.state, game.position, "A") == ()
    assert [c.kind for c in game.system.actions(game.state, game.position, "B")] == ["activate"]
    assert _order_line(game) == "Order: B › A"


def test_G5_before_the_roll_and_when_A_wins_the_order_is_the_maps():
    game = Game.new(load_map(builtin_map("dystopian-wars")), B_WINS)
    assert sequence.play_order(game.state) == ()
    assert _order_line(game) == "Order: A › B"
    a_wins = _after_initiative(1)
    assert tracking.get(a_wins.state, "initiative")["winner"] == "A"
    assert _order_line(a_wins) == "Order: A › B"
