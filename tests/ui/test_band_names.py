"""A range band named by a bare number reads as words on the play screen (issue h21c, part 3).

Heavy Combat's bands are named "1", "2", "3": a ring's label read "2 24\"" (two numbers in a
row) and the hover panel "range 32.00\": 3". Decided by the name's shape, not the system:
a band named only by a number is "band 3" (as the adjudication card already says), a
named one ("Short", "RB1") stays as it is.
"""

from __future__ import annotations

import shapely
from ui_events import settle
from ui_play_driver import select_on_table

from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.present.selection import RangeRing
from tactical.rules.conventions import band_name
from tactical.rules.measuring import TableGeometry
from tactical.session.controller import Session
from tactical.session.history import History
from tactical.ui.app import App
from tactical.ui.hover_panels import pair_html, unit_names
from tactical.ui.ring_labels import ring_label_text

SIZE = (1280, 800)


def _ring(name: str, inches: float) -> RangeRing:
    return RangeRing(name, inches, shapely.Point(0, 0).buffer(inches).exterior)


def test_a_ring_named_by_a_number_reads_band_and_its_distance_after_a_colon():
    assert ring_label_text(_ring("2", 24.0)) == 'band 2: 24"'
    assert ring_label_text(_ring("3", 37.5)) == 'band 3: 37.5"'
    # a named band as it was
    assert ring_label_text(_ring("Short", 12.0)) == 'Short 12"'
    assert ring_label_text(_ring("RB1", 8.0)) == 'RB1 8"'
    assert [band_name(n) for n in ("1", "12", "RB2", "long DRADIS")] == [
        "band 1",
        "band 12",
        "RB2",
        "long DRADIS",
    ]


def test_heavy_combat_rings_on_the_play_screen_read_as_bands():
    """The Enterprise selected at 1280x800: each of its rings on the table labelled "band n:
    d\"" (12" steps, GEO001.7), no label a bare pair of numbers."""
    game = Session.new(load_map(builtin_map("heavy-combat")), 3).game
    app = App(game.state, SIZE, headless=True, session=Session(History((game,), 0)))
    settle(app, 1)
    select_on_table(app, "enterprise")
    app.frame()
    texts = [label.text for label in app.table.renderer.ring_labels]
    assert texts, "no ring label drawn"
    assert texts == [f'band {n}: {12 * n}"' for n in range(1, len(texts) + 1)]


def test_the_hover_panels_range_line_names_a_numbered_band():
    state = load_map(builtin_map("heavy-combat"))
    report = TableGeometry.of(state).pair("enterprise", "kronos")
    assert (report.distance, report.range_band) == (32.0, "3")
    lines = pair_html(report, False, unit_names(state, ("enterprise", "kronos"))).split("<br>")
    assert 'range 32.00": band 3' in lines
