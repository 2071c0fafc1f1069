"""`tactical move MAP UNIT PATH --json` (docs/architecture.md, GEO002.8, R002.30-35)."""

from __future__ import annotations

import json

import pytest

from tactical.cli import main
from tactical.io.paths import default_map_path

FIXED_KEYS = {"x", "y", "heading", "distance", "legal", "violations", "snaking", "collision"}

MAP = """
rules = "dystopian-wars"
[board]
width = 48
height = 48

[[terrain]]
id = "reef"
kind = "soft"
height = "tiny"
polygon = [[8, 20], [12, 20], [12, 22], [8, 22]]

[[unit]]
id = "hms"
side = "A"
x = 10
y = 10
heading = 0
base = { shape = "rect", width = 1.5, length = 4 }
[unit.stats]
move = 12
min_move = 2
generators = "kinetic"

[[unit]]
id = "target"
side = "B"
x = 30
y = 20
heading = 90
base = { shape = "rect", width = 1.5, length = 4 }
"""


@pytest.fixture
def map_file(tmp_path):
    path = tmp_path / "move.toml"
    path.write_text(MAP)
    return path


def run_json(capsys, *argv: str) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_straight_move_json(capsys, map_file):
    data = run_json(capsys, "move", str(map_file), "hms", "F3")
    assert set(data) >= FIXED_KEYS
    assert (data["x"], data["y"], data["heading"], data["distance"]) == (10.0, 13.0, 0.0, 3.0)
    assert data["legal"] is True
    assert data["violations"] == []
    assert data["snaking"] is False and data["treacherous_tests"] == []
    assert data["collision"] is None


def test_turn_about_the_side_centre(capsys, map_file):
    data = run_json(capsys, "move", str(map_file), "hms", "F2 S45")
    # pivot (10.75, 12) on the starboard side; the centre swings 45° about it
    assert data["x"] == pytest.approx(10.75 - 0.75 * 2**0.5 / 2, abs=1e-4)
    assert data["y"] == pytest.approx(12 + 0.75 * 2**0.5 / 2, abs=1e-4)
    assert data["heading"] == 45.0


def test_path_as_several_arguments(capsys, map_file):
    one = run_json(capsys, "move", str(map_file), "hms", "F2 P45 F1")
    many = run_json(capsys, "move", str(map_file), "hms", "F2", "P45", "F1")
    assert one == many


@pytest.mark.parametrize(
    ("path", "rule"),
    [("F2 P90", "GEO002.8"), ("F1 P45", "R002.30"), ("B2.5", "R002.31"), ("F13", "GEO002.8")],
)
def test_violations_carry_the_spec_id(capsys, map_file, path, rule):
    data = run_json(capsys, "move", str(map_file), "hms", path)
    assert data["legal"] is False
    assert [v["rule"] for v in data["violations"]] == [rule]
    assert data["violations"][0]["message"]


def test_snaking_listed(capsys, map_file):
    data = run_json(capsys, "move", str(map_file), "hms", "F2 P45 F0.5 S45")
    assert data["snaking"] is True
    assert data["treacherous_tests"] == [{"step": 3, "token": "S45", "rule": "R002.34"}]
    data = run_json(capsys, "move", str(map_file), "hms", "F2 P45 F1 S45")
    assert data["snaking"] is False


def test_collision_with_the_reef_stops_the_ship(capsys, map_file):
    data = run_json(capsys, "move", str(map_file), "hms", "F10")
    assert data["collision"]["kind"] == "terrain"
    assert data["collision"]["id"] == "reef"
    assert data["y"] == pytest.approx(18.0, abs=0.002)
    assert {"x", "y", "heading"} <= set(data["collision"])


def test_boost_option(capsys, map_file):
    data = run_json(capsys, "move", str(map_file), "hms", "F3 P45 F4", "--boost", "kinetic=2")
    assert [v["rule"] for v in data["violations"]] == ["R002.30"]


def test_readable_summary(capsys, map_file):
    assert main(["move", str(map_file), "hms", "F2 P45 F0.5 S45 F10"]) == 0
    out = capsys.readouterr().out
    assert "hms: F2 P45 F0.5 S45 F10" in out
    assert "Treacherous Terrain" in out
    assert "ends at" in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["ghost", "F1"], "no unit 'ghost'"),
        (["hms", "F1 Z9"], "'Z9' not understood"),
        (["hms", "F1", "--boost", "warp=3"], "kinetic or tesla"),
        (["hms", "F1", "--boost", "kinetic=9"], "1 to 6"),
    ],
)
def test_bad_input_exits_2_with_one_line_and_changes_nothing(capsys, map_file, argv, words):
    before = map_file.read_bytes()
    assert main(["move", str(map_file), *argv]) == 2
    err = capsys.readouterr().err
    assert words in err
    assert err.count("\n") == 1
    assert map_file.read_bytes() == before


def test_the_map_is_never_changed(capsys, map_file):
    before = map_file.read_bytes()
    run_json(capsys, "move", str(map_file), "hms", "F10")
    assert map_file.read_bytes() == before


def test_default_map_moves(capsys):
    data = run_json(capsys, "move", str(default_map_path()), "ruler", "F3 P45 F2")
    assert data["legal"] is True
    assert data["heading"] == 315.0


def test_the_summary_names_the_unit_and_what_it_hits_as_the_play_screen_does(capsys, tmp_path):
    """The text reads names, the JSON keeps ids: a named ship stopped by a named reef reads
    'HMS Dauntless: F10 ...' and 'stops: collides with Dogger reef'; unnamed, the reef
    reads by its kind in words ("Soft terrain"), never by its id."""
    named = MAP.replace('id = "reef"\n', 'id = "reef"\nname = "Dogger reef"\n').replace(
        'id = "hms"\n', 'id = "hms"\nname = "HMS Dauntless"\n'
    )
    path = tmp_path / "named.toml"
    path.write_text(named)
    assert main(["move", str(path), "hms", "F10"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("HMS Dauntless: F10 — ")
    assert "stops: collides with Dogger reef during " in out
    unnamed = tmp_path / "unnamed.toml"
    unnamed.write_text(MAP)
    assert main(["move", str(unnamed), "hms", "F10"]) == 0
    out = capsys.readouterr().out
    assert "stops: collides with Soft terrain during " in out and "reef" not in out
    assert run_json(capsys, "move", str(path), "hms", "F10")["collision"]["id"] == "reef"
