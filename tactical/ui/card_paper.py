"""The adjudication card on paper: the same card scene (`card_scene`) drawn by the print
kit's reportlab backend (`PaperCanvas`) on a landscape A4 page, in vector.

Left, the table zoomed on the two bases (terrain tinted and hatched by kind as in the kit,
the units in their sides' tints) under the scene; right, the numbers with the SPEC ids
that decided them, the legend and a scale bar. No pygame here: `tactical card ... -o
card.pdf` never opens a window's library.
"""

from __future__ import annotations

import io
import os
from dataclasses import replace
from pathlib import Path

import shapely
from reportlab.lib.pagesizes import A4, landscape
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from tactical.drawing import scenes
from tactical.drawing.files import checked_output
from tactical.drawing.primitives import Line, Polygon, Primitive, Style, Text
from tactical.drawing.wording import wrap
from tactical.io.files import write_bytes_atomic
from tactical.kit.paper import BOLD, FONT, Frame, PaperCanvas, tint
from tactical.kit.pdf import HATCH_SPACING, name_tag, print_look, side_tints
from tactical.model import CircleBase, GameState
from tactical.ui import card_scene, palette
from tactical.ui.card_scene import CardInks
from tactical.ui.card_view import CardView, card_view

PAGE = landscape(A4)
MARGIN = 28.0  # points
PANEL = 280.0  # the numbers' column
GAP = 14.0
HEADER = 40.0
LEGEND_ROW = 12.0
UNIT_NAME = 6.0  # points: the units' names
TABLE_PANE = (MARGIN, MARGIN, PAGE[0] - MARGIN - PANEL - GAP, PAGE[1] - MARGIN - HEADER)
TABLE: tuple[float, float, float] = (244, 246, 250)  # the table's surface on paper
GRID: tuple[float, float, float] = (205, 210, 220)
PRINT_INKS = CardInks(
    witness=(200, 140, 0),
    edge_witness=(70, 150, 215),
    arc_line=(190, 25, 140),
    band_edge=(0, 120, 90),
    los_clear=(30, 160, 60),
    los_blocked=(215, 30, 30),
    blocking=(230, 60, 50),
    arc_tint=lambda index: (*palette.arc_tint(index)[:3], 70),  # type: ignore[return-value]
    witness_width=2.0,
    line_width=1.2,
    thin=0.6,
    blocking_width=1.8,
    dot=2.2,
    text_size=7.0,
    head_size=8.5,
)
STYLES = {"head": (BOLD, 9.0, (0, 0, 0)), "text": (FONT, 8.0, (0, 0, 0))}
STYLES["dim"] = (FONT, 7.5, (90, 90, 90))


def write_card_pdf(
    state: GameState, firer_id: str, target_id: str, path: str | os.PathLike[str]
) -> Path:
    """Check the output, build the card's values, lay out the page and write the PDF
    atomically (nothing is written when any of it fails)."""
    target = checked_output(path, ".pdf")
    view = card_view(state, firer_id, target_id)
    write_bytes_atomic(target, card_pdf(view))
    return target


def card_pdf(view: CardView) -> bytes:
    """The card as one PDF page."""
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=PAGE)
    title, subtitle = card_scene.card_title(view)
    canvas.setTitle(title)
    canvas.setAuthor("tactical")
    width, height = PAGE
    canvas.setFillColorRGB(0, 0, 0)
    canvas.setFont(BOLD, 13)
    canvas.drawString(MARGIN, height - MARGIN - 11, title)
    canvas.setFont(FONT, 8)
    canvas.setFillColorRGB(0.35, 0.35, 0.35)
    canvas.drawString(MARGIN, height - MARGIN - 24, subtitle)
    frame = _table_pane(canvas, view, TABLE_PANE)
    _panel(canvas, view, (TABLE_PANE[2] + GAP, MARGIN, width - MARGIN, TABLE_PANE[3]), frame)
    canvas.showPage()
    canvas.save()
    return out.getvalue()


def table_frame(view: CardView) -> Frame:
    """Where the table's inches go on the page: the focus (both bases and the measured
    segments) as large as the table pane holds it, centred in it."""
    x0, y0, x1, y1 = TABLE_PANE
    fx0, fy0, fx1, fy1 = card_scene.focus_bounds(view)
    scale = min((x1 - x0) / (fx1 - fx0), (y1 - y0) / (fy1 - fy0))
    origin = (
        x0 + (x1 - x0 - (fx1 - fx0) * scale) / 2,
        y0 + (y1 - y0 - (fy1 - fy0) * scale) / 2,
    )
    return Frame(origin, scale, (fx0, fy0))


def _table_pane(canvas: Canvas, view: CardView, pane: tuple[float, float, float, float]) -> Frame:
    """The table zoomed on the focus, clipped to the pane: its surface, grid, terrain and
    units, with the card's scene over them. Returns the frame it was drawn through."""
    x0, y0, x1, y1 = pane
    frame = table_frame(view)
    scale = frame.scale
    paper = PaperCanvas(canvas, frame)
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(x0, y0, x1 - x0, y1 - y0)
    canvas.clipPath(clip, stroke=0, fill=0)
    paper.draw(_table(view))
    for piece in view.state.terrain:
        name = view.state.shown_terrain_names[piece.id]
        point = piece.geometry.representative_point()
        name_tag(canvas, name, *frame.at(point.x, point.y))
    scene = card_scene.card_scene(view, PRINT_INKS, 1 / scale)
    paper.draw(scene.under)
    paper.draw(_units(view, scale))
    paper.draw(scene.over)
    for label in scene.labels:
        _backed(canvas, paper, _kept_inside(label, frame, pane))
    canvas.restoreState()
    canvas.setStrokeColorRGB(0.3, 0.3, 0.3)
    canvas.setLineWidth(0.6)
    canvas.rect(x0, y0, x1 - x0, y1 - y0, stroke=1, fill=0)
    return frame


def _table(view: CardView) -> list[Primitive]:
    """The table's surface with a line every 2 inches, its edge, and its terrain as the
    print kit draws it (tinted and hatched by kind)."""
    board = view.state.board
    bx0, by0, bx1, by1 = board.bounds
    grid = [((x, by0), (x, by1)) for x in range(int(bx0) + 2, int(bx1), 2)]
    grid += [((bx0, y), (bx1, y)) for y in range(int(by0) + 2, int(by1), 2)]
    found: list[Primitive] = [
        Polygon(shapely.box(*board.bounds), Style(fill=TABLE)),
        Line(shapely.MultiLineString(grid), Style(GRID, 0.3)),
    ]
    found += scenes.terrain(view.state.terrain, print_look, HATCH_SPACING)
    found.append(Polygon(shapely.box(*board.bounds), Style((0, 0, 0), 1.2)))
    return found


def _units(view: CardView, scale: float) -> list[Primitive]:
    """Every unit's base in its side's tint (the firer's outline heavier) and its heading
    from the centre to the bow; under it its name, the firer's and the target's first, a
    name left out where it would run into one placed already (two names run together read
    as neither)."""
    state = view.state
    tints = side_tints(state.sides)
    found: list[Primitive] = []
    for unit in state.units:
        edge = 1.4 if unit.id == view.firer.id else 0.5
        fill = tint(*tints[unit.side])
        found.append(Polygon(unit.footprint, Style((30, 30, 30), edge, fill=fill)))
        base = unit.base
        bow = base.radius if isinstance(base, CircleBase) else base.length / 2
        ahead = unit.pose.to_world(0.0, bow)
        found.append(Line.between((unit.x, unit.y), ahead, Style((30, 30, 30), 0.8)))
    first = {view.firer.id: 0, view.target.id: 1}
    taken: list[shapely.Polygon] = []
    for unit in sorted(state.units, key=lambda u: first.get(u.id, 2)):
        name = state.shown_names.get(unit.id, unit.id)
        width = (stringWidth(name, FONT, UNIT_NAME) + 4) / scale
        top = unit.footprint.bounds[1] - 3 / scale
        room = shapely.box(unit.x - width / 2, top - UNIT_NAME / scale, unit.x + width / 2, top)
        if not any(room.intersects(other) for other in taken):
            taken.append(room)
            style = Style((40, 40, 40))
            found.append(Text(name, (unit.x, top), UNIT_NAME, style, anchor="midtop"))
    return found


def _box(label: Text, frame: Frame) -> tuple[float, float, float, float]:
    """A label's box on the page (left, bottom, right, top), as the paper sets it."""
    x, y = frame.at(*label.at)
    width = stringWidth(label.text, FONT, label.size)
    left = x if label.anchor in ("bottomleft", "midleft", "topleft") else x - width / 2
    bottom = y - (label.size if label.anchor in ("midtop", "topleft") else 0.0)
    return left, bottom, left + width, bottom + label.size


def _kept_inside(label: Text, frame: Frame, pane: tuple[float, float, float, float]) -> Text:
    """A label moved to lie inside the pane, as the picture keeps it."""
    left, bottom, right, top = _box(label, frame)
    dx = max(pane[0] + 4 - left, 0.0) + min(pane[2] - 4 - right, 0.0)
    dy = max(pane[1] + 4 - bottom, 0.0) + min(pane[3] - 4 - top, 0.0)
    return replace(label, at=(label.at[0] + dx / frame.scale, label.at[1] + dy / frame.scale))


def _backed(canvas: Canvas, paper: PaperCanvas, label: Text) -> None:
    """A label on a white tag, as the picture shadows it: it reads over lines and hatching."""
    left, bottom, right, top = _box(label, paper.frame)
    canvas.saveState()
    canvas.setFillColorRGB(1, 1, 1)
    canvas.setFillAlpha(0.85)
    canvas.roundRect(left - 2, bottom - 1, right - left + 4, top - bottom + 1, 2, stroke=0, fill=1)
    canvas.restoreState()
    paper.draw([label])


def _panel(
    canvas: Canvas, view: CardView, box: tuple[float, float, float, float], frame: Frame
) -> None:
    """The numbers top down, wrapped to the column; the legend and a scale bar at its foot."""
    x0, y0, x1, y1 = box
    items = card_scene.legend_items(view, PRINT_INKS)
    foot = y0 + 24 + LEGEND_ROW * ((len(items) + 1) // 2)
    y = y1 - 10
    for style, line in card_scene.card_lines(view):
        font, size, colour = STYLES[style]
        canvas.setFont(font, size)
        canvas.setFillColorRGB(*(c / 255 for c in colour))
        indent = 0 if style == "head" else 8
        y -= 5 if style == "head" else 0
        for part in wrap(line, x1 - x0 - indent, lambda t, f=font, s=size: stringWidth(t, f, s)):
            if y < foot:
                return
            canvas.drawString(x0 + indent, y, part)
            y -= size * 1.3
    _legend(canvas, items, x0, foot - 4, (x1 - x0) / 2)
    _scale_bar(canvas, frame, x0, y0 + 6)


def _legend(canvas: Canvas, items, x: float, top: float, column: float) -> None:
    """Each colour with what it means, two to a row."""
    canvas.setFont(FONT, 7)
    for k, (label, kind, colour, width) in enumerate(items):
        left, y = x + (k % 2) * column, top - (k // 2) * LEGEND_ROW
        canvas.setStrokeColorRGB(*(c / 255 for c in colour))
        canvas.setLineWidth(width)
        if kind == "outline":
            canvas.rect(left, y - 2, 14, 6, stroke=1, fill=0)
        else:
            canvas.line(left, y + 1, left + 14, y + 1)
        canvas.setFillColorRGB(0, 0, 0)
        canvas.drawString(left + 19, y - 1.5, label)


def _scale_bar(canvas: Canvas, frame: Frame, x: float, y: float) -> None:
    """A bar of one inch (or more, to be at least 40 points) of the table at this zoom."""
    inches = 1.0
    while inches * frame.scale < 40:
        inches *= 2
    length = inches * frame.scale
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.setLineWidth(1)
    canvas.line(x, y, x + length, y)
    for end in (x, x + length):
        canvas.line(end, y - 3, end, y + 3)
    canvas.setFillColorRGB(0, 0, 0)
    canvas.setFont(FONT, 7)
    canvas.drawString(x + length + 6, y - 2.5, f'{inches:g}" on the table')
