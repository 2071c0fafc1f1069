"""Memory and time linear in a game's length: a history keeps its steps and a checkpoint
every few steps, not a game per step, and makes any game of the line again exactly.

A save of 16,000 hand adjustments took minutes and over a gigabyte to open: each game
held a copy of every step before it."""

from __future__ import annotations

import gc
import tracemalloc

import pytest

from tactical.io import builtin_map, load_map
from tactical.io.saves import SavedAction, SavedGame
from tactical.model import FrozenMap
from tactical.session.autoplay import next_game
from tactical.session.game import Game
from tactical.session.history import History
from tactical.session.replay import Replay
from tactical.session.saving import history_from_saved, saved_game
from tactical.session.steps import CHECKPOINT_EVERY


def adjust_moves(count: int, name: str = "battlefleet-mars") -> SavedGame:
    """A save of `count` hand moves of one unit to and fro (what the issue measured)."""
    state = load_map(builtin_map(name))
    unit = state.units[0]
    moves = tuple(
        SavedAction(
            "adjust",
            unit.id,
            FrozenMap(
                op="move",
                x=unit.pose.x + 0.01 * (index % 50),
                y=unit.pose.y,
                heading=unit.pose.heading,
            ),
        )
        for index in range(count)
    )
    return SavedGame(state, 1, moves, count)


def _peak(count: int) -> int:
    saved = adjust_moves(count)
    gc.collect()
    tracemalloc.start()
    history = history_from_saved(saved)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert history.length == count
    return peak


def test_opening_a_long_save_takes_memory_in_proportion_to_its_length():
    small, large = _peak(2000), _peak(8000)
    assert large < 6 * small, (small, large)


def test_a_game_holds_one_list_of_steps_for_its_whole_line():
    game = Game.new(load_map(builtin_map("battlefleet-mars")), 1)
    games = [game]
    for _ in range(40):
        games.append(next_game(games[-1]))
    lists = {id(g.steps._items) for g in games}
    assert len(lists) == 1
    assert [len(g.steps) for g in games] == list(range(41))
    assert games[-1].steps[:3] == tuple(games[3].steps)


@pytest.mark.parametrize("name", ["battlefleet-mars", "dystopian-wars", "sw-d6-capital"])
def test_every_game_of_the_line_is_made_again_exactly(name):
    """The history keeps no game per step: each is made again from its step's tables, a
    checkpoint and the steps since, roll for roll."""
    game = Game.new(load_map(builtin_map(name)), 5)
    played = [game]
    for _ in range(2 * CHECKPOINT_EVERY + 10):
        played.append(next_game(played[-1]))
    history = history_from_saved(saved_game(played[-1]))
    gc.collect()
    for index in (1, CHECKPOINT_EVERY, CHECKPOINT_EVERY + 1, 2 * CHECKPOINT_EVERY + 7, 70, 3):
        again = history.goto(index).game
        assert again.state == played[index].state
        assert again.position == played[index].position
        assert again.steps == history.steps[:index]
        step = history.steps[index - 1]
        assert step.state_after == played[index].state
        assert step.state_before == played[index - 1].state
        assert step.words == played[index].steps[-1].words
    frames = list(Replay(history).frames())
    assert [f.state for f in frames] == [g.state for g in played]


def test_undo_and_a_new_line_after_it_keep_the_old_games_apart():
    history = History.start(load_map(builtin_map("battlefleet-mars")), 2)
    for _ in range(10):
        history = history.apply(next_game(history.game).steps[-1].action)
    back = history.goto(4)
    other = back.apply(next_game(back.game).steps[-1].action)
    assert other.length == 5 and history.length == 10
    assert other.steps[:4] == history.steps[:4] and other.steps[4] is not history.steps[4]
    assert history.goto(10).game.state == history.last.state
    assert other.game.steps[-1] is other.steps[4] and other.game.step_number == 5
    assert history.goto(5).game.steps[-1] is history.steps[4]


def test_a_game_sent_to_another_process_keeps_its_steps():
    """A computer player decides in a child process: the game crosses as its steps and the
    tables still held, and plays on there."""
    import pickle

    game = Game.new(load_map(builtin_map("heavy-combat")), 3)
    for _ in range(CHECKPOINT_EVERY + 3):
        game = next_game(game)
    copy = pickle.loads(pickle.dumps(game))
    assert copy.state == game.state and len(copy.steps) == len(game.steps)
    assert [s.action for s in copy.steps] == [s.action for s in game.steps]
    assert copy.steps[-1].state_after == game.state
    after = next_game(copy)
    assert after.steps[-1].state_before == game.state
