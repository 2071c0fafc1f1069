"""Fuzz: a results file mutated (its bytes, whole pages, rows, its schema), then `report`,
`replay` and `run` on it. Each gives one line and exit code 2, or a correct answer;
never a traceback, a hang past 10 s, or a write into a file that failed its checks."""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lab_files import PAGE, TimedOut, call, copy_of, execute, make_results, run_argv

from tactical.lab.store import SCHEMA, Store

COLUMNS = {
    "runs": ("key", "title", "map_text", "rules", "side_a", "player_2", "terrain", "seed", "games"),
    "variants": ("run_id", "variant", "label", "options"),
    "games": (
        "run_id", "variant", "number", "seed", "terrain_seed", "seat", "winner", "reason",
        "turns", "steps", "side_b", "ai_a", "score_a", "losses_b", "damage_a", "units_lost_b",
        "damage_by_turn", "seconds", "code_version",
    ),
    "units": ("game_id", "unit_id", "unit_class", "side", "lost"),
}  # fmt: skip
VALUES = st.one_of(
    st.none(),
    st.integers(-(2**63), 2**63 - 1),
    st.integers(-3, 12),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.binary(max_size=8),
    st.sampled_from(
        [
            "[[1, 2], [3]]",
            "[[0.1], [0.2]]",
            "[" * 3000 + "]" * 3000,
            '{"turn_limit": 1}',
            "Federation",
            "Klingon",
            "Romulan",
            "greedy",
            "random",
            "map",
            "\x1b[31mred",
        ]
    ),
)
FOREVER = (
    "WITH RECURSIVE forever(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM forever) "
    "SELECT 1 AS run_id, 0 AS variant, 'x' AS label, '{}' AS options FROM forever WHERE n < 0"
)
GAMES_WITHOUT_UNIQUE = next(s for s in SCHEMA.split(";") if "CREATE TABLE games" in s).replace(
    ",\n    UNIQUE (run_id, variant, number)", ""
)
SCHEMA_CHANGES = (
    ("CREATE TABLE log (x)", "CREATE TRIGGER t AFTER INSERT ON games BEGIN "
     "INSERT INTO log VALUES (new.id); END"),
    ("CREATE VIEW extra AS SELECT * FROM games",),
    ("ALTER TABLE variants RENAME TO stored", f"CREATE VIEW variants AS {FOREVER}"),
    ("CREATE INDEX by_turns ON games (turns)",),
    ("ALTER TABLE games ADD COLUMN extra TEXT",),
    ("DROP TABLE units",),
    ("ALTER TABLE games RENAME TO stored", GAMES_WITHOUT_UNIQUE,
     "INSERT INTO games SELECT * FROM stored", "DROP TABLE stored"),
    ("PRAGMA user_version = 0",),
    ("PRAGMA user_version = 2",),
    ("PRAGMA application_id = 5",),
    ("PRAGMA journal_mode = WAL",),
)  # fmt: skip

MUTATIONS = st.one_of(
    st.tuples(
        st.just("bytes"),
        st.lists(st.tuples(st.integers(0, 2**20), st.integers(0, 255)), min_size=1, max_size=6),
    ),
    st.tuples(st.just("page"), st.integers(0, 64), st.sampled_from([b"\x00", b"\xff", b"\x0a"])),
    st.tuples(
        st.just("row"),
        st.sampled_from(sorted(COLUMNS)).flatmap(
            lambda table: st.tuples(st.just(table), st.sampled_from(COLUMNS[table]))
        ),
        st.integers(1, 8),
        VALUES,
    ),
    st.tuples(st.just("delete"), st.sampled_from(sorted(COLUMNS)), st.integers(1, 8)),
    st.tuples(st.just("schema"), st.sampled_from(SCHEMA_CHANGES)),
)


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    return make_results(tmp_path_factory.mktemp("lab"))


def mutate(db: Path, mutation: tuple) -> None:
    kind = mutation[0]
    size = db.stat().st_size
    if kind == "bytes":
        with open(db, "r+b") as stream:
            for offset, value in mutation[1]:
                stream.seek(offset % size)
                stream.write(bytes([value]))
    elif kind == "page":
        _, page, fill = mutation
        start = (page % (size // PAGE)) * PAGE
        with open(db, "r+b") as stream:
            stream.seek(start + (100 if start == 0 else 0))  # page 1: keep the file header
            stream.write(fill * (PAGE - (100 if start == 0 else 0)))
    with contextlib.suppress(sqlite3.Error, UnicodeDecodeError):  # a damaged schema
        if kind == "row":
            _, (table, column), rowid, value = mutation
            connection = sqlite3.connect(db, isolation_level=None)
            try:
                connection.execute(
                    f"UPDATE {table} SET {column} = ? WHERE rowid = ?", (value, rowid)
                )
            finally:
                connection.close()
        elif kind == "delete":
            execute(db, f"DELETE FROM {mutation[1]} WHERE rowid = {mutation[2]}")
        elif kind == "schema":
            execute(db, *mutation[1])


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _stored_games(db: Path) -> int | None:
    try:
        with contextlib.closing(sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)) as c:
            return c.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    except sqlite3.Error:
        return None


def _answered(argv: list, db: Path) -> tuple[int, str]:
    try:
        code, out, err = call(argv, seconds=10)
    except TimedOut:
        pytest.fail(f"a hang past 10 s: {argv[1]} on a mutated file")
    assert code in (0, 2), (argv[1], code, err)
    if code == 2:
        assert err.startswith("tactical: ") and err.count("\n") == 1, (argv[1], err)
    return code, out


@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(mutations=st.lists(MUTATIONS, min_size=1, max_size=3))
def test_a_mutated_results_file_is_refused_in_one_line_or_answered_rightly(base, mutations):
    with tempfile.TemporaryDirectory() as folder:
        db = copy_of(base, Path(folder))
        for mutation in mutations:
            mutate(db, mutation)
        before = _digest(db)

        code, out = _answered(["lab", "report", db, "--json"], db)
        assert _digest(db) == before, "report wrote into the file"
        if code == 0:
            assert json.loads(out)["games"] == _stored_games(db), "a miscount"

        save = Path(folder) / "game.json"
        code, _ = _answered(["lab", "replay", db, 1, "-o", save], db)
        assert _digest(db) == before, "replay wrote into the file"
        assert (code == 0) == save.exists()

        code, out = _answered(run_argv(db), db)
        if code == 2:
            assert _digest(db) == before, "run wrote into a file it refused"
        else:
            assert "4 of 4 games done" in out
            with Store.read(db) as store:  # what it wrote passes every check
                assert store.count() >= 4
