"""Hidden moves online: what a step costs while a guest's own copy referees it.

With a neutral server the server holds the truth of a cloaked ship's moves and plays each
step itself; with a player hosting, the guest's copy referees the stretch (`net.referee`):
each step is a probe and a play sent to it, and its answer passed on as a view. This
measures the round trip of a decision (`submit` to its step on the submitter's copy)
during the cloaked turns of Heavy Combat's duel, both ways, in the same run.

| row | budget |
|---|---|
| median round trip of a decision while the guest's copy referees | <= 30 ms |
| the same, against the server holding the truth (ratio) | <= 3x |

Everything runs in one process (server, both copies): an upper bound of what two machines
see, without the network's own latency.

Run: .venv/bin/python -m pytest bench/bench_refereed.py -p no:cacheprovider -s
"""

from __future__ import annotations

import os
import statistics
import time

from conftest import is_quick, quick

from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.model import FrozenMap
from tactical.net.client import RemoteSession
from tactical.net.server import GameServer
from tactical.rules.base import Action
from tactical.session.controller import Session

FED, KLINGON = "Federation", "Klingon"
MOVEMENT = "Reaction movement"
# the Klingon cloaks in turn 1, moves unseen in turns 2 to 4, decloaks at the end of turn 4
PLAN = {1: [("cloak", {})], 2: [("close", {})], 3: [("rotate", {"to": "port"})],
        4: [("retreat", {}), ("decloak", {})]}  # fmt: skip
BUDGET = 0.030
RATIO_BUDGET = 3.0
GAMES = quick(4, 1)


def _interval(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    n = len(ordered)
    half = 1.96 * (n**0.5) / 2
    return ordered[int(max(0, n / 2 - half))], ordered[int(min(n - 1, n / 2 + half))]


def _polled(copies, done, seconds: float = 20.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for copy in copies:
            copy.poll()  # a referee answers the server from its poll, as its window does
        if done():
            return True
        time.sleep(0.0005)
    return done()


def _cloaked_trips(fed_seat: str) -> list[float]:
    """The round trips of the decisions of turns 2 to 4 (the Klingon cloaked)."""
    session = Session.new(load_map(builtin_map("heavy-combat")), 7)
    server = GameServer(session, {FED: fed_seat, KLINGON: "remote"}, port=0)
    server.run_in_thread()
    address = f"127.0.0.1:{server.port}"
    players = {side: RemoteSession.join(address, server.tokens[side]) for side in (FED, KLINGON)}
    plan = {turn: list(moves) for turn, moves in PLAN.items()}
    trips: list[float] = []
    try:
        end = time.monotonic() + 120  # bounded: a stalled game fails, never hangs
        while time.monotonic() < end:
            truth = players[KLINGON].game  # the Klingon's copy sees everything
            if truth.position.turn > 4 or truth.over:
                break
            player = players[truth.side_to_act]
            if player.hold_reason() is not None or player.version != server.version:
                for copy in players.values():
                    copy.poll()
                time.sleep(0.0005)
                continue
            seen = player.game
            choices = {c.kind: c for c in seen.choices()}
            todo = plan.get(seen.position.turn, [])
            if seen.phase_name == MOVEMENT and truth.side_to_act == KLINGON and todo:
                kind, params = todo.pop(0)
            else:
                kind = next((k for k in ("roll_power", "resolve") if k in choices), "pass")
                params = {}
            actor = choices[kind].actor if kind in choices else truth.side_to_act
            version = player.version
            started = time.perf_counter()
            player.submit(Action(kind, actor, FrozenMap(params)))
            assert _polled(
                players.values(), lambda p=player, v=version: p.version > v or not p.sent
            )
            if 2 <= truth.position.turn <= 4:
                trips.append(time.perf_counter() - started)
    finally:
        for copy in players.values():
            copy.close()
        server.stop()
    return trips


def test_a_refereed_step_costs_about_what_a_step_on_a_neutral_server_costs():
    neutral: list[float] = []
    refereed: list[float] = []
    for _ in range(GAMES):  # interleaved: both see the same load
        neutral += _cloaked_trips("remote")
        refereed += _cloaked_trips("host")
    held, kept = statistics.median(neutral), statistics.median(refereed)
    ratio = kept / held
    print(f"\nload {os.getloadavg()[0]:.1f} (a load over 1 shares the cores)")
    for name, values in (("neutral server", neutral), ("refereed by the guest", refereed)):
        low, high = _interval(values)
        print(
            f"{name}: median {statistics.median(values) * 1000:.1f} ms (95% interval "
            f"{low * 1000:.1f}-{high * 1000:.1f} ms, n={len(values)})"
        )
    print(f"refereed / neutral: x{ratio:.2f}; budgets {BUDGET * 1000:.0f} ms, x{RATIO_BUDGET}")
    assert neutral and refereed
    assert is_quick() or (kept <= BUDGET and ratio <= RATIO_BUDGET)
