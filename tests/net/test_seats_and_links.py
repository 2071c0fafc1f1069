"""Seats, tokens, stale actions, dropped links, undo requests, chat and watchers, over
loopback, each bounded in time."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from websockets.sync.client import connect

from tactical.cli import main
from tactical.dice.fair import check_rolls, fresh_nonce
from tactical.errors import UserError
from tactical.net.protocol import frame
from tactical.net.server import GameServer
from tests.net.online import caught_up, join, play_one, play_until, serve


def _raw(server: GameServer, hello: dict):
    socket = connect(f"ws://127.0.0.1:{server.port}", open_timeout=5, legacy=True)
    socket.send(frame("hello", **hello))
    welcome = json.loads(socket.recv(timeout=5))
    return socket, welcome


def _next_of(socket, kind: str, seconds: float = 5.0) -> dict:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        message = json.loads(socket.recv(timeout=max(0.01, end - time.monotonic())))
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")


@pytest.fixture
def game():
    server = serve("battlefleet-mars")
    players = {side: join(server, side) for side in server.session.game.sides}
    yield server, players
    for player in players.values():
        player.close()
    server.stop()


def test_a_forged_token_is_refused_and_opens_no_seat(game):
    server, _ = game
    with pytest.raises(UserError, match="refused this seat"):
        join_with(server, "not-a-token")
    with pytest.raises(UserError, match="give the token"):
        from tactical.net.client import RemoteSession

        RemoteSession.join(f"127.0.0.1:{server.port}")


def join_with(server, token):
    from tactical.net.client import RemoteSession

    return RemoteSession.join(f"127.0.0.1:{server.port}", token, seconds=5)


def test_an_action_for_the_other_side_and_a_stale_one_are_refused_and_change_nothing():
    server = serve("heavy-combat")
    try:
        acting = server.session.game.side_to_act
        other = next(side for side in server.session.game.sides if side != acting)
        mine, welcome = _raw(server, {"token": server.tokens[acting]})
        theirs, _ = _raw(server, {"token": server.tokens[other]})
        before = server.session.game
        choice = next(c for c in before.choices() if c.kind == "pass")
        version = welcome["version"]
        theirs.send(frame("action", version=version, kind=choice.kind, actor=choice.actor))
        refused = _next_of(theirs, "refused")
        assert f"it is {acting}'s go, not {other}'s" in refused["reason"]
        assert server.session.game is before
        # the side to act passes; the same action again is now a stale one
        mine.send(frame("action", version=version, kind=choice.kind, actor=choice.actor))
        assert _next_of(mine, "step")["version"] == version + 1
        steps = server.session.game.step_number
        mine.send(frame("action", version=version, kind=choice.kind, actor=choice.actor))
        assert "moved on" in _next_of(mine, "refused")["reason"]
        assert _next_of(mine, "game")["version"] == server.version
        assert server.session.game.step_number == steps
        mine.close()
        theirs.close()
    finally:
        server.stop()


def test_a_dropped_player_reconnects_by_itself_and_loses_nothing(game):
    server, players = game
    play_until(server, players, decisions=4, seconds=30)
    side = server.session.game.side_to_act
    player = players[side]
    assert caught_up(server, player)
    # the network drops this player's connection without a word
    client = next(c for c in server.clients if c.side == side)
    server.loop.call_soon_threadsafe(client.socket.transport.abort)
    assert player.wait_until(lambda p: p.status.startswith("connection lost"), 5)
    # an action declared while it is away is sent once it is back: not lost, not doubled
    assert player.hold_reason() is None
    steps = server.session.game.step_number
    decision_game = player.game
    from tactical.agents.levels import make_player

    player.submit(make_player("greedy", seed=1).decide(decision_game).action)
    assert player.wait_until(lambda p: p.status == "connected", 10)
    assert player.wait_until(lambda p: p.game.step_number > steps, 10)
    assert caught_up(server, *players.values())
    assert [s.action for s in player.game.steps] == [s.action for s in server.session.game.steps]
    assert len({s.number for s in player.game.steps}) == len(player.game.steps)
    play_until(server, players, decisions=4, seconds=30)
    assert caught_up(server, *players.values())
    assert player.problems == []


def test_eight_watchers_see_every_step_and_change_nothing(game):
    server, players = game
    watchers = [join(server, None) for _ in range(8)]
    try:
        play_until(server, players, decisions=12, seconds=60)
        assert caught_up(server, *watchers)
        truth = [s.action for s in server.session.game.steps]
        for watcher in watchers:
            assert watcher.watching and watcher.hold_reason() == "watching: read-only"
            assert [s.action for s in watcher.game.steps] == truth
        with pytest.raises(UserError, match="watching"):
            watchers[0].submit(server.session.game.choices()[0] and None)  # type: ignore[arg-type]
        socket, welcome = _raw(server, {"watch": True})
        choice = server.session.game.choices()[0]
        socket.send(
            frame("action", version=welcome["version"], kind=choice.kind, actor=choice.actor)
        )
        assert "watcher cannot change" in _next_of(socket, "error")["message"]
        socket.send(frame("undo", version=welcome["version"]))
        assert "watcher cannot change" in _next_of(socket, "error")["message"]
        socket.send(frame("chat", text="hello"))
        assert "watcher cannot change" in _next_of(socket, "error")["message"]
        socket.close()
        assert [s.action for s in server.session.game.steps] == truth
        assert server.session.chat == []
    finally:
        for watcher in watchers:
            watcher.close()


def test_undo_is_a_request_the_other_player_accepts_or_declines(game):
    server, players = game
    play_until(server, players, decisions=6, seconds=30)
    assert caught_up(server, *players.values())
    sides = list(players)
    asker, other = players[sides[0]], players[sides[1]]
    steps = server.session.game.step_number
    asker.ask_undo()
    assert other.wait_until(lambda p: p.undo_asked_by == sides[0], 5)
    assert "asks to undo" in other.hold_reason()
    other.answer_undo(False)
    assert asker.wait_until(lambda p: not p.waiting_on, 5)
    assert server.session.game.step_number == steps
    asker.ask_undo()
    assert other.wait_until(lambda p: p.undo_asked_by == sides[0], 5)
    other.answer_undo(True)
    assert asker.wait_until(lambda p: p.game.step_number < steps, 5)
    assert caught_up(server, *players.values())
    assert server.session.game.step_number < steps
    assert asker.game.step_number == other.game.step_number == server.session.game.step_number
    # the dice values the undone steps used stay used: the next rolls go on from there
    play_until(server, players, decisions=8, seconds=30)
    truth = server.session.game
    rolled = [(s.number, s.fair, bool(s.rolls)) for s in truth.steps]
    assert check_rolls(server.session.fair, rolled) is None


def test_chat_reaches_the_other_player_and_the_save(game, tmp_path):
    _, players = game
    first, second = players.values()
    first.say("good luck,   have fun")
    assert second.wait_until(lambda p: p.chat, 5)
    line = second.chat[0]
    assert (line.side, line.text) == (first.side, "good luck, have fun")
    path = tmp_path / "game.json"
    second.save(path)
    assert json.loads(path.read_text())["chat"] == [
        {"step": line.step, "side": first.side, "text": "good luck, have fun"}
    ]


class _CheatingServer(GameServer):
    """Reveals a value of its own choosing for the third roll (not its committed one)."""

    def reveal(self, chain: int, index: int) -> str:
        return fresh_nonce() if index == 3 else super().reveal(chain, index)


def test_a_server_that_changes_a_roll_is_caught_by_the_players_and_by_verify(tmp_path, capsys):
    server = serve("battlefleet-mars", server_class=_CheatingServer)
    players = {side: join(server, side) for side in server.session.game.sides}
    try:
        play_until(server, players, decisions=40, seconds=60)
        third = next(
            s for s in server.session.game.steps if s.fair is not None and s.fair.index == 3
        )
        for player in players.values():
            player.poll()
            assert any(
                f"step {third.number}:" in line and "tampered" in line for line in player.problems
            )
        rolled = [(s.number, s.fair, bool(s.rolls)) for s in server.session.game.steps]
        problem = check_rolls(server.session.fair, rolled)
        assert problem is not None and problem.step == third.number
        # and `tactical verify` names it in the save
        path = tmp_path / "cheated.json"
        server.session.save(path)
        assert main(["verify", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"step {third.number} " in err, err
    finally:
        for player in players.values():
            player.close()
        server.stop()


class _SilentServer(GameServer):
    """Takes the players' nonces for a roll and then never reveals its value."""

    async def _revealed(self, chain, index):
        await asyncio.Event().wait()  # forever


def test_a_server_that_stops_after_a_guest_nonce_is_reported_to_the_waiting_player():
    server = serve("battlefleet-mars", server_class=_SilentServer)
    players = {side: join(server, side) for side in server.session.game.sides}
    for player in players.values():
        player.reveal_seconds = 0.5
    try:
        end = time.monotonic() + 20
        while time.monotonic() < end and not any(p.problems for p in players.values()):
            play_one(players, seconds=1)  # stops at the roll the server never reveals
        lines = [line for p in players.values() for line in p.problems]
        assert any("has not revealed its value" in line for line in lines)
    finally:
        for player in players.values():
            player.close()
        server.stop()
