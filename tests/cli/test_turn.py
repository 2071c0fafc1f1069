"""`tactical turn GAME [--side S] [--out FILE] [--no-window]`: a game by file from the shell.
What it prints, what it writes (the game's own file and the side's secret, nothing else),
and bad input: one line, exit 2, nothing written."""

from __future__ import annotations

import json
import os
import stat

import pytest

import tactical.cli as cli


def files(folder) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def start(folder, *more: str) -> list[str]:
    return ["turn", "heavy-combat", "--out", str(folder / "game.json"), "--no-window", *more]


def one_line(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_a_new_game_writes_its_file_and_the_sides_secret_only(tmp_path, capsys):
    assert cli.main(start(tmp_path, "--seed", "4")) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Federation published the head of its dice chain")
    assert out[-1] == (
        f"Federation's go: play it with `tactical turn {tmp_path / 'game.json'} --side Federation`"
    )
    assert sorted(files(tmp_path)) == ["game.json", "game.json.Federation.secret"]
    secret = tmp_path / "game.json.Federation.secret"
    assert stat.S_IMODE(os.stat(secret).st_mode) == 0o600
    document = json.loads((tmp_path / "game.json").read_text())
    assert document["fair"]["players"] == ["Federation", "Klingon"]
    assert [c["party"] for c in document["fair"]["commitments"]] == ["Federation"]
    assert document["seed"] == 4


def test_the_other_side_is_found_and_told_whose_go_it_is(tmp_path, capsys):
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    assert cli.main(start(one)) == 0
    (two / "game.json").write_bytes((one / "game.json").read_bytes())
    capsys.readouterr()
    assert cli.main(["turn", str(two / "game.json"), "--no-window"]) == 0  # no --side
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "Klingon published the head of its dice chain: the values its rolls will reveal are "
        "fixed from now on, and only Klingon knows them",
        "Federation's go: send game.json to Federation",
    ]
    assert sorted(files(two)) == ["game.json", "game.json.Klingon.secret"]


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        (["--side", "Romulan"], "--side 'Romulan': this game's sides are Federation, Klingon"),
        (["--seed", "-1"], "--seed: a whole number >= 0"),
    ],
)
def test_bad_options_write_nothing(tmp_path, capsys, extra, expected):
    assert cli.main(start(tmp_path, *extra)) == 2
    assert expected in one_line(capsys)
    assert files(tmp_path) == {}


def test_a_missing_file_writes_nothing(tmp_path, capsys):
    assert cli.main(["turn", str(tmp_path / "game.json"), "--no-window"]) == 2
    assert "not found" in one_line(capsys)
    assert files(tmp_path) == {}


def test_a_new_game_never_writes_over_a_file(tmp_path, capsys):
    (tmp_path / "game.json").write_text("my notes")
    assert cli.main(start(tmp_path)) == 2
    assert "already exists" in one_line(capsys)
    assert files(tmp_path) == {"game.json": b"my notes"}


def test_out_never_writes_over_another_game(tmp_path, capsys):
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    assert cli.main(start(one, "--seed", "1")) == 0
    assert cli.main(start(two, "--seed", "2")) == 0
    before = files(two)
    capsys.readouterr()
    line = ["turn", str(one / "game.json"), "--out", str(two / "game.json"), "--no-window"]
    assert cli.main([*line, "--side", "Klingon"]) == 2
    assert "does not hold an earlier point of this game" in one_line(capsys)
    assert files(two) == before


def test_a_side_that_played_needs_its_secret(tmp_path, capsys):
    assert cli.main(start(tmp_path)) == 0
    (tmp_path / "game.json.Federation.secret").unlink()
    before = files(tmp_path)
    capsys.readouterr()
    line = ["turn", str(tmp_path / "game.json"), "--side", "Federation", "--no-window"]
    assert cli.main(line) == 2
    assert "its secret file" in one_line(capsys)
    assert files(tmp_path) == before


def test_a_file_edited_by_hand_is_refused_and_left_alone(tmp_path, capsys):
    assert cli.main(start(tmp_path)) == 0
    path = tmp_path / "game.json"
    document = json.loads(path.read_text())
    document["fair"]["commitments"][0]["head"] = "ab" * 32
    path.write_text(json.dumps(document))
    before = files(tmp_path)
    capsys.readouterr()
    line = ["turn", str(path), "--side", "Federation", "--no-window"]
    assert cli.main(line) == 2
    assert "the head of Federation's dice chain in this file is not the one" in one_line(capsys)
    assert files(tmp_path) == before
