"""Undo, redo, goto and reset to the start of the activation over Game snapshots."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tactical.errors import UserError
from tactical.io import builtin_map, load_map
from tactical.model import FrozenMap
from tactical.rules.base import Action
from tactical.session.autoplay import next_game
from tactical.session.game import MOVE, Game
from tactical.session.history import History, activation_start

SEED = 99


@pytest.fixture(scope="module")
def bfm_map():
    return load_map(builtin_map("battlefleet-mars"))


def laser(actor: str, target: str) -> Action:
    return Action("attack", actor, FrozenMap(weapon="laser", target=target))


def rotate(unit: str, degrees: int = 30) -> Action:
    return Action(MOVE, unit, FrozenMap(path=f"C{degrees}"))


def in_combat(bfm_map) -> History:
    history = History.start(bfm_map, SEED)
    while not history.game.phase.alternating:
        history = history.apply(Action("pass", history.game.side_to_act))
    return history


def test_undo_and_redo_walk_the_snapshots(bfm_map):
    history = in_combat(bfm_map)
    start = history.cursor
    history = history.apply(laser("deimos-base", "ares-cruiser"))
    history = history.apply(laser("ares-catapult", "mars-fighters"))
    latest = history.game
    back = history.undo().undo()
    assert back.cursor == start and back.game is history.games[start]
    assert back.can_redo and back.can_undo
    again = back.redo().redo()
    assert again.game is latest and not again.can_redo
    assert history.length == start + 2


def test_a_new_action_discards_the_redo_line(bfm_map):
    history = in_combat(bfm_map).apply(laser("deimos-base", "ares-cruiser"))
    history = history.apply(laser("ares-catapult", "mars-fighters"))
    undone = history.undo().undo()
    replaced = undone.apply(laser("mars-catapult", "ares-cruiser"))
    assert replaced.length == undone.cursor + 1 and not replaced.can_redo
    assert replaced.actions[-1].actor == "mars-catapult"
    assert replaced.steps[: undone.cursor] == history.steps[: undone.cursor]


def test_goto_any_step(bfm_map):
    history = in_combat(bfm_map).apply(laser("deimos-base", "ares-cruiser"))
    assert history.goto(0).game is history.first
    assert history.goto(0).goto(history.length).game is history.last
    for bad in (-1, history.length + 1, 1.0, True):
        with pytest.raises(UserError, match="no step"):
            history.goto(bad)


def test_undo_at_the_start_and_redo_at_the_end_are_user_errors(bfm_map):
    history = History.start(bfm_map, SEED)
    with pytest.raises(UserError, match="nothing to undo"):
        history.undo()
    with pytest.raises(UserError, match="nothing to redo"):
        history.redo()


def test_a_refused_action_leaves_the_history_alone(bfm_map):
    history = in_combat(bfm_map)
    with pytest.raises(UserError):
        history.apply(laser("ares-cruiser", "deimos-base"))  # not Ares' go
    assert history.length == history.cursor


def test_reset_activation_where_the_side_keeps_the_go(bfm_map):
    """Table moves keep the go: the activation is everything since the side to act changed."""
    history = in_combat(bfm_map).apply(laser("deimos-base", "ares-cruiser"))
    began = history.cursor
    history = history.apply(rotate("ares-fighters")).apply(rotate("ares-cruiser", 45))
    assert history.activation_start() == began
    reset = history.reset_activation()
    assert reset.cursor == began and reset.game.side_to_act == "Ares"
    assert reset.can_redo  # the reset is undoable like any goto
    assert reset.reset_activation().cursor == began  # nothing more in this activation


def test_reset_activation_stops_at_the_phase(bfm_map):
    """R000.16: the Logistics go of Mars began with the game."""
    history = History.start(bfm_map, SEED).apply(rotate("mars-fighters"))
    history = history.apply(rotate("mars-fighters"))
    assert history.activation_start() == 0
    passed = history.apply(Action("pass", "Mars"))
    assert passed.activation_start() == passed.cursor  # Ares has done nothing yet
    assert passed.apply(rotate("ares-fighters")).activation_start() == passed.cursor


def test_reset_activation_spans_the_other_sides_passes():
    """DW (R002.28): while a squadron activates the other side may only pass; the activation
    began with `activate`, not with the last of those passes."""
    game = Game.new(load_map(builtin_map("dystopian-wars")), SEED)
    games = [game]
    while not (game.steps and game.steps[-1].action.kind == "command"):
        game = next_game(game)
        games.append(game)
        assert len(games) < 200
    kinds = [s.action.kind for s in game.steps]
    activate = len(kinds) - 1 - kinds[::-1].index("activate")
    assert kinds[activate + 1] == "pass" and not game.rule_choices()
    assert activation_start(games) == activate
    history = History(tuple(games), len(games) - 1)
    assert history.reset_activation().game.steps == game.steps[:activate]


def test_history_validates_its_cursor(bfm_map):
    game = Game.new(bfm_map, SEED)
    with pytest.raises(UserError, match="cursor"):
        History((game,), 1)
    with pytest.raises(UserError, match="starting game"):
        History((), 0)
    assert History((game,), 0).truncated().games == (game,)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    picks=st.lists(st.integers(min_value=0, max_value=40), min_size=1, max_size=8),
    back=st.integers(min_value=0, max_value=8),
)
def test_property_any_cursor_is_the_replay_of_its_actions(bfm_map, picks, back):
    """Whatever was played and however far it was undone, the game at the cursor is the
    replay of the actions before it, and a save reopens it with the same log."""
    from tactical.session.autoplay import candidate_params
    from tactical.session.log import game_log
    from tactical.session.saving import history_from_saved, saved_game

    history = History.start(bfm_map, SEED)
    for pick in picks:
        choices = history.game.choices()
        choice = choices[pick % len(choices)]
        params = next(candidate_params(choice))
        if choice.kind == MOVE:
            params = FrozenMap(path=f"C{15 + pick}")
        try:
            history = history.apply(Action(choice.kind, choice.actor, params))
        except UserError:
            continue
    history = history.goto(max(0, history.length - back))
    replayed = Game.new(bfm_map, SEED)
    for action in history.actions[: history.cursor]:
        replayed = replayed.apply(action)
    assert replayed.state == history.game.state
    assert replayed.position == history.game.position
    assert game_log(replayed).text() == game_log(history.game).text()
    reopened = history_from_saved(saved_game(history))
    assert (reopened.cursor, reopened.length) == (history.cursor, history.length)
    assert game_log(reopened.game).json() == game_log(history.game).json()
