"""Small inputs that asked for unbounded work are refused in one line: a number of 400
digits, Attack Dice and die codes past any real card, phaser power past any roll, a
catalogue that is a device or a pipe, an 8,000-character name, a 3,000-level value in
the quick entry line, a 5,000-character output path, escape sequences in a map's names,
and a threat map of a table with thousands of units."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tactical.cli import main
from tactical.dice import DieCode
from tactical.errors import UserError
from tactical.io import MapError, loads_map
from tactical.io.catalogue import catalogue_for
from tactical.io.maps import load_map, read_unit, unit_table
from tactical.io.paths import builtin_map
from tactical.rules import registry
from tactical.rules.dystopian_wars.cards import parse_attack_dice
from tactical.session.quick_entry import parse_quick_entry

HUGE = "9" * 400


def _map(name: str) -> str:
    return builtin_map(name).read_text(encoding="utf-8")


def _refused(text: str) -> MapError:
    with pytest.raises(MapError) as caught:
        loads_map(text, "m.toml")
    return caught.value


# --------------------------------------------------------------------------- numbers


@pytest.mark.parametrize(
    ("name", "line"),
    [
        ("battlefleet-mars", "laser_strength = 4"),  # a stat with a range
        ("dystopian-wars", "width = 72"),  # the board (no range of its own before the check)
        ("dystopian-wars", "x = 30.0"),  # a position
        ("sw-d6-capital", "crew = 9000"),
    ],
)
@pytest.mark.parametrize("sign", ["", "-"])
def test_a_400_digit_number_in_a_map_is_refused_as_a_number(name, line, sign):
    """It raised OverflowError (a float cannot hold it) instead of naming the key."""
    text = _map(name)
    assert line in text
    key = line.split(" = ")[0]
    error = _refused(text.replace(line, f"{key} = {sign}{HUGE}", 1))
    assert key in str(error)


def test_a_400_digit_number_after_against_or_set_is_refused():
    from tactical.lab.variants import parse_assignment

    system = registry.get("dystopian-wars")
    for flag in ("--against", "--set"):
        with pytest.raises(UserError) as caught:
            parse_assignment(f"game_turns={HUGE}", system, flag)
        assert "game_turns" in str(caught.value) and "1 to 99" in str(caught.value)


# --------------------------------------------------------------------------- dice and counts


@pytest.mark.parametrize("dice", ["²-0-0-0", "4-٣-2-0", "1.5-1-1-1", "101-0-0-0", "9" * 150 + "-1"])
def test_attack_dice_that_are_no_plain_number_up_to_100_are_refused(dice):
    """'²' passed str.isdigit and then raised ValueError in int(); 2,000 AD took a minute."""
    text = _map("dystopian-wars").replace('attack_dice = "8-10-8-6"', f'attack_dice = "{dice}"')
    error = _refused(text)
    assert error.key == "unit[0].stats.weapons[0].attack_dice"
    assert "from 0 to 100" in str(error) and error.spec_id == "G.5"


def test_attack_dice_of_a_real_card_still_read():
    assert parse_attack_dice("8-10-8-6") == (8, 10, 8, 6)
    assert parse_attack_dice("4-/-2-") == (4, 0, 2, 0)
    assert parse_attack_dice("100-0-0-0") == (100, 0, 0, 0)
    text = _map("dystopian-wars").replace('attack_dice = "8-10-8-6"', 'attack_dice = "100-4-/-"')
    assert loads_map(text, "m.toml").units


@pytest.mark.parametrize("code", ["101D", "100D+3", "99999D", "9" * 150 + "D", "1D+99999"])
def test_a_die_code_past_100d_is_refused(code):
    with pytest.raises(UserError) as caught:
        DieCode.parse(code)
    assert caught.value.spec_id == "R004.1"
    text = _map("sw-d6-capital").replace('hull = "5D"', f'hull = "{code}"', 1)
    assert "at most 100D" in str(_refused(text))


def test_a_die_code_up_to_100d_still_reads():
    assert DieCode.parse("100D").dice == 100
    assert str(DieCode.parse("2D+2")) == "2D+2"


def test_a_missile_group_larger_than_one_launch_is_refused():
    """A salvo of 999 took 29 s of odds and 49 s of threat; one launch is at most 100."""
    text = _map("battlefleet-mars").replace("count = 9\n", "count = 101\n")
    error = _refused(text)
    assert error.key.endswith("stats.count") and error.spec_id == "R000.17"
    assert loads_map(_map("battlefleet-mars").replace("count = 9\n", "count = 100\n")).units


def test_phaser_power_past_the_roll_is_refused_at_once(capsys):
    """`odds --param power=N` took time in proportion to N (40 s for 100,000)."""
    map_path = str(builtin_map("heavy-combat"))
    started = time.perf_counter()
    code = main(["odds", map_path, "enterprise", "phasers", "kronos", "--param", "power=100000"])
    assert time.perf_counter() - started < 5
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    assert "at most 12 power points" in err and "(R001.4)" in err
    # the most a roll can give is still asked about, and quickly
    started = time.perf_counter()
    assert main(["odds", map_path, "enterprise", "phasers", "kronos", "--param", "power=12"]) == 0
    assert time.perf_counter() - started < 5


# --------------------------------------------------------------------------- files


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_a_catalogue_that_is_a_pipe_or_a_device_is_refused(tmp_path, kind):
    """A FIFO blocked for ever and /dev/zero was read until memory ran out."""
    if kind == "fifo":
        source = tmp_path / "pipe.toml"
        os.mkfifo(source)
    else:
        source = Path("/dev/zero")
        if not source.exists():
            pytest.skip("no /dev/zero")
    script = (
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_AS, (2 * 1024**3, 2 * 1024**3))\n"
        "from tactical.io.catalogue import load_catalogue\n"
        "from tactical.errors import UserError\n"
        "try:\n"
        f"    load_catalogue({str(source)!r})\n"
        "except UserError as error:\n"
        "    print(error)\n"
        "    sys.exit(2)\n"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
        )
    except subprocess.TimeoutExpired:
        pytest.fail("reading the catalogue never ended")
    assert done.returncode == 2, done.stderr[-500:]
    assert "a device, a pipe or a socket" in done.stdout


# --------------------------------------------------------------------------- names


def test_a_name_longer_than_80_characters_is_refused():
    """A ship renamed to 8,000 characters froze the play screen for 48 s."""
    text = _map("dystopian-wars")
    for line in ('name = "Ruler Class Battleship"', 'title = "Battle of the Dogger Bank'):
        key = line.split(" = ")[0]
        end = text.index("\n", text.index(line))
        long = text[: text.index(line)] + f'{key} = "{"x" * 8000}"' + text[end:]
        error = _refused(long)
        assert "at most 80 characters (this one has 8,000)" in str(error)
    weapon = text.replace('name = "Main turrets"', f'name = "{"x" * 81}"')
    assert "at most 80 characters" in str(_refused(weapon))
    assert loads_map(text.replace("Ruler Class Battleship", "R" * 80), "m.toml").units


def test_a_rename_to_8000_characters_is_refused_as_a_map_would():
    state = load_map(builtin_map("dystopian-wars"))
    system = registry.get(state.rules)
    table = {**unit_table(state.unit("ruler")), "name": "x" * 8000}
    with pytest.raises(MapError) as caught:
        read_unit(table, system, state.board, {}, "adjust", "unit ruler")
    assert "at most 80 characters" in str(caught.value)


def test_a_text_is_cut_to_fit_with_a_few_measures():
    """Cutting a name one character at a time measured it thousands of times."""
    from tactical.ui.fonts import cut_to_fit

    calls = []

    def measure(text: str) -> int:
        calls.append(text)
        return 7 * len(text)

    cut = cut_to_fit("x" * 8000, 200, measure)
    assert cut == "x" * 27 + "…"  # 28 characters of 7 pixels: 196 <= 200
    assert len(calls) <= 20
    assert cut_to_fit("short", 200, measure) == "short"
    assert cut_to_fit("xyz", 5, measure) == "…"


# --------------------------------------------------------------------------- quick entry


def test_a_value_nested_3000_deep_in_the_quick_entry_line_is_refused():
    """It raised RecursionError."""
    state = load_map(builtin_map("dystopian-wars"))
    catalogue = catalogue_for(state.rules)
    for depth in (3000, 40):
        value = "[" * depth + "]" * depth
        with pytest.raises(UserError) as caught:
            parse_quick_entry(f"set ruler points {value}", state, catalogue)
        assert "nested more than 32 deep" in str(caught.value)
    assert parse_quick_entry("set ruler points [[1], 2]", state, catalogue).summary


# --------------------------------------------------------------------------- output paths


@pytest.mark.parametrize(
    ("command", "suffix"),
    [
        (["render", "{map}", "-o", "{out}"], ".png"),
        (["print", "{map}", "-o", "{out}"], ".pdf"),
        (["card", "{map}", "ruler", "markgraf", "-o", "{out}"], ".png"),
        (["threat", "{map}", "--side", "A", "--png", "{out}"], ".png"),
    ],
)
@pytest.mark.parametrize("shape", ["name", "folders"])
def test_a_5000_character_output_path_is_one_message(tmp_path, capsys, command, suffix, shape):
    if shape == "name":
        out = tmp_path / ("a" * 5000 + suffix)
    else:
        out = Path(str(tmp_path / ("x/" * 2500)) + "f" + suffix)
    args = [
        part.format(map=builtin_map("dystopian-wars"), out=out) if "{" in part else part
        for part in command
    ]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "too long" in err.lower()
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------- the terminal


def test_escape_sequences_in_a_maps_names_never_reach_the_terminal(tmp_path, capsys):
    """A title or a name carrying ESC [2J (clear the screen) reached the terminal as is."""
    text = _map("dystopian-wars")
    text = text.replace(
        'title = "Battle of the Dogger Bank (Dystopian Wars 1.1)"',
        'title = "Dogger\\u001b[2J\\u001b]0;owned\\u0007 Bank\\u009b31m"',
    ).replace('name = "Ruler Class Battleship"', 'name = "Ruler\\u001b[31m Red\\r"')
    path = tmp_path / "escapes.toml"
    path.write_text(text, encoding="utf-8")
    assert main(["check", str(path), "--unit", "ruler"]) == 0
    assert main(["odds", str(path), "ruler", "Main turrets", "stralsund-1"]) == 0
    assert main(["check", str(path), "--unit", "nobody"]) == 2
    out, err = capsys.readouterr()
    for stream in (out, err):
        assert not any(ord(c) < 32 and c not in "\n\t" for c in stream)
        assert not any(0x7F <= ord(c) <= 0x9F for c in stream)
    assert "Dogger[2J]0;owned Bank31m" in out and "Ruler[31m Red" in out


# --------------------------------------------------------------------------- threat


def test_threat_on_a_table_of_thousands_of_units_is_refused_at_once(tmp_path, capsys):
    """19,600 ships ran past ten minutes."""
    lines = ['rules = "battlefleet-mars"', "[board]", "width = 120", "height = 120"]
    for k in range(1001):
        lines += [
            "[[unit]]",
            f'id = "u{k}"',
            f'side = "{"AB"[k % 2]}"',
            f"x = {2 + (k % 40) * 2.5}",
            f"y = {2 + (k // 40) * 2.5}",
            'base = { shape = "circle", diameter = 1 }',
            "[unit.stats]",
            "laser_strength = 3",
        ]
    path = tmp_path / "crowd.toml"
    path.write_text("\n".join(lines), encoding="utf-8")
    started = time.perf_counter()
    assert main(["threat", str(path), "--side", "A"]) == 2
    assert time.perf_counter() - started < 10
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "at most 1,000 units" in err and "1,001" in err
