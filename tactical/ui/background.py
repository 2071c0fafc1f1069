"""Work that would stall the frame loop, done on a background thread, keyed by what it
was asked for: the latest key asked wins, an older result still running is dropped.

The frames go on while the thread works (it holds the interpreter lock in turns with the
frame loop); a result is picked up by a later frame with the same key.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any

PENDING = object()  # the result asked for is being worked out


class Background:
    """One keyed computation at a time off the frame loop (see the module docstring)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._key: Hashable | None = None
        self._thread: threading.Thread | None = None
        self._outcome: tuple[Hashable, bool, Any] | None = None  # key, ok, value or error

    def get(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        """The result for `key` if it is done (an error it raised is raised here), else
        `PENDING`, starting `compute` for it unless it already runs."""
        with self._lock:
            outcome = self._outcome
            if outcome is not None and outcome[0] == key:
                return _unwrap(outcome)
            if self._key != key or self._thread is None:
                self._start(key, compute)
        return PENDING

    def wait(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        """The result for `key`, waiting for it (started now if nothing works on it)."""
        while (found := self.get(key, compute)) is PENDING:
            thread = self._thread
            if thread is not None:
                thread.join()
        return found

    def _start(self, key: Hashable, compute: Callable[[], Any]) -> None:
        self._key = key

        def work() -> None:
            try:
                outcome = (key, True, compute())
            except Exception as error:  # handed to the frame that asks for this key
                outcome = (key, False, error)
            with self._lock:
                if self._key == key:  # a newer key asked meanwhile: this one is dropped
                    self._outcome = outcome
                    self._thread = None

        # a daemon: closing the window does not wait for a computation nobody will see
        self._thread = threading.Thread(target=work, name="tactical-background", daemon=True)
        self._thread.start()


def _unwrap(outcome: tuple[Hashable, bool, Any]) -> Any:
    _, ok, value = outcome
    if not ok:
        raise value
    return value
