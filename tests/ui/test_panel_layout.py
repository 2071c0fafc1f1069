"""Readable odds and a stable, roomy panel, at 1280x800 in every rule system.

The declaration with the most fields a scenario offers is opened with a target: its form
scrolls (the wheel brings every row into view) while the odds chart keeps at least a
third of the action panel, drawn at its own size (never scaled down), its bars in view.
The log shows several lines, the action list its 8 rows; the legend stays left of the
panels; the tracker shows the order the rules produced, unit by unit, where they keep one.
"""

from __future__ import annotations

import time

import pygame
import pytest
from ui_events import settle

from tactical.errors import UserError
from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.model import FrozenMap
from tactical.rules import registry
from tactical.rules.base import Action
from tactical.rules.status import Unavailable
from tactical.session import autoplay
from tactical.session.controller import Session
from tactical.ui import table_view
from tactical.ui.app import App
from tactical.ui.hover_panels import beside
from tactical.ui.odds_chart import BAR
from tactical.ui.play_panels import log_font
from tactical.ui.services import PANEL_WIDTH

SEED = 3
SIZE = (1280, 800)
STEPS = 60
FIRING = ("attack", "fire", "declare-attack", "roll_power")


def app_for(rules_id: str) -> App:
    state = load_map(builtin_map(rules_id))
    app = App(state, SIZE, headless=True, session=Session.new(state, SEED))
    app.play.warm_odds()
    return app


def _unit_fields(app, choice) -> list[str]:
    units = {u.id for u in app.state.units}
    return [f.name for f in choice.fields if any(c in units for c in f.choices or ())]


def _has_odds(app, choice) -> bool:
    units = [u.id for u in app.state.units if u.id != choice.actor]
    params = {f.name: f.default for f in choice.fields if f.default is not None}
    for name in _unit_fields(app, choice):
        spec = next(f for f in choice.fields if f.name == name)
        listed = [c for c in spec.choices or () if c in units]
        if listed and params.get(name) in (None, ""):
            params[name] = listed[0]
    try:
        return app.play.game.odds(Action(choice.kind, choice.actor, FrozenMap(params))) is not None
    except UserError:
        return False


def widest_declaration(app):
    """The offered choice with a unit to take, odds, and the most form fields, or None."""
    choices = [c for c in app.play.actions.choices if _unit_fields(app, c)]
    choices = [c for c in choices if not app.play.can_draw(c) and _has_odds(app, c)]
    return max(choices, key=lambda c: len(c.fields), default=None)


def reach_a_declaration(app, hold: bool):
    """Play until a declaration with a target is offered: the stand-in's steps, or (holding)
    the first firing action the rules allow, else a pass."""
    for _ in range(STEPS):
        choice = widest_declaration(app)
        if choice is not None:
            return choice
        game = app.play.session.game
        if hold:
            made = False
            for offered in game.choices():
                if offered.kind in FIRING and not made:
                    for params in autoplay.candidate_params(offered):
                        if app.play.do(Action(offered.kind, offered.actor, params)):
                            made = True
                            break
            if not made:
                app.play.next_go()
        else:
            step = autoplay.next_game(game).last_step
            if step.is_pass:
                app.play.next_go()
            else:
                app.play.do(step.action)
    return None


def open_with_odds(app, choice) -> None:
    actions = app.play.actions
    app.select(choice.actor if app.state.has_unit(choice.actor) else None)
    actions.pick(choice)
    app.play.panel_command("picked", None)
    units = {u.id for u in app.state.units}
    for spec in choice.fields:
        listed = [c for c in spec.choices or () if c in units and c != choice.actor]
        if listed and actions.values.get(spec.name) in (None, ""):
            actions.set_value(spec.name, listed[0])
            app.play.refresh_odds()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not actions.has_odds:
        settle(app, 1)
        time.sleep(0.01)
    settle(app, 2)


@pytest.mark.parametrize("rules_id", registry.rule_ids())
def test_the_odds_chart_keeps_a_third_of_the_panel_and_the_form_scrolls(rules_id):
    app = app_for(rules_id)
    choice = reach_a_declaration(app, hold=False)
    if choice is None:  # the stand-in never aims (its ships close in): hold and fire
        app.play.close()
        app = app_for(rules_id)
        choice = reach_a_declaration(app, hold=True)
    assert choice is not None, "no declaration with a target in the scenario's first steps"
    actions = app.play.actions
    list_rect = actions.choice_list.get_abs_rect()
    open_with_odds(app, choice)
    assert actions.has_odds, (choice.title, app.play._shown_odds)
    picture = app.frame()
    image = actions.odds_image
    rect = image.get_abs_rect()
    panel = actions.panel.get_abs_rect()
    assert image.visible and panel.contains(rect)
    assert rect.height * 3 >= panel.height  # at least a third of the panel
    assert rect.size == image.image.get_size() == actions.odds_size()  # not scaled down
    bar = [
        (x, y)
        for x in range(rect.left, rect.right, 2)
        for y in range(rect.top, rect.bottom, 2)
        if tuple(picture.get_at((x, y)))[:3] == BAR
    ]
    assert bar, "no bar of the chart on the screen"
    assert actions.choice_list.get_abs_rect() == list_rect  # the list stays put
    # every row of the form is brought into view by the wheel over the form, above the chart
    rows = actions._rows
    for name in [row.field.name for row in rows]:
        for _ in range(len(rows) + 1):
            row = next(r for r in actions._rows if r.field.name == name)
            widget = row.widget.get_abs_rect()
            if panel.contains(widget):
                break
            index = actions._rows.index(row)
            notches = 1 if index < actions.form.first else -1
            app.input.mouse = actions.form_rect().center
            app.handle(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=notches, flipped=False))
        assert panel.contains(widget) and widget.bottom <= rect.top, name
    app.play.close()


def test_a_long_form_scrolls_and_the_chart_does_not_shrink():
    """With more fields than the form has room for, the rows in view share a fixed band and a
    scroll bar stands beside them; the chart's room is the same as with one field."""
    app = app_for("dystopian-wars")
    choice = reach_a_declaration(app, hold=False)
    actions = app.play.actions
    actions.pick(choice)
    long_room = actions.odds_size()
    scrolls = actions.form.shown < len(actions._rows)
    if scrolls:
        assert actions.form.bar is not None and actions.form.bar.visible
    assert actions.form.shown >= 2  # at 1280x800 two rows of the form at least
    settle(app, 4)
    assert actions.form.first == 0  # frames alone never scroll it
    short = next(c for c in actions.choices if len(c.fields) <= 1)
    actions.pick(short)
    assert actions.odds_size()[1] >= long_room[1] * 3 // 3
    assert long_room[1] * 3 >= actions.panel.get_abs_rect().height
    app.play.close()


def test_the_log_shows_several_lines_at_1280x800():
    app = app_for("battlefleet-mars")
    area = app.play.log.log_area.get_abs_rect()
    line = log_font().get_linesize()
    assert area.height >= 4 * line  # "~2 lines" before the panel was made roomy
    app.step()
    # a log shorter than its area shows from its first line (not scrolled out of sight)
    assert app.play.log.log_area.scrollable_container.relative_rect.top == 0
    tracker, actions, log = app.play.tracker.rect, app.play.actions.rect, app.play.log.rect
    assert tracker.bottom < actions.top < actions.bottom < log.top <= log.bottom <= SIZE[1]
    app.play.close()


def test_the_legend_stays_left_of_the_panels(monkeypatch):
    drawn = []
    original = table_view.draw_legend

    def record(surface, fonts, topleft, rows):
        drawn.append((topleft, rows, fonts))
        return original(surface, fonts, topleft, rows)

    monkeypatch.setattr(table_view, "draw_legend", record)
    app = app_for("dystopian-wars")  # the most legend entries, with a ship's arcs
    app.select(app.state.units[0].id)
    app.frame()
    (left, _), rows, fonts = drawn[-1]
    right = max(
        left + offset + 22 + fonts.width(entry.label, 12) for row in rows for entry, offset in row
    )
    assert right <= SIZE[0] - PANEL_WIDTH - 4
    assert sum(len(row) for row in rows) >= 12 and len(rows) >= 2  # flowed, not dropped
    app.play.close()


def test_the_tracker_shows_the_initiative_order_and_who_acts_now():
    """Cortex (R003.11): in the Actions phase the vessels act by initiative; the tracker lists
    them with their results, the one acting now marked, and names its side to act."""
    app = app_for("cortex-space")
    for _ in range(STEPS):
        game = app.play.session.game
        if game.phase_name == "Actions":
            break
        step = autoplay.next_game(game).last_step
        if step.is_pass:
            app.play.next_go()
        else:
            app.play.do(step.action)
    view = app.play.tracker.view
    assert view.acting, "no order unit by unit in the Actions phase"
    # a tie acts together (R003.11): the side to act has one of the vessels acting now
    acting = [e for e in view.acting if e.acting and e.side == view.side_to_act]
    assert acting
    assert all(e.result for e in view.acting)
    html = app.play.tracker.html
    assert "Units: " in html and "» <font" in html
    assert acting[0].name in app.play.tracker.side_label.text
    app.play.close()


def test_the_pair_panel_keeps_off_the_unit_card_and_the_pointer():
    """A tall card in the top corner away from the pointer: the pair panel goes to the other
    bottom corner rather than over the card, and neither covers the pointer."""
    area = pygame.Rect(0, 36, 948, 700)
    pointer = (672, 385)
    card = beside(pygame.Rect(0, 0, 340, 560), pointer, area, top=True)
    pair = beside(pygame.Rect(0, 0, 350, 200), pointer, area, top=False, avoid=card)
    assert not pair.colliderect(card)
    for rect in (card, pair):
        assert area.contains(rect) and not rect.collidepoint(pointer)
    alone = beside(pygame.Rect(0, 0, 350, 200), pointer, area, top=False)
    assert alone.colliderect(card)  # without the card to avoid it would sit under it


def test_a_long_status_is_cut_to_its_bar_and_kept_whole_in_its_tool_tip():
    app = app_for("battlefleet-mars")
    label = app.status.label
    assert label.rect.right <= SIZE[0] - PANEL_WIDTH  # under the table, beside the panels
    long = "Deimos Base's laser at Ares cruiser Nemesis: " + "hit, " * 60 + "done"
    app.set_status(long)
    assert app.view.status == long
    assert label.text.endswith("…") and label.font.size(label.text)[0] <= label.rect.width
    assert label.tool_tip_text == long
    app.set_status("short")
    assert label.text == "short" and not label.tool_tip_text
    app.play.close()


def test_a_cut_row_of_the_list_shows_its_whole_label_and_a_greyed_one_why():
    """Full labels: a row too long for the list carries its whole label as a
    tool tip; a greyed row (refused now) carries the rules' reason and SPEC id."""
    app = app_for("battlefleet-mars")
    actions = app.play.actions
    refused = Unavailable("mars-miner", "Miner Olympus: laser", "it has fired this turn", "R000.3")
    actions.set_choices(actions.choices, (refused,))
    app.step()
    tips = {
        item["text"]: item["button_element"].tool_tip_text
        for item in actions.choice_list.item_list
        if item["button_element"] is not None
    }
    long = [text for text in tips if actions._text_width(text) > actions.choice_list.rect.width]
    assert long and all(tips[text] == text for text in long)
    short = [
        text for text in tips if actions._text_width(text) < actions.choice_list.rect.width / 2
    ]
    assert short and all(tips[text] is None for text in short)
    greyed = actions.unavailable_labels[0]
    actions._scroll_to(len(actions.choices))
    app.step()
    button = next(i["button_element"] for i in actions.choice_list.item_list if i["text"] == greyed)
    assert button.tool_tip_text == "Miner Olympus: laser: it has fired this turn (R000.3)"
    app.play.close()
