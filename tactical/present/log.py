"""What the log panel says: its commands, the step it stands at, the lines it keeps and
how a long line breaks. No pygame here: the width of a piece of text is measured by the
function the panel passes in (its font's).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from tactical.present.tracker import ReplayView

LOG_LINES = 300  # lines of the log kept in the panel; the exports hold everything

LogCommandName = Literal[
    "undo",
    "redo",
    "reset",
    "goto",
    "export-text",
    "export-json",
    "replay",
    "replay-prev",
    "replay-next",
    "replay-end",
]


@dataclass(frozen=True)
class LogCommand:
    """What the log panel asks of the App; `step` is set for "goto"."""

    name: LogCommandName
    step: int | None = None


def step_label(step: int, length: int, replay: ReplayView | None = None) -> str:
    if replay is not None:
        return f"replay {replay.step} of {replay.length}"
    return f"step {step} of {length}"


def log_tail(lines: Sequence[str], limit: int = LOG_LINES) -> tuple[str, ...]:
    """The last `limit` lines (the panel's share of the log)."""
    return tuple(lines[-limit:]) if limit > 0 else ()


def wrap_text(text: str, width: int, measure: Callable[[str], int]) -> tuple[str, ...]:
    """`text` broken at spaces into pieces no wider than `width` pixels by `measure`;
    a word wider than the whole width is cut where it must be."""
    if not text or measure(text) <= width:
        return (text,)
    pieces: list[str] = []
    current = ""
    for word in text.split(" "):
        trial = f"{current} {word}" if current else word
        if measure(trial) <= width:
            current = trial
            continue
        if current:
            pieces.append(current)
        while measure(word) > width and len(word) > 1:
            cut = max(1, _fitting_prefix(word, width, measure))
            pieces.append(word[:cut])
            word = word[cut:]
        current = word
    if current:
        pieces.append(current)
    return tuple(pieces)


def _fitting_prefix(word: str, width: int, measure: Callable[[str], int]) -> int:
    low, high = 1, len(word)
    while low < high:
        middle = (low + high + 1) // 2
        if measure(word[:middle]) <= width:
            low = middle
        else:
            high = middle - 1
    return low
