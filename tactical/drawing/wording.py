"""Text laid out in a width, by whatever measures it (a screen font, a PDF font)."""

from __future__ import annotations

from collections.abc import Callable


def wrap(line: str, width: float, measure: Callable[[str], float]) -> list[str]:
    """`line` broken between words into lines no wider than `width` by `measure` (a word
    too long alone keeps a line of its own)."""
    parts: list[str] = []
    current = ""
    for word in line.split(" "):
        trial = f"{current} {word}".strip()
        if current and measure(trial) > width:
            parts.append(current)
            current = word
        else:
            current = trial
    if current:
        parts.append(current)
    return parts
