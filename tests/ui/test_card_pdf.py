"""The adjudication card as a PDF page: the same card scene as the PNG, drawn in vector by
the print kit's reportlab backend, with the same numbers and the SPEC ids that decided
them (GEO002.7 range and arcs, R002.40 line of sight)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from test_card import TABLE

from tactical.cli import main
from tactical.io import loads_map
from tactical.ui.card_paper import PRINT_INKS, card_pdf, table_frame
from tactical.ui.card_scene import card_lines
from tactical.ui.card_view import card_view

DPI = 100


@pytest.fixture(scope="module")
def card():
    view = card_view(loads_map(TABLE), "a", "b")
    return view, card_pdf(view)


def _page(pdf: bytes):
    import pypdfium2

    return pypdfium2.PdfDocument(pdf)


def _words(text: str) -> str:
    return " ".join(text.split())


def test_the_pdf_card_reads_the_pngs_numbers_and_labels(card):
    view, pdf = card
    document = _page(pdf)
    try:
        assert len(document) == 1
        text = _words(document[0].get_textpage().get_text_range())
    finally:
        document.close()
    assert text.startswith("Adjudication: a (a) firing on b (b)")
    for _, line in card_lines(view):  # every line of the panel, wrapped but whole
        assert _words(line) in text, line
    assert "blocked by Obstructing terrain" in text and "Line of sight (R002.40)" in text
    # the table's labels: the measured length, the arc's margin, the band edge
    assert f'{view.report.distance:.2f}"' == '22.09"' and '22.09"' in text
    assert "fore line: target margin +27.35°" in text
    assert 'RB3 ends at 24.00"' in text
    for label in ("range measured", "arc lines", "band edge", "LOS blocked", "blocking"):
        assert label in text
    assert '4" on the table' in text or '2" on the table' in text or '1" on the table' in text


def test_the_pdf_card_is_vector(card):
    _, pdf = card
    import pypdfium2.raw as raw

    document = _page(pdf)
    try:
        kinds = [obj.type for obj in document[0].get_objects(max_depth=1)]
    finally:
        document.close()
    assert raw.FPDF_PAGEOBJ_IMAGE not in kinds
    assert kinds.count(raw.FPDF_PAGEOBJ_PATH) > 50


def test_the_witness_is_drawn_between_the_two_reported_points(card):
    view, pdf = card
    document = _page(pdf)
    try:
        page = document[0]
        height = page.get_height()
        pixels = np.asarray(page.render(scale=DPI / 72).to_pil().convert("RGB")).astype(int)
    finally:
        document.close()
    frame = table_frame(view)
    start, end = view.report.witness.start, view.report.witness.end
    ink = np.array(PRINT_INKS.witness)

    def seen(x: float, y: float) -> bool:
        px, py = frame.at(x, y)
        column, row = round(px * DPI / 72), round((height - py) * DPI / 72)
        near = pixels[row - 1 : row + 2, column - 1 : column + 2].reshape(-1, 3)
        return bool((np.abs(near - ink).max(axis=1) <= 40).any())

    samples = [k / 20 for k in range(1, 20) if not 0.35 < k / 20 < 0.65]  # the label mid-way
    for t in samples:
        assert seen(start[0] + t * (end[0] - start[0]), start[1] + t * (end[1] - start[1])), t
    # and not beside it: a quarter inch off the segment is not the witness ink
    length = math.dist(start, end)
    side = (-(end[1] - start[1]) / length * 0.6, (end[0] - start[0]) / length * 0.6)
    quarter = (start[0] + 0.25 * (end[0] - start[0]), start[1] + 0.25 * (end[1] - start[1]))
    assert not seen(quarter[0] + side[0], quarter[1] + side[1])


def test_card_command_writes_a_pdf_by_its_extension(tmp_path):
    source = tmp_path / "t.toml"
    source.write_text(TABLE)
    out = tmp_path / "card.PDF"
    assert main(["card", str(source), "a", "b", "-o", str(out)]) == 0
    assert out.read_bytes().startswith(b"%PDF")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["card.PDF", "t.toml"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["-o", "{tmp}/card.svg"], "must be a .png file (a picture) or a .pdf file"),
        (["-o", "{tmp}/card"], "must be a .png file (a picture) or a .pdf file"),
        (["-o", "{tmp}/card.pdf", "--size", "900x600"], "a PDF card is an A4 page"),
        (["-o", "{tmp}/missing/card.pdf"], "does not exist"),
    ],
)
def test_pdf_card_errors_are_one_line_exit_2_and_nothing_written(tmp_path, capsys, args, words):
    source = tmp_path / "t.toml"
    source.write_text(TABLE)
    full = ["card", str(source), "a", "b", *[a.replace("{tmp}", str(tmp_path)) for a in args]]
    assert main(full) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.toml"]


def test_an_unknown_unit_writes_no_pdf(tmp_path, capsys):
    source = tmp_path / "t.toml"
    source.write_text(TABLE)
    assert main(["card", str(source), "a", "nobody", "-o", str(tmp_path / "card.pdf")]) == 2
    assert "nobody" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.toml"]
