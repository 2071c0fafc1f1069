"""Limits on what a map or a save may hold: far beyond any real table, well short of what
would exhaust memory, time or the interpreter.

A real table is a few feet across; a hand-made or damaged file may say a million inches,
an area of a thousandth of an inch (a billion areas to draw) or nest its arrays hundreds
of levels deep. Each limit here turns such a file into one clear message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

MAX_DEPTH = 32  # levels of tables and arrays (a map needs 5: unit.stats.weapons[0].x)
MAX_SIDE = 480.0  # inches: a 40-foot table
MIN_SIDE = 1.0  # inches
MIN_AREA = 1.0  # inches: the side of a table area (R002.9's are 24")
MAX_AREAS = 4096  # areas on one table (a 40'x40' table in 7.5" areas)
MAX_COORDINATE = 10_000.0  # inches or degrees: any position, size or heading
MAX_NAME = 80  # characters of a name, id, side or title: drawn on the table and in panels


def nesting_problem(document: Any, limit: int = MAX_DEPTH) -> str | None:
    """The dotted path of the first value nested deeper than `limit`, or None (iterative:
    a deep document cannot exhaust the interpreter's stack here)."""
    stack: list[tuple[Any, str, int]] = [(document, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        if depth > limit:
            return path or "(top)"
        if isinstance(value, Mapping):
            for key, item in value.items():
                stack.append((item, f"{path}.{key}" if path else str(key), depth + 1))
        elif isinstance(value, list | tuple):
            for index, item in enumerate(value):
                stack.append((item, f"{path}[{index}]", depth + 1))
    return None
