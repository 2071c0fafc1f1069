"""SceneRenderer caches: the static layer per camera, the selection per map, sprites per zoom."""

from __future__ import annotations

import pygame
import pytest

from tactical.geometry.shapes import Pose
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

[[unit]]
id = "a"
side = "A"
x = 24
y = 8
heading = 0
base = { shape = "rect", width = 2, length = 4 }

[[unit]]
id = "b"
side = "B"
x = 24
y = 32
heading = 180
base = { shape = "circle", diameter = 2 }
"""


@pytest.fixture
def setup():
    state = loads_map(TABLE)
    system = registry.get(state.rules)
    camera = Camera.fit(state.board.bounds, (600, 600))
    return state, system, camera, pygame.Surface((600, 600)), SceneRenderer()


def test_the_static_layer_is_drawn_once_per_camera(setup):
    state, system, camera, _, renderer = setup
    first = renderer.static_layer(state, camera, system, (600, 600))
    assert renderer.static_layer(state, camera, system, (600, 600)) is first
    moved = renderer.static_layer(state, camera.panned(10, 0), system, (600, 600))
    assert moved is not first


def test_moving_a_unit_keeps_the_static_layer_and_changes_the_frame(setup):
    state, system, camera, target, renderer = setup
    renderer.draw(target, state, camera, system)
    static = renderer.static_layer(state, camera, system, (600, 600))
    px, py = camera.to_screen(40, 40)
    assert tuple(target.get_at((round(px), round(py))))[:3] != palette.SIDE_COLOURS["A"]
    unit = state.unit("a")
    moved = state.replace_unit(unit.moved_to(Pose(40, 40, 0)))
    renderer.draw(target, moved, camera, system)
    assert renderer.static_layer(moved, camera, system, (600, 600)) is static
    assert tuple(target.get_at((round(px), round(py) + 5)))[:3] == palette.SIDE_COLOURS["A"]


def test_the_selection_is_recomputed_only_when_the_map_or_selection_changes(setup):
    state, system, camera, target, renderer = setup
    view = renderer.draw(target, state, camera, system, selected="a")
    assert renderer.draw(target, state, camera.panned(3, 0), system, selected="a") is view
    other = renderer.draw(target, state, camera, system, selected="b")
    assert other is not view and other.unit_id == "b"
    moved = state.replace_unit(state.unit("b").moved_to(Pose(10, 40, 180)))
    again = renderer.draw(target, moved, camera, system, selected="b")
    assert again is not other and again.sight_lines[0].end == (24.0, 8.0)


def test_the_selection_follows_the_static_layer_when_the_camera_moves(setup):
    """The arcs are drawn into a copy of the static layer: after a pan they move with it."""
    state, system, camera, target, renderer = setup
    renderer.draw(target, state, camera, system, selected="a", sight_lines=False)
    panned = camera.panned(40, 0)
    renderer.draw(target, state, panned, system, selected="a", sight_lines=False)
    fresh = pygame.Surface((600, 600))
    SceneRenderer().draw(fresh, state, panned, system, selected="a", sight_lines=False)
    for point in ((24, 20), (30, 14), (24, 3), (5, 5)):
        px, py = panned.to_screen(*point)
        spot = (round(px), round(py))
        assert target.get_at(spot) == fresh.get_at(spot)


def test_no_selection_draws_no_overlay(setup):
    state, system, camera, target, renderer = setup
    assert renderer.draw(target, state, camera, system) is None
    plain = renderer.static_layer(state, camera, system, (600, 600))
    px, py = camera.to_screen(24, 20)  # ahead of "a", where its arcs would be
    spot = (round(px) + 30, round(py) - 30)
    assert target.get_at(spot) == plain.get_at(spot)
