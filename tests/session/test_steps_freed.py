"""A game's steps hold no reference cycle: a dropped game is freed by reference counting,
without the cyclic collector, and a step still finds its tables however it is reached."""

from __future__ import annotations

import gc
import weakref

from tactical.io import builtin_map, load_map
from tactical.session import steps as step_lines
from tactical.session.autoplay import next_game
from tactical.session.game import Game
from tactical.session.steps import CHECKPOINT_EVERY

MAP = load_map(builtin_map("battlefleet-mars"))


def _played(count: int, seed: int = 4) -> list[Game]:
    games = [Game.new(MAP, seed)]
    for _ in range(count):
        games.append(next_game(games[-1]))
    return games


def test_a_dropped_game_and_its_forks_are_freed_without_the_collector():
    games = _played(CHECKPOINT_EVERY + 6)
    fork = next_game(games[5])  # a new line after an undo: a list of its own
    assert fork.steps._items is not games[-1].steps._items
    assert fork.steps[-1].state_before == games[5].state  # the tables are read, held
    gone = [
        weakref.ref(games[-1]),
        weakref.ref(games[-1].steps._items),
        weakref.ref(fork),
        weakref.ref(fork.steps._items),
    ]
    step_lines._rebuilt.clear()
    running = gc.isenabled()
    gc.disable()
    try:
        del games, fork
        assert [ref() is None for ref in gone] == [True] * len(gone)
    finally:
        if running:
            gc.enable()


def test_steps_that_outlived_their_line_still_rebuild_their_tables():
    """Steps kept as a tuple (a slice of a line) after every game holding them is gone:
    the tables are made again from the steps before, reached back one by one."""
    kept = _played(CHECKPOINT_EVERY + 8)[-1].steps[:]
    step_lines._rebuilt.clear()
    gc.collect()
    again = _played(CHECKPOINT_EVERY + 8)
    for number in (1, CHECKPOINT_EVERY, CHECKPOINT_EVERY + 5):
        assert kept[number - 1].tables._first_list() is None  # reached back step by step
        assert kept[number - 1].state_before == again[number - 1].state
        assert kept[number - 1].state_after == again[number].state


def test_a_new_line_made_of_steps_keeps_the_lists_they_were_read_from():
    """A line made from another's steps (a tuple) keeps their first list alive, so the
    steps' tables are rebuilt from it without reaching back one by one."""
    games = _played(CHECKPOINT_EVERY + 3)
    first = games[-1].steps._items
    line = step_lines.StepLine(tuple(games[-1].steps))
    assert line._items.earlier == (first,)
    assert step_lines.StepLine(())._items.earlier == ()


def test_a_line_read_backwards_stops_at_its_own_last_step():
    games = _played(8)
    line, shorter = games[-1].steps, games[4].steps  # one list: the shorter a prefix
    assert shorter._items is line._items and len(shorter) < len(line)
    assert list(reversed(shorter)) == list(shorter)[::-1]
    assert list(reversed(line)) == list(line)[::-1]
    assert list(reversed(games[0].steps)) == []
