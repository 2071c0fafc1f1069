"""The results store: one SQLite file (stdlib `sqlite3`) that runs accumulate into.

Tables:

- `runs`: one row per run (its key, the map's TOML text, the players, the terrain, the
  run seed, the games asked for per variant);
- `variants`: each run's variants (label and options as JSON);
- `games`: one row per played game — variant, number, seed, seat, winner (NULL for a
  draw), reason, turns, each side's AI level, score, share of its strength lost, damage
  dealt and units lost, the damage by turn, the code version;
  `UNIQUE(run_id, variant, number)`, so a game delivered twice (a retried task) is
  stored once;
- `units`: how every unit of a game ended (class, side, lost or not).

The file is marked as ours (`PRAGMA application_id`); any other file — not SQLite, or
SQLite made by another program — is refused with a UserError and left untouched. A
file another program holds locked is refused the same way. Only the lab's main
process writes; a run holds an advisory lock on the file (`flock`) so that two runs
never write into it at once, and commits each batch of results as it arrives: a run
stopped at any moment keeps every game it finished.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import closing, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tactical.errors import UserError
from tactical.lab.plan import GameResult, RunSpec

APPLICATION_ID = 0x54434C42  # "TCLB": a tactical lab results file
SCHEMA_VERSION = 1
BUSY_SECONDS = 2.0

SCHEMA = """
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    created TEXT NOT NULL,
    title TEXT NOT NULL,
    map_source TEXT NOT NULL,
    map_text TEXT NOT NULL,
    rules TEXT NOT NULL,
    side_a TEXT NOT NULL,
    side_b TEXT NOT NULL,
    player_1 TEXT NOT NULL,
    player_2 TEXT NOT NULL,
    terrain TEXT NOT NULL,
    seed INTEGER NOT NULL,
    games INTEGER NOT NULL
);
CREATE TABLE variants (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    variant INTEGER NOT NULL,
    label TEXT NOT NULL,
    options TEXT NOT NULL,
    PRIMARY KEY (run_id, variant)
);
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id),
    variant INTEGER NOT NULL,
    number INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    terrain_seed INTEGER,
    seat INTEGER NOT NULL,
    winner TEXT,
    reason TEXT NOT NULL,
    spec_id TEXT,
    turns INTEGER NOT NULL,
    steps INTEGER NOT NULL,
    side_a TEXT NOT NULL,
    side_b TEXT NOT NULL,
    ai_a TEXT NOT NULL,
    ai_b TEXT NOT NULL,
    score_a REAL NOT NULL,
    score_b REAL NOT NULL,
    losses_a REAL NOT NULL,
    losses_b REAL NOT NULL,
    damage_a REAL NOT NULL,
    damage_b REAL NOT NULL,
    units_lost_a INTEGER NOT NULL,
    units_lost_b INTEGER NOT NULL,
    damage_by_turn TEXT NOT NULL,
    seconds REAL NOT NULL,
    code_version TEXT NOT NULL,
    UNIQUE (run_id, variant, number)
);
CREATE TABLE units (
    game_id INTEGER NOT NULL REFERENCES games(id),
    unit_id TEXT NOT NULL,
    unit_class TEXT NOT NULL,
    side TEXT NOT NULL,
    lost INTEGER NOT NULL,
    PRIMARY KEY (game_id, unit_id)
);
"""


@dataclass(frozen=True)
class StoredRun:
    """A run's row: its id and what it was asked for."""

    id: int
    key: str
    games: int


class Store:
    """An open results file (see the module docstring). Use `Store.open` or `Store.read`."""

    def __init__(self, path: Path, connection: sqlite3.Connection, lock: Any = None) -> None:
        self.path = path
        self.connection = connection
        self._lock = lock

    # ----------------------------------------------------------------- opening

    @classmethod
    def check_writable(cls, path: str | os.PathLike[str]) -> None:
        """UserError unless `path` can become or is our results file: checked without
        writing anything (run before a run starts, so bad input leaves no trace)."""
        target = Path(path)
        if target.exists():
            with closing(cls._connect(target, read_only=True)) as connection:
                _check_ours(target, connection)
            _probe_unlocked(target)
        elif not target.parent.is_dir():
            raise UserError(f"{str(target)!r}: the folder {str(target.parent)!r} does not exist")

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> Store:
        """Open (creating it if need be) a results file for a run to write into."""
        target = Path(path)
        cls.check_writable(target)
        lock = _take_run_lock(target)
        try:
            connection = cls._connect(target, read_only=False)
            fresh = _check_ours(target, connection)
            if fresh:
                with connection:
                    connection.executescript(SCHEMA)
                    connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            # WAL while a run writes, so a report can read at the same time
            connection.execute("PRAGMA journal_mode = WAL")
        except BaseException:
            lock.close()
            raise
        return cls(target, connection, lock)

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> Store:
        """Open an existing results file to read (a report, a replay)."""
        target = Path(path)
        if not target.is_file():
            raise UserError(f"{str(target)!r}: no such results file")
        connection = cls._connect(target, read_only=True)
        _check_ours(target, connection)
        if _is_empty(connection):
            raise UserError(f"{str(target)!r}: an empty file, not a lab results file")
        return cls(target, connection)

    @staticmethod
    def _connect(path: Path, read_only: bool) -> sqlite3.Connection:
        uri = f"{path.resolve().as_uri()}?mode={'ro' if read_only else 'rwc'}"
        try:
            connection = sqlite3.connect(uri, uri=True, timeout=BUSY_SECONDS)
        except sqlite3.Error as error:
            raise UserError(f"{str(path)!r}: cannot open the results file ({error})") from None
        connection.row_factory = sqlite3.Row
        return connection

    def close(self) -> None:
        if self._lock is not None:
            # back to a rollback journal once the run is over: a read-only reader of a WAL
            # file leaves its -wal and -shm files beside it (if a reader has it open now, it
            # stays in WAL mode, which is harmless)
            with suppress(sqlite3.Error):
                self.connection.execute("PRAGMA journal_mode = DELETE")
        self.connection.close()
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----------------------------------------------------------------- writing

    def begin_run(self, spec: RunSpec) -> StoredRun:
        """The run's row, made on its first start; a later start with a larger `games`
        extends it (the same command resumes it)."""
        with self._writing() as connection:
            row = connection.execute(
                "SELECT id, games FROM runs WHERE key = ?", (spec.key,)
            ).fetchone()
            if row is not None:
                games = max(int(row["games"]), spec.games)
                connection.execute("UPDATE runs SET games = ? WHERE id = ?", (games, row["id"]))
                return StoredRun(int(row["id"]), spec.key, games)
            cursor = connection.execute(
                "INSERT INTO runs (key, created, title, map_source, map_text, rules, side_a, "
                "side_b, player_1, player_2, terrain, seed, games) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    spec.key,
                    datetime.now(UTC).isoformat(timespec="seconds"),
                    spec.title,
                    spec.map_source,
                    spec.map_text,
                    spec.rules,
                    *spec.sides,
                    *spec.players,
                    spec.terrain,
                    spec.seed,
                    spec.games,
                ),
            )
            run_id = int(cursor.lastrowid or 0)
            connection.executemany(
                "INSERT INTO variants (run_id, variant, label, options) VALUES (?, ?, ?, ?)",
                [(run_id, i, v.label, v.options_json) for i, v in enumerate(spec.variants)],
            )
            return StoredRun(run_id, spec.key, spec.games)

    def add_results(self, run_id: int, results: Iterable[GameResult]) -> int:
        """Store played games in one transaction; a game already stored is skipped.
        Returns how many were new."""
        added = 0
        with self._writing() as connection:
            for result in results:
                added += _insert_game(connection, run_id, result)
        return added

    @contextlib.contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        try:
            with self.connection:
                yield self.connection
        except sqlite3.OperationalError as error:
            raise UserError(f"{str(self.path)!r}: cannot write the results ({error})") from None

    # ----------------------------------------------------------------- reading

    def done(self, run_id: int) -> set[tuple[int, int]]:
        """(variant, number) of every game of the run already stored."""
        rows = self.connection.execute(
            "SELECT variant, number FROM games WHERE run_id = ?", (run_id,)
        )
        return {(int(r["variant"]), int(r["number"])) for r in rows}

    def count(self, run_id: int | None = None) -> int:
        if run_id is None:
            return int(self.connection.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        return int(
            self.connection.execute(
                "SELECT COUNT(*) FROM games WHERE run_id = ?", (run_id,)
            ).fetchone()[0]
        )

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        try:
            return list(self.connection.execute(sql, params))
        except sqlite3.OperationalError as error:
            raise UserError(f"{str(self.path)!r}: cannot read the results ({error})") from None


def _insert_game(connection: sqlite3.Connection, run_id: int, result: GameResult) -> int:
    a, b = result.sides
    cursor = connection.execute(
        "INSERT OR IGNORE INTO games (run_id, variant, number, seed, terrain_seed, seat, "
        "winner, reason, spec_id, turns, steps, side_a, side_b, ai_a, ai_b, score_a, score_b, "
        "losses_a, losses_b, damage_a, damage_b, units_lost_a, units_lost_b, damage_by_turn, "
        "seconds, code_version) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            run_id,
            result.variant,
            result.number,
            result.seed,
            result.terrain_seed,
            result.seat,
            result.winner,
            result.reason,
            result.spec_id,
            result.turns,
            result.steps,
            a.side,
            b.side,
            a.ai,
            b.ai,
            a.score,
            b.score,
            a.losses,
            b.losses,
            a.damage,
            b.damage,
            a.units_lost,
            b.units_lost,
            json.dumps([list(a.damage_by_turn), list(b.damage_by_turn)]),
            result.seconds,
            result.code_version,
        ),
    )
    if cursor.rowcount == 0:
        return 0
    game_id = cursor.lastrowid
    connection.executemany(
        "INSERT INTO units (game_id, unit_id, unit_class, side, lost) VALUES (?, ?, ?, ?, ?)",
        [(game_id, u.unit_id, u.unit_class, u.side, int(u.lost)) for u in result.units],
    )
    return 1


def _is_empty(connection: sqlite3.Connection) -> bool:
    return connection.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0] == 0


def _check_ours(path: Path, connection: sqlite3.Connection) -> bool:
    """Whether the file is a fresh (empty) database; UserError when it is not ours."""
    try:
        application_id = connection.execute("PRAGMA application_id").fetchone()[0]
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        empty = _is_empty(connection)
    except sqlite3.DatabaseError as error:
        if "locked" in str(error):
            raise _locked(path) from None
        raise UserError(
            f"{str(path)!r}: not a lab results file (not an SQLite database: {error}); "
            "give a new file name with --db"
        ) from None
    if application_id == 0 and empty:
        return True
    if application_id != APPLICATION_ID:
        raise UserError(
            f"{str(path)!r}: an SQLite database made by another program, not a lab results "
            "file; it is left untouched (give a new file name with --db)"
        )
    if version > SCHEMA_VERSION:
        raise UserError(
            f"{str(path)!r}: made by a newer version of tactical (results schema {version}, "
            f"this one reads {SCHEMA_VERSION})"
        )
    return False


def _probe_unlocked(path: Path) -> None:
    """UserError when another program holds the file's write lock (checked by taking and
    releasing it without writing)."""
    connection = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)
    try:
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("ROLLBACK")
    except sqlite3.OperationalError as error:
        if "locked" in str(error) or "busy" in str(error):
            raise _locked(path) from None
        raise UserError(f"{str(path)!r}: cannot write the results file ({error})") from None
    finally:
        connection.close()


def _locked(path: Path) -> UserError:
    return UserError(
        f"{str(path)!r}: the results file is locked by another program; nothing was written "
        "(wait for it to finish, or give another file with --db)"
    )


def _take_run_lock(path: Path) -> Any:
    """An advisory lock held for the run (`flock` on the results file itself, which is
    independent of SQLite's own locks): a second run into the same file is refused
    instead of racing the first. Closed only after the SQLite connection (closing a file
    descriptor of the database early would drop SQLite's POSIX locks)."""
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    handle = os.fdopen(descriptor, "rb+")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise UserError(
            f"{str(path)!r}: another lab run is writing into this results file; nothing was "
            "written (wait for it to finish, or give another file with --db)"
        ) from None
    return handle
