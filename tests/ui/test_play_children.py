"""A play window's children end with it, however it ends (tactical.processes).

Killed outright (SIGKILL: no code of its own runs), it takes them with it: the odds
process, the computer player's process and the multiprocessing resource tracker are
all gone within seconds. Ctrl+C in a terminal (SIGINT to the whole group, children
too) ends everything quietly: no traceback from a child."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tactical.io import builtin_map

START = 40.0  # seconds for a loaded machine to open the window and start its children
SETTLE = 0.5  # seconds between seeing the children and killing their parent
GONE = 5.0  # seconds the children may take to end once their parent is killed

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="reads processes from /proc"
)


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name, or None once it is gone."""
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _identity(pid: int) -> tuple[int, str] | None:
    """The pid and its start time (a pid reused by another process is not mistaken)."""
    fields = _stat(pid)
    return None if fields is None else (pid, fields[19])


def _children(pid: int) -> set[tuple[int, str]]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields is not None and int(fields[1]) == pid:
                found.add((int(entry.name), fields[19]))
    return found


def _command(pid: int) -> str:
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _running(child: tuple[int, str]) -> bool:
    """The same process, still there and not a zombie (a zombie has already ended)."""
    fields = _stat(child[0])
    return fields is not None and fields[19] == child[1] and fields[0] != "Z"


def _wait_gone(children: set[tuple[int, str]], seconds: float) -> list[tuple[int, str]]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(_running(c) for c in children):
        time.sleep(0.05)
    return [c for c in children if _running(c)]


def _environment(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "XDG_STATE_HOME": str(tmp_path),  # nothing of the test reaches the user's folders
    }


def _kill_group(process: subprocess.Popen, children: set[tuple[int, str]]) -> None:
    """Never leave anything behind, even when the test fails."""
    with contextlib.suppress(ProcessLookupError):  # the group: the window and all it started
        os.killpg(process.pid, signal.SIGKILL)
    if process.poll() is None:
        process.kill()
    process.wait()
    for child in children:
        if _running(child):
            os.kill(child[0], signal.SIGKILL)


def _window(tmp_path: Path) -> subprocess.Popen:
    """A play window in its own process group (as a terminal's foreground job), both sides
    played by the computer: its process starts at once, next to the odds'."""
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tactical",
            "play",
            str(builtin_map("heavy-combat")),
            "--autosave",
            str(tmp_path / "autosave.json"),
            "--ai",
            "Federation,Klingon",
        ],
        env=_environment(tmp_path),
        stdout=subprocess.DEVNULL,
        stderr=(tmp_path / "stderr.txt").open("wb"),
        start_new_session=True,  # its own process group: signals to it, and the clean-up
    )


def _started_children(window: subprocess.Popen) -> set[tuple[int, str]]:
    """The window's children once the odds', the player's and the tracker are there (as
    soon as they are: they may still be starting)."""
    children: set[tuple[int, str]] = set()
    deadline = time.monotonic() + START
    while time.monotonic() < deadline and window.poll() is None:
        children |= _children(window.pid)
        commands = [_command(pid) for pid, _ in children]
        spawned = sum("spawn_main" in command for command in commands)
        if spawned >= 2 and any("resource_tracker" in c for c in commands):
            return children
        time.sleep(0.02)
    return children


def _check_started(children: set[tuple[int, str]]) -> None:
    commands = [_command(pid) for pid, _ in children]
    assert sum("spawn_main" in c for c in commands) >= 2, commands  # odds and player
    assert any("resource_tracker" in c for c in commands), commands


def test_a_killed_window_leaves_no_process_behind(tmp_path):
    window = _window(tmp_path)
    children: set[tuple[int, str]] = set()
    try:
        children = _started_children(window)
        _check_started(children)
        # not in the very milliseconds the window hands a new child its start-up data: a
        # child cut off there ends at once, but Python's own start-up code prints why
        time.sleep(SETTLE)
        window.kill()
        window.wait(timeout=10)
        left = _wait_gone(children, GONE)
        assert not left, [_command(pid) for pid, _ in left]
        # the children leave quietly: no traceback, no Python warning on the terminal
        assert (tmp_path / "stderr.txt").read_text() == ""
    finally:
        _kill_group(window, children)


def test_ctrl_c_in_a_terminal_ends_the_window_and_its_children_quietly(tmp_path):
    window = _window(tmp_path)
    children: set[tuple[int, str]] = set()
    try:
        children = _started_children(window)
        _check_started(children)
        os.killpg(window.pid, signal.SIGINT)  # what Ctrl+C does: the whole group gets it
        assert window.wait(timeout=10) == 0
        left = _wait_gone(children, GONE)
        assert not left, [_command(pid) for pid, _ in left]
        said = (tmp_path / "stderr.txt").read_text()
        assert "Traceback" not in said and "KeyboardInterrupt" not in said, said
    finally:
        _kill_group(window, children)


# a parent that starts a pool and prints its child's pid, then waits to be killed
PARENT = """
import sys, threading
from tactical.processes import child_pool

def start():
    global pool
    pool = child_pool()
    print(pool.submit(__import__("os").getpid).result(), flush=True)

if sys.argv[1] == "main":
    start()
else:  # started by another thread: the lifeline alone must do it
    thread = threading.Thread(target=start)
    thread.start()
    thread.join()
print("ready", flush=True)
threading.Event().wait()
"""


@pytest.mark.parametrize("started_by", ["main", "thread"])
def test_a_pool_child_ends_with_its_killed_parent(tmp_path, started_by):
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, started_by],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    children: set[tuple[int, str]] = set()
    try:
        child = int(parent.stdout.readline())
        assert parent.stdout.readline().strip() == "ready"
        children = _children(parent.pid)  # the pool's child and the resource tracker
        assert _identity(child) in children
        # the pool's child ran its task after the thread that started it ended, and lives
        assert _running(_identity(child))
        parent.kill()
        parent.wait(timeout=10)
        left = _wait_gone(children, GONE)
        assert not left, [_command(pid) for pid, _ in left]
    finally:
        _kill_group(parent, children)


def test_the_kernel_guard_is_linux_only_and_the_rest_runs_elsewhere(monkeypatch):
    from tactical import processes

    monkeypatch.setattr(sys, "platform", "darwin")
    assert processes.die_with_parent() is False  # the lifeline alone guards there
    monkeypatch.delattr(signal, "pthread_sigmask")  # Windows has no signal masks
    with processes._ctrl_c_blocked():
        pass


@pytest.mark.parametrize("closer", ["odds", "computer"])
def test_closing_waits_for_the_pools_manager_thread(closer):
    """Closing the odds child or the computer's child ends the pool's manager thread before
    it returns: one still running at the interpreter's exit can close its wake-up pipe
    while the exit handler writes to it (a "Bad file descriptor" traceback on Python 3.11
    as a window ended by a signal closed)."""
    from tactical.processes import child_pool
    from tactical.ui.ai_player import ProcessWorker
    from tactical.ui.odds_view import ProcessOdds

    if closer == "odds":
        worker = ProcessOdds()
        pool = worker._started()
    else:
        worker = ProcessWorker()
        pool = worker._pool = child_pool()
    assert pool.submit(int, "7").result(timeout=20) == 7
    manager = pool._executor_manager_thread
    assert manager is not None and manager.is_alive()
    worker.close()
    assert not manager.is_alive()
