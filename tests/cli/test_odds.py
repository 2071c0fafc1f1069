"""`tactical odds MAP ATTACKER WEAPON TARGET --json` on the Battlefleet Mars scenario."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from tactical.cli import main

ROOT = Path(__file__).resolve().parents[2]
MAP = str(ROOT / "maps" / "battlefleet-mars.toml")
KEYS = {"rules", "attacker", "weapon", "target", "params", "facts", "distributions"}


def _odds(capsys, *argv):
    assert main(["odds", MAP, *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _section(document, name):
    return next(s for s in document["distributions"] if s["name"] == name)


def test_laser_odds_json(capsys):
    document = _odds(capsys, "deimos-base", "laser", "ares-fighters")
    assert set(document) == KEYS
    assert (document["rules"], document["weapon"]) == ("battlefleet-mars", "laser")
    facts = document["facts"]
    assert facts["range"] == 7  # centres 7.07" apart, 1" range units, floor (GEO000.1)
    assert facts["needed"] == 5  # R000.5: 7 - 3 + 1
    assert facts["hit_probability"] == "1/2"
    result = _section(document, "result")
    assert result["spec_id"] == "T000.2"
    assert result["outcomes"][0] == {"result": "miss", "probability": "1/2", "percent": 50.0}
    assert sum(Fraction(row["probability"]) for row in result["outcomes"]) == 1
    destroyed = _section(document, "destroyed")
    assert {row["destroyed"]: row["probability"] for row in destroyed["outcomes"]} == {
        False: "4/5",
        True: "1/5",
    }


def test_missile_salvo_odds_json(capsys):
    document = _odds(capsys, "ares-missiles", "missiles", "deimos-base")
    assert document["params"] == {"missiles": 9, "ciws": True}
    assert document["facts"]["ciws_thresholds"] == [9, 8, 7, 6, 5, 4, 3, 2, 1]
    ciws = _section(document, "ciws_destroyed")
    assert ciws["outcomes"][0]["missiles"] == 1
    assert sum(Fraction(row["probability"]) for row in ciws["outcomes"]) == 1
    damage = _section(document, "survivor_damage")
    assert {row["result"] for row in damage["outcomes"]} == {"L1", "L2", "L3", "L4", "iL", "R"}


def test_declaration_parameters(capsys):
    fewer = _odds(capsys, "ares-missiles", "missiles", "deimos-base", "--missiles", "3")
    assert fewer["facts"]["missiles"] == 3
    unopposed = _odds(capsys, "ares-missiles", "missiles", "mars-catapult", "--no-ciws")
    assert unopposed["facts"]["ciws"] is False
    assert _section(unopposed, "ciws_destroyed")["outcomes"] == [
        {"missiles": 0, "probability": "1", "percent": 100.0}
    ]
    fighters = _odds(capsys, "ares-missiles", "missiles", "mars-fighters", "--missiles", "2")
    assert _section(fighters, "target_destroyed")["outcomes"][1] == {
        "destroyed": True,
        "probability": "9/25",
        "percent": 36.0,
    }


def test_text_output(capsys):
    assert main(["odds", MAP, "mars-catapult", "laser", "ares-cruiser"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        "Catapult Phobos attacks Ares cruiser Nemesis with laser "
        "(Battlefleet Mars: Tactical Game Changes)"
    )
    assert "  Laser strength: 4\n" in out and "  Hit probability: " in out
    assert "Result (T000.2):\n  Result     chance  exact\n  miss  " in out


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["mars-miner", "laser", "ares-miner"], "R000.6"),
        (["deimos-base", "phaser", "ares-miner"], "unknown weapon"),
        (["nobody", "laser", "ares-miner"], "unknown attacking unit"),
        (["deimos-base", "missiles", "ares-cruiser", "--missiles", "7"], "R000.17"),
        (["ares-missiles", "missiles", "mars-fighters", "--missiles", "0"], "R000.18"),
    ],
)
def test_bad_input_is_one_line_exit_2(capsys, argv, needle):
    before = Path(MAP).read_bytes()
    assert main(["odds", MAP, *argv]) == 2
    captured = capsys.readouterr()
    assert needle in captured.err
    assert len(captured.err.strip().splitlines()) == 1
    assert Path(MAP).read_bytes() == before


def test_rule_system_without_resolvers_says_so(capsys, tmp_path, monkeypatch):
    """A registered rule system with no combat resolvers (every shipped one has them now, so
    the test registers one) gets one line and exit 2, not a traceback."""
    from tactical.rules import registry
    from tactical.rules.base import RuleSystem

    bare = RuleSystem(id="no-combat", title="No combat", seed="999")
    assert not bare.has_combat
    monkeypatch.setitem(registry.KNOWN, "no-combat", "tests.not.imported")
    monkeypatch.setitem(registry._loaded, "no-combat", bare)
    other = tmp_path / "other.toml"
    other.write_text(
        'rules = "no-combat"\n[board]\nwidth = 24\nheight = 24\n'
        '[[unit]]\nid = "a"\nside = "A"\nx = 5\ny = 5\nbase = { shape = "circle", diameter = 1 }\n'
        '[[unit]]\nid = "b"\nside = "B"\nx = 9\ny = 5\nbase = { shape = "circle", diameter = 1 }\n'
    )
    assert main(["odds", str(other), "a", "gun", "b"]) == 2
    err = capsys.readouterr().err
    assert "no combat resolvers" in err and len(err.strip().splitlines()) == 1


def test_generic_declaration_parameters_reach_the_rule_system(capsys):
    """`--param KEY=VALUE` passes any declaration parameter through (here R003.36 batteries)."""
    from tactical.cli import main as cli_main
    from tactical.io import builtin_map

    path = str(builtin_map("cortex-space"))
    args = ["odds", path, "galactica", "railguns", "basestar", "--json"]
    assert cli_main([*args, "--param", "battery=2"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["params"]["battery"] == 2
    assert cli_main([*args, "--param", "battery"]) == 2
    assert "KEY=VALUE" in capsys.readouterr().err
