"""Online play over loopback: how long from a player's click to the step on the other
player's copy, and what the server costs in memory.

| row (2 players and 8 watchers connected) | budget |
|---|---|
| median round trip of a move (no dice), `submit` to the other copy's step | <= 30 ms |
| median round trip of an attack (both players' nonces, then the reveal) | <= 30 ms |
| server process memory above one hot-seat game of the same steps | <= 100 MB |

The baseline in the same run is the same step applied on one screen (`Game.apply` on the
same table): what a click costs with no network at all. The round trips run in one
process (players' copies, watchers and the server share its cores: an upper bound of
what two machines see); the memory row compares two child processes: `tactical serve`
with its 10 connections after the game, and a hot-seat game of the same steps.

Run: .venv/bin/python -m pytest bench/bench_online.py -p no:cacheprovider -s
"""

from __future__ import annotations

import os
import re
import socket
import statistics
import subprocess
import sys
import time

import psutil
from conftest import is_quick, quick

from tactical.agents.levels import make_player
from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.net.client import RemoteSession
from tactical.net.server import GameServer
from tactical.session.controller import Session

RULES = "battlefleet-mars"
WATCHERS = 8
ROUND_TRIP_BUDGET = 0.030
MEMORY_BUDGET = 100 * 2**20
DECISIONS = quick(160, 12)
TOKEN_LINE = re.compile(r"^(\S+): tactical join (\S+) --token (\S+)$")

HOT_SEAT = """
import sys, psutil
from tactical.agents.levels import make_player
from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.session.controller import Session
session = Session.new(load_map(builtin_map(sys.argv[1])), 11)
for _ in range(int(sys.argv[2])):
    if session.game.over:
        break
    session.apply(make_player("greedy", seed=session.game.step_number).decide(session.game).action)
print(psutil.Process().memory_info().rss)
"""


def _interval(values: list[float]) -> tuple[float, float]:
    """A 95% interval of the median (order statistics, normal approximation)."""
    ordered = sorted(values)
    n = len(ordered)
    half = 1.96 * (n**0.5) / 2
    low, high = int(max(0, n / 2 - half)), int(min(n - 1, n / 2 + half))
    return ordered[low], ordered[high]


def _play(players: dict[str, RemoteSession], decisions: int, watchers=(), timed=None) -> int:
    """Scripted decisions through the players' copies; `timed(kind, seconds, baseline)`
    is told each round trip."""
    made = 0
    for _ in range(decisions):
        for player in players.values():
            player.poll()
        ready = [p for p in players.values() if p.hold_reason() is None and not p.game.over]
        if not ready:
            break
        actor = ready[0]
        other = next(p for p in players.values() if p is not actor)
        before = actor.game
        action = make_player("greedy", seed=before.step_number).decide(before).action
        begun = time.perf_counter()
        before.apply(action)  # the same step on one screen: the baseline
        baseline = time.perf_counter() - begun
        version, steps = other.version, other.game.step_number
        started = time.perf_counter()
        actor.submit(action)
        assert other.wait_until(lambda p, v=version: p.version > v, 20)
        elapsed = time.perf_counter() - started
        first = other.game.steps[steps] if other.game.step_number > steps else None
        if timed is not None and first is not None:
            timed("attack" if first.fair is not None else "move", elapsed, baseline)
        actor.wait_until(lambda p: p.sent is None, 20)
        for watcher in watchers:
            watcher.poll()
        made += 1
    return made


def test_round_trip_from_click_to_the_other_copy_with_eight_watchers():
    session = Session.new(load_map(builtin_map(RULES)), 11)
    sides = session.game.sides
    server = GameServer(session, {side: "remote" for side in sides}, port=0)
    server.run_in_thread()
    address = f"127.0.0.1:{server.port}"
    players = {side: RemoteSession.join(address, server.tokens[side]) for side in sides}
    watchers = [RemoteSession.join(address, watch=True) for _ in range(WATCHERS)]
    trips: dict[str, list[float]] = {"move": [], "attack": []}
    baselines: dict[str, list[float]] = {"move": [], "attack": []}

    def timed(kind: str, seconds: float, baseline: float) -> None:
        trips[kind].append(seconds)
        baselines[kind].append(baseline)

    try:
        _play(players, DECISIONS, watchers, timed)
        for watcher in watchers:
            assert watcher.wait_until(lambda w: w.version == server.version, 10)
    finally:
        for copy in (*players.values(), *watchers):
            copy.close()
        server.stop()
    print(f"\nload {os.getloadavg()[0]:.1f} (a load over 1 shares the cores)")
    for kind, values in trips.items():
        if not values:
            assert is_quick(), f"no {kind} was played"  # a quick run plays a few steps only
            continue
        median = statistics.median(values)
        low, high = _interval(values)
        local = statistics.median(baselines[kind])
        print(
            f"round trip, {kind}: median {median * 1000:.1f} ms (95% interval "
            f"{low * 1000:.1f}-{high * 1000:.1f} ms, n={len(values)}); on one screen "
            f"{local * 1000:.2f} ms (x{median / local:.1f}); "
            f"budget {ROUND_TRIP_BUDGET * 1000:.0f} ms"
        )
        assert is_quick() or median <= ROUND_TRIP_BUDGET


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_server_memory_with_ten_connections_above_a_hot_seat_game(tmp_path):
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path)}
    port = _free_port()
    command = [sys.executable, "-m", "tactical", "serve", RULES, "--seed", "11"]
    process = subprocess.Popen(
        [*command, "--port", str(port), "--autosave", str(tmp_path / "g.json")],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    copies: list[RemoteSession] = []
    try:
        tokens = {}
        for line in process.stdout:
            if line.startswith("to watch:"):
                break
            found = TOKEN_LINE.match(line.strip())
            if found:
                tokens[found[1]] = (found[2], found[3])
        players = {side: RemoteSession.join(*where) for side, where in tokens.items()}
        address = next(iter(tokens.values()))[0]
        copies = [*players.values(), *(RemoteSession.join(address, watch=True) for _ in range(8))]
        made = _play(players, DECISIONS, copies[2:])
        time.sleep(0.5)
        served = psutil.Process(process.pid).memory_info().rss
    finally:
        for copy in copies:
            copy.close()
        process.terminate()
        process.wait(10)
    hot_seat = int(
        subprocess.run(
            [sys.executable, "-c", HOT_SEAT, RULES, str(made)],
            capture_output=True,
            text=True,
            check=True,
            env=env,
        ).stdout.split()[-1]
    )
    above = served - hot_seat
    print(
        f"\nserver with 2 players and 8 watchers after {made} decisions: {served / 2**20:.0f} MB;"
        f" a hot-seat game of the same steps {hot_seat / 2**20:.0f} MB; above it "
        f"{above / 2**20:.1f} MB (budget {MEMORY_BUDGET / 2**20:.0f} MB)"
    )
    assert above <= MEMORY_BUDGET


def test_click_to_the_step_drawn_on_the_other_player_s_screen(monkeypatch):
    """The whole way: one player's `submit` to the frame of the other player's play screen
    (headless, the dummy video driver) that shows the step: poll, the panels brought up to
    date, the table drawn."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from tactical.ui.app import App

    session = Session.new(load_map(builtin_map(RULES)), 11)
    sides = session.game.sides
    server = GameServer(session, {side: "remote" for side in sides}, port=0)
    server.run_in_thread()
    address = f"127.0.0.1:{server.port}"
    players = {side: RemoteSession.join(address, server.tokens[side]) for side in sides}
    watchers = [RemoteSession.join(address, watch=True) for _ in range(WATCHERS)]
    shown = players[sides[1]]
    app = App(shown.game.initial, (1280, 800), headless=True, session=shown)
    drawn: list[float] = []
    try:
        for _ in range(quick(60, 6)):
            for player in players.values():
                player.poll()
            actor = players[sides[0]]
            if actor.hold_reason() is not None or actor.game.over:
                # the screen's side has the go: the computer plays it for the screen
                if shown.hold_reason() is None and not shown.game.over:
                    move = make_player("greedy", seed=shown.game.step_number).decide(shown.game)
                    version = shown.version
                    shown.submit(move.action)
                    shown.wait_until(lambda p, v=version: p.version > v or p.sent is None, 20)
                    app.step()
                    continue
                if server.session.game.over:
                    break
                time.sleep(0.002)
                continue
            action = make_player("greedy", seed=actor.game.step_number).decide(actor.game).action
            steps = app.play.session.game.step_number
            started = time.perf_counter()
            actor.submit(action)
            end = started + 20
            while app.play.session.game.step_number == steps and time.perf_counter() < end:
                app.step()
                time.sleep(0.0005)
            app.frame()
            drawn.append(time.perf_counter() - started)
            actor.wait_until(lambda p: p.sent is None, 20)
            for watcher in watchers:
                watcher.poll()
    finally:
        app.play.close()
        for copy in (*players.values(), *watchers):
            copy.close()
        server.stop()
    assert drawn
    median = statistics.median(drawn)
    low, high = _interval(drawn)
    print(
        f"\nload {os.getloadavg()[0]:.1f}; click to the step drawn on the other screen "
        f"(headless): median {median * 1000:.1f} ms (95% interval {low * 1000:.1f}-"
        f"{high * 1000:.1f} ms, n={len(drawn)}); budget {ROUND_TRIP_BUDGET * 1000:.0f} ms"
    )
    assert is_quick() or median <= ROUND_TRIP_BUDGET
