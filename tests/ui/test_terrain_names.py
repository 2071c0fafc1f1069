"""Terrain reads by a name a player would say, never by its map id: the built-in maps name
every piece, and a piece a map leaves unnamed reads as its kind in words and a number
(`GameState.shown_terrain_names`) on the table, in the line-of-sight line, in the print
kit and in the terrain report."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pygame
import pytest

from tactical.io import builtin_map, load_map, loads_map
from tactical.io.paths import maps_dir
from tactical.kit.content import kit_for_map
from tactical.kit.pdf import write_kit
from tactical.model import terrain_kind_words, terrain_names
from tactical.rules import registry
from tactical.rules.measuring import TableGeometry
from tactical.session.terrain_setup import placement_sheet, seeded_setup
from tactical.ui.camera import Camera, Margins
from tactical.ui.fonts import Fonts
from tactical.ui.hover_panels import pair_html, unit_names
from tactical.ui.scene import SceneRenderer
from tests.kit.test_print_kit import kit_text

SIZE = (1280, 800)
BUILT_IN = sorted(path.stem for path in maps_dir().glob("*.toml"))

UNNAMED = """
title = "Unnamed rocks"
rules = "dystopian-wars"

[board]
width = 48
height = 48

[[terrain]]
id = "t17"
kind = "dense"
height = "large"
polygon = [[20, 20], [28, 20], [28, 28], [20, 28]]

[[terrain]]
id = "t18"
kind = "soft"
height = "small"
circle = { x = 10, y = 36, radius = 3 }

[[terrain]]
id = "t19"
kind = "dense"
height = "medium"
circle = { x = 38, y = 36, radius = 3 }

[[terrain]]
id = "t20"
name = "Dense terrain 1"
kind = "dense"
height = "tiny"
circle = { x = 38, y = 10, radius = 2 }

[[unit]]
id = "a"
name = "Ruler Class Battleship"
side = "A"
x = 24
y = 6
heading = 0
base = { shape = "rect", width = 1.5, length = 4 }
[unit.stats]
move = 6.0
min_move = 3.0
weapons = [{ name = "Main turrets", kind = "gunnery", arc = "turret", attack_dice = "8-10-8-6" }]

[[unit]]
id = "b"
name = "Markgraf Class Battleship"
side = "B"
x = 24
y = 42
heading = 180
base = { shape = "rect", width = 1.5, length = 4.5 }
[unit.stats]
move = 6.0
min_move = 3.0
weapons = [{ name = "Main turrets", kind = "gunnery", arc = "turret", attack_dice = "8-10-8-6" }]
"""


class RecordingFonts(Fonts):
    """Fonts that remember every text fitted into a label (what the table draws)."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    def fit(self, text: str, size: int, max_width: int) -> str | None:
        self.texts.append(text)
        return super().fit(text, size, max_width)


def drawn_texts(state) -> list[str]:
    fonts = RecordingFonts()
    camera = Camera.fit(state.board.bounds, SIZE, Margins(30, 30, 30, 30))
    SceneRenderer(fonts).draw(pygame.Surface(SIZE), state, camera, registry.get(state.rules))
    return fonts.texts


@pytest.mark.parametrize("name", BUILT_IN)
def test_every_built_in_map_names_every_piece_and_the_table_never_shows_an_id(name):
    state = load_map(builtin_map(name))
    unnamed = [piece.id for piece in state.terrain if not piece.name]
    assert unnamed == [], f"{name}.toml: terrain without a name: {unnamed}"
    drawn = drawn_texts(state)
    shared = Counter(piece.name for piece in state.terrain)
    for piece in state.terrain:
        shown = state.shown_terrain_names[piece.id]
        assert shown == piece.name if shared[piece.name] == 1 else shown.startswith(piece.name)
        assert piece.id not in drawn
    if state.terrain:
        assert any(piece.name in drawn for piece in state.terrain)


def test_an_unnamed_piece_reads_as_its_kind_in_words_numbered_where_the_kind_repeats():
    state = loads_map(UNNAMED, "unnamed.toml")
    assert state.shown_terrain_names == {
        "t17": "Dense terrain 2",  # 1 reads as t20's own name: skipped
        "t18": "Soft terrain",  # the only unnamed soft piece: no number
        "t19": "Dense terrain 3",
        "t20": "Dense terrain 1",
    }
    assert terrain_kind_words("large-city") == "Large city"
    assert terrain_kind_words("small_building") == "Small building"
    drawn = drawn_texts(state)
    assert {"Dense terrain 2", "Soft terrain", "Dense terrain 3"} <= set(drawn)
    assert not {"t17", "t18", "t19", "t20"} & set(drawn)


def test_pieces_sharing_a_name_are_numbered_in_the_maps_order():
    """Two pieces both called "Asteroid" read "Asteroid 1" and "Asteroid 2" (a blocked line
    of sight would read "Asteroid, Asteroid"); a unique name is left as it is."""
    state = loads_map(UNNAMED, "unnamed.toml")
    pieces = [
        replace(p, name=n)
        for p, n in zip(state.terrain, ("Rock", "Rock", "Reef", "Rock 2"), strict=True)
    ]
    assert terrain_names(pieces) == {
        pieces[0].id: "Rock 1",
        pieces[1].id: "Rock 3",
        pieces[2].id: "Reef",
        pieces[3].id: "Rock 2",
    }


def test_a_blocked_line_of_sight_names_the_piece_in_words():
    state = loads_map(UNNAMED, "unnamed.toml")
    report = TableGeometry.of(state).pair("a", "b")
    assert report.blocked_by == ("t17",)
    html = pair_html(report, False, unit_names(state, ("a", "b")))
    assert "LOS blocked by Dense terrain 2" in html and "t17" not in html


def test_the_print_kit_and_the_terrain_report_name_unnamed_pieces_in_words(tmp_path):
    source = tmp_path / "unnamed.toml"
    source.write_text(UNNAMED, encoding="utf-8")
    pdf = write_kit(kit_for_map(str(source)), tmp_path / "kit.pdf")
    text = kit_text(pdf)
    assert "Dense terrain 2: dense, height large." in text
    assert "Soft terrain: soft, height small." in text
    for map_id in ("t17", "t18", "t19"):
        assert map_id not in text
    setup = seeded_setup(load_map(source).board, 3)
    unnamed = replace(setup, terrain=tuple(replace(p, name="") for p in setup.terrain))
    names = terrain_names(unnamed.terrain)
    sheet = placement_sheet(unnamed)
    assert unnamed.terrain
    for piece in unnamed.terrain:
        assert names[piece.id] != piece.id
        assert f"### {piece.id} — {names[piece.id]}" in sheet
