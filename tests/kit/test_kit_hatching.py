"""The print kit hatches terrain by kind as the screen does (R002.8): the same line families
(`hatching.kind_hatch`), drawn by the paper backend inside a clip path of the piece."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
import shapely
from reportlab.pdfgen.canvas import Canvas

from tactical.drawing import scenes
from tactical.io.paths import builtin_map
from tactical.kit.content import kit_for_map
from tactical.kit.paper import Frame, PaperCanvas
from tactical.kit.pdf import HATCH_SPACING, TERRAIN_TINTS, print_look, write_kit
from tactical.model import SizeClass, Terrain
from tactical.ui import palette

DPI = 100
SCALE = 36.0  # points per table inch on the test page
KINDS = ("soft", "dense", "obstructing", "crater-field")  # the last: a kind a system adds


def _piece(kind: str, x: float) -> Terrain:
    return Terrain(kind, kind, SizeClass.SMALL, polygon=((x, 1), (x + 4, 1), (x + 4, 5), (x, 5)))


def _render(pdf: bytes) -> np.ndarray:
    import pypdfium2

    document = pypdfium2.PdfDocument(pdf)
    try:
        image = document[0].render(scale=DPI / 72).to_pil()
        return np.asarray(image.convert("L")).astype(int)
    finally:
        document.close()


@pytest.fixture(scope="module")
def page() -> np.ndarray:
    """The four pieces side by side, 4" squares 1" apart, as the kit draws them."""
    pieces = [_piece(kind, 1 + 5 * k) for k, kind in enumerate(KINDS)]
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(21 * SCALE, 6 * SCALE))
    PaperCanvas(canvas, Frame((0.0, 0.0), SCALE)).draw(
        scenes.terrain(pieces, print_look, HATCH_SPACING)
    )
    canvas.showPage()
    canvas.save()
    return _render(out.getvalue())


def _inside(pixels: np.ndarray, x0: float, margin: float = 0.3) -> np.ndarray:
    """The pixels of the square from table x `x0` (y 1 to 5), `margin` inches in."""
    per_inch = SCALE / 72 * DPI
    height = pixels.shape[0]
    left, right = round((x0 + margin) * per_inch), round((x0 + 4 - margin) * per_inch)
    top, bottom = height - round((5 - margin) * per_inch), height - round((1 + margin) * per_inch)
    return pixels[top:bottom, left:right]


def _lines(square: np.ndarray) -> np.ndarray:
    """The hatch lines' pixels: clearly darker than the square's fill (its brightest)."""
    return square < square.max() - 25


def _along(mask: np.ndarray, dx: int, dy: int) -> float:
    """How much of the mask stays on itself one pixel along (dx, dy): near 1 along a line."""
    h, w = mask.shape
    a = mask[max(0, -dy) : h - max(0, dy), max(0, -dx) : w - max(0, dx)]
    b = mask[max(0, dy) : h - max(0, -dy), max(0, dx) : w - max(0, -dx)]
    return float((a & b).sum() / max(1, a.sum()))


def test_the_kit_hatches_each_kind_with_the_screens_line_families_R002_8():
    for kind in KINDS:
        piece = _piece(kind, 0)
        look = print_look(piece)
        assert look.hatch == palette.terrain_style(kind).hatch
        assert look.hatch_width < look.width  # finer than the outline
    assert print_look(_piece("soft", 0)).hatch == ()
    assert print_look(_piece("dense", 0)).hatch == (45.0,)


def test_hatch_lines_read_at_print_scale_in_the_kinds_directions(page):
    soft, dense, obstructing, other = (_lines(_inside(page, 1 + 5 * k)) for k in range(4))
    assert soft.mean() == 0  # soft ground: a plain tint
    for mask in (dense, obstructing, other):
        # lines 5 points (7 pixels) apart: a fair share of the piece, far from all of it
        assert 0.1 < mask.mean() < 0.6
    # dense: one family rising to the right as seen ("/"): up-right stays on a line
    assert _along(dense, 1, -1) > 0.8 and _along(dense, 1, 1) < 0.5
    # obstructing: crossed, both diagonals
    assert _along(obstructing, 1, -1) > 0.5 and _along(obstructing, 1, 1) > 0.5
    # a kind a rule system adds: across
    assert _along(other, 1, 0) > 0.9 and _along(other, 0, 1) < 0.5


def test_hatching_stays_inside_the_piece(page):
    """Between the squares (clipped to each piece): the page's white, no line."""
    per_inch = SCALE / 72 * DPI
    height = page.shape[0]
    for gap in (5.5, 10.5, 15.5):
        column = page[height - round(4.5 * per_inch) : height - round(1.5 * per_inch)]
        strip = column[:, round((gap - 0.3) * per_inch) : round((gap + 0.3) * per_inch)]
        assert strip.min() == 255


def test_the_kits_terrain_sheets_are_hatched_and_name_each_piece_on_a_tag(tmp_path):
    """A dense piece of the built-in Dystopian Wars map on its placement sheet: hatch lines
    darker than its tint, and its name on white over them."""
    content = kit_for_map(str(builtin_map("dystopian-wars.toml")))
    out = write_kit(content, Path(tmp_path) / "kit.pdf")
    import pypdfium2

    document = pypdfium2.PdfDocument(str(out))
    try:
        number = next(
            k
            for k, sheet in enumerate(document)
            if "Sea stack: dense" in sheet.get_textpage().get_text_range()
        )
        pixels = np.asarray(document[number].render(scale=DPI / 72).to_pil().convert("RGB"))
    finally:
        document.close()
    tint = np.array([round(255 * c) for c in TERRAIN_TINTS["dense"]])
    fill = (np.abs(pixels.astype(int) - tint) <= 6).all(axis=2)
    darker = (pixels.astype(int).sum(axis=2) < tint.sum() - 90) & ~fill
    # around the piece's tinted pixels, hatch lines: darker pixels between tinted ones
    ys, xs = np.nonzero(fill)
    box = darker[ys.min() : ys.max(), xs.min() : xs.max()]
    assert fill.sum() > 500 and box.mean() > 0.1


def test_a_hole_in_a_piece_stays_unhatched():
    """The clip path is even-odd: a hatched ring round a hole leaves the hole white."""
    from tactical.drawing.primitives import Hatch, Style

    ring = shapely.box(0, 0, 4, 4).difference(shapely.box(1, 1, 3, 3))
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(4 * SCALE, 4 * SCALE))
    hatch = Hatch(ring, (45.0, 135.0), HATCH_SPACING, Style((0, 0, 0), 1.0))
    PaperCanvas(canvas, Frame((0.0, 0.0), SCALE)).draw([hatch])
    canvas.showPage()
    canvas.save()
    pixels = _render(out.getvalue())
    per_inch = SCALE / 72 * DPI
    hole = pixels[
        round(1.2 * per_inch) : round(2.8 * per_inch), round(1.2 * per_inch) : round(2.8 * per_inch)
    ]
    band = pixels[
        round(0.1 * per_inch) : round(0.9 * per_inch), round(0.5 * per_inch) : round(3.5 * per_inch)
    ]
    assert hole.min() == 255 and (band < 200).mean() > 0.1
