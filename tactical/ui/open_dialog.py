"""File → Open: maps (.toml) and saved games (.json) only, the built-in scenarios always at
the head of the list.

The built-in scenarios live inside the installed program, a folder no player should have
to find: each is listed in every folder as "Built-in: <name> (<title>)", the name being
the one `tactical play NAME` takes. Picking one opens it (OK, or a double click); it can
never be deleted from the dialog.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pygame
import pygame_gui
from pygame_gui.windows import UIFileDialog

from tactical.io.paths import builtin_map, builtin_map_names

OPEN_SUFFIXES = {".toml", ".json"}
BUILTIN_ITEM = "#file_list_item"


def builtin_entries() -> dict[str, Path]:
    """The dialog's line for each built-in scenario, and its file."""
    entries: dict[str, Path] = {}
    for name in builtin_map_names():
        path = builtin_map(name)
        try:  # the title only: the whole map is read when it is opened
            title = str(tomllib.loads(path.read_text(encoding="utf-8")).get("title", ""))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            title = ""
        entries[f"Built-in: {name} ({title})" if title else f"Built-in: {name}"] = path
    return entries


class OpenDialog(UIFileDialog):
    """See the module docstring."""

    def __init__(
        self, rect: pygame.Rect, manager: pygame_gui.UIManager, title: str, start: Path
    ) -> None:
        self.builtins = builtin_entries()  # read by the file list, built in the base's init
        super().__init__(
            rect,
            manager,
            title,
            allowed_suffixes=OPEN_SUFFIXES,
            initial_file_path=str(start),
            allow_existing_files_only=True,
        )

    def _create_list_of_directories_and_files_on_current_path(self) -> None:
        super()._create_list_of_directories_and_files_on_current_path()
        listed = [(label, BUILTIN_ITEM) for label in self.builtins]
        self.current_file_list = listed + self.current_file_list

    def _process_file_list_events(self, event: pygame.event.Event) -> None:
        if getattr(event, "ui_element", None) is self.file_selection_list:
            picked = self.builtins.get(getattr(event, "text", ""))
            if picked is not None:
                self._pick_builtin(event, picked)
                return
        super()._process_file_list_events(event)

    def _pick_builtin(self, event: pygame.event.Event, path: Path) -> None:
        if event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION:
            self.current_file_path = path
            self._prepare_valid_file_path_for_interaction()
            self.delete_button.disable()  # the installed program's own file
        elif event.type == pygame_gui.UI_SELECTION_LIST_DOUBLE_CLICKED_SELECTION:
            self.current_file_path = path
            self.ok_button.enable()
            self._process_ok_cancel_events(
                pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=self.ok_button)
            )
