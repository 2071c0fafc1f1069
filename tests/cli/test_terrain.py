"""`tactical terrain` (docs/architecture.md command-line contract, R002.9)."""

from __future__ import annotations

import json

import pytest

from tactical.cli import main
from tactical.io import load_map


def run_json(capsys, *argv: str) -> dict:
    assert main(["terrain", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_keys_and_rolls(capsys):
    data = run_json(capsys, "--seed", "7")
    assert {"seed", "board", "areas", "terrain"} <= set(data)
    assert data["seed"] == 7
    assert data["board"] == {"width": 72, "height": 48}
    assert [a["area"] for a in data["areas"]] == ["A1", "B1", "C1", "A2", "B2", "C2"]
    for area in data["areas"]:
        assert set(area["rolls"]) == {"A", "B"}
        placing = sum(1 for r in area["rolls"].values() if r >= 5)
        assert len(area["pieces"]) == placing
    ids = [p["id"] for p in data["terrain"]]
    assert sorted(ids) == sorted(i for a in data["areas"] for i in a["pieces"])


def test_same_seed_same_output(capsys):
    assert run_json(capsys, "--seed", "99") == run_json(capsys, "--seed", "99")


def test_writes_map_sheet_and_png(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    map_path, sheet, png = tmp_path / "t.toml", tmp_path / "t.md", tmp_path / "t.png"
    data = run_json(
        capsys,
        "--seed",
        "3",
        "--width",
        "48",
        "--height",
        "48",
        "-o",
        str(map_path),
        "--sheet",
        str(sheet),
        "--png",
        str(png),
        "--deployment",
        "bottom",
    )
    state = load_map(map_path)
    assert state.rules == "dystopian-wars"
    assert [t.id for t in state.terrain] == [p["id"] for p in data["terrain"]]
    for piece in state.terrain:
        _, bottom, _, top = piece.geometry.bounds
        assert bottom >= 8 - 1e-9 and top <= 40 + 1e-9  # out of both deployment zones
    assert "# Terrain placement sheet" in sheet.read_text()
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert data["written"] == [str(map_path), str(sheet), str(png)]


def test_text_summary(capsys):
    assert main(["terrain", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith('Terrain for a 72" x 48" table, seed 1')
    assert "A1: rolls A " in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--width", "0"], "--width 0"),
        (["--rules", "chess"], "unknown rule system 'chess'"),
        (["--seed", "-4"], "--seed -4"),
        (["--deployment", "north"], "invalid choice"),
    ],
)
def test_bad_input_exits_2(capsys, argv, words):
    assert main(["terrain", *argv]) == 2
    err = capsys.readouterr().err
    assert words in err
    assert err.count("\n") == 1
