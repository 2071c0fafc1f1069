"""What reads like code in a string a player reads (issue 13), shared by the tests that scan
what the screen draws and what the command line prints: a repr (`AttackSummary(hits=...`,
`FrozenMap(`), Python's `True` / `False` / `None`, or a snake_case name (`take_default`)."""

from __future__ import annotations

import re

REPR = re.compile(r"\b[A-Z][A-Za-z]+\([a-z_]+=|\bFrozenMap\(|\bmappingproxy\(|<[a-z_.]+ object at")
PYTHON_WORDS = re.compile(r"\b(True|False|None)\b")
SNAKE = re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b")
TAGS = re.compile(r"<[^>]*>")


def code_like(text: str) -> list[str]:
    """What in `text` reads like code (markup tags and file paths aside)."""
    plain = TAGS.sub(" ", text)
    words = [w for w in plain.split() if "/" not in w and "." not in w.strip(".,:;")]
    found = REPR.findall(plain) + PYTHON_WORDS.findall(plain)
    found += [m for w in words for m in SNAKE.findall(w)]
    return found
