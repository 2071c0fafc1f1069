"""1,000 random and malformed frames against a live server: each gets an error frame (or
its connection closed for abuse), the server never stops, and the game goes on for the
players who behave."""

from __future__ import annotations

import json
import random
import threading

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tactical.net.protocol import MAX_MESSAGE, PROTOCOL_VERSION, frame
from tests.net.online import caught_up, join, play_until, serve

V = PROTOCOL_VERSION

FRAMES = 1000
CONNECTIONS = 10


def _hostile(rng: random.Random, version: int) -> str | bytes:
    """One frame a broken or hostile client might send."""
    choice = rng.randrange(12)
    if choice == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
    if choice == 1:
        return "".join(chr(rng.randrange(32, 0x2FF)) for _ in range(rng.randrange(0, 80)))
    if choice == 2:
        return "x" * (MAX_MESSAGE + rng.randrange(1, 1000))
    if choice == 3:
        return "[" * 20_000
    if choice == 4:
        return json.dumps({"v": V, "type": rng.choice(["hello", "launch", "", None, 5])})
    if choice == 5:
        return frame("action", version=version, kind="fire", actor="x", params={"a": [1] * 50})
    if choice == 6:
        return frame("action", version=rng.choice([-1, 2**60, "x", None]), kind="pass", actor="x")
    if choice == 7:
        return frame("nonce", step=rng.randrange(10**6), nonce="ab" * 32)
    if choice == 8:
        return frame("undo_answer", accept=rng.choice([True, False, "yes"]))
    if choice == 9:
        return json.dumps({"v": V, "type": "chat", "text": "hi", "extra": {"deep": [[[]]]}})
    if choice == 10:
        return frame("ping")
    return json.dumps({"v": V, "type": "action", "version": version, "kind": "adjust",
                       "actor": "x", "params": {"op": "delete", "target": "x"}})  # fmt: skip


def _attack(port: int, seed: int, count: int, outcome: dict) -> None:
    rng = random.Random(seed)
    answered = closed = 0
    try:
        with connect(f"ws://127.0.0.1:{port}", max_size=None, open_timeout=5) as socket:
            socket.send(frame("hello", watch=True))
            version = json.loads(socket.recv(timeout=5))["version"]
            for _ in range(count):
                socket.send(_hostile(rng, version))
                reply = json.loads(socket.recv(timeout=5))
                while reply["type"] in ("presence", "step", "waiting", "game"):
                    reply = json.loads(socket.recv(timeout=5))
                assert reply["type"] in ("error", "pong"), reply
                answered += 1
    except ConnectionClosed as error:
        closed += 1
        assert error.rcvd is None or error.rcvd.code in (1009, 4008), error
    outcome[seed] = (answered, closed)


def test_a_thousand_hostile_frames_get_error_frames_and_the_game_goes_on():
    server = serve("heavy-combat")
    players = {side: join(server, side) for side in server.session.game.sides}
    try:
        play_until(server, players, decisions=3, seconds=30)
        before = [s.action for s in server.session.game.steps]
        outcome: dict = {}
        threads = [
            threading.Thread(
                target=_attack, args=(server.port, seed, FRAMES // CONNECTIONS, outcome)
            )
            for seed in range(CONNECTIONS)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert len(outcome) == CONNECTIONS
        # every frame got its error frame (a frame over 1 MiB too: the link stays up)
        assert sum(answered for answered, _ in outcome.values()) == FRAMES
        assert sum(closed for _, closed in outcome.values()) == 0
        assert [s.action for s in server.session.game.steps] == before  # nothing changed
        assert server.session.chat == []
        made = play_until(server, players, decisions=6, seconds=60)
        assert made > 0 or server.session.game.over
        assert caught_up(server, *players.values())
        assert all(p.problems == [] for p in players.values())
    finally:
        for player in players.values():
            player.close()
        server.stop()
