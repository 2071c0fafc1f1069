"""Safe writes: outputs checked before any write, symlinks followed, modes kept,
non-regular files refused, leftovers of killed writers removed."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tactical.cli import main
from tactical.errors import UserError
from tactical.io.files import output_path, remove_stale_temps, write_text_atomic


def test_a_write_through_a_symlink_replaces_the_file_it_names_and_keeps_the_link(tmp_path):
    real = tmp_path / "real.toml"
    real.write_text("old")
    link = tmp_path / "link.toml"
    link.symlink_to(real)
    write_text_atomic(link, "new")
    assert link.is_symlink() and real.read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.toml", "real.toml"]


def test_a_write_keeps_the_targets_mode_and_a_new_file_gets_the_umask(tmp_path):
    target = tmp_path / "shared.json"
    target.write_text("old")
    target.chmod(0o640)
    write_text_atomic(target, "new")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640 and target.read_text() == "new"
    fresh = tmp_path / "fresh.json"
    write_text_atomic(fresh, "x")
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~umask


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("/dev/full", "not a regular file"),
        (".", "expected a file name"),
        ("folder", "is a directory"),
        ("missing/x.toml", "does not exist"),
        ("x" * 300 + ".toml", "too long"),
    ],
)
def test_what_cannot_be_written_is_refused_before_writing(tmp_path, monkeypatch, name, words):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    before = sorted(os.listdir(tmp_path))
    with pytest.raises(UserError, match=words):
        write_text_atomic(Path(name), "data")
    assert sorted(os.listdir(tmp_path)) == before
    if name == "/dev/full":
        assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_a_leftover_temp_of_a_killed_writer_is_removed_and_a_live_ones_kept(tmp_path):
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    dead_pid = int(dead.stdout)
    target = tmp_path / "game.json"
    leftover = tmp_path / f".game.json.{dead_pid}.k3x_9a.tmp"
    live = tmp_path / f".game.json.{os.getppid()}.a1b2c3.tmp"
    other = tmp_path / ".notes.txt.swp"
    for path in (leftover, live, other):
        path.write_text("half")
    write_text_atomic(target, "whole")
    assert not leftover.exists() and live.exists() and other.exists()
    assert remove_stale_temps(tmp_path) == []


def test_output_path_resolves_a_link_to_its_target(tmp_path):
    real = tmp_path / "a.png"
    (tmp_path / "b.png").symlink_to(real)
    assert output_path(tmp_path / "b.png") == real.resolve()


def test_terrain_checks_every_output_before_writing_any(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code = main(["terrain", "--seed", "1", "-o", "part.toml", "--sheet", "/nonexistent/s.md"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "/nonexistent/s.md" in err
    assert os.listdir(tmp_path) == []
    assert main(["terrain", "--seed", "1", "-o", "part.toml", "--png", "p.jpg"]) == 2
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("command", ["render", "terrain"])
def test_a_file_name_too_long_is_one_line_not_a_traceback(tmp_path, monkeypatch, capsys, command):
    from tactical.io.paths import builtin_map

    monkeypatch.chdir(tmp_path)
    name = "x" * 300 + (".png" if command == "render" else ".toml")
    argv = (
        ["render", str(builtin_map("default")), "-o", name]
        if command == "render"
        else ["terrain", "--seed", "1", "-o", name]
    )
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "too long" in err and "Traceback" not in err
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "/dev/zero"],
        ["replay", "/dev/zero"],
        ["terrain", "--library", "/dev/zero"],
        ["play", "/dev/zero"],
        ["render", "MAP", "-o", "x" * 300 + "/a.png"],
        ["terrain", "-o", "x" * 300 + "/a.toml"],
    ],
)
def test_devices_and_impossible_paths_are_one_line(tmp_path, monkeypatch, capsys, argv):
    """/dev/zero was read until memory ran out; a folder name too long was a traceback."""
    from tactical.io.paths import builtin_map

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    argv = [str(builtin_map("default")) if a == "MAP" else a for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert os.listdir(tmp_path) == []
