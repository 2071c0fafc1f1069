"""Pixels of the play screen's frame at known table points: what is drawn where."""

from __future__ import annotations

import pygame
import pytest

from tactical.io.maps import load_map
from tactical.io.paths import builtin_map, default_map_path
from tactical.ui import palette
from tactical.ui.app import App


@pytest.fixture
def app():
    return App(load_map(default_map_path()), (1280, 800), headless=True)


def at(app: App, x: float, y: float) -> tuple[int, int, int]:
    px, py = app.view.camera.to_screen(x, y)
    return tuple(app.frame().get_at((round(px), round(py))))[:3]


def test_open_sea_is_the_rule_systems_background(app):
    assert app.system.background == "sea"
    assert at(app, 66, 26) == palette.background("sea").table


def test_space_tables_use_their_background():
    for name in ("battlefleet-mars", "cortex-space"):
        state = load_map(builtin_map(name))
        app = App(state, (800, 600), headless=True)
        look = palette.background(app.system.background)
        width, height = state.board.width, state.board.height
        colours = {at(app, width * fx, height * fy) for fx in (0.1, 0.5, 0.9) for fy in (0.1, 0.9)}
        assert app.system.background == "space"
        assert look.table in colours


def test_a_units_centre_is_its_side_colour_and_outside_the_table_is_surround(app):
    unit = app.state.unit("markgraf")
    assert at(app, unit.x + 0.3, unit.y + 1.5) == palette.SIDE_COLOURS["B"]
    # left of the table, beyond its tick labels (the fitted camera keeps a tick band there)
    px, py = app.view.camera.to_screen(-2.5, 21)
    edge, _ = app.view.camera.to_screen(0, 21)
    assert 0 <= round(px) < edge - 20
    assert tuple(app.frame().get_at((round(px), round(py))))[:3] == palette.SURROUND


def test_deployment_zone_tints_its_strip_only(app):
    app.toggle_mode()
    inside, outside = (66, 4), (66, 26)
    plain_inside = at(app, *inside)
    app.setup.do_roll_off()
    app.setup.choose_edge("bottom")
    assert at(app, *inside) != plain_inside
    assert at(app, *outside) == palette.background("sea").table


def test_ruler_is_drawn_along_its_segment(app):
    app.toggle_measure()
    start = app.view.camera.to_screen(60, 30)
    end = app.view.camera.to_screen(70, 30)
    for pos in (start, end):
        pos = (round(pos[0]), round(pos[1]))
        app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
        app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    assert app.view.ruler.done
    assert at(app, 63, app.view.ruler.start[1]) == (255, 230, 0)


def test_help_overlay_covers_the_table_when_shown(app):
    centre = (640, 400)
    before = tuple(app.frame().get_at(centre))
    app.toggle_help()
    app.step()
    assert tuple(app.frame().get_at(centre)) != before
