"""`Session`: the one object a play screen asks everything of.

It holds the `History` of the game (immutable snapshots and a cursor) and,
optionally, an `Autosave`; it writes the autosave after every apply, undo,
redo, goto and reset. Everything else is delegated: the game flow to
`Game`, the log to `tactical.session.log`, files to `tactical.session.saving`.
After every decision the game takes the steps the rules leave no choice for by itself
(`tactical.session.forced`: a pass for a side with nothing to do, and, while the game's
setting `take_single` says so, a step that is the only one open), each logged and saved
with its reason; Undo and Redo go by decision (`History.undo_decision`).
Nothing here names a rule system.
"""

from __future__ import annotations

import os
from collections.abc import Collection
from pathlib import Path
from typing import Any

from tactical.dice.fair import FairLedger
from tactical.errors import UserError
from tactical.io.files import write_text_atomic
from tactical.io.saves import ChatLine
from tactical.model import FrozenMap, GameState
from tactical.rules.base import Action
from tactical.session.game import PASS, Game, Step
from tactical.session.history import History
from tactical.session.replay import Replay
from tactical.session.saving import Autosave, load_played, save_game
from tactical.session.standing import PlayedLine


class Session(PlayedLine):
    """A game being played: ask it what may be done (`PlayedLine`), do it, undo it, save
    it."""

    def __init__(
        self, history: History, autosave: Autosave | None = None, fair: FairLedger | None = None
    ) -> None:
        super().__init__(history)
        self.autosave = autosave
        # the chain heads of a game whose dice come from the players' nonces (`dice.fair`):
        # saved with it
        self.fair = fair
        # what the players of an online game wrote to each other (saved with it)
        self.chat: list[ChatLine] = []
        # Why the last autosave failed ("" when it worked): the game goes on, the screen warns.
        self.autosave_problem = ""
        # the steps the game took by itself after the last decision (`session.forced`)
        self.taken: tuple[Step, ...] = ()

    @classmethod
    def new(cls, state: GameState, seed: int, autosave: Autosave | None = None) -> Session:
        """A new game on a loaded map; its autosave (if any, a file of its own: never
        another game's, `Autosave.for_new_game`) is written at once."""
        own = autosave.for_new_game() if autosave is not None else None
        session = cls(History.start(state, seed), own)
        session._settle()
        session._autosave()
        return session

    @classmethod
    def open(cls, path: str | os.PathLike[str], autosave: Autosave | None = None) -> Session:
        """A saved game (or an autosave) reopened where it was saved. Reopened from its own
        autosave it goes on writing there; any other save gets an autosave of its own."""
        if autosave is not None and not autosave.is_for(path):
            autosave = autosave.for_new_game()
        history, saved = load_played(path)
        session = cls(history, autosave, saved.fair)
        session.chat = list(saved.chat)
        if not session.can_redo and session._settle():
            session._autosave()  # a save made where the game had steps of its own to take
        return session

    def set_take_single(self, take: bool) -> tuple[Step, ...]:
        """Change the setting (autosaved). Turned on where nothing is undone, the steps it
        now takes are taken at once; they are returned."""
        self.history = self.history.with_take_single(take)
        self.taken = ()
        if take and not self.can_redo:
            self._settle()
        self._autosave()
        return self.taken

    # ----------------------------------------------------------------- doing

    def apply(self, action: Action) -> Step:
        """Apply an action for the side to act, then the steps the game takes by itself
        after it (`taken`); returns the step the action became."""
        self.history = self.history.apply(action)
        step = self.game.last_step
        assert step is not None
        self._settle()
        self._autosave()
        return step

    def _settle(self) -> tuple[Step, ...]:
        """The steps the game takes by itself from here (kept in `taken`)."""
        before = self.history.cursor
        self.history = self.history.settle()
        self.taken = self.game.steps[before:]
        return self.taken

    # ----------------------------------------------------------------- another player's game
    # A game played with someone elsewhere (online, `tactical.net`; by file,
    # `session.by_file`) is a Session whose steps come from elsewhere: the play screen
    # declares through `submit`, asks `hold_reason` before offering anything, and calls
    # `poll` once a frame. On one screen, these are plain.

    online = False  # whether steps come from elsewhere (undo is then a request)

    def submit(self, action: Action) -> Step | None:
        """Declare `action` from the play screen: the step it became, or None when the step
        will come later (sent to a server, waiting for the other player's nonce)."""
        return self.apply(action)

    def hold_reason(self) -> str | None:
        """Why this screen may declare nothing now ("waiting for Klingon…", "watching"), or
        None when it may (the computer's and the game's end are the screen's own holds)."""
        return None

    def poll(self) -> tuple[str, ...]:
        """What happened elsewhere since the last call (each a line for the status bar); the
        history is brought up to date. Called once a frame."""
        return ()

    # what the screen says of a game played with someone elsewhere, in that game's words
    # (a server online; a file to send, by file)
    carrier = "the server"  # who has a sent step next

    def sent_words(self, what: str = "it") -> str:
        """The status line once `submit` sent `what` and its step comes later."""
        return f"sent: {what} is played once {self.carrier} has it"

    def said_words(self) -> str:
        """The status line once a chat line is sent."""
        return f"said: it appears in the log once {self.carrier} has it"

    def meanwhile_words(self) -> str:
        """What the screen says under `hold_reason` while the other side plays."""
        return "Their steps appear here as they are played; Say… under the log writes to them."

    def act(self, kind: str, actor: str, **params: Any) -> Step:
        return self.apply(Action(kind, actor, FrozenMap(params)))

    def pass_go(self) -> Step:
        """The side to act passes (ends its go: the Next control)."""
        return self.apply(Action(PASS, self.side_to_act))

    def undo(self) -> Game:
        """One step back (the table editor's undo; play undoes by decision)."""
        return self._moved(self.history.undo())

    def redo(self) -> Game:
        return self._moved(self.history.redo())

    def undo_decision(self, computer: Collection[str] = ()) -> Game:
        """Back to before the last step a person chose, with everything that followed from
        it on its own: the game's own steps and the steps of the `computer` sides."""
        return self._moved(self.history.undo_decision(computer))

    def redo_decision(self, computer: Collection[str] = ()) -> Game:
        """The mirror of `undo_decision`: the next decision and what followed from it."""
        return self._moved(self.history.redo_decision(computer))

    def goto(self, step: int) -> Game:
        return self._moved(self.history.goto(step))

    def reset_activation(self) -> Game:
        return self._moved(self.history.reset_activation())

    def _moved(self, history: History) -> Game:
        """The cursor moved (`history`, the same line), autosaved; the game there."""
        self.history = history
        self._autosave()
        return self.game

    # ----------------------------------------------------------------- files

    def save(self, path: str | os.PathLike[str]) -> None:
        """Save the game (its whole line and the cursor) as JSON, atomically."""
        save_game(self.history, path, self.fair, self.chat)

    def log_text(self) -> str:
        return self.log.text()

    def log_json(self) -> str:
        return self.log.json()

    def export_log(self, path: str | os.PathLike[str]) -> None:
        """Write the log atomically: JSON for a `.json` file, else the one-line-per-entry text."""
        target = Path(path)
        text = self.log_json() if target.suffix.lower() == ".json" else self.log_text()
        write_text_atomic(target, text)

    def write_autosave(self) -> None:
        """Write the autosave now (after opening a game, say)."""
        self._autosave()

    def replay(self) -> Replay:
        """A replay of the game up to the cursor."""
        return Replay(self.history)

    def _autosave(self) -> None:
        """Write the autosave. A failure (a full disk, a removed folder) must not lose or
        refuse the action just taken: it is kept in `autosave_problem` for the screen."""
        if self.autosave is None:
            return
        try:
            self.autosave.write(self.history, self.fair, self.chat)
        except UserError as error:
            self.autosave_problem = error.describe()
        else:
            self.autosave_problem = ""
