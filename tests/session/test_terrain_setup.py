"""Randomized terrain by 2'x2' areas (R002.9, X002.1, A002.5)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import shapely
from shapely.geometry import box

from tactical.dice import ScriptedDice
from tactical.errors import UserError
from tactical.geometry.zones import deployment_zone
from tactical.io import dumps_map, loads_map
from tactical.model import Board, GameState
from tactical.session.terrain_setup import (
    MIN_GAP,
    load_library,
    placement_sheet,
    seeded_setup,
    setup_terrain,
)

SIX_BY_FOUR = Board(72, 48)
LIBRARY = load_library()


def test_the_shipped_library_has_every_kind_of_piece():
    keys = {p.key for p in LIBRARY}
    assert {"island", "reef", "sandbank", "rocks", "ice-floe", "cliffs"} <= keys
    assert {p.kind for p in LIBRARY} == {"soft", "dense", "obstructing"}
    for piece in LIBRARY:
        assert piece.shape_at(12, 12, 0).bounds[2] - piece.shape_at(12, 12, 0).bounds[0] < 12


def test_a_5_places_a_piece_and_a_4_does_not_x002_1():
    """X002.1: side A rolls 5, side B rolls 4 -> A places one piece, B none."""
    one_area = Board(24, 24)
    setup = setup_terrain(one_area, ScriptedDice([5, 4]), np.random.default_rng(0), LIBRARY)
    assert [a.rolls for a in setup.areas] == [{"A": 5, "B": 4}]
    assert len(setup.areas[0].pieces) == 1
    assert len(setup.terrain) == 1


@pytest.mark.parametrize(("rolls", "count"), [((6, 6), 2), ((1, 2), 0), ((4, 6), 1), ((5, 5), 2)])
def test_each_5_or_6_places_one_piece_r002_9(rolls, count):
    setup = setup_terrain(Board(24, 24), ScriptedDice(rolls), np.random.default_rng(1), LIBRARY)
    assert len(setup.areas[0].pieces) == count


def test_areas_in_order_both_sides_before_the_next_r002_9():
    dice = ScriptedDice([1, 2, 3, 4, 1, 1, 2, 2, 3, 3, 4, 4])
    setup = setup_terrain(SIX_BY_FOUR, dice, np.random.default_rng(2), LIBRARY)
    assert [a.area for a in setup.areas] == ["A1", "B1", "C1", "A2", "B2", "C2"]
    assert [tuple(a.rolls.values()) for a in setup.areas] == [
        (1, 2),
        (3, 4),
        (1, 1),
        (2, 2),
        (3, 3),
        (4, 4),
    ]
    assert [r.who for r in setup.rolls] == ["A", "B"] * 6
    assert all("R002.9" in r.what for r in setup.rolls)
    assert setup.terrain == ()


def test_partial_areas_are_rolled_for_too_a002_5():
    setup = seeded_setup(Board(50, 30), 3, LIBRARY)
    assert [a.area for a in setup.areas] == ["A1", "B1", "C1", "A2", "B2", "C2"]


def test_placement_rules_hold_over_many_seeds_r002_9():
    """Wholly inside its area, no overlap, >= 1" apart, out of the deployment zones."""
    zones = (deployment_zone(72, 48, "bottom"), deployment_zone(72, 48, "top"))
    for seed in range(150):
        setup = seeded_setup(SIX_BY_FOUR, seed, LIBRARY, zones)
        where = setup.piece_area()
        shapes = [t.geometry for t in setup.terrain]
        for piece, shape in zip(setup.terrain, shapes, strict=True):
            area = SIX_BY_FOUR.area_named(where[piece.id])
            assert box(*area.bounds).covers(shape), (seed, piece.id)
            for zone in zones:
                assert not shape.intersects(zone.polygon) or shape.touches(zone.polygon)
        for a, b in itertools.combinations(shapes, 2):
            assert shapely.distance(a, b) >= MIN_GAP - 1e-9


def test_pieces_per_area_follow_4_9_4_9_1_9_over_2000_seeds_r002_9():
    counts = np.zeros(3)
    for seed in range(2000):
        for area in seeded_setup(SIX_BY_FOUR, seed, LIBRARY).areas:
            counts[len(area.pieces)] += 1
            assert area.unplaced == 0
    share = counts / counts.sum()
    # 12,000 areas: one standard error is about 0.0045
    assert share == pytest.approx([4 / 9, 4 / 9, 1 / 9], abs=0.02)


def test_the_same_seed_gives_the_same_layout_byte_for_byte():
    first = seeded_setup(SIX_BY_FOUR, 2024, LIBRARY)
    second = seeded_setup(SIX_BY_FOUR, 2024, LIBRARY)
    assert first.as_dict() == second.as_dict()
    text = dumps_map(GameState("dystopian-wars", SIX_BY_FOUR, terrain=first.terrain))
    assert text == dumps_map(GameState("dystopian-wars", SIX_BY_FOUR, terrain=second.terrain))
    assert loads_map(text).terrain == first.terrain
    assert seeded_setup(SIX_BY_FOUR, 2025, LIBRARY).as_dict() != first.as_dict()


def test_json_shape_uses_the_fixed_keys():
    data = seeded_setup(SIX_BY_FOUR, 11, LIBRARY).as_dict()
    assert set(data) == {"seed", "board", "areas", "terrain"}
    assert data["board"] == {"width": 72, "height": 48}
    assert set(data["areas"][0]) >= {"area", "rolls", "pieces"}
    for piece in data["terrain"]:
        assert {"id", "kind", "height", "polygon"} <= set(piece)
        assert len(piece["polygon"]) >= 3


def test_placement_sheet_lists_every_piece_from_the_bottom_left():
    setup = seeded_setup(SIX_BY_FOUR, 42, LIBRARY)
    sheet = placement_sheet(setup)
    assert sheet.startswith("# Terrain placement sheet")
    assert "bottom-left corner" in sheet
    for piece in setup.terrain:
        assert f"### {piece.id}" in sheet
        if piece.circle is not None:
            assert f"centre ({piece.circle.x:.1f}, {piece.circle.y:.1f})" in sheet
        else:
            x, y = piece.polygon[0]
            assert f"({x:.1f}, {y:.1f})" in sheet
    for area in setup.areas:
        assert f"| {area.area} | {area.rolls['A']} | {area.rolls['B']} |" in sheet


def test_bad_library_files_are_clear_errors(tmp_path):
    cases = {
        "empty.toml": ("", "expected [[piece]] tables"),
        "kind.toml": (
            '[[piece]]\nkey = "x"\nkind = "lava"\nheight = "tiny"\nradius = 1\n',
            "kind: expected one of",
        ),
        "both.toml": (
            '[[piece]]\nkey = "x"\nkind = "soft"\nheight = "tiny"\nradius = 1\n'
            "polygon = [[0, 0], [1, 0], [0, 1]]\n",
            "exactly one of",
        ),
        "broken.toml": ("[[piece]\n", "not a valid TOML"),
    }
    for name, (text, words) in cases.items():
        path = tmp_path / name
        path.write_text(text)
        with pytest.raises(UserError) as caught:
            load_library(path)
        assert words in caught.value.describe(), name
    with pytest.raises(UserError, match="cannot read"):
        load_library(tmp_path / "missing.toml")


def test_random_terrain_never_lies_under_a_unit_r002_9():
    """R002.9 (a side rolling 5 or 6 *may place* a piece in the area: where is its choice):
    with units on the table no piece is placed under any of them, for many seeds."""
    from tactical.io import builtin_map, load_map

    state = load_map(builtin_map("dystopian-wars"))
    footprints = [unit.footprint for unit in state.units]
    placed = 0
    for seed in range(25):
        setup = seeded_setup(state.board, seed, keep_clear=footprints)
        for piece in setup.terrain:
            placed += 1
            assert not any(piece.geometry.intersects(f) for f in footprints), (seed, piece.id)
    assert placed > 50
    # without the units kept clear, some seed does put a piece under one (the test can fail)
    assert any(
        piece.geometry.intersects(f)
        for seed in range(25)
        for piece in seeded_setup(state.board, seed).terrain
        for f in footprints
    )
