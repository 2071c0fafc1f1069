"""Hot-seat on one screen with hidden information (R001.29): the screen is covered between
goes while the Klingon is cloaked, and the Federation's goes show only its view: the
cloaked Kronos drawn faded where it was last seen, none of its moves in any string drawn
(table, panels, log, status line); once the cloak drops, the record appears. A game that
hides nothing is never covered."""

from __future__ import annotations

import pygame
from cloak_game import FED, KLINGON, KRONOS, PLAN, TRUE_MOVES, played_turns
from test_plain_words import widget_strings
from ui_events import key, screen

from tactical.io import builtin_map, load_map
from tactical.model import FrozenMap
from tactical.rules.base import Action
from tactical.session.controller import Session
from tactical.session.saving import save_game
from tactical.session.views import viewed
from tactical.ui import palette
from tactical.ui.app import App
from tactical.ui.fonts import Fonts
from tactical.ui.handover import COVER, SideSession, played
from tactical.ui.units_layer import _washed

LAST_SEEN = (52.0, 24.0)
MOVEMENT = "Reaction movement"


def hot_seat(rules: str = "heavy-combat") -> App:
    state = load_map(builtin_map(rules))
    app = App(state, (1280, 800), headless=True, session=Session.new(state, 7))
    app.play.sync()
    return app


class Strings:
    """Every string the screen draws with its fonts, and those its widgets hold."""

    def __init__(self, monkeypatch) -> None:
        self.drawn: list[str] = []
        original = Fonts.render

        def render(fonts, text, size, colour):
            self.drawn.append(text)
            return original(fonts, text, size, colour)

        shadowed_original = Fonts.shadowed

        def shadowed(fonts, text, size, colour, shadow):
            self.drawn.append(text)
            return shadowed_original(fonts, text, size, colour, shadow)

        monkeypatch.setattr(Fonts, "render", render)
        monkeypatch.setattr(Fonts, "shadowed", shadowed)

    def frame(self, app: App) -> list[str]:
        self.drawn.clear()
        app.step()
        app.frame()
        return [*self.drawn, *widget_strings(app), *app.play.log.lines, app.view.status]


def pixels_around(app: App, x: float, y: float) -> set[tuple[int, int, int]]:
    """The colours drawn within a few pixels of the table point (x, y)."""
    cx, cy = screen(app, x, y)
    return {
        tuple(app.screen.get_at((cx + dx, cy + dy)))[:3]
        for dx in range(-4, 5)
        for dy in range(-4, 5)
    }


def next_action(game, todo: list) -> Action:
    """The scripted game's next action (as `cloak_game` plays it) for the side to act."""
    kinds = {c.kind: c for c in game.choices()}
    if game.phase_name == MOVEMENT and game.side_to_act == KLINGON and todo:
        kind, params = todo.pop(0)
        return Action(kind, kinds[kind].actor, FrozenMap(params))
    for kind in ("roll_power", "resolve"):
        if kind in kinds:
            return Action(kind, kinds[kind].actor)
    return Action("pass", game.side_to_act)


def test_the_federation_screen_never_shows_the_cloaked_klingon(monkeypatch):
    strings = Strings(monkeypatch)
    app = hot_seat()
    play = app.play
    covers = fed_goes = 0
    for turn in (1, 2, 3, 4):
        todo = list(PLAN[turn])
        while play.played_session.game.turn == turn:
            true_game = play.played_session.game
            side = play.covered_for()
            if side is not None:
                covers += 1
                shown = strings.frame(app)
                assert f"{side}'s turn: hand over, then press Space" in shown
                assert app.screen.get_at((5, 400))[:3] == COVER  # the table is covered
                assert app.screen.get_at((1200, 400))[:3] == COVER  # and so are the panels
                key(app, pygame.K_SPACE)
                assert play.covered_for() is None
            cloaked = play.session.game is not true_game
            if true_game.side_to_act == FED and cloaked:
                fed_goes += 1
                shown = strings.frame(app)
                leaks = [s for s in shown for move in TRUE_MOVES if move in s]
                # nor the marks of its moves under way beside it on the table
                leaks += [s for s in strings.drawn if s in ("close", "retreat", "rotating")]
                assert leaks == []
                assert (play.session.state.unit(KRONOS).x, play.session.state.unit(KRONOS).y) == (
                    LAST_SEEN
                )
                assert app.state.unit(KRONOS).pose == play.session.state.unit(KRONOS).pose
                # drawn faded where it was last seen, nothing of it where it truly is
                faded = _washed(palette.side_colours(app.state.sides)[KLINGON])
                assert faded in pixels_around(app, *LAST_SEEN)
                true_unit = true_game.state.unit(KRONOS)
                if (true_unit.x, true_unit.y) != LAST_SEEN:
                    klingon = palette.side_colours(app.state.sides)[KLINGON]
                    assert not {faded, klingon} & pixels_around(app, true_unit.x, true_unit.y)
                assert any("hidden movement" in s for s in shown) or turn == 2
            if true_game.side_to_act == KLINGON and viewed(true_game, FED) is not true_game:
                strings.frame(app)  # its owner sees it as it is, never faded
                klingon = palette.side_colours(app.state.sides)[KLINGON]
                true_unit = true_game.state.unit(KRONOS)
                around = pixels_around(app, true_unit.x, true_unit.y)
                assert klingon in around and _washed(klingon) not in around
            play.do(next_action(play.session.game, todo))
    assert covers >= 6 and fed_goes >= 6
    # the cloak has dropped: no cover, the whole record on the Federation's screen too
    assert play.covered_for() is None
    assert play.session is play.played_session
    strings.frame(app)
    klingon = palette.side_colours(app.state.sides)[KLINGON]
    true_unit = play.session.state.unit(KRONOS)
    assert klingon in pixels_around(app, true_unit.x, true_unit.y)  # seen again, as it is
    log = "\n".join(play.session.log.text().splitlines())
    assert all(move in log for move in TRUE_MOVES)
    play.close()


def test_a_game_that_hides_nothing_is_never_covered():
    app = hot_seat("battlefleet-mars")
    play = app.play
    for _ in range(6):
        key(app, pygame.K_n)  # Next: each side passes, hot seat
        assert play.covered_for() is None
        assert play.session is play.played_session
    play.close()


def test_the_federations_exported_log_and_replay_keep_the_klingon_hidden(tmp_path):
    game = played_turns(3)[-1]  # turn 3's Result: cloaked since turn 2
    save_game(game, tmp_path / "cloaked.json")
    session = SideSession(Session.open(tmp_path / "cloaked.json"), FED)
    session.export_log(tmp_path / "fed.txt")
    text = (tmp_path / "fed.txt").read_text()
    assert "Klingon: (hidden movement)" in text
    assert not [move for move in TRUE_MOVES if move in text]
    replay = session.replay()
    last = replay.frame(replay.length)
    assert (last.state.unit(KRONOS).x, last.state.unit(KRONOS).y) == LAST_SEEN
    assert not [move for e in last.game.steps for move in TRUE_MOVES if move in e.title]
    assert played(session).log_text() != session.log_text()  # the true session keeps all
