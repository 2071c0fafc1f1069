"""TOML map files (docs/maps.md): load, validate, save.

Loading checks everything before building anything: unknown keys, missing
keys, wrong types, bad geometry, duplicate ids, units off the table, an unknown
rule system, and each rule system's own stats and options schema. The first
problem becomes one `UserError` line naming the file, the line where it can,
the key and what was expected. Files are data only: nothing is evaluated.

Saving writes the same structure back (tomli-w) through a temporary file and a
rename, so a crash never leaves half a map; load -> save -> load gives the same
GameState, and save -> load -> save the same text.
"""

from __future__ import annotations

import math
import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, partial
from pathlib import Path
from typing import Any, Literal

import shapely
import tomli_w
from shapely.geometry import Polygon

from tactical.errors import UserError
from tactical.io.files import read_input
from tactical.io.limits import (
    MAX_AREAS,
    MAX_COORDINATE,
    MAX_DEPTH,
    MAX_NAME,
    MAX_SIDE,
    MIN_AREA,
    MIN_SIDE,
    nesting_problem,
)
from tactical.model import (
    Board,
    Circle,
    CircleBase,
    FrozenMap,
    GameState,
    MovementClass,
    Pose,
    RectBase,
    SizeClass,
    Terrain,
    Unit,
    thaw,
)
from tactical.rules import registry
from tactical.rules.base import RuleSystem

EDGE_TOLERANCE = 1e-6  # inches: a base touching the table edge is on the table

TOP_KEYS = ("title", "rules", "board", "options", "terrain", "unit")
BOARD_KEYS = ("width", "height", "area")
TERRAIN_KEYS = ("id", "name", "kind", "height", "polygon", "circle")
UNIT_KEYS = ("id", "name", "side", "x", "y", "heading", "base", "movement", "size", "stats")
SIZE_NAMES = tuple(s.value for s in SizeClass)
MOVEMENT_NAMES = tuple(m.value for m in MovementClass)


class MapError(UserError):
    """A map file that cannot be used: names the file, line, key and what was expected."""

    def __init__(
        self,
        source: str,
        line: int | None,
        key: str | None,
        expected: str,
        spec_id: str | None = None,
    ) -> None:
        self.source, self.line, self.key, self.expected = source, line, key, expected
        where = source if line is None else f"{source}:{line}"
        what = f"{key}: expected {expected}" if key else expected
        super().__init__(f"{where}: {what}", spec_id=spec_id)


# --------------------------------------------------------------------------- locating lines

_HEADER = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.\-\"' ]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-]+|\"[^\"]*\")\s*(\.|=)")


ARRAYS = ("terrain", "unit", "class")


class _Lines:
    """Finds the line of a key path such as ("unit", 3, "base") in the source text.

    tomllib gives values but no positions, so this scans headers and key lines: enough
    to point a person at the right line of a hand-written map. Each block is known by
    its header, the index of its [[unit]] / [[terrain]] item, and for a nested array of
    tables (`[[unit.stats.weapons]]`) its index inside that item.
    """

    def __init__(self, text: str) -> None:
        # scanned on the first question only: a map that loads (the usual case) asks none
        self.text = text

    @cached_property
    def lines(self) -> list[str]:
        return self.text.splitlines()

    @property
    def blocks(self) -> list[tuple[str, int, int, int]]:
        """(header, item, sub, line); item -1 outside the root arrays, sub -1 when not
        nested."""
        return self._scan[0]

    @property
    def keys(self) -> list[tuple[str, int, int, str, int]]:
        """(header, item, sub, key, line)."""
        return self._scan[1]

    @cached_property
    def _scan(self) -> tuple[list[tuple[str, int, int, int]], list[tuple[str, int, int, str, int]]]:
        blocks: list[tuple[str, int, int, int]] = []
        keys: list[tuple[str, int, int, str, int]] = []
        counts: dict[str, int] = {}
        current = ("", -1, -1)
        for number, raw in enumerate(self.lines, start=1):
            header = _HEADER.match(raw)
            if header and not raw.lstrip().startswith("#"):
                name = header.group(2).replace('"', "").replace("'", "").replace(" ", "")
                root = name.split(".")[0]
                if header.group(1) == "[[":
                    counts[name] = counts.get(name, 0) + 1
                    for other in [k for k in counts if k.startswith(name + ".")]:
                        del counts[other]  # a new item: its nested arrays count afresh
                if name == root:
                    item = counts.get(root, 0) - 1 if header.group(1) == "[[" else -1
                    current = (name, item, -1)
                else:
                    item = counts.get(root, 0) - 1 if root in counts else -1
                    sub = counts[name] - 1 if header.group(1) == "[[" else -1
                    current = (name, item, sub)
                blocks.append((*current, number))
                continue
            key = _KEY.match(raw)
            if key:
                keys.append((*current, key.group(1).strip('"'), number))
        return blocks, keys

    def find(self, path: Sequence[str | int]) -> int | None:
        """Best line for a key path; falls back to the enclosing table's header."""
        if not path:
            return None
        head = str(path[0])
        # an item of an array of tables: [[terrain]], [[unit]], a catalogue's [[class]]
        rooted = head in ARRAYS and len(path) >= 2 and isinstance(path[1], int)
        item = path[1] if rooted else -1
        assert isinstance(item, int)
        names: list[str] = []
        subs: list[int] = []  # the index following each name (-1: none)
        for part in path[2:] if rooted else path[1:]:
            if isinstance(part, int):
                if names:
                    subs[-1] = part
            else:
                names.append(str(part))
                subs.append(-1)
        for depth in range(len(names), 0, -1):
            header = ".".join([head, *names[: depth - 1]])
            sub = subs[depth - 2] if depth >= 2 else -1
            line = self._key_line(header, item, sub, names[depth - 1])
            if line:
                # an inline array (`weapons = [ {...}, {...} ]`): the line of the element
                return self._element_line(line, subs[depth - 1]) if subs[depth - 1] >= 0 else line
            table_line = self._block_line(".".join([head, *names[:depth]]), item, subs[depth - 1])
            if table_line:
                return table_line
        if not names and not rooted:
            return self._key_line("", -1, -1, head) or self._block_line(head, -1, -1)
        return self._block_line(head, item, -1)

    def _element_line(self, line: int, index: int) -> int:
        """The line on which element `index` of the inline array given on `line` starts
        (`line` itself when the value is no array or has fewer elements)."""
        depth, count, expecting, quote = 0, -1, False, ""
        for number in range(line - 1, len(self.lines)):
            raw = self.lines[number]
            position = raw.index("=") + 1 if number == line - 1 and "=" in raw else 0
            while position < len(raw):
                char = raw[position]
                position += 1
                if quote:
                    if char == "\\" and quote == '"':
                        position += 1
                    elif char == quote:
                        quote = ""
                    continue
                if char == "#":
                    break
                if char.isspace() or char == ",":
                    expecting = expecting or (char == "," and depth == 1)
                    continue
                if char in "]}":
                    depth -= 1
                    if depth <= 0:
                        return line
                    continue
                if depth == 1 and expecting:
                    count, expecting = count + 1, False
                    if count == index:
                        return number + 1
                if char in "\"'":
                    quote = char
                elif char in "[{":
                    depth += 1
                    expecting = expecting or depth == 1
        return line

    def _key_line(self, header: str, item: int, sub: int, key: str) -> int | None:
        for h, i, s, k, number in self.keys:
            if h == header and (item < 0 or i == item) and (sub < 0 or s == sub) and k == key:
                return number
        return None

    def _block_line(self, header: str, item: int, sub: int) -> int | None:
        for h, i, s, number in self.blocks:
            if h == header and (item < 0 or i == item) and (sub < 0 or s == sub):
                return number
        return None


# --------------------------------------------------------------------------- loading


@dataclass
class _Reader:
    source: str
    lines: _Lines

    def fail(self, path: Sequence[str | int], expected: str, spec_id: str | None = None) -> None:
        raise MapError(self.source, self.lines.find(path), _dotted(path), expected, spec_id)

    def table(self, value: Any, path: Sequence[str | int], keys: Sequence[str]) -> Mapping:
        if not isinstance(value, Mapping):
            self.fail(path, "a table")
        for key in value:
            if key not in keys:
                self.fail([*path, key], "a known key (one of " + ", ".join(keys) + ")")
        return value

    def required(self, table: Mapping, path: Sequence[str | int], key: str) -> Any:
        if key not in table:
            self.fail([*path, key] if path else [key], "a value (this key is required)")
        return table[key]

    def string(
        self,
        table: Mapping,
        path: Sequence[str | int],
        key: str,
        default: str | None = None,
        choices: Sequence[str] | None = None,
    ) -> str:
        if key not in table and default is not None:
            return default
        value = self.required(table, path, key)
        if not isinstance(value, str) or (not value.strip() and choices is None):
            self.fail([*path, key], "a non-empty string")
        if len(value) > MAX_NAME:  # a name of 8,000 characters froze the play screen
            self.fail(
                [*path, key],
                f"a text of at most {MAX_NAME} characters (this one has {len(value):,})",
            )
        if choices is not None and value not in choices:
            self.fail([*path, key], "one of " + ", ".join(repr(c) for c in choices))
        return value

    def number(
        self,
        table: Mapping,
        path: Sequence[str | int],
        key: str,
        default: float | None = None,
        positive: bool = False,
        limit: float = MAX_COORDINATE,
    ) -> float:
        if key not in table and default is not None:
            return default
        value = self.required(table, path, key)
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(_as_float(value))
        ):
            self.fail([*path, key], "a finite number (inches or degrees)")
        if positive and value <= 0:
            self.fail([*path, key], "a number greater than 0")
        if abs(value) > limit:
            self.fail(
                [*path, key],
                f"a number from {-limit:g} to {limit:g} (inches or degrees), not {value:g}",
            )
        return float(value)


def _as_float(value: int | float) -> float:
    """The number as a float; an int too large for one (400 digits) as infinity, so that it
    is refused as a number out of range rather than raising OverflowError."""
    try:
        return float(value)
    except OverflowError:
        return math.inf


def _dotted(path: Sequence[str | int]) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def read_toml_document(text: str, source: str) -> tuple[dict[str, Any], _Reader]:
    """Parse TOML text into its document and a reader that names file, line and key.

    A syntax error, or nesting deeper than the limit, is a MapError with its line.
    """
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        found = re.search(r"\(at line (\d+), column (\d+)\)", message)
        line = int(found.group(1)) if found else None
        if line is None and "end of document" in message:
            line = max(1, len(text.splitlines()))  # the document ends on its last line
        reason = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", message)
        raise MapError(source, line, None, f"valid TOML ({reason})") from None
    except RecursionError:
        raise MapError(
            source,
            None,
            None,
            f"TOML nested no more than {MAX_DEPTH} levels deep (this file nests deeper)",
        ) from None
    reader = _Reader(source, _Lines(text))
    deep = nesting_problem(document) if _nests_deeper(document) else None
    if deep is not None:
        reader.fail(
            _path_parts(deep)[:1],
            f"values nested no more than {MAX_DEPTH} levels deep (this one nests deeper)",
        )
    return document, reader


def _nests_deeper(document: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether a tomllib document nests deeper than `limit`, level by level: `nesting_problem`'s
    test without the dotted path it writes for every value (a big map holds hundreds of
    thousands), asked for the path only where there is one to name. tomllib makes its
    tables dicts and its arrays lists, and nothing else holds values."""
    level: list[Any] = [document]
    for _ in range(limit + 1):
        deeper: list[Any] = []
        for value in level:
            kind = type(value)
            if kind is dict:
                deeper.extend(value.values())
            elif kind is list:
                deeper.extend(value)
        if not deeper:
            return False
        level = deeper
    return True


def loads_map(text: str, source: str = "<map>") -> GameState:
    """Parse and validate map text; raises MapError (a UserError) on the first problem."""
    if not text.strip():
        raise MapError(
            source, None, None, "a TOML map with 'rules' and a [board] table, but the file is empty"
        )
    document, reader = read_toml_document(text, source)
    return _build_state(reader, document)


def _path_parts(dotted: str) -> list[str | int]:
    """'unit[0].stats.x' -> ['unit', 0, 'stats', 'x'] (for finding its line)."""
    parts: list[str | int] = []
    for name, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", dotted):
        parts.append(int(index) if index else name)
    return parts


def load_map(path: str | os.PathLike[str]) -> GameState:
    """Read a map file; every problem (missing, not UTF-8, bad TOML, bad values) is a MapError."""
    source = str(path)
    raw = read_file(Path(path), "map file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise MapError(
            source, line, None, f"UTF-8 text (byte 0x{raw[error.start]:02x} is not valid UTF-8)"
        ) from None
    return loads_map(text, source)


def read_file(path: str | os.PathLike[str], what: str) -> bytes:
    """The bytes of an input file; a missing, unreadable or oversized one is a MapError that
    names it as `what` ("map file")."""
    source = str(path)
    try:
        # a regular file of sensible size only: /dev/zero would be read until memory runs
        # out, a FIFO would block for ever
        return read_input(path)
    except FileNotFoundError:
        raise MapError(source, None, None, f"an existing {what} (no such file)") from None
    except IsADirectoryError:
        raise MapError(source, None, None, f"a {what}, not a directory") from None
    except OSError as error:
        raise MapError(source, None, None, f"a readable file ({error.strerror})") from None


def _build_state(reader: _Reader, document: Mapping[str, Any]) -> GameState:
    reader.table(document, [], TOP_KEYS)
    system = read_rule_system(reader, document)
    title = reader.string(document, [], "title", default="") if "title" in document else ""
    board = _board(reader, reader.required(document, [], "board"))
    options = document.get("options", {})
    reader.table(options, ["options"], [f.name for f in system.option_fields])
    for problem in system.check_options(options):
        reader.fail(["options", *_key_parts(problem.key)], problem.expected, problem.spec_id)

    terrain_items = document.get("terrain", [])
    if not isinstance(terrain_items, list):
        reader.fail(["terrain"], "an array of tables ([[terrain]])")
    unit_items = document.get("unit", [])
    if not isinstance(unit_items, list):
        reader.fail(["unit"], "an array of tables ([[unit]])")

    place = _Placing(reader, board, system, {})
    terrain = tuple(
        _terrain(place, item, ["terrain", index]) for index, item in enumerate(terrain_items)
    )
    units = tuple(_unit(place, item, ["unit", index]) for index, item in enumerate(unit_items))
    return GameState(
        rules=system.id,
        board=board,
        title=title,
        options=FrozenMap(options),
        terrain=terrain,
        units=units,
    )


def read_rule_system(reader: _Reader, document: Mapping[str, Any]) -> RuleSystem:
    """The registered rule system a document's `rules` key names."""
    rules_id = reader.string(document, [], "rules")
    try:
        return registry.get(rules_id)
    except UserError:
        reader.fail(
            ["rules"], "a known rule system id (one of " + ", ".join(registry.rule_ids()) + ")"
        )


def _board(reader: _Reader, value: Any) -> Board:
    table = reader.table(value, ["board"], BOARD_KEYS)
    width = reader.number(table, ["board"], "width", positive=True, limit=math.inf)
    height = reader.number(table, ["board"], "height", positive=True, limit=math.inf)
    for key, side in (("width", width), ("height", height)):
        if not MIN_SIDE <= side <= MAX_SIDE:
            reader.fail(
                ["board", key],
                f'a table side from {MIN_SIDE:g}" to {MAX_SIDE:g}" (40 feet), not {side:g}',
            )
    area = reader.number(table, ["board"], "area", default=24.0, positive=True, limit=math.inf)
    areas = math.ceil(width / area) * math.ceil(height / area) if area >= MIN_AREA else None
    if areas is None or areas > MAX_AREAS:
        reader.fail(
            ["board", "area"],
            f'an area side of at least {MIN_AREA:g}" and at most {MAX_AREAS} areas on the '
            f"table (R002.9's are 24\"), not {area:g}",
        )
    return Board(width, height, area)


def _entry(
    reader: _Reader, value: Any, path: list, keys: Any, seen: dict[str, str], what: str
) -> tuple[Mapping[str, Any], str]:
    """A `[[unit]]` or `[[terrain]]` table and its id, unique among `seen` (which it joins)."""
    table = reader.table(value, path, keys)
    item_id = reader.string(table, path, "id")
    if item_id in seen:
        reader.fail([*path, "id"], f"a unique id ({item_id!r} is already used by {seen[item_id]})")
    seen[item_id] = f"a {what}"
    return table, item_id


@dataclass(frozen=True)
class _Placing:
    """What a `[[unit]]` or `[[terrain]]` table is read against: the reader (its messages),
    the table it stands on, the rule system, and the ids used so far (each read joins them)."""

    reader: _Reader
    board: Board
    system: RuleSystem
    seen: dict[str, str]

    @classmethod
    def alone(
        cls, system: RuleSystem, board: Board, taken: Mapping[str, str], source: str
    ) -> _Placing:
        """For one table read on its own (`read_item`), its messages naming `source`."""
        return cls(_Reader(source, _Lines("")), board, system, dict(taken))


def _terrain(place: _Placing, value: Any, path: list[str | int]) -> Terrain:
    reader, board, system = place.reader, place.board, place.system
    table, piece_id = _entry(reader, value, path, TERRAIN_KEYS, place.seen, "terrain piece")
    kind = reader.string(table, path, "kind", choices=system.terrain_kinds)
    height = SizeClass(reader.string(table, path, "height", choices=SIZE_NAMES))
    name = reader.string(table, path, "name", default="") if "name" in table else ""
    has_polygon, has_circle = "polygon" in table, "circle" in table
    if has_polygon == has_circle:
        reader.fail(path, "exactly one of 'polygon' or 'circle' in each [[terrain]]")
    if has_polygon:
        points = _points(reader, table["polygon"], [*path, "polygon"])
        shape = Polygon(points)
        if not shape.is_valid:
            reason = re.sub(
                r"\[([-\d.e]+) ([-\d.e]+)\]", r" at (\1, \2)", shapely.is_valid_reason(shape)
            )
            reader.fail(
                [*path, "polygon"], f"a simple polygon, without crossing edges ({reason.lower()})"
            )
        if shape.area <= 0:
            reader.fail([*path, "polygon"], "a polygon with a non-zero area")
        piece = Terrain(piece_id, kind, height, polygon=tuple(points), name=name)
    else:
        circle_path = [*path, "circle"]
        circle = reader.table(table["circle"], circle_path, ("x", "y", "radius"))
        piece = Terrain(
            piece_id,
            kind,
            height,
            circle=Circle(
                reader.number(circle, circle_path, "x"),
                reader.number(circle, circle_path, "y"),
                reader.number(circle, circle_path, "radius", positive=True),
            ),
            name=name,
        )
    if not on_board(piece.geometry, board):
        reader.fail(path, f"a piece lying on the {_num(board.width)}x{_num(board.height)} table")
    return piece


def _points(reader: _Reader, value: Any, path: list) -> list[tuple[float, float]]:
    if not isinstance(value, list) or len(value) < 3:
        reader.fail(path, "an array of at least 3 [x, y] points")
    points = []
    for point in value:
        if (
            not isinstance(point, list)
            or len(point) != 2
            or not all(isinstance(c, int | float) and not isinstance(c, bool) for c in point)
            or not all(math.isfinite(c) and abs(c) <= MAX_COORDINATE for c in point)
        ):
            reader.fail(
                path, f"[x, y] pairs of numbers from {-MAX_COORDINATE:g} to {MAX_COORDINATE:g}"
            )
        points.append((float(point[0]), float(point[1])))
    if points[0] == points[-1]:
        points.pop()  # a closed ring written out in full is the same polygon
    if len(points) < 3:
        reader.fail(path, "an array of at least 3 distinct [x, y] points")
    return points


def _unit(place: _Placing, value: Any, path: list[str | int]) -> Unit:
    reader, board, system = place.reader, place.board, place.system
    table, unit_id = _entry(reader, value, path, UNIT_KEYS, place.seen, "unit")
    name = reader.string(table, path, "name", default=unit_id) if "name" in table else unit_id
    side = reader.string(table, path, "side")
    pose = Pose(
        reader.number(table, path, "x"),
        reader.number(table, path, "y"),
        reader.number(table, path, "heading", default=0.0),
    )
    base = _base(reader, reader.required(table, path, "base"), [*path, "base"])
    movement = MovementClass(
        reader.string(
            table, path, "movement", default=system.default_movement.value, choices=MOVEMENT_NAMES
        )
    )
    size = SizeClass(
        reader.string(table, path, "size", default=system.default_size.value, choices=SIZE_NAMES)
    )
    stats = table.get("stats", {})
    if not isinstance(stats, Mapping):
        reader.fail([*path, "stats"], "a table ([unit.stats])")
    for problem in system.check_stats(stats):
        reader.fail([*path, "stats", *_key_parts(problem.key)], problem.expected, problem.spec_id)
    unit = Unit(unit_id, name, side, pose, base, movement, size, FrozenMap(stats))
    if not on_board(unit.footprint, board):
        x0, _, x1, _ = unit.footprint.bounds
        off_in_x = x0 < -EDGE_TOLERANCE or x1 > board.width + EDGE_TOLERANCE
        reader.fail(
            [*path, "x" if off_in_x else "y"],
            f"a position with the whole base on the {_num(board.width)}x{_num(board.height)} "
            f"table (the base reaches {_bounds_text(unit.footprint)})",
        )
    return unit


def read_item(
    kind: Literal["unit", "terrain"],
    table: Mapping[str, Any],
    system: RuleSystem,
    board: Board,
    taken: Mapping[str, str],
    source: str,
    name: str,
) -> Unit | Terrain:
    """One `[[unit]]` or `[[terrain]]` table (`kind`) checked exactly as a map file's (a
    unit's stats schema, base and place on the table; a piece's kind, simple polygon and
    place on the table); `taken` maps the ids already used to what uses them; messages
    name `source` and `name`."""
    read = _unit if kind == "unit" else _terrain
    return read(_Placing.alone(system, board, taken, source), thaw(table), [name])


# what adjust mode checks a changed unit or terrain piece with
read_unit = partial(read_item, "unit")
read_terrain = partial(read_item, "terrain")


def _key_parts(key: str) -> list[str | int]:
    parts: list[str | int] = []
    for piece in key.split("."):
        found = re.fullmatch(r"(.+)\[(\d+)\]", piece)
        if found:
            parts.extend([found.group(1), int(found.group(2))])
        else:
            parts.append(piece)
    return parts


def _base(reader: _Reader, value: Any, path: list) -> RectBase | CircleBase:
    if not isinstance(value, Mapping):
        reader.fail(path, 'a table such as { shape = "rect", width = 1.5, length = 4 }')
    shape = reader.string(value, path, "shape", choices=("rect", "circle"))
    if shape == "rect":
        reader.table(value, path, ("shape", "width", "length"))
        return RectBase(
            reader.number(value, path, "width", positive=True),
            reader.number(value, path, "length", positive=True),
        )
    reader.table(value, path, ("shape", "diameter"))
    return CircleBase(reader.number(value, path, "diameter", positive=True))


def on_board(geometry: Polygon, board: Board) -> bool:
    """Whether the table (with EDGE_TOLERANCE) covers `geometry`: an upright rectangle covers
    a shape exactly when it holds the shape's bounds (an empty shape is not on the board)."""
    if geometry.is_empty:
        return False
    x0, y0, x1, y1 = geometry.bounds
    return (
        x0 >= -EDGE_TOLERANCE
        and y0 >= -EDGE_TOLERANCE
        and x1 <= board.width + EDGE_TOLERANCE
        and y1 <= board.height + EDGE_TOLERANCE
    )


def _bounds_text(geometry: Polygon) -> str:
    x0, y0, x1, y1 = geometry.bounds
    return f"x {x0:.2f}..{x1:.2f}, y {y0:.2f}..{y1:.2f}"


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


# --------------------------------------------------------------------------- saving


def map_document(state: GameState) -> dict[str, Any]:
    """The map as plain TOML-ready data, keys in the order of docs/maps.md."""
    document: dict[str, Any] = {}
    if state.title:
        document["title"] = state.title
    document["rules"] = state.rules
    board: dict[str, Any] = {"width": state.board.width, "height": state.board.height}
    if state.board.area != 24.0:
        board["area"] = state.board.area
    document["board"] = board
    if state.options:
        document["options"] = thaw(state.options)
    if state.terrain:
        document["terrain"] = [_terrain_document(piece) for piece in state.terrain]
    if state.units:
        document["unit"] = [_unit_document(unit) for unit in state.units]
    return document


def terrain_table(piece: Terrain) -> dict[str, Any]:
    """A terrain piece as its `[[terrain]]` table (plain data)."""
    return _terrain_document(piece)


def unit_table(unit: Unit) -> dict[str, Any]:
    """A unit as its `[[unit]]` table (plain data)."""
    return _unit_document(unit)


def _terrain_document(piece: Terrain) -> dict[str, Any]:
    item: dict[str, Any] = {"id": piece.id}
    if piece.name:
        item["name"] = piece.name
    item["kind"] = piece.kind
    item["height"] = piece.height.value
    if piece.circle is not None:
        item["circle"] = {"x": piece.circle.x, "y": piece.circle.y, "radius": piece.circle.radius}
    else:
        item["polygon"] = [[x, y] for x, y in piece.polygon or ()]
    return item


def _unit_document(unit: Unit) -> dict[str, Any]:
    item: dict[str, Any] = {
        "id": unit.id,
        "name": unit.name,
        "side": unit.side,
        "x": unit.pose.x,
        "y": unit.pose.y,
        "heading": unit.pose.heading,
    }
    if isinstance(unit.base, CircleBase):
        item["base"] = {"shape": "circle", "diameter": unit.base.diameter}
    else:
        item["base"] = {"shape": "rect", "width": unit.base.width, "length": unit.base.length}
    item["movement"] = unit.movement.value
    item["size"] = unit.size.value
    if unit.stats:
        item["stats"] = thaw(unit.stats)
    return item


def dumps_map(state: GameState) -> str:
    """The map as TOML text, laid out as in docs/maps.md: one block per piece and unit,
    points and bases inline, so that a person can read and edit it."""
    document = map_document(state)
    chunks: list[str] = []
    scalars = {k: v for k, v in document.items() if not isinstance(v, Mapping | list)}
    if scalars:
        chunks.append(_toml_lines(scalars))
    for name in ("board", "options"):
        if name in document:
            chunks.append(f"[{name}]\n" + _toml_lines(document[name]))
    for name in ("terrain", "unit"):
        for item in document.get(name, []):
            inline = {k: v for k, v in item.items() if k != "stats"}
            chunk = f"[[{name}]]\n" + _toml_lines(inline)
            if "stats" in item:
                chunk += f"[{name}.stats]\n" + _toml_lines(item["stats"])
            chunks.append(chunk)
    return "\n".join(chunks)


def _toml_lines(table: Mapping[str, Any]) -> str:
    return "".join(f"{_toml_key(k)} = {_toml_value(v)}\n" for k, v in table.items())


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_\-]+", key) else _toml_scalar(key)


def _toml_scalar(value: Any) -> str:
    # tomli-w does the escaping and number formatting of single values
    return tomli_w.dumps({"v": value})[4:-1]


def _toml_value(value: Any) -> str:
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        return (
            "{ " + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + " }"
        )
    if isinstance(value, list | tuple):
        items = [_toml_value(v) for v in value]
        if any(isinstance(v, Mapping) for v in value):
            return "[\n" + "".join(f"  {item},\n" for item in items) + "]"
        return "[" + ", ".join(items) + "]"
    return _toml_scalar(value)
