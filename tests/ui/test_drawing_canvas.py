"""The pygame backend of the drawing seam: a known set of primitives, checked by pixels."""

from __future__ import annotations

import numpy as np
import pygame
import shapely

from tactical.drawing.primitives import Arc, Hatch, Line, Polygon, Raster, Ring, Style, Text
from tactical.ui.camera import Camera
from tactical.ui.draw import PygameCanvas, dashes
from tactical.ui.fonts import shared_fonts

# 10 px an inch, the table's (0, 0) at the surface's bottom-left corner
CAMERA = Camera(10.0, (0.0, 100.0), (100, 100))


def _pixel(surface: pygame.Surface, x: float, y: float) -> tuple[int, int, int]:
    """The pixel at table point (x, y)."""
    px, py = CAMERA.to_screen(x, y)
    return tuple(surface.get_at((int(px), int(py))))[:3]


def test_the_pygame_canvas_draws_each_primitive_where_its_inches_go():
    surface = pygame.Surface((100, 100))
    rgba = np.zeros((2, 2, 4), dtype=np.uint8)
    rgba[0, 0] = (0, 0, 255, 255)  # the raster's top-left cell
    PygameCanvas(surface, CAMERA, fonts=shared_fonts()).draw(
        [
            Polygon(shapely.box(1, 1, 3, 3), Style(fill=(200, 0, 0))),
            Polygon(shapely.box(5, 1, 7, 3), Style(fill=(0, 200, 0), alpha=128)),
            Polygon(shapely.box(1, 5, 3, 7), Style(colour=(255, 255, 0), width=3)),
            Line.between((5, 5), (9, 5), Style(colour=(0, 255, 255), width=1)),
            Ring(shapely.Point(7, 8).buffer(1).exterior, 1.0, "", Style((255, 0, 255))),
            Arc((2.0, 8.5), 1.2, 45.0, 135.0, Style(fill=(255, 128, 0))),
            Hatch(shapely.box(7.5, 0.5, 9.5, 3.5), (0.0,), 5, Style(colour=(255, 255, 255))),
            Raster((0.0, 9.0, 1.0, 10.0), rgba),
            Text("W", (8.5, 9.5), 12, Style(colour=(255, 255, 255))),
        ]
    )
    assert _pixel(surface, 2, 2) == (200, 0, 0)  # the opaque fill
    assert _pixel(surface, 6, 2) == (0, 100, 0)  # the translucent one, over black
    assert _pixel(surface, 1, 6) == (255, 255, 0)  # the outline, 3 px wide
    assert _pixel(surface, 2, 6) == (0, 0, 0)  # an outline only: not filled
    assert _pixel(surface, 7, 5) == (0, 255, 255)
    assert _pixel(surface, 8, 8) == (255, 0, 255)  # the ring's east point
    assert _pixel(surface, 3, 8.5) == (255, 128, 0)  # the arc, right of its centre (90°)
    assert _pixel(surface, 1, 8.5) == (0, 0, 0)  # and not left of it
    assert _pixel(surface, 0.25, 9.75) == (0, 0, 255)  # the raster's top-left cell
    assert _pixel(surface, 0.75, 9.25) == (0, 0, 0)  # a transparent cell
    hatched = pygame.surfarray.pixels3d(surface)[76:94, 67:94].max(axis=2)
    rows = np.flatnonzero(hatched.max(axis=0) == 255)  # horizontal runs 5 px apart
    assert len(rows) >= 5 and set(np.diff(rows)) == {5}
    text = pygame.surfarray.pixels3d(surface)[80:95, 0:12].max(axis=2)
    assert (text > 200).sum() > 10  # the letter W


def test_translucent_lines_share_one_layer_clipped_to_the_canvas():
    surface = pygame.Surface((100, 100))
    style = Style(colour=(255, 255, 255), alpha=128, smooth=False)
    crossing = [Line.between((0, 5), (10, 5), style), Line.between((5, 0), (5, 10), style)]
    PygameCanvas(surface, CAMERA, clip=pygame.Rect(0, 0, 70, 100)).draw(crossing)
    # one layer: where the lines cross, the later is seen, not both blended twice
    assert _pixel(surface, 5, 5) == _pixel(surface, 5, 2) == (128, 128, 128)
    assert _pixel(surface, 8, 5) == (0, 0, 0)  # outside the clip: nothing


def test_dashes_cut_a_polyline_into_its_on_lengths():
    found = dashes([(0.0, 0.0), (20.0, 0.0)], (4.0, 2.0))
    assert [(round(a[0]), round(b[0])) for a, b in found] == [(0, 4), (6, 10), (12, 16), (18, 20)]
