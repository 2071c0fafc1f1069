"""`tactical verify SAVE [--json] [--secret FILE]`: the proof afterwards, from the shell."""

from __future__ import annotations

import json

import pytest
from fair_games import fair_document

import tactical.cli as cli
from tactical.io import builtin_map, load_map
from tactical.session.autoplay import play_turns
from tactical.session.game import Game
from tactical.session.saving import save_game

RULES = "battlefleet-mars"
MISSILES = 11  # the scripted game's first missile salvo (see tests/session/test_verify.py)


@pytest.fixture(scope="module")
def clean() -> dict:
    return fair_document(RULES)


def write(tmp_path, document: dict, name: str = "game.json"):
    path = tmp_path / name
    path.write_text(json.dumps(document))
    return path


def test_a_fair_save_checks_out(tmp_path, clean, capsys):
    path = write(tmp_path, clean)
    assert cli.main(["verify", str(path)]) == 0
    out, err = capsys.readouterr()
    assert out == (
        "all 69 rolls check out (44 dice steps, each with Ares's nonce); the game replays to "
        "the table saved\n"
    )
    assert err == ""


def test_a_die_changed_by_hand_fails_with_one_line_naming_the_step(tmp_path, clean, capsys):
    clean = json.loads(json.dumps(clean))
    clean["actions"][MISSILES]["rolls"][0] += 1
    path = write(tmp_path, clean)
    before = path.read_bytes()
    assert cli.main(["verify", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(
        f"tactical: {path}: step {MISSILES + 1} (turn 1, Ares: Ares missile salvo: missiles "
        "at Deimos Base): it rolls ["
    )
    assert "a die was changed after it was rolled" in err
    assert path.read_bytes() == before  # nothing written


def test_json_verdicts(tmp_path, clean, capsys):
    path = write(tmp_path, clean)
    assert cli.main(["verify", str(path), "--json"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["ok"] is True and verdict["rolls"] == 69 and verdict["dice_steps"] == 44
    assert verdict["revealed"] == [{"by": "server", "nonces_from": "Ares", "dice_steps": 44}]
    assert verdict["problem"] is None
    broken = json.loads(json.dumps(clean))
    broken["actions"][MISSILES]["fair"]["reveal"] = "ab" * 32
    path = write(tmp_path, broken, "broken.json")
    assert cli.main(["verify", str(path), "--json"]) == 2
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["ok"] is False
    assert verdict["problem"]["step"] == MISSILES + 1
    assert "does not hash" in verdict["problem"]["reason"]


def test_a_one_screen_save_replays_from_its_seed_and_says_so(tmp_path, capsys):
    game = play_turns(Game.new(load_map(builtin_map(RULES)), 5), turns=1)
    path = tmp_path / "one-screen.json"
    save_game(game, path)
    rolls = sum(len(step.rolls) for step in game.steps)
    assert cli.main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        f"this game was played on one screen: its {rolls} rolls replay exactly from its seed (5)"
    )
    assert "no second player supplied nonces" in out


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("not json", "expected JSON"),
        ('{"format": "tactical-map"}', "format: expected 'tactical-save'"),
    ],
)
def test_a_bad_file_is_one_line_and_exit_2(tmp_path, capsys, content, expected):
    path = tmp_path / "bad.json"
    path.write_text(content)
    assert cli.main(["verify", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and expected in err and "Traceback" not in err


def test_a_missing_file_is_one_line_and_exit_2(tmp_path, capsys):
    assert cli.main(["verify", str(tmp_path / "nowhere.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such file" in err
