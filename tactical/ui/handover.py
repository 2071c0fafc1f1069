"""One screen, two players, hidden information: each side's go shows only its view.

Where the rules hide something from a side (a cloaked enemy ship, `RuleSystem.view_for`),
the play screen draws the game as the side at the mouse knows it: its view of the table
(a unit it knows only where it was last seen drawn faded there), the choices, odds,
unavailable reasons and cards worked out on that view, and the log with what is withheld
from it reading as hidden (`session.views`). Which side that is: the one human side in a
solo game; in a hot-seat game (two or more human sides) the human side to act, and the
screen is covered between goes ("Federation's turn: hand over, then press Space") so
that neither player sees the other's view. A game that hides nothing, a replay, a watched
game of computers and a game played online are drawn as they are.

`Handover` is a part of the play screen that owns the true session: its `session` is the
session as the side shown knows it (`tactical.present.sides.SideSession`: the true
session's game seen by that side; every action still goes to the true session, where the
rules run), `played_session` the true one. The window draws the cover last
(`draw_cover`) and gives it every event first (`covering`). Nothing here names a rule
system.
"""

from __future__ import annotations

from typing import Any

import pygame

from tactical.present.sides import SideSession, played
from tactical.session.controller import Session
from tactical.session.game import Game
from tactical.session.views import hides_anything
from tactical.ui import palette
from tactical.ui.fonts import shared_fonts

HUMAN_SEATS = ("", "human")  # a seat the computer does not play (`AiDriver.seats`)
COVER: palette.Colour = (16, 17, 22)
TITLE_SIZE = 28
LINE_SIZE = 16


class Handover:
    """The play screen's side view and the cover between hot-seat goes (module docstring).

    `screen` is the play screen, read for who plays which side (`ai.seats`), whether a
    replay or an online game is shown, and told (`result`, `sync`, the status line) when
    the screen changes hands."""

    def __init__(self, screen: Any, session: Session) -> None:
        self.screen = screen
        self.session = session

    def _online(self) -> bool:
        # what the screen's online part answers (`OnlinePlay.active`), read off the session
        # played: asked several times a frame
        return bool(getattr(self._played, "online", False))

    @property
    def session(self) -> Any:
        side = self.shown_side()
        # online, the server sends this screen its side's view already: nothing to hide again
        if side is None or self._online() or not hides_anything(self._played.game, side):
            return self._played
        found = self._side_sessions.get(side)
        if found is None or found.played is not self._played:
            found = self._side_sessions[side] = SideSession(self._played, side)
        return found

    @session.setter
    def session(self, session: Session) -> None:
        self._played = played(session)
        self._side_sessions: dict[str, SideSession] = {}
        self._uncovered_for: str | None = None  # the side that took the screen last (Space)

    @property
    def played_session(self) -> Session:
        return self._played

    def human_sides(self, game: Game) -> list[str]:
        ai = getattr(self.screen, "ai", None)  # none yet while the screen is being built
        seats = ai.seats if ai is not None else {}
        return [side for side in game.sides if seats.get(side, "") in HUMAN_SEATS]

    def shown_side(self) -> str | None:
        """The side whose view the screen draws, None for the whole game (module docstring)."""
        if getattr(self.screen, "replay", None) is not None:
            return None
        if self._online():  # this screen's own side, or all to watch
            return getattr(self._played, "side", None)
        game = self._played.game
        humans = self.human_sides(game)
        if len(humans) == 1:
            return humans[0]
        return game.side_to_act if game.side_to_act in humans else None

    def covered_for(self) -> str | None:
        """The side the screen waits for behind the cover, or None: in a hot-seat game, the
        side to act when it is not the side that took the screen last and the game hides
        something from one of the sides."""
        game = self._played.game
        if game.over or self._online() or len(self.human_sides(game)) < 2:
            return None  # online, each player has a screen of their own
        side = self.shown_side()
        if side is None or side == self._uncovered_for:
            return None
        if not any(hides_anything(game, each) for each in game.sides):
            self._uncovered_for = side  # nothing hidden: the screen is simply passed on
            return None
        return side

    def covering(self, event: pygame.event.Event) -> bool:
        """Whether the cover takes `event` (every input while it is up); Space lifts it."""
        if event.type not in (
            pygame.KEYDOWN,
            pygame.KEYUP,
            pygame.MOUSEBUTTONDOWN,
            pygame.MOUSEBUTTONUP,
            pygame.MOUSEMOTION,
            pygame.MOUSEWHEEL,
            pygame.TEXTINPUT,
        ):
            return False
        side = self.covered_for()
        if side is None:
            return False
        if event.type == pygame.KEYDOWN and event.key == pygame.K_SPACE:
            self._uncovered_for = side
            screen = self.screen
            screen.result = None  # the last step played here was the other side's
            screen.sync()
            screen.services.set_status(f"{side}'s go: only what {side} can see is shown")
        return True

    def draw_cover(self, surface: pygame.Surface) -> None:
        """The cover over the whole window while a hot-seat screen changes hands."""
        side = self.covered_for()
        if side is None:
            return
        surface.fill(COVER)
        fonts = shared_fonts()
        lines = (
            (f"{side}'s turn: hand over, then press Space", TITLE_SIZE, palette.TEXT),
            (
                f"The other side's view stays hidden: only {side} should look.",
                LINE_SIZE,
                palette.TEXT_DIM,
            ),
        )
        width, height = surface.get_size()
        y = height // 2 - TITLE_SIZE
        for text, size, colour in lines:
            picture = fonts.render(text, size, colour)
            surface.blit(picture, ((width - picture.get_width()) // 2, y))
            y += picture.get_height() + 12


__all__ = ["COVER", "HUMAN_SEATS", "Handover", "SideSession", "played"]
