"""Panning by whole pixels slides the cached pictures and draws only what is uncovered
(smooth on big tables): the frame is the one a fresh renderer draws at the new place, but for the
shading of a few antialiased edge pixels (sub-pixel rounding of shapes cut at the strip)
and the window's outermost pixels."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import numpy as np
import pygame
import pytest

from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.rules import registry
from tactical.ui.camera import Camera, Margins
from tactical.ui.scene import SceneRenderer

SIZE = (900, 560)


@pytest.fixture(scope="module")
def table():
    pygame.display.init()
    pygame.font.init()
    state = load_map(builtin_map("stress-200"))
    camera = Camera.fit(state.board.bounds, SIZE, Margins(30, 30, 30, 30)).zoomed(1.7, (450, 280))
    return state, registry.get(state.rules), camera


def _pixels(surface: pygame.Surface) -> np.ndarray:
    return pygame.surfarray.array3d(surface)


def _fresh_frame(state, system, camera, selected) -> pygame.Surface:
    """The frame a fresh renderer draws at `camera` once it has drawn a frame at that scale
    (with its unit sprites: the first frame at a scale draws the units without them)."""
    renderer = SceneRenderer()
    renderer.draw(pygame.Surface(SIZE), state, camera, system)
    fresh = pygame.Surface(SIZE)
    renderer.draw(fresh, state, camera, system, selected)
    return fresh


def test_the_first_frame_at_a_scale_draws_the_units_where_their_sprites_go(table):
    """Units drawn without sprites (a scale seen for the first time) sit on the pixels their
    sprites cover in later frames: only antialiased edges are shaded a little differently
    (blended onto the table rather than onto a transparent sprite)."""
    state, system, camera = table
    selected = state.units[7].id
    first = pygame.Surface(SIZE)
    SceneRenderer().draw(first, state, camera, system, selected)
    later = _fresh_frame(state, system, camera, selected)
    difference = np.abs(_pixels(first).astype(int) - _pixels(later).astype(int)).max(axis=2)
    assert (difference > 0).sum() > 0  # drawn differently: not the same picture reused
    assert (difference > 64).sum() <= 40, np.argwhere(difference > 64)[:10]


@pytest.mark.parametrize("shift", [(37, 0), (0, -23), (-41, 19)])
def test_a_panned_frame_is_the_fresh_frame_at_the_new_place(table, shift):
    """Static layer (terrain hatching anchored to the table), the selection's arcs, rings and
    sight lines, units and labels: the fresh renderer's picture, all but at most 0.5% of the
    pixels equal, and those a shade off except a few dozen."""
    state, system, camera = table
    selected = state.units[7].id
    renderer = SceneRenderer()
    target = pygame.Surface(SIZE)
    renderer.draw(target, state, camera, system, selected)
    panned = camera.panned(*shift)
    renderer.draw(target, state, panned, system, selected)
    fresh = _fresh_frame(state, system, panned, selected)
    difference = np.abs(_pixels(target).astype(int) - _pixels(fresh).astype(int)).max(axis=2)
    # shapes cut by the window's edge shade its outermost pixels differently: left out
    difference = difference[3:-3, 3:-3]
    assert (difference > 0).sum() <= 0.005 * SIZE[0] * SIZE[1]
    assert (difference > 64).sum() <= 40, np.argwhere(difference > 64)[:10]


def test_a_fractional_pan_or_a_zoom_draws_afresh_and_going_back_finds_the_picture(table):
    """A new scale or a fraction of a pixel: drawn whole, the fresh renderer's picture; back
    at a camera of the last few, its picture is reused (STATICS_KEPT)."""
    state, system, camera = table
    renderer = SceneRenderer()
    first = renderer.static_layer(state, camera, system, SIZE)
    for moved in (camera.panned(10.5, 0), camera.zoomed(1.2, (100, 100))):
        fresh = SceneRenderer().static_layer(state, moved, system, SIZE)
        assert (_pixels(renderer.static_layer(state, moved, system, SIZE)) == _pixels(fresh)).all()
    assert renderer.static_layer(state, camera, system, SIZE) is first
    for step in range(1, 6):  # more cameras than are kept: the first is drawn again
        renderer.static_layer(state, camera.zoomed(1 + step / 10, (100, 100)), system, SIZE)
    again = renderer.static_layer(state, camera, system, SIZE)
    assert again is not first and (_pixels(again) == _pixels(first)).all()


def test_labels_from_the_layout_are_where_draw_units_puts_them():
    """On a table whose units are all in view, the cached label layout draws the labels
    exactly where `draw_units` does (the frame equals the static layer plus draw_units, given
    the table and its terrain's names)."""
    from tactical.ui.layers import UnitSprites, draw_units, terrain_label

    state = load_map(builtin_map("dystopian-wars"))
    system = registry.get(state.rules)
    camera = Camera.fit(state.board.bounds, SIZE, Margins(30, 30, 30, 30))
    renderer = SceneRenderer()
    target = pygame.Surface(SIZE)
    renderer.draw(target, state, camera, system)
    expected = renderer.static_layer(state, camera, system, SIZE).copy()
    names = state.shown_terrain_names
    named = [
        rect
        for piece in state.terrain
        for _, rect in terrain_label(camera, piece, names[piece.id], renderer.fonts)
    ]
    placed = draw_units(
        expected,
        camera,
        renderer.unit_shapes(state),
        renderer.fonts,
        sprites=UnitSprites(),
        table=state.board.bounds,
        avoid=named,
    )
    assert len(placed) >= 10
    assert (_pixels(target) == _pixels(expected)).all()
