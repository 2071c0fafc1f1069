"""The kit's pages as a document: a reportlab canvas with the page furniture (title,
source, page number, a 100 mm and a 4" calibration bar, the print note) and text helpers.

Colours double as measuring marks for the tests: the calibration bars are filled with
colours used nowhere else (`MARK_*`).
"""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
from pathlib import Path

from reportlab.lib.pagesizes import A4, LETTER, landscape, portrait
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from tactical.drawing.files import checked_output
from tactical.drawing.wording import wrap
from tactical.kit.content import KitContent

IN = 72.0  # points per inch
MM = IN / 25.4
MARGIN = 12 * MM
FOOTER = 24 * MM  # calibration bars and the print note
HEADER = 16 * MM
PAPERS = {"a4": A4, "letter": LETTER}

MARK_MM = (0.8, 0.0, 0.0)  # the 100 mm bar
MARK_INCH = (0.0, 0.0, 0.8)  # the 4" bar


class KitDocument:
    """A reportlab canvas with the kit's page furniture (title, calibration bars, page count)."""

    def __init__(self, path: str | io.BytesIO, content: KitContent, paper: str) -> None:
        self.content = content
        self.paper = PAPERS[paper]
        self.paper_name = paper
        self.canvas = Canvas(path, pagesize=portrait(self.paper))
        self.canvas.setTitle(f"{content.system.title}: print kit")
        self.canvas.setAuthor("tactical")
        self.page_number = 0
        self.size = portrait(self.paper)

    # page frame ---------------------------------------------------------------

    def page(self, title: str, wide: bool = False) -> tuple[float, float, float, float]:
        """Start a page; the free area (x0, y0, x1, y1) in points between header and footer."""
        if self.page_number:
            self.canvas.showPage()
        self.page_number += 1
        self.size = landscape(self.paper) if wide else portrait(self.paper)
        self.canvas.setPageSize(self.size)
        width, height = self.size
        c = self.canvas
        c.setFillColorRGB(0, 0, 0)
        c.setFont("Helvetica-Bold", 13)
        c.drawString(MARGIN, height - MARGIN - 11, title)
        c.setFont("Helvetica", 8)
        c.drawString(
            MARGIN,
            height - MARGIN - 24,
            f"{self.content.system.title} · {self.content.source} · page {self.page_number}",
        )
        self._calibration(width)
        return MARGIN, MARGIN + FOOTER, width - MARGIN, height - MARGIN - HEADER

    def _calibration(self, width: float) -> None:
        """A 100 mm bar over a 4" bar at the foot of the page, and the print note beside them."""
        c = self.canvas
        for colour, length, step, count, label, y in (
            (MARK_MM, 100 * MM, 10 * MM, 10, "100 mm", MARGIN + 13 * MM),
            (MARK_INCH, 4 * IN, IN, 4, '4"', MARGIN + 2 * MM),
        ):
            x = MARGIN
            c.setFillColorRGB(*colour)
            c.rect(x, y, length, 2.5 * MM, stroke=0, fill=1)
            c.setStrokeColorRGB(0, 0, 0)
            c.setLineWidth(0.4)
            c.setFillColorRGB(0, 0, 0)
            c.setFont("Helvetica", 6)
            for k in range(count + 1):
                tx = x + k * step
                c.line(tx, y + 2.5 * MM, tx, y + 4.5 * MM)
                c.drawCentredString(tx, y + 5.2 * MM, str(k * (10 if count == 10 else 1)))
            c.setFont("Helvetica-Bold", 7)
            c.drawString(x + length + 3 * MM, y + 0.5 * MM, f"this bar is {label}")
        note_x = MARGIN + 100 * MM + 30 * MM
        c.setFont("Helvetica-Bold", 11)
        c.drawString(note_x, MARGIN + 15 * MM, "Print at 100%")
        c.setFont("Helvetica", 7.5)
        c.drawString(note_x, MARGIN + 10.5 * MM, "actual size: no scaling, no fit to page.")
        c.drawString(note_x, MARGIN + 6.5 * MM, "Measure both bars with a ruler")
        c.drawString(note_x, MARGIN + 2.5 * MM, "before cutting anything.")

    def save(self) -> None:
        self.canvas.showPage()
        self.canvas.save()

    # text helpers -------------------------------------------------------------

    def lines(
        self, x: float, y: float, texts: Sequence[str], size: float = 8.5, width: float = 0
    ) -> float:
        """Text lines from (x, y) downward, wrapped to `width` points; returns the next y."""
        c = self.canvas
        c.setFont("Helvetica", size)
        c.setFillColorRGB(0, 0, 0)
        for line in texts:
            for part in _wrap(line, size, width) if width else [line]:
                c.drawString(x, y, part)
                y -= size * 1.3
        return y


def _wrap(line: str, size: float, width: float) -> list[str]:
    return wrap(line, width, lambda text: stringWidth(text, "Helvetica", size))


def unit_names(
    doc: KitDocument, ids: Sequence[str], prefix: str = "", size: float = 0, width: float = 0
) -> str:
    """The units' names as on the play screen: up to ten of them, and with a `width` (points,
    Helvetica at `size`, after `prefix`) as many as fit on one line; "and N more" for the rest."""
    names = [doc.content.unit_name(unit_id) for unit_id in ids]
    text = ""
    for count in range(min(len(names), 10), 0, -1):
        rest = len(names) - count
        text = ", ".join(names[:count]) + (f" and {rest} more" if rest else "")
        if not width or doc.canvas.stringWidth(prefix + text, "Helvetica", size) <= width:
            break
    return text


def checked_pdf_path(path: str | os.PathLike[str]) -> Path:
    """`path` as a .pdf file that can be written, or a UserError (checked before any work)."""
    return checked_output(path, ".pdf")
