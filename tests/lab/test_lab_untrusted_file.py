"""A results file is input, not a trusted store: `report`, `replay` and `run` refuse a
damaged, changed or crafted file in one line naming the table and row (exit 2), run
nothing it holds, write nothing into it, and every output path is checked first."""

from __future__ import annotations

import os
import signal
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from lab_files import (
    DUEL,
    PAGE,
    call,
    copy_of,
    execute,
    make_results,
    patch_bytes,
    root_page,
    run_argv,
)
from lab_scripted_games import SerialPool, scripted_game

from tactical.errors import UserError
from tactical.lab.report import build_report
from tactical.lab.runner import run_games
from tactical.lab.specs import build_spec
from tactical.lab.store import SCHEMA, Store


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    return make_results(tmp_path_factory.mktemp("lab"))


def refused(result, *words):
    code, _, err = result
    assert code == 2, err
    assert err.startswith("tactical: ") and err.count("\n") == 1, err
    for word in words:
        assert word in err, err
    return err


def _games(db):
    with sqlite3.connect(db) as connection:
        return connection.execute("SELECT COUNT(*) FROM games").fetchone()[0]


def _without_unique(db):
    games = next(s for s in SCHEMA.split(";") if "CREATE TABLE games" in s)
    loose = games.replace(",\n    UNIQUE (run_id, variant, number)", "")
    assert loose != games
    execute(
        db,
        "ALTER TABLE games RENAME TO stored",
        loose,
        "INSERT INTO games SELECT * FROM stored",
        "DROP TABLE stored",
        "INSERT INTO games SELECT NULL, run_id, variant, number, seed, terrain_seed, seat, "
        "winner, reason, spec_id, turns, steps, side_a, side_b, ai_a, ai_b, score_a, score_b, "
        "losses_a, losses_b, damage_a, damage_b, units_lost_a, units_lost_b, damage_by_turn, "
        "seconds, code_version FROM games WHERE id = 1",
    )


DAMAGES = {
    "a zeroed page": (
        lambda db: patch_bytes(db, (root_page(db, "games") - 1) * PAGE, bytes(PAGE)),
        "the file is damaged",
    ),
    "a changed b-tree header": (
        lambda db: patch_bytes(db, (root_page(db, "games") - 1) * PAGE, b"\x0a"),
        "the file is damaged",
    ),
    "bad JSON in a column": (
        lambda db: execute(db, "UPDATE games SET damage_by_turn = '[[1, 2' WHERE id = 2"),
        "table games, row 2: damage_by_turn",
    ),
    "JSON nested 3,000 deep": (
        lambda db: execute(
            db, f"UPDATE games SET damage_by_turn = '{'[' * 3000}{']' * 3000}' WHERE id = 3"
        ),
        "table games, row 3: damage_by_turn",
    ),
    "a dropped UNIQUE constraint": (_without_unique, "table games"),
    "the variants gone": (
        lambda db: execute(db, "DELETE FROM variants"),
        "table runs, row 1: its variants are missing",
    ),
    "a winner who is no side": (
        lambda db: execute(db, "UPDATE games SET winner = 'Romulan' WHERE id = 2"),
        "table games, row 2: winner is 'Romulan'",
    ),
    "a word where a number belongs": (
        lambda db: execute(db, "UPDATE games SET turns = 'many' WHERE id = 4"),
        "table games, row 4: turns is 'many'",
    ),
    "a unit of no game": (
        lambda db: execute(db, "UPDATE units SET game_id = 99 WHERE rowid = 3"),
        "table units, row 3: its game 99 is not stored",
    ),
    "a changed run seed": (
        lambda db: execute(db, "UPDATE runs SET seed = 5"),
        "table runs, row 1: its key",
    ),
    "a newer schema": (
        lambda db: execute(db, "PRAGMA user_version = 7"),
        "made by a newer version",
    ),
}


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_damaged_or_changed_file_is_refused_by_report_replay_and_run(base, tmp_path, damage):
    change, words = DAMAGES[damage]
    db = copy_of(base, tmp_path)
    change(db)
    before = db.read_bytes()
    output = tmp_path / "game.json"
    for argv in (
        ["lab", "report", db],
        ["lab", "report", db, "--json"],
        ["lab", "replay", db, 1, "-o", output],
        run_argv(db),
    ):
        refused(call(argv), words)
        assert db.read_bytes() == before, argv
    assert not output.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.sqlite"]


def test_a_trigger_of_the_file_never_runs(base, tmp_path):
    """A trigger ran its SQL on every game stored: the file is refused before any write."""
    db = copy_of(base, tmp_path)
    execute(
        db,
        "DELETE FROM units WHERE game_id = 4",
        "DELETE FROM games WHERE id = 4",  # so that `run` has a game to store
        "CREATE TABLE spied (game INTEGER)",
        "CREATE TRIGGER spy AFTER INSERT ON games BEGIN INSERT INTO spied VALUES (new.id); END",
    )
    before = db.read_bytes()
    for argv in (["lab", "report", db], ["lab", "replay", db, 1, "-o", tmp_path / "g.json"]):
        refused(call(argv), "trigger 'spy'")
    refused(call(run_argv(db)), "trigger 'spy'")
    assert db.read_bytes() == before
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT COUNT(*) FROM spied").fetchone()[0] == 0


def test_a_view_that_never_ends_is_refused_at_once(base, tmp_path):
    """A view that never ends hung every command for good (in SQLite's own loop, where no
    Python signal reaches: each command runs in a process of its own here)."""
    db = copy_of(base, tmp_path)
    execute(
        db,
        "ALTER TABLE variants RENAME TO stored",
        "CREATE VIEW variants AS WITH RECURSIVE forever(n) AS (SELECT 1 UNION ALL "
        "SELECT n + 1 FROM forever) SELECT 1 AS run_id, 0 AS variant, 'x' AS label, "
        "'{}' AS options FROM forever WHERE n < 0",
    )
    for argv in (["lab", "report", db], ["lab", "replay", db, "1"], run_argv(db)):
        command = [sys.executable, "-m", "tactical", *map(str, argv)]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=30)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{argv[1]} hung on a view that never ends")
        refused((done.returncode, done.stdout, done.stderr), "view 'variants'")


def test_every_query_has_a_time_limit(base, tmp_path, monkeypatch):
    monkeypatch.setattr("tactical.lab.store.QUERY_SECONDS", 0.3)
    started = time.monotonic()
    with Store.read(base) as store, pytest.raises(UserError, match=r"ran past 0\.3 s"):
        store.query(
            "WITH RECURSIVE forever(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM forever) "
            "SELECT n FROM forever WHERE n < 0"
        )
    assert time.monotonic() - started < 3


def test_two_maps_with_one_title_are_two_scenarios(tmp_path):
    """A scenario is its map's content (a digest), not its title."""
    text = Path(DUEL).read_text(encoding="utf-8")
    first, second = tmp_path / "duel.toml", tmp_path / "duel-b.toml"
    first.write_text(text, encoding="utf-8")
    second.write_text(text + "\n# the same title, another table\n", encoding="utf-8")
    db = tmp_path / "results.sqlite"
    with Store.open(db) as store:
        for path in (first, second):
            spec = build_spec(path, 6, ("greedy", "greedy"))
            run_games(spec, store, SerialPool(1, scripted_game), 1, False)
    with Store.read(db) as store:
        report = build_report(store)
    assert report["games"] == 12
    one, two = report["scenarios"]
    assert one["title"] == two["title"]
    assert [one["variants"][0]["games"], two["variants"][0]["games"]] == [6, 6]
    assert one["map_digest"] != two["map_digest"]
    assert one["heading"] != two["heading"]
    assert "duel-b.toml" in two["heading"]


def test_a_half_made_file_of_the_lab_is_made_again(tmp_path):
    """A run that stopped while creating the file (an older version made the tables one by
    one, then marked the file) left tables and no mark: refused forever as another
    program's. Such a file is recognised and made again."""
    db = tmp_path / "results.sqlite"
    runs = next(s for s in SCHEMA.split(";") if "CREATE TABLE runs" in s)
    execute(db, runs)
    code, out, err = call(run_argv(db))
    assert code == 0, err
    assert "4 of 4 games done (4 played now" in out
    assert _games(db) == 4


def test_a_full_disk_while_creating_is_one_line_and_the_next_run_starts_afresh(
    tmp_path, monkeypatch
):
    real_connect = Store._connect

    def small_disk(path, read_only):
        connection = real_connect(path, read_only)
        connection.execute("PRAGMA max_page_count = 4")  # the schema needs 9 pages
        return connection

    db = tmp_path / "results.sqlite"
    monkeypatch.setattr(Store, "_connect", staticmethod(small_disk))
    refused(call(run_argv(db)), "cannot create the results file", "full")
    assert not db.exists() or db.stat().st_size == 0
    monkeypatch.setattr(Store, "_connect", staticmethod(real_connect))
    code, _, err = call(run_argv(db))
    assert code == 0, err
    assert _games(db) == 4


def test_a_game_number_sqlite_cannot_hold_is_no_game(base):
    err = refused(call(["lab", "replay", base, "99999999999999999999"]), "no game")
    assert "99999999999999999999" in err
    refused(call(["lab", "replay", base, "-5"]), "no game -5")


def test_report_html_to_a_folder_name_is_one_line(base, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    refused(call(["lab", "report", base, "--html", "/"]), "expected a file name")
    (tmp_path / "page.html").mkdir()
    refused(call(["lab", "report", base, "--html", "page.html", "--force"]), "a directory")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["page.html"]


def test_no_plot_is_left_behind_when_the_page_cannot_be_written(base, tmp_path, monkeypatch):
    import tactical.lab.files as files

    real = files.write_bytes_atomic

    def failing(path, data):
        if str(path).endswith(".html"):
            raise UserError(f"{path}: cannot write: No space left on device")
        return real(path, data)

    monkeypatch.setattr(files, "write_bytes_atomic", failing)
    refused(call(["lab", "report", base, "--html", tmp_path / "page.html"]), "No space left")
    assert list(tmp_path.iterdir()) == []


def test_force_writes_through_a_link_and_keeps_the_permissions(base, tmp_path):
    for name, argv in (
        ("page.html", ["lab", "report", base, "--force", "--html"]),
        ("game.json", ["lab", "replay", base, "1", "--force", "-o"]),
    ):
        real = tmp_path / f"real-{name}"
        real.write_text("old")
        os.chmod(real, 0o640)
        link = tmp_path / name
        link.symlink_to(real.name)
        code, _, err = call([*argv, link])
        assert code == 0, err
        assert link.is_symlink() and os.readlink(link) == real.name
        assert real.read_text() != "old"
        assert stat.S_IMODE(real.stat().st_mode) == 0o640


def test_workers_have_an_upper_bound(base, tmp_path):
    most = (os.cpu_count() or 1) * 2
    db = tmp_path / "results.sqlite"
    argv = ["lab", "run", DUEL, "--games", "1", "--quiet", "--db", db, "--workers"]
    refused(call([*argv, most + 1]), f"expected a whole number from 1 to {most}")
    refused(call([*argv, 10**30]), "cores")
    assert list(tmp_path.iterdir()) == []


def test_an_output_path_of_5000_characters_is_one_line(base, tmp_path):
    long = tmp_path / ("a" * 5000)
    deep = tmp_path.joinpath(*["b"] * 2500)
    for path in (long, deep):
        refused(call(["lab", "run", DUEL, "--games", "1", "--quiet", "--db", path]), "")
        refused(call(["lab", "report", base, "--html", path]), "")
        refused(call(["lab", "replay", base, "1", "-o", path]), "")
        refused(call(["lab", "report", path]), "")
        refused(call(["lab", "replay", path, "1"]), "")
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------- start-up


def _start(db):
    command = [
        sys.executable, "-m", "tactical", "lab", "run", DUEL, "--games", "8",
        "--set", "turn_limit=2", "--workers", "2", "--db", str(db), "--quiet",
    ]  # fmt: skip
    return subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def _workers(pid):
    """The process's children that are lab workers (spawned interpreters), starting or not."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as stream:
            children = stream.read().split()
    except OSError:
        return []
    found = []
    for child in children:
        try:
            with open(f"/proc/{child}/cmdline", "rb") as stream:
                if b"spawn_main" in stream.read():
                    found.append(child)
        except OSError:
            continue
    return found


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="reads /proc")
def test_ctrl_c_during_the_start_up_ends_quietly_with_the_one_message(tmp_path):
    """Ctrl+C reaches the whole process group: a worker still starting (importing) printed
    its traceback, and a stop before the first game ended with no word at all."""
    # as soon as the first worker exists, while it starts (imports)
    process = _start(tmp_path / "a.sqlite")
    deadline = time.monotonic() + 60
    while not _workers(process.pid) and time.monotonic() < deadline:
        time.sleep(0.002)
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert err.count("\n") == 1 and "run the same command again to resume" in err, err
    # before the store is even opened; and SIGTERM the same way
    for sig in (signal.SIGINT, signal.SIGTERM):
        process = _start(tmp_path / f"{sig}.sqlite")
        time.sleep(0.05)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not _lab_loaded(process.pid):
            time.sleep(0.01)
        os.killpg(process.pid, sig)
        _, err = process.communicate(timeout=60)
        assert process.returncode == 130, err
        assert "Traceback" not in err, err
        assert (
            err == "stopped: every finished game is stored; run the same command again to resume\n"
        )


def _lab_loaded(pid):
    """Whether the process has begun the lab's own work (it has the map open, or
    has read it: its command line modules are loaded once it maps sqlite)."""
    try:
        with open(f"/proc/{pid}/maps") as stream:
            return "_sqlite3" in stream.read()
    except OSError:
        return False


def test_a_map_with_a_table_option_is_stored_checked_and_read_back(tmp_path):
    """Cortex's `structures` option is a table: a variant's options as JSON raised
    TypeError (FrozenMap) before a game was played; stored, they pass the checks."""
    from tactical.io import builtin_map
    from tactical.lab.games import stored_game

    spec = build_spec(builtin_map("cortex-space"), 2, ("greedy", "random"))
    db = tmp_path / "results.sqlite"
    with Store.open(db) as store:
        run_games(spec, store, SerialPool(1, scripted_game), 1, False)
    with Store.read(db) as store:
        assert build_report(store)["games"] == 2
        stored = stored_game(store, 1)
    assert stored.spec.key == spec.key
    assert stored.spec.variants[0].options_json == spec.variants[0].options_json


def test_a_pipe_is_neither_a_map_nor_a_results_file(base, tmp_path):
    """A map is read only from a regular file of sensible size: a FIFO blocked forever
    (and /dev/zero read until memory ran out)."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    db = tmp_path / "results.sqlite"
    refused(call(["lab", "run", pipe, "--quiet", "--db", db]), "a device, a pipe or a socket")
    refused(call(["lab", "report", pipe]), "not a results file")
    refused(call(["lab", "run", DUEL, "--quiet", "--db", pipe]), "not a regular file")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]
