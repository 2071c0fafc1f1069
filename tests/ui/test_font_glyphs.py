"""No missing-glyph boxes. Every character outside ASCII that the project's code
can put on screen (the ui's own strings and the rule systems' words, e.g. →, ≥, ×, …, °)
is in the bundled DejaVu Sans, in every face the ui uses."""

from __future__ import annotations

import io
import tokenize
from pathlib import Path

import pygame.freetype
import pytest

import tactical
from tactical.io.paths import assets_dir
from tactical.ui.fonts import FONT_FILES


def _characters_in_strings() -> set[str]:
    found: set[str] = set()
    for path in Path(tactical.__file__).parent.rglob("*.py"):
        tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
        for token in tokens:
            if token.type == tokenize.STRING:
                found |= {c for c in token.string if ord(c) > 127}
    return found


@pytest.mark.parametrize("face", sorted(FONT_FILES.values()))
def test_the_bundled_font_has_every_glyph_the_code_can_draw(face):
    pygame.freetype.init()
    font = pygame.freetype.Font(str(assets_dir() / "fonts" / face), 14)
    characters = _characters_in_strings()
    assert {"→", "×", "…", "°"} <= characters  # the scan reads the strings it should
    missing = sorted(c for c in characters if font.get_metrics(c)[0] is None)
    assert missing == [], f"{face} lacks {missing!r}"
