"""What adjust mode changes: the game under way, or a new table that has no game yet.

Both take the same `adjust` actions (tactical.session.adjust) and say in one
sentence what each did. `GameEditor` applies them as steps of the game (undone,
saved and replayed with it; whose go it is does not change); `DraftEditor`
keeps a `TableDraft`, the table being built from nothing (File → New), which
becomes a game when the player goes back to play.
"""

from __future__ import annotations

from typing import Protocol

from tactical.errors import UserError
from tactical.model import GameState
from tactical.records import forward
from tactical.rules.base import Action
from tactical.session.adjust import TableDraft
from tactical.session.controller import Session


class TableEditor(Protocol):
    """The table adjust mode works on."""

    @property
    def state(self) -> GameState: ...

    @property
    def sides(self) -> tuple[str, ...] | None:
        """The sides that may have units (None: any side may be added)."""

    def apply(self, action: Action) -> str:
        """Apply an adjustment; the sentence the log shows. UserError: nothing changed."""

    def undo(self) -> str: ...

    def redo(self) -> str: ...


class GameEditor:
    """Adjustments as steps of the game being played."""

    def __init__(self, session: Session) -> None:
        self.session = session

    state = forward("session.state")

    @property
    def sides(self) -> tuple[str, ...] | None:
        return tuple(self.session.game.sides)

    def apply(self, action: Action) -> str:
        return self.session.apply(action).title

    def undo(self) -> str:
        if not self.session.can_undo:
            raise UserError("nothing to undo")
        self.session.undo()
        return f"undone: back to step {self.session.step_number}"

    def redo(self) -> str:
        if not self.session.can_redo:
            raise UserError("nothing to redo")
        self.session.redo()
        return f"redone: step {self.session.step_number}"


class DraftEditor:
    """Adjustments of a table with no game yet (File → New)."""

    def __init__(self, draft: TableDraft) -> None:
        self.draft = draft

    state = forward("draft.state")
    sides = None  # a new table: any side may be added

    def apply(self, action: Action) -> str:
        self.draft = self.draft.apply(action)
        return self.draft.log_lines()[-1]

    def undo(self) -> str:
        self.draft = self.draft.undo()
        return f"undone: {len(self.draft.log_lines())} change(s) kept"

    def redo(self) -> str:
        self.draft = self.draft.redo()
        return self.draft.log_lines()[-1]
