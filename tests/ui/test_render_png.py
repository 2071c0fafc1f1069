"""`render_state` / `render_png` and `tactical render`: sizes, atomic writes, user errors."""

from __future__ import annotations

import os
import stat
import subprocess
import sys

import pygame
import pytest

from tactical.cli import main
from tactical.errors import UserError
from tactical.io import loads_map
from tactical.io.paths import default_map_path
from tactical.ui import palette
from tactical.ui.render import DEFAULT_WIDTH, render_png, render_state

TABLE = """
title = "Test table"
rules = "dystopian-wars"
[board]
width = 72
height = 48

[[terrain]]
id = "peak"
kind = "obstructing"
height = "large"
polygon = [[30, 20], [40, 20], [40, 28], [30, 28]]

[[unit]]
id = "a"
side = "A"
x = 35
y = 6
heading = 0
base = { shape = "rect", width = 2, length = 4 }

[[unit]]
id = "b"
side = "B"
x = 35
y = 40
heading = 180
base = { shape = "rect", width = 2, length = 4 }
"""


@pytest.fixture(scope="module")
def state():
    return loads_map(TABLE)


def test_default_picture_is_1600_wide_and_as_tall_as_the_table_needs(state):
    surface = render_state(state)
    width, height = surface.get_size()
    assert width == DEFAULT_WIDTH
    # a 3:2 table plus the header, tick bands and legend
    assert 1066 < height < 1066 + 200


def test_a_given_size_is_kept_and_the_table_letterboxed(state):
    surface = render_state(state, size=(800, 800))
    assert surface.get_size() == (800, 800)
    assert tuple(surface.get_at((400, 100)))[:3] == palette.SURROUND  # above the wide table
    assert tuple(surface.get_at((150, 400)))[:3] == palette.background("sea").table


def test_the_picture_shows_the_units_where_they_stand(state):
    surface = render_state(state, size=(1440, 1100))
    # find the table by its colour and check a unit's rear half is side A's colour
    found = [
        (x, y)
        for x in range(0, 1440, 4)
        for y in range(0, 1100, 4)
        if tuple(surface.get_at((x, y)))[:3] == palette.SIDE_COLOURS["A"]
    ]
    assert found
    xs = [p[0] for p in found]
    assert 600 < sum(xs) / len(xs) < 840  # x = 35 of 72: about the middle


def test_rendering_needs_no_display(tmp_path):
    """A fresh process renders without ever starting pygame's display."""
    script = (
        "import sys, pygame; from tactical.io.maps import load_map; "
        "from tactical.ui.render import render_png; "
        "render_png(load_map(sys.argv[1]), sys.argv[2], unit_id='ruler'); "
        "print(pygame.display.get_init())"
    )
    out = tmp_path / "t.png"
    result = subprocess.run(
        [sys.executable, "-c", script, str(default_map_path()), str(out)],
        capture_output=True,
        text=True,
        env={k: v for k, v in os.environ.items() if k != "SDL_VIDEODRIVER"},
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "False"
    assert out.is_file()


def test_render_png_writes_atomically_with_usual_permissions(tmp_path, state):
    out = tmp_path / "table.png"
    out.write_bytes(b"old picture")
    written = render_png(state, out, unit_id="a", size=(640, 480))
    assert written == out
    assert pygame.image.load(str(out)).get_size() == (640, 480)
    assert [p.name for p in tmp_path.iterdir()] == ["table.png"]  # no temp file left
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~umask


def test_a_failed_write_leaves_the_old_file_and_no_temp_file(tmp_path, state, monkeypatch):
    out = tmp_path / "table.png"
    out.write_bytes(b"old picture")

    def broken(surface, path, *namehint):
        raise pygame.error("disk full")

    monkeypatch.setattr(pygame.image, "save", broken)
    with pytest.raises(UserError, match="disk full"):
        render_png(state, out)
    assert out.read_bytes() == b"old picture"
    assert [p.name for p in tmp_path.iterdir()] == ["table.png"]


@pytest.mark.parametrize(
    ("name", "words"),
    [("out.jpg", ".png"), ("missing/out.png", "does not exist"), ("folder.png", "directory")],
)
def test_bad_output_paths_are_user_errors(tmp_path, state, name, words):
    (tmp_path / "folder.png").mkdir()
    with pytest.raises(UserError, match=words):
        render_png(state, tmp_path / name)


def test_an_unwritable_folder_is_a_user_error(tmp_path, state, monkeypatch):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    if os.geteuid() == 0:  # root writes anywhere: the folder refuses as the kernel would
        import tempfile

        def refused(*args, **kwargs):
            raise PermissionError(13, "Permission denied", str(locked))

        monkeypatch.setattr(tempfile, "mkstemp", refused)
    try:
        with pytest.raises(UserError, match="cannot write"):
            render_png(state, locked / "x.png")
    finally:
        locked.chmod(0o700)


@pytest.mark.parametrize("size", [(10, 10), (20000, 600), (800, 0)])
def test_picture_sizes_out_of_range_are_user_errors(state, size):
    with pytest.raises(UserError, match="out of range"):
        render_state(state, size=size)


def test_cli_renders_the_default_map_and_says_where(tmp_path, capsys):
    out = tmp_path / "default.png"
    assert main(["render", str(default_map_path()), "-o", str(out)]) == 0
    assert capsys.readouterr().out.strip() == f"wrote {out}"
    assert pygame.image.load(str(out)).get_width() == DEFAULT_WIDTH


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["{tmp}/nothing.toml", "-o", "{tmp}/x.png"], "not found"),
        (["{map}", "-o", "{tmp}/x.png", "--size", "10x10"], "out of range"),
        (["{map}", "-o", "{tmp}/x.png", "--size", "1920*1080"], "WIDTHxHEIGHT"),
        (["{map}"], "required"),
        (["{map}", "-o", "{tmp}/x.png", "--unit", "ghost"], "unknown unit 'ghost'"),
    ],
)
def test_cli_user_errors_are_one_line_and_exit_2(tmp_path, capsys, args, words):
    source = tmp_path / "t.toml"
    source.write_text(TABLE)
    argv = ["render"] + [a.format(tmp=tmp_path, map=source) for a in args]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert words in captured.err
    assert captured.err.count("\n") == 1 and captured.err.startswith("tactical: ")
    assert not (tmp_path / "x.png").exists()


def test_a_broken_map_is_one_line_naming_the_file(tmp_path, capsys):
    source = tmp_path / "broken.toml"
    source.write_text(TABLE.replace('kind = "obstructing"', 'kind = "lava"'))
    assert main(["render", str(source), "-o", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert "broken.toml" in err and err.count("\n") == 1


def test_the_console_script_prints_no_pygame_banner(tmp_path):
    out = tmp_path / "t.png"
    result = subprocess.run(
        [sys.executable, "-m", "tactical", "render", str(default_map_path()), "-o", str(out),
         "--size", "640x480"],
        capture_output=True,
        text=True,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy"},
        check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"wrote {out}\n" and result.stderr == ""
