"""Hidden information online (R001.29): the server sends each client its side's view only.

A cloaked Klingon moves for three turns (tests/cloak_game.py's plan) on a server on a free
loopback port; every frame the server sends is recorded by the side it went to. While the
cloak is on, nothing sent to the Federation (player, or a watcher set up to see its view)
holds the Klingon's course: no step of the game, no whole game, no hidden action, and no
table but exactly the Federation's view (`session.views.viewed`) of the game at that
version. When the cloak drops, the whole game arrives and the record appears. A game
whose rules hide nothing sends steps only, as before.
"""

from __future__ import annotations

import json
import time

import pytest
from cloak_game import FED, KLINGON, MOVEMENT, PLAN, TRUE_MOVES

from tactical.io import builtin_map, load_map
from tactical.model import FrozenMap
from tactical.net import server as server_module
from tactical.net.server import GameServer
from tactical.present.online_words import bar_html
from tactical.rules.base import Action
from tactical.session.controller import Session
from tactical.session.log import game_log
from tactical.session.view_codes import decode
from tactical.session.views import viewed
from tests.net.online import join

HIDDEN_KINDS = {"close", "rotate", "retreat", "decloak"}


@pytest.fixture
def frames(monkeypatch):
    """Every frame the servers of a test send, as (side or None for a watcher, text)."""
    sent: list[tuple[str | None, str]] = []
    send = server_module._Client.send

    async def recorded(self, text: str) -> None:
        sent.append((self.side, text))
        await send(self, text)

    monkeypatch.setattr(server_module._Client, "send", recorded)
    return sent


def _cloak_game(watchers: str | None = None, turns: int = 4):
    """The plan played through remote Federation and Klingon clients (and a watcher) up to
    the end of `turns`; (server, {side: client}, watcher)."""
    session = Session.new(load_map(builtin_map("heavy-combat")), 7)
    server = GameServer(session, {FED: "remote", KLINGON: "remote"}, port=0, watchers=watchers)
    server.run_in_thread()
    players = {FED: join(server, FED), KLINGON: join(server, KLINGON)}
    watcher = join(server, None)
    plan = {turn: list(moves) for turn, moves in PLAN.items()}
    end = time.monotonic() + 60
    while time.monotonic() < end:
        for each in (*players.values(), watcher):
            each.poll()
        game = server.session.game
        if game.position.turn > turns or game.over:
            break
        player = players[game.side_to_act]
        if player.hold_reason() is not None or player.game.side_to_act != game.side_to_act:
            time.sleep(0.002)
            continue
        seen = player.game
        choices = {choice.kind: choice for choice in seen.choices()}
        todo = plan.get(seen.position.turn, [])
        if seen.phase_name == MOVEMENT and game.side_to_act == KLINGON and todo:
            kind, params = todo.pop(0)
        else:
            kind = next((k for k in ("roll_power", "resolve") if k in choices), "pass")
            params = {}
        actor = choices[kind].actor if kind in choices else game.side_to_act
        version = player.version
        player.submit(Action(kind, actor, FrozenMap(params)))
        player.wait_until(lambda p, v=version: p.version > v or p.sent is None, 10)
    for each in (*players.values(), watcher):
        each.wait_until(lambda p: p.version == server.version, 10)
    return server, players, watcher


def _walk(value, found: list) -> None:
    """Every Pose in a decoded-JSON frame (as the wire encodes it)."""
    if isinstance(value, dict):
        if value.get("$d") == "Pose":
            fields = value["f"]
            found.append((fields["x"], fields["y"], fields["heading"]))
        for item in value.values():
            _walk(item, found)
    elif isinstance(value, list):
        for item in value:
            _walk(item, found)


def _hidden_span(sent, side):
    """The frames sent to `side` from its first view to the whole game that ends it."""
    mine = [json.loads(text) for who, text in sent if who == side]
    first = next(i for i, m in enumerate(mine) if m["type"] == "view")
    last = next(i for i, m in enumerate(mine) if i > first and m["type"] == "game")
    return mine[:first], mine[first:last], mine[last:]


def _true_games(server):
    history = server.session.history
    return [history.game_at(i) for i in range(history.length + 1)]


def test_r001_29_no_frame_to_the_federation_holds_the_cloaked_klingons_course(frames):
    """R001.29: while the Klingon is cloaked, the Federation is sent its view and nothing
    else; then the cloak drops and the record appears, in its log too."""
    server, players, _ = _cloak_game()
    fed, klingon = players[FED], players[KLINGON]
    assert fed.problems == [] and klingon.problems == []
    before, hidden, after = _hidden_span(frames, FED)
    assert {m["type"] for m in hidden} >= {"view"}
    assert not {m["type"] for m in hidden} & {"step", "game", "welcome"}
    games = _true_games(server)
    hidden_poses = set()
    views = [m for m in hidden if m["type"] == "view"]
    assert len(views) > 20  # every step of three turns
    for message in views:
        true_game = next(g for g in games if g.step_number == _steps_in(message, fed))
        expected = viewed(true_game, FED)
        assert expected is not true_game  # something is hidden at this version
        assert decode(message["state"]) == expected.state  # exactly the view, no more
        kronos = true_game.state.unit("kronos").pose
        if kronos != expected.state.unit("kronos").pose:
            hidden_poses.add((kronos.x, kronos.y, kronos.heading))
        for step in message["steps"]:
            assert decode(step["action"]).kind not in HIDDEN_KINDS
    assert hidden_poses  # it did move unseen
    for message in hidden:
        poses: list = []
        _walk(message, poses)
        assert not hidden_poses & set(poses)
        words = json.dumps(message)
        assert not any(move in words for move in TRUE_MOVES)  # titles, log words, waits
    # the Klingon, who hides nothing from itself, was sent the steps all along
    assert "view" not in {json.loads(t)["type"] for who, t in frames if who == KLINGON}
    # the cloak dropped: the whole game, and the record in the Federation's log
    assert after[0]["type"] == "game" and not fed.viewing
    text = game_log(fed.game).text()
    assert all(move in text for move in TRUE_MOVES)
    assert fed.game.state == server.session.game.state
    assert before and all(m["type"] != "view" for m in before)
    server.stop()


def _steps_in(message, client) -> int:
    """How many steps the game of a view message has (its steps from `from` on)."""
    return message["from"] + len(message["steps"])


def test_r001_29_the_federations_log_reads_hidden_movement_while_the_cloak_is_on(frames):
    """R001.29: mid-cloak, the Federation client's log says "(hidden movement)" and none
    of the Klingon's moves; the Klingon's own log has them."""
    server, players, _ = _cloak_game(turns=3)
    fed_text = game_log(players[FED].game).text()
    klingon_text = game_log(players[KLINGON].game).text()
    assert players[FED].viewing
    assert "Klingon: (hidden movement)" in fed_text
    assert not any(move in fed_text for move in TRUE_MOVES[:3])
    assert all(move in klingon_text for move in TRUE_MOVES[:2])
    kronos = players[FED].game.state.unit("kronos").pose
    assert kronos != server.session.game.state.unit("kronos").pose
    server.stop()


def test_a_watcher_sees_the_view_the_game_was_set_up_with(frames):
    """Watchers set up to see the Federation's view get views while the cloak is on; a
    watcher of both sides (the default) gets the steps themselves."""
    server, _, watcher = _cloak_game(watchers=FED, turns=3)
    server.stop()
    one_side = {json.loads(t)["type"] for who, t in frames if who is None}
    assert "view" in one_side
    assert "<b>Watching Federation&#x27;s view: read-only</b>" in bar_html(watcher, True)
    frames.clear()
    server, _, watcher = _cloak_game(turns=3)
    server.stop()
    assert "<b>Watching: read-only</b>" in bar_html(watcher, True)
    both = {json.loads(t)["type"] for who, t in frames if who is None}
    assert "view" not in both and "step" in both


def test_a_game_whose_rules_hide_nothing_sends_no_views(frames):
    """In a rule system that hides nothing, views equal the truth: every step is sent as
    a step (the protocol's default), to players and watchers alike."""
    session = Session.new(load_map(builtin_map("battlefleet-mars")), 3)
    server = GameServer(session, dict.fromkeys(session.game.sides, "remote"), port=0)
    server.run_in_thread()
    from tests.net.online import play_until

    players = {side: join(server, side) for side in session.game.sides}
    watcher = join(server, None)
    assert play_until(server, players, decisions=6, seconds=30) == 6
    watcher.wait_until(lambda w: w.version == server.version)
    kinds = [json.loads(t)["type"] for _, t in frames]
    assert "view" not in kinds and kinds.count("step") >= 6 * 3
    assert watcher.game.state == server.session.game.state
    server.stop()


def test_watchers_must_be_a_side_of_the_game():
    session = Session.new(load_map(builtin_map("heavy-combat")), 7)
    with pytest.raises(Exception, match="watchers see both sides' view or one side's"):
        GameServer(session, {FED: "remote", KLINGON: "remote"}, port=0, watchers="Romulan")


def test_serve_refuses_watchers_of_a_side_the_game_does_not_have(tmp_path, capsys):
    """--watchers names both or a side: anything else is one clear message, exit code 2,
    and no game served or saved."""
    from tactical.cli import main

    autosave = tmp_path / "game.json"
    code = main(["serve", "heavy-combat", "--watchers", "Romulan", "--autosave", str(autosave)])
    err = capsys.readouterr().err
    assert code == 2
    assert "--watchers 'Romulan': both, or one of the sides (Federation, Klingon)" in err
    assert "Traceback" not in err and not autosave.exists()


def test_r001_29_a_view_counts_its_steps_and_opens_no_replay_until_the_reveal(frames):
    """The Federation's copy reads "step N of N" like any game, while it holds a view its
    replay is refused in words, and once the cloak drops the replay opens."""
    from tactical.errors import UserError

    server, players, _ = _cloak_game(turns=3)
    fed = players[FED]
    assert fed.viewing
    assert fed.history.length == fed.history.cursor == server.session.game.step_number
    with pytest.raises(UserError, match="the replay opens once they are revealed"):
        fed.replay()
    server.stop()
    server, players, _ = _cloak_game(turns=4)
    assert not players[FED].viewing
    assert players[FED].replay().length == server.session.game.step_number
    server.stop()
