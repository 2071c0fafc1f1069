"""A small real results file for the tests of damaged, changed and crafted files, and
the ways to damage, change and craft one."""

from __future__ import annotations

import contextlib
import faulthandler
import io
import shutil
import signal
import sqlite3
from pathlib import Path

import pytest
from lab_scripted_games import SerialPool

import tactical.cli as cli
from tactical.io import builtin_map

DUEL = str(builtin_map("heavy-combat"))
GAMES = 4
PAGE = 4096


def run_argv(db) -> list[str]:
    """The run that made the file: run again, it plays nothing (or what is missing)."""
    return [
        "lab", "run", DUEL, "--games", str(GAMES), "--set", "turn_limit=1",
        "--workers", "1", "--quiet", "--db", str(db),
    ]  # fmt: skip


class TimedOut(Exception):
    pass


def call(argv, seconds=10):
    """`tactical ARGV` in this process with the serial backend: (exit code, out, err).
    Longer than `seconds` raises TimedOut (a hang)."""

    def alarm(signum, frame):
        raise TimedOut(" ".join(map(str, argv)))

    out, err = io.StringIO(), io.StringIO()
    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    # a loop inside C code (SQLite's) never sees the alarm: the last resort ends the
    # suite with every thread's stack rather than hang it for good
    faulthandler.dump_traceback_later(seconds + 60, exit=True)
    try:
        with (
            pytest.MonkeyPatch.context() as patch,
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
        ):
            patch.setattr("tactical.lab.pool.LocalPool", SerialPool)
            code = cli.main([str(a) for a in argv])
    finally:
        faulthandler.cancel_dump_traceback_later()
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return code, out.getvalue(), err.getvalue()


def make_results(folder: Path) -> Path:
    db = folder / "base.sqlite"
    code, _, err = call(run_argv(db), seconds=120)
    assert code == 0, err
    return db


def copy_of(base: Path, folder: Path, name: str = "results.sqlite") -> Path:
    target = folder / name
    shutil.copyfile(base, target)
    return target


def execute(db: Path, *statements: str, writable_schema: bool = False) -> None:
    connection = sqlite3.connect(db, isolation_level=None)
    try:
        if writable_schema:
            connection.execute("PRAGMA writable_schema = ON")
        for statement in statements:
            connection.execute(statement)
    finally:
        connection.close()


def root_page(db: Path, table: str) -> int:
    with contextlib.closing(sqlite3.connect(db)) as connection:
        return connection.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)
        ).fetchone()[0]


def patch_bytes(db: Path, offset: int, data: bytes) -> None:
    with open(db, "r+b") as stream:
        stream.seek(offset)
        stream.write(data)
