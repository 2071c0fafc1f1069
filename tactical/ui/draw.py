"""The pygame backend of the drawing seam: primitives in table inches -> pixels through a
Camera (`PygameCanvas`), and the low-level helpers it draws with.

Every coordinate passes through `Camera`; nothing here chooses colours (see
palette) or knows about rules. Lines are antialiased; filled shapes get an
antialiased outline so their edges are smooth too.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pygame
import shapely
from shapely.geometry.base import BaseGeometry
from shapely.ops import substring

from tactical.drawing import primitives as ink
from tactical.drawing.hatching import (  # re-exported: the screen's helpers
    hatch_many,
    hatch_segments,
    lines_of,
    polygons_of,
    ring_edges,
)
from tactical.ui.camera import Camera
from tactical.ui.fonts import Fonts
from tactical.ui.palette import RGBA, Colour

Point2 = tuple[float, float]


def screen_points(camera: Camera, coords: np.ndarray) -> list[Point2]:
    """Table coordinates (n, 2) -> a list of screen points for pygame."""
    return camera.to_screen_array(np.asarray(coords)[:, :2]).tolist()


def fill_geometry(
    surface: pygame.Surface,
    camera: Camera,
    geometry: BaseGeometry,
    colour: Colour | RGBA,
    hole: Colour | RGBA | None = None,
    smooth_edge: bool = True,
) -> None:
    """Fill every polygon of `geometry`; holes are painted with `hole` when given.

    On an SRCALPHA surface pygame writes the colour (alpha included) without
    blending, so a translucent fill is made on an overlay and blitted.
    """
    for polygon in polygons_of(geometry):
        exterior = screen_points(camera, polygon.exterior.coords)
        if len(exterior) < 3:
            continue
        pygame.draw.polygon(surface, colour, exterior)
        if smooth_edge and (len(colour) == 3 or colour[3] == 255):
            pygame.draw.aalines(surface, colour, True, exterior)
        if hole is not None:
            for ring in polygon.interiors:
                pygame.draw.polygon(surface, hole, screen_points(camera, ring.coords))


def outline_geometry(
    surface: pygame.Surface,
    camera: Camera,
    geometry: BaseGeometry,
    colour: Colour | RGBA,
    width: int = 1,
    antialias: bool = True,
) -> None:
    """Outline of every ring and line of `geometry`, `width` pixels wide.

    `antialias=False` is for translucent lines on an SRCALPHA scratch surface, where
    pygame's antialiasing would fade the line against the transparent black.
    """
    for coords in lines_of(geometry):
        points = screen_points(camera, coords)
        if antialias:
            polyline(surface, colour, points, width)
        elif len(points) >= 2:
            pygame.draw.lines(surface, colour, False, points, width)


def polyline(
    surface: pygame.Surface, colour: Colour | RGBA, points: Sequence[Point2], width: int = 1
) -> None:
    """An antialiased polyline of any width (pygame's aalines is 1 px only)."""
    if len(points) < 2:
        return
    if width <= 1:
        pygame.draw.aalines(surface, colour, False, points)
        return
    for start, end in itertools.pairwise(points):
        pygame.draw.aaline(surface, colour, start, end, width)
    # round joints so thick outlines have no notches at the corners
    radius = width / 2
    if radius >= 1.5:
        for point in points:
            pygame.draw.aacircle(surface, colour, point, radius - 0.5)


def hatch_screen_geometry(
    surface: pygame.Surface,
    screen_geometry: BaseGeometry,
    angles: Sequence[float],
    spacing: float,
    colour: Colour,
    anchor: Point2 = (0.0, 0.0),
) -> None:
    """Hatch a geometry given in screen pixels (legend swatches, or after `to_screen_geometry`)."""
    for angle in angles:
        for start, end in hatch_segments(screen_geometry, angle, spacing, anchor):
            pygame.draw.aaline(surface, colour, start, end)


def text(
    surface: pygame.Surface,
    fonts: Fonts,
    message: str,
    position: Point2,
    size: int,
    colour: Colour,
    anchor: str = "center",
    shadow: Colour | None = None,
) -> pygame.Rect:
    """Blit `message` with its `anchor` point ("center", "midtop", "topleft", ...) at `position`."""
    if shadow is None:
        rendered = fonts.render(message, size, colour)
    else:
        rendered = fonts.shadowed(message, size, colour, shadow)
    rect = rendered.get_rect(**{anchor: (round(position[0]), round(position[1]))})
    surface.blit(rendered, rect)
    return rect


def arrow_head(
    surface: pygame.Surface,
    colour: Colour,
    tip: Point2,
    direction: Point2,
    length: float,
) -> None:
    """A filled arrow head at `tip` pointing along `direction` (unit screen vector)."""
    dx, dy = direction
    back = (tip[0] - dx * length, tip[1] - dy * length)
    side = (-dy * length * 0.5, dx * length * 0.5)
    points = [tip, (back[0] + side[0], back[1] + side[1]), (back[0] - side[0], back[1] - side[1])]
    pygame.draw.polygon(surface, colour, points)
    pygame.draw.aalines(surface, colour, True, points)


# --------------------------------------------------------------------------- the backend


class PygameCanvas:
    """Draws primitives (`tactical.drawing`) onto a pygame surface through a camera, in
    order. Translucent work stays inside `clip` (screen pixels; the surface's clip when
    not given): a translucent fill goes on a scratch surface of its own, blitted, so
    overlapping tints blend; consecutive translucent lines share one scratch surface,
    blitted once, so that they blend with what is below (and the later of two crossing
    lines is seen where they cross). The hatching of all `Hatch` primitives is worked
    out together, one batch per angle. `Text` needs `fonts`."""

    def __init__(
        self,
        surface: pygame.Surface,
        camera: Camera,
        fonts: Fonts | None = None,
        clip: pygame.Rect | None = None,
    ) -> None:
        self.surface = surface
        self.camera = camera
        self.fonts = fonts
        self.clip = surface.get_clip() if clip is None else clip

    def draw(self, primitives: Sequence[ink.Primitive]) -> None:
        runs = self._hatch_runs(primitives)
        layer: pygame.Surface | None = None
        local = self.camera.panned(-self.clip.left, -self.clip.top)
        for index, primitive in enumerate(primitives):
            if _translucent_line(primitive):
                if layer is None:
                    layer = pygame.Surface(self.clip.size, pygame.SRCALPHA)
                self._stroke(layer, local, primitive.geometry, primitive.style, False)
                continue
            if layer is not None:
                self.surface.blit(layer, self.clip)
                layer = None
            if isinstance(primitive, ink.Hatch):
                colour = _rgb(primitive.style.colour)
                for start, end in runs[index]:
                    pygame.draw.aaline(self.surface, colour, start, end)
            elif isinstance(primitive, ink.Polygon | ink.Arc):
                geometry = (
                    primitive.polygon() if isinstance(primitive, ink.Arc) else primitive.geometry
                )
                self._area(geometry, primitive.style)
            elif isinstance(primitive, ink.Line | ink.Ring):
                self._stroke(self.surface, self.camera, primitive.geometry, primitive.style)
            elif isinstance(primitive, ink.Raster):
                found = raster_picture(self.camera, primitive)
                if found is not None:
                    self.surface.blit(*found)
            elif isinstance(primitive, ink.Text):
                self._text(primitive)
        if layer is not None:
            self.surface.blit(layer, self.clip)

    def _area(self, geometry: BaseGeometry, style: ink.Style) -> None:
        if geometry.is_empty:
            return
        if style.fill is not None and style.translucent:
            bounds = pygame.Rect(self.camera.screen_rect(geometry.bounds)).inflate(4, 4)
            bounds = bounds.clip(self.clip)
            if bounds.width > 0 and bounds.height > 0:
                scratch = pygame.Surface(bounds.size, pygame.SRCALPHA)
                local = self.camera.panned(-bounds.left, -bounds.top)
                colour = (*_rgb(style.fill), style.alpha)
                fill_geometry(scratch, local, geometry, colour, (0, 0, 0, 0), style.smooth)
                self.surface.blit(scratch, bounds)
        elif style.fill is not None:
            fill_geometry(self.surface, self.camera, geometry, _rgb(style.fill), None, style.smooth)
        if style.colour is not None:
            if style.translucent:  # on a layer of its own, as a translucent Line
                canvas = PygameCanvas(self.surface, self.camera, clip=self.clip)
                canvas.draw([ink.Line(geometry, style)])
            else:
                self._stroke(self.surface, self.camera, geometry, style)

    def _stroke(
        self,
        surface: pygame.Surface,
        camera: Camera,
        geometry: BaseGeometry,
        style: ink.Style,
        antialias: bool = True,
    ) -> None:
        if style.colour is None or style.width <= 0:
            return
        colour = _rgb(style.colour)
        colour = (*colour, style.alpha) if style.translucent else colour
        width = max(1, round(style.width))
        if not style.dash:
            outline_geometry(surface, camera, geometry, colour, width, antialias and style.smooth)
            return
        for coords in lines_of(geometry):
            for dash in dashes(screen_points(camera, coords), style.dash):
                if antialias and style.smooth:
                    polyline(surface, colour, dash, width)
                else:
                    pygame.draw.lines(surface, colour, False, dash, width)

    def _text(self, primitive: ink.Text) -> None:
        if self.fonts is None:
            raise ValueError("a PygameCanvas needs fonts to draw text")
        anchor = "midbottom" if primitive.anchor == "baseline" else primitive.anchor
        at = self.camera.to_screen(*primitive.at)
        colour = _rgb(primitive.style.colour or (255, 255, 255))
        text(self.surface, self.fonts, primitive.text, at, round(primitive.size), colour, anchor)

    def _hatch_runs(
        self, primitives: Sequence[ink.Primitive]
    ) -> dict[int, list[tuple[Point2, Point2]]]:
        """Every Hatch primitive's runs on screen (by its index), one batch per spacing,
        anchor and angle (`hatch_many`: the numbers each alone would give)."""
        hatches = [(k, p) for k, p in enumerate(primitives) if isinstance(p, ink.Hatch)]
        runs: dict[int, list[tuple[Point2, Point2]]] = {k: [] for k, _ in hatches}
        groups: dict[tuple, list[tuple[int, ink.Hatch]]] = {}
        for k, hatch in hatches:
            groups.setdefault((hatch.spacing, hatch.anchor), []).append((k, hatch))
        for (spacing, anchor), members in groups.items():
            edges = [
                self.camera.to_screen_array(ring_edges(h.geometry)) if h.angles else _NO_EDGES
                for _, h in members
            ]
            at = self.camera.to_screen(*anchor)
            by_angle = {}
            for angle in {angle for _, h in members for angle in h.angles}:
                chosen = [
                    e if angle in h.angles else e[:0]
                    for e, (_, h) in zip(edges, members, strict=True)
                ]
                by_angle[angle] = hatch_many(chosen, angle, spacing, at)
            for slot, (k, hatch) in enumerate(members):
                runs[k] = [run for angle in hatch.angles for run in by_angle[angle][slot]]
        return runs


_NO_EDGES = np.empty((0, 2, 2))


def _translucent_line(primitive: ink.Primitive) -> bool:
    """A line drawn on the shared translucent layer: a translucent Line or Ring."""
    return isinstance(primitive, ink.Line | ink.Ring) and primitive.style.translucent


def _rgb(colour) -> Colour:
    """A drawing colour (0-255 numbers) as pygame's whole numbers."""
    return tuple(round(c) for c in colour[:3])  # type: ignore[return-value]


def dashes(points: Sequence[Point2], pattern: Sequence[float]) -> list[list[Point2]]:
    """The dashes of a polyline: `pattern` is on, off, on, ... lengths in pixels, from its
    start."""
    if len(points) < 2 or not pattern or sum(pattern) <= 0:
        return [list(points)] if len(points) >= 2 else []
    line = shapely.LineString(points)
    found, at, k = [], 0.0, 0
    while at < line.length:
        step = pattern[k % len(pattern)]
        if k % 2 == 0 and step > 0:
            part = substring(line, at, min(at + step, line.length))
            coords = list(part.coords) if part.geom_type == "LineString" else []
            if len(coords) >= 2:
                found.append(coords)
        at += step
        k += 1
    return found


def raster_picture(
    camera: Camera, raster: ink.Raster
) -> tuple[pygame.Surface, tuple[int, int]] | None:
    """A Raster scaled without smoothing onto its rectangle on screen (every cell keeps its
    edges), and where it goes; None when the rectangle is empty or too big to make."""
    rows, columns = raster.rgba.shape[:2]
    image = pygame.image.frombuffer(raster.rgba.tobytes(), (columns, rows), "RGBA")
    left, top, width, height = camera.screen_rect(raster.bounds)
    if width <= 0 or height <= 0 or width > 20000 or height > 20000:
        return None
    return pygame.transform.scale(image, (width, height)), (left, top)
