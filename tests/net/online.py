"""Helpers of the online-play tests: a server on a free loopback port, players joined to
it, and a scripted game played through them (bounded in steps and time)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import replace

from tactical.agents.levels import make_player
from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.model import FrozenMap
from tactical.net.client import RemoteSession
from tactical.net.server import GameServer
from tactical.session.controller import Session

SHORT_OPTIONS: Mapping[str, Mapping[str, object]] = {
    "dystopian-wars": {"game_turns": 1},  # a whole game in seconds
}


def short_map(rules: str):
    """The built-in map of `rules`, shortened where a whole game would take minutes."""
    state = load_map(builtin_map(rules))
    extra = SHORT_OPTIONS.get(rules)
    if extra:
        state = replace(state, options=FrozenMap({**dict(state.options), **extra}))
    return state


def serve(
    rules: str, seats: Mapping[str, str] | None = None, seed: int = 7, server_class=GameServer
):
    session = Session.new(short_map(rules), seed)
    seats = dict(seats or {side: "remote" for side in session.game.sides})
    server = server_class(session, seats, port=0)
    server.run_in_thread()
    return server


def join(server: GameServer, side: str | None, **more) -> RemoteSession:
    address = f"127.0.0.1:{server.port}"
    if side is None:
        return RemoteSession.join(address, watch=True, **more)
    return RemoteSession.join(address, server.tokens[side], **more)


def play_one(players: Mapping[str, RemoteSession], seconds: float = 20.0) -> bool:
    """The player whose go it is declares the greedy computer's choice; True once its step
    (or a refusal) came back."""
    for player in players.values():
        player.poll()
    ready = [p for p in players.values() if p.hold_reason() is None and not p.game.over]
    if not ready:
        return False
    player = ready[0]
    decision = make_player("greedy", seed=player.game.step_number).decide(player.game)
    version = player.version
    player.submit(decision.action)
    return player.wait_until(lambda p: p.version > version or p.sent is None, seconds)


def play_until(
    server: GameServer,
    players: Mapping[str, RemoteSession],
    *,
    decisions: int = 10_000,
    seconds: float = 120.0,
) -> int:
    """Play scripted decisions until the game ends (or `decisions`, or `seconds`)."""
    made = 0
    end = time.monotonic() + seconds
    while made < decisions and time.monotonic() < end and not server.session.game.over:
        if play_one(players):
            made += 1
        else:
            time.sleep(0.002)
    return made


def caught_up(server: GameServer, *copies: RemoteSession, seconds: float = 10.0) -> bool:
    return all(c.wait_until(lambda c: c.version == server.version, seconds) for c in copies)
