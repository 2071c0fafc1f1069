"""The reportlab backend of the drawing seam: a known set of primitives, checked by the
page's drawing operators."""

from __future__ import annotations

import io
import re

import numpy as np
import shapely
from reportlab.pdfgen.canvas import Canvas

from tactical.drawing.primitives import Arc, Hatch, Line, Polygon, Raster, Ring, Style, Text
from tactical.kit.paper import Frame, PaperCanvas, tint


def _page(primitives, frame: Frame) -> str:
    """The page's content stream (uncompressed) after drawing `primitives` through `frame`."""
    pages = io.BytesIO()
    canvas = Canvas(pages, pageCompression=0)
    PaperCanvas(canvas, frame).draw(primitives)
    canvas.showPage()
    canvas.save()
    streams = re.findall(rb"stream\r?\n(.*?)endstream", pages.getvalue(), re.S)
    return next(s for s in streams if b" cm " in s).decode("latin-1")


def test_the_paper_canvas_draws_each_primitive_where_its_inches_go():
    rgba = np.zeros((2, 2, 4), dtype=np.uint8)
    rgba[0, 0] = (0, 0, 255, 255)
    ring = shapely.LinearRing([(0, 0), (1, 0), (1, 1)])
    ops = _page(
        [
            Polygon(shapely.box(0, 0, 1, 1), Style((0, 0, 0), 0.5, fill=(255, 0, 0))),
            Polygon(shapely.box(0, 0, 2, 2), Style(fill=(0, 255, 0), alpha=128)),
            Line.between((0, 0), (2, 0), Style((0, 0, 255), 2, dash=(3, 2))),
            Ring(ring, 1.0, 'Short 1"', Style((0, 0, 0), 1)),
            Arc((0.0, 0.0), 1.0, 0.0, 90.0, Style((0, 0, 0), 1)),
            Hatch(shapely.box(0, 0, 1, 1), (0.0,), 18, Style((10, 10, 10))),
            Text("45°", (1.0, 1.0), 6, Style((255, 0, 0)), anchor="baseline", bold=True),
            Raster((0.0, 0.0, 1.0, 1.0), rgba),
        ],
        Frame((100.0, 200.0), 72.0),  # an inch is 72 points, the table's (0, 0) at (100, 200)
    )
    lines = ops.splitlines()
    # the box: red, outlined black half a point wide, filled and stroked in one path
    assert "1 0 0 rg" in lines and "0 0 0 RG" in lines and ".5 w" in lines
    assert "n 172 200 m 172 272 l 100 272 l 100 200 l h" in lines
    # the translucent fill: its own graphics state, undone after it
    state = ops[ops.index("/gRLs0 gs") : ops.index("Q", ops.index("/gRLs0 gs"))]
    assert "0 1 0 rg" in state and "n 244 200 m 244 344 l 100 344 l 100 200 l h" in state
    # the dashed line, blue, 2 points wide
    assert "[3 2] 0 d" in ops and "0 0 1 RG" in ops and "n 100 200 m 244 200 l" in ops
    assert "n 100 200 m 172 200 l 172 272 l 100 200 l" in ops  # the ring, round to its start
    # the arc: from its centre, the quarter between the right (+x) and ahead (+y), curved
    arc = "n 100 200 m 172 200 l 172 239.7645 139.7645 272 100 272 c h"
    assert arc in lines
    # hatching: horizontal runs 18 points apart across the inch
    runs = [float(y) for y in re.findall(r"n 100 (\d+(?:\.\d+)?) m 172 \1 l S", ops)]
    assert runs == [200.0, 218.0, 236.0, 254.0]
    # the text: bold, 6 points, red, centred on its baseline at (172, 272)
    assert "/F2 6 Tf" in ops and "(45\\260) Tj" in ops
    assert re.search(r"1 0 0 1 16\d\.\d+ 272 Tm", ops)
    assert re.search(r"72 0 0 72 100 200 cm\s*/FormXob\.\w+ Do", ops)  # the raster, an inch


def test_a_turned_frame_turns_the_inches_clockwise():
    ops = _page(
        [Line.between((0, 0), (0, 1), Style((0, 0, 0)))], Frame((10.0, 10.0), 72.0, turn=90)
    )
    assert "n 10 10 m 82 10 l" in ops  # ahead (+y) goes to the page's right
    assert tint(0.75, 0.1, 0.55) == (191.25, 25.5, 140.25)
