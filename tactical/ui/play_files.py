"""The game's files and replays on the play screen: save, open, export the log, replay.

`GameFiles` is the part of the play mode that reads and writes: the game's save
(JSON), an opened save, the exported log (text or JSON) and a replay of a saved
game or of this one, stepped without changing it. It works on the mode's
session and reaches the window through its `services` (dialogs, messages, the
status line); `PlayScreen` is built on it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from tactical.errors import UserError
from tactical.session.controller import Session
from tactical.session.replay import Replay
from tactical.ui.files import free_name
from tactical.ui.services import Services


class GameFiles:
    """Saving, opening, exporting and replaying (see the module docstring)."""

    services: Services
    session: Session
    replay: Replay | None
    game_path: Path | None
    _choices_for: tuple | None
    _log_for: tuple | None
    # the play mode's own steps, which these call (PlayScreen defines them)
    sync: Callable[[], None]
    cancel_move: Callable[[], None]
    new_game: Callable[[Session], None]

    def save_game(self, path: str | os.PathLike[str] | None = None) -> bool:
        target = Path(path) if path is not None else self.game_path
        if target is None:
            self.services.ask_file("save-game", "Save the game as (JSON)", existing=False)
            return False
        try:
            self.session.save(target)
        except (UserError, OSError) as error:
            message = error.describe() if isinstance(error, UserError) else str(error)
            self.services.show_message("Cannot save the game", message)
            return False
        self.game_path = target
        self.services.set_status(f"saved the game ({self.session.step_number} steps) to {target}")
        return True

    def open_game(self, path: str | os.PathLike[str]) -> bool:
        try:
            session = Session.open(path, self.session.autosave)
        except UserError as error:
            self.services.show_message("Cannot open the game", error.describe())
            return False
        self.game_path = Path(path)
        self.services.adopt_map(session.game.initial, None)
        self.new_game(session)
        session.write_autosave()
        self.services.set_status(
            f"opened {path}: step {session.step_number}, {session.game.phase_name}"
        )
        return True

    def export_log(self, suffix: str, path: str | os.PathLike[str] | None = None) -> Path | None:
        target = Path(path) if path is not None else free_name("tactical-log", suffix)
        try:
            self.session.export_log(target)
        except (UserError, OSError) as error:
            message = error.describe() if isinstance(error, UserError) else str(error)
            self.services.show_message("Cannot export the log", message)
            return None
        self.services.set_status(f"wrote the log to {target}")
        return target

    def start_replay(self, path: str | os.PathLike[str] | None = None) -> bool:
        """Step through a saved game (or this one) without changing it."""
        try:
            replay = Replay.open(path) if path is not None else self.session.replay()
        except UserError as error:
            self.services.show_message("Cannot replay", error.describe())
            return False
        self.cancel_move()
        self.replay = replay
        self._choices_for = self._log_for = None
        self.sync()
        self.services.set_status(f"replay: step 0 of {replay.length} (Page Down / Page Up step)")
        return True

    def replay_step(self, delta: int) -> None:
        replay = self.replay
        if replay is None:
            return
        frame = replay.next() if delta > 0 else replay.previous()
        if frame is None:
            self.services.set_status("the replay is at its end" if delta > 0 else "at the start")
            return
        self.sync()
        lines = [entry.text() for entry in frame.entries][:2]
        self.services.set_status(
            f"replay step {frame.step} of {replay.length}: " + " · ".join(lines)
        )

    def end_replay(self) -> None:
        if self.replay is None:
            return
        self.replay = None
        self._choices_for = self._log_for = None
        self.sync()
        self.services.set_status("replay closed: back to the game")
