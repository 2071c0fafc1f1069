"""The print kit carries the layout's fairness score (contents and every placement sheet)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from tactical.cli import main
from tactical.io import builtin_map, load_map, save_map
from tactical.threat.fairness import score_layout


def page_texts(pdf: Path) -> list[str]:
    from pypdfium2 import PdfDocument

    document = PdfDocument(str(pdf))
    try:
        return [" ".join(page.get_textpage().get_text_range().split()) for page in document]
    finally:
        document.close()


def test_the_kit_of_a_map_prints_its_score(tmp_path, capsys):
    out = tmp_path / "kit.pdf"
    assert main(["print", str(builtin_map("default.toml")), "-o", str(out)]) == 0
    capsys.readouterr()
    pages = page_texts(out)
    score = score_layout(load_map(builtin_map("default.toml")))
    headline = f"{score.fairness:.2f} (favours {score.favours})"
    assert f"Fairness of the table: {headline}" in pages[0]
    assert "Cover from the enemy's first turn" in pages[0] and "Symmetry" in pages[0]
    sheets = [p for p in pages if p.startswith("Terrain placement")]
    assert sheets and all(f"Fairness of the whole table: {headline}" in p for p in sheets)


def test_a_map_the_score_cannot_take_prints_why(tmp_path, capsys):
    state = load_map(builtin_map("default.toml"))
    one_side = tmp_path / "one.toml"
    save_map(replace(state, units=tuple(u for u in state.units if u.side == "A")), one_side)
    out = tmp_path / "kit.pdf"
    assert main(["print", str(one_side), "-o", str(out)]) == 0
    capsys.readouterr()
    assert "Fairness of the table: not scored: no deployment zones" in page_texts(out)[0]


def test_a_rule_system_kit_has_no_table_to_score(tmp_path, capsys):
    out = tmp_path / "kit.pdf"
    assert main(["print", "--rules", "dystopian-wars", "-o", str(out)]) == 0
    capsys.readouterr()
    assert "Fairness" not in " ".join(page_texts(out))
