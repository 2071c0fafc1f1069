"""A game is played with the cyclic garbage collector paused (`games.collector_paused`),
and it runs again after it, even when a step fails; a collector already paused by the
caller stays paused."""

from __future__ import annotations

import gc

import pytest

from tactical.agents.games import collector_paused


def test_the_collector_is_paused_inside_and_running_after_even_on_error():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ValueError), collector_paused():
        raise ValueError("refused")
    assert gc.isenabled()


def test_a_collector_paused_by_the_caller_stays_paused():
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_game_is_played_with_the_collector_paused_and_running_after():
    from tactical.agents import play_game
    from tactical.io import builtin_map, load_map

    state = load_map(builtin_map("battlefleet-mars"))
    seen: list[bool] = []

    def first_step(_game) -> None:
        seen.append(gc.isenabled())
        if len(seen) >= 2:
            raise ValueError("enough")

    assert gc.isenabled()
    with pytest.raises(ValueError):
        play_game(state, 100, on_step=first_step)
    assert seen[-1] is False  # the decisions and the steps after them: paused
    assert gc.isenabled()
