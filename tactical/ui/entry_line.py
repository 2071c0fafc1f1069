"""The quick entry box: a text line that remembers what was typed and never appends to a
refused line.

- Up and Down bring back the lines entered before (the newest first), as a shell does;
  Down past the newest gives back what was being typed.
- A refused line stays in the box, all of it selected: typing replaces it, an arrow key
  or a click inside it (once the box has the focus) edits it. Coming back to the box by a
  click selects it all again, so a new line never lands at the end of the refused one.
"""

from __future__ import annotations

import pygame
from pygame_gui.elements import UITextEntryLine

HISTORY_LINES = 50


class EntryLine(UITextEntryLine):
    """See the module docstring."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.history: list[str] = []
        self._recalled: int | None = None  # the history line shown, counted from the newest
        self._draft = ""  # what was being typed when Up was first pressed
        self.refused: str | None = None
        self._focused_now = False

    def entered(self, text: str, accepted: bool) -> None:
        """A line was entered: into the history; accepted, the box empties; refused, it stays,
        selected."""
        line = text.strip()
        if line and (not self.history or self.history[-1] != line):
            self.history = [*self.history, line][-HISTORY_LINES:]
        self._recalled = None
        self._draft = ""
        if accepted:
            self.refused = None
            self.set_text("")
            return
        self.refused = text
        self.select_all()

    def select_all(self) -> None:
        end = len(self.get_text())
        self.select_range = [0, end]
        self.edit_position = end
        self.cursor_has_moved_recently = True  # drawn at the next update, as Ctrl+A is

    def focus(self) -> None:
        super().focus()
        self._focused_now = True

    def process_event(self, event: pygame.event.Event) -> bool:
        if (
            event.type == pygame.KEYDOWN
            and self.is_focused
            and event.key in (pygame.K_UP, pygame.K_DOWN)
        ):
            self.recall(-1 if event.key == pygame.K_UP else 1)
            return True
        focused_now, self._focused_now = self._focused_now, False
        consumed = super().process_event(event)
        if (
            focused_now
            and event.type == pygame.MOUSEBUTTONDOWN
            and self.refused is not None
            and self.get_text() == self.refused
        ):
            self.select_all()  # a click that brings the focus back: the line is replaced
        return consumed

    def recall(self, step: int) -> None:
        """The line `step` back (-1) or forward (+1) in the history."""
        if not self.history:
            return
        if self._recalled is None:
            if step > 0:
                return
            self._draft = self.get_text()
            index = len(self.history) - 1
        else:
            index = self._recalled + step
        if index < 0:
            index = 0
        if index >= len(self.history):
            self._recalled = None
            self._show(self._draft)
            return
        self._recalled = index
        self._show(self.history[index])

    def _show(self, text: str) -> None:
        self.set_text(text)
        self.select_range = [0, 0]
        self.edit_position = len(text)
        self.cursor_has_moved_recently = True
