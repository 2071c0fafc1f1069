"""A game's steps run with the cyclic garbage collector paused (`games.collector_paused`),
and it runs again after each, even when the step fails; a collector already paused by
the caller stays paused."""

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
