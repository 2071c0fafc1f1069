"""Replaying a saved game one action at a time.

`Replay` rebuilds the game from a save (each step's own dice, the recorded
rolls checked) and steps through it: frame 0 is the start, frame `k` the
state after step `k` with that step's log entries (the last frame of a finished game
with its `end` entry too, as the exported log has it). Only the steps played up
to the save's cursor are replayed (steps undone before saving are not part
of the game as played).

A replay made for one side (`view`) shows each frame as that side knew it then
(`session.views`): its view of the table, the steps withheld from it as hidden, and, at
the frame where the rules reveal them, the entries of the steps withheld until then.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass

from tactical.errors import UserError
from tactical.io.saves import SavedGame, read_save
from tactical.model import GameState
from tactical.session.game import Game
from tactical.session.history import History
from tactical.session.log import LogEntry, end_entries, start_entries, step_entries
from tactical.session.saving import history_from_saved
from tactical.session.views import viewed


@dataclass(frozen=True)
class ReplayFrame:
    """One frame of a replay: the step number (0 = start), the game then, that step's entries."""

    step: int
    game: Game
    entries: tuple[LogEntry, ...]

    @property
    def state(self) -> GameState:
        return self.game.state


class Replay:
    """A cursor over the frames of a saved game: `next`, `previous`, `goto`."""

    def __init__(
        self, played: SavedGame | History, source: str = "<save>", view: str | None = None
    ) -> None:
        history = played if isinstance(played, History) else history_from_saved(played, source)
        self._history = history.truncated()
        self.index = 0
        sides = self._history.game_at(0).sides
        if view is not None and view not in sides:
            raise UserError(
                f"no side {view!r} in {source}: its sides are {', '.join(sides)}, "
                "or leave the view out for both sides' view"
            )
        self.view = view  # the side whose view it shows; None: both (the whole game)

    @classmethod
    def open(cls, path: str | os.PathLike[str], view: str | None = None) -> Replay:
        return cls(read_save(path), str(path), view)

    @property
    def length(self) -> int:
        """Steps in the replay (frames are 0..length)."""
        return self._history.length

    def frame(self, step: int | None = None) -> ReplayFrame:
        """Frame `step` (the current one by default)."""
        number = self.index if step is None else step
        if (
            isinstance(number, bool)
            or not isinstance(number, int)
            or not 0 <= number <= self.length
        ):
            raise UserError(f"no step {number!r} in this replay: steps run from 0 to {self.length}")
        game = self._history.game_at(number)
        if self.view is not None:
            return self._side_frame(number, game, self.view)
        entries = start_entries(game) if number == 0 else step_entries(game.steps[-1], game.initial)
        if number == self.length:
            entries += end_entries(game)  # a finished game ends as its exported log does
        return ReplayFrame(number, game, entries)

    def _side_frame(self, number: int, game: Game, side: str) -> ReplayFrame:
        """Frame `number` as `side` knew it then, with the steps revealed at it."""
        seen = viewed(game, side)
        if number == 0:
            entries = start_entries(seen)
        else:
            entries = step_entries(seen.steps[-1], game.initial)
            earlier = viewed(self._history.game_at(number - 1), side).steps
            for old, now in zip(earlier, seen.steps, strict=False):
                if old is not now and now is game.steps[now.number - 1]:
                    entries += step_entries(now, game.initial)  # the record appears
        if number == self.length:
            entries += end_entries(seen)
        return ReplayFrame(number, seen, entries)

    @property
    def at_end(self) -> bool:
        return self.index >= self.length

    def next(self) -> ReplayFrame | None:
        """The next frame (the cursor moves to it), None at the end."""
        if self.at_end:
            return None
        self.index += 1
        return self.frame()

    def previous(self) -> ReplayFrame | None:
        """The previous frame (the cursor moves to it), None at the start."""
        if self.index == 0:
            return None
        self.index -= 1
        return self.frame()

    def goto(self, step: int) -> ReplayFrame:
        found = self.frame(step)
        self.index = step
        return found

    def frames(self) -> Iterator[ReplayFrame]:
        """Every frame from the start to the end (the cursor is left alone)."""
        for number in range(self.length + 1):
            yield self.frame(number)
