"""`tactical lab run|replay`: real AI games end to end, and every bad input refused (exit 2,
nothing written)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

import tactical.cli as cli
from tactical.io import builtin_map
from tactical.session.saving import load_game

DUEL = str(builtin_map("heavy-combat"))  # two ships: the quickest AI games of the five maps


def _rows(db):
    with sqlite3.connect(db) as connection:
        return connection.execute(
            "SELECT variant, number, seed, seat, winner, turns, steps FROM games ORDER BY id"
        ).fetchall()


def _refused(capsys, argv, words):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("tactical: ") and err.count("\n") == 1, err
    assert words in err, err
    return err


@pytest.mark.parametrize(
    ("flags", "words"),
    [
        (["--set", "speed=3"], "heavy-combat has no option 'speed'"),
        (["--against", "turn_limit=0"], "option turn_limit expects a whole number from 1 to 99"),
        (["--against", "turn_limit=six"], "option turn_limit expects a whole number"),
        (["--against", "turn_limit"], "expected KEY=VALUE"),
        (["--against", "turn_limit=6"], "the same options as the first variant"),
        (["--ai", "clever"], "unknown level 'clever'"),
        (["--games", "0"], "--games 0: expected a whole number from 1"),
        (["--workers", "0"], "--workers 0: expected a whole number from 1 to"),
        (["--ray", "127.0.0.1:1"], "cannot reach a Ray cluster there"),
        (["--ray", "nowhere"], "expected 'auto' or a cluster address"),
    ],
)
def test_bad_run_input_is_one_line_exit_2_and_writes_nothing(tmp_path, capsys, flags, words):
    pytest.importorskip("ray") if "--ray" in flags else None
    db = tmp_path / "results.sqlite"
    _refused(capsys, ["lab", "run", DUEL, "--db", str(db), "--quiet", *flags], words)
    assert list(tmp_path.iterdir()) == []


def test_ray_without_the_cluster_extra_says_how_to_install_it(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails as when not installed
    db = tmp_path / "results.sqlite"
    err = _refused(capsys, ["lab", "run", DUEL, "--db", str(db), "--ray", "auto"], "--ray: ")
    assert 'Ray is not installed: pip install -e ".[cluster]"' in err, err
    assert list(tmp_path.iterdir()) == []


def test_a_map_that_is_not_two_sided_is_refused(tmp_path, capsys):
    one_side = tmp_path / "alone.toml"
    text = builtin_map("heavy-combat").read_text(encoding="utf-8")
    one_side.write_text(text.replace('side = "Klingon"', 'side = "Federation"'), encoding="utf-8")
    db = tmp_path / "results.sqlite"
    _refused(capsys, ["lab", "run", str(one_side), "--db", str(db)], "two sides")
    assert not db.exists()


def test_a_foreign_or_locked_results_file_is_refused_untouched(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("tactical.lab.store.BUSY_SECONDS", 0.1)
    foreign = tmp_path / "notes.sqlite"
    with sqlite3.connect(foreign) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    before = foreign.read_bytes()
    _refused(capsys, ["lab", "run", DUEL, "--db", str(foreign)], "made by another program")
    assert foreign.read_bytes() == before

    ours = tmp_path / "results.sqlite"
    assert cli.main(["lab", "run", DUEL, "--games", "1", "--db", str(ours), "--quiet"]) == 0
    capsys.readouterr()
    holder = sqlite3.connect(ours, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        _refused(capsys, ["lab", "run", DUEL, "--games", "3", "--db", str(ours)], "locked")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert len(_rows(ours)) == 1


def test_run_then_replay_a_game_into_a_save_that_plays_it_again(tmp_path, capsys):
    db = tmp_path / "results.sqlite"
    argv = ["lab", "run", DUEL, "--games", "2", "--against", "turn_limit=2", "--workers", "2"]
    assert cli.main([*argv, "--terrain", "random", "--db", str(db), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "4 of 4 games done" in out
    rows = _rows(db)
    assert sorted((r[0], r[1], r[3]) for r in rows) == [(0, 0, 0), (0, 1, 1), (1, 0, 0), (1, 1, 1)]
    assert {r[5] for r in rows if r[0] == 1} == {2}  # the variant's turn limit was played
    save = tmp_path / "game.json"
    game_id = next(i for i, r in enumerate(rows, start=1) if r[0] == 1 and r[1] == 1)
    assert cli.main(["lab", "replay", str(db), str(game_id), "-o", str(save)]) == 0
    assert "written" in capsys.readouterr().out
    history = load_game(save)
    game = history.game
    assert game.initial.options["turn_limit"] == 2
    assert game.initial.terrain, "the random table is part of the save"
    assert game.outcome is not None and game.outcome.turn == 2
    assert len(game.steps) == rows[game_id - 1][6]
    # a stored game that no longer plays the same (other code) is refused, nothing written
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE games SET steps = steps + 1 WHERE id = ?", (game_id,))
    other = tmp_path / "other.json"
    _refused(capsys, ["lab", "replay", str(db), str(game_id), "-o", str(other)], "differently")
    assert not other.exists()
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE games SET steps = steps - 1 WHERE id = ?", (game_id,))
    # the same command again: nothing left to play
    assert cli.main([*argv, "--terrain", "random", "--db", str(db), "--quiet"]) == 0
    assert "4 of 4 games done (0 played now" in capsys.readouterr().out
    assert len(_rows(db)) == 4


def test_ctrl_c_stops_the_run_cleanly_and_it_resumes(tmp_path):
    """SIGINT to the whole process group, as a terminal's Ctrl+C sends it: exit 130, the
    games finished are kept, no traceback; the same command then plays only the rest.
    The run starts with Ctrl+C's default handling, as from a terminal: a suite started in
    the background of a script ignores SIGINT, and a child would inherit that."""
    db = tmp_path / "results.sqlite"
    command = [
        sys.executable, "-m", "tactical", "lab", "run", DUEL, "--games", "12",
        "--set", "turn_limit=2", "--workers", "2", "--db", str(db), "--quiet",
    ]  # fmt: skip
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_default_ctrl_c,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if db.exists() and _count(db) >= 2:
            break
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "Traceback" not in err
    assert "run the same command again to resume" in err
    stopped = _count(db)
    assert 2 <= stopped < 12
    again = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    assert f"12 of 12 games done ({12 - stopped} played now" in again.stdout
    rows = _rows(db)
    assert sorted(r[1] for r in rows) == list(range(12))


def _default_ctrl_c():
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _count(db):
    try:
        with sqlite3.connect(db) as connection:
            return connection.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_a_game_that_cannot_end_or_is_over_at_the_start_is_refused(tmp_path, capsys, monkeypatch):
    """The lab needs games with a result (`RuleSystem.outcome`): a rule system without
    one, or a map whose game is over before the first action, is refused up front."""
    from tactical.rules import registry
    from tactical.rules.ending import Outcome

    system_class = type(registry.get("heavy-combat"))
    db = tmp_path / "results.sqlite"
    monkeypatch.setattr(system_class, "outcome", None)
    _refused(capsys, ["lab", "run", DUEL, "--db", str(db)], "no rule for how a game ends")
    over = Outcome("Federation", (("Federation", 1.0), ("Klingon", 0.0)), "conceded", "X", 1)
    monkeypatch.setattr(system_class, "outcome", lambda self, state, start, turn: over)
    _refused(capsys, ["lab", "run", DUEL, "--db", str(db)], "over before it starts")
    assert not db.exists()
