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

`Handover` is a mixin of the play screen: its `session` is the session as the side shown
knows it (`SideSession`: the true session's game seen by that side; every action still
goes to the true session, where the rules run), `played_session` the true one. The window
draws the cover last (`draw_cover`) and gives it every event first (`covering`).
Nothing here names a rule system.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame

from tactical.io.files import write_text_atomic
from tactical.session.controller import Session
from tactical.session.game import Game, Step
from tactical.session.log import Log, LogEntry, side_log
from tactical.session.replay import Replay
from tactical.session.views import hides_anything, seen_step, viewed
from tactical.ui import palette
from tactical.ui.fonts import shared_fonts

HUMAN_SEATS = ("", "human")  # a seat the computer does not play (`AiDriver.seats`)
COVER: palette.Colour = (16, 17, 22)
TITLE_SIZE = 28
LINE_SIZE = 16


def played(session: Any) -> Session:
    """The true session behind a side's (`SideSession`), or the session itself."""
    return session.played if isinstance(session, SideSession) else session


class SideSession:
    """A session as one side knows it: its game is `viewed(true game, side)`; anything else
    (applying, undoing, saving, the history) is the true session's."""

    def __init__(self, session: Session, side: str) -> None:
        self.played = session
        self.side = side

    def __getattr__(self, name: str) -> Any:
        return getattr(self.played, name)

    @property
    def game(self) -> Game:
        return viewed(self.played.game, self.side)

    @property
    def state(self):
        return self.game.state

    @property
    def last_step(self) -> Step | None:
        return self.game.last_step

    @property
    def taken(self) -> tuple[Step, ...]:
        game = self.played.game
        return tuple(seen_step(step, game, self.side) for step in self.played.taken)

    @property
    def log(self) -> Log:
        return side_log(self.played.game, self.side)

    def entries(self, step: int) -> tuple[LogEntry, ...]:
        return self.log.for_step(step)

    def log_text(self) -> str:
        return self.log.text()

    def log_json(self) -> str:
        return self.log.json()

    def export_log(self, path) -> None:
        """The log as this side may read it, written (the true session's own writer)."""
        write_text_atomic(
            Path(path), self.log_json() if Path(path).suffix.lower() == ".json" else self.log_text()
        )

    def replay(self) -> Replay:
        """A replay of the game up to the cursor as this side saw it."""
        return Replay(self.played.history, view=self.side)

    def submit(self, action) -> Step | None:
        """The action played on the true session; its step as this side may read it."""
        step = self.played.submit(action)
        return None if step is None else seen_step(step, self.played.game, self.side)

    def apply(self, action) -> Step:
        return seen_step(self.played.apply(action), self.played.game, self.side)

    def choices(self):
        return self.game.choices()

    def odds(self, action):
        return self.game.odds(action)

    def preview_move(self, unit_id, path, activation=None):
        return self.game.preview_move(unit_id, path, activation)


class Handover:
    """The play screen's side view and the cover between hot-seat goes (module docstring)."""

    _played: Session
    _uncovered_for: str | None = None  # the side that took the screen last (Space)
    _side_sessions: dict[str, SideSession]

    @property
    def session(self) -> Any:
        side = self.shown_side()
        if side is None or not hides_anything(self._played.game, side):
            return self._played
        found = self._side_sessions.get(side)
        if found is None or found.played is not self._played:
            found = self._side_sessions[side] = SideSession(self._played, side)
        return found

    @session.setter
    def session(self, session: Session) -> None:
        self._played = played(session)
        self._side_sessions = {}
        self._uncovered_for = None

    @property
    def played_session(self) -> Session:
        return self._played

    def human_sides(self, game: Game) -> list[str]:
        ai = getattr(self, "ai", None)
        seats = ai.seats if ai is not None else {}
        return [side for side in game.sides if seats.get(side, "") in HUMAN_SEATS]

    def shown_side(self) -> str | None:
        """The side whose view the screen draws, None for the whole game (module docstring)."""
        if getattr(self, "replay", None) is not None:
            return None
        online = getattr(self, "online", None)
        if online is not None and online.active:  # this screen's own side, or all to watch
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
        if game.over or len(self.human_sides(game)) < 2:
            return None
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
            self.result = None  # the last step played here was the other side's
            self.sync()
            self.services.set_status(f"{side}'s go: only what {side} can see is shown")
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
