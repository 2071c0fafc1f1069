"""Where play stands in a game's history, and what may be asked of it: `PlayedLine`.

The read-only half of a `Session` (`session.controller`): the game at the history's
cursor and what the play screen reads of it (the table, the turn and phase, whose go it
is, the steps taken, the log), and what it asks of it without changing anything (the
choices open, the odds of an action, a move's preview). `Session` adds what changes the
game: applying, undoing, saving. Nothing here names a rule system.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tactical.model import GameState
from tactical.rules.base import Action, ActionChoice, OddsReport, Phase, TurnPosition
from tactical.rules.ending import Outcome
from tactical.session.game import Game, Step
from tactical.session.history import History
from tactical.session.log import Log, LogEntry, game_log
from tactical.session.movement import MovePlan


class PlayedLine:
    """A game's history read at its cursor (module docstring)."""

    def __init__(self, history: History) -> None:
        self.history = history

    # ----------------------------------------------------------------- where play stands

    @property
    def game(self) -> Game:
        return self.history.game

    @property
    def state(self) -> GameState:
        return self.game.state

    @property
    def position(self) -> TurnPosition:
        return self.game.position

    @property
    def turn(self) -> int:
        return self.game.turn

    @property
    def phase(self) -> Phase:
        return self.game.phase

    @property
    def phases(self) -> tuple[Phase, ...]:
        return self.game.sequence.phases

    @property
    def side_to_act(self) -> str:
        return self.game.side_to_act

    @property
    def order(self) -> tuple[str, ...]:
        """The sides in the order play follows (`Game.play_order`: an initiative winner
        first), as the tracker shows it."""
        return self.game.play_order

    @property
    def step_number(self) -> int:
        """Steps applied up to the cursor."""
        return self.history.cursor

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (winner, scores, why), or None while it goes on."""
        return self.game.outcome

    @property
    def can_undo(self) -> bool:
        return self.history.can_undo

    @property
    def can_redo(self) -> bool:
        return self.history.can_redo

    @property
    def take_single(self) -> bool:
        """The game's setting: whether a step that is the only one open is taken for the
        side to act ("Take forced steps for me"); saved with the game."""
        return self.history.take_single

    # ----------------------------------------------------------------- asking

    def choices(self) -> tuple[ActionChoice, ...]:
        return self.game.choices()

    def odds(self, action: Action) -> OddsReport | None:
        return self.game.odds(action)

    def preview_move(
        self, unit_id: str, path: str | Sequence[str], activation: Mapping[str, Any] | None = None
    ) -> MovePlan:
        return self.game.preview_move(unit_id, path, activation)

    @property
    def log(self) -> Log:
        """The log up to the cursor."""
        return game_log(self.game)

    def entries(self, step: int) -> tuple[LogEntry, ...]:
        return self.log.for_step(step)

    @property
    def last_step(self) -> Step | None:
        return self.game.last_step
