"""A session as one side knows it: where the rules hide something from a side (a cloaked
enemy ship, `RuleSystem.view_for`), the screen shows that side's view of the game.

`SideSession` is the true session's game seen by one side (`session.views`): its table,
choices, odds, steps and log as that side may read them; every action still goes to the
true session, where the rules run. No pygame here: the play screen decides which side it
shows (`tactical.ui.handover`) and draws what this gives.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tactical.io.files import write_text_atomic
from tactical.session.controller import Session
from tactical.session.game import Game, Step
from tactical.session.log import Log, LogEntry, side_log
from tactical.session.replay import Replay
from tactical.session.views import seen_step, viewed


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
