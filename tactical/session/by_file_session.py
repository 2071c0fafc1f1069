"""`FileTurnSession`: the play screen's `Session` for a game played by file.

The screen declares through `submit`: a step without dice is applied at once, a step with
dice is fixed as pending and the file is written, to be sent (`session.by_file`).
`hold_reason` says what the screen waits for while the file is with another player, and
`poll` takes the file back when the other player's answer is put in its place (the
window can stay open). The game's own file is written after every change, atomically;
nothing else is ever written over. Undo reaches back only to what has not left this
screen: a step whose dice were made with another player's nonce, or anything before the
file last came in, cannot be taken back.
"""

from __future__ import annotations

import os
import time
from collections.abc import Collection
from pathlib import Path

from tactical.errors import UserError
from tactical.io.saves import MAX_CHAT_TEXT, ChatLine, write_save
from tactical.rules.base import Action
from tactical.session.by_file import FileGame, catch_up, decide, open_game, settle_fair
from tactical.session.by_file import waiting_words as _waiting_words
from tactical.session.controller import Session
from tactical.session.file_secrets import SideSecret, write_secret
from tactical.session.game import Game, Step
from tactical.session.history import History

POLL_EVERY = 1.0  # seconds between looks at the game's file for the other player's answer


class FileTurnSession(Session):
    """A game by file played by `side` on this screen (see the module docstring)."""

    online = True

    def __init__(
        self,
        played: FileGame,
        path: str | os.PathLike[str],
        secret: SideSecret,
        secret_file: str | os.PathLike[str],
    ) -> None:
        super().__init__(played.history, None, played.ledger)
        self.path = Path(path)
        self.side = secret.side
        self.secret = secret
        self.secret_file = Path(secret_file)
        self.pending = played.pending
        self.chat = list(played.chat)
        self.floor = self.history.cursor  # undo stops here (see the module docstring)
        self._seen: tuple[int, int] | None = None  # the file as last written or looked at
        self._next_look = 0.0

    # ----------------------------------------------------------------- the file's content

    @property
    def played(self) -> FileGame:
        assert self.fair is not None
        return FileGame(self.history, self.fair, self.pending, tuple(self.chat))

    def _adopt(self, played: FileGame) -> None:
        self.history = played.history
        self.fair = played.ledger
        self.pending = played.pending
        self.chat = list(played.chat)

    def catch_up(self) -> tuple[str, ...]:
        """What this side does by itself (`by_file.catch_up`): join, give a nonce, reveal a
        roll; the secret file and then the game's file written. Returns what was done."""
        played, secret, notes = catch_up(self.played, self.secret)
        if secret != self.secret or not self.secret_file.exists():
            write_secret(self.secret_file, secret)  # before its head leaves in the file
            self.secret = secret
        before = self.history.cursor
        self._adopt(played)
        self.taken = self.game.steps[before:]
        self.floor = self.history.cursor
        self._write()
        return tuple(notes)

    # ----------------------------------------------------------------- declaring

    def submit(self, action: Action) -> Step | None:
        """Declare `action`: the step, or None when it waits for the other player's nonce
        (the file is then written, to be sent)."""
        held = self.hold_reason()
        if held is not None:
            raise UserError(held)
        before = self.history.cursor
        played, step = decide(self.played, self.side, action)
        self._adopt(played)
        self.taken = self.game.steps[before + 1 :] if step is not None else ()
        if step is None:
            self.floor = self.history.cursor
        self._write()
        return step

    def apply(self, action: Action) -> Step:
        """As `submit`, for a caller that needs the step at once: a step with dice is fixed
        and sent, and the refusal says what the game now waits for."""
        step = self.submit(action)
        if step is None:
            raise UserError(self.hold_reason() or "the step waits for its dice")
        return step

    def _settle(self) -> tuple[Step, ...]:
        """The steps the game takes by itself, each with dice made fair (`settle_fair`)."""
        before = self.history.cursor
        self._adopt(settle_fair(self.played))
        self.taken = self.game.steps[before:]
        return self.taken

    def hold_reason(self) -> str | None:
        if self.game.over and self.pending is None:
            return None  # the game's end is the screen's own hold
        return _waiting_words(self.played, self.side, self.path.name)

    carrier = "the other player"

    def sent_words(self, what: str = "it") -> str:
        return self.hold_reason() or f"{what} is played"

    def said_words(self) -> str:
        return f"said: it goes with {self.path.name} when you send it"

    def meanwhile_words(self) -> str:
        return (
            f"Their steps appear here when {self.path.name} comes back; Say… under the log "
            "writes a line into it."
        )

    def say(self, text: str) -> None:
        """A line to the other player: kept in the file, read when it arrives."""
        line = " ".join(text.split())[:MAX_CHAT_TEXT]
        if line:
            self.chat.append(ChatLine(self.step_number, self.side, line))
            self._write()

    # ----------------------------------------------------------------- the other player's answer

    def poll(self) -> tuple[str, ...]:
        """Once a second while the screen waits: when the game's file has changed (the other
        player's answer saved in its place), it is read, checked and taken, and this side
        does what it does by itself (`catch_up`)."""
        now = time.monotonic()
        if now < self._next_look:
            return ()
        self._next_look = now + POLL_EVERY
        seen = self._look()
        if seen is None or seen == self._seen:
            return ()
        self._seen = seen
        name = self.path.name
        if self.hold_reason() is None:
            return (f"{name} changed on disk while it is {self.side}'s go: not taken",)
        try:
            played = open_game(self.path, [self.secret])
        except UserError as error:
            return (f"{name} changed on disk but cannot be used: {error.describe()}",)
        problem = self._not_ours(played)
        if problem:
            return (f"{name} changed on disk, but {problem}: not taken",)
        self._adopt(played)
        return (f"{name} came back", *self.catch_up())

    def _not_ours(self, played: FileGame) -> str:
        """Why `played` is not this game played on from here ("" when it is)."""
        mine, theirs = self.history.first, played.history.first
        if (mine.seed, mine.initial.rules) != (theirs.seed, theirs.initial.rules):
            return "it holds another game"
        kept = self.floor
        ours = self.history.steps[mine.step_number : mine.step_number + kept]
        others = played.history.steps[theirs.step_number :]
        if len(others) < kept or any(
            (a.action, a.results, a.fair) != (b.action, b.results, b.fair)
            for a, b in zip(ours, others, strict=False)
        ):
            return "it holds an earlier or another line of this game"
        return ""

    def _look(self) -> tuple[int, int] | None:
        try:
            info = os.stat(self.path)
        except OSError:
            return None
        return info.st_mtime_ns, info.st_size

    # ----------------------------------------------------------------- taking back

    @property
    def can_undo(self) -> bool:
        """Whether Undo has a decision of this side's to take back (not yet sent)."""
        if self.pending is not None or self.history.cursor <= self.floor:
            return False
        try:
            return self.history.undo_decision().cursor >= self.floor
        except UserError:
            return False

    def _guarded(self, moved: History) -> History:
        if self.pending is not None:
            raise UserError("the file was sent: nothing can be taken back now")
        if moved.cursor < self.floor:
            raise UserError(
                "that step has left this screen (its dice used the other player's nonce, or "
                "it came in the file): a game by file cannot take it back"
            )
        return moved

    def undo(self) -> Game:
        self.history = self._guarded(self.history.undo())
        self._autosave()
        return self.game

    def undo_decision(self, computer: Collection[str] = ()) -> Game:
        self.history = self._guarded(self.history.undo_decision(computer))
        self._autosave()
        return self.game

    def goto(self, step: int) -> Game:
        self.history = self._guarded(self.history.goto(step))
        self._autosave()
        return self.game

    def reset_activation(self) -> Game:
        self.history = self._guarded(self.history.reset_activation())
        self._autosave()
        return self.game

    # ----------------------------------------------------------------- files

    def _autosave(self) -> None:
        self._write()

    def _write(self) -> None:
        """Write the game's own file (atomically); a failure is kept for the screen."""
        try:
            write_save(self.played.saved(), self.path)
        except UserError as error:
            self.autosave_problem = error.describe()
        else:
            self.autosave_problem = ""
            self._seen = self._look()

    def save(self, path: str | os.PathLike[str]) -> None:
        """Save a copy elsewhere (with the pending step: it is the same game)."""
        write_save(self.played.saved(), path)
