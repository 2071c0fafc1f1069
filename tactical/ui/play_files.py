"""The game's files and replays on the play screen: save, open, export the log, replay.

`GameFiles` is the part of the play screen that reads and writes: the game's save
(JSON, its path its own), an opened save, the exported log (text or JSON) and a replay
of a saved game or of this one, stepped without changing it. It works on the screen's
session and reaches the window through its `services` (dialogs, messages, the status
line); the screen shows a replay it opens (`show_replay`) and plays a save it opens
(`new_game`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tactical.errors import UserError
from tactical.session.controller import Session
from tactical.session.replay import Replay
from tactical.ui.files import free_name


class GameFiles:
    """Saving, opening, exporting and replaying (see the module docstring)."""

    def __init__(self, screen: Any) -> None:
        self.screen = screen
        self.game_path: Path | None = None

    def save_game(self, path: str | os.PathLike[str] | None = None) -> bool:
        target = Path(path) if path is not None else self.game_path
        if target is None:
            self.screen.services.ask_file("save-game", "Save the game as (JSON)", existing=False)
            return False
        if not self._written(self.screen.session.save, target, "Cannot save the game"):
            return False
        self.game_path = target
        self.screen.services.set_status(
            f"saved the game ({self.screen.session.step_number} steps) to {target}"
        )
        return True

    def open_game(self, path: str | os.PathLike[str]) -> bool:
        try:
            session = Session.open(path, self.screen.session.autosave)
        except UserError as error:
            self.screen.services.show_message("Cannot open the game", error.describe())
            return False
        self.game_path = Path(path)
        self.screen.services.adopt_map(session.game.initial, None)
        self.screen.new_game(session)
        session.write_autosave()
        self.screen.services.set_status(
            f"opened {path}: step {session.step_number}, {session.game.phase_name}"
        )
        return True

    def export_log(self, suffix: str, path: str | os.PathLike[str] | None = None) -> Path | None:
        target = Path(path) if path is not None else free_name("tactical-log", suffix)
        if not self._written(self.screen.session.export_log, target, "Cannot export the log"):
            return None
        self.screen.services.set_status(f"wrote the log to {target}")
        return target

    def _written(self, write: Callable[[Path], None], target: Path, title: str) -> bool:
        """`write(target)`; a refusal or a failed write is shown under `title` (False)."""
        try:
            write(target)
        except (UserError, OSError) as error:
            message = error.describe() if isinstance(error, UserError) else str(error)
            self.screen.services.show_message(title, message)
            return False
        return True

    def start_replay(self, path: str | os.PathLike[str] | None = None) -> bool:
        """Step through a saved game (or this one) without changing it."""
        try:
            replay = Replay.open(path) if path is not None else self.screen.session.replay()
        except UserError as error:
            self.screen.services.show_message("Cannot replay", error.describe())
            return False
        self.screen.cancel_move()
        self.screen.show_replay(replay)
        self.screen.services.set_status(
            f"replay: step 0 of {replay.length} (Page Down / Page Up step)"
        )
        return True

    def replay_step(self, delta: int) -> None:
        replay = self.screen.replay
        if replay is None:
            return
        frame = replay.next() if delta > 0 else replay.previous()
        if frame is None:
            self.screen.services.set_status(
                "the replay is at its end" if delta > 0 else "at the start"
            )
            return
        self.screen.sync()
        lines = [entry.text() for entry in frame.entries][:2]
        self.screen.services.set_status(
            f"replay step {frame.step} of {replay.length}: " + " · ".join(lines)
        )

    def end_replay(self) -> None:
        if self.screen.replay is None:
            return
        self.screen.show_replay(None)
        self.screen.services.set_status("replay closed: back to the game")
