"""The adjust mode's files: New table… and Save map as….

`MapFiles` owns the New table… window and the question asked before a map replaces a
file, and knows the map file the table came from (its comments are kept when the table
is saved over it). A map is never saved inside the installed program; a refusal says why
in a message window.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pygame
import pygame_gui
from pygame_gui.windows import UIConfirmationDialog

from tactical.errors import UserError
from tactical.io.map_save import MapExistsError, save_map_as
from tactical.model import GameState
from tactical.ui.new_table_dialog import NewTableDialog
from tactical.ui.services import Services

# what New table… makes: rules, width and height in inches, title
NewTable = Callable[[str, float, float, str], None]


class MapFiles:
    """See the module docstring. `table` gives the table shown; `new_table` makes one."""

    def __init__(
        self, services: Services, table: Callable[[], GameState], new_table: NewTable
    ) -> None:
        self.services = services
        self._table = table
        self._new_table = new_table
        self.dialog: NewTableDialog | None = None
        self.confirm: UIConfirmationDialog | None = None
        self._confirmed: tuple[str, object] | None = None
        self._saving: GameState | None = None  # the table waiting for "Replace it?"
        self.source: Path | None = None  # the map file the table came from (its comments)

    def widgets(self) -> list:
        found = self.dialog.widgets() if self.dialog is not None else []
        if self.confirm is not None and self.confirm.alive():
            found.append(self.confirm)
        return found

    def typing(self) -> bool:
        return self.dialog is not None and self.dialog.typing()

    def ask_new_table(self) -> None:
        """New table…: a window asking the rule system, the size and the title."""
        if self.dialog is not None and self.dialog.alive:
            return
        services = self.services
        rules = self._table().rules
        self.dialog = NewTableDialog(services.manager, services.size, rules, self._new_table)

    def save_map_as(
        self,
        path: str | os.PathLike | None = None,
        overwrite: bool = False,
        state: GameState | None = None,
    ) -> bool:
        """Save the table (or `state`) as a map under a name the player chooses: asks before
        overwriting, never inside the installed program, a loaded map's comments kept."""
        services = self.services
        if path is None:
            services.ask_file("save-map-as", "Save the map as (.toml)", False)
            return False
        table = state if state is not None else self._table()
        original = None
        if self.source is not None and self.source.is_file():
            try:
                original = self.source.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                original = None
        try:
            saved = save_map_as(table, path, overwrite=overwrite, original=original)
        except MapExistsError as exists:
            self._saving = table
            self._ask("overwrite", exists.path, f"{exists.path.name} exists. Replace it?")
            return False
        except UserError as error:
            services.show_message("Cannot save the map", error.describe())
            return False
        self.source = saved.path
        services.map_saved(saved.path)
        services.set_status(f"{saved.path}: {saved.note}")
        return True

    def _ask(self, what: str, subject: object, question: str) -> None:
        size = self.services.size
        rect = pygame.Rect(0, 0, 420, 200)
        rect.center = (size[0] // 2, size[1] // 2)
        self.confirm = UIConfirmationDialog(
            rect, question, self.services.manager, window_title="Confirm", action_short_name="Yes"
        )
        self._confirmed = (what, subject)

    def ui_event(self, event: pygame.event.Event) -> bool:
        """The New table… window's events and the answer to "Replace it?"; True if ours."""
        if self.dialog is not None and self.dialog.ui_event(event):
            return True
        if (
            event.type == pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED
            and event.ui_element is self.confirm
            and self._confirmed is not None
        ):
            what, subject = self._confirmed
            self._confirmed = None
            if self.confirm.alive():
                self.confirm.kill()
            if what == "overwrite":
                self.save_map_as(subject, overwrite=True, state=self._saving)  # type: ignore[arg-type]
            return True
        return False
