"""`tactical roll EXPR [--seed N] [--odds] [--json]`: fixed JSON keys, exact odds, bad input."""

from __future__ import annotations

import json
from fractions import Fraction

from tactical.cli import main

ROLL_KEYS = {"expression", "normalised", "kind", "seed", "rolls", "constant", "total", "botch"}
ODDS_KEYS = {"expression", "normalised", "kind", "outcomes", "mean", "botch"}


def _json(capsys, *argv):
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_seeded_roll_is_repeatable_and_records_every_die(capsys):
    first = _json(capsys, "roll", "3d6+2", "--seed", "11", "--json")
    second = _json(capsys, "roll", "3d6+2", "--seed", "11", "--json")
    assert first == second
    assert set(first) == ROLL_KEYS
    assert first["kind"] == "plain" and first["seed"] == 11
    assert len(first["rolls"]) == 3
    assert set(first["rolls"][0]) == {"who", "what", "die", "faces", "result", "sign"}
    assert first["total"] == sum(r["result"] for r in first["rolls"]) + 2
    assert first["botch"] is None


def test_roll_of_every_notation(capsys):
    zero = _json(capsys, "roll", "1d10z", "--seed", "1", "--json")
    assert 0 <= zero["total"] <= 9 and zero["rolls"][0]["die"] == "d10z"
    code = _json(capsys, "roll", "2D+2+1D+2", "--seed", "1", "--json")
    assert code["normalised"] == "4D+1" and len(code["rolls"]) == 4 and code["constant"] == 1
    cortex = _json(capsys, "roll", "d12+d4", "--seed", "1", "--json")
    assert cortex["kind"] == "cortex" and isinstance(cortex["botch"], bool)


def test_unseeded_roll_reports_its_seed(capsys):
    assert main(["roll", "2d6"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2d6: ") and "(seed " in out


def test_exact_odds_json(capsys):
    document = _json(capsys, "roll", "2d6", "--odds", "--json")
    assert set(document) == ODDS_KEYS
    seven = next(row for row in document["outcomes"] if row["total"] == 7)
    assert seven == {"total": 7, "probability": "1/6", "percent": 16.6667}
    assert sum(Fraction(r["probability"]) for r in document["outcomes"]) == 1
    assert document["mean"] == "7"
    botch = _json(capsys, "roll", "d6+d6", "--odds", "--json")["botch"]
    assert botch == {"probability": "1/36", "percent": 2.7778}


def test_odds_text(capsys):
    assert main(["roll", "1d10z", "--odds"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("1d10z")
    assert len([line for line in lines if "10.0000%" in line]) == 10


def test_bad_expression_is_one_line_and_exit_2(capsys):
    for text in ("2q6", "1D-3", "5D+d6"):
        assert main(["roll", text]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert len(captured.err.strip().splitlines()) == 1
        assert captured.err.startswith("tactical: ")


def test_R003_2_roll_help_and_bracketed_step_dice(capsys):
    """`tactical roll --help` documents the step-dice notation; (d12+d2)-2step rolls a d10."""
    import pytest

    with pytest.raises(SystemExit):
        main(["roll", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "(d12+d2)-2step" in help_text and "d2-2step+d12" in help_text
    document = _json(capsys, "roll", "(d12+d2)-2step", "--seed", "3", "--json")
    assert document["normalised"] == "d10" and [r["faces"] for r in document["rolls"]] == [10]
    assert main(["roll", "d12+d2-2step"]) == 2
    assert "ambiguous" in capsys.readouterr().err
