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

from tactical.records import forward
from tactical.rules.base import Action, ActionChoice, OddsReport
from tactical.session.history import History
from tactical.session.log import Log, LogEntry, game_log
from tactical.session.movement import MovePlan


class PlayedLine:
    """A game's history read at its cursor (module docstring)."""

    def __init__(self, history: History) -> None:
        self.history = history

    # ----------------------------------------------------------------- where play stands

    game = forward("history.game")
    state = forward("game.state")
    position = forward("game.position")
    turn = forward("game.turn")
    phase = forward("game.phase")
    phases = forward("game.sequence.phases")
    side_to_act = forward("game.side_to_act")
    order = forward(
        "game.play_order",
        """The sides in the order play follows (`Game.play_order`: an initiative winner
        first), as the tracker shows it.""",
    )
    step_number = forward("history.cursor", "Steps applied up to the cursor.")
    outcome = forward(
        "game.outcome",
        "How the game ended (winner, scores, why), or None while it goes on.",
    )
    can_undo = forward("history.can_undo")
    can_redo = forward("history.can_redo")
    take_single = forward(
        "history.take_single",
        """The game's setting: whether a step that is the only one open is taken for the
        side to act ("Take forced steps for me"); saved with the game.""",
    )

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

    last_step = forward("game.last_step")
