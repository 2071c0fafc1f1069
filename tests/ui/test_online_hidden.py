"""Hidden information online, on the Federation's own screen (R001.29): a cloaked Klingon
moves for three turns, played from another copy; the Federation's window, joined over
loopback, draws the Kronos faded where it was last seen, and no string it draws (table,
panels, log, status line) holds a move of the Klingon's; it is never covered (each
player has a screen of their own). When the cloak drops, the record appears in its log."""

from __future__ import annotations

import time

import pytest
from cloak_game import FED, KLINGON, KRONOS, PLAN, TRUE_MOVES
from test_handover import LAST_SEEN, Strings, next_action, pixels_around
from ui_events import settle

from tactical.io import builtin_map, load_map
from tactical.net.client import RemoteSession
from tactical.net.server import GameServer
from tactical.session.controller import Session
from tactical.ui import palette
from tactical.ui.app import App
from tactical.ui.online_play import REPLAY_HIDDEN_TIP
from tactical.ui.units_layer import _washed

SECONDS = 20.0


def frames_until(app: App, done, *others: RemoteSession) -> bool:
    """The window's frames (each polls its copy of the game), the other copies polled too
    (a referee answers the server from its poll), until `done`, bounded."""
    end = time.monotonic() + SECONDS
    while not done():
        if time.monotonic() > end:
            return False
        app.step()
        app.frame()
        for other in others:
            other.poll()
        time.sleep(0.001)
    return True


@pytest.mark.parametrize("fed_seat", ["remote", "host"])
def test_r001_29_the_federations_online_screen_never_shows_the_cloaked_klingon(
    monkeypatch, fed_seat
):
    """Joined to a neutral server, or hosting (then the Klingon's own copy referees its
    hidden moves, `net.referee`): the same screen, from views only."""
    strings = Strings(monkeypatch)
    session = Session.new(load_map(builtin_map("heavy-combat")), 7)
    server = GameServer(session, {FED: fed_seat, KLINGON: "remote"}, port=0)
    server.run_in_thread()
    address = f"127.0.0.1:{server.port}"
    fed = RemoteSession.join(address, server.tokens[FED])
    klingon = RemoteSession.join(address, server.tokens[KLINGON])
    app = App(fed.game.initial, (1280, 800), headless=True, session=fed)
    settle(app)
    faded = _washed(palette.side_colours(app.state.sides)[KLINGON])
    hidden_versions: set[int] = set()
    try:
        for turn in (1, 2, 3, 4):
            todo = list(PLAN[turn])
            end = time.monotonic() + SECONDS
            while klingon.game.position.turn == turn and time.monotonic() < end:
                shown = strings.frame(app)  # the window's loop: polls its copy, draws
                klingon.poll()
                assert not any("hand over" in s for s in shown)  # never covered online
                truth = klingon.game  # the Klingon's copy holds the truth, whoever serves
                if fed.viewing:
                    hidden_versions.add(fed.version)
                    # a view taken in late in a frame is drawn by the next: both are checked
                    shown = shown + strings.frame(app)
                    leaks = [s for s in shown for move in TRUE_MOVES if move in s]
                    leaks += [s for s in strings.drawn if s in ("close", "retreat", "rotating")]
                    assert leaks == []
                    kronos = app.state.unit(KRONOS)
                    assert (kronos.x, kronos.y) == LAST_SEEN
                    replay = app.play.log.buttons["replay"]  # greyed, and says why
                    assert not replay.is_enabled and replay.tool_tip_text == REPLAY_HIDDEN_TIP
                    assert faded in pixels_around(app, *LAST_SEEN)
                    true_unit = truth.state.unit(KRONOS)
                    if (true_unit.x, true_unit.y) != LAST_SEEN:
                        colours = {faded, palette.side_colours(app.state.sides)[KLINGON]}
                        assert not colours & pixels_around(app, true_unit.x, true_unit.y)
                player = fed if truth.side_to_act == FED else klingon
                if player.hold_reason() is not None or player.version != server.version:
                    klingon.poll()  # the referee answers the server from its poll
                    time.sleep(0.002)
                    continue
                version = player.version
                player.submit(next_action(player.game, todo))
                if player is klingon:
                    player.wait_until(lambda p, v=version: p.version > v or p.sent is None)
                else:  # the window's own copy takes in what arrives, frame by frame
                    frames_until(
                        app, lambda v=version: fed.version > v or fed.sent is None, klingon
                    )
        assert len(hidden_versions) >= 6  # drawn at six steps or more while hidden
        # the cloak has dropped: the whole game, the record in the Federation's log
        assert frames_until(
            app,
            lambda: (
                klingon.poll() is not None
                and not fed.viewing
                and fed.version == server.version == klingon.version
            ),
        )
        strings.frame(app)
        replay = app.play.log.buttons["replay"]  # the record has come: it may be replayed
        assert replay.is_enabled and replay.tool_tip_text.startswith("replay the game")
        log = "\n".join(app.play.log.lines) + fed.log.text()
        assert all(move in log for move in TRUE_MOVES)
        true_unit = server.session.game.state.unit(KRONOS)
        assert server.stretch is None and not [c for c in server.session.chat if c.side == "Check"]
        klingon_colour = palette.side_colours(app.state.sides)[KLINGON]
        assert klingon_colour in pixels_around(app, true_unit.x, true_unit.y)
    finally:
        app.play.close()
        klingon.close()
        server.stop()
