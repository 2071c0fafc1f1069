"""`tactical check` (docs/architecture.md "Command line"): fixed JSON keys, hand-computed values."""

from __future__ import annotations

import json
import resource
import subprocess
import sys

import pytest

from tactical.cli import main
from tactical.io.paths import builtin_map, default_map_path

PAIR_KEYS = {
    "from",
    "to",
    "centre_distance",
    "edge_distance",
    "bearing",
    "centre_arc",
    "arcs",
    "los",
    "blocked_by",
    "range_band",
}

SMALL_MAP = """
rules = "dystopian-wars"
[board]
width = 48
height = 48

[[terrain]]
id = "fog"
kind = "obstructing"
height = "large"
polygon = [[8, 19], [12, 19], [12, 21], [8, 21]]

[[terrain]]
id = "reef"
kind = "soft"
height = "tiny"
polygon = [[30, 20], [32, 20], [32, 22]]

[[unit]]
id = "a"
side = "A"
x = 10
y = 10
heading = 0
base = { shape = "rect", width = 2, length = 4 }
[unit.stats]
weapons = [{ name = "Guns", kind = "gunnery", arc = "fore" }]

[[unit]]
id = "b"
side = "B"
x = 10
y = 30
heading = 180
base = { shape = "circle", diameter = 2 }

[[unit]]
id = "c"
side = "B"
x = 30
y = 10
heading = 0
base = { shape = "circle", diameter = 2 }
"""


@pytest.fixture
def small_map(tmp_path):
    path = tmp_path / "small.toml"
    path.write_text(SMALL_MAP)
    return path


def run_json(capsys, *args):
    code = main(["check", *map(str, args), "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


def test_json_keys_are_the_contract(capsys, small_map):
    result = run_json(capsys, small_map)
    assert result["rules"] == "dystopian-wars"
    assert len(result["pairs"]) == 6  # every ordered pair of three units
    for pair in result["pairs"]:
        assert set(pair) >= PAIR_KEYS


def test_hand_computed_pair(capsys, small_map):
    (pair,) = run_json(capsys, small_map, "--unit", "a", "--target", "b")["pairs"]
    assert pair["from"] == "a" and pair["to"] == "b"
    assert pair["centre_distance"] == pytest.approx(20.0)
    assert pair["edge_distance"] == pytest.approx(20.0 - 2.0 - 1.0)
    assert pair["bearing"] == pytest.approx(0.0)
    assert pair["centre_arc"] == "fore"
    assert pair["arcs"] == ["fore"]
    assert pair["los"] is False
    assert pair["blocked_by"] == ["fog"]
    # DW measures from the firer's centre to the nearest point of the target: 19" -> RB3
    assert pair["range_band"] == "RB3"


def test_target_abeam_is_starboard_and_out_of_a_fore_arc(capsys, small_map):
    (pair,) = run_json(capsys, small_map, "--unit", "a", "--target", "c")["pairs"]
    assert pair["bearing"] == pytest.approx(90.0)
    assert pair["centre_arc"] == "starboard"
    assert pair["arcs"] == []
    assert pair["los"] is True and pair["blocked_by"] == []
    assert pair["centre_distance"] == pytest.approx(20.0)
    assert pair["edge_distance"] == pytest.approx(20.0 - 1.0 - 1.0)


def test_soft_terrain_does_not_block(capsys, small_map):
    (pair,) = run_json(capsys, small_map, "--unit", "c", "--target", "b")["pairs"]
    assert pair["los"] is True


def test_unit_filter_lists_its_row(capsys, small_map):
    pairs = run_json(capsys, small_map, "--unit", "b")["pairs"]
    assert [(p["from"], p["to"]) for p in pairs] == [("b", "a"), ("b", "c")]


def test_text_output_names_every_pair(capsys, small_map):
    """Units and terrain by the names a player reads: unnamed here, a unit by its id and
    the fog by its kind in words ("Obstructing terrain"), never the id "fog"."""
    assert main(["check", str(small_map)]) == 0
    text = capsys.readouterr().out
    assert "a → b" in text and "blocked by Obstructing terrain" in text
    assert "fog" not in text


def test_text_output_reads_units_and_terrain_by_name(capsys):
    assert main(["check", str(builtin_map("heavy-combat")), "--unit", "enterprise"]) == 0
    assert "USS Enterprise (Fed CA) → IKS Kronos (Klingon HC): centre 32.00" in (
        capsys.readouterr().out
    )


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--unit", "nobody"], "unknown unit 'nobody'"),
        (["--target", "nobody"], "unknown unit 'nobody'"),
        (["--unit", "a", "--target", "a"], "itself"),
    ],
)
def test_user_errors_exit_2_with_one_line(capsys, small_map, args, words):
    assert main(["check", str(small_map), *args]) == 2
    err = capsys.readouterr().err
    assert words in err
    assert err.count("\n") == 1


def test_missing_map_exits_2(capsys, tmp_path):
    assert main(["check", str(tmp_path / "none.toml")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_default_map_check_is_quick_as_a_process():
    """Budget: `tactical check` of the default map <= 0.5 s quiet. Held on the child's CPU
    time (user + system, from the rusage of waited-for children), which a loaded machine
    does not inflate the way it inflates wall time; 1.5 s leaves CI its slack, and still
    fails a check that does real work (a 1,000-ship table costs several seconds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = subprocess.run(
        [sys.executable, "-m", "tactical", "check", str(default_map_path()), "--json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert result.returncode == 0, result.stderr
    assert len(json.loads(result.stdout)["pairs"]) == 8 * 7
    assert 0.0 < cpu < 1.5


def test_check_does_not_import_pygame():
    """Answering questions needs no renderer: the model layers never import pygame, and the
    command line loads the ui only for the commands that draw."""
    code = (
        "import sys; from tactical.cli import main; "
        f"main(['check', {str(default_map_path())!r}, '--json']); "
        "print(sorted(m for m in sys.modules if m.startswith('pygame')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip().splitlines()[-1] == "[]"


def test_a_band_named_by_a_bare_number_reads_as_a_band(capsys):
    """Heavy Combat's bands are 1, 2, 3 (T001.2): 'range 32.00" = band 3', not '= 3'."""
    assert main(["check", str(builtin_map("heavy-combat")), "--unit", "enterprise"]) == 0
    assert 'range 32.00" = band 3;' in capsys.readouterr().out
