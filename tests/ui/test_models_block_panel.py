"""The play screen's pair panel and the adjudication card name a model blocking the line of
sight by the name a player reads, never its id (R002.41 / A002.21)."""

from __future__ import annotations

import pytest
from ui_events import click, move, screen

from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.ui.app import App
from tactical.ui.card import card_lines
from tactical.ui.card_view import card_view


@pytest.fixture(scope="module")
def dogger():
    # the three Attacker frigates stand in a row: the first's line to the Ruler runs
    # through the other two
    return load_map(builtin_map("dystopian-wars"))


def test_R002_41_the_pair_panel_names_the_models_in_the_way(dogger):
    app = App(dogger, (1280, 800), headless=True)
    firer, target = dogger.unit("attacker-3"), dogger.unit("ruler")
    click(app, screen(app, firer.x, firer.y))
    move(app, screen(app, target.x, target.y))
    assert app.hover.pair_report is not None and not app.hover.pair_report.los
    html = app.pair_panel.box.html_text
    assert app.pair_panel.box.visible
    assert "LOS blocked by the models Attacker Class Frigate 2, Attacker Class Frigate 1" in html
    assert "attacker-2" not in html and "attacker-1" not in html


def test_R002_41_the_adjudication_card_names_the_models_and_refuses_the_guns(dogger):
    view = card_view(dogger, "attacker-3", "markgraf")  # the clear line: for contrast
    assert view.report.blocking_models == ()
    view = card_view(dogger, "blucher-3", "markgraf")
    lines = [line for _, line in card_lines(view)]
    blocked = [line for line in lines if line.startswith("blocked by")]
    assert blocked == ["blocked by the models Blucher Class Frigate 2, Blucher Class Frigate 1"]
    assert not any("blucher-2" in line for line in blocked)
