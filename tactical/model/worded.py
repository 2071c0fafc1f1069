"""Whether a resolver's words are wanted: the computer players weigh an attack by the
states its resolver makes over every outcome, never by its events, so a resolver may leave
out what only its events need (`unworded`), as long as the states are the same. Where
they read only the units' conditions of those states (`read_for_conditions`: their
material value), a resolver may also merge outcomes that leave every condition the same.

Context variables, each set only for the length of its `with` block: nothing is left
behind for the next resolution, the next game or another thread.
"""

from __future__ import annotations

from contextvars import ContextVar

_WORDED: ContextVar[bool] = ContextVar("worded", default=True)


_NOTED: ContextVar[WordsNoted | None] = ContextVar("words_noted", default=None)


def worded() -> bool:
    """Whether a resolution made now is read for its events (the default) or its state only
    (then the question is noted, inside `noting_words`)."""
    said = _WORDED.get()
    if not said:
        noted = _NOTED.get()
        if noted is not None:
            noted.asked = True
    return said


class _Setting:
    """`with`: a context variable set to a value for the block, then reset, even on an
    error. A class rather than a generator (`contextlib.contextmanager`): the computer
    players enter one for every candidate they weigh, and a generator's frame and its
    wrapper cost several times the setting itself."""

    __slots__ = ("_token", "_value", "_variable")

    def __init__(self, variable: ContextVar[bool], value: bool) -> None:
        self._variable = variable
        self._value = value

    def __enter__(self) -> None:
        self._token = self._variable.set(self._value)

    def __exit__(self, *_: object) -> None:
        self._variable.reset(self._token)


def unworded() -> _Setting:
    """Resolutions made inside are read for their states only (their events may be short)."""
    return _Setting(_WORDED, False)


class WordsNoted:
    """`with`: resolutions made inside are read for their states only (`unworded`), and
    `asked` says afterwards whether any asked `worded()`. One that never asked made the
    very events and summary a worded one would: a computer player's trial of an action
    that rolled nothing is then the step itself (`session.game.Game.tried`)."""

    __slots__ = ("_tokens", "asked")

    def __init__(self) -> None:
        self.asked = False

    def __enter__(self) -> WordsNoted:
        self._tokens = (_WORDED.set(False), _NOTED.set(self))
        return self

    def __exit__(self, *_: object) -> None:
        words, noted = self._tokens
        _NOTED.reset(noted)
        _WORDED.reset(words)


def noting_words() -> WordsNoted:
    """`unworded`, noting whether a resolution inside asked `worded()` (`WordsNoted`)."""
    return WordsNoted()


_CONDITIONS_ONLY: ContextVar[bool] = ContextVar("conditions_only", default=False)


def conditions_only() -> bool:
    """Whether a resolution made now is read only for its units' conditions (what
    `RuleSystem.unit_conditions` gives of its state), not the default."""
    return _CONDITIONS_ONLY.get()


def read_for_conditions() -> _Setting:
    """Resolutions made inside are read for their units' conditions alone: at a roll that
    nothing after it reads more of, a resolver may merge the outcomes that leave every
    condition the same (the first reached standing for them). The states then differ; the
    odds of the conditions, and of all they decide, do not."""
    return _Setting(_CONDITIONS_ONLY, True)
