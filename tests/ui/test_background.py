"""Work off the frame loop (`tactical.ui.background`): a frame never waits for it, the
latest key asked wins, an error reaches the frame that asks for its key."""

from __future__ import annotations

import threading
import time

import pygame
import pytest
from ui_events import key

from tactical.io import load_map
from tactical.io.paths import builtin_map
from tactical.ui.app import App
from tactical.ui.background import PENDING, Background


def _until_done(background, key, compute, seconds=10.0):
    deadline = time.monotonic() + seconds
    while (found := background.get(key, compute)) is PENDING:
        assert time.monotonic() < deadline, "the background work never finished"
        time.sleep(0.005)
    return found


def test_a_result_is_pending_until_done_and_then_kept():
    gate = threading.Event()
    calls = []

    def compute():
        calls.append(1)
        gate.wait(5)
        return 42

    background = Background()
    assert background.get("a", compute) is PENDING
    assert background.get("a", compute) is PENDING  # asked again: not started twice
    gate.set()
    assert _until_done(background, "a", compute) == 42
    assert background.get("a", compute) == 42
    assert calls == [1]


def test_the_latest_key_wins_and_an_older_result_is_dropped():
    gate = threading.Event()
    background = Background()
    assert background.get("old", lambda: gate.wait(5) and "old result") is PENDING
    assert background.get("new", lambda: "new result") is PENDING
    gate.set()
    assert _until_done(background, "new", lambda: "new result") == "new result"
    time.sleep(0.05)  # the old thread has finished by now: its result was not kept
    assert background.get("old", lambda: "asked again") is PENDING
    assert _until_done(background, "old", lambda: "asked again") == "asked again"


def test_an_error_is_raised_to_the_frame_that_asks_for_its_key():
    def compute():
        raise ValueError("no table")

    background = Background()
    with pytest.raises(ValueError, match="no table"):
        _until_done(background, "k", compute)
    with pytest.raises(ValueError, match="no table"):
        background.wait("k", compute)


def test_the_advice_key_does_not_stall_frames_and_the_ghosts_appear():
    """V with a cold odds cache: the frames go on (each well under the advice's own time)
    and the advised moves appear on a later frame."""
    app = App(load_map(builtin_map("dystopian-wars.toml")), (1280, 800), headless=True)
    app.select("ruler")
    started = time.perf_counter()
    key(app, pygame.K_v)
    assert app.play.overlays.advice_ready(app.state, "ruler") is PENDING
    assert "working out the best moves of Ruler Class Battleship" in app.view.status
    frames = []
    while app.play.overlays.advice_ready(app.state, "ruler") is PENDING:
        before = time.perf_counter()
        app.frame()
        frames.append(time.perf_counter() - before)
        assert time.perf_counter() - started < 30
    advice = app.play.overlays.advice_ready(app.state, "ruler")
    assert advice and advice == app.play.overlays.advice(app.state, "ruler")
    assert len(frames) >= 2  # frames were drawn while the advice was worked out
    app.frame()
    best = advice[0]
    assert app.view.status.startswith(f"advice: best {best.path}, deals {best.dealt:.2f}")
