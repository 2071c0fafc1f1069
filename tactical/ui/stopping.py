"""Ending the play screen on a signal: its child processes are stopped before it exits.

The screen computes odds and the computer's moves in spawned child processes. A
signal's default action (SIGHUP) or an exception raised wherever the main thread
happens to be (SIGINT) ends the window's process without closing them, and they
stay behind, parentless, holding a core. While `stop_on_signals` is in force these
signals only ask the loop to stop; the loop then closes the screen, children first.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

STOP_SIGNALS = ("SIGTERM", "SIGINT", "SIGHUP")  # SIGHUP: a closed terminal (none on Windows)


@contextmanager
def stop_on_signals(stop: Callable[[], None]) -> Iterator[None]:
    """Within the block SIGTERM, SIGINT and SIGHUP call `stop` (which ends the loop); the
    previous handlers come back after it. Only the main thread may set handlers: from any
    other thread (a test driving the app) nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: object) -> None:
        stop()

    previous = {}
    for name in STOP_SIGNALS:
        number = getattr(signal, name, None)
        if number is not None:
            previous[number] = signal.signal(number, handler)
    try:
        yield
    finally:
        for number, old in previous.items():
            signal.signal(number, old)


def run_stoppable(app: Any) -> int:
    """`app.run()`, its exit code, with those signals closing the window as its close
    button does: the loop ends and stops its child processes."""
    import pygame

    quit_event = pygame.event.Event(pygame.QUIT)
    with stop_on_signals(lambda: pygame.event.post(quit_event)):
        return app.run()
