"""No event ends the play screen with a traceback: guarded handlers, resize to 0,
pygame_gui's file dialog failing, a spotter field offering "none"."""

from __future__ import annotations

import pygame
import pytest
from ui_events import settle
from ui_play_driver import pick_row, select_on_table

from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.session import autoplay
from tactical.ui.app import App


@pytest.fixture
def app():
    return App(load_map(builtin_map("default")), (1280, 800), headless=True, seed=5)


def test_cortex_bombard_with_its_none_spotter_choice_opens_without_a_crash(tmp_path):
    """R003.67: the spotter field offers "" (no spotter) besides the ships; picking the
    basestar's bombardment prefetched odds for state.unit("") and crashed the screen."""
    app = App(load_map(builtin_map("cortex-space")), (1280, 800), headless=True, seed=5)
    session = app.play.session
    while not (choices := [c for c in session.choices() if c.kind == "bombard"]):
        assert session.step_number < 80, "no bombardment was ever offered"
        session.apply(autoplay.next_game(session.game).last_step.action)
    app.play.sync()
    choice = choices[0]
    assert "" in next(f.choices for f in choice.fields if f.name == "spotter")
    select_on_table(app, choice.actor)
    pick_row(app, choice)
    assert app.play.actions.picked == choice and "error" not in app.view.status


@pytest.mark.parametrize(
    "event",
    [
        pygame.event.Event(pygame.VIDEORESIZE, w=0, h=0, size=(0, 0)),
        pygame.event.Event(pygame.WINDOWSIZECHANGED, x=0, y=500),
    ],
)
def test_a_resize_to_width_0_keeps_a_usable_window(app, event):
    app.handle(event)
    settle(app, 1)
    assert app.size[0] >= 320 and app.size[1] >= 240


def test_the_file_dialogs_no_selected_rows_drops_the_edit_and_nothing_else(app, monkeypatch):
    """pygame_gui's text entries can raise IndexError("No selected rows.") out of
    process_events (the file dialog's path line): it ended App.handle with a traceback."""
    app.files.ask_open()
    settle(app, 2)
    history = app.play.session.history
    entry = app.files.dialog[1].file_path_text_line

    def broken(event):
        raise IndexError("No selected rows.")

    monkeypatch.setattr(entry, "process_event", broken)
    entry.focus()
    app.manager.set_focus_set(entry)
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, mod=0, unicode="a", scancode=0))
    assert app.running and app.play.session.history is history and app.files.dialog is not None


def test_an_exception_in_a_handler_is_logged_and_shown_and_the_game_goes_on(
    app, monkeypatch, ui_event_errors
):
    """Any exception escaping a handler: logged, one line on the screen, nothing lost."""
    history = app.play.session.history

    def broken(*args):
        raise RuntimeError("a bug")

    monkeypatch.setattr(app, "toggle_help", broken)
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F1, mod=0, unicode="", scancode=0))
    assert app.running and app.play.session.history is history
    assert app.view.status.startswith("Something went wrong with that input (RuntimeError: a bug)")
    assert len(ui_event_errors) == 1 and isinstance(ui_event_errors[0].exc_info[1], RuntimeError)
    ui_event_errors.clear()
    monkeypatch.undo()
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F1, mod=0, unicode="", scancode=0))
    assert app.view.help_visible


def test_the_view_export_follows_a_symlink_keeps_the_mode_and_refuses_a_device(app, tmp_path):
    """F12 wrote a 0600 file over the link, and left its temporary file when saving failed."""
    real = tmp_path / "view.png"
    real.write_bytes(b"old")
    real.chmod(0o644)
    link = tmp_path / "link.png"
    link.symlink_to(real)
    assert app.files.export_png(link) == link
    assert link.is_symlink() and real.read_bytes()[:4] == b"\x89PNG"
    assert real.stat().st_mode & 0o777 == 0o644
    device = tmp_path / "full.png"
    device.symlink_to("/dev/full")
    assert app.files.export_png(device) is None and "not a regular file" in app.view.status
    assert sorted(p.name for p in tmp_path.iterdir()) == ["full.png", "link.png", "view.png"]


def test_a_frame_that_fails_is_said_once_and_the_loop_goes_on(app, monkeypatch, ui_event_errors):
    frames = []

    def frame():
        frames.append(1)
        if len(frames) == 3:
            app.running = False
        raise ValueError("cannot draw")

    monkeypatch.setattr(app, "frame", frame)
    monkeypatch.setattr(pygame.event, "get", lambda: [])
    assert app.run() == 0 and len(frames) == 3
    assert "cannot draw" in app.view.status and len(ui_event_errors) == 1
    ui_event_errors.clear()
