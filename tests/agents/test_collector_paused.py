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


def _young_made() -> list[list[int]]:
    return [[k] for k in range(2_000)]  # tracked containers, more than a young pass's threshold


def test_what_a_paused_block_kept_is_handed_over_old_not_walked_young():
    assert gc.get_freeze_count() == 0
    with collector_paused():
        kept = _young_made()
        assert gc.get_count()[0] >= len(kept)
    assert gc.isenabled()
    old = {id(found) for found in gc.get_objects(generation=2)}
    assert id(kept) in old and id(kept[0]) in old  # nothing left young for a pass to walk
    assert gc.get_freeze_count() == 0  # nothing left frozen either
    assert gc.is_tracked(kept[0]) and kept[-1] == [1_999]


def test_objects_a_caller_froze_stay_frozen():
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with collector_paused():
            _young_made()
        assert gc.get_freeze_count() == frozen
        assert gc.isenabled()
    finally:
        gc.unfreeze()


def test_a_cycle_made_in_a_paused_block_is_still_collected():
    import weakref

    class Node:
        pass

    with collector_paused():
        node = Node()
        node.me = node
        watched = weakref.ref(node)
        del node
    assert watched() is not None  # a cycle: reference counting cannot free it
    gc.collect()
    assert watched() is None
