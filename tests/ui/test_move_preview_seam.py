"""The move preview's arcs and range rings at the path's end are described once by the
drawing seam (`scenes.fire_arcs` unfilled, `scenes.range_rings`) and drawn by `PygameCanvas`:
the same pixels as plain one-pixel pygame lines of the same polylines."""

from __future__ import annotations

import pygame
import pytest

from tactical.drawing import primitives as ink
from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.present.selection import selection_view
from tactical.rules import registry
from tactical.ui.camera import Camera, Margins
from tactical.ui.draw import PygameCanvas
from tactical.ui.move_preview import RING_COLOUR, draw_end_view, end_view_lines, end_view_scene
from tactical.ui.palette import arc_tint

SIZE = (640, 400)
BACKDROP = (30, 40, 60)


@pytest.fixture(scope="module", params=["dystopian-wars", "sw-d6-capital"])
def table(request):
    state = load_map(builtin_map(f"{request.param}.toml"))
    system = registry.get(state.rules)
    view = selection_view(state, system, state.units[0].id, sight_lines=False)
    camera = Camera.fit(state.board.bounds, SIZE, Margins(20, 20, 20, 20))
    return state, view, camera


def _drawn(camera, view, board) -> pygame.Surface:
    surface = pygame.Surface(SIZE)
    surface.fill(BACKDROP)
    draw_end_view(surface, camera, view, board)
    return surface


def _plain_lines(camera, view, board) -> pygame.Surface:
    """The seam's own canvas drawing the scene, clipped to the table (what the preview's
    kept screen lines must give, pixel for pixel)."""
    surface = pygame.Surface(SIZE)
    surface.fill(BACKDROP)
    surface.set_clip(pygame.Rect(camera.screen_rect(board.bounds)))
    PygameCanvas(surface, camera).draw(end_view_scene(view, board))
    return surface


def test_end_view_is_the_seams_arc_lines_then_rings(table):
    state, view, _ = table
    scene = end_view_scene(view, state.board)
    lines = [p for p in scene if isinstance(p, ink.Line)]
    rings = [p for p in scene if isinstance(p, ink.Ring)]
    assert len(lines) == len(view.arcs) and len(rings) == len(view.rings) > 0
    assert scene == lines + rings  # the rings over the arc lines
    assert [p.style.colour for p in lines] == [arc_tint(k)[:3] for k in range(len(lines))]
    assert {p.style.colour for p in rings} == {RING_COLOUR}
    # opaque and plain: they are drawn every frame
    assert all(p.style.alpha == 255 and not p.style.smooth for p in scene)
    assert end_view_scene(view, state.board) is scene  # described once per view


def test_end_view_pixels_are_the_plain_pygame_lines(table):
    state, view, camera = table
    for shown in (camera, camera.zoomed(2.3, (300.0, 180.0)).panned(13.4, -7.7)):
        drawn = _drawn(shown, view, state.board)
        expected = _plain_lines(shown, view, state.board)
        assert pygame.image.tobytes(drawn, "RGB") == pygame.image.tobytes(expected, "RGB")
        colours = {colour for colour, _ in end_view_lines(view, shown, state.board)}
        # and something was drawn: the lines' colours are on the picture
        seen = {
            tuple(drawn.get_at((x, y)))[:3]
            for x in range(0, SIZE[0], 2)
            for y in range(0, SIZE[1], 2)
        }
        assert colours & seen and RING_COLOUR in seen
