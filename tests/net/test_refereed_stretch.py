"""A guest's hidden moves, with a player hosting (R001.29): no moderator needed.

The Federation hosts (its server runs on its machine) and the Klingon joins from elsewhere,
cloaks and moves unseen for three turns (tests/cloak_game.py's plan). From the step where
its moves are hidden from the Federation, the server stops holding the truth: the Klingon's
client referees every step, sends `H(move ‖ salt)` for each hidden move, and answers with
what the Federation sees. The server never receives a hidden move until the cloak drops;
then every move is revealed, checked against its commitment, the stretch is played again
and each answer compared. An honest Klingon checks out, here and in `tactical verify`; a
lying one (a false answer about a shot at it, or a move other than the one it committed
to) is named at the reveal, in the chat (so the log and the save) and by `verify`.
"""

from __future__ import annotations

import json
import time

import pytest
from cloak_game import FED, KLINGON, MOVEMENT, PLAN, TRUE_MOVES

from tactical.dice.sealed import seal
from tactical.io import builtin_map, load_map
from tactical.io.saves import dumps_save, loads_save
from tactical.model import FrozenMap
from tactical.net import owner as owner_module
from tactical.net import server as server_module
from tactical.net.server import GameServer
from tactical.rules.base import Action
from tactical.session.controller import Session
from tactical.session.digest import game_digest
from tactical.session.log import game_log
from tactical.session.saving import saved_game
from tactical.session.verify import check_saved
from tactical.session.view_codes import action_text
from tests.net.online import join

HIDDEN_KINDS = {"close", "rotate", "retreat", "decloak"}
FIRE_PHASE = "Target selection / fire"


@pytest.fixture
def received(monkeypatch):
    """Every message the servers of a test receive, as (side, text)."""
    got: list[tuple[str | None, str]] = []
    original = server_module.GameServer._received

    async def recorded(self, client, text):
        got.append((client.side, text if isinstance(text, str) else ""))
        await original(self, client, text)

    monkeypatch.setattr(server_module.GameServer, "_received", recorded)
    return got


def _hosted_game(turns: int = 4, fire_in_turn: int | None = None):
    """The plan played with the Federation hosting (its window a client over loopback) and
    the Klingon joined; the Federation fires phasers at the Kronos in `fire_in_turn`."""
    session = Session.new(load_map(builtin_map("heavy-combat")), 7)
    server = GameServer(session, {FED: "host", KLINGON: "remote"}, port=0)
    server.run_in_thread()
    players = {FED: join(server, FED), KLINGON: join(server, KLINGON)}
    plan = {turn: list(moves) for turn, moves in PLAN.items()}
    fired: set[int] = set()
    mid = {}
    end = time.monotonic() + 60
    while time.monotonic() < end:
        for each in players.values():
            each.poll()
        public = server.stretch.public if server.stretch is not None else server.session.game
        if public.position.turn > turns or public.over:
            break
        if server.stretch is not None and public.position.turn == 3 and "stretch" not in mid:
            mid["stretch"] = (server.session.game, public.step_number)
        side = public.side_to_act
        player = players[side]
        if player.hold_reason() is not None or player.version != server.version:
            time.sleep(0.002)
            continue
        seen = player.game
        choices = {c.kind: c for c in seen.choices()}
        turn = seen.position.turn
        todo = plan.get(turn, [])
        if seen.phase_name == MOVEMENT and side == KLINGON and todo:
            kind, params = todo.pop(0)
        elif (
            seen.phase_name == FIRE_PHASE and side == FED and turn == fire_in_turn
            and turn not in fired and "fire" in choices
        ):  # fmt: skip
            fired.add(turn)
            kind, params = "fire", {"weapon": "phasers", "target": "kronos", "power": 4}
        else:
            kind = next((k for k in ("roll_power", "resolve") if k in choices), "pass")
            params = {}
        actor = choices[kind].actor if kind in choices else side
        version = player.version
        player.submit(Action(kind, actor, FrozenMap(params)))
        _polled(players, lambda p=player, v=version: p.version > v or p.sent is None)
    _polled(
        players,
        lambda: (
            not server.lock.locked() and all(p.version == server.version for p in players.values())
        ),
    )
    return server, players, mid


def _polled(players, done, seconds: float = 10.0) -> bool:
    """Every copy polled (as each window does once a frame: the referee answers the server
    from its poll) until `done`, bounded."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for each in players.values():
            each.poll()
        if done():
            return True
        time.sleep(0.002)
    return done()


def _saved(server) -> str:
    """The server's game as its autosave writes it."""
    session = server.session
    return dumps_save(saved_game(session.history, session.fair, session.chat))


def test_r001_29_the_hosts_server_never_holds_the_guests_hidden_moves(received):
    """R001.29: with the Federation hosting, the Klingon's hidden moves reach its server only
    as commitments, until the cloak drops; then they are revealed, check out, and the game
    goes on from the truth, which `verify` checks from the save."""
    server, players, mid = _hosted_game()
    fed, klingon = players[FED], players[KLINGON]
    # mid-stretch, the server's own game stood where the stretch began
    base, public_step = mid["stretch"]
    assert base.step_number < public_step
    from_klingon = [json.loads(t) for side, t in received if side == KLINGON and t]
    sealed = [m for m in from_klingon if m["type"] == "sealed_action"]
    assert len(sealed) >= 3  # close, rotate, retreat (and decloak) as commitments only
    assert not any(m.get("kind") in HIDDEN_KINDS for m in from_klingon if m["type"] == "action")
    # the reveal came once the cloak dropped, and every move checked out
    assert server.stretch is None
    assert [line.text for line in server.session.chat if line.side == "Check"] == []
    ledger = server.session.fair
    assert ledger is not None and len(ledger.sealed) == 1
    stretch = ledger.sealed[0]
    assert (stretch.referee, stretch.seen_by) == (KLINGON, FED)
    hidden = [s for s in stretch.steps if s.commitment]
    assert len(hidden) >= 4 and all(s.salt for s in hidden)
    steps = server.session.game.steps
    for record in hidden:
        action = steps[record.step - 1].action
        assert action.actor in ("kronos", KLINGON)  # its moves and its passes
        assert seal(action_text(action), record.salt) == record.commitment
    # the server's truth is the Klingon's; the Federation has the whole record now
    assert game_digest(server.session.game) == game_digest(klingon.game)
    assert not fed.viewing and game_digest(fed.game) == game_digest(server.session.game)
    assert all(move in game_log(fed.game).text() for move in TRUE_MOVES)
    verdict = check_saved(loads_save(_saved(server), "autosave")).verdict
    assert verdict.ok, verdict.message()
    assert f"hidden moves {KLINGON} kept match its commitments" in verdict.message()
    server.stop()


def test_r001_29_a_false_answer_about_a_shot_at_the_cloaked_ship_is_caught(monkeypatch):
    """R001.30: the Federation fires at the cloaked Kronos; the Klingon's client answers
    with a Result that is not what its revealed moves give. The reveal names the step, in
    the chat (so in the log and the save), and `verify` names it from the save."""
    lie: dict[str, int] = {}
    original = owner_module.view_message

    def lying(parts, codes, sent):
        fields = original(parts, codes, sent)
        last = fields["steps"][-1] if fields["steps"] else None
        if last is not None and "Result" in last["title"] and not lie:
            last["words"] = "Result: every shot at the cloaked ship missed"
            lie["step"] = last["number"]
        return fields

    monkeypatch.setattr(owner_module, "view_message", lying)
    server, _, _ = _hosted_game(fire_in_turn=3)
    checks = [line.text for line in server.session.chat if line.side == "Check"]
    assert checks == [
        f"step {lie['step']}: what {KLINGON}'s client reported {FED} sees does not follow "
        "from the moves it revealed"
    ]
    verdict = check_saved(loads_save(_saved(server), "autosave")).verdict
    assert not verdict.ok and verdict.problem.step == lie["step"]
    assert "does not follow from the moves it revealed" in verdict.message()
    server.stop()


def test_r001_29_a_move_other_than_the_one_committed_to_is_caught(monkeypatch):
    """The Klingon reveals a retreat where it committed to a close: named at the reveal."""
    original = owner_module.OwnReferee.on_play

    def swapped(self, message):
        for item in self._revealed:  # before the reveal goes with the last answer
            if item["kind"] == "close":
                item["kind"] = "retreat"
        return original(self, message)

    monkeypatch.setattr(owner_module.OwnReferee, "on_play", swapped)
    server, _, _ = _hosted_game()
    checks = [line.text for line in server.session.chat if line.side == "Check"]
    assert any(f"{KLINGON}'s revealed move is not the one it committed to" in c for c in checks)
    server.stop()


def test_an_undo_is_refused_while_a_stretch_is_refereed():
    server, players, _ = _hosted_game(turns=2)
    fed = players[FED]
    assert server.stretch is not None
    said: list[str] = []
    fed.ask_undo()
    assert _polled({}, lambda: said.extend(fed.poll()) or any("revealed" in x for x in said))
    assert any("undo once they are revealed" in x for x in said)
    server.stop()
