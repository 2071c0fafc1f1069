"""What the command line prints, with no control characters: a map's names are the user's
text, and an escape sequence in one (a title that clears the screen, recolours it or
retitles the window) must reach the terminal as nothing rather than as a command.

`printable_streams()` wraps stdout and stderr for the length of a command, so that every
`print` of every command passes through one filter, `printable`: line breaks and tabs
stay, every other control character (C0, DEL, C1: ESC and CSI among them) is dropped.
Bytes written to a stream's `buffer` (the JSON of `check`, written block by block) are
not filtered: JSON escapes the C0 controls itself.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # all but \t (09) and \n (0a)


def printable(text: str) -> str:
    """`text` without its control characters, line breaks and tabs kept."""
    return _CONTROL.sub("", text)


class _Printable:
    """A text stream that drops control characters from what is written to it; everything
    else (flush, fileno, buffer, encoding, isatty) is the wrapped stream's."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(printable(text))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextmanager
def printable_streams() -> Iterator[None]:
    """stdout and stderr filtered by `printable` while the block runs (then as they were)."""
    out, err = sys.stdout, sys.stderr
    sys.stdout = _Printable(out)  # type: ignore[assignment]
    sys.stderr = _Printable(err)  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err
