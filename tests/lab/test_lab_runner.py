"""Lab runs: every game stored once, resumed after a stop, a killed worker replaced."""

from __future__ import annotations

import os
import signal
import sqlite3

import pytest
from lab_scripted_games import KILL_MARKER_ENV, failing_game, killing_game, scripted_game, slow_game

from tactical.errors import UserError
from tactical.lab.plan import game_seed, terrain_seed
from tactical.lab.pool import GameFailed, LocalPool
from tactical.lab.report import build_report
from tactical.lab.runner import run_games
from tactical.lab.store import Store

START = "fork"  # the tests' workers fork (quick); the product spawns


def _games(path):
    with sqlite3.connect(path) as connection:
        return connection.execute(
            "SELECT variant, number, seed, seat, winner, turns FROM games ORDER BY variant, number"
        ).fetchall()


def _expected(spec):
    return sorted(
        (t.variant, t.number, t.seed, t.seat, *_winner_turns(spec, t)) for t in spec.tasks()
    )


def _winner_turns(spec, task):
    result = scripted_game(spec, task)
    return result.winner, result.turns


def test_each_game_has_a_seed_of_the_run_seed_and_its_number(make_spec):
    spec = make_spec(games=4, terrain="random")
    tasks = list(spec.tasks())
    assert [(t.variant, t.number, t.seat) for t in tasks] == [
        (0, 0, 0),
        (1, 0, 0),
        (0, 1, 1),
        (1, 1, 1),
        (0, 2, 0),
        (1, 2, 0),
        (0, 3, 1),
        (1, 3, 1),
    ]
    assert tasks[0].seed == tasks[1].seed == game_seed(11, 0)
    assert len({t.seed for t in tasks}) == 4
    # the two seats of a pair share one random table
    assert tasks[0].terrain_seed == tasks[2].terrain_seed == terrain_seed(11, 1)
    assert tasks[4].terrain_seed != tasks[0].terrain_seed
    assert make_spec(games=4).task(0, 0).terrain_seed is None
    assert spec.players_by_side(0) == {"Mars": "greedy", "Ares": "greedy"}


def test_a_run_stores_every_game_once(tmp_path, make_spec):
    spec = make_spec(games=10)
    db = tmp_path / "results.sqlite"
    with Store.open(db) as store:
        outcome = run_games(spec, store, LocalPool(2, scripted_game, START), 2, False)
    assert (outcome.asked, outcome.already, outcome.played) == (20, 0, 20)
    assert not outcome.interrupted
    assert sorted(_games(db)) == _expected(spec)


def test_a_finished_run_and_its_report_leave_only_the_results_file(tmp_path, make_spec):
    """WAL while writing, a rollback journal after: a read-only report leaves no -wal/-shm."""
    db = tmp_path / "results.sqlite"
    with Store.open(db) as store:
        run_games(make_spec(games=2), store, LocalPool(1, scripted_game, START), 1, False)
        assert store.connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with Store.read(db) as store:
        assert build_report(store)["games"] == 4
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.sqlite"]


def test_an_interrupted_run_resumes_with_no_game_lost_or_counted_twice(tmp_path, make_spec):
    spec = make_spec(games=15)
    db = tmp_path / "results.sqlite"
    seen = []

    def stop_after_seven(result):
        seen.append(result)
        if len(seen) == 7:
            raise KeyboardInterrupt

    with Store.open(db) as store:
        first = run_games(
            spec, store, LocalPool(2, scripted_game, START), 2, False, on_result=stop_after_seven
        )
    assert first.interrupted and first.played == 7
    assert len(_games(db)) == 7
    with Store.open(db) as store:
        second = run_games(spec, store, LocalPool(2, scripted_game, START), 2, False)
    assert (second.already, second.played, second.interrupted) == (7, 23, False)
    assert sorted(_games(db)) == _expected(spec)
    # and once more: nothing left to play, nothing added
    with Store.open(db) as store:
        third = run_games(spec, store, LocalPool(2, scripted_game, START), 2, False)
    assert (third.already, third.played) == (30, 0)
    assert len(_games(db)) == 30


def test_a_larger_games_count_extends_the_run_and_another_seed_adds_a_run(tmp_path, make_spec):
    db = tmp_path / "results.sqlite"
    with Store.open(db) as store:
        run_games(make_spec(games=4), store, LocalPool(1, scripted_game, START), 1, False)
        more = run_games(make_spec(games=6), store, LocalPool(1, scripted_game, START), 1, False)
        other = run_games(
            make_spec(games=2, seed=12), store, LocalPool(1, scripted_game, START), 1, False
        )
        assert (more.run_id, more.already, more.played) == (1, 8, 4)
        assert (other.run_id, other.played) == (2, 4)
        assert store.count() == 16
    # the report adds up the runs of the same variant
    with Store.read(db) as store:
        (scenario,) = build_report(store)["scenarios"]
    assert [v["games"] for v in scenario["variants"]] == [8, 8]


def test_a_killed_worker_costs_no_game(tmp_path, make_spec, monkeypatch):
    """A worker process dies mid-chunk: another starts, its unfinished games are played."""
    marker = tmp_path / "killed"
    monkeypatch.setenv(KILL_MARKER_ENV, str(marker))
    spec = make_spec(games=12)
    db = tmp_path / "results.sqlite"
    pool = LocalPool(2, killing_game, START)
    with Store.open(db) as store:
        outcome = run_games(spec, store, pool, 2, False)
    assert marker.exists(), "the worker was not killed"
    assert pool.deaths == 1
    assert outcome.played == 24 and not outcome.interrupted
    assert sorted(_games(db)) == _expected(spec)


def test_a_worker_killed_from_outside_mid_run_costs_no_game(tmp_path, make_spec):
    """SIGKILL to a worker process while it plays: the run completes, no game lost or doubled."""
    spec = make_spec(games=20)
    db = tmp_path / "results.sqlite"
    pool = LocalPool(2, slow_game, START)
    killed = []

    def kill_one(result):
        if len(killed) == 0 and pool.pids:
            killed.append(pool.pids[0])
            os.kill(killed[0], signal.SIGKILL)

    with Store.open(db) as store:
        outcome = run_games(spec, store, pool, 2, False, on_result=kill_one)
    assert killed and pool.deaths == 1
    assert outcome.played == 40 and not outcome.interrupted
    assert sorted(_games(db)) == _expected(spec)


def test_a_game_that_raises_stops_the_run_naming_it_and_keeps_the_rest(tmp_path, make_spec):
    spec = make_spec(games=6, against=())
    db = tmp_path / "results.sqlite"
    with Store.open(db) as store, pytest.raises(GameFailed, match="game 3 of variant 0"):
        run_games(spec, store, LocalPool(1, failing_game, START), 1, False)
    assert [row[1] for row in _games(db)] == [0, 1, 2]


def test_a_foreign_sqlite_file_is_refused_and_left_untouched(tmp_path):
    db = tmp_path / "other.sqlite"
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    before = db.read_bytes()
    with pytest.raises(UserError, match="made by another program"):
        Store.open(db)
    assert db.read_bytes() == before


def test_a_file_that_is_not_sqlite_is_refused_and_left_untouched(tmp_path):
    db = tmp_path / "notes.sqlite"
    db.write_text("shopping list: eggs, flour, milk, and a great deal more text " * 4)
    before = db.read_bytes()
    with pytest.raises(UserError, match="not an SQLite database"):
        Store.open(db)
    assert db.read_bytes() == before


def test_a_locked_file_is_refused_with_nothing_written(tmp_path, make_spec, monkeypatch):
    db = tmp_path / "results.sqlite"
    with Store.open(db) as store:
        run_games(make_spec(games=1), store, LocalPool(1, scripted_game, START), 1, False)
    monkeypatch.setattr("tactical.lab.store.BUSY_SECONDS", 0.05)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(UserError, match="locked by another program"):
            Store.open(db)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert len(_games(db)) == 2


def test_two_runs_never_write_into_one_file_at_once(tmp_path):
    db = tmp_path / "results.sqlite"
    with Store.open(db), pytest.raises(UserError, match="another lab run"):
        Store.open(db)


def test_a_missing_folder_is_refused_before_anything_is_made(tmp_path):
    with pytest.raises(UserError, match="does not exist"):
        Store.open(tmp_path / "nowhere" / "results.sqlite")
    assert not (tmp_path / "nowhere").exists()
