"""Draw docs/play-screen.png: a Battlefleet Mars game in progress on the play screen, at 1280x800.

The stand-in player makes the opening steps; then an attack is picked on the panel, its
target clicked and the next target hovered, so the shot shows the tracker, the action
panel with the odds chart, the target rings, the log and a unit card.

Run: SDL_VIDEODRIVER=dummy .venv/bin/python scripts/make_screenshot.py [OUT.png]
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.present.declaration import unit_fields
from tactical.session import autoplay
from tactical.session.controller import Session
from tactical.session.history import History
from tactical.ui.app import App

SIZE = (1280, 800)


def main(out: Path) -> None:
    games = [Session.new(load_map(builtin_map("battlefleet-mars")), 42).game]
    while True:
        game = games[-1]
        attacks = [c for c in game.choices() if c.kind == "attack"]
        if attacks and len(games) > 6:
            break
        games.append(autoplay.next_game(game))
    session = Session(History(tuple(games), len(games) - 1))
    app = App(session.state, SIZE, headless=True, session=session)
    choice = attacks[-1]
    ids = tuple(u.id for u in session.state.units)
    app.select(choice.actor)
    app.play.actions.pick(choice)
    app.play.panel_command("picked", None)
    targets = app.play.target_ids()
    app.play.click_unit(targets[0])
    app.play.odds.wait_idle(60.0)
    hovered = session.state.unit(targets[-1])
    pos = app.view.camera.to_screen(hovered.x, hovered.y)
    app.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    for _ in range(3):
        app.step()
        app.play.odds.wait_idle(60.0)
    shown = app.play.actions.odds_caption.text
    assert unit_fields(choice, ids) and app.play.actions.has_odds, shown
    pygame.image.save(app.frame(), str(out))
    app.play.close()
    print(f"wrote {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/play-screen.png"))
