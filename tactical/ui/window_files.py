"""The window's files: the file dialog and its answer, opening a map or a saved game,
saving the map, exporting the view as a PNG, and the message windows that say why one
of them could not be done.

`WindowFiles` is the part of the `App` (tactical.ui.app) that reads and writes: it
works on the window's table, path and modes, which the `App` holds (the game's own
files are the play mode's, tactical.ui.play_files). A map or a picture is never
written inside the package nor over another file unasked.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.windows import UIFileDialog, UIMessageWindow

from tactical.errors import UserError
from tactical.io.files import write_bytes_atomic
from tactical.io.maps import load_map
from tactical.io.paths import is_builtin
from tactical.model import GameState
from tactical.rules import registry
from tactical.rules.base import RuleSystem
from tactical.session.controller import Session
from tactical.ui.chrome import TopBar, file_dialog, message_window, png_bytes
from tactical.ui.files import builtin_note, dialog_start, free_name, same_file
from tactical.ui.open_dialog import OpenDialog
from tactical.ui.view import ViewState

if TYPE_CHECKING:
    from tactical.ui.adjust_mode import AdjustMode
    from tactical.ui.camera import Camera
    from tactical.ui.play_mode import PlayScreen
    from tactical.ui.setup_mode import SetupMode


class WindowFiles:
    """Opening and saving from the window (see the module docstring)."""

    manager: pygame_gui.UIManager
    size: tuple[int, int]
    path: Path | None
    state: GameState
    map_state: GameState
    system: RuleSystem
    view: ViewState
    game_seed: int
    top: TopBar
    play: PlayScreen
    setup: SetupMode
    adjust: AdjustMode
    message: UIMessageWindow | None
    _dialog: tuple[str, UIFileDialog] | None

    # the window's own steps, which these call (App defines them)
    fitted_camera: Callable[[], Camera]
    set_status: Callable[[str], None]
    frame: Callable[[], pygame.Surface]
    _show_mode: Callable[[], None]
    _title: Callable[[], str]

    def ask_open(self) -> None:
        """File → Open: a map or a saved game, the built-in scenarios listed first."""
        if self._dialog is not None:
            self._dialog[1].kill()
        rect = pygame.Rect(0, 0, min(560, self.size[0] - 20), min(440, self.size[1] - 20))
        rect.center = (self.size[0] // 2, self.size[1] // 2)
        # the folder of the window's map, but not the built-in maps' folder: they are listed
        start = dialog_start(self.path, existing=False)
        title = "Open a map (.toml) or a saved game (.json)"
        self._dialog = ("open", OpenDialog(rect, self.manager, title, start))

    def ask_file(self, purpose: str, title: str, existing: bool) -> None:
        """A file dialog; its answer comes back by `purpose`."""
        if self._dialog is not None:
            self._dialog[1].kill()
        start = dialog_start(self.path, existing)
        self._dialog = (purpose, file_dialog(self.manager, self.size, title, start, existing))

    def dialog_event(self, event: pygame.event.Event) -> None:
        """The file dialog's answer (a path picked: done for its purpose) or its closing."""
        if self._dialog is None or getattr(event, "ui_element", None) is not self._dialog[1]:
            return
        purpose, dialog = self._dialog
        if event.type == pygame_gui.UI_WINDOW_CLOSE:
            self._dialog = None
        elif event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED:
            self._dialog = None
            if dialog.alive():
                dialog.kill()
            if purpose == "open":
                self.open_file(event.text)
            elif purpose == "save" or purpose == "save-map-as":
                self.save(event.text)
            elif purpose == "save-game":
                self.play.save_game(event.text)
            elif purpose == "png":
                self.export_png(event.text)

    def open_file(self, path: str | os.PathLike[str]) -> bool:
        """A saved game (.json) or a map (anything else)."""
        if Path(path).suffix.lower() == ".json":
            return self.play.open_game(path)
        return self.open_map(path)

    def open_map(self, path: str | os.PathLike[str]) -> bool:
        """Load a map and start a new game on it; a bad one shows the loader's message and
        keeps the current table and game."""
        try:
            state = load_map(path)
            session = Session.new(state, self.game_seed, self.play.session.autosave)
        except UserError as error:
            self.show_message("Cannot open map", error.describe())
            return False
        self.adopt_map(state, Path(path))
        self.view = ViewState(camera=self.fitted_camera(), mode="play")
        self._show_mode()
        self.play.new_game(session)
        self.set_status(f"opened {path}: a new game, seed {self.game_seed}")
        return True

    def adopt_map(self, state: GameState, path: Path | None) -> None:
        """The table a game starts from (a new map, an opened save)."""
        self.state = self.map_state = state
        self.system = registry.get(state.rules)
        if path is not None or self.adjust.drafting:
            self.path = path  # a table made from nothing has no file yet
        self.setup.forget_table()
        self.adjust.loaded(self.path)
        self.view = replace(self.view, selected=None, hovered=None, ruler=None, area_rolls=())
        self.top.set_title(self._title())
        self.setup.update_pose_entries()

    def save_for_mode(self) -> bool:
        """The Save button, as Ctrl+S: the game in play mode, the map in setup mode."""
        if self.view.mode == "play":
            return self.play.save_game()
        return self.save()

    def save(self, path: str | os.PathLike[str] | None = None) -> bool:
        """Save the map (in play, the table the game started from) to `path`, the current
        path (its own file: saved again unasked), or one asked for; never inside the package
        nor over another file unasked. On success `map_saved`."""
        target = Path(path) if path is not None else self.path
        if target is None or is_builtin(target):
            self.ask_file("save-map-as", "Save the map as (.toml)", False)
            self.set_status(builtin_note(target))
            return False
        table = self.map_state if self.view.mode == "play" else self.state
        return self.adjust.save_map_as(target, state=table, overwrite=same_file(target, self.path))

    def map_saved(self, path: Path) -> None:
        """The map now lives at `path` (also after a confirmed overwrite): Ctrl+S saves there."""
        self.path = path

    def export_png(self, path: str | os.PathLike[str] | None = None) -> Path | None:
        """The current view as a PNG (atomic write); a free name in the current folder."""
        target = free_name("tactical-view", ".png") if path is None else Path(path)
        if target.suffix.lower() != ".png":
            target = target.with_suffix(target.suffix + ".png")
        try:
            write_bytes_atomic(target, png_bytes(self.frame()))  # checked, atomic, mode kept
        except pygame.error as error:
            self.show_message("Cannot export PNG", f"cannot write {target}: {error}")
            return None
        except UserError as error:
            self.show_message("Cannot export PNG", error.describe())
            return None
        self.set_status(f"wrote {target}")
        return target

    def show_message(self, title: str, message: str) -> None:
        if self.message is not None and self.message.alive():
            self.message.kill()
        self.message = message_window(self.manager, self.size, title, message)
        self.set_status(message)
