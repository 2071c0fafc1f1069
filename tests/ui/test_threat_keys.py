"""The play screen's threat layers: R reach, T threat map, V advice, K card,
each on one key, named in the legend and the help; pixels and text asserted."""

from __future__ import annotations

import os

import pygame
import pytest
from ui_events import key, move, screen

from tactical.io import load_map
from tactical.io.paths import builtin_map
from tactical.ui.app import App
from tactical.ui.chrome import CONTROLS
from tactical.ui.threat_layer import REACH_EDGE


@pytest.fixture
def app():  # a screen per test: each test's end stops its odds worker
    state = load_map(builtin_map("dystopian-wars.toml"))
    return App(state, (1280, 800), headless=True)


def legend_labels(app) -> list[str]:
    return [e.label for e in app.play.overlays.legend(app.state, app.view.selected,
                                                     app.play.session.side_to_act)]  # fmt: skip


def test_each_layer_has_one_key_in_the_help():
    keys = {k for k, _ in CONTROLS}
    assert {"R", "T", "V", "K"} <= keys


def test_reach_key_draws_the_region_and_names_it(app):
    side = app.play.session.side_to_act
    unit = next(u for u in app.state.units if u.side == side)
    app.select(unit.id)
    key(app, pygame.K_r)
    assert app.play.overlays.show_reach
    found = app.play.overlays.reach(app.state, unit.id)
    assert len(found) > 0
    surface = app.frame()
    # the region's outline: near each of its vertices a pixel of the outline colour
    polygons = getattr(found.region, "geoms", [found.region])
    points = [p for polygon in polygons for p in polygon.exterior.coords][:60]

    def near_edge(x: float, y: float) -> bool:
        px, py = screen(app, x, y)
        return any(
            sum(abs(a - b) for a, b in zip(surface.get_at((px + dx, py + dy))[:3], REACH_EDGE,
                                           strict=True)) < 90
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
        )  # fmt: skip

    assert sum(near_edge(x, y) for x, y in points) >= len(points) // 2
    assert f"reach of {app.state.shown_names[unit.id]}" in legend_labels(app)
    key(app, pygame.K_r)
    assert not app.play.overlays.show_reach and legend_labels(app) == []


def test_threat_key_cycles_weapons_damage_off(app):
    side = app.play.session.side_to_act
    unit = next(u for u in app.state.units if u.side == side)
    app.select(unit.id)
    before = app.frame().copy()
    key(app, pygame.K_t)
    assert app.play.overlays.threat_mode == "weapons"
    threat = app.play.overlays.threat(app.state, unit.id, side)
    after = app.frame()
    # the hottest cell is tinted red-ward where the table was drawn before
    row, column = divmod(int(threat.count.argmax()), len(threat.grid.xs))
    pos = screen(app, float(threat.grid.xs[column]), float(threat.grid.ys[row]))
    assert before.get_at(pos) != after.get_at(pos)
    assert any(label.startswith(f"threat to {side}:") for label in legend_labels(app))
    key(app, pygame.K_t)
    assert app.play.overlays.threat_mode == "damage"
    name = app.state.shown_names[unit.id]
    assert any(label.startswith(f"threat to {name}") for label in legend_labels(app))
    key(app, pygame.K_t)
    assert app.play.overlays.threat_mode == "off"


def test_advice_key_shows_the_best_moves_and_moves_nothing(app):
    side = app.play.session.side_to_act
    unit = next(u for u in app.state.units if u.side == side and u.id == "ruler")
    app.select(unit.id)
    units_before = app.state.units
    key(app, pygame.K_v)
    advice = app.play.overlays.advice(app.state, unit.id)
    assert advice and app.state.units == units_before
    assert "advised moves" in legend_labels(app)
    app.frame()


def test_card_key_writes_the_pairs_card(app, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app.select("ruler")
    target = app.state.unit("markgraf")
    move(app, screen(app, target.x, target.y))
    key(app, pygame.K_k)
    written = sorted(os.listdir(tmp_path))
    assert written == ["tactical-card-1.png"]
    assert pygame.image.load(str(tmp_path / written[0])).get_size() == (1400, 900)


def test_card_key_without_a_pair_says_what_to_do(app, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app.select(None)
    key(app, pygame.K_k)
    assert os.listdir(tmp_path) == []
