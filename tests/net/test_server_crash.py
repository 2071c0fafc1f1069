"""A server killed with kill -9 comes back with `tactical serve --resume`: the same tokens
open the same seats, the players reconnect by themselves, and no step is lost."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tactical.net.client import RemoteSession
from tests.net.online import play_until

TOKEN_LINE = re.compile(r"^(\S+): tactical join (\S+) --token (\S+)$")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _serve(*args: str, env: dict) -> tuple[subprocess.Popen, dict[str, str], str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "tactical", "serve", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    tokens: dict[str, str] = {}
    address = ""
    end = time.monotonic() + 30
    while time.monotonic() < end:
        line = process.stdout.readline()
        if not line:
            break
        if line.startswith("to watch:"):
            return process, tokens, address
        found = TOKEN_LINE.match(line.strip())
        if found:
            tokens[found[1]] = found[3]
            address = found[2]
    process.kill()
    raise AssertionError(f"serve printed no seats: {process.stderr.read()}")


class _Game:
    """Stands in for a server in `play_until`: the game as the first player's copy has it."""

    def __init__(self, players):
        self.players = players

    @property
    def session(self):
        return next(iter(self.players.values()))


@pytest.mark.slow
def test_a_killed_server_resumes_with_the_same_tokens_and_the_players_reconnect(tmp_path: Path):
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    port = _free_port()
    save = tmp_path / "hosted.json"
    args = ["--port", str(port), "--autosave", str(save)]
    process, tokens, address = _serve("battlefleet-mars", "--seed", "3", *args, env=env)
    players = {}
    try:
        players = {side: RemoteSession.join(address, token) for side, token in tokens.items()}
        play_until(_Game(players), players, decisions=8, seconds=60)
        for player in players.values():
            player.wait_until(lambda p: p.sent is None, 5)
        steps = max(p.game.step_number for p in players.values())
        actions = [s.action for s in next(iter(players.values())).game.steps[:steps]]
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)
        for player in players.values():
            assert player.wait_until(lambda p: p.status.startswith("connection lost"), 10)
        assert (tmp_path / "hosted.json.server").stat().st_mode & 0o777 == 0o600
        process, again, _ = _serve("--resume", *args, env=env)
        assert again == tokens  # the same seats, the same tokens
        for player in players.values():
            assert player.wait_until(lambda p: p.status == "connected", 20), player.status
            assert player.wait_until(lambda p: p.game.step_number >= steps, 10)
            assert [s.action for s in player.game.steps[:steps]] == actions  # nothing lost
        made = play_until(_Game(players), players, decisions=6, seconds=60)
        assert made > 0
        first, second = players.values()
        time.sleep(0.5)  # the last step's frames on their way to both
        assert second.wait_until(lambda p: first.poll() is not None and p.version == first.version)
        assert [s.action for s in first.game.steps] == [s.action for s in second.game.steps]
        assert all(p.problems == [] for p in players.values())
    finally:
        for player in players.values():
            player.close()
        process.kill()
        process.wait(10)
