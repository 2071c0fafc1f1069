"""Save map as… over an existing file (issue 14): once the player confirms, the window's file
is the new one (Ctrl+S then saves there), headless with synthetic events."""

from __future__ import annotations

import pygame
import pygame_gui

from tactical.io import builtin_map, load_map
from tactical.ui.app import App
from tests.ui_events import key

SIZE = (1280, 800)


def _pick(app, path) -> None:
    purpose, dialog = app._dialog
    assert purpose == "save-map-as"
    app.handle(
        pygame.event.Event(pygame_gui.UI_FILE_DIALOG_PATH_PICKED, ui_element=dialog, text=str(path))
    )


def _confirm(app) -> None:
    app.handle(
        pygame.event.Event(
            pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED,
            ui_element=app.adjust.confirm,
            ui_object_id="#confirm",
        )
    )


def test_a_confirmed_overwrite_makes_the_saved_file_the_windows_file(tmp_path):
    source = builtin_map("heavy-combat")
    app = App(load_map(source), SIZE, headless=True, path=source)
    key(app, pygame.K_TAB)  # setup: Ctrl+S saves the map (in play it saves the game)
    target = tmp_path / "mine.toml"
    target.write_text("# an older table\n")
    key(app, pygame.K_s, mod=pygame.KMOD_CTRL | pygame.KMOD_SHIFT)  # Save map as…
    _pick(app, target)
    assert app.adjust.confirm is not None and app.path == source  # asked, nothing written
    assert target.read_text() == "# an older table\n"
    _confirm(app)
    assert app.path == target
    assert load_map(target).units == app.map_state.units
    # Save (Ctrl+S) now goes to the file saved as: no file dialog for the built-in map
    key(app, pygame.K_s, mod=pygame.KMOD_CTRL)
    assert app._dialog is None and app.adjust._confirmed == ("overwrite", target)


def test_a_refused_overwrite_keeps_the_windows_file(tmp_path):
    source = builtin_map("heavy-combat")
    app = App(load_map(source), SIZE, headless=True, path=source)
    target = tmp_path / "mine.toml"
    target.write_text("# keep me\n")
    key(app, pygame.K_s, mod=pygame.KMOD_CTRL | pygame.KMOD_SHIFT)
    _pick(app, target)
    app.adjust.confirm.kill()  # the player closes the question
    assert app.path == source and target.read_text() == "# keep me\n"


def test_the_overwrite_is_confirmed_in_play_mode_too(tmp_path):
    source = builtin_map("sw-d6-capital")
    app = App(load_map(source), SIZE, headless=True, path=source)
    assert app.view.mode == "play"
    target = tmp_path / "mine.toml"
    target.write_text("# old\n")
    key(app, pygame.K_s, mod=pygame.KMOD_CTRL | pygame.KMOD_SHIFT)
    _pick(app, target)
    _confirm(app)
    assert app.path == target and load_map(target).units == app.map_state.units
