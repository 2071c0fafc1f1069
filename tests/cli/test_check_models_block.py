"""`tactical check` names a model blocking a line of sight by the name a player reads
(R002.41 / A002.21): in its text and in its JSON (`blocked_by_models`)."""

from __future__ import annotations

import json

from tactical.cli import main

SCREENED = """
rules = "dystopian-wars"
[board]
width = 48
height = 48

[[unit]]
id = "a"
name = "Ruler Class Battleship"
side = "A"
x = 20
y = 10
base = { shape = "rect", width = 1, length = 3 }

[[unit]]
id = "screen"
name = "Stralsund Class Cruiser"
side = "B"
x = 20
y = 15
heading = 90
base = { shape = "rect", width = 1, length = 3 }

[[unit]]
id = "t"
name = "Markgraf Class Battleship"
side = "B"
x = 20
y = 20
base = { shape = "rect", width = 1, length = 3 }
"""


def test_R002_41_check_text_names_the_blocking_model(tmp_path, capsys):
    path = tmp_path / "screened.toml"
    path.write_text(SCREENED, encoding="utf-8")
    assert main(["check", str(path), "--unit", "a"]) == 0
    lines = capsys.readouterr().out.splitlines()
    (to_target,) = [line for line in lines if "→ Markgraf" in line]
    assert "LOS blocked by the model Stralsund Class Cruiser;" in to_target
    assert "screen" not in to_target
    (to_screen,) = [line for line in lines if "→ Stralsund" in line]
    assert "LOS clear" in to_screen


def test_R002_41_check_json_names_the_blocking_model_and_none_replays_the_old_reading(
    tmp_path, capsys
):
    path = tmp_path / "screened.toml"
    path.write_text(SCREENED, encoding="utf-8")
    assert main(["check", str(path), "--json"]) == 0  # every pair: the columns' JSON
    pairs = {(p["from"], p["to"]): p for p in json.loads(capsys.readouterr().out)["pairs"]}
    blocked = pairs[("a", "t")]
    assert blocked["los"] is False and blocked["blocked_by"] == []
    assert blocked["blocked_by_models"] == [{"name": "Stralsund Class Cruiser", "id": "screen"}]
    assert pairs[("a", "screen")]["blocked_by_models"] == [] and pairs[("a", "screen")]["los"]
    assert main(["check", str(path), "--unit", "a", "--target", "t", "--json"]) == 0
    (one,) = json.loads(capsys.readouterr().out)["pairs"]
    assert one["blocked_by_models"] == blocked["blocked_by_models"]
    old = tmp_path / "old.toml"
    old.write_text(SCREENED + '\n[options]\nmodels_block = "none"\n', encoding="utf-8")
    assert main(["check", str(old), "--json"]) == 0
    pairs = {(p["from"], p["to"]): p for p in json.loads(capsys.readouterr().out)["pairs"]}
    assert pairs[("a", "t")]["los"] is True and pairs[("a", "t")]["blocked_by_models"] == []
