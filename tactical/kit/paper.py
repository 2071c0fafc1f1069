"""The reportlab backend of the drawing seam: primitives in inches drawn on a PDF page.

A `Frame` says where the inches go on the page (points per inch, a turn); `PaperCanvas`
draws each primitive in order with reportlab's own paths, arcs and text. Colours are the
drawing's 0-255 numbers; widths, spacing and text sizes are points.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, Canvas

from tactical.drawing import primitives as ink
from tactical.drawing.hatching import lines_of, polygons_of, ring_edges

FONT, BOLD = "Helvetica", "Helvetica-Bold"
MIDDLE = 0.35  # of a text's size below its middle: where its baseline goes


@dataclass(frozen=True, slots=True)
class Frame:
    """Where table inches go on a page: the table point `inches` at page point `origin`
    (points), `scale` points per inch, the whole turned `turn` degrees clockwise."""

    origin: tuple[float, float]
    scale: float
    inches: tuple[float, float] = (0.0, 0.0)
    turn: float = 0.0

    def at(self, x: float, y: float) -> tuple[float, float]:
        """The page point of table point (x, y)."""
        dx, dy = x - self.inches[0], y - self.inches[1]
        if self.turn:
            t = math.radians(self.turn)
            dx, dy = dx * math.cos(t) + dy * math.sin(t), -dx * math.sin(t) + dy * math.cos(t)
        return self.origin[0] + dx * self.scale, self.origin[1] + dy * self.scale


class PaperCanvas:
    """Draws primitives (`tactical.drawing`) on a reportlab canvas through a `Frame`."""

    def __init__(self, canvas: Canvas, frame: Frame) -> None:
        self.canvas = canvas
        self.frame = frame

    def draw(self, primitives: Sequence[ink.Primitive]) -> None:
        for primitive in primitives:
            style = primitive.style if not isinstance(primitive, ink.Raster) else ink.Style()
            special = style.translucent or bool(style.dash)
            if special:  # opacity and dashes last only for this primitive
                self.canvas.saveState()
                self._special(style)
            if isinstance(primitive, ink.Polygon):
                self._polygon(primitive)
            elif isinstance(primitive, ink.Arc):
                self._arc(primitive)
            elif isinstance(primitive, ink.Line | ink.Ring):
                self._lines(primitive.geometry, primitive.style)
            elif isinstance(primitive, ink.Hatch):
                self._hatch(primitive)
            elif isinstance(primitive, ink.Text):
                self._text(primitive)
            elif isinstance(primitive, ink.Raster):
                self._raster(primitive)
            if special:
                self.canvas.restoreState()

    # ------------------------------------------------------------------ primitives

    def _special(self, style: ink.Style) -> None:
        c = self.canvas
        if style.translucent:
            c.setFillAlpha(style.alpha / 255)
            c.setStrokeAlpha(style.alpha / 255)
        if style.dash:
            c.setDash(list(style.dash))

    def _paint(self, style: ink.Style) -> tuple[int, int]:
        """Set the style's colours and width; (stroke, fill) flags for drawPath."""
        c = self.canvas
        if style.fill is not None:
            c.setFillColorRGB(*_unit(style.fill))
        if style.colour is not None:
            c.setStrokeColorRGB(*_unit(style.colour))
            c.setLineWidth(style.width)
        return int(style.colour is not None and style.width > 0), int(style.fill is not None)

    def _polygon(self, primitive: ink.Polygon) -> None:
        stroke, fill = self._paint(primitive.style)
        path = self.canvas.beginPath()
        holes = False
        for polygon in polygons_of(primitive.geometry):
            for ring in (polygon.exterior, *polygon.interiors):
                self._trace(path, list(ring.coords)[:-1], close=True)
            holes = holes or bool(polygon.interiors)
        self.canvas.drawPath(
            path, stroke=stroke, fill=fill, fillMode=FILL_EVEN_ODD if holes else None
        )

    def _arc(self, arc: ink.Arc) -> None:
        """A sector with reportlab's own arc: bearings clockwise from the frame's +y are
        angles counter-clockwise from the page's +x."""
        stroke, fill = self._paint(arc.style)
        cx, cy = self.frame.at(*arc.centre)
        r = arc.radius * self.frame.scale
        span = (arc.end - arc.start) % 360.0 or 360.0
        path = self.canvas.beginPath()
        if span >= 360.0:
            path.circle(cx, cy, r)
        else:
            path.moveTo(cx, cy)
            start = 90.0 - (arc.end + self.frame.turn)
            path.arcTo(cx - r, cy - r, cx + r, cy + r, start, span)
            path.close()
        self.canvas.drawPath(path, stroke=stroke, fill=fill)

    def _lines(self, geometry, style: ink.Style) -> None:
        if not self._paint(style)[0]:
            return
        path = self.canvas.beginPath()
        for coords in lines_of(geometry):
            self._trace(path, coords.tolist(), close=False)
        self.canvas.drawPath(path, stroke=1, fill=0)

    def _trace(self, path, coords: Sequence[Sequence[float]], close: bool) -> None:
        points = [self.frame.at(x, y) for x, y, *_ in coords]
        if len(points) < 2:
            return
        path.moveTo(*points[0])
        for point in points[1:]:
            path.lineTo(*point)
        if close:
            path.close()

    def _hatch(self, hatch: ink.Hatch) -> None:
        """Parallel lines across the area's page extent, `spacing` points apart through the
        anchor, inside a clip path of the area (even-odd: holes stay empty). The page's y
        runs up, so an angle as seen is counter-clockwise on the page as it is."""
        polygons = list(polygons_of(hatch.geometry))
        if not polygons or not hatch.angles or hatch.spacing <= 0:
            return
        c = self.canvas
        c.saveState()
        clip = c.beginPath()
        for polygon in polygons:
            for ring in (polygon.exterior, *polygon.interiors):
                self._trace(clip, list(ring.coords)[:-1], close=True)
        c.clipPath(clip, stroke=0, fill=0, fillMode=FILL_EVEN_ODD)
        self._paint(hatch.style)
        corners = ring_edges(hatch.geometry).reshape(-1, 2)
        page = np.array([self.frame.at(x, y) for x, y in corners.tolist()])
        anchor = np.array(self.frame.at(*hatch.anchor))
        for angle in hatch.angles:
            t = math.radians(angle)
            along, across = (
                np.array([math.cos(t), math.sin(t)]),
                np.array([-math.sin(t), math.cos(t)]),
            )
            u, v = (page - anchor) @ along, (page - anchor) @ across
            # half-open, as the screen's scanline: a line along an edge is not drawn twice
            first = math.ceil(v.min() / hatch.spacing)
            last = math.ceil(v.max() / hatch.spacing) - 1
            for k in range(first, last + 1):
                at = anchor + k * hatch.spacing * across
                c.line(*(at + u.min() * along), *(at + u.max() * along))
        c.restoreState()

    def _text(self, text: ink.Text) -> None:
        c = self.canvas
        c.setFont(BOLD if text.bold else FONT, text.size)
        c.setFillColorRGB(*_unit(text.style.colour or (0, 0, 0)))
        x, y = self.frame.at(*text.at)
        anchor = text.anchor
        if anchor != "baseline":
            below = {"midtop": text.size, "topleft": text.size}
            below |= {"midbottom": -0.25 * text.size, "bottomleft": -0.25 * text.size}
            y -= below.get(anchor, MIDDLE * text.size)
        if anchor in ("midleft", "topleft", "bottomleft"):
            c.drawString(x, y, text.text)
        elif anchor == "midright":
            c.drawRightString(x, y, text.text)
        else:
            c.drawCentredString(x, y, text.text)

    def _raster(self, raster: ink.Raster) -> None:
        """The cells as an image over its rectangle (an unturned frame only)."""
        from PIL import Image

        if self.frame.turn:
            raise ValueError("a raster is drawn on an unturned frame only")
        x0, y0, x1, y1 = raster.bounds
        left, bottom = self.frame.at(x0, y0)
        right, top = self.frame.at(x1, y1)
        image = Image.fromarray(raster.rgba, "RGBA")
        self.canvas.drawImage(
            ImageReader(image), left, bottom, right - left, top - bottom, mask="auto"
        )


def _unit(colour: ink.Colour) -> tuple[float, float, float]:
    """A drawing colour (0-255) as reportlab's 0-1 numbers."""
    return colour[0] / 255, colour[1] / 255, colour[2] / 255


def tint(red: float, green: float, blue: float) -> ink.Colour:
    """A print tint given as reportlab's 0-1 numbers, as a drawing colour (0-255)."""
    return red * 255, green * 255, blue * 255
