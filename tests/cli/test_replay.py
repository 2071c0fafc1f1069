"""`tactical replay SAVE [--step] [--json]`: a saved game's log printed step by step."""

from __future__ import annotations

import io
import json

import pytest

import tactical.cli as cli
from tactical.io import builtin_map, load_map
from tactical.model import FrozenMap
from tactical.rules.base import Action
from tactical.session.controller import Session
from tactical.session.log import game_log

SEED = 606


@pytest.fixture(autouse=True)
def replay_command(monkeypatch):
    """Until the lead lists "replay" in COMMANDS, add it here the way it will be listed."""
    if "replay" not in cli.COMMANDS:
        monkeypatch.setattr(cli, "COMMANDS", (*cli.COMMANDS, "replay"))


@pytest.fixture
def save(tmp_path):
    session = Session.new(load_map(builtin_map("battlefleet-mars")), SEED)
    session.pass_go()
    session.apply(Action("move", "ares-fighters", FrozenMap(path="C45 F1")))
    for _ in range(3):
        session.pass_go()
    session.apply(Action("attack", "deimos-base", FrozenMap(weapon="laser", target="ares-cruiser")))
    session.apply(
        Action("attack", "ares-catapult", FrozenMap(weapon="laser", target="mars-fighters"))
    )
    path = tmp_path / "game.json"
    session.save(path)
    return path, session


def test_text_prints_the_log_of_every_step(capsys, save):
    path, session = save
    assert cli.main(["replay", str(path)]) == 0
    assert capsys.readouterr().out == session.log_text()


def test_json_document_has_stable_keys(capsys, save):
    path, session = save
    assert cli.main(["replay", str(path), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert list(document) == ["rules", "title", "seed", "steps"]
    assert (document["rules"], document["seed"]) == ("battlefleet-mars", SEED)
    steps = document["steps"]
    assert [s["step"] for s in steps] == list(range(session.step_number + 1))
    assert set(steps[0]) == {"step", "turn", "phase", "phase_spec_id", "side", "entries"}
    assert steps[0]["entries"][0]["entry"] == "start"
    last = steps[-1]
    assert (last["turn"], last["phase"], last["phase_spec_id"]) == (1, "Tactical combat", "R000.18")
    assert last["side"] == "Mars"
    entries = [entry for step in steps for entry in step["entries"]]
    assert entries == json.loads(game_log(session.game).json())["entries"]


def test_step_waits_for_enter_between_steps(capsys, save, monkeypatch):
    path, session = save
    monkeypatch.setattr("sys.stdin", io.StringIO("\n\n"))
    assert cli.main(["replay", str(path), "--step", "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["step"] for line in lines] == list(range(session.step_number + 1))


def test_a_bad_save_is_one_line_and_exit_2(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "tactical-save", "version": 99}')
    assert cli.main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "bad.json: version: expected 1, 2 or 3 (this save has version 99)" in err


def test_a_save_whose_rolls_no_longer_match_names_the_step(capsys, save):
    path, _ = save
    document = json.loads(path.read_text())
    document["actions"][5]["rolls"] = [9, 9, 9]
    path.write_text(json.dumps(document))
    assert cli.main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert "actions[5] (step 6, attack by 'deimos-base')" in err
    assert "the save recorded [9, 9, 9]" in err
