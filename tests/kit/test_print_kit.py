"""The printable kit: true size measured on the rasterised PDF, content from the
rules (GEO002.7 bands, GEO002.8 turning template, R004.51 turn per move)."""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from tactical.cli import main
from tactical.errors import UserError
from tactical.io import load_map
from tactical.io.paths import builtin_map
from tactical.kit.content import kit_for_map, kit_for_rules
from tactical.kit.pdf import IN, MARGIN, ruler_pieces, write_kit
from tactical.rules import registry

DPI = 300
TOLERANCE = 0.005  # the 0.5%


def rasterise(pdf: Path, page: int, tool: str, band: tuple[float, float]) -> np.ndarray:
    """A horizontal band of one page (top and bottom in points from the page's top) as an
    (h, w, 3) uint8 array at 300 DPI, by pdftoppm or by pypdfium2: the band alone, which is
    quicker than the page."""
    top, bottom = band
    if tool == "pdftoppm":
        out = pdf.parent / f"page{page}"
        y, height = round(top / 72 * DPI), round((bottom - top) / 72 * DPI)
        subprocess.run(
            ["pdftoppm", "-r", str(DPI), "-png", "-singlefile", "-f", str(page), "-l", str(page),
             "-x", "0", "-y", str(y), "-W", "100000", "-H", str(height), str(pdf), str(out)],
            check=True,
        )  # fmt: skip
        from PIL import Image

        with Image.open(f"{out}.png") as image:
            return np.asarray(image.convert("RGB"))
    import pypdfium2

    document = pypdfium2.PdfDocument(str(pdf))
    try:
        sheet = document[page - 1]
        height = sheet.get_height()
        image = sheet.render(scale=DPI / 72, crop=(0, height - bottom, 0, top)).to_pil()
        return np.asarray(image.convert("RGB"))
    finally:
        document.close()


A4_LANDSCAPE_HEIGHT = 210 / 25.4 * 72  # points
FOOT = (A4_LANDSCAPE_HEIGHT - 36 / 25.4 * 72, A4_LANDSCAPE_HEIGHT)  # the page's last 36 mm


def rasterisers() -> list[str]:
    """pdftoppm where installed (CI installs poppler-utils), and always pypdfium2."""
    return (["pdftoppm"] if shutil.which("pdftoppm") else []) + ["pypdfium2"]


def longest_run(mask: np.ndarray) -> int:
    """The longest horizontal run of True pixels in any row (a bar's length in pixels)."""
    best = 0
    for row in mask[mask.any(axis=1)]:
        padded = np.concatenate(([0], row.astype(np.int8), [0]))
        changes = np.flatnonzero(np.diff(padded))
        best = max(best, int((changes[1::2] - changes[::2]).max()))
    return best


def colour_mask(pixels: np.ndarray, rgb: tuple[float, float, float]) -> np.ndarray:
    target = np.array([round(255 * c) for c in rgb])
    return (np.abs(pixels.astype(int) - target) <= 40).all(axis=2)


@pytest.fixture(scope="module")
def dw_kit(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("kit") / "kit.pdf"
    write_kit(kit_for_map(str(builtin_map("dystopian-wars.toml"))), out, "a4")
    return out


@pytest.mark.parametrize("tool", rasterisers())
def test_calibration_bars_and_ruler_are_true_size_at_300_dpi(dw_kit, tool):
    from tactical.kit.pdf import MARK_INCH, MARK_MM, MARK_RULER

    foot = rasterise(dw_kit, 2, tool, FOOT)  # page 2: the first rulers; its foot: the bars
    mm_bar = longest_run(colour_mask(foot, MARK_MM))
    inch_bar = longest_run(colour_mask(foot, MARK_INCH))
    assert mm_bar == pytest.approx(100 / 25.4 * DPI, rel=TOLERANCE)
    assert inch_bar == pytest.approx(4 * DPI, rel=TOLERANCE)
    ruler = kit_for_map(str(builtin_map("dystopian-wars.toml"))).rulers[0]
    width = (297 / 25.4 * 72 - 2 * MARGIN - 0.4 * IN) / IN
    first = ruler_pieces(ruler, 1, width)[0]
    top = rasterise(dw_kit, 2, tool, (0.0, 2.6 * IN))  # the first ruler's strip
    stripe = longest_run(colour_mask(top, MARK_RULER))
    assert stripe == pytest.approx((first.end - first.start) * DPI, rel=TOLERANCE)


def test_letter_paper_keeps_true_size(tmp_path):
    from tactical.kit.pdf import MARK_INCH

    out = tmp_path / "kit.pdf"
    assert main(["print", "--rules", "sw-d6-capital", "-o", str(out), "--paper", "letter"]) == 0
    from pypdfium2 import PdfDocument

    document = PdfDocument(str(out))
    try:
        assert document[0].get_size() == pytest.approx((8.5 * 72, 11 * 72))
    finally:
        document.close()
    foot = rasterise(out, 1, rasterisers()[0], (11 * 72 - 36 / 25.4 * 72, 11 * 72))
    assert longest_run(colour_mask(foot, MARK_INCH)) == pytest.approx(4 * DPI, rel=TOLERANCE)


def test_every_page_has_both_calibration_bars_and_the_note(dw_kit):
    from pypdfium2 import PdfDocument

    document = PdfDocument(str(dw_kit))
    try:
        for page in document:
            text = page.get_textpage().get_text_range()
            assert "Print at 100%" in text
            assert "this bar is 100 mm" in text and 'this bar is 4"' in text
    finally:
        document.close()


def test_pages_name_the_map_by_its_title_and_file_name_not_its_folders(dw_kit):
    """The subtitle of every page (and the contents page) reads the map's title and file
    name, never the path of folders it was opened from."""
    from pypdfium2 import PdfDocument

    state = load_map(builtin_map("dystopian-wars.toml"))
    folder = str(builtin_map("dystopian-wars.toml").parent)
    document = PdfDocument(str(dw_kit))
    try:
        for page in document:
            text = page.get_textpage().get_text_range()
            assert f"{state.title} (dystopian-wars.toml)" in text
            assert folder not in text and "/maps/" not in text
    finally:
        document.close()


def kit_text(pdf: Path) -> str:
    """Every page's text, its runs of white space (line ends of wrapped text) as one space."""
    from pypdfium2 import PdfDocument

    document = PdfDocument(str(pdf))
    try:
        return " ".join(" ".join(page.get_textpage().get_text_range().split()) for page in document)
    finally:
        document.close()


def test_units_and_terrain_read_by_their_names_as_on_the_play_screen_not_their_ids(dw_kit):
    """Rulers, templates and the deployment sheet name each unit as the play screen does
    (`GameState.shown_names`: the three Attacker Class Frigates numbered 1 to 3), terrain by
    its name; no map id is printed where there is a name."""
    import re

    state = load_map(builtin_map("dystopian-wars.toml"))
    text = kit_text(dw_kit)
    for number, x in ((1, 25), (2, 23), (3, 21)):
        assert f'Attacker Class Frigate {number}, side A: x {x}.00", y 3.00"' in text
    assert "for Fighter Plane 1, Fighter Plane 2, Fighter Plane 3" in text
    assert "for Stralsund Class Cruiser 1" in text and "for Stralsund Class Cruiser 2" in text
    assert "Sea stack: dense, height medium." in text
    named = [u.id for u in state.units if u.name] + [p.id for p in state.terrain if p.name]
    assert "attacker-2" in named and "sea-stack" in named
    for map_id in named:
        if map_id == "ruler":  # a word of the print note too ("Measure both bars with a ruler")
            continue
        assert not re.search(rf"(?<![\w-]){re.escape(map_id)}(?![\w-])", text), map_id


def test_ruler_edges_are_the_rule_systems_bands_GEO002_7():
    content = kit_for_map(str(builtin_map("dystopian-wars.toml")))
    system = content.system
    state = content.state
    options = system.options(state.options)
    (ruler,) = content.rulers
    assert [e for _, e in ruler.edges] == [8.0, 16.0, 24.0, 32.0]
    unit = state.unit(ruler.units[0])
    for name, edge in ruler.edges:
        assert system.range_band(unit, edge - 1e-3, options) == name
        assert system.range_band(unit, edge + 1e-3, options) != name
    assert sorted(ruler.units) == sorted(u.id for u in state.units)


def test_turning_templates_come_from_the_turning_rules_GEO002_8_R004_51():
    dw = kit_for_rules("dystopian-wars")
    assert [(t.step, t.move) for t in dw.turning] == [(45.0, None)]
    assert dw.turning[0].spec_ids == ("GEO002.8",)
    sw = kit_for_rules("sw-d6-capital")
    assert {(t.step, t.move) for t in sw.turning} == {(None, 45.0), (None, None)}
    assert ("R004.51",) in {t.spec_ids for t in sw.turning}


def test_arc_templates_cover_every_base_and_arc_set_once():
    content = kit_for_rules("sw-d6-capital")
    state = load_map(builtin_map("sw-d6-capital.toml"))
    system = registry.get("sw-d6-capital")
    expected = {(u.base, tuple(system.unit_arcs(u))) for u in state.units}
    assert {(t.base, t.arcs) for t in content.arc_templates} == expected
    assert sum(len(t.units) for t in content.arc_templates) == len(state.units)


def test_terrain_sheets_hold_every_piece_once_in_the_area_of_its_centre():
    content = kit_for_map(str(builtin_map("default.toml")))
    placed = [p.id for sheet in content.areas for p in sheet.pieces]
    assert sorted(placed) == sorted(p.id for p in content.state.terrain)
    board = content.state.board
    for sheet in content.areas:
        for piece in sheet.pieces:
            centre = piece.geometry.centroid
            assert board.area_at(centre.x, centre.y).name == sheet.area.name


def test_a_long_ruler_is_cut_into_pieces_that_join():
    ruler = kit_for_rules("sw-d6-capital").rulers[0]
    pieces = ruler_pieces(ruler, 1, 10.4)
    assert pieces[0].start == 0 and pieces[-1].end == ruler.length
    assert all(a.end == b.start for a, b in itertools.pairwise(pieces))
    assert all(p.end - p.start <= 10 for p in pieces)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ([], "either a MAP or --rules"),
        (["{map}", "--rules", "dystopian-wars"], "either a MAP or --rules"),
        (["--rules", "chess"], "unknown rule system"),
        (["{tmp}/none.toml"], "not found"),
        (["--rules", "dystopian-wars", "-o", "{tmp}/kit.png"], ".pdf"),
        (["--rules", "dystopian-wars", "-o", "{tmp}/missing/kit.pdf"], "does not exist"),
        (["--rules", "dystopian-wars", "--paper", "a3"], "invalid choice"),
    ],
)
def test_print_errors_are_one_line_exit_2_and_nothing_written(tmp_path, capsys, args, words):
    full = [
        "print",
        *[
            a.replace("{tmp}", str(tmp_path)).replace(
                "{map}", str(builtin_map("dystopian-wars.toml"))
            )
            for a in args
        ],
    ]
    if "-o" not in args:
        full += ["-o", str(tmp_path / "kit.pdf")]
    assert main(full) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_an_unwritable_folder_is_a_user_error(tmp_path, monkeypatch):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    if os.geteuid() == 0:  # root writes anywhere: the folder refuses as the kernel would
        import tempfile

        def refused(*args, **kwargs):
            raise PermissionError(13, "Permission denied", str(locked))

        monkeypatch.setattr(tempfile, "mkstemp", refused)
    try:
        with pytest.raises(UserError, match="cannot write"):
            write_kit(kit_for_rules("heavy-combat"), locked / "kit.pdf")
        assert list(locked.iterdir()) == []
    finally:
        locked.chmod(0o700)


def test_bands_named_by_a_bare_number_read_as_bands_on_the_ruler(tmp_path):
    """Heavy Combat's range bands are named 1, 2, 3 (T001.2): the ruler reads "band 2" in
    its stripe and 'band 2 ends 24"' at its edge, not '2 ends 24"' (two numbers)."""
    pdf = write_kit(kit_for_map(str(builtin_map("heavy-combat"))), tmp_path / "kit.pdf")
    text = kit_text(pdf)
    assert 'band 1 ends 12"' in text and 'band 2 ends 24"' in text
    assert ' 2 ends 24"' not in text.replace('band 2 ends 24"', "")


@pytest.mark.parametrize("rules", registry.rule_ids())
def test_the_kit_of_every_built_in_map_reads_as_words_not_ids_or_code(rules, tmp_path):
    """The plain-words scan of the play screen, run over the printed kit's text: no unit or
    terrain id where a name belongs, nothing that reads like code."""
    from plain_words import code_like, ids_shown

    out = tmp_path / "kit.pdf"
    write_kit(kit_for_map(str(builtin_map(rules))), out, "a4")
    text = kit_text(out)
    state = load_map(builtin_map(rules))
    ids = [u.id for u in state.units] + [p.id for p in state.terrain]
    # "ruler" is a unit's id and a word of the print note ("Measure both bars with a ruler")
    assert [i for i in ids_shown(text, ids) if i != "ruler"] == []
    assert code_like(text) == []


def test_a_small_pieces_corner_numbers_do_not_run_over_one_another(tmp_path):
    """A 1" by 1/2" piece at the plan's 1:4 scale: each corner's numbers are set outward
    from its middle, so no two of them overlap (set all up and to the right, they did)."""
    from types import SimpleNamespace

    from reportlab.pdfgen.canvas import Canvas

    from tactical.kit.paper import Frame
    from tactical.kit.pdf import _piece
    from tactical.model import Terrain

    boxes: list[tuple[float, float, float, float]] = []

    class Recording(Canvas):
        def _box(self, x0: float, y: float, text: str) -> None:
            width = self.stringWidth(text, self._fontname, self._fontsize)
            boxes.append((x0, y, x0 + width, y + self._fontsize))

        def drawString(self, x, y, text, *args, **kwargs):
            self._box(x, y, text)
            return super().drawString(x, y, text, *args, **kwargs)

        def drawRightString(self, x, y, text, *args, **kwargs):
            self._box(x - self.stringWidth(text, self._fontname, self._fontsize), y, text)
            return super().drawRightString(x, y, text, *args, **kwargs)

    canvas = Recording(str(tmp_path / "plan.pdf"))
    piece = Terrain(
        id="rock",
        kind="obstructing",
        height="low",
        polygon=((10, 10), (11, 10), (11, 10.5), (10, 10.5)),
    )
    _piece(SimpleNamespace(canvas=canvas), piece, "Rock", Frame((100.0, 100.0), IN / 4))
    corners = [box for box in boxes if box[2] - box[0] > 20]  # the four "(x, y)" labels
    assert len(corners) == 4
    for a, b in itertools.combinations(corners, 2):
        overlap_x = min(a[2], b[2]) - max(a[0], b[0])
        overlap_y = min(a[3], b[3]) - max(a[1], b[1])
        assert overlap_x <= 0 or overlap_y <= 0, (a, b)
