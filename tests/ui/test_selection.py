"""What is drawn for a selected unit: arcs, range-band rings, lines of sight (values, no pixels)."""

from __future__ import annotations

import math

import pytest
import shapely

from tactical.errors import UserError
from tactical.io import loads_map
from tactical.present.selection import band_limits, selection_view
from tactical.rules import registry
from tactical.rules.base import MeasuringConventions, RangeBand, RangeBands, RuleSystem
from tactical.rules.measuring import TableGeometry

DW_TABLE = """
rules = "dystopian-wars"
[board]
width = 72
height = 48
{options}

[[terrain]]
id = "island"
kind = "dense"
height = "large"
polygon = [[30, 20], [42, 20], [42, 28], [30, 28]]

[[terrain]]
id = "reef"
kind = "soft"
height = "tiny"
polygon = [[10, 30], [16, 30], [16, 34], [10, 34]]

[[unit]]
id = "ship"
side = "A"
x = 36
y = 8
heading = 0
base = {{ shape = "rect", width = 1.5, length = 4 }}
[unit.stats]
weapons = [{{ name = "Guns", kind = "gunnery", arc = "fore" }}]

[[unit]]
id = "behind-island"
side = "B"
x = 36
y = 40
heading = 180
base = {{ shape = "rect", width = 1, length = 3 }}

[[unit]]
id = "flyer"
side = "B"
x = 38
y = 42
heading = 180
base = {{ shape = "circle", diameter = 2 }}
movement = "aerial"
[unit.stats]
height_level = "flying"

[[unit]]
id = "over-reef"
side = "B"
x = 8
y = 40
heading = 90
base = {{ shape = "circle", diameter = 1 }}
"""


def dw_state(options: str = ""):
    return loads_map(DW_TABLE.format(options=options))


def test_range_rings_follow_the_dystopian_wars_bands():
    """Range Bands 1-4 of 8" each (GEO002.7, external default A002.3): rings at 8/16/24/32."""
    state = dw_state()
    system = registry.get(state.rules)
    view = selection_view(state, system, "ship")
    assert [(r.name, r.distance) for r in view.rings] == [
        ("RB1", 8.0),
        ("RB2", 16.0),
        ("RB3", 24.0),
        ("RB4", 32.0),
    ]
    assert view.radius == 32.0


def test_range_rings_follow_the_maps_options():
    """The map's [options] change the bands (range_band_inches), and the rings with them."""
    state = dw_state("[options]\nrange_band_inches = 6.0")
    system = registry.get(state.rules)
    limits = band_limits(system, state.unit("ship"), system.options(state.options), 100.0)
    assert limits == (("RB1", 6.0), ("RB2", 12.0), ("RB3", 18.0), ("RB4", 24.0))


def test_rings_are_circles_about_the_centre_when_measured_from_the_centre():
    state = dw_state()
    view = selection_view(state, registry.get(state.rules), "ship")
    ring = view.rings[0].outline
    distances = [math.dist((36, 8), point) for point in ring.coords]
    assert min(distances) == pytest.approx(8.0, abs=0.01)
    assert max(distances) == pytest.approx(8.0, abs=0.01)


def test_rings_measured_from_the_base_edge_surround_the_base():
    """A system measuring from the base edge gets rings at that distance from the footprint."""
    edge_system = RuleSystem(
        id="edge-test",
        title="edge test",
        seed="999",
        conventions=MeasuringConventions(
            distance_from="edge", range_bands=RangeBands((RangeBand("near", 5.0),))
        ),
    )
    state = dw_state()
    view = selection_view(state, edge_system, "ship", sight_lines=False)
    (ring,) = view.rings
    footprint = state.unit("ship").footprint
    gaps = [footprint.distance(shapely.Point(p)) for p in ring.outline.coords]
    assert min(gaps) == pytest.approx(5.0, abs=0.02) and max(gaps) == pytest.approx(5.0, abs=0.02)


def test_arcs_reach_the_longest_band_and_stay_on_the_table():
    state = dw_state()
    view = selection_view(state, registry.get(state.rules), "ship")
    (fore,) = view.arcs
    assert fore.name == "fore"
    region = fore.region
    assert region.contains(shapely.Point(36, 30))  # dead ahead, inside 32"
    assert not region.contains(shapely.Point(36, 5))  # astern
    assert not region.contains(shapely.Point(36, 41))  # ahead but beyond RB4
    farthest = max(math.dist((36, 8), p) for p in region.exterior.coords)
    assert farthest <= 32.0 + 1e-6
    assert shapely.box(0, 0, 72, 48).buffer(1e-9).contains(region)


def test_a_unit_without_weapons_shows_the_systems_arcs():
    state = dw_state()
    view = selection_view(state, registry.get(state.rules), "behind-island")
    assert [a.name for a in view.arcs] == ["fore", "starboard", "aft", "port"]


def test_sight_lines_are_the_numbers_tactical_check_prints():
    """LOS comes from the rules layer's TableGeometry: the same answers as `tactical check`."""
    state = dw_state()
    system = registry.get(state.rules)
    view = selection_view(state, system, "ship")
    lines = {line.target: line for line in view.sight_lines}
    reports = {r.target: r for r in TableGeometry.of(state, system).all_pairs("ship")}
    assert set(lines) == set(reports)
    for target, report in reports.items():
        assert lines[target].clear == report.los
        assert lines[target].blocked_by == report.blocked_by
        assert lines[target].start == (36.0, 8.0)
        assert lines[target].end == (state.unit(target).x, state.unit(target).y)


def test_R002_40_dense_terrain_blocks_a_surface_target_but_not_a_flyer():
    """R002.40: between the surface and a Flying model only large+ obstructing terrain blocks."""
    state = dw_state()
    view = selection_view(state, registry.get(state.rules), "ship")
    lines = {line.target: line for line in view.sight_lines}
    assert lines["behind-island"].clear is False
    assert lines["behind-island"].blocked_by == ("island",)
    assert lines["flyer"].clear is True
    assert view.blocking == ("island",)


def test_soft_terrain_does_not_block():
    state = dw_state()
    view = selection_view(state, registry.get(state.rules), "ship")
    line = next(line for line in view.sight_lines if line.target == "over-reef")
    assert shapely.LineString([line.start, line.end]).intersects(
        state.terrain_piece("reef").geometry
    )
    assert line.clear is True


def test_without_sight_lines_nothing_is_computed_for_them():
    state = dw_state()
    view = selection_view(state, registry.get(state.rules), "ship", sight_lines=False)
    assert view.sight_lines == () and view.blocking == ()


def test_an_unknown_unit_is_a_user_error_naming_the_units():
    state = dw_state()
    with pytest.raises(UserError) as error:
        selection_view(state, registry.get(state.rules), "nobody")
    assert "nobody" in str(error.value) and "ship" in str(error.value)


COMMON_TABLE = """
rules = "{rules}"
[board]
width = 72
height = 48
{options}
[[unit]]
id = "one"
side = "A"
x = 10
y = 10
heading = 0
base = {{ shape = "circle", diameter = 1 }}
{stats}
[[unit]]
id = "two"
side = "B"
x = 60
y = 40
heading = 180
base = {{ shape = "circle", diameter = 1 }}
"""


def test_GEO003_7_cortex_range_categories_become_rings():
    """GEO003.7: personal < skirmish < capital < short DRADIS < long DRADIS, inches by option."""
    state = loads_map(COMMON_TABLE.format(rules="cortex-space", options="", stats=""))
    view = selection_view(state, registry.get(state.rules), "one")
    assert [(r.name, r.distance) for r in view.rings] == [
        ("personal", 1.0),
        ("skirmish", 12.0),
        ("capital", 36.0),
        ("short DRADIS", 72.0),
        ("long DRADIS", 144.0),
    ]
    # the last band reaches past the table: the arc covers the whole table
    assert view.radius == pytest.approx(math.hypot(72, 48))
    assert view.arcs[0].region.area == pytest.approx(72 * 48, rel=1e-3)


def test_GEO004_2_star_wars_rings_are_the_weapons_ranges():
    """GEO004.2: Point Blank below Short's minimum, then Short / Medium / Long (Space units)."""
    stats = (
        '[unit.stats]\nweapons = [{ name = "Turbolasers", arc = "front", ranges = "3-15/35/75" }]'
    )
    state = loads_map(
        COMMON_TABLE.format(
            rules="sw-d6-capital", options="[options]\ninches_per_space = 0.5", stats=stats
        )
    )
    view = selection_view(state, registry.get(state.rules), "one")
    assert [(r.name, r.distance) for r in view.rings] == [
        ("point-blank", 1.5),
        ("short", 7.5),
        ("medium", 17.5),
        ("long", 37.5),
    ]
    assert [a.name for a in view.arcs] == ["front", "right", "rear", "left"]


def test_no_range_bands_means_arcs_out_to_the_table_diagonal():
    state = loads_map(COMMON_TABLE.format(rules="sw-d6-capital", options="", stats=""))
    view = selection_view(state, registry.get(state.rules), "one")
    assert view.rings == ()
    assert view.radius == pytest.approx(math.hypot(72, 48))
