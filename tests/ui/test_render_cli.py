"""`tactical render` and the scene renderer: pixels at known table points."""

from __future__ import annotations

import pygame
import pytest

from tactical.cli import main
from tactical.io import loads_map
from tactical.rules import registry
from tactical.ui import palette
from tactical.ui.camera import Camera
from tactical.ui.scene import SceneRenderer

TABLE = """
rules = "dystopian-wars"
[board]
width = 48
height = 48

[[terrain]]
id = "peak"
kind = "obstructing"
height = "massive"
polygon = [[20, 18], [28, 18], [28, 22], [20, 22]]

[[terrain]]
id = "shoal"
kind = "soft"
height = "tiny"
polygon = [[36, 36], [44, 36], [44, 44], [36, 44]]

[[unit]]
id = "a"
side = "A"
x = 24
y = 8
heading = 0
base = { shape = "rect", width = 2, length = 4 }
[unit.stats]
weapons = [{ name = "Guns", kind = "gunnery", arc = "fore" }]

[[unit]]
id = "b"
side = "B"
x = 24
y = 32
heading = 180
base = { shape = "circle", diameter = 2 }

[[unit]]
id = "c"
side = "B"
x = 8
y = 40
heading = 90
base = { shape = "circle", diameter = 2 }
"""


def colour_distance(a, b) -> float:
    return sum((int(x) - int(y)) ** 2 for x, y in zip(a[:3], b[:3], strict=True)) ** 0.5


@pytest.fixture
def scene():
    pygame.font.init()
    state = loads_map(TABLE)
    system = registry.get(state.rules)
    surface = pygame.Surface((1000, 1000))
    camera = Camera.fit(state.board.bounds, surface.get_size())
    return state, system, surface, camera


def pixel(surface, camera, x, y):
    px, py = camera.to_screen(x, y)
    return surface.get_at((round(px), round(py)))


def test_units_are_drawn_in_their_side_colour(scene):
    state, system, surface, camera = scene
    SceneRenderer().draw(surface, state, camera, system)
    # the rear half of the base: the heading marker runs from the centre forward
    assert colour_distance(pixel(surface, camera, 24.6, 6.6), palette.SIDE_COLOURS["A"]) < 40
    assert colour_distance(pixel(surface, camera, 24.4, 31.6), palette.SIDE_COLOURS["B"]) < 40


def test_terrain_interiors_show_their_kind(scene):
    state, system, surface, camera = scene
    SceneRenderer(terrain_labels=False).draw(surface, state, camera, system)
    shoal = palette.TERRAIN_STYLES["soft"]
    assert colour_distance(pixel(surface, camera, 40, 40), shoal.fill) < 30
    sea = palette.BACKGROUNDS["sea"].table
    assert colour_distance(pixel(surface, camera, 10, 25), sea) < 30


def test_selected_unit_shows_blocked_and_clear_sight_lines(scene):
    state, system, surface, camera = scene
    view = SceneRenderer().draw(surface, state, camera, system, selected="a")
    lines = {line.target: line for line in view.sight_lines}
    assert lines["b"].clear is False and lines["b"].blocked_by == ("peak",)
    assert lines["c"].clear is True
    # a point on the line a -> b before the peak is red
    assert colour_distance(pixel(surface, camera, 24, 14), palette.LOS_BLOCKED) < 90
    # c is 35.8" away, beyond Range Band 4 (32"): its line is known but not drawn
    assert lines["b"].in_range and not lines["c"].in_range
    assert colour_distance(pixel(surface, camera, 16, 24), palette.LOS_CLEAR) > 90


def test_a_clear_sight_line_in_range_is_green(scene):
    """Lines are drawn to the units in range; a clear one is green half way."""
    _, system, surface, camera = scene
    near = loads_map(TABLE.replace("x = 8\ny = 40", "x = 8\ny = 30"))
    view = SceneRenderer().draw(surface, near, camera, system, selected="a")
    (line,) = [line for line in view.sight_lines if line.target == "c"]
    assert line.clear and line.in_range
    assert colour_distance(pixel(surface, camera, 16, 19), palette.LOS_CLEAR) < 90


def test_fore_arc_is_tinted_only_ahead(scene):
    state, system, surface, camera = scene
    plain = surface.copy()
    SceneRenderer(terrain_labels=False).draw(plain, state, camera, system)
    SceneRenderer(terrain_labels=False).draw(
        surface, state, camera, system, selected="a", sight_lines=False
    )
    ahead = (30, 14)  # bearing ~45° minus a little: inside the fore arc
    behind = (24, 3)  # dead astern
    assert pixel(surface, camera, *ahead) != pixel(plain, camera, *ahead)
    assert pixel(surface, camera, *behind) == pixel(plain, camera, *behind)


def test_render_command_writes_a_png(tmp_path):
    source = tmp_path / "t.toml"
    source.write_text(TABLE)
    out = tmp_path / "t.png"
    assert main(["render", str(source), "-o", str(out), "--unit", "a", "--size", "800x600"]) == 0
    image = pygame.image.load(str(out))
    assert image.get_size() == (800, 600)


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--unit", "nobody"], "nobody"),
        (["--size", "huge"], "WIDTHxHEIGHT"),
        (["-o", "{tmp}/missing/x.png"], "does not exist"),
        (["-o", "{tmp}/x.jpg"], ".png"),
    ],
)
def test_render_errors_are_one_line_exit_2(tmp_path, capsys, extra, words):
    source = tmp_path / "t.toml"
    source.write_text(TABLE)
    args = ["render", str(source)]
    if "-o" not in extra:
        args += ["-o", str(tmp_path / "out.png")]
    args += [e.replace("{tmp}", str(tmp_path)) for e in extra]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1
