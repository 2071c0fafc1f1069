"""Setup mode's Fairness panel, zone shading and Fair roll, headless (R002.9, R002.17)."""

from __future__ import annotations

import pygame
import pygame_gui
import pytest
from shapely.geometry import Point
from ui_events import key, press_button, screen

from tactical.io.maps import load_map
from tactical.io.paths import default_map_path
from tactical.threat.fairness import fairest, score_layout
from tactical.ui.app import App
from tactical.ui.setup_mode import FAIR_TRIES


@pytest.fixture(scope="module")
def default_state():
    return load_map(default_map_path())


@pytest.fixture
def app(default_state):
    app = App(default_state, (1280, 800), headless=True)
    key(app, pygame.K_TAB)
    assert app.view.mode == "setup"
    return app


def _cells(app):
    """(point, hits) of every shaded cell of both zones, on screen and clear of the units."""
    footprints = [u.footprint for u in app.state.units]
    found = []
    for zone in app.setup.score.zones:
        for (x, y), hits in zip(zone.points, zone.hits, strict=True):
            if not any(f.distance(Point(x, y)) < 1.5 for f in footprints):
                found.append(((x, y), int(hits)))
    return found


def test_the_panel_shows_the_score_and_its_parts(app):
    app.frame()
    expected = score_layout(app.state, "bottom")
    assert app.setup.score == expected
    text = app.setup.fairness_box.html_text
    assert f"{expected.fairness:.2f}</b> of 1" in text
    for words in ("Safe on turn one", "Table seen from the zone", "Lanes", "Symmetry"):
        assert words in text
    assert "Zones until the roll-off: A bottom, B top" in text  # none chosen yet


def test_the_zones_are_shaded_by_what_the_enemy_can_hit(app):
    app.frame()
    cells = _cells(app)
    hit = next(p for p, h in cells if h)
    safe = next(p for p, h in cells if not h)  # the default table hides a few cells
    shaded = app.frame().copy()
    press_button(app, app.setup.shading_button)
    assert not app.setup.shading and app.setup.shading_button.text == "Show shading"
    plain = app.frame().copy()
    on_hit, off_hit = shaded.get_at(screen(app, *hit)), plain.get_at(screen(app, *hit))
    on_safe, off_safe = shaded.get_at(screen(app, *safe)), plain.get_at(screen(app, *safe))
    assert on_hit.r - on_hit.g > off_hit.r - off_hit.g  # redder where the enemy can hit
    assert on_safe.g - on_safe.r > off_safe.g - off_safe.r  # greener where it cannot


def test_the_score_follows_the_zones_chosen(app):
    app.frame()
    app.setup.do_roll_off()
    winner = app.setup.rolloff.winner
    app.setup.choose_edge("top")
    app.frame()
    first = app.state.sides[0]
    edge = "top" if winner == first else "bottom"
    assert app.setup.score == score_layout(app.state, edge)
    assert "until the roll-off" not in app.setup.fairness_box.html_text


def test_fair_roll_asks_then_keeps_the_fairest_table(app):
    scenario = app.state.terrain
    press_button(app, app.setup.fair_button)
    assert app.state.terrain == scenario and app.setup.confirm is not None  # asked first
    seed = app.setup._asked_seed
    app.handle(
        pygame.event.Event(
            pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED, ui_element=app.setup.confirm
        )
    )
    state = app.state
    kept = fairest(
        state.with_terrain(()),
        range(seed, seed + FAIR_TRIES),
        "bottom",
        keep_clear=[u.footprint for u in state.units],
    )
    assert state.terrain == kept.setup.terrain
    assert app.setup.seed == kept.seed and app.setup.seed_entry.get_text() == str(kept.seed)
    assert f"fair roll: seed {kept.seed}" in app.view.status
    app.frame()
    assert app.setup.score.fairness == pytest.approx(kept.score.fairness)
