"""Adjust mode mid-game: a unit's damage state typed in the quick entry line,
headless with synthetic events; the card and the log say it in words."""

from __future__ import annotations

import pygame
import pytest

from tactical.io import builtin_map, load_map
from tactical.rules import registry
from tactical.ui.app import App
from tests.ui_events import click, key, press_at, screen, settle, type_text

SIZE = (1280, 800)
LINES = {
    "dystopian-wars": ("ruler", "set ruler hull 3", "Hull 3/8"),
    "heavy-combat": ("enterprise", "set enterprise shield fore 3", "Shield fore 3/27"),
}


@pytest.mark.parametrize("rules", sorted(LINES))
def test_a_damage_state_typed_mid_game_is_set_and_shown(rules):
    unit_id, line, shown = LINES[rules]
    app = App(load_map(builtin_map(rules)), SIZE, headless=True)
    key(app, pygame.K_F2)
    unit = app.state.unit(unit_id)
    click(app, screen(app, unit.x, unit.y))
    app.frame()
    assert "set a value by typing: set " in app.adjust.panel.values.html_text
    app.adjust.panel.entry.set_text("")
    press_at(app, app.adjust.panel.entry.get_abs_rect().center)
    type_text(app, line)
    key(app, pygame.K_RETURN)
    settle(app)
    status = registry.get(rules).unit_status(app.state, app.state.unit(unit_id))
    assert shown in [f"{value.label} {value.text}" for value in status.values]
    assert shown in app.adjust.panel.values.html_text
    name = app.state.shown_names[unit_id]  # the player typed the id, the log names the unit
    assert app.play.session.game.last_step.title.startswith(f"adjust: {name} status set:")
