"""The scenes described once (`tactical.drawing.scenes`): pure values, no drawing."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
import shapely

from tactical.drawing import scenes
from tactical.drawing.files import checked_output
from tactical.drawing.primitives import Arc, Hatch, Line, Polygon, Raster, Ring, Style, Text
from tactical.drawing.wording import wrap
from tactical.errors import UserError
from tactical.geometry.arcs_spec import Channel, Omni, Sector
from tactical.model import Circle, SizeClass, Terrain

TINTS = ((10, 20, 30, 40), (50, 60, 70, 80))


@dataclass(frozen=True)
class _Arc:
    region: shapely.Geometry
    all_round: bool = False


@dataclass(frozen=True)
class _Band:
    name: str
    distance: float
    outline: shapely.Geometry


def test_fire_arcs_tint_each_sector_then_draw_every_arc_line_but_the_table_edge():
    # an arc cut by the table's left edge: its line along that edge is no arc line
    cut = shapely.box(0, 0, 6, 6)
    whole = shapely.Point(10, 10).buffer(3)
    arcs = [_Arc(cut), _Arc(whole, all_round=True)]
    found = scenes.fire_arcs(arcs, (0, 0, 24, 24), lambda k: TINTS[k], 190)
    assert [type(p) for p in found] == [Polygon, Line, Line]  # no tint for the all-round arc
    assert found[0].style == Style(fill=(10, 20, 30), alpha=40, smooth=False)
    assert found[1].style == Style(colour=(10, 20, 30), alpha=190, smooth=False)
    assert found[2].style.colour == (50, 60, 70)
    edges = found[1].geometry
    assert edges.length == pytest.approx(12.0, abs=1e-3)  # the two inner sides only
    assert not edges.intersects(shapely.LineString([(0, 1), (0, 5)]))
    assert found[2].geometry.length == pytest.approx(whole.exterior.length, abs=1e-6)


def test_range_rings_are_named_by_band_and_inches():
    outline = shapely.Point(0, 0).buffer(12).exterior
    rings = scenes.range_rings(
        [_Band("Short", 12.0, outline), _Band("2", 24.0, outline), _Band("Long", 37.5, outline)],
        (255, 255, 255, 120),
    )
    assert all(isinstance(ring, Ring) for ring in rings)
    assert [ring.label for ring in rings] == ['Short 12"', 'band 2: 24"', 'Long 37.5"']
    assert rings[0].geometry is outline and rings[0].distance == 12.0
    assert rings[0].style == Style(colour=(255, 255, 255), alpha=120, smooth=False)


def _look(piece: Terrain) -> scenes.TerrainLook:
    hatch = (45.0,) if piece.kind == "dense" else ()
    width = {SizeClass.SMALL: 2, SizeClass.LARGE: 4}[piece.height]
    return scenes.TerrainLook((1, 2, 3), (4, 5, 6), width, hatch, (7, 8, 9))


def test_terrain_is_filled_hatched_by_kind_and_outlined_by_height_R002_8():
    wood = Terrain("w", "dense", SizeClass.LARGE, polygon=((0, 0), (4, 0), (4, 4)))
    pond = Terrain("p", "soft", SizeClass.SMALL, circle=Circle(10, 10, 2))
    found = scenes.terrain([wood, pond], _look, 7)
    assert [type(p) for p in found] == [Polygon, Hatch, Polygon, Polygon, Polygon]
    fill, hatch, outline = found[:3]
    assert fill.geometry is wood.geometry and fill.style == Style(fill=(1, 2, 3))
    assert (hatch.angles, hatch.spacing, hatch.anchor) == ((45.0,), 7, (0.0, 0.0))
    assert hatch.style.colour == (7, 8, 9)
    assert outline.style == Style(colour=(4, 5, 6), width=4)
    assert found[4].style.width == 2 and found[4].style.fill is None  # the pond: no hatching


def test_the_threat_map_is_a_raster_over_the_table_top_row_first():
    ramp = np.array([(0, 0, 200, 50), (200, 0, 0, 250)], dtype=float)
    counts = np.array([[0, 1], [2, 4]])  # bottom row first, as the grid is
    raster = scenes.threat_map(counts, (0, 0, 10, 6), ramp)
    assert isinstance(raster, Raster) and raster.bounds == (0, 0, 10, 6)
    assert raster.rgba.dtype == np.uint8 and raster.rgba.shape == (2, 2, 4)
    assert raster.rgba[0, 1].tolist() == [200, 0, 0, 250]  # the top row's most: the ramp's end
    assert raster.rgba[1, 0].tolist() == [0, 0, 0, 0]  # nothing bears: transparent
    assert raster.rgba[0, 0].tolist() == [100, 0, 100, 150]  # halfway along the ramp
    assert scenes.heat_colours(np.zeros((2, 3)), ramp).sum() == 0


def test_an_arc_template_draws_sector_edges_and_channel_sides_in_the_base_frame():
    style = Style((191, 25, 140), 0.8)
    arcs = (Sector("fore", 315.0, 45.0), Channel(), Omni(), Sector("all", 0.0, 360.0))
    lines = scenes.arc_template(arcs, 1.0, 2.0, 1.0, style)
    reach = np.hypot(2.0, 3.0)
    assert scenes.arc_bearings(arcs) == [45.0, 315.0]
    ends = [tuple(np.round(line.geometry.coords[-1], 6)) for line in lines]
    assert ends[:2] == [(-1.0, round(2.0 + reach, 6)), (1.0, round(2.0 + reach, 6))]
    assert ends[2] == pytest.approx((reach * np.sqrt(0.5), reach * np.sqrt(0.5)))
    assert ends[3] == pytest.approx((-reach * np.sqrt(0.5), reach * np.sqrt(0.5)))
    labels = scenes.arc_template_labels(arcs, 1.0, 2.0, False, 6, style)
    assert [label.text for label in labels] == ["45°", "315°"]
    assert all(isinstance(label, Text) and label.anchor == "baseline" for label in labels)
    # where the 45° line leaves a 2" x 4" base (its side, 1" out), a third of an inch on
    assert np.hypot(*labels[0].at) == pytest.approx(np.sqrt(2) + 0.35)


def test_an_arc_is_a_sector_clockwise_from_its_start_bearing():
    wedge = Arc((0.0, 0.0), 2.0, 0.0, 90.0, Style()).polygon()
    assert wedge.contains(shapely.Point(1.0, 1.0))  # between ahead (+y) and right (+x)
    assert not wedge.contains(shapely.Point(-1.0, 1.0))
    assert wedge.area == pytest.approx(np.pi, rel=1e-3)
    disc = Arc((5.0, 5.0), 1.0, 30.0, 30.0, Style()).polygon()
    assert disc.area == pytest.approx(np.pi, rel=1e-3)  # a whole turn: the disc


def test_wrap_breaks_between_words_by_the_measure_given():
    assert wrap("one two three four", 9, len) == ["one two", "three", "four"]
    assert wrap("unbreakable", 3, len) == ["unbreakable"]


def test_an_output_must_have_its_kind_of_file(tmp_path):
    assert checked_output(tmp_path / "a.PNG", ".png") == tmp_path / "a.PNG"
    with pytest.raises(UserError, match=r"must be a \.pdf file"):
        checked_output(tmp_path / "a.png", ".pdf")
