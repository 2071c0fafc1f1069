"""The action list keeps its order when a row is clicked: a move row selects its unit (its
move tool starts), and the selected unit's rows are listed first only when the unit is
picked on the table, not from the list itself (the next row a player aims at stays where
it was)."""

from __future__ import annotations

from ui_events import settle
from ui_play_driver import pick_row

from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.session.controller import Session
from tactical.ui.app import App


def test_clicking_rows_does_not_reorder_the_list():
    state = load_map(builtin_map("battlefleet-mars"))  # a row per unit's move, and more
    app = App(state, (1280, 800), headless=True, session=Session.new(state, 1))
    settle(app, 2)
    panel = app.play.actions
    order = list(panel.choices)
    assert len(order) >= 4
    try:
        for choice in reversed(order):  # from the last row up: each is a click on the list
            pick_row(app, choice)
            settle(app, 3)
            assert list(panel.choices) == order, choice.title
            assert panel.picked == choice
        # a unit picked on the table still brings its rows first
        last = order[-1].actor
        app.play.cancel_move()
        app.select(None)
        app.select(last)
        settle(app, 2)
        assert panel.choices[0].actor == last
    finally:
        app.play.close()
