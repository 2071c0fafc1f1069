"""Whether a resolver's words are wanted: the computer players weigh an attack by the
states its resolver makes over every outcome, never by its events, so a resolver may leave
out what only its events need (`unworded`), as long as the states are the same.

A context variable, set only for the length of a `with unworded():` block: nothing is left
behind for the next resolution, the next game or another thread.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_WORDED: ContextVar[bool] = ContextVar("worded", default=True)


def worded() -> bool:
    """Whether a resolution made now is read for its events (the default) or its state only."""
    return _WORDED.get()


@contextmanager
def unworded() -> Iterator[None]:
    """Resolutions made inside are read for their states only (their events may be short)."""
    token = _WORDED.set(False)
    try:
        yield
    finally:
        _WORDED.reset(token)
