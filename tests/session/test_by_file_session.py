"""`FileTurnSession`, the play screen's side of a game by file: what it waits for, in
words; what it sends; what it takes back; the other player's answer taken while the window
stays open."""

from __future__ import annotations

import json
import shutil

import pytest
from fair_games import FilePlayer

import tactical.cli as cli
from tactical.errors import UserError
from tactical.rules.base import Action
from tactical.session.autoplay import next_game


def stand_in(session) -> Action:
    game = session.game
    return next_game(game).steps[game.step_number].action


@pytest.fixture
def mars(tmp_path):
    """A Battlefleet Mars game by file just started by Mars in folder one; Ares in two."""
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    line = ["turn", "battlefleet-mars", "--side", "Mars", "--out", str(one / "game.json")]
    assert cli.main([*line, "--seed", "3", "--no-window"]) == 0
    return FilePlayer(one, "Mars"), FilePlayer(two, "Ares")


def test_a_step_without_dice_is_applied_at_once_and_can_be_taken_back(mars):
    player, _ = mars
    session = player.session()
    assert session.hold_reason() is None
    step = session.submit(stand_in(session))  # Mars's logistics: no dice
    assert step is not None and step.number == 1 and not step.rolls
    assert len(json.loads(player.path.read_text())["actions"]) == 1
    assert session.hold_reason() == "Ares's go: send game.json to Ares"
    assert session.can_undo
    session.undo_decision()
    assert session.step_number == 0 and session.hold_reason() is None
    assert json.loads(player.path.read_text())["actions"] == []  # undone: not sent


def test_a_step_with_dice_waits_for_the_other_players_nonce(mars):
    mine, theirs = mars
    players = {"Mars": mine, "Ares": theirs}
    side = "Mars"
    for _ in range(4):  # logistics and launches (no dice) to the first attack, which rolls
        player = players[side]
        session = player.session()
        session.catch_up()
        session.submit(stand_in(session))
        side = "Ares" if side == "Mars" else "Mars"
        shutil.copy(player.path, players[side].path)
    session = mine.session()
    assert session.submit(stand_in(session)) is None  # the attack rolls: fixed, not played
    assert session.step_number == 4
    pending = json.loads(mine.path.read_text())["pending"]
    assert pending["by"] == "Mars" and pending["fresh"] == {} and pending["index"] == 1
    assert pending["action"]["params"]["target"] == "ares-cruiser"
    held = "sent by file: send game.json to Ares; it waits for Ares's nonce"
    assert session.hold_reason() == held
    with pytest.raises(UserError, match="it waits for Ares's nonce"):
        session.submit(stand_in(session))
    assert not session.can_undo
    with pytest.raises(UserError, match="the file was sent"):
        session.undo_decision()
    # Ares's client gives its nonce by itself, and says so
    shutil.copy(mine.path, theirs.path)
    other = theirs.session()
    notes = other.catch_up()
    assert notes == (
        "Ares gave its nonce for step 5 (Mars: Deimos Base: laser at Ares cruiser Nemesis)",
    )
    assert other.hold_reason() == (
        "sent by file: send game.json to Mars; it waits for Mars to reveal its roll"
    )
    # back in Mars's window, still open: the answer saved in place of the file is taken
    shutil.copy(theirs.path, mine.path)
    session._next_look = 0.0
    said = session.poll()
    assert said[0] == "game.json came back"
    assert said[1].startswith("Mars revealed the roll of step 5: Deimos Base's laser at Ares")
    assert session.step_number == 5 and session.pending is None
    assert session.game.steps[4].fair is not None
    assert session.hold_reason() == "Ares's go: send game.json to Ares"
    assert not session.can_undo
    with pytest.raises(UserError, match="cannot take it back"):
        session.undo_decision()
    assert session.poll() == ()  # nothing new


def test_a_file_changed_on_disk_during_your_go_is_not_taken(mars):
    player, _ = mars
    session = player.session()
    player.path.write_text(player.path.read_text() + " ")
    session._next_look = 0.0
    assert session.poll() == ("game.json changed on disk while it is Mars's go: not taken",)
