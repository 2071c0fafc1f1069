"""Unit catalogues: ready classes of ships and units, per rule system.

Each rule system ships `catalogue.toml` in its package (package data, found
with importlib.resources); a player adds classes of their own in a file of the
same format (`tactical play --catalogue FILE`). The format (docs/maps.md,
"Unit catalogues"):

    rules = "dystopian-wars"          # the rule system the classes are for

    [[class]]
    id = "ruler"                      # the name quick entry knows it by
    name = "Ruler Class Battleship"   # the name a placed unit gets
    side = "Britannia"                # the side it is listed under and placed for
    base = { shape = "rect", width = 1.5, length = 4 }
    movement = "naval"                # optional, as in a map's [[unit]]
    size = "large"                    # optional, as in a map's [[unit]]
    [class.stats]                     # the rule system's stats, as in a map
    ...

A catalogue is validated like a map (the same reader: the rule system's stats
schema, bases, movement and size), and every problem is one `MapError` naming
the file, the line and the key.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

from tactical.errors import UserError
from tactical.io.maps import (
    MapError,
    _Placing,
    _unit,
    read_file,
    read_rule_system,
    read_toml_document,
    unit_table,
)
from tactical.model import Board, FrozenMap, Unit, thaw
from tactical.rules import registry

CATALOGUE_FILE = "catalogue.toml"
TOP_KEYS = ("rules", "title", "class")
CLASS_KEYS = ("id", "name", "side", "base", "movement", "size", "stats")
# classes are read as a unit standing in the middle of a table large enough for any base
_CHECK_BOARD = Board(10_000.0, 10_000.0)


@dataclass(frozen=True)
class UnitClass:
    """A ready class: everything of a `[[unit]]` but its id and place on the table."""

    id: str
    name: str
    side: str
    template: Unit  # the class as a unit (its id the class id), for its base, sizes and stats
    source: str

    @property
    def stats(self) -> FrozenMap:
        return self.template.stats

    def unit_table(
        self, unit_id: str, x: float, y: float, heading: float = 0.0, side: str | None = None
    ) -> dict[str, Any]:
        """A `[[unit]]` table of this class at (x, y, heading) for `side` (default: its own)."""
        table = unit_table(self.template)
        table.update(id=unit_id, name=self.name, side=side or self.side, x=x, y=y, heading=heading)
        return table


@dataclass(frozen=True)
class Catalogue:
    """The classes of one rule system, in file order (the built-in ones first)."""

    rules: str
    classes: tuple[UnitClass, ...]

    def find(self, name: str) -> UnitClass | None:
        """The class with this id (or, failing that, this name), ignoring case."""
        wanted = name.strip().lower()
        for unit_class in self.classes:
            if unit_class.id.lower() == wanted:
                return unit_class
        for unit_class in self.classes:
            if unit_class.name.lower() == wanted:
                return unit_class
        return None

    def sides(self) -> tuple[str, ...]:
        """The sides the classes are listed under, in order of first appearance."""
        return tuple(dict.fromkeys(c.side for c in self.classes))

    def by_side(self, side: str) -> tuple[UnitClass, ...]:
        return tuple(c for c in self.classes if c.side == side)

    def joined(self, other: Catalogue) -> Catalogue:
        """This catalogue with `other`'s classes added; a class of `other` with an id already
        here replaces it (a player's own correction of a built-in class)."""
        if other.rules != self.rules:
            raise UserError(
                f"{other.classes[0].source if other.classes else 'the catalogue'}: its classes "
                f"are for {other.rules!r}, not {self.rules!r}"
            )
        replaced = {c.id for c in other.classes}
        kept = tuple(c for c in self.classes if c.id not in replaced)
        return Catalogue(self.rules, kept + other.classes)


def loads_catalogue(text: str, source: str = "<catalogue>") -> Catalogue:
    """Parse and validate catalogue text; the first problem is a MapError (file, line, key)."""
    document, reader = read_toml_document(text, source)
    reader.table(document, [], TOP_KEYS)
    system = read_rule_system(reader, document)
    rules_id = system.id
    items = document.get("class", [])
    if not isinstance(items, list) or not items:
        reader.fail(["class"], "an array of one or more [[class]] tables")
    place = _Placing(reader, _CHECK_BOARD, system, {})
    classes = []
    for index, item in enumerate(items):
        path: list[str | int] = ["class", index]
        table = reader.table(item, path, CLASS_KEYS)
        class_id = reader.string(table, path, "id")
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_\-]*", class_id):
            reader.fail(
                [*path, "id"],
                "one word of letters, digits, - and _ (quick entry types it)",
            )
        reader.string(table, path, "side")
        middle = {"x": _CHECK_BOARD.width / 2, "y": _CHECK_BOARD.height / 2}
        unit = _unit(place, {**table, **middle}, path)
        classes.append(UnitClass(class_id, unit.name, unit.side, unit, source))
    return Catalogue(rules_id, tuple(classes))


def load_catalogue(path: str | os.PathLike[str]) -> Catalogue:
    """Read a catalogue file (a player's own: `--catalogue FILE`)."""
    source = str(path)
    raw = read_file(path, "catalogue file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise MapError(source, None, None, "UTF-8 text") from None
    return loads_catalogue(text, source)


def builtin_catalogue(rules_id: str) -> Catalogue:
    """The catalogue a rule system ships (package data beside its code); empty if none."""
    registry.get(rules_id)
    package = registry.KNOWN[rules_id]
    file = resources.files(package) / CATALOGUE_FILE
    if not file.is_file():
        return Catalogue(rules_id, ())
    return loads_catalogue(file.read_text(encoding="utf-8"), f"{rules_id} {CATALOGUE_FILE}")


def catalogue_for(
    rules_id: str, extra: str | os.PathLike[str] | Catalogue | None = None
) -> Catalogue:
    """The built-in classes of `rules_id`, with a player's catalogue added when it is for the
    same rule system (a catalogue for another system adds nothing here)."""
    catalogue = builtin_catalogue(rules_id)
    if extra is None:
        return catalogue
    own = extra if isinstance(extra, Catalogue) else load_catalogue(extra)
    return catalogue.joined(own) if own.rules == rules_id else catalogue


def class_document(unit_class: UnitClass) -> dict[str, Any]:
    """A class as its `[[class]]` table (plain data), for documents and tests."""
    table = unit_table(unit_class.template)
    for key in ("x", "y", "heading"):
        table.pop(key, None)
    table["id"] = unit_class.id
    return {key: thaw(table[key]) for key in CLASS_KEYS if key in table}
