"""R001.29: a cloaked ship's position is secret. The Federation's view of a Klingon that
cloaks and moves for three turns keeps it where it was last seen, with its course hidden;
its moves read as hidden in the Federation's log until the cloak drops, then the whole
record appears. The rules themselves run on the true state."""

from __future__ import annotations

import pytest
from cloak_game import (
    FED,
    KLINGON,
    KRONOS,
    TRUE_MOVES,
    act,
    movement,
    played_turns,
    start,
    until,
)

from tactical.geometry.shapes import Pose
from tactical.rules import registry
from tactical.rules.base import last_seen
from tactical.rules.heavy_combat.duel import from_rule_state
from tactical.rules.heavy_combat.hidden import SEEN_KEY
from tactical.session.log import game_log, side_log
from tactical.session.views import viewed

HC = registry.get("heavy-combat")
LAST_SEEN = Pose(52.0, 24.0, 270.0)  # where the map puts the Kronos: it cloaks there


@pytest.fixture(scope="module")
def games():
    return played_turns(4)


def cloaked_games(games):
    """The games of the cloaked turns 2-4, up to the Result that drops the cloak."""
    return games[2:7]


def test_the_cloaked_ship_stands_where_it_was_last_seen_in_the_federation_view(games):
    moved = False
    for game in cloaked_games(games):
        view = HC.view_for(game.state, FED)
        assert view.unit(KRONOS).pose == LAST_SEEN
        assert last_seen(view) == {KRONOS}
        moved = moved or game.state.unit(KRONOS).pose != LAST_SEEN
        # the owner sees its own ship as it is: its view is the state itself
        assert HC.view_for(game.state, KLINGON) is game.state
        assert last_seen(game.state) == frozenset()
    assert moved  # the truth did move: the view is not the truth


def test_the_cloaked_ships_course_is_hidden_from_the_federation(games):
    before_result = games[2]  # turn 2, the close declared, not yet resolved
    true_ship = from_rule_state(before_result.state).ship(KRONOS)
    assert [m.kind for m in true_ship.manoeuvres] == ["close"]
    seen_ship = from_rule_state(HC.view_for(before_result.state, FED)).ship(KRONOS)
    assert seen_ship.manoeuvres == () and seen_ship.turning is None
    assert seen_ship.orders.cloak is None and seen_ship.orders.fire == ()
    assert seen_ship.spent == true_ship.spent - 1  # the close's point is not told
    rotating = games[4]  # turn 3, the rotation under way
    assert from_rule_state(rotating.state).ship(KRONOS).turning is not None
    assert from_rule_state(HC.view_for(rotating.state, FED)).ship(KRONOS).turning is None


def test_its_moves_read_as_hidden_in_the_federation_log_until_the_cloak_drops(games):
    for game in cloaked_games(games):
        text = side_log(game, FED).text()
        assert "Klingon: (hidden movement)" in text
        assert not [move for move in TRUE_MOVES if move in text]
        assert "range (R001.9)" not in text  # the Result's range band would place it
        assert side_log(game, KLINGON).text() == game_log(game).text()
    last = games[-1]  # after the Result that drops the cloak
    assert side_log(last, FED).text() == game_log(last).text()  # the whole record
    assert all(move in game_log(last).text() for move in TRUE_MOVES)


def test_the_rules_run_on_the_true_state(games):
    """The Kronos really closed, rotated and retreated: the view changed nothing of it."""
    after = games[-1]
    assert from_rule_state(after.state).ship(KRONOS).cloak == "disengaging"
    assert after.state.unit(KRONOS).pose != games[2].state.unit(KRONOS).pose
    assert SEEN_KEY not in after.state.rule_state  # seen again: the record is gone
    assert HC.view_for(after.state, FED) is after.state


def test_a_game_without_a_cloak_keeps_its_rule_state_as_before():
    game = start()
    for _ in range(40):
        kinds = {c.kind for c in game.choices()}
        game = (
            act(game, "resolve")
            if "resolve" in kinds
            else (act(game, "roll_power") if "roll_power" in kinds else game.pass_go())
        )
    assert set(game.state.rule_state) == {"heavy_combat"}
    assert viewed(game, FED) is game and viewed(game, KLINGON) is game


def test_a_shot_at_the_cloaked_ship_keeps_its_true_direction_from_the_federation():
    """R001.30: the direction is rolled against the true direction; the Federation's log
    has the roll and the damage, not the direction the ship truly was in."""
    game = movement(played_turns(1)[-1], 2, stop="Target selection / fire")
    assert game.side_to_act == FED
    game = until(act(game, "fire"), "Result")
    game = act(game, "resolve")
    true_text, fed_text = game_log(game).text(), side_log(game, FED).text()
    assert "direction" in fed_text  # the roll itself is public
    assert "actual" in true_text and "firer facing" in true_text
    assert "actual" not in fed_text and "firer facing" not in fed_text
