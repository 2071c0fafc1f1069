"""Issue 13: no Python representation reaches the screen, the log or the status bar.

The first steps of a scripted game in every rule system are played through the play screen
(tests/ui_play_driver.py); after every step the hovered unit's card is shown, a
declaration is opened on the panel, and every string the ui draws is gathered:
the widgets' texts (labels, buttons, text boxes, lists, menus, entries, tool
tips), everything drawn with the renderer's fonts (table labels, tokens, odds
chart, move card) and the log panel's lines. None may read like code: a repr
(`AttackSummary(hits=...`, `FrozenMap(`), `True` / `False` / `None`, or a
snake_case name (`take_default`, `battery_damage`).
"""

from __future__ import annotations

import pygame
import pytest
from plain_words import code_like
from pygame_gui.elements import (
    UIButton,
    UIDropDownMenu,
    UILabel,
    UISelectionList,
    UITextBox,
    UITextEntryLine,
)
from ui_events import move, screen, settle
from ui_play_driver import play_step

from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.rules import registry
from tactical.session.controller import Session
from tactical.ui.app import App
from tactical.ui.fonts import Fonts

SEED = 5
STEPS = 24  # per system: every phase of a turn in most, the first attacks in all


def test_the_detector_sees_what_it_must():
    """The patterns catch a repr, Python's words and snake_case (the scan can fail)."""
    assert code_like("result: AttackSummary(hits=5, saved=1)")
    assert code_like("FrozenMap({'a': 1})")
    assert code_like("destroyed=True") and code_like("effect None")
    assert code_like("take_default: no")
    assert not code_like("Markgraf's main turrets: 6 hits, none saved — Hull 7 → 6")
    assert not code_like("<b>Hull</b>: 8/8 · saved tactical-view-1.png")


def widget_strings(app) -> list[str]:
    found = []
    for element in app.manager.get_sprite_group().sprites():
        if not getattr(element, "visible", True):
            continue
        if isinstance(element, UILabel | UIButton):
            found.append(element.text)
        elif isinstance(element, UITextBox):
            found.append(element.html_text)
        elif isinstance(element, UISelectionList):
            found.extend(item["text"] for item in element.item_list)
        elif isinstance(element, UIDropDownMenu):
            found.extend(str(option[0]) for option in element.options_list)
        elif isinstance(element, UITextEntryLine):
            continue  # what the player typed, or a value to edit: data, not words
        tip = getattr(element, "tool_tip_text", None)
        if tip:
            found.append(tip)
    return found


@pytest.mark.parametrize("rules_id", registry.rule_ids())
def test_a_scripted_game_draws_no_code(rules_id, monkeypatch):
    drawn: list[str] = []
    original = Fonts.render

    def render(self, text, size, colour):
        drawn.append(text)
        return original(self, text, size, colour)

    monkeypatch.setattr(Fonts, "render", render)
    state = load_map(builtin_map(rules_id))
    app = App(state, (1280, 800), headless=True, session=Session.new(state, SEED))
    seen: dict[str, str] = {}

    def look(number: int) -> None:
        # the card of a unit (cycling through them) and the first offered declaration's form
        units = app.state.units
        if units:
            unit = units[number % len(units)]
            move(app, screen(app, unit.x, unit.y))
        actions = app.play.actions
        if actions.choices and actions.picked is None:
            actions.pick(0)
            app.play.refresh_odds()
        settle(app, 2)
        app.frame()
        for text in [*widget_strings(app), *drawn, *app.play.log.lines, app.view.status]:
            for bad in code_like(text):
                seen.setdefault(bad, text)
        drawn.clear()
        actions.pick(None)
        move(app, screen(app, *app.state.board.bounds[:2]))

    look(0)
    for number in range(1, STEPS + 1):
        play_step(app, number)
        look(number)
    app.play.close()
    pygame.event.clear()
    assert seen == {}
