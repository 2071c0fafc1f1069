"""`tactical play` and its files: the autosave checked at start, one autosave per
game named by its id (never another game's), --resume on the most recent game, leftovers
of a killed session removed, bad sizes and names as one line."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tactical.cli import main
from tactical.io.paths import builtin_map, default_map_path
from tactical.io.saves import read_save
from tactical.session.controller import Session
from tactical.session.saving import Autosave


@pytest.fixture
def opened(monkeypatch, tmp_path):
    """`tactical play` without a window: the App is built, `run` returns at once."""
    from tactical.ui import app as app_module

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    apps = []
    monkeypatch.setattr(app_module.App, "run", lambda self: apps.append(self) or 0)
    return apps


def _games(tmp_path):
    return sorted((tmp_path / "state" / "tactical" / "autosave").glob("*.json"))


@pytest.mark.parametrize(
    ("where", "words"),
    [("DIR", "is a directory"), ("missing/auto.json", "does not exist"), ("/dev/full", "regular")],
)
def test_an_unusable_autosave_is_refused_at_start(opened, tmp_path, capsys, where, words):
    (tmp_path / "DIR").mkdir()
    target = where if where.startswith("/") else str(tmp_path / where)
    assert main(["play", "--autosave", target]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--autosave" in err and words in err
    assert opened == [] and sorted(os.listdir(tmp_path)) == ["DIR"]


def test_each_game_autosaves_to_its_own_file_and_resume_reopens_the_latest(opened, tmp_path):
    assert main(["play", str(builtin_map("battlefleet-mars")), "--seed", "1"]) == 0
    [first] = _games(tmp_path)
    first_bytes = first.read_bytes()
    session = opened[0].play.session
    assert session.autosave.path == first and first.stem == session.autosave.path.stem
    assert main(["play", str(default_map_path()), "--seed", "2"]) == 0
    games = _games(tmp_path)
    assert len(games) == 2 and first.read_bytes() == first_bytes  # not clobbered
    [second] = [g for g in games if g != first]
    os.utime(first, ns=(1, 1))  # the second game is the most recent
    assert main(["play", "--resume"]) == 0
    resumed = opened[-1].play.session
    assert resumed.game.seed == 2 and resumed.autosave.path == second
    assert _games(tmp_path) == games  # resuming goes on in the game's own file


def test_opening_another_game_in_the_window_never_writes_over_this_ones(tmp_path):
    from tactical.io.maps import load_map

    autosave = Autosave.new_game_in(tmp_path)
    session = Session.new(load_map(builtin_map("battlefleet-mars")), 3, autosave)
    session.pass_go()
    mine = session.autosave.path.read_bytes()
    other = Session.new(load_map(default_map_path()), 4, session.autosave)
    assert other.autosave.path != session.autosave.path
    assert session.autosave.path.read_bytes() == mine
    saved = tmp_path / "elsewhere.json"
    session.save(saved)
    reopened = Session.open(saved, other.autosave)
    reopened.write_autosave()
    assert reopened.autosave.path not in (other.autosave.path, session.autosave.path)
    assert read_save(other.autosave.path).seed == 4


def test_an_explicit_autosave_file_and_a_second_game_next_to_it(tmp_path):
    from tactical.io.maps import load_map

    mine = tmp_path / "mine.json"
    first = Session.new(load_map(default_map_path()), 5, Autosave(mine))
    assert first.autosave.path == mine
    second = Session.new(load_map(default_map_path()), 6, first.autosave)
    assert second.autosave.path.name.startswith("mine-") and read_save(mine).seed == 5


def test_a_leftover_temp_file_of_a_killed_session_is_removed_at_start(opened, tmp_path):
    folder = tmp_path / "state" / "tactical" / "autosave"
    folder.mkdir(parents=True)
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    leftover = folder / f".20260101-000000-abcdef.json.{int(done.stdout)}.x1y2z3.tmp"
    leftover.write_text('{"half')
    assert main(["play", "--seed", "1"]) == 0
    assert not leftover.exists() and len(_games(tmp_path)) == 1


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--size", "99999999999999999999x1"],
        ["play", "--size", "0x0"],
        ["play", "x" * 300 + ".toml"],
        ["play", "--autosave", "x" * 300 + ".json"],
        ["play", "--resume"],
    ],
)
def test_bad_play_arguments_are_one_line(opened, capsys, argv, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and opened == []


def test_resume_with_an_explicit_file_reopens_the_latest_game_next_to_it(opened, tmp_path):
    mine = tmp_path / "mine.json"
    assert main(["play", "--seed", "7", "--autosave", str(mine)]) == 0
    assert main(["play", "--seed", "8", "--autosave", str(mine)]) == 0  # mine.json is kept
    [sibling] = tmp_path.glob("mine-*.json")
    assert read_save(mine).seed == 7 and read_save(sibling).seed == 8
    os.utime(mine, ns=(1, 1))
    assert main(["play", "--resume", "--autosave", str(mine)]) == 0
    assert opened[-1].play.session.game.seed == 8
    assert opened[-1].play.session.autosave.path == sibling
