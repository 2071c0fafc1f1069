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
file another program holds locked is refused the same way. A file the lab is given is
input, not a trusted store: before a report, a replay or a run reads or writes one,
`checks` checks its integrity, its schema and every stored value, and every
query runs under a time limit (`QUERY_SECONDS` without a row, a progress handler). A
new file is created in one transaction; a file the lab began and never finished (a
full disk, a killed process) is recognised and made again. Only the lab's main
process writes; a run holds an advisory lock on the file (`flock`) so that two runs
never write into it at once, and commits each batch of results as it arrives: a run
stopped at any moment keeps every game it finished.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import json
import math
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tactical.errors import UserError
from tactical.io.files import is_file, output_path
from tactical.lab import checks
from tactical.lab.plan import GameResult, RunSpec

APPLICATION_ID = 0x54434C42  # "TCLB": a tactical lab results file
SCHEMA_VERSION = 1
BUSY_SECONDS = 2.0
# the longest a query may go without a row (a crafted or damaged file must not hang the
# lab); the integrity check is given this and a second per INTEGRITY_BYTES of the file
QUERY_SECONDS = 5.0
INTEGRITY_BYTES = 50 * 2**20
MAX_VALUE_BYTES = 2**27  # the longest value SQLite hands the lab (a map is at most 32 MB)
PROGRESS_STEPS = 1_000  # SQLite instructions between two looks at the clock
FRESH, HALF_MADE, OURS = "fresh", "half-made", "ours"

# every row of a table with its rowid, in the order `checks.check_values` reads them
TABLE_ROWS = {
    "variants": "SELECT rowid AS _row, * FROM variants ORDER BY run_id, variant",
    "runs": "SELECT rowid AS _row, * FROM runs ORDER BY id",
    "games": "SELECT rowid AS _row, * FROM games ORDER BY id",
    "units": "SELECT rowid AS _row, * FROM units ORDER BY game_id, rowid",
}

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
        self._deadline = math.inf
        connection.set_progress_handler(self._too_long, PROGRESS_STEPS)

    # ----------------------------------------------------------------- opening

    @classmethod
    def check_writable(cls, path: str | os.PathLike[str]) -> None:
        """UserError unless `path` can become or is our results file: checked without
        writing anything (run before a run starts, so bad input leaves no trace)."""
        target = output_path(path)
        if is_file(target) and target.stat().st_size > 0:
            with cls(Path(path), cls._connect(target, read_only=True)) as store:
                if store._state() == OURS:
                    store._check_contents()
            _probe_unlocked(Path(path), target)

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> Store:
        """Open (creating it if need be) a results file for a run to write into."""
        given = Path(path)
        target = output_path(given)
        existed = is_file(target)
        lock = _take_run_lock(given, target)
        store = None
        try:
            store = cls(given, cls._connect(target, read_only=False), lock)
            state = store._state()
            if state == OURS:
                store._check_contents()  # again, now that no other run can change it
            else:
                store._create(state)
            # WAL while a run writes, so a report can read at the same time
            store._arm()
            store.connection.execute("PRAGMA journal_mode = WAL")
        except BaseException as error:
            if store is not None:
                store.close(finished=False)
            else:
                lock.close()
            if not existed:
                target.unlink(missing_ok=True)  # nothing of ours in it: leave nothing behind
            if isinstance(error, sqlite3.Error):
                what = "write" if existed else "create"
                raise UserError(
                    f"{str(given)!r}: cannot {what} the results file ({error}); nothing was stored"
                ) from None
            raise
        return store

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> Store:
        """Open an existing results file to read (a report, a replay), checked first."""
        target = Path(path)
        if not is_file(target):
            if os.path.exists(target):
                raise UserError(
                    f"{str(target)!r}: not a results file (a folder, a device or a pipe)"
                )
            raise UserError(f"{str(target)!r}: no such results file")
        store = cls(target, cls._connect(target, read_only=True))
        try:
            state = store._state()
            if state == FRESH:
                raise UserError(f"{str(target)!r}: an empty file, not a lab results file")
            if state == HALF_MADE:
                raise UserError(
                    f"{str(target)!r}: a results file the lab began and never finished: no "
                    "games stored"
                )
            store._check_contents()
        except BaseException:
            store.connection.close()
            raise
        return store

    @staticmethod
    def _connect(path: Path, read_only: bool) -> sqlite3.Connection:
        try:
            uri = f"{path.resolve().as_uri()}?mode={'ro' if read_only else 'rwc'}"
            connection = sqlite3.connect(uri, uri=True, timeout=BUSY_SECONDS)
            connection.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)
            # nothing in the file's schema may call a function with side effects
            connection.execute("PRAGMA trusted_schema = OFF")
        except (sqlite3.Error, OSError, ValueError) as error:
            raise UserError(f"{str(path)!r}: cannot open the results file ({error})") from None
        connection.row_factory = sqlite3.Row
        # text that is not UTF-8 is read (escaped) and then refused by the checks,
        # naming its row, instead of failing inside a query
        connection.text_factory = lambda data: data.decode("utf-8", "surrogateescape")
        return connection

    def _state(self) -> str:
        """FRESH (empty), HALF_MADE (a creation never finished) or OURS; UserError for a
        file of another program or of a newer version (see `_check_header`)."""
        try:
            self._arm()
            application_id = self.connection.execute("PRAGMA application_id").fetchone()[0]
            version = self.connection.execute("PRAGMA user_version").fetchone()[0]
            rows = _schema_rows(self.connection)
            if application_id in (0, APPLICATION_ID) and version != SCHEMA_VERSION:
                half = checks.half_made(rows, _expected_schema(SCHEMA)) and all(
                    self.connection.execute(f"SELECT NOT EXISTS (SELECT 1 FROM {name})").fetchone()[
                        0
                    ]
                    for kind, name, _, _ in rows
                    if kind == "table"
                )
            else:
                half = False
        except (sqlite3.DatabaseError, UnicodeDecodeError) as error:
            raise self._read_error(error) from None
        return _check_header(self.path, application_id, version, rows, half)

    def _check_contents(self) -> None:
        """`checks`: the file's integrity, its schema and every stored value."""
        try:
            size = self.path.stat().st_size
        except OSError:
            size = 0
        try:
            self._arm(QUERY_SECONDS + size / INTEGRITY_BYTES)
            problems = [row[0] for row in self.connection.execute("PRAGMA integrity_check(3)")]
            checks.check_integrity(self.path, problems)
            self._arm()
            rows = _schema_rows(self.connection)
            checks.check_schema(self.path, rows, _expected_schema(SCHEMA))
        except (sqlite3.DatabaseError, UnicodeDecodeError) as error:
            raise self._read_error(error) from None
        checks.check_values(self.path, lambda table: self._rows(TABLE_ROWS[table]))

    def _create(self, state: str) -> None:
        """The lab's tables and marks, in one transaction: a full disk or a kill leaves
        the file as it was (empty, or half-made by an older version: made again)."""
        connection = self.connection
        self._arm()
        connection.execute("BEGIN IMMEDIATE")
        try:
            if state == HALF_MADE:
                for row in _schema_rows(connection):
                    if row[0] == "table":
                        connection.execute(f"DROP TABLE {row[1]}")
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    connection.execute(statement)
            connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            connection.commit()
        except BaseException:
            with suppress(sqlite3.Error):
                connection.rollback()
            raise

    def close(self, finished: bool = True) -> None:
        if self._lock is not None and finished:
            # back to a rollback journal once the run is over: a read-only reader of a WAL
            # file leaves its -wal and -shm files beside it (if a reader has it open now, it
            # stays in WAL mode, which is harmless)
            with suppress(sqlite3.Error):
                self._arm()
                self.connection.execute("PRAGMA journal_mode = DELETE")
        self.connection.close()
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----------------------------------------------------------------- time limit

    def _arm(self, seconds: float | None = None) -> None:
        """Start the clock of the next query (the progress handler stops it past it)."""
        self._deadline = time.monotonic() + (QUERY_SECONDS if seconds is None else seconds)

    def _too_long(self) -> int:
        return int(time.monotonic() > self._deadline)

    def _read_error(self, error: sqlite3.Error | UnicodeDecodeError) -> UserError:
        if isinstance(error, UnicodeDecodeError):
            # SQLite's own message quotes the damaged bytes, which are not UTF-8
            return checks.refused(
                self.path, "the file is damaged", "SQLite finds text that is not UTF-8"
            )
        text = str(error)
        if "interrupted" in text:
            return UserError(
                f"{str(self.path)!r}: a query on the results file ran past "
                f"{QUERY_SECONDS:g} s; the file is refused (it is left untouched)"
            )
        if "locked" in text or "busy" in text:
            return _locked(self.path)
        if isinstance(error, sqlite3.DataError) or "malformed" in text or "corrupt" in text:
            return checks.refused(self.path, "the file is damaged", f"SQLite finds {text!r}")
        if isinstance(error, sqlite3.OperationalError):
            return UserError(f"{str(self.path)!r}: cannot read the results ({text})")
        return UserError(
            f"{str(self.path)!r}: not a lab results file (not an SQLite database: {text}); "
            "give a new file name with --db"
        )

    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> Iterator[sqlite3.Row]:
        """The rows of a query, each fetched under the time limit."""
        try:
            self._arm()
            cursor = self.connection.execute(sql, params)
            while True:
                self._arm()
                row = cursor.fetchone()
                if row is None:
                    return
                yield row
        except (sqlite3.Error, UnicodeDecodeError) as error:
            raise self._read_error(error) from None

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
            self._arm()
            with self.connection:
                yield self.connection
        except (sqlite3.Error, UnicodeDecodeError) as error:
            raise UserError(f"{str(self.path)!r}: cannot write the results ({error})") from None

    # ----------------------------------------------------------------- reading

    def done(self, run_id: int) -> set[tuple[int, int]]:
        """(variant, number) of every game of the run already stored."""
        rows = self._rows("SELECT variant, number FROM games WHERE run_id = ?", (run_id,))
        return {(int(r["variant"]), int(r["number"])) for r in rows}

    def count(self, run_id: int | None = None) -> int:
        if run_id is None:
            return int(next(self._rows("SELECT COUNT(*) FROM games"))[0])
        return int(next(self._rows("SELECT COUNT(*) FROM games WHERE run_id = ?", (run_id,)))[0])

    def report_games(self) -> list[sqlite3.Row]:
        """Every stored game with its run's scenario (map, rules, players, terrain) and its
        variant's label and options, in the order stored: what a report groups."""
        return self.query(
            "SELECT g.*, r.title, r.rules, r.player_1, r.player_2, r.terrain, r.map_text, "
            "r.map_source, v.label, v.options "
            "FROM games g JOIN runs r ON r.id = g.run_id "
            "JOIN variants v ON v.run_id = g.run_id AND v.variant = g.variant ORDER BY g.id"
        )

    def report_units(self) -> list[sqlite3.Row]:
        """How every unit of every stored game ended, with its run's map (what names the
        unit), by game and in the map's order."""
        return self.query(
            "SELECT u.game_id, u.unit_id, u.unit_class, u.side, u.lost, r.map_text, "
            "r.map_source FROM units u JOIN games g ON g.id = u.game_id "
            "JOIN runs r ON r.id = g.run_id ORDER BY u.game_id, u.rowid"
        )

    def game(self, game_id: int) -> sqlite3.Row | None:
        """The stored game `game_id` with what its run played it from (map, rules, players,
        terrain, the run's seed as `run_seed`); None when there is none (SQLite's ids are
        whole numbers from 1 to 2^63 - 1: a larger one is simply not stored)."""
        if not 1 <= game_id < 2**63:
            return None
        rows = self.query(
            "SELECT g.*, r.map_text, r.map_source, r.rules, r.title, r.player_1, r.player_2, "
            "r.terrain, r.seed AS run_seed, r.games FROM games g JOIN runs r ON r.id = g.run_id "
            "WHERE g.id = ?",
            (game_id,),
        )
        return rows[0] if rows else None

    def variants(self, run_id: int) -> list[sqlite3.Row]:
        """The run's variants (number, label, options as JSON), in order."""
        return self.query(
            "SELECT variant, label, options FROM variants WHERE run_id = ? ORDER BY variant",
            (run_id,),
        )

    def run_id(self, key: str) -> int | None:
        """The id of the run stored under `key` (`RunSpec.key`), None when there is none."""
        rows = self.query("SELECT id FROM runs WHERE key = ?", (key,))
        return int(rows[0]["id"]) if rows else None

    def winners(self, run_id: int) -> list[str | None]:
        """The winner of each stored game of the run (None: a draw), by game number."""
        rows = self.query("SELECT winner FROM games WHERE run_id = ? ORDER BY number", (run_id,))
        return [row["winner"] for row in rows]

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        """Any query, under the time limit (a test, a look into a file by hand); the lab's
        own queries are the methods above, so that its SQL lives here only."""
        return list(self._rows(sql, params))


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


@functools.cache
def _expected_schema(schema: str) -> frozenset[checks.SchemaRow]:
    """`sqlite_master`'s rows (type, name, table, SQL) of a file made with `schema`."""
    connection = sqlite3.connect(":memory:")
    try:
        connection.executescript(schema)
        return frozenset(_schema_rows(connection))
    finally:
        connection.close()


def _schema_rows(connection: sqlite3.Connection) -> list[checks.SchemaRow]:
    return [
        (row[0], row[1], row[2], row[3])
        for row in connection.execute("SELECT type, name, tbl_name, sql FROM sqlite_master")
    ]


def _check_header(
    path: Path, application_id: int, version: int, rows: list[tuple], half_made: bool
) -> str:
    """What the file is by its marks and schema: FRESH, HALF_MADE or OURS; UserError when
    another program made it, or a newer version of tactical."""
    if application_id == 0 and not rows:
        return FRESH
    if half_made:
        return HALF_MADE
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
    if version != SCHEMA_VERSION:
        raise checks.refused(
            path,
            "the file's marks",
            f"results schema {version}, this version reads {SCHEMA_VERSION}",
        )
    return OURS


def _probe_unlocked(path: Path, target: Path) -> None:
    """UserError when another program holds the file's write lock (checked by taking and
    releasing it without writing)."""
    connection = sqlite3.connect(target, timeout=BUSY_SECONDS, isolation_level=None)
    try:
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("ROLLBACK")
    except (sqlite3.Error, UnicodeDecodeError) as error:
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


def _take_run_lock(path: Path, target: Path) -> Any:
    """An advisory lock held for the run (`flock` on the results file itself, which is
    independent of SQLite's own locks): a second run into the same file is refused
    instead of racing the first. Closed only after the SQLite connection (closing a file
    descriptor of the database early would drop SQLite's POSIX locks)."""
    try:
        descriptor = os.open(target, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError as error:
        raise UserError(
            f"{str(path)!r}: cannot write the results file ({error.strerror})"
        ) from None
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
