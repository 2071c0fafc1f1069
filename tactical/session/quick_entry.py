"""The quick entry line (issue 14): one typed line, one adjustment of the table.

    ruler 12 6 0            a unit of that id moves to x 12, y 6, heading 0;
                            else a unit of that catalogue class is placed there,
                            numbered: ruler-1, ruler-2... (type ruler-1 ... to move it)
    ruler 12 6 0 B          ... placed for side B
    rect 10 10 14 12 dense large      a rectangle terrain piece, corner to corner
    circle 20 20 3 obstructing small  a circle terrain piece: centre and radius
    delete ruler            a unit or terrain piece taken off the table
    set ruler hull points 5 a unit's stat set; also set ruler name HMS Ruler,
                            set ruler side B
    set ruler hull 3        in a game, a status value of the unit (its damage state,
                            as its card shows it: `RuleSystem.status_fields`)

Numbers are inches and degrees; heading, side, kind and height may be left
out (heading 0, the class's own side, the rule system's first terrain kind,
height medium). The result is an `adjust` action (`session.adjust`), checked
when it is applied like any other.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tactical.errors import UserError
from tactical.io.catalogue import Catalogue
from tactical.model import GameState, SizeClass
from tactical.rules import registry
from tactical.rules.base import Action, Field
from tactical.session import adjust

USAGE = (
    "type a unit or class, x, y and heading (ruler 12 6 0), rect x1 y1 x2 y2, "
    "circle x y radius, delete and an id, or set, an id, a stat and its value"
)
DEFAULT_HEIGHT = SizeClass.MEDIUM.value


@dataclass(frozen=True)
class QuickEntry:
    """What a typed line does: the action, and a short sentence for the status bar."""

    action: Action
    summary: str


def parse_quick_entry(
    text: str,
    state: GameState,
    catalogue: Catalogue,
    side: str | None = None,
    sides: Sequence[str] | None = None,
) -> QuickEntry:
    """The adjustment a typed line asks for (see the module docstring).

    A new unit is placed for the side the line names, else its class's side; `sides`, when
    given, are the only sides playing (a game under way): a class whose side is not playing
    is placed for `side` (the side chosen on the screen) or the first side."""
    words = text.split()
    if not words:
        raise UserError(f"quick entry: nothing typed: {USAGE}")
    head = words[0]
    if head.lower() == "delete":
        if len(words) != 2:
            raise UserError(f"quick entry: delete takes one id, e.g. delete ruler; {USAGE}")
        return QuickEntry(adjust.delete(words[1]), f"remove {words[1]}")
    if head.lower() == "set" and not _is_item(state, head):
        return _set(words[1:], state, in_game=sides is not None)
    if head.lower() in ("rect", "circle") and not _is_item(state, head):
        return _terrain(head.lower(), words[1:], state)
    if _is_item(state, head) and state.has_unit(head):
        x, y, heading, rest = _pose(words[1:], head)
        if rest:
            raise UserError(
                f"quick entry: {head} is on the table; to move it type {head} x y heading"
            )
        return QuickEntry(adjust.move_unit(head, x, y, heading), f"move {head}")
    if _is_item(state, head):
        raise UserError(f"quick entry: {head} is a terrain piece: drag it, or delete {head}")
    unit_class = catalogue.find(head)
    if unit_class is None:
        known = ", ".join(c.id for c in catalogue.classes[:10]) or "none"
        raise UserError(
            f"quick entry: {head!r} is neither a unit on the table nor a class of the "
            f"catalogue (classes: {known}); {USAGE}"
        )
    x, y, heading, rest = _pose(words[1:], head)
    if len(rest) > 1:
        raise UserError(f"quick entry: too many values after {head}; {USAGE}")
    placed_for = rest[0] if rest else unit_class.side
    if sides is not None and placed_for not in sides:
        if rest:
            raise UserError(
                f"quick entry: side {placed_for} is not playing (sides: {', '.join(sides)})"
            )
        placed_for = side if side in sides else sides[0]
    unit_id = adjust.free_id(state, unit_class.id, numbered=True)
    table = unit_class.unit_table(unit_id, x, y, heading, placed_for)
    return QuickEntry(adjust.add_unit(table), f"place {unit_class.name} as {unit_id}")


def _set(words: Sequence[str], state: GameState, *, in_game: bool) -> QuickEntry:
    if len(words) < 3:
        raise UserError(
            "quick entry: set takes a unit, a stat and a value, e.g. set ruler hull points 5"
        )
    unit_id = words[0]
    if not state.has_unit(unit_id):
        raise UserError(f"quick entry: no unit {unit_id!r} on the table to set")
    if words[1] in ("name", "side"):
        key, rest = words[1], " ".join(words[2:])
        return QuickEntry(adjust.set_unit(unit_id, **{key: rest}), f"{unit_id}: {key} {rest}")
    # the stat as the screen shows it ("hull points") or as the map writes it ("hull_points")
    key, rest = "_".join(words[1:-1]), words[-1]
    status = _status_field(state, unit_id, words[1:-1]) if in_game else None
    if status is not None:
        value = _value(rest)
        if status.kind == "bool" and rest.lower() in ("yes", "no"):
            value = rest.lower() == "yes"
        return QuickEntry(
            adjust.set_status(unit_id, {status.name: value}), f"{unit_id}: {status.label} {rest}"
        )
    return QuickEntry(
        adjust.set_unit(unit_id, stats={key: _value(rest)}), f"{unit_id}: {key} {rest}"
    )


def _status_field(state: GameState, unit_id: str, named: Sequence[str]) -> Field | None:
    """The unit's status value named by its key ("shield_fore") or its label ("shield fore")."""
    key, words = "_".join(named).lower(), " ".join(named).lower()
    system = registry.get(state.rules)
    for spec in system.status_fields(state, state.unit(unit_id)):
        if spec.name.lower() == key or spec.label.lower() == words:
            return spec
    return None


def _value(text: str) -> Any:
    """A typed value as TOML reads it (5, 2.5, true, "text", [1, 2]), else the bare text."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def _is_item(state: GameState, item_id: str) -> bool:
    return state.has_unit(item_id) or any(p.id == item_id for p in state.terrain)


def _numbers(words: Sequence[str], what: str) -> list[float]:
    values = []
    for word in words:
        try:
            value = float(word)
        except ValueError:
            raise UserError(f"quick entry: {what}: {word!r} is not a number; {USAGE}") from None
        if not math.isfinite(value):
            raise UserError(f"quick entry: {what}: {word!r} is not a finite number")
        values.append(value)
    return values


def _pose(words: Sequence[str], head: str) -> tuple[float, float, float, list[str]]:
    if len(words) < 2:
        raise UserError(f"quick entry: {head} needs x and y (and a heading); {USAGE}")
    count = 3 if len(words) >= 3 and _is_number(words[2]) else 2
    numbers = _numbers(words[:count], head)
    heading = numbers[2] if count == 3 else 0.0
    return numbers[0], numbers[1], heading, list(words[count:])


def _is_number(word: str) -> bool:
    try:
        float(word)
    except ValueError:
        return False
    return True


def _terrain(shape: str, words: Sequence[str], state: GameState) -> QuickEntry:
    count = 4 if shape == "rect" else 3
    if len(words) < count:
        example = "rect 10 10 14 12" if shape == "rect" else "circle 20 20 3"
        raise UserError(f"quick entry: {shape} needs {count} numbers, e.g. {example}")
    numbers = _numbers(words[:count], shape)
    kinds = registry.get(state.rules).terrain_kinds
    extra = list(words[count:])
    kind = extra.pop(0) if extra else kinds[0]
    height = extra.pop(0) if extra else DEFAULT_HEIGHT
    if extra:
        raise UserError(f"quick entry: too many values after {shape}; {USAGE}")
    if kind not in kinds:
        raise UserError(f"quick entry: terrain kind {kind!r} is not one of {', '.join(kinds)}")
    heights = [s.value for s in SizeClass]
    if height not in heights:
        raise UserError(f"quick entry: height {height!r} is not one of {', '.join(heights)}")
    piece_id = adjust.free_id(state, kind, numbered=True)
    if shape == "rect":
        table = adjust.rectangle_table(piece_id, kind, height, numbers[:2], numbers[2:4])
    else:
        x, y, radius = numbers
        table = adjust.circle_table(piece_id, kind, height, (x, y), (x + radius, y))
    return QuickEntry(adjust.add_terrain(table), f"add {kind} terrain {piece_id}")
