"""A play window ended by a signal (SIGTERM, SIGINT, SIGHUP) stops its child processes (the
odds, the computer's moves) and exits cleanly: nothing of it stays running, parentless."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tactical.io import builtin_map

WAIT = 20.0  # seconds for a loaded machine to start the window and its odds child


def _children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _command(pid: int) -> str:
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _running(pid: int) -> bool:
    """Still there and not a zombie (a zombie has ended; only its exit status is left)."""
    try:
        stat = (Path("/proc") / str(pid) / "stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
@pytest.mark.parametrize("name", ["SIGTERM", "SIGINT", "SIGHUP"])
def test_a_signal_ends_the_window_and_its_odds_child(tmp_path, name):
    env = {
        **os.environ,
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "XDG_STATE_HOME": str(tmp_path),  # the autosave goes here, not to the user's folder
    }
    window = subprocess.Popen(
        [sys.executable, "-m", "tactical", "play", str(builtin_map("heavy-combat"))],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    children: list[int] = []
    try:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline and window.poll() is None:
            children = _children(window.pid)
            if any("spawn_main" in _command(child) for child in children):
                break
            time.sleep(0.05)
        assert any("spawn_main" in _command(child) for child in children), "no odds child"
        window.send_signal(getattr(signal, name))
        assert window.wait(timeout=10) == 0
        settled = time.monotonic() + 5
        while any(_running(child) for child in children) and time.monotonic() < settled:
            time.sleep(0.05)
        left = [child for child in children if _running(child)]
        assert not left, [_command(child) for child in left]
        assert b"Traceback" not in window.stderr.read()
    finally:
        if window.poll() is None:
            window.kill()
            window.wait()
        for child in children:  # never leave one behind, even when the test fails
            if _running(child):
                os.kill(child, signal.SIGKILL)
