"""Layers of the picture: pixels at known table points, and the geometry behind the drawing."""

from __future__ import annotations

import math

import numpy as np
import pygame
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from tactical.io import builtin_map, load_map, loads_map
from tactical.model import Board, Circle, SizeClass, Terrain
from tactical.present.selection import selection_view
from tactical.rules import registry
from tactical.ui import palette
from tactical.ui.camera import Camera, Margins
from tactical.ui.draw import hatch_many, hatch_segments, ring_edges
from tactical.ui.fonts import shared_fonts
from tactical.ui.layers import (
    LABEL_MIN_EXTENT,
    LegendEntry,
    UnitShapes,
    UnitSprites,
    deployment_strip,
    draw_deployment_zone,
    draw_edge_ticks,
    draw_grid,
    draw_legend,
    draw_table,
    draw_terrain,
    draw_units,
    layout_legend,
    legend_entries,
    legend_height,
    tick_steps,
)
from tactical.ui.scene import SceneRenderer
from tactical.ui.units_layer import (
    UNIT_LABEL_SIZE,
    _draw_bases,
    _draw_sprites,
    _label_candidates,
    id_words,
)

TABLE = """
rules = "dystopian-wars"
[board]
width = 72
height = 48

[[terrain]]
id = "peak"
kind = "obstructing"
height = "massive"
polygon = [[40, 30], [50, 30], [50, 40], [40, 40]]

[[terrain]]
id = "shoal"
kind = "soft"
height = "tiny"
polygon = [[56, 30], [66, 30], [66, 40], [56, 40]]

[[terrain]]
id = "wood"
kind = "dense"
height = "medium"
polygon = [[4, 30], [14, 30], [14, 40], [4, 40]]

[[unit]]
id = "ruler"
name = "Ruler Class Battleship"
side = "A"
x = 20
y = 10
heading = 0
base = { shape = "rect", width = 2, length = 5 }
[unit.stats]
weapons = [
  { name = "Guns", kind = "gunnery", arc = "fore" },
  { name = "Turret", kind = "gunnery", arc = "turret" },
]

[[unit]]
id = "rotor"
side = "B"
x = 30
y = 10
heading = 90
base = { shape = "circle", diameter = 3 }

[[unit]]
id = "third"
side = "C"
x = 45
y = 10
heading = 45
base = { shape = "rect", width = 2, length = 4 }
"""

SIZE = (1200, 860)


def with_lava(state):
    """Add a piece of a kind the loader does not know (as a rule system may add kinds)."""
    lava = Terrain("lava", "lava", SizeClass.SMALL, circle=Circle(60, 10, 4))
    return state.with_terrain((*state.terrain, lava))


@pytest.fixture(scope="module")
def state():
    return with_lava(loads_map(TABLE))


@pytest.fixture(scope="module")
def camera(state):
    return Camera.fit(state.board.bounds, SIZE, Margins(40, 40, 40, 40))


def at(surface, camera, x, y):
    px, py = camera.to_screen(x, y)
    return tuple(surface.get_at((round(px), round(py))))[:3]


def distance(a, b) -> float:
    return math.dist(a[:3], b[:3])


def fresh(camera) -> pygame.Surface:
    return pygame.Surface(camera.viewport)


# --------------------------------------------------------------------------- table, grid, ticks


def test_GEO002_1_grid_lines_every_two_feet(state, camera):
    """GEO002.1: the 2'x2' areas: a line at x = 24" and y = 24", none in between."""
    surface = fresh(camera)
    look = palette.background("sea")
    draw_table(surface, camera, state.board, look)
    draw_grid(surface, camera, state.board, look, shared_fonts())
    assert at(surface, camera, 24, 12) == look.grid
    assert at(surface, camera, 48, 40) == look.grid
    assert at(surface, camera, 60, 24) == look.grid
    assert at(surface, camera, 25, 12) == look.table


def test_GEO002_1_every_area_gets_its_name_in_its_corner(camera):
    """Partial areas at the right and top edges are named too (A002.5): 60x30 has C1 and C2."""
    board = Board(60, 30)
    camera = Camera.fit(board.bounds, SIZE, Margins(40, 40, 40, 40))
    surface = fresh(camera)
    look = palette.background("sea")
    draw_table(surface, camera, board, look)
    draw_grid(surface, camera, board, look, shared_fonts())
    for area in board.areas:
        left, top = camera.to_screen(area.x0, area.y1)
        corner = surface.subsurface((round(left) + 2, round(top) + 2, 40, 20))
        colours = {tuple(corner.get_at((x, y)))[:3] for x in range(40) for y in range(20)}
        assert any(distance(c, look.area_label) < 40 for c in colours), area.name


def test_edge_ticks_sit_outside_the_table_every_inch(state, camera):
    surface = fresh(camera)
    draw_table(surface, camera, state.board, palette.background("sea"))
    draw_edge_ticks(surface, camera, state.board, shared_fonts())
    for inches in (1, 6, 13, 71):
        x, y = camera.to_screen(inches, 0)
        assert tuple(surface.get_at((round(x), round(y) + 3)))[:3] == palette.TICK
        x, y = camera.to_screen(0, inches % 48)
        assert tuple(surface.get_at((round(x) - 3, round(y))))[:3] == palette.TICK
    # not between two inch marks
    x, y = camera.to_screen(6.5, 0)
    assert tuple(surface.get_at((round(x), round(y) + 3)))[:3] == palette.SURROUND


@pytest.mark.parametrize("scale", [0.6, 2.0, 5.0, 15.0, 40.0, 200.0])
def test_tick_numbers_never_crowd_each_other(scale):
    board = Board(72, 48)
    fonts = shared_fonts()
    minor, labelled = tick_steps(scale, fonts, board)
    assert minor * scale >= 4 or minor == 48.0
    assert labelled * scale >= fonts.width("72", 11) + 10 or labelled == 48.0
    assert labelled % minor == 0


def test_space_tables_have_stars_and_sea_tables_do_not(state, camera):
    def colours(name):
        surface = fresh(camera)
        draw_table(surface, camera, state.board, palette.background(name))
        rect = pygame.Rect(camera.screen_rect(state.board.bounds))
        pixels = pygame.surfarray.array3d(surface.subsurface(rect)).reshape(-1, 3).astype(int)
        packed = np.unique(pixels @ np.array([1 << 16, 1 << 8, 1]))
        return {(int(p >> 16), int(p >> 8 & 255), int(p & 255)) for p in packed}

    assert colours("sea") == {palette.background("sea").table}
    assert len(colours("space")) > 10
    assert palette.background("space").table in colours("space")
    assert palette.background("nowhere") == palette.background("sea")


# --------------------------------------------------------------------------- terrain


def test_terrain_interiors_have_their_kind_colour_and_hatching(state, camera):
    surface = fresh(camera)
    draw_terrain(surface, camera, state.terrain, shared_fonts(), labels=False)

    def inside(piece_id):
        x0, y0, x1, y1 = state.terrain_piece(piece_id).geometry.bounds
        left, top = camera.to_screen(x0 + 1, y1 - 1)
        right, bottom = camera.to_screen(x1 - 1, y0 + 1)
        patch = surface.subsurface(pygame.Rect(left, top, right - left, bottom - top))
        return set(map(tuple, pygame.surfarray.array3d(patch).reshape(-1, 3)))

    soft, dense, obstructing = (palette.TERRAIN_STYLES[k] for k in ("soft", "dense", "obstructing"))
    assert inside("shoal") == {soft.fill}  # soft: plain fill
    wood = inside("wood")
    assert dense.fill in wood and any(distance(c, dense.hatch_colour) < 25 for c in wood)
    peak = inside("peak")
    assert obstructing.fill in peak and any(
        distance(c, obstructing.hatch_colour) < 25 for c in peak
    )


def test_kinds_a_rule_system_adds_are_drawn_generically(state, camera):
    style = palette.terrain_style("lava")
    assert style == palette.terrain_style("lava")  # stable: same kind, same look
    assert style.fill in palette.GENERIC_FILLS and style.hatch == palette.Hatch.HORIZONTAL
    surface = fresh(camera)
    draw_terrain(surface, camera, state.terrain, shared_fonts(), labels=False)
    colours = {at(surface, camera, 60 + dx, 10 + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    assert style.fill in colours


def outline_thickness(surface, camera, piece, colour) -> int:
    x0, y0, _, y1 = piece.geometry.bounds
    px, py = camera.to_screen(x0, (y0 + y1) / 2)
    row = [tuple(surface.get_at((round(px) + dx, round(py))))[:3] for dx in range(-8, 9)]
    return sum(distance(c, colour) < 60 for c in row)


def test_R002_8_outline_weight_grows_with_surface_height(state, camera):
    """R002.8: Surface Height is a size class; taller pieces get heavier outlines."""
    surface = fresh(camera)
    draw_terrain(surface, camera, state.terrain, shared_fonts(), labels=False)
    massive = state.terrain_piece("peak")
    tiny = state.terrain_piece("shoal")
    thick = outline_thickness(
        surface, camera, massive, palette.TERRAIN_STYLES["obstructing"].outline
    )
    thin = outline_thickness(surface, camera, tiny, palette.TERRAIN_STYLES["soft"].outline)
    assert thick >= 4 and thin <= 2 and thick > thin
    widths = [
        palette.HEIGHT_OUTLINE[h] for h in sorted(palette.HEIGHT_OUTLINE, key=lambda h: h.rank)
    ]
    assert widths == sorted(widths) and len(set(widths)) == 5


def test_terrain_labels_name_the_piece(state, camera):
    plain, labelled = fresh(camera), fresh(camera)
    draw_terrain(plain, camera, state.terrain, shared_fonts(), labels=False)
    draw_terrain(labelled, camera, state.terrain, shared_fonts(), labels=True)
    x, y = camera.to_screen(45, 35)
    rect = pygame.Rect(round(x) - 30, round(y) - 16, 60, 32)
    assert any(
        plain.get_at(p) != labelled.get_at(p)
        for p in (
            (i, j) for i in range(rect.left, rect.right) for j in range(rect.top, rect.bottom)
        )
    )


@st.composite
def convex_polygons(draw):
    count = draw(st.integers(3, 12))
    angles = sorted(draw(st.lists(st.floats(0, 2 * math.pi), min_size=count, max_size=count)))
    radius = draw(st.floats(5, 200))
    cx, cy = draw(st.floats(-500, 500)), draw(st.floats(-500, 500))
    points = [(cx + radius * math.cos(a), cy + radius * math.sin(a)) for a in angles]
    polygon = shapely.convex_hull(shapely.MultiPoint(points))
    if polygon.geom_type != "Polygon" or polygon.area < 1:
        polygon = shapely.Point(cx, cy).buffer(radius)
    return polygon


@settings(max_examples=60, deadline=None)
@given(convex_polygons(), st.sampled_from([0.0, 45.0, 90.0, 135.0, 30.0]), st.floats(2, 12))
def test_hatch_lines_stay_inside_and_cover_the_piece_evenly(polygon, angle, spacing):
    """Every hatch segment lies inside the piece; together they sweep its area (scanline)."""
    segments = hatch_segments(polygon, angle, spacing)
    grown = polygon.buffer(1e-6)
    for a, b in segments:
        assert grown.contains(shapely.LineString([a, b]))
    total = sum(math.dist(a, b) for a, b in segments)
    x0, y0, x1, y1 = polygon.bounds
    diameter = math.hypot(x1 - x0, y1 - y0)
    assert abs(total * spacing - polygon.area) <= 2 * spacing * diameter + 1e-6


def test_hatching_leaves_holes_empty():
    square = shapely.box(0, 0, 100, 100).difference(shapely.box(30, 30, 70, 70))
    for a, b in hatch_segments(square, 45.0, 5.0):
        middle = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        assert not shapely.box(30.5, 30.5, 69.5, 69.5).contains(shapely.Point(middle))


# --------------------------------------------------------------------------- units


def shapes_of(state):
    return UnitShapes.of(state.units, palette.side_colours(state.sides))


def test_units_are_true_size_bases_in_their_side_colour(state, camera):
    surface = fresh(camera)
    draw_units(surface, camera, shapes_of(state), shared_fonts())
    assert at(surface, camera, 20.6, 8.5) == palette.SIDE_COLOURS["A"]  # rear half of a 2x5 base
    assert at(surface, camera, 20.9, 7.6) == palette.SIDE_COLOURS["A"]  # near the rear corner
    assert at(surface, camera, 21.2, 10) != palette.SIDE_COLOURS["A"]  # just off its side
    assert at(surface, camera, 30, 11.2) == palette.SIDE_COLOURS["B"]  # round base, 1.5" radius
    assert at(surface, camera, 30, 11.7) != palette.SIDE_COLOURS["B"]


def test_sides_beyond_a_and_b_get_colours_from_the_palette(state, camera):
    colours = palette.side_colours(state.sides)
    assert colours == {
        "A": palette.SIDE_COLOURS["A"],
        "B": palette.SIDE_COLOURS["B"],
        "C": palette.OTHER_SIDE_COLOURS[0],
    }
    surface = fresh(camera)
    draw_units(surface, camera, shapes_of(state), shared_fonts())
    # unit "third" at heading 45: a point behind its centre along its axis
    behind = (45 - 0.8 * math.sin(math.radians(45)), 10 - 0.8 * math.cos(math.radians(45)))
    assert at(surface, camera, *behind) == palette.OTHER_SIDE_COLOURS[0]


def test_labels_never_cover_each_other_and_the_selected_units_comes_first():
    """On the 200-unit map fitted to the window, labels that would overlap move away."""
    from tactical.io.paths import builtin_map

    crowded = load_map(builtin_map("stress-200"))
    view = Camera.fit(crowded.board.bounds, SIZE, Margins(40, 40, 40, 40))
    shapes = shapes_of(crowded)
    selected = crowded.units[-1].id
    placed = draw_units(fresh(view), view, shapes, shared_fonts(), selected=selected)
    assert len(placed) > 20
    for index, rect in enumerate(placed):
        assert rect.collidelist(placed[index + 1 :]) == -1
    unit = crowded.unit(selected)
    x, y = view.to_screen(unit.x, unit.y)
    assert placed[0].centerx == pytest.approx(x, abs=1) and placed[0].top > y
    everything = draw_units(fresh(view), view, shapes, shared_fonts())
    big_enough = sum(1 for extent in shapes.extents * view.scale if extent >= LABEL_MIN_EXTENT)
    # crowded: most names find room a little farther out, some have none (over a base):
    # left out, not piled (their own names only: "Ship 142", never the shorter id "B142")
    assert 0.7 * big_enough <= len(everything) < big_enough


def test_the_heading_marker_runs_from_the_centre_to_the_front(state, camera):
    surface = fresh(camera)
    draw_units(surface, camera, shapes_of(state), shared_fonts(), labels=False)
    assert distance(at(surface, camera, 20, 11), palette.HEADING_MARKER) < 60  # ahead of centre
    assert at(surface, camera, 20, 8.5) == palette.SIDE_COLOURS["A"]  # not behind it
    # the round base faces 90 (right): the marker is to the right of its centre
    assert distance(at(surface, camera, 31, 10), palette.HEADING_MARKER) < 60
    assert at(surface, camera, 29, 10.0) == palette.SIDE_COLOURS["B"]


def test_sprites_draw_what_direct_drawing_draws(state):
    camera = Camera(15.0, (40.0, 800.0), SIZE)  # unit centres on whole pixels, as sprites put them
    direct, cached = fresh(camera), fresh(camera)
    shapes = shapes_of(state)
    sprites = UnitSprites()
    draw_units(direct, camera, shapes, shared_fonts(), labels=False)
    # a scale seen for the first time is drawn directly, without sprites
    first = fresh(camera)
    draw_units(first, camera, shapes, shared_fonts(), labels=False, sprites=sprites)
    assert len(sprites) == 0
    assert (pygame.surfarray.array3d(first) == pygame.surfarray.array3d(direct)).all()
    draw_units(cached, camera, shapes, shared_fonts(), labels=False, sprites=sprites)
    a = pygame.surfarray.array3d(direct).astype(int)
    b = pygame.surfarray.array3d(cached).astype(int)
    changed = np.abs(a - b).max(axis=2) > 40
    drawn = (a.sum(axis=2) > 0) | (b.sum(axis=2) > 0)
    assert changed.sum() <= 0.05 * drawn.sum()
    assert len(sprites) == 3
    # panning reuses every sprite; zooming starts afresh
    draw_units(cached, camera.panned(7, 3), shapes, shared_fonts(), labels=False, sprites=sprites)
    assert len(sprites) == 3


def test_sprites_drawn_together_are_each_unit_drawn_alone(state):
    """The batch of sprites (`_draw_sprites`) holds, pixel for pixel, each unit drawn alone
    through a camera centred on it (`_draw_bases`), at scales that are not whole numbers."""
    shapes = shapes_of(state)
    for scale in (7.3, 15.0, 23.71):
        sprites = _draw_sprites(shapes, list(range(len(shapes.units))), scale)
        for index, (sprite, half) in enumerate(sprites):
            unit = shapes.units[index]
            size = 2 * half + 1
            alone = pygame.Surface((size, size), pygame.SRCALPHA)
            local = Camera.centred_on((unit.x, unit.y), (half, half), scale, (size, size))
            only = np.zeros(len(shapes.units), dtype=bool)
            only[index] = True
            _draw_bases(alone, local, shapes, only)
            assert sprite.get_size() == alone.get_size()
            assert (pygame.surfarray.array3d(sprite) == pygame.surfarray.array3d(alone)).all()
            alpha = pygame.surfarray.array_alpha
            assert (alpha(sprite) == alpha(alone)).all()


def test_a_selected_unit_is_ringed_in_white(state, camera):
    surface = fresh(camera)
    draw_units(surface, camera, shapes_of(state), shared_fonts(), selected="rotor", labels=False)
    x, y = camera.to_screen(30, 10 - 1.5)
    column = [tuple(surface.get_at((round(x), round(y) + dy)))[:3] for dy in range(1, 6)]
    assert any(distance(c, palette.SELECTED_OUTLINE) < 60 for c in column)


def test_labels_show_under_the_base_and_vanish_when_zoomed_far_out(state, camera):
    def label_pixels(cam):
        surface = pygame.Surface(cam.viewport)
        draw_units(surface, cam, shapes_of(state), shared_fonts())
        x, y = cam.to_screen(20, 10)
        extent = state.unit("ruler").base.radius * cam.scale
        rect = pygame.Rect(round(x) - 40, round(y + extent) + 2, 80, 14).clip(surface.get_rect())
        patch = pygame.surfarray.array3d(surface.subsurface(rect)).reshape(-1, 3)
        return sum(distance(tuple(c), palette.LABEL) < 60 for c in patch)

    assert label_pixels(camera) > 20
    far = Camera.fit(state.board.bounds, (120, 90))
    far = far.zoomed(LABEL_MIN_EXTENT * 0.9 / (state.unit("ruler").base.radius * far.scale), (0, 0))
    assert label_pixels(far) == 0


# --------------------------------------------------------------------------- overlays


def test_overlapping_arcs_both_tint_the_table(state, camera):
    """The fore arc lies inside the 270° turret arc: where they overlap both tints show."""
    system = registry.get(state.rules)
    plain, selected = fresh(camera), fresh(camera)
    SceneRenderer(terrain_labels=False).draw(plain, state, camera, system)
    SceneRenderer(terrain_labels=False).draw(
        selected, state, camera, system, selected="ruler", sight_lines=False
    )
    ahead = at(selected, camera, 22, 20)  # fore and turret
    abeam = at(selected, camera, 28, 9)  # turret only (bearing ~97°)
    behind = at(selected, camera, 20, 6)  # aft: neither (turret is 225..135)
    table = at(plain, camera, 22, 20)
    assert ahead != table and abeam != table and ahead != abeam
    assert behind == at(plain, camera, 20, 6)


def test_an_all_round_arc_is_outlined_not_tinted():
    """A Cortex vessel's one arc covers every bearing: a tint over its whole reach would say
    nothing and hide the table, so only its edge and the rings are drawn."""
    from tactical.io.paths import builtin_map

    space = load_map(builtin_map("cortex-space"))
    system = registry.get(space.rules)
    view = Camera.fit(space.board.bounds, SIZE, Margins(40, 40, 40, 40))
    unit = space.units[0]
    assert [arc.all_round for arc in selection_view(space, system, unit.id).arcs] == [True]
    plain, selected = fresh(view), fresh(view)
    SceneRenderer(terrain_labels=False).draw(plain, space, view, system)
    SceneRenderer(terrain_labels=False).draw(
        selected, space, view, system, selected=unit.id, sight_lines=False
    )
    unchanged = sum(
        at(selected, view, x, y) == at(plain, view, x, y)
        for x in range(2, 72, 5)
        for y in range(2, 48, 5)
    )
    assert unchanged >= 0.8 * 14 * 10  # all but the rings, the units and their labels


def test_blocking_terrain_is_outlined_when_it_blocks_a_shown_line(camera):
    state = with_lava(
        loads_map(
            TABLE.replace(
                "x = 45\ny = 10\nheading = 45", "x = 45\ny = 44\nheading = 45"
            ).replace(  # lines are drawn to the units in range: 12" bands reach 48"
                'rules = "dystopian-wars"\n',
                'rules = "dystopian-wars"\n[options]\nrange_band_inches = 12\n',
            )  # "third" now behind the peak as seen from the ruler, 42" away
        )
    )
    system = registry.get(state.rules)
    view = selection_view(state, system, "ruler")
    assert "peak" in view.blocking
    surface = fresh(camera)
    SceneRenderer(terrain_labels=False).draw(surface, state, camera, system, selected="ruler")
    x, y = camera.to_screen(50, 33)  # right edge of the peak, away from every line
    row = [tuple(surface.get_at((round(x) + dx, round(y))))[:3] for dx in range(-3, 4)]
    assert any(distance(c, palette.BLOCKING_HIGHLIGHT) < 60 for c in row)


# --------------------------------------------------------------------------- deployment, legend


def test_R002_17_deployment_strip_is_the_edge_length_by_eight_inches():
    """R002.17: a deployment zone is the full length of the side's edge x 8" deep."""
    board = Board(72, 48)
    assert deployment_strip(board, "bottom", 8).bounds == (0, 0, 72, 8)
    assert deployment_strip(board, "top", 8).bounds == (0, 40, 72, 48)
    assert deployment_strip(board, "left", 8).bounds == (0, 0, 8, 48)
    assert deployment_strip(board, "right", 8).bounds == (64, 0, 72, 48)
    with pytest.raises(ValueError):
        deployment_strip(board, "middle", 8)


def test_a_deployment_zone_tints_its_strip_only(state, camera):
    surface = fresh(camera)
    look = palette.background("sea")
    draw_table(surface, camera, state.board, look)
    draw_deployment_zone(surface, camera, state.board, "bottom", 8, palette.DEPLOYMENT_TINTS["A"])
    assert at(surface, camera, 36, 4) != look.table
    assert at(surface, camera, 36, 12) == look.table


def test_the_legend_lists_what_the_picture_shows(state):
    colours = palette.side_colours(state.sides)
    labels = [e.label for e in legend_entries(state, colours)]
    assert labels[:4] == ["obstructing", "soft", "dense", "lava"]
    assert {"tiny", "small", "medium", "massive"} <= set(labels)
    assert {"side A", "side B", "side C"} <= set(labels)
    view = selection_view(state, registry.get(state.rules), "ruler")
    with_view = [e.label for e in legend_entries(state, colours, view)]
    assert {"fore", "turret", "range band", "LOS clear", "LOS blocked"} <= set(with_view)


def test_the_legend_wraps_within_its_width_and_draws_its_swatches():
    fonts = shared_fonts()
    entries = [LegendEntry(f"entry {k}", "fill", (200, 10 * k, 40)) for k in range(12)]
    rows = layout_legend(fonts, entries, 300)
    assert len(rows) > 1
    for row in rows:
        last, offset = row[-1]
        assert offset + 21 + fonts.width(last.label, 12) <= 300
    surface = pygame.Surface((320, legend_height(rows) + 4))
    draw_legend(surface, fonts, (0, 0), rows)
    first, offset = rows[0][0]
    assert tuple(surface.get_at((offset + 8, 8)))[:3] == first.colour


def test_hatching_many_polygons_at_once_is_hatching_each_alone():
    """`hatch_many` (a table's terrain in one batch) gives each polygon, to the bit and in
    the same order, the runs `hatch_segments` gives it alone: holes, parallel edges,
    polygons without lines, empty ones."""
    rng = np.random.default_rng(18)
    polygons = [shapely.Polygon(), shapely.box(10, 10, 10.5, 10.5)]
    for k in range(60):
        if k % 3 == 0:
            ring = shapely.Point(150, 150).buffer(rng.uniform(5, 90))
            polygons.append(ring.difference(shapely.Point(150, 150).buffer(rng.uniform(1, 4))))
        elif k % 3 == 1:
            polygons.append(
                shapely.box(*sorted(rng.uniform(0, 300, 2)), *sorted(rng.uniform(0, 300, 2)))
            )
        else:
            polygons.append(shapely.MultiPoint(rng.uniform(0, 300, (9, 2))).convex_hull)
    for angle in (45.0, -45.0, 0.0, 90.0, 30.0):
        spacing = float(rng.uniform(3, 9))
        anchor = (float(rng.uniform(-5, 5)), float(rng.uniform(-5, 5)))
        together = hatch_many([ring_edges(p) for p in polygons], angle, spacing, anchor)
        assert together == [hatch_segments(p, angle, spacing, anchor) for p in polygons]
        assert sum(map(len, together)) > 100


def test_a_terrain_kind_of_several_words_reads_as_words_in_the_legend():
    cortex = load_map(builtin_map("cortex-space"))
    assert "large-city" in {piece.kind for piece in cortex.terrain}
    labels = [e.label for e in legend_entries(cortex, palette.side_colours(cortex.sides))]
    assert "large city" in labels and "large-city" not in labels


def test_a_crowded_label_is_the_units_name_cut_never_its_id():
    """Where the whole name does not fit, a unit's label is its name cut ("Wachter Class
    Sk…", "Wachter…"), the name its card and the log give: a unit "zeppelin" named
    "Wachter Class Sky Fortress" read "Zeppelin" on the table. A number the name ends in
    is kept ("Cylon Ra… 1"); a unit with no name reads its id in words ("Tribal 1")."""
    assert id_words("attacker-3") == "Attacker 3"
    assert id_words("blucher_class_2") == "Blucher class 2"
    fonts = shared_fonts()
    name = "Wachter Class Sky Fortress"
    room = fonts.width("Wachter Class", UNIT_LABEL_SIZE)
    labels = [label for label, _ in _label_candidates(fonts, name, "zeppelin", room)]
    assert labels and all(label.startswith("Wachter") for label in labels), labels
    assert labels[0].endswith("…") and "Wachter…" in labels
    assert not any("eppelin" in label for label in labels)
    numbered = [t for t, _ in _label_candidates(fonts, "Cylon Raider 12", "raider-12", room - 30)]
    assert numbered and all(t.startswith("Cyl") and t.endswith("… 12") for t in numbered)
    assert [t for t, _ in _label_candidates(fonts, "", "tribal-1", 200)] == ["Tribal 1"]
    whole = [label for label, _ in _label_candidates(fonts, name, "zeppelin", 1000)]
    assert whole[0] == name
