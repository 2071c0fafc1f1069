"""`tactical replay` of a finished game ends as its exported log does (its "Game over"
line), and a save's action parameters that no choice takes are refused by name."""

from __future__ import annotations

import json

import pytest

from tactical.cli import main
from tactical.errors import UserError
from tactical.io import builtin_map, load_map
from tactical.session.autoplay import next_game
from tactical.session.controller import Session
from tactical.session.replay import Replay

MAPS = ("battlefleet-mars", "heavy-combat", "cortex-space")


def _finished(name: str, tmp_path) -> Session:
    session = Session.new(load_map(builtin_map(name)), 3)
    while not session.game.over:
        assert session.step_number < 1000
        session.apply(next_game(session.game).steps[session.step_number].action)
    session.save(tmp_path / "finished.json")
    return session


@pytest.mark.parametrize("name", MAPS)
def test_replay_of_a_finished_game_prints_the_exported_log(name, tmp_path, capsys):
    session = _finished(name, tmp_path)
    session.export_log(tmp_path / "game.log")
    exported = (tmp_path / "game.log").read_text()
    assert main(["replay", str(tmp_path / "finished.json")]) == 0
    printed = capsys.readouterr().out
    assert printed == exported
    assert "Game over" in printed.splitlines()[-1]


def test_the_json_replay_ends_with_the_end_entry(tmp_path, capsys):
    session = _finished("battlefleet-mars", tmp_path)
    assert main(["replay", "--json", str(tmp_path / "finished.json")]) == 0
    document = json.loads(capsys.readouterr().out)
    last = document["steps"][-1]["entries"][-1]
    assert last["entry"] == "end" and last["result"] == session.outcome.headline()
    assert Replay.open(tmp_path / "finished.json").frame(0).entries[-1].entry != "end"


@pytest.mark.parametrize(
    ("index", "key", "known"),
    [
        (0, "colour", "a parameter pass takes (it takes none)"),
        (1, "speed", "a parameter adjust takes (op, x, y, heading, dx, dy, turn)"),
    ],
)
def test_an_unknown_action_parameter_is_refused_by_name(tmp_path, capsys, index, key, known):
    session = Session.new(load_map(builtin_map("battlefleet-mars")), 3)
    session.pass_go()
    unit = session.state.units[0]
    session.act("adjust", unit.id, op="move", x=unit.pose.x, y=unit.pose.y + 1)
    path = tmp_path / "game.json"
    session.save(path)
    document = json.loads(path.read_text())
    document["actions"][index]["params"][key] = 1
    path.write_text(json.dumps(document))
    message = f"{path}: actions[{index}].params.{key}: expected {known}"
    with pytest.raises(UserError) as refused:
        Session.open(path)
    assert refused.value.message == message
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err.strip().endswith(message)
