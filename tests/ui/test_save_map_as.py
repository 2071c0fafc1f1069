"""Save map as… over an existing file: once the player confirms, the window's file
is the new one (Ctrl+S then saves there), headless with synthetic events."""

from __future__ import annotations

from pathlib import Path

import pygame
import pygame_gui

from tactical.io import builtin_map, load_map
from tactical.io.paths import is_builtin
from tactical.ui.app import App
from tests.ui_events import key

SIZE = (1280, 800)


def _pick(app, path) -> None:
    purpose, dialog = app.files.dialog
    assert purpose == "save-map-as"
    app.handle(
        pygame.event.Event(pygame_gui.UI_FILE_DIALOG_PATH_PICKED, ui_element=dialog, text=str(path))
    )


def _confirm(app) -> None:
    app.handle(
        pygame.event.Event(
            pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED,
            ui_element=app.adjust.files.confirm,
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
    assert app.adjust.files.confirm is not None and app.path == source  # asked, nothing written
    assert target.read_text() == "# an older table\n"
    _confirm(app)
    assert app.path == target
    assert load_map(target).units == app.map_state.units
    # Save (Ctrl+S) now goes to the file saved as: no file dialog for the built-in map, and
    # no "Replace it?" either: it is the map's own file
    app.setup.roll_terrain(2)
    key(app, pygame.K_s, mod=pygame.KMOD_CTRL)
    assert app.files.dialog is None and app.adjust.files._confirmed is None
    assert load_map(target).terrain == app.state.terrain


def test_saving_a_map_to_its_own_file_just_saves_it(tmp_path):
    """Ctrl+S on a map opened from a file of the player's writes that file again (atomically),
    without asking; picking that same file (by another spelling) in Save as… does too."""
    own = tmp_path / "own.toml"
    own.write_text(builtin_map("dystopian-wars").read_text())
    app = App(load_map(own), SIZE, headless=True, path=own)
    key(app, pygame.K_TAB)  # setup
    app.setup.roll_terrain(3)
    key(app, pygame.K_s, mod=pygame.KMOD_CTRL)
    assert app.adjust.files.confirm is None and app.files.dialog is None
    assert load_map(own) == app.state
    assert "saved" in app.view.status
    app.setup.roll_terrain(4)
    app.adjust.files.save_map_as()  # Save map as… (the adjust panel's button)
    _pick(app, tmp_path / "sub" / ".." / "own.toml")
    assert app.adjust.files.confirm is None and load_map(own) == app.state


def test_saving_onto_another_existing_file_still_asks(tmp_path):
    own, other = tmp_path / "own.toml", tmp_path / "other.toml"
    own.write_text(builtin_map("cortex-space").read_text())
    other.write_text("# someone else's table\n")
    app = App(load_map(own), SIZE, headless=True, path=own)
    app.adjust.files.save_map_as()
    _pick(app, other)
    assert app.adjust.files._confirmed == ("overwrite", other)
    assert other.read_text() == "# someone else's table\n"


def test_saving_a_built_in_map_asks_for_a_name_and_never_writes_it(tmp_path):
    source = builtin_map("battlefleet-mars")
    before = source.read_bytes()
    app = App(load_map(source), SIZE, headless=True, path=source)
    key(app, pygame.K_TAB)
    app.setup.roll_terrain(2)
    key(app, pygame.K_s, mod=pygame.KMOD_CTRL)
    assert app.files.dialog is not None and app.files.dialog[0] == "save-map-as"
    assert "__init__.py" not in str(app.files.dialog[1].current_file_path or "")
    assert not is_builtin(Path(app.files.dialog[1].current_directory_path))
    _pick(app, source)  # the built-in file itself, picked in Save as…: refused
    assert app.adjust.files.confirm is None and source.read_bytes() == before
    assert "built-in" in app.view.status


def test_a_refused_overwrite_keeps_the_windows_file(tmp_path):
    source = builtin_map("heavy-combat")
    app = App(load_map(source), SIZE, headless=True, path=source)
    target = tmp_path / "mine.toml"
    target.write_text("# keep me\n")
    key(app, pygame.K_s, mod=pygame.KMOD_CTRL | pygame.KMOD_SHIFT)
    _pick(app, target)
    app.adjust.files.confirm.kill()  # the player closes the question
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
