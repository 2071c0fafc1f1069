"""The kit as a PDF at true scale (reportlab): rulers, templates, sheets, calibration bars.

Every page carries a 100 mm bar and a 4" bar and says "print at 100%": a printer that
scales the page shows it at once. Rulers, turning and arc templates are 1:1; the
terrain and deployment sheets are plans at a stated scale whose numbers (measured
from the table's bottom-left corner) are what a player lays out by.

The page furniture is `document`'s; the templates' arc lines and the plans' terrain and
units are drawn through the drawing seam (`tactical.drawing.scenes`, `paper`). Colours
double as measuring marks for the tests: each ruler's top stripe (`MARK_RULER`), as the
calibration bars (`document.MARK_*`), is filled with a colour used nowhere else.
"""

from __future__ import annotations

import io
import math
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.pagesizes import landscape, portrait

from tactical.drawing import scenes
from tactical.drawing.hatching import kind_hatch
from tactical.drawing.primitives import Arc, Polygon, Style
from tactical.errors import UserError
from tactical.geometry.arcs_spec import Omni, Sector
from tactical.io.files import write_bytes_atomic
from tactical.kit.content import (
    ArcTemplateSpec,
    AreaSheet,
    KitContent,
    RulerSpec,
    TurningSpec,
    base_words,
)
from tactical.kit.document import (  # re-exported: the tests measure by them
    FOOTER,
    HEADER,
    IN,
    MARGIN,
    MARK_INCH,
    MARK_MM,
    MM,
    PAPERS,
    KitDocument,
    checked_pdf_path,
    unit_names,
)
from tactical.kit.paper import Frame, PaperCanvas, tint
from tactical.model import CircleBase, GameState, RectBase, Terrain
from tactical.rules.conventions import band_name

MARK_RULER = (0.0, 0.6, 0.0)  # each ruler's top stripe, as long as the ruler piece
BAND_TINTS = ((1.0, 0.97, 0.80), (0.85, 0.93, 1.0))
SIDE_TINTS = {"A": (0.27, 0.59, 1.0), "B": (0.98, 0.53, 0.14)}
OTHER_TINTS = ((0.78, 0.38, 0.89), (0.93, 0.84, 0.25), (0.22, 0.78, 0.67), (0.94, 0.43, 0.59))
TERRAIN_TINTS = {
    "soft": (0.87, 0.82, 0.62),
    "dense": (0.55, 0.72, 0.52),
    "obstructing": (0.62, 0.62, 0.62),
}
HATCH_SPACING = 5.0  # points between the terrain's hatch lines: 1.8 mm, at every plan's scale
HATCH_SHADE = 0.6  # the hatch lines' shade of the piece's tint
HATCH_WIDTH = 0.5  # points: the hatch lines, finer than the outline
RULER_HEIGHT = 0.9 * IN
STRIPE = 2 * MM
TEMPLATE = Style(colour=(0, 0, 0), width=1, fill=tint(0.93, 0.93, 0.98))  # turning templates
ARC_INK = tint(0.75, 0.1, 0.55)  # arc templates' lines and bearings


@dataclass(frozen=True)
class RulerPiece:
    """A piece of a ruler: inches `start` to `end` of ruler `index` (1-based)."""

    index: int
    start: float
    end: float
    piece: int
    pieces: int


def ruler_pieces(ruler: RulerSpec, index: int, room: float) -> tuple[RulerPiece, ...]:
    """The ruler cut into whole-inch pieces no longer than `room` inches."""
    step = max(1.0, math.floor(room))
    count = max(1, math.ceil(ruler.length / step - 1e-9))
    return tuple(
        RulerPiece(index, k * step, min(ruler.length, (k + 1) * step), k + 1, count)
        for k in range(count)
    )


# --------------------------------------------------------------------------- pages


def write_kit(content: KitContent, path: str | os.PathLike[str], paper: str = "a4") -> Path:
    """Lay out the kit and write it atomically (`tactical.io.files`: the output checked first,
    then a temporary file in the same folder renamed over the target)."""
    target = checked_pdf_path(path)
    if paper not in PAPERS:
        raise UserError(f"unknown paper {paper!r}: expected one of {', '.join(PAPERS)}")
    pages = io.BytesIO()
    document = KitDocument(pages, content, paper)
    _contents_page(document)
    _ruler_pages(document)
    _turning_pages(document)
    _arc_pages(document)
    if content.state is not None:
        _terrain_pages(document, content.state, content.areas)
        _deployment_pages(document, content.state)
    document.save()
    write_bytes_atomic(target, pages.getvalue())
    return target


def _contents_page(doc: KitDocument) -> None:
    content = doc.content
    x0, _, x1, y1 = doc.page(f"{content.system.title}: print kit")
    texts = [
        f"For {content.source}. Everything on the template pages is at true size (1:1).",
        "",
        "1. Print every page at 100%: in the print dialog choose 'actual size' and turn off "
        "'fit to page' and any scaling.",
        "2. Measure both calibration bars at the foot of any page: the red one must be 100 mm, "
        "the blue one 4 inches. If they are not, the printer scaled the page: print again.",
        "3. Glue the pages onto card and cut along the outlines. Ruler pieces join end to end "
        "at the marked inch.",
        "",
        "Contents:",
        f"  range rulers: {len(content.rulers)}",
        f"  turning templates: {len(content.turning)}",
        f"  arc templates: {len(content.arc_templates)} (one per base and arc set used)",
    ]
    if content.state is not None:
        texts += [
            f"  terrain placement sheets: {len(content.areas)} (one per 2'x2' area)",
            "  deployment sheet: every unit where the map places it",
        ]
    if content.fairness:
        texts += ["", f"Fairness of the table: {content.fairness[0]}"]
        texts += [f"  {line}" for line in content.fairness[1:]]
    conventions = content.system.conventions
    measured = "base edge" if conventions.distance_from == "edge" else "centre"
    to = "nearest point" if conventions.distance_to == "nearest" else "centre"
    texts += [
        "",
        f"How {content.system.title} measures: range from the firer's {measured} to the "
        f"target's {to}; a target is in an arc by "
        + ("its centre" if conventions.arc_test == "centre" else "any part of its base")
        + ".",
    ]
    cited = ", ".join(f"{q} {spec}" for q, spec in conventions.citations)
    if cited:
        texts.append(f"Rules cited: {cited}.")
    doc.lines(x0, y1 - 14, texts, 10, x1 - x0)


def _ruler_pages(doc: KitDocument) -> None:
    """Rulers on landscape pages, as many strips a page as fit."""
    width = landscape(doc.paper)[0]
    room = (width - 2 * MARGIN - 0.4 * IN) / IN
    strips = [
        (ruler, piece)
        for index, ruler in enumerate(doc.content.rulers, start=1)
        for piece in ruler_pieces(ruler, index, room)
    ]
    slot = RULER_HEIGHT + 0.85 * IN
    y = 0.0
    y0 = 0.0
    for ruler, piece in strips:
        if y == 0.0 or y - slot < y0:
            x0, y0, _, y1 = doc.page("Range rulers (true size)", wide=True)
            y = y1 - 6
        _ruler(doc, ruler, piece, x0 + 0.2 * IN, y - RULER_HEIGHT - 0.45 * IN)
        y -= slot


def _ruler(doc: KitDocument, ruler: RulerSpec, piece: RulerPiece, x: float, y: float) -> None:
    """One ruler piece with its bottom-left at (x, y): bands tinted, edges named, inch ticks."""
    c = doc.canvas
    length = (piece.end - piece.start) * IN
    top = y + RULER_HEIGHT
    previous = 0.0
    for k, (name, edge) in enumerate(ruler.edges):
        a, b = max(previous, piece.start), min(edge, piece.end)
        if b > a:
            c.setFillColorRGB(*BAND_TINTS[k % 2])
            c.rect(x + (a - piece.start) * IN, y, (b - a) * IN, RULER_HEIGHT, stroke=0, fill=1)
            c.setFillColorRGB(0.25, 0.25, 0.25)
            c.setFont("Helvetica-Bold", 8)
            c.drawCentredString(
                x + ((a + b) / 2 - piece.start) * IN, y + 0.12 * IN, band_name(name)
            )
        previous = edge
    c.setFillColorRGB(*MARK_RULER)
    c.rect(x, top - STRIPE, length, STRIPE, stroke=0, fill=1)
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(0.6)
    c.rect(x, y, length, RULER_HEIGHT, stroke=1, fill=0)
    c.setFillColorRGB(0, 0, 0)
    quarter = round((piece.end - piece.start) * 4)
    for k in range(quarter + 1):
        inches = piece.start + k / 4
        tx = x + k / 4 * IN
        tall = 0.32 if k % 4 == 0 else 0.2 if k % 2 == 0 else 0.12
        c.setLineWidth(0.5)
        c.line(tx, top - STRIPE, tx, top - STRIPE - tall * IN)
        if k % 4 == 0:
            c.setFont("Helvetica", 7)
            c.drawCentredString(tx, top - STRIPE - 0.44 * IN, f"{inches:g}")
    last_label, row = -math.inf, 0
    for name, edge in ruler.edges:
        if piece.start - 1e-9 <= edge <= piece.end + 1e-9:
            ex = x + (edge - piece.start) * IN
            c.setLineWidth(1.6)
            c.line(ex, y, ex, top - STRIPE - 0.5)  # the stripe stays whole: it is measured
            c.setFont("Helvetica-Bold", 7)
            row = 1 - row if edge - last_label < 1.2 else 0  # close edges: labels alternate rows
            last_label = edge
            c.drawCentredString(ex, y - 9 - 8 * row, f'{band_name(name)} ends {edge:g}"')
    c.setFont("Helvetica", 8)
    label = f"Ruler {piece.index}, piece {piece.piece} of {piece.pieces}: "
    label += f'{piece.start:g}" to {piece.end:g}"'
    label += f"; measure from {ruler.measured_from}"
    c.drawString(x, top + 5, label)
    c.setFont("Helvetica", 7)
    room = doc.size[0] - MARGIN - x  # to the page's right margin
    beyond = ""
    if piece.piece == piece.pieces and ruler.beyond:
        far = ruler.beyond
        shown = far if len(far) <= 3 else (*far[:2], far[-1])
        words = ", ".join(f'{n} to {e:g}"' for n, e in shown)
        more = f" ({len(far) - 3} more between)" if len(far) > 3 else ""
        beyond = f"beyond this ruler: {words}{more}"
    beside = length - c.stringWidth(beyond, "Helvetica", 7) - 12  # room left of that note
    units = unit_names(doc, ruler.units, "for ", 7, beside if beyond and beside > 2 * IN else room)
    c.drawString(x, y - 27, f"for {units}")
    if beyond:  # under the unit names where the piece is too short to hold both on a line
        c.drawRightString(x + length, y - 27 if beside > 2 * IN else y - 36, beyond)


def _turning_pages(doc: KitDocument) -> None:
    x0, y0, x1, y1 = doc.page("Turning templates (true size)")
    y = y1 - 8
    for spec in doc.content.turning:
        needed = 4.9 * IN
        if y - needed < y0:
            x0, y0, x1, y1 = doc.page("Turning templates (true size)")
            y = y1 - 8
        _turning(doc, spec, x0, y - needed, x1)
        y -= needed + 0.3 * IN


def _turning(doc: KitDocument, spec: TurningSpec, x0: float, y: float, x1: float) -> None:
    """A wedge of the turn limit with 4" legs, or a protractor for free turning."""
    c = doc.canvas
    apex = (x0 + 0.4 * IN, y + 0.3 * IN)
    angle = spec.step if spec.step is not None else spec.move
    if angle is not None:  # the wedge from the heading (+x on the page) to the limit
        PaperCanvas(c, Frame(apex, IN)).draw([Arc((0.0, 0.0), 3.6, 90.0 - angle, 90.0, TEMPLATE)])
        c.setFont("Helvetica-Bold", 14)
        c.setFillColorRGB(0, 0, 0)
        mid = math.radians(angle / 2)
        c.drawCentredString(
            apex[0] + 1.6 * IN * math.cos(mid), apex[1] + 1.6 * IN * math.sin(mid), f"{angle:g}°"
        )
        what = "one turn (one template step)" if spec.step is not None else "the whole move"
        title = f"{angle:g}° turning template: the most {what} may turn"
    else:
        radius = 3.4 * IN
        centre = (apex[0] + radius, apex[1])
        half = Arc((0.0, 0.0), 3.4, 270.0, 90.0, TEMPLATE)  # the upper half: a protractor
        PaperCanvas(c, Frame(centre, IN)).draw([half])
        c.setFillColorRGB(0, 0, 0)
        c.setFont("Helvetica", 6)
        for degrees in range(0, 181, 5):
            t = math.radians(degrees)
            inner = radius - (0.3 if degrees % 15 == 0 else 0.15) * IN
            c.line(
                centre[0] + inner * math.cos(t),
                centre[1] + inner * math.sin(t),
                centre[0] + radius * math.cos(t),
                centre[1] + radius * math.sin(t),
            )
            if degrees % 15 == 0:
                r = radius - 0.45 * IN
                c.drawCentredString(
                    centre[0] + r * math.cos(t),
                    centre[1] + r * math.sin(t) - 2,
                    str(90 - degrees if degrees <= 90 else degrees - 90),
                )
        c.circle(centre[0], centre[1], 2, stroke=1, fill=1)
        title = "Free turning: a protractor (degrees either side of the heading)"
    lines = [title, "Pivot " + "; or ".join(spec.pivots) + "."]
    if spec.spec_ids:
        lines.append("Rule: " + ", ".join(spec.spec_ids) + ".")
    lines.append(f"For {unit_names(doc, spec.units)}.")
    doc.lines(x0, y + 4.75 * IN, lines, 9, x1 - x0)


def _arc_pages(doc: KitDocument) -> None:
    """Each base at true size with its arc lines, heading up, packed on portrait pages in rows;
    a base too long for a portrait page gets a landscape page of its own, heading right."""
    tall, wide = _free_area(portrait(doc.paper)), _free_area(landscape(doc.paper))
    upright, turned = [], []
    for spec in doc.content.arc_templates:
        hw, hl = _extent(spec)
        reach = min(ARC_REACH, _room(tall, hw, hl))
        if reach >= MIN_REACH:
            upright.append((spec, reach))
            continue
        reach = min(ARC_REACH, _room(wide, hl, hw))
        if reach < MIN_REACH:
            raise UserError(
                f"the {spec.title} of {', '.join(spec.units)} is too large for "
                f"{doc.paper_name} paper: try --paper with larger paper"
            )
        turned.append((spec, reach))
    x0 = y0 = x1 = y1 = 0.0
    cursor_x = cursor_y = row_height = 0.0
    started = False
    upright.sort(key=lambda item: -_arc_cell(item[0], item[1])[1])
    for spec, reach in upright:
        w, h = _arc_cell(spec, reach)
        if not started or cursor_x + w > x1:
            cursor_x, cursor_y, row_height = x0, cursor_y - row_height, 0.0
        if not started or cursor_y - h < y0:
            x0, y0, x1, y1 = doc.page("Arc templates (true size)")
            cursor_x, cursor_y, row_height, started = x0, y1, 0.0, True
        _arc_template(doc, spec, cursor_x, cursor_y - h, min(w, x1 - x0), reach, 0.0)
        cursor_x += w
        row_height = max(row_height, h)
    for spec, reach in turned:
        x0, y0, x1, y1 = doc.page("Arc template (true size, heading to the right)", wide=True)
        h = _arc_cell(spec, reach, turned=True)[1]
        _arc_template(doc, spec, x0, y1 - h, x1 - x0, reach, 90.0)


ARC_REACH = 1.0  # inches the arc lines run beyond the base (less where the paper is short)
MIN_REACH = 0.5


def _free_area(size: tuple[float, float]) -> tuple[float, float]:
    """Inches free between header and footer on a page of `size` points."""
    return (size[0] - 2 * MARGIN) / IN, (size[1] - 2 * MARGIN - HEADER - FOOTER) / IN


def _room(free: tuple[float, float], across: float, along: float) -> float:
    """The longest reach that fits a base of half sizes `across` x `along` on the free area."""
    return min((free[0] - 0.2) / 2 - across, (free[1] - 1.0) / 2 - along)


def _extent(spec: ArcTemplateSpec) -> tuple[float, float]:
    base = spec.base
    if isinstance(base, CircleBase):
        return base.radius, base.radius
    assert isinstance(base, RectBase)
    return base.width / 2, base.length / 2


def _arc_cell(spec: ArcTemplateSpec, reach: float, turned: bool = False) -> tuple[float, float]:
    hw, hl = _extent(spec)
    if turned:
        hw, hl = hl, hw
    return max(2 * (hw + reach) + 0.2, 2.4) * IN, (2 * (hl + reach) + 1.0) * IN


def _arc_template(
    doc: KitDocument,
    spec: ArcTemplateSpec,
    x: float,
    y: float,
    w: float,
    reach_in: float,
    turn: float,
) -> None:
    """The base (heading `turn` degrees clockwise from up) and its arc lines, label below."""
    c = doc.canvas
    hw, hl = _extent(spec)
    across, along = (hl, hw) if turn else (hw, hl)  # half sizes on the page
    cx, cy = x + w / 2, y + 0.75 * IN + (along + reach_in) * IN
    box = (cx - (across + reach_in) * IN, cy - (along + reach_in) * IN,
           cx + (across + reach_in) * IN, cy + (along + reach_in) * IN)  # fmt: skip

    frame = Frame((cx, cy), IN, turn=turn)  # the base's frame: inches, +y ahead
    paper = PaperCanvas(c, frame)
    c.saveState()
    clip = c.beginPath()
    clip.rect(box[0], box[1], box[2] - box[0], box[3] - box[1])
    c.clipPath(clip, stroke=0, fill=0)
    paper.draw(scenes.arc_template(spec.arcs, hw, hl, reach_in, Style(ARC_INK, width=0.8)))
    c.restoreState()
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(1.2)
    c.setFillColorRGB(0.97, 0.97, 0.97)
    if isinstance(spec.base, CircleBase):
        c.circle(cx, cy, hw * IN, stroke=1, fill=1)
    else:
        c.rect(cx - across * IN, cy - along * IN, 2 * across * IN, 2 * along * IN, stroke=1, fill=1)
    c.setFillColorRGB(0, 0, 0)
    c.circle(cx, cy, 1.5, stroke=0, fill=1)
    c.setLineWidth(0.8)
    c.line(cx, cy, *frame.at(0.0, min(hl, 0.8)))  # the heading
    c.setStrokeColorRGB(0.6, 0.6, 0.6)
    c.setLineWidth(0.3)
    c.rect(*box[:2], box[2] - box[0], box[3] - box[1], stroke=1, fill=0)
    round_base = isinstance(spec.base, CircleBase)
    paper.draw(scenes.arc_template_labels(spec.arcs, hw, hl, round_base, 6, Style(ARC_INK)))
    names = []
    for arc in spec.arcs:
        if isinstance(arc, Omni) or (isinstance(arc, Sector) and arc.span >= 360.0):
            names.append(f"{arc.name}: every direction")
        elif isinstance(arc, Sector):
            names.append(f"{arc.name} {arc.start:g}°–{arc.end:g}°")
        else:
            names.append(f"{arc.name}: base-wide corridor ahead")
    heading = "heading right" if turn else "heading up"
    units = unit_names(doc, spec.units, "for ", 6.5, w - 8)
    doc.lines(
        x + 4,
        y + 0.62 * IN,
        [f"{spec.title} ({heading})", "; ".join(names), f"for {units}"],
        6.5,
        w - 8,
    )


def _terrain_pages(doc: KitDocument, state: GameState, areas: Sequence[AreaSheet]) -> None:
    """One page per 2'x2' area: a plan of its pieces with every corner measured."""
    for sheet in areas:
        area = sheet.area
        x0, y0, x1, y1 = doc.page(f"Terrain placement: area {area.name}")
        # the area and the whole of each of its pieces (a piece may reach into the next area)
        view = _view_bounds(area.bounds, sheet.pieces, state.board.bounds)
        view_w, view_h = view[2] - view[0], view[3] - view[1]
        scale = min((x1 - x0) / view_w, (y1 - y0) * 0.6 / view_h)  # points per table inch
        header = 24 if doc.content.fairness else 14  # a second line for the table's score
        ox, oy = x0 + (x1 - x0 - view_w * scale) / 2, y1 - header - view_h * scale
        frame = Frame((ox, oy), scale, (view[0], view[1]))
        at = frame.at

        c = doc.canvas
        plan = (
            f"Plan at 1:{IN / scale:.0f}. Lay out by the numbers: every point is measured in "
            "inches from the table's bottom-left corner, across then up."
        )
        doc.lines(x0, y1 - 8, [plan], 8)
        if doc.content.fairness:  # the layout's score on every sheet it is laid out from
            c.drawString(x0, y1 - 18, f"Fairness of the whole table: {doc.content.fairness[0]}")
        c.setStrokeColorRGB(0.85, 0.85, 0.85)
        c.setLineWidth(0.3)
        for k in range(math.ceil(view[0] / 6), math.floor(view[2] / 6) + 1):
            c.line(*at(6 * k, view[1]), *at(6 * k, view[3]))
        for k in range(math.ceil(view[1] / 6), math.floor(view[3] / 6) + 1):
            c.line(*at(view[0], 6 * k), *at(view[2], 6 * k))
        c.setStrokeColorRGB(0, 0, 0)
        c.setLineWidth(1.6)
        left, bottom = at(area.bounds[0], area.bounds[1])
        c.rect(left, bottom, area.width * scale, area.height * scale, stroke=1, fill=0)
        names = state.shown_terrain_names
        for piece in sheet.pieces:
            _piece(doc, piece, names[piece.id], frame)
        c.setFillColorRGB(0, 0, 0)
        c.setFont("Helvetica", 7)
        for k in range(math.ceil(view[0] / 6), math.floor(view[2] / 6) + 1):
            c.drawCentredString(at(6 * k, 0)[0], oy - 9, f'{6 * k}"')
        for k in range(math.ceil(view[1] / 6), math.floor(view[3] / 6) + 1):
            c.drawRightString(ox - 3, at(0, 6 * k)[1] - 2, f'{6 * k}"')
        texts = [] if sheet.pieces else ["No terrain in this area."]
        for piece in sheet.pieces:
            texts.append(_piece_words(piece, names[piece.id]))
        doc.lines(x0, oy - 24, texts, 8, x1 - x0)


def _view_bounds(area, pieces: Sequence[Terrain], board) -> tuple[float, float, float, float]:
    """The area's bounds grown to hold its pieces, kept on the table."""
    x0, y0, x1, y1 = area
    for piece in pieces:
        px0, py0, px1, py1 = piece.geometry.bounds
        x0, y0 = min(x0, px0 - 1.0), min(y0, py0 - 1.0)  # an inch clear of the corner labels
        x1, y1 = max(x1, px1 + 1.0), max(y1, py1 + 1.0)
    return max(x0, board[0]), max(y0, board[1]), min(x1, board[2]), min(y1, board[3])


def _piece(doc: KitDocument, piece: Terrain, name: str, frame: Frame) -> None:
    """A piece on a plan: its shape in its kind's tint (`scenes.terrain`), every corner (or
    a round piece's centre) marked with its numbers, its name in the middle."""
    c = doc.canvas
    PaperCanvas(c, frame).draw(scenes.terrain([piece], print_look, HATCH_SPACING))
    c.setFillColorRGB(0, 0, 0)
    c.setFont("Helvetica", 6)
    if piece.circle is not None:
        cx, cy = frame.at(piece.circle.x, piece.circle.y)
        c.circle(cx, cy, 1.2, stroke=0, fill=1)
        # on a white tag under the name's, which sits on the centre: read over the hatching
        words = f"centre ({piece.circle.x:.1f}, {piece.circle.y:.1f})"
        width = c.stringWidth(words, "Helvetica", 6)
        c.setFillColorRGB(1, 1, 1)
        c.roundRect(cx - width / 2 - 2, cy - 15, width + 4, 8, 2, stroke=0, fill=1)
        c.setFillColorRGB(0, 0, 0)
        c.drawCentredString(cx, cy - 13, words)
    else:
        # each corner's numbers set outward from the piece's middle, on the corner's side:
        # set all up and to the right, a small piece's labels ran over one another
        mx, my = frame.at(*_centre(piece))
        for x, y in piece.polygon or ():
            px, py = frame.at(x, y)
            c.circle(px, py, 1.2, stroke=0, fill=1)
            words = f"({x:.1f}, {y:.1f})"
            ty = py + 2 if py >= my else py - 7
            if px >= mx:
                c.drawString(px + 2, ty, words)
            else:
                c.drawRightString(px - 2, ty, words)
    name_tag(c, name, *frame.at(*_centre(piece)))


def print_look(piece: Terrain) -> scenes.TerrainLook:
    """A piece on paper: its kind's tint, hatched by kind as on the screen (`kind_hatch`) in
    a darker shade of the tint, a thin dark outline (a plan to lay out by, read at any
    height)."""
    shade = TERRAIN_TINTS.get(piece.kind, (0.8, 0.8, 0.8))
    ink = tint(*(HATCH_SHADE * part for part in shade))
    hatch = kind_hatch(piece.kind)
    return scenes.TerrainLook(tint(*shade), tint(0.2, 0.2, 0.2), 0.8, hatch, ink, HATCH_WIDTH)


def name_tag(c, name: str, x: float, y: float) -> None:
    """A piece's name centred at (x, y) on a white tag: it reads over the hatching."""
    width = c.stringWidth(name, "Helvetica-Bold", 7)
    c.setFillColorRGB(1, 1, 1)
    c.roundRect(x - width / 2 - 2, y - 5, width + 4, 9.5, 2, stroke=0, fill=1)
    c.setFillColorRGB(0, 0, 0)
    c.setFont("Helvetica-Bold", 7)
    c.drawCentredString(x, y - 3, name)


def _centre(piece: Terrain) -> tuple[float, float]:
    centre = piece.geometry.centroid
    return centre.x, centre.y


def _piece_words(piece: Terrain, name: str) -> str:
    """The piece as the play screen labels it (`name`: its own, else its kind in words), its
    kind and height in words, and its outline's numbers."""
    kind = piece.kind.replace("-", " ").replace("_", " ")
    head = f"{name}: {kind}, height {piece.height.value}. "
    if piece.circle is not None:
        c = piece.circle
        return head + f'Round: centre ({c.x:.1f}, {c.y:.1f}), radius {c.radius:.1f}".'
    corners = ", ".join(f"({x:.1f}, {y:.1f})" for x, y in piece.polygon or ())
    return head + f"Corners in order: {corners}."


def _deployment_pages(doc: KitDocument, state: GameState) -> None:
    """A plan of the whole table with every unit, then every unit's measured position."""
    x0, y0, x1, y1 = doc.page("Deployment: where the map places every unit", wide=True)
    board = state.board
    scale = min((x1 - x0) / board.width, (y1 - y0 - 30) / board.height)
    ox, oy = x0 + (x1 - x0 - board.width * scale) / 2, y1 - 16 - board.height * scale
    c = doc.canvas
    plan = (
        f"Plan at 1:{IN / scale:.0f}; the positions follow, in inches "
        "from the table's bottom-left corner, across then up; heading 0 faces the far edge."
    )
    doc.lines(x0, y1 - 8, [plan], 8)
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(1)
    c.rect(ox, oy, board.width * scale, board.height * scale, stroke=1, fill=0)
    frame = Frame((ox, oy), scale)
    names = state.shown_terrain_names
    for piece in state.terrain:
        _piece(doc, piece, names[piece.id], frame)
    tints = side_tints(state.sides)
    PaperCanvas(c, frame).draw(
        [
            Polygon(unit.footprint, Style((0, 0, 0), 0.4, fill=tint(*tints[unit.side])))
            for unit in state.units
        ]
    )
    legend_x = ox
    c.setFont("Helvetica", 8)
    for side, colour in tints.items():
        c.setFillColorRGB(*colour)
        c.rect(legend_x, oy - 14, 8, 8, stroke=1, fill=1)
        c.setFillColorRGB(0, 0, 0)
        c.drawString(legend_x + 11, oy - 13, f"side {side}")
        legend_x += 24 + c.stringWidth(f"side {side}", "Helvetica", 8)
    rows = [
        f'{doc.content.unit_name(u.id)}, side {u.side}: x {u.x:.2f}", y {u.y:.2f}", '
        f"heading {u.heading:g}°, {base_words(u.base)}"
        for u in state.units
    ]
    for chunk in _chunks(rows, 58):
        x0, y0, x1, y1 = doc.page("Deployment: unit positions")
        half = (len(chunk) + 1) // 2
        doc.lines(x0, y1 - 10, chunk[:half], 7.5, (x1 - x0) / 2 - 6)
        doc.lines(x0 + (x1 - x0) / 2, y1 - 10, chunk[half:], 7.5, (x1 - x0) / 2 - 6)


def side_tints(sides: Sequence[str]) -> dict[str, tuple[float, float, float]]:
    """A and B as on the screen; other sides from a palette in order of appearance."""
    others = iter(OTHER_TINTS)
    return {
        side: SIDE_TINTS[side] if side in SIDE_TINTS else next(others, (0.6, 0.6, 0.6))
        for side in sides
    }


def _chunks(rows: Sequence[str], size: int) -> Iterator[Sequence[str]]:
    for start in range(0, len(rows), size):
        yield rows[start : start + size]


__all__ = [
    "IN",
    "MARGIN",
    "MARK_INCH",
    "MARK_MM",
    "MARK_RULER",
    "checked_pdf_path",
    "ruler_pieces",
    "write_kit",
]
