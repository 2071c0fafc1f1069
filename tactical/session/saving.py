"""Saving, loading and autosaving games: a `History` to and from `io.saves`.

Loading replays the saved actions through the rule system from the starting
map, step by step with each step's own dice, and checks that every step
still applies and rolls what it rolled when it was played. A step that no
longer applies, or rolls differently (a save from another version of the
rules), is a UserError naming the file and the step.

`Autosave(path).write(history)` is what a play screen calls after every
apply, undo and redo: the write is atomic, so a session killed at any moment
reopens with every action that completed before it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from tactical.errors import UserError
from tactical.io.saves import SavedAction, SavedGame, read_save, write_save
from tactical.rules.base import Action
from tactical.session.game import Game
from tactical.session.history import History


def saved_game(played: History | Game) -> SavedGame:
    """What a save holds: every step of a history's line and its cursor, or a game's steps."""
    if isinstance(played, Game):
        first, steps, cursor = played, played.steps, len(played.steps)
    else:
        first, steps, cursor = played.first, played.steps, played.cursor
    return SavedGame(
        first.initial,
        first.seed,
        tuple(
            SavedAction(step.action.kind, step.action.actor, step.action.params, step.results)
            for step in steps
        ),
        cursor,
    )


def replay_actions(
    start: Game,
    actions: list[Action] | tuple[Action, ...],
    source: str,
    rolls: list[tuple[int, ...]] | None = None,
) -> tuple[Game, ...]:
    """Every snapshot from `start` applying `actions` in turn, checking recorded rolls if given."""
    games = [start]
    for index, action in enumerate(actions):
        number = index + 1
        try:
            following = games[-1].apply(action)
        except UserError as error:
            raise UserError(
                f"{source}: actions[{index}] (step {number}, {action.kind} by {action.actor!r}) "
                f"no longer applies: {error.message}",
                spec_id=error.spec_id,
            ) from None
        if rolls is not None:
            got = following.steps[-1].results
            if got != rolls[index]:
                raise UserError(
                    f"{source}: actions[{index}] (step {number}, {action.kind} by "
                    f"{action.actor!r}) rolled {list(got)} on replay but the save recorded "
                    f"{list(rolls[index])}: the save was made with different rules or dice"
                )
        games.append(following)
    return tuple(games)


def history_from_saved(saved: SavedGame, source: str = "<save>") -> History:
    """Rebuild a history by replaying a save (see the module docstring)."""
    try:
        start = Game.new(saved.initial, saved.seed)
    except UserError as error:
        raise UserError(f"{source}: the saved map cannot start a game: {error.message}") from None
    games = replay_actions(
        start,
        [Action(a.kind, a.actor, a.params) for a in saved.actions],
        source,
        [a.rolls for a in saved.actions],
    )
    return History(games, saved.cursor)


def save_game(history: History | Game, path: str | os.PathLike[str]) -> None:
    """Write the game to `path` as JSON, atomically."""
    write_save(saved_game(history), path)


def load_game(path: str | os.PathLike[str]) -> History:
    """Read a save and replay it into a history (cursor where it was saved)."""
    return history_from_saved(read_save(path), str(path))


@dataclass(frozen=True)
class Autosave:
    """The autosave file a play screen writes after every change (atomic writes)."""

    path: Path

    def __init__(self, path: str | os.PathLike[str]) -> None:
        object.__setattr__(self, "path", Path(path))

    def write(self, history: History | Game) -> None:
        save_game(history, self.path)

    def exists(self) -> bool:
        return self.path.is_file()

    def load(self) -> History:
        """The autosaved game (UserError when there is none or it is unusable)."""
        return load_game(self.path)
