"""What reads like code in a string a player reads, shared by the tests that scan what the
screen draws and what the command line prints: a repr (`AttackSummary(hits=...`,
`FrozenMap(`), Python's `True` / `False` / `None`, a snake_case name (`take_default`), a
key joined by a colon (`A:battle-line`), a list in brackets (`[ship Nowhere, ...`), and
(`ids_shown`) the id of a unit or a terrain piece where its name belongs (`'ruler-1'`,
`markgraf: no path yet`)."""

from __future__ import annotations

import re
from collections.abc import Iterable

REPR = re.compile(r"\b[A-Z][A-Za-z]+\([a-z_]+=|\bFrozenMap\(|\bmappingproxy\(|<[a-z_.]+ object at")
PYTHON_WORDS = re.compile(r"\b(True|False|None)\b")
SNAKE = re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b")
TAGS = re.compile(r"<[^>]*>")
# a side and a key joined by a colon with no space ("A:battle-line"): prose puts a space
# after its colons, and a clock ("12:30") is numbers
COLON_KEY = re.compile(r"(?<![\w:/-])[A-Za-z][\w-]*:[a-z][\w-]*")
# a list in brackets ("captains [ship Nowhere, initiative 5D; ...]"): a container's
# rendering, its fields named as keys
LIST = re.compile(r"\[[A-Za-z][^\]]*")

# ids that are ordinary English words: written in lower case in a sentence, they read as
# the word ("the ruler's reading", "a moon"), so only a quoted one counts as an id
WORDS = frozenset(
    {
        "asteroids",
        "corvette",
        "debris",
        "eagle",
        "moon",
        "nowhere",
        "raider",
        "ruler",
    }
)


def code_like(text: str) -> list[str]:
    """What in `text` reads like code (markup tags and file paths aside)."""
    plain = TAGS.sub(" ", text)
    words = [w for w in plain.split() if "/" not in w and "." not in w.strip(".,:;")]
    found = REPR.findall(plain) + PYTHON_WORDS.findall(plain)
    found += [m for w in words for m in SNAKE.findall(w)]
    found += [m for w in words for m in COLON_KEY.findall(w)]
    found += LIST.findall(plain)
    return found


def ids_shown(text: str, ids: Iterable[str]) -> list[str]:
    """The ids among `ids` (of units, terrain pieces) that `text` shows where a name belongs:
    quoted ('ruler-1'), or standing as a word of their own (case and hyphens kept, so a
    name "Markgraf Class Battleship" or "ruler-1's" parts do not count) unless an ordinary
    word (`WORDS`) or a single letter."""
    plain = TAGS.sub(" ", text)
    found = []
    for unit_id in ids:
        if not unit_id:
            continue
        quoted = re.escape(unit_id)
        if re.search(rf"(['\"]){quoted}\1", plain):
            found.append(unit_id)
            continue
        if unit_id in WORDS or len(unit_id) < 2:
            continue
        if re.search(rf"(?<![\w.-]){quoted}(?![\w-])", plain):
            found.append(unit_id)
    return found
