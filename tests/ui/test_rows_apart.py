"""Action rows are told apart by their first words: in every list of rows a rule system
offers over a few scripted turns of its built-in map, no two rows read the same once the
action list cuts them at 1280x800 ("Nowhere: Quad Turbolasers (front) at I…" twice), and
none shows a unit's or a terrain piece's id where its name belongs.

The lists are those of scripted games of each map: the stand-in's (`tactical.session.
autoplay`) and a wanderer's that takes any offered choice its seeded dice pick (lists the
stand-in never meets: several vessels' missiles in flight, other targets), offered on the
play screen's own action panel as the App offers them: the choices, then the greyed rows of
the phase the rules refuse now."""

from __future__ import annotations

import random

import pytest
from plain_words import ids_shown
from ui_events import settle

from tactical.errors import UserError
from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.rules.base import Action
from tactical.session import autoplay
from tactical.session.controller import Session
from tactical.session.game import Game
from tactical.ui.app import App

SIZE = (1280, 800)
SYSTEMS = ("battlefleet-mars", "heavy-combat", "dystopian-wars", "cortex-space", "sw-d6-capital")
SEEDS = (1, 2)
TURNS = 3
MAX_STEPS = 300  # per seed: Dystopian Wars' squadron activations take many steps a turn


def _wandered(game: Game, rng: random.Random) -> Game:
    """The game after a choice picked by `rng` among those offered (with values it picks
    among each field's listed ones), or after a pass where none it tries applies."""
    offered = list(game.choices())
    rng.shuffle(offered)
    for choice in offered[:6]:
        values = list(autoplay.candidate_params(choice))
        rng.shuffle(values)
        for params in values[:4]:
            try:
                return game.apply(Action(choice.kind, choice.actor, params))
            except UserError:
                continue
    return game.pass_go()


def _lists(name: str, seed: int):
    """Each game of the stand-in's play of `name`, then of the wanderer's, until turn
    `TURNS` is over."""
    rng = random.Random(seed)
    for player in (autoplay.next_game, lambda game: _wandered(game, rng)):
        game = Game.new(load_map(builtin_map(name)), seed)
        for _ in range(MAX_STEPS):
            if game.over or game.turn > TURNS:
                break
            yield game
            game = player(game)


def _refused(game: Game):
    try:
        return game.system.unavailable(game.state, game.position, game.side_to_act)
    except UserError:
        return ()


def rows_read_alike(name: str) -> tuple[list[tuple[str, str, str]], list[tuple[str, str]]]:
    """The pairs of rows of one list that read the same once cut (phase, one, other) and
    the rows showing an id (id, row), over the scripted games of `name`."""
    state = load_map(builtin_map(name))
    app = App(state, SIZE, headless=True, session=Session.new(state, SEEDS[0]))
    settle(app, 1)
    panel = app.play.actions
    alike: dict[tuple[str, str], tuple[str, str, str]] = {}
    shown_ids: set[tuple[str, str]] = set()
    try:
        for seed in SEEDS:
            for game in _lists(name, seed):
                panel.set_choices(game.choices(), _refused(game))
                ids = [u.id for u in game.state.units] + [t.id for t in game.state.terrain]
                read: dict[str, str] = {}
                for row in panel.labels + panel.unavailable_labels:
                    shown_ids.update((found, row) for found in ids_shown(row, ids))
                    cut = panel.row_shown(row)
                    if cut in read:
                        alike.setdefault((game.phase_name, cut), (game.phase_name, read[cut], row))
                    read[cut] = row
    finally:
        app.play.close()
    return list(alike.values()), sorted(shown_ids)


@pytest.mark.parametrize("name", SYSTEMS)
def test_rows_of_one_list_differ_in_the_words_the_list_shows(name):
    alike, shown_ids = rows_read_alike(name)
    assert not alike, f"{len(alike)} pairs of rows read the same: {alike}"
    assert not shown_ids, shown_ids
