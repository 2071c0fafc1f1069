"""The window's files: the file dialog and its answer, opening a map or a saved game,
saving the map, exporting the view as a PNG, and the message windows that say why one
of them could not be done.

`WindowFiles` is the part of the `App` (tactical.ui.app) that reads and writes: it owns
the file dialog and the message window, and works on the window's table, path and modes
through `Window` (the game's own files are the play mode's, tactical.ui.play_files). A map
or a picture is never written inside the package nor over another file unasked.
"""

from __future__ import annotations

import os
from pathlib import Path

import pygame
import pygame_gui
from pygame_gui.windows import UIFileDialog, UIMessageWindow

from tactical.errors import UserError
from tactical.io.files import write_bytes_atomic
from tactical.io.maps import load_map
from tactical.io.paths import is_builtin
from tactical.session.controller import Session
from tactical.ui.app_window import Window
from tactical.ui.chrome import file_dialog, message_window, png_bytes
from tactical.ui.files import builtin_note, dialog_start, free_name, same_file
from tactical.ui.open_dialog import OpenDialog
from tactical.ui.view import ViewState


class WindowFiles:
    """Opening and saving from the window (see the module docstring). `window` is the `App`."""

    def __init__(self, window: Window) -> None:
        self.window = window
        self.dialog: tuple[str, UIFileDialog] | None = None  # its purpose, the dialog
        self.message: UIMessageWindow | None = None

    def ask_open(self) -> None:
        """File → Open: a map or a saved game, the built-in scenarios listed first."""
        window = self.window
        if self.dialog is not None:
            self.dialog[1].kill()
        size = window.size
        rect = pygame.Rect(0, 0, min(560, size[0] - 20), min(440, size[1] - 20))
        rect.center = (size[0] // 2, size[1] // 2)
        # the folder of the window's map, but not the built-in maps' folder: they are listed
        start = dialog_start(window.path, existing=False)
        title = "Open a map (.toml) or a saved game (.json)"
        self.dialog = ("open", OpenDialog(rect, window.manager, title, start))

    def ask_file(self, purpose: str, title: str, existing: bool) -> None:
        """A file dialog; its answer comes back by `purpose`."""
        window = self.window
        if self.dialog is not None:
            self.dialog[1].kill()
        start = dialog_start(window.path, existing)
        chosen = file_dialog(window.manager, window.size, title, start, existing)
        self.dialog = (purpose, chosen)

    def dialog_event(self, event: pygame.event.Event) -> None:
        """The file dialog's answer (a path picked: done for its purpose) or its closing."""
        if self.dialog is None or getattr(event, "ui_element", None) is not self.dialog[1]:
            return
        purpose, dialog = self.dialog
        if event.type == pygame_gui.UI_WINDOW_CLOSE:
            self.dialog = None
        elif event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED:
            self.dialog = None
            if dialog.alive():
                dialog.kill()
            if purpose == "open":
                self.open_file(event.text)
            elif purpose == "save" or purpose == "save-map-as":
                self.save(event.text)
            elif purpose == "save-game":
                self.window.play.save_game(event.text)
            elif purpose == "png":
                self.export_png(event.text)

    def open_file(self, path: str | os.PathLike[str]) -> bool:
        """A saved game (.json) or a map (anything else)."""
        if Path(path).suffix.lower() == ".json":
            return self.window.play.open_game(path)
        return self.open_map(path)

    def open_map(self, path: str | os.PathLike[str]) -> bool:
        """Load a map and start a new game on it; a bad one shows the loader's message and
        keeps the current table and game."""
        window = self.window
        try:
            state = load_map(path)
            session = Session.new(state, window.game_seed, window.play.session.autosave)
        except UserError as error:
            self.show_message("Cannot open map", error.describe())
            return False
        window.adopt_map(state, Path(path))
        window.set_view(ViewState(camera=window.fitted_camera(), mode="play"))
        window.show_mode()
        window.play.new_game(session)
        window.set_status(f"opened {path}: a new game, seed {window.game_seed}")
        return True

    def save_for_mode(self) -> bool:
        """The Save button, as Ctrl+S: the game in play mode, the map in setup mode."""
        if self.window.view.mode == "play":
            return self.window.play.save_game()
        return self.save()

    def save(self, path: str | os.PathLike[str] | None = None) -> bool:
        """Save the map (in play, the table the game started from) to `path`, the current
        path (its own file: saved again unasked), or one asked for; never inside the package
        nor over another file unasked. On success the window's `map_saved`."""
        window = self.window
        target = Path(path) if path is not None else window.path
        if target is None or is_builtin(target):
            self.ask_file("save-map-as", "Save the map as (.toml)", False)
            window.set_status(builtin_note(target))
            return False
        table = window.map_state if window.view.mode == "play" else window.state
        overwrite = same_file(target, window.path)
        return window.adjust.files.save_map_as(target, state=table, overwrite=overwrite)

    def export_png(self, path: str | os.PathLike[str] | None = None) -> Path | None:
        """The current view as a PNG (atomic write); a free name in the current folder."""
        target = free_name("tactical-view", ".png") if path is None else Path(path)
        if target.suffix.lower() != ".png":
            target = target.with_suffix(target.suffix + ".png")
        try:
            picture = png_bytes(self.window.frame())
            write_bytes_atomic(target, picture)  # checked, atomic, mode kept
        except pygame.error as error:
            self.show_message("Cannot export PNG", f"cannot write {target}: {error}")
            return None
        except UserError as error:
            self.show_message("Cannot export PNG", error.describe())
            return None
        self.window.set_status(f"wrote {target}")
        return target

    def show_message(self, title: str, message: str) -> None:
        """A message window (a file that cannot be read or written), said on the status line."""
        window = self.window
        if self.message is not None and self.message.alive():
            self.message.kill()
        self.message = message_window(window.manager, window.size, title, message)
        window.set_status(message)
