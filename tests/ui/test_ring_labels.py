"""Issue h21a, part 1: the selected unit's range-band labels keep clear of the units' names.

Each ring's label stands just inside its ring, at the top where that is free, else slid
along the ring to a free place; the names stay where they were before the selection.
"""

from __future__ import annotations

import math

import numpy as np
import pygame
import pytest
import shapely
from ui_events import move, screen, settle
from ui_play_driver import select_on_table

from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.present.selection import RangeRing
from tactical.rules.measuring import TableGeometry
from tactical.session.controller import Session
from tactical.session.history import History
from tactical.ui.app import App
from tactical.ui.camera import Camera
from tactical.ui.fonts import shared_fonts
from tactical.ui.ring_labels import RING_LABEL_GAP, place_ring_labels, ring_label_text

SIZE = (1280, 800)


@pytest.mark.parametrize(
    ("rules_id", "unit_id"),
    [
        ("battlefleet-mars", "ares-catapult"),
        ("heavy-combat", "enterprise"),
        ("dystopian-wars", "tribal-1"),
        ("cortex-space", "raider-1"),
        ("sw-d6-capital", "isd"),
    ],
)
def test_ring_labels_cover_no_name_and_the_names_stay_put(rules_id, unit_id):
    """A unit selected on the play screen (one whose rings' tops run through other units'
    names, where a system has one): every ring on the table has its label, inside the
    table, none over a unit's name drawn, a token or another ring's label; the names
    are those drawn before the selection, where they were (none gave way to the
    selected unit's)."""
    game = Session.new(load_map(builtin_map(rules_id)), 3).game
    app = App(game.state, SIZE, headless=True, session=Session(History((game,), 0)))
    settle(app, 1)
    app.frame()
    renderer, camera = app.table.renderer, app.view.camera
    before = {u: r for u, r, _, _ in renderer.drawn_labels(app.state, camera, SIZE)}
    select_on_table(app, unit_id)
    assert app.view.selected == unit_id
    app.frame()
    view = renderer.selection(app.state, app.system, unit_id)
    labels = renderer.ring_labels
    table = pygame.Rect(camera.screen_rect(app.state.board.bounds))
    on_table = [
        ring for ring in view.rings if shapely.box(*app.state.board.bounds).intersects(ring.outline)
    ]
    assert [label.text for label in labels] == [ring_label_text(ring) for ring in on_table]
    names = renderer.drawn_labels(app.state, camera, SIZE, unit_id)
    tokens = [t for t in app.table.tokens.drawn.values() if t.width]
    for index, label in enumerate(labels):
        assert table.contains(label.rect), label
        hits = [(u, r) for u, r, _, _ in names if label.rect.colliderect(r)]
        assert not hits, (label, hits)
        assert label.rect.collidelist(tokens) == -1, label
        assert label.rect.collidelist([other.rect for other in labels[index + 1 :]]) == -1
    # every name stays, where it was: the selected unit's own too, and none gives way to it
    assert {unit: rect for unit, rect, _, _ in names} == before


def test_a_ring_label_slides_along_its_ring_off_a_name():
    """A 10" ring around a unit at the middle of a 20 px/inch screen: its label stands
    just inside the ring's top; with a name there it slides to the first free place along
    the ring, still touching the ring (RING_LABEL_GAP inside it)."""
    camera = Camera(20.0, (400.0, 300.0), (800, 600))
    ring = RangeRing("Long", 10.0, shapely.Point(0, 0).buffer(10.0, quad_segs=32).exterior)
    fonts = shared_fonts()
    within = pygame.Rect(0, 0, 800, 600)
    centre = camera.to_screen(0, 0)
    (free,) = place_ring_labels([ring], camera, fonts, (0, 0), within)
    assert free.text == 'Long 10"'
    assert free.rect.centerx == round(centre[0])
    assert free.rect.top == round(centre[1] - 200) + RING_LABEL_GAP
    name = free.rect.inflate(60, 10)
    (moved,) = place_ring_labels([ring], camera, fonts, (0, 0), within, names=[name])
    assert not moved.rect.colliderect(name)
    # still on the ring: its corner nearest the ring lies RING_LABEL_GAP inside it
    corners = np.array(
        [moved.rect.topleft, moved.rect.topright, moved.rect.bottomleft, moved.rect.bottomright]
    )
    farthest = max(math.dist(corner, centre) for corner in corners)
    assert 200 - RING_LABEL_GAP - 4 <= farthest <= 200


def test_rings_too_close_for_their_labels_leave_out_those_that_would_overlap():
    """Nine rings an inch apart round a unit at 2 px/inch (Battlefleet Mars' bands,
    zoomed far out): no two labels overlap (four did), none covers a name; the outer
    rings, with room on them, keep theirs."""
    camera = Camera(2.0, (400.0, 300.0), (800, 600))
    rings = [
        RangeRing(f"R{k}", float(k + 1), shapely.Point(0, 0).buffer(k + 1.0).exterior)
        for k in range(9)
    ]
    fonts = shared_fonts()
    name = pygame.Rect(0, 0, 90, 14)
    name.midtop = (400, 304)  # the unit's own name, under it
    labels = place_ring_labels(
        rings, camera, fonts, (0, 0), pygame.Rect(0, 0, 800, 600), names=[name]
    )
    texts = [label.text for label in labels]
    assert 0 < len(texts) < len(rings)  # some left out: there is no room for all nine
    assert 'R8 9"' in texts
    for index, label in enumerate(labels):
        assert not label.rect.colliderect(name)
        assert label.rect.collidelist([other.rect for other in labels[index + 1 :]]) == -1


def test_the_distance_pointed_at_stands_on_a_plate_over_the_rings():
    """With a unit selected and another pointed at, the witness distance ("32.00\\"")
    is drawn on a dark plate, so the selected unit's ring lines and labels it crosses do
    not run through its figures: the plate's corner pixels are the plate, not a ring."""
    game = Session.new(load_map(builtin_map("heavy-combat")), 3).game
    app = App(game.state, SIZE, headless=True, session=Session(History((game,), 0)))
    settle(app, 1)
    select_on_table(app, "enterprise")
    kronos = app.state.unit("kronos")
    move(app, screen(app, kronos.x, kronos.y))
    settle(app, 2)
    app.frame()
    report = TableGeometry.of(app.state).pair("enterprise", "kronos")
    witness = report.witness
    camera = app.view.camera
    start, end = camera.to_screen(*witness.start), camera.to_screen(*witness.end)
    middle = (round((start[0] + end[0]) / 2), round((start[1] + end[1]) / 2 + 12))
    label = app.table.renderer.fonts.render(f'{witness.distance:.2f}"', 14, (255, 255, 255))
    rect = label.get_rect(center=middle).inflate(6, 2)
    surface = app.screen
    corners = [rect.topleft, (rect.right - 1, rect.top), (rect.left, rect.bottom - 1)]
    for corner in corners:
        r, g, b, *_ = surface.get_at(corner)
        assert max(r, g, b) < 60, (corner, (r, g, b))  # the dark plate, not a light line
