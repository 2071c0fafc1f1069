"""The quick entry line: one typed line, one adjustment of the table.

    ruler 12 6 0            a unit of that id moves to x 12, y 6, heading 0;
                            else a unit of that catalogue class is placed there,
                            numbered: ruler-1, ruler-2... (type ruler-1 ... to move it);
                            else a unit of that name (HMS Ruler 12 6 0) moves there
    ruler 12 6 0 B          ... placed for side B
    rect 10 10 14 12 dense large      a rectangle terrain piece, corner to corner
    circle 20 20 3 obstructing small  a circle terrain piece: centre and radius
    poly 10 10 16 10 16 15 dense large  a polygon terrain piece: its corners in order
    delete ruler            a unit or terrain piece taken off the table
    set ruler hull points 5 a unit's stat set; also set ruler name HMS Ruler,
                            set ruler side B
    set ruler hull 3        in a game, a status value of the unit (its damage state,
                            as its card shows it: `RuleSystem.status_fields`)

A unit is named by whatever the player reads or typed for it: its id (ruler-1), its
name (Ruler Class Battleship, HMS Ruler), its name as the table shows it (Tribal Class
Cruiser 2) or the class word it was placed with (ruler); a word that fits two units is
refused with both their names. Numbers are inches and degrees; heading, side, kind and
height may be left out (heading 0, the class's own side, the rule system's first terrain
kind, height medium). The result is an `adjust` action (`session.adjust`), checked when
it is applied like any other.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from shapely.geometry import Polygon

from tactical.errors import UserError
from tactical.io.catalogue import Catalogue
from tactical.io.limits import MAX_DEPTH, nesting_problem
from tactical.model import GameState, SizeClass
from tactical.rules import registry
from tactical.rules.base import Action, Field
from tactical.session import adjust

USAGE = (
    "type a unit or class, x, y and heading (ruler 12 6 0), rect x1 y1 x2 y2, "
    "circle x y radius, poly and its corners x y x y x y, delete and a unit, or set, "
    "a unit, a stat and its value"
)
DEFAULT_HEIGHT = SizeClass.MEDIUM.value
TERRAIN_SHAPES = ("rect", "circle", "poly")
NUMBERED_ID = re.compile(r"(.+)-\d+")  # ruler-1: placed from the class ruler


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
    if head.lower() == "delete" and not _is_item(state, head):
        if len(words) < 2:
            raise UserError(
                f"quick entry: delete takes a unit or a piece, e.g. delete ruler; {USAGE}"
            )
        item_id = _item_named(state, words[1:], terrain=True)
        return QuickEntry(adjust.delete(item_id), f"remove {_shown(state, item_id)}")
    if head.lower() == "set" and not _is_item(state, head):
        return _set(words[1:], state, in_game=sides is not None)
    if head.lower() in TERRAIN_SHAPES and not _is_item(state, head):
        return _terrain(head.lower(), words[1:], state)
    if _is_item(state, head) and state.has_unit(head):
        return _move(head, words[1:], state)
    if _is_item(state, head):
        raise UserError(
            f"quick entry: {_shown(state, head)} is a terrain piece: drag it, or delete it"
        )
    unit_class = catalogue.find(head)
    if unit_class is None or not _is_pose(words[1:3]):
        # a unit by its name (HMS Ruler 12 6 0); a class word followed by anything but a
        # place is a name too (ruler class battleship 12 6 0)
        named = _unit_before(state, words, _is_pose)
        if named is not None:
            unit_id, rest = named
            return _move(unit_id, rest, state)
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


def _move(unit_id: str, words: Sequence[str], state: GameState) -> QuickEntry:
    name = _shown(state, unit_id)
    x, y, heading, rest = _pose(words, name)
    if rest:
        raise UserError(
            f"quick entry: {name} is on the table; to move it type its name, x, y and heading"
        )
    return QuickEntry(adjust.move_unit(unit_id, x, y, heading), f"move {name}")


# --------------------------------------------------------------------------- names


def _names(state: GameState, item_id: str, *, terrain: bool) -> set[str]:
    """What a player may type for a unit (or terrain piece), in lower case."""
    if terrain:
        piece = state.terrain_piece(item_id)
        found = {item_id, piece.name, state.shown_terrain_names.get(item_id, "")}
    else:
        unit = state.unit(item_id)
        found = {item_id, unit.name, state.shown_names.get(item_id, "")}
        stem = NUMBERED_ID.fullmatch(item_id)
        if stem is not None:
            found.add(stem.group(1))
    return {" ".join(name.lower().split()) for name in found if name}


def _matches(state: GameState, phrase: str, *, terrain: bool) -> list[str]:
    """The ids answering to `phrase`: a unit (piece) of that very id alone, else every one
    known by it."""
    ids = [u.id for u in state.units]
    if terrain:
        ids += [p.id for p in state.terrain]
    if phrase in ids:
        return [phrase]
    lowered = " ".join(phrase.lower().split())
    units = {u.id for u in state.units}
    return [
        item_id
        for item_id in dict.fromkeys(ids)
        if lowered in _names(state, item_id, terrain=item_id not in units)
    ]


def _unit_before(
    state: GameState,
    words: Sequence[str],
    fits: Callable[[Sequence[str]], bool],
    *,
    terrain: bool = False,
) -> tuple[str, list[str]] | None:
    """The unit named by the most leading words whose following words `fits`, and those
    words; None when no leading words name one. Two units answering to the name: refused,
    both named."""
    for count in range(len(words), 0, -1):
        if not fits(words[count:]):
            continue
        phrase = " ".join(words[:count])
        found = _matches(state, phrase, terrain=terrain)
        if len(found) == 1:
            return found[0], list(words[count:])
        if found:
            names = [_shown(state, item_id) for item_id in found]
            listed = ", ".join(names[:-1]) + f" or {names[-1]}"
            raise UserError(f"quick entry: {phrase!r} could be {listed}: type the whole name")
    return None


def _item_named(state: GameState, words: Sequence[str], *, terrain: bool = False) -> str:
    """The unit (or piece) named by all of `words`."""
    found = _unit_before(state, words, lambda rest: not rest, terrain=terrain)
    if found is None:
        what = "unit or terrain piece" if terrain else "unit"
        raise UserError(f"quick entry: no {what} {' '.join(words)!r} on the table")
    return found[0]


def typed_name(state: GameState, unit_id: str) -> str:
    """The shortest thing a player may type for the unit that names it alone, for a hint:
    the class word it was placed with (ruler), its id where that is a word of its name,
    its name, else the name the table shows (Tribal Class Cruiser 2)."""
    unit = state.unit(unit_id)
    stem = NUMBERED_ID.fullmatch(unit_id)
    words = unit.name.lower().split()
    candidates = [
        stem.group(1) if stem is not None else "",
        unit_id if unit_id.lower() in words else "",
        unit.name,
        state.shown_names.get(unit_id, ""),
    ]
    for candidate in candidates:
        if candidate and _matches(state, candidate, terrain=False) == [unit_id]:
            return candidate
    return state.shown_names.get(unit_id, unit_id)


def _shown(state: GameState, item_id: str) -> str:
    """A unit's or piece's name as the table shows it."""
    if state.has_unit(item_id):
        return state.shown_names.get(item_id, item_id)
    return state.shown_terrain_names.get(item_id, item_id)


# --------------------------------------------------------------------------- set


def _set(words: Sequence[str], state: GameState, *, in_game: bool) -> QuickEntry:
    if len(words) < 3:
        raise UserError(
            "quick entry: set takes a unit, a stat and a value, e.g. set ruler hull points 5"
        )
    found = _unit_before(state, words, lambda rest: len(rest) >= 2)
    if found is None:
        raise UserError(f"quick entry: no unit {words[0]!r} on the table to set")
    unit_id, words = found
    name = _shown(state, unit_id)
    if words[0] in ("name", "side"):
        key, rest = words[0], " ".join(words[1:])
        return QuickEntry(adjust.set_unit(unit_id, **{key: rest}), f"{name}: {key} {rest}")
    # the stat as the screen shows it ("hull points") or as the map writes it ("hull_points")
    key, rest = "_".join(words[:-1]), words[-1]
    status = _status_field(state, unit_id, words[:-1]) if in_game else None
    for split in range(1, len(words) - 1) if in_game and status is None else ():
        # a value in words is a text value's (set deimos-base results B2 iL)
        text_field = _status_field(state, unit_id, words[:split])
        if text_field is not None and text_field.kind == "str":
            status, rest = text_field, " ".join(words[split:])
            break
    if status is not None:
        value = _value(rest)
        if status.kind == "bool" and rest.lower() in ("yes", "no"):
            value = rest.lower() == "yes"
        return QuickEntry(
            adjust.set_status(unit_id, {status.name: value}), f"{name}: {status.label} {rest}"
        )
    return QuickEntry(
        adjust.set_unit(unit_id, stats={key: _value(rest)}),
        f"{name}: {key.replace('_', ' ')} {rest}",
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
    """A typed value as TOML reads it (5, 2.5, true, "text", [1, 2]), else the bare text;
    a value nested deeper than a map may be (MAX_DEPTH) is refused: 3,000 brackets
    exhausted the interpreter's stack."""
    too_deep = UserError(
        f"quick entry: the value has brackets nested more than {MAX_DEPTH} deep; "
        f"no stat takes more than {MAX_DEPTH}"
    )
    try:
        value = tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text
    except RecursionError:
        raise too_deep from None
    if nesting_problem(value) is not None:
        raise too_deep
    return value


def _is_item(state: GameState, item_id: str) -> bool:
    return state.has_unit(item_id) or any(p.id == item_id for p in state.terrain)


# --------------------------------------------------------------------------- numbers


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


def _is_pose(words: Sequence[str]) -> bool:
    """x and y, and perhaps a heading: what moves a unit named before them."""
    return 2 <= len(words) <= 3 and all(_is_number(word) for word in words)


def _is_number(word: str) -> bool:
    try:
        float(word)
    except ValueError:
        return False
    return True


# --------------------------------------------------------------------------- terrain


def _terrain(shape: str, words: Sequence[str], state: GameState) -> QuickEntry:
    if shape == "poly":
        count = next((i for i, word in enumerate(words) if not _is_number(word)), len(words))
        corners = _corners(_numbers(words[:count], shape), state)
    else:
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
    if shape == "poly":
        table = {"id": piece_id, "kind": kind, "height": height, "polygon": corners}
    elif shape == "rect":
        table = adjust.rectangle_table(piece_id, kind, height, numbers[:2], numbers[2:4])
    else:
        x, y, radius = numbers
        table = adjust.circle_table(piece_id, kind, height, (x, y), (x + radius, y))
    return QuickEntry(adjust.add_terrain(table), f"add {kind} terrain")


def _corners(numbers: Sequence[float], state: GameState) -> list[list[float]]:
    """A polygon's corners from x y pairs: at least three, edges that do not cross, on the
    table; else one sentence saying which."""
    example = "e.g. poly 10 10 16 10 16 15"
    if len(numbers) % 2:
        raise UserError(
            f"quick entry: poly takes corners as x y pairs: one number is alone; {example}"
        )
    corners = [[numbers[i], numbers[i + 1]] for i in range(0, len(numbers), 2)]
    if len(corners) < 3:
        raise UserError(f"quick entry: a polygon needs at least 3 corners (x y each); {example}")
    shape = Polygon(corners)
    if not shape.is_valid or shape.area <= 0:
        raise UserError(
            "quick entry: the polygon's edges cross (or it has no area): type its corners "
            "in order around it"
        )
    board = state.board
    x0, y0, x1, y1 = shape.bounds
    if x0 < 0 or y0 < 0 or x1 > board.width or y1 > board.height:
        raise UserError(
            f"quick entry: the polygon reaches off the {board.width:g}x{board.height:g} "
            f"table (x {x0:g} to {x1:g}, y {y0:g} to {y1:g})"
        )
    return corners
