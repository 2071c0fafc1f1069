"""`tactical terrain --score MAP` and `--fair [--tries N]` (R002.9, R002.17)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from tactical.cli import main
from tactical.io import load_map, save_map
from tactical.io.paths import builtin_map
from tactical.model import Board
from tactical.threat.fairness import score_layout

SCORE_KEYS = {
    "grid",
    "fairness",
    "edge",
    "favours",
    "visibility",
    "lanes",
    "symmetry",
    "cover_difference",
    "sides",
}


def run_json(capsys, *argv: str) -> dict:
    assert main(["terrain", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def fails(capsys, *argv: str) -> str:
    """The command fails with exit 2 and one line on stderr, nothing on stdout."""
    assert main(["terrain", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err
    return lines[0]


def test_score_json_gives_every_component_per_side(capsys):
    data = run_json(capsys, "--score", "default")
    assert data["rules"] == "dystopian-wars"
    score = data["score"]
    assert set(score) == SCORE_KEYS
    assert [s["side"] for s in score["sides"]] == ["A", "B"]
    assert [s["edge"] for s in score["sides"]] == ["bottom", "top"]
    for side in score["sides"]:
        assert set(side) == {"side", "edge", "visibility", "cover", "lanes"}
        assert 0 <= side["visibility"] <= 1 and 0 <= side["cover"] <= 1
    assert 0 <= score["fairness"] <= 1
    expected = score_layout(load_map(builtin_map("default")))
    assert score["fairness"] == round(expected.fairness, 4)
    assert score["cover_difference"] == round(expected.cover_difference, 4)


def test_score_text_names_each_part_in_words(capsys):
    assert main(["terrain", "--score", "default"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Channel skirmish: fairness ")
    for words in ("Cover from the enemy's first turn", "Visibility", "Lanes", "Symmetry"):
        assert words in out


def test_score_follows_deployment_and_grid(capsys):
    bottom = run_json(capsys, "--score", "default")["score"]
    top = run_json(capsys, "--score", "default", "--deployment", "top")["score"]
    assert [s["edge"] for s in top["sides"]] == ["top", "bottom"]
    assert top["sides"][0]["cover"] != bottom["sides"][0]["cover"]
    fine = run_json(capsys, "--score", "default", "--grid", "1")["score"]
    assert fine["grid"] == 1.0 and fine["visibility"] != bottom["visibility"]


def test_fair_keeps_the_fairest_and_its_seed_remakes_it(capsys, tmp_path):
    sheet = tmp_path / "fair.md"
    data = run_json(capsys, "--fair", "--tries", "6", "--seed", "10", "--sheet", str(sheet))
    tries = data["tries"]
    assert [t["seed"] for t in tries] == list(range(10, 16))
    assert data["seed"] in {t["seed"] for t in tries}
    assert data["score"]["fairness"] == max(
        t["fairness"] for t in tries if t["seed"] == data["seed"]
    )
    again = run_json(capsys, "--seed", str(data["seed"]))
    assert again["terrain"] == data["terrain"]  # the seed printed makes the layout again
    assert run_json(capsys, "--fair", "--tries", "6", "--seed", "10")["seed"] == data["seed"]
    text = sheet.read_text()
    assert "## Fairness" in text and f"seed {data['seed']}" in text
    assert "Cover from the enemy's first turn" in text


def test_fair_text_prints_the_seed_score_and_the_command(capsys):
    assert main(["terrain", "--fair", "--tries", "3", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "Fairest of 3 layouts" in out and "fairness " in out
    assert "make it again: tactical terrain --seed " in out


def test_fair_scores_against_the_fleets_asked(capsys, tmp_path):
    state = load_map(builtin_map("default"))
    fleets = tmp_path / "fleets.toml"
    save_map(replace(state, terrain=()), fleets)
    data = run_json(capsys, "--fair", "--tries", "2", "--seed", "1", "--fleets", str(fleets))
    assert data["score"]["sides"][0]["side"] == "A"
    line = fails(capsys, "--fair", "--fleets", "sw-d6-capital")
    assert "sw-d6-capital map" in line


def test_no_deployment_zones_is_one_message(capsys, tmp_path):
    state = load_map(builtin_map("default"))
    one_side = tmp_path / "one.toml"
    save_map(replace(state, units=tuple(u for u in state.units if u.side == "A")), one_side)
    line = fails(capsys, "--score", str(one_side))
    assert "no deployment zones" in line and "R002.17" in line


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (("--score", "default", "--grid", "30"), 'too small for a 30" grid'),
        (("--score", "default", "--grid", "0"), "greater than 0"),
        (("--fair", "--tries", "0"), "--tries 0"),
        (("--fair", "--score", "default"), "one of the two"),
        (("--score", "no-such-map"), "not found"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, argv, words):
    assert words in fails(capsys, *argv)


def test_a_table_too_small_for_two_zones(capsys, tmp_path):
    state = load_map(builtin_map("default"))
    narrow = tmp_path / "narrow.toml"
    units = tuple(u.moved_to(replace(u.pose, y=min(u.pose.y, 10.0))) for u in state.units)
    save_map(replace(state, board=Board(72, 14), units=units, terrain=()), narrow)
    line = fails(capsys, "--score", str(narrow))
    assert "too small for two" in line and "R002.17" in line
