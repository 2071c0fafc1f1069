"""What a results file must be before the lab reads it or writes into it.

A results file is input, not a trusted store: it may be damaged (a disk, a copy cut
short) or changed by hand or by another program. Before `report`, `replay` or `run`
uses one, the store checks, in this order:

- SQLite's own `PRAGMA integrity_check` (pages, b-trees, indexes, NOT NULL);
- the schema: `sqlite_master` must hold exactly what the lab writes (`SCHEMA`), so a
  file with a trigger, a view, an index or a changed table of its own is refused
  before any of them could run (a trigger would run its SQL on every game stored, a
  view that never ends would hang every query);
- every stored value, by type and range, and how the rows hang together: each game
  belongs to a run and one of its variants, its seed and seat are the ones its run
  gives its number, its sides and players are its run's, each unit belongs to a game
  and one of its sides, and each run's key is the digest of what it stores.

A file that fails is refused with one line naming the table and the row, and is left
untouched. Every query also runs under a time limit (`Store`'s progress handler).
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from tactical.errors import UserError
from tactical.lab.plan import SEATS, TERRAIN_KINDS, game_seed, run_key, terrain_seed

MAX_NAME = 1_000  # characters of a name, a label, a reason, a version
MAX_JSON = 1_000_000  # characters of a JSON column (damage by turn, a variant's options)
MAX_TURNS = 100_000
MAX_STEPS = 10**9
MAX_FIGURE = 1e12  # a score, damage, seconds: far beyond any game, finite
MAX_SEED = 2**62 - 1
MAX_GAMES = 10_000_000
MAX_VARIANTS = 64
WHOLE = "a whole number"
KIND_ORDER = {"trigger": -4, "view": -3, "table": -2, "index": -1}


def refused(path: str | os.PathLike[str], where: str, what: str) -> UserError:
    """The one line a file that fails a check is refused with."""
    return UserError(
        f"{os.fspath(path)!r}: {where}: {what}; the results file was changed or damaged "
        "outside the lab and is refused (it is left untouched)"
    )


def shown(value: Any, limit: int = 40) -> str:
    """A stored value as a message shows it: quoted, escaped, cut short."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[: limit - 3]}..."


# --------------------------------------------------------------------------- schema


SchemaRow = tuple[str, str, str, str | None]  # a row of `sqlite_master`: type, name, table, SQL


def check_schema(
    path: str | os.PathLike[str], rows: list[SchemaRow], expected: frozenset[SchemaRow]
) -> None:
    """UserError unless `sqlite_master` (`rows`) holds exactly the lab's schema (`expected`:
    the rows of a file the lab made)."""
    # what could run (a trigger, a view) is named first
    for kind, name, table, _ in sorted(rows, key=lambda row: KIND_ORDER.get(row[0], 0)):
        if not any(kind == e[0] and name == e[1] for e in expected):
            on = f" on table {shown(table)}" if kind in ("trigger", "index") else ""
            raise refused(path, f"{kind} {shown(name)}{on}", f"the lab writes no such {kind}")
    found = set(rows)
    for kind, name, table, _ in sorted(
        expected - found, key=lambda row: (row[2], row[0] != "table")
    ):
        where = f"table {table}" if kind == "table" else f"table {table}'s index {name}"
        raise refused(path, where, "not as the lab writes it (changed or missing)")


def half_made(rows: list[SchemaRow], expected: frozenset[SchemaRow]) -> bool:
    """Whether `sqlite_master` holds part of the lab's schema and nothing else: a file the
    lab began to create and never finished (a full disk, a killed process)."""
    return set(rows) <= expected


# --------------------------------------------------------------------------- integrity


def check_integrity(path: str | os.PathLike[str], problems: list[str]) -> None:
    """UserError unless SQLite's integrity check passed (`problems` is ["ok"]), naming
    what it found first."""
    if problems != ["ok"]:
        raise refused(path, "the file is damaged", f"SQLite finds {shown(problems[0], 120)}")


# --------------------------------------------------------------------------- values


@dataclass(frozen=True)
class _RunFacts:
    seed: int
    games: int
    terrain: str
    sides: tuple[str, str]
    players: tuple[str, str]
    variants: frozenset[int]


class _Values:
    """One row's values, each read by type and range (UserError naming table and row)."""

    def __init__(self, path: str | os.PathLike[str], table: str, row: sqlite3.Row) -> None:
        self.path = path
        self.table = table
        self.row = row
        self.where = f"table {table}, row {row['_row']}"

    def fail(self, what: str) -> UserError:
        return refused(self.path, self.where, what)

    def whole(self, column: str, low: int, high: int, optional: bool = False) -> int | None:
        value = self.row[column]
        if value is None and optional:
            return None
        if type(value) is not int or not low <= value <= high:
            raise self.fail(f"{column} is {shown(value)}, expected {WHOLE} from {low} to {high}")
        return value

    def number(self, column: str, low: float, high: float) -> float:
        value = self.row[column]
        if type(value) not in (int, float) or not math.isfinite(value) or not low <= value <= high:
            raise self.fail(f"{column} is {shown(value)}, expected a number from {low} to {high}")
        return float(value)

    def text(
        self, column: str, optional: bool = False, limit: int = MAX_NAME, lines: bool = False
    ) -> str | None:
        value = self.row[column]
        if value is None and optional:
            return None
        if type(value) is not str or not 0 < len(value) <= limit or not _valid_text(value, lines):
            raise self.fail(f"{column} is {shown(value)}, expected a text of 1 to {limit} letters")
        return value

    def choice(self, column: str, choices: tuple[Any, ...]) -> Any:
        value = self.row[column]
        if not any(type(value) is type(c) and value == c for c in choices):
            expected = " or ".join(shown(c) for c in choices)
            raise self.fail(f"{column} is {shown(value)}, expected {expected}")
        return value

    def json_value(self, column: str) -> Any:
        text = self.text(column, limit=MAX_JSON, lines=True)
        try:
            return json.loads(text)  # type: ignore[arg-type]
        except (ValueError, RecursionError):
            raise self.fail(f"{column} is {shown(text)}, not readable JSON") from None


def _valid_text(value: str, lines: bool = False) -> bool:
    """Text that is UTF-8 (the connection decodes with surrogate escapes, which this
    refuses) with no control characters (a report prints names to a terminal, where an
    escape sequence would act); a map's text may hold line breaks and tabs."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    allowed = "\n\r\t" if lines else ""
    return not any((ord(c) < 32 or 127 <= ord(c) < 160) and c not in allowed for c in value)


def check_values(
    path: str | os.PathLike[str], rows: Callable[[str], Iterator[sqlite3.Row]]
) -> None:
    """UserError naming the first table and row whose values are out of type or range,
    or do not hang together (see the module docstring). `rows(table)` reads every row of
    a table with its rowid as `_row` (the store's query, under its time limit)."""
    runs = _check_runs(path, rows)
    games = _check_games(path, rows, runs)
    _check_units(path, rows, games)


def _check_runs(
    path: str | os.PathLike[str], rows: Callable[[str], Iterator[sqlite3.Row]]
) -> dict[int, _RunFacts]:
    variants: dict[int, dict[int, str]] = {}
    for row in rows("variants"):
        values = _Values(path, "variants", row)
        run_id = values.whole("run_id", 1, 2**63 - 1)
        number = values.whole("variant", 0, MAX_VARIANTS - 1)
        values.text("label")
        options = values.json_value("options")
        if not isinstance(options, dict):
            raise values.fail(f"options is {shown(row['options'])}, expected named values")
        variants.setdefault(run_id, {})[number] = row["options"]  # type: ignore[index]
    runs: dict[int, _RunFacts] = {}
    for row in rows("runs"):
        values = _Values(path, "runs", row)
        run_id = values.whole("id", 1, 2**63 - 1)
        for column in ("created", "title", "map_source", "rules", "side_a", "side_b"):
            values.text(column)
        values.text("map_text", limit=2**26, lines=True)
        for column in ("player_1", "player_2"):
            values.text(column)
        terrain = values.choice("terrain", TERRAIN_KINDS)
        seed = values.whole("seed", 0, MAX_SEED)
        games = values.whole("games", 1, MAX_GAMES)
        if row["side_a"] == row["side_b"]:
            raise values.fail(f"both sides are {shown(row['side_a'])}")
        stored = variants.pop(run_id, {})  # type: ignore[arg-type]
        if sorted(stored) != list(range(len(stored))) or not stored:
            raise values.fail("its variants are missing or not numbered from 0")
        options = [stored[number] for number in sorted(stored)]
        players = (row["player_1"], row["player_2"])
        if row["key"] != run_key(row["map_text"], options, players, terrain, seed):  # type: ignore[arg-type]
            raise values.fail("its key is not the digest of its map, variants and players")
        runs[run_id] = _RunFacts(  # type: ignore[index]
            seed,  # type: ignore[arg-type]
            games,  # type: ignore[arg-type]
            terrain,
            (row["side_a"], row["side_b"]),
            players,
            frozenset(stored),
        )
    for run_id in variants:
        raise refused(path, "table variants", f"variants of run {run_id}, which is not stored")
    return runs


def _check_games(
    path: str | os.PathLike[str],
    rows: Callable[[str], Iterator[sqlite3.Row]],
    runs: Mapping[int, _RunFacts],
) -> dict[int, tuple[str, str]]:
    games: dict[int, tuple[str, str]] = {}
    for row in rows("games"):
        values = _Values(path, "games", row)
        game_id = values.whole("id", 1, 2**63 - 1)
        run = runs.get(values.whole("run_id", 1, 2**63 - 1))  # type: ignore[arg-type]
        if run is None:
            raise values.fail(f"its run {shown(row['run_id'])} is not stored")
        variant = values.whole("variant", 0, MAX_VARIANTS - 1)
        if variant not in run.variants:
            raise values.fail(f"its variant {variant} is not one of its run's")
        number = values.whole("number", 0, run.games - 1)
        values.whole("seed", game_seed(run.seed, number), game_seed(run.seed, number))  # type: ignore[arg-type]
        values.whole("seat", number % SEATS, number % SEATS)  # type: ignore[operator]
        if run.terrain == "random":
            table = terrain_seed(run.seed, number)  # type: ignore[arg-type]
            values.whole("terrain_seed", table, table)
        elif row["terrain_seed"] is not None:
            raise values.fail(f"terrain_seed is {shown(row['terrain_seed'])} on the map's terrain")
        sides = (values.choice("side_a", run.sides[:1]), values.choice("side_b", run.sides[1:]))
        first, second = run.players if row["seat"] == 0 else run.players[::-1]
        values.choice("ai_a", (first,))
        values.choice("ai_b", (second,))
        if row["winner"] is not None:
            values.choice("winner", sides)
        values.text("reason")
        values.text("spec_id", optional=True)
        values.text("code_version")
        turns = values.whole("turns", 0, MAX_TURNS)
        values.whole("steps", 0, MAX_STEPS)
        for side in ("a", "b"):
            values.number(f"score_{side}", -MAX_FIGURE, MAX_FIGURE)
            values.number(f"losses_{side}", 0.0, 1.0 + 1e-9)
            values.number(f"damage_{side}", 0.0, MAX_FIGURE)
            values.whole(f"units_lost_{side}", 0, 1_000_000)
        values.number("seconds", 0.0, MAX_FIGURE)
        _check_by_turn(values, values.json_value("damage_by_turn"), turns)  # type: ignore[arg-type]
        games[game_id] = sides  # type: ignore[index]
    return games


def _check_by_turn(values: _Values, series: Any, turns: int) -> None:
    fine = (
        isinstance(series, list)
        and len(series) == 2
        and all(
            isinstance(side, list)
            and len(side) <= turns + 1
            and all(
                type(v) in (int, float) and math.isfinite(v) and 0 <= v <= MAX_FIGURE for v in side
            )
            for side in series
        )
    )
    if not fine:
        raise values.fail(
            f"damage_by_turn is {shown(values.row['damage_by_turn'])}, expected two lists of "
            f"at most {turns + 1} numbers"
        )


def _check_units(
    path: str | os.PathLike[str],
    rows: Callable[[str], Iterator[sqlite3.Row]],
    games: Mapping[int, tuple[str, str]],
) -> None:
    for row in rows("units"):
        values = _Values(path, "units", row)
        sides = games.get(values.whole("game_id", 1, 2**63 - 1))  # type: ignore[arg-type]
        if sides is None:
            raise values.fail(f"its game {shown(row['game_id'])} is not stored")
        values.text("unit_id")
        values.text("unit_class")
        values.choice("side", sides)
        values.choice("lost", (0, 1))
