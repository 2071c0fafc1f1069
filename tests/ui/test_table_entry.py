"""Entering a table on the screen: the quick entry box (names, polygons, a refused line kept
for editing, its history), drags on the 0.1" grid, a new table fitted at once and Ctrl+S
from a field; headless, driven with synthetic events."""

from __future__ import annotations

import shutil
from dataclasses import replace

import pygame
import pytest

from tactical.io import builtin_map, load_map
from tactical.io.paths import default_map_path
from tactical.ui.app import App
from tests.ui_events import click, key, move, press_at, press_button, screen, settle, type_text

SIZE = (1280, 800)


@pytest.fixture
def app():
    return App(load_map(default_map_path()), SIZE, headless=True)


def typed(app, line: str) -> None:
    """Type a line into the focused quick entry box and press Enter (no clearing first)."""
    type_text(app, line)
    key(app, pygame.K_RETURN)
    settle(app)


def into_box(app) -> None:
    press_at(app, app.adjust.panel.entry.get_abs_rect().center)


def new_table(app, width: str = "72", depth: str = "48") -> None:
    press_button(app, app.adjust.panel.files["new"])
    dialog = app.adjust.files.dialog
    dialog.width.set_text(width)
    dialog.height.set_text(depth)
    press_button(app, dialog.create)


def test_a_refused_line_stays_selected_and_the_next_line_replaces_it(app):
    key(app, pygame.K_F2)
    into_box(app)
    typed(app, "ruler 200 4 0")  # off the table: refused
    entry = app.adjust.panel.entry
    assert "whole base on the" in app.view.status
    assert entry.get_text() == "ruler 200 4 0" and entry.is_focused
    assert sorted(entry.select_range) == [0, len("ruler 200 4 0")]
    typed(app, "ruler 20 4 0")  # typed straight over it, not appended to it
    assert (app.state.unit("ruler").x, app.state.unit("ruler").y) == (20, 4)
    assert entry.get_text() == ""


def test_a_refused_line_is_edited_in_place_and_never_appended_to(app):
    key(app, pygame.K_F2)
    into_box(app)
    typed(app, "ruler 200 4 0")
    click(app, screen(app, 60, 40))  # away to the table...
    into_box(app)  # ...and back: the click selects the whole refused line again
    entry = app.adjust.panel.entry
    assert sorted(entry.select_range) == [0, len("ruler 200 4 0")]
    key(app, pygame.K_END)  # an arrow key edits the line instead
    for _ in range(len("200 4 0")):
        key(app, pygame.K_BACKSPACE)
    typed(app, "22 5 0")
    assert (app.state.unit("ruler").x, app.state.unit("ruler").y) == (22, 5)


def test_up_brings_back_the_lines_entered_before(app):
    key(app, pygame.K_F2)
    into_box(app)
    typed(app, "ruler 20 4 0")
    typed(app, "ruler 21 4 0")
    entry = app.adjust.panel.entry
    type_text(app, "tri")
    key(app, pygame.K_UP)
    assert entry.get_text() == "ruler 21 4 0"
    key(app, pygame.K_UP)
    key(app, pygame.K_UP)  # no further back than the first
    assert entry.get_text() == "ruler 20 4 0"
    key(app, pygame.K_DOWN)
    key(app, pygame.K_DOWN)
    assert entry.get_text() == "tri"  # past the newest: what was being typed
    key(app, pygame.K_UP)
    key(app, pygame.K_RETURN)
    settle(app)
    assert app.state.unit("ruler").x == 21


def test_set_ruler_hull_on_a_table_built_from_the_palette():
    """New table, a Ruler and a Markgraf placed from the palette (ids ruler-1, markgraf-1),
    back to play, F2: `set ruler hull 3` sets the Ruler's hull; the panel's hint names it as
    it may be typed, never by its id."""
    app = App(load_map(builtin_map("dystopian-wars")), SIZE, headless=True)
    key(app, pygame.K_F2)
    new_table(app)
    palette = app.adjust.panel.palette
    for class_id, y in (("ruler", 8), ("markgraf", 40)):
        palette.pick(class_id)
        click(app, screen(app, 36, y))
    key(app, pygame.K_ESCAPE)
    assert {u.id for u in app.state.units} == {"ruler-1", "markgraf-1"}
    key(app, pygame.K_F2)  # the table becomes a game
    assert app.view.mode == "play", app.view.status
    key(app, pygame.K_F2)
    click(app, screen(app, 36, 8))
    assert "set ruler hull" in app.adjust.panel.values.html_text
    assert "ruler-1" not in app.adjust.panel.values.html_text
    into_box(app)
    typed(app, "set ruler hull 3")
    status = app.system.unit_status(app.state, app.state.unit("ruler-1"))
    assert "Hull 3/8" in [f"{value.label} {value.text}" for value in status.values]


def test_an_ambiguous_name_on_the_screen_lists_both_by_name():
    app = App(load_map(builtin_map("dystopian-wars")), SIZE, headless=True)
    key(app, pygame.K_F2)
    new_table(app)
    into_box(app)
    typed(app, "tribal 30 4 0")
    typed(app, "tribal 40 4 0")
    typed(app, "delete tribal")
    assert app.view.status == (
        "quick entry: 'tribal' could be Tribal Class Cruiser 1 or Tribal Class Cruiser 2: "
        "type the whole name"
    )
    assert len(app.state.units) == 2


def test_a_polygon_typed_on_the_screen(app):
    key(app, pygame.K_F2)
    into_box(app)
    typed(app, "poly 10 30 16 30 18 33 16 36 10 35 dense large")
    piece = app.state.terrain[-1]
    assert len(piece.polygon) == 5 and piece.kind == "dense", app.view.status
    pieces = len(app.state.terrain)
    typed(app, "poly 10 30 16 36 16 30 10 36")
    assert "edges cross" in app.view.status and len(app.state.terrain) == pieces


def drag_with(app, start, end, mods: int = 0) -> None:
    pygame.key.set_mods(mods)
    try:
        move(app, start)
        app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
        move(app, end, buttons=(1, 0, 0))
        app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))
    finally:
        pygame.key.set_mods(0)


def test_dragged_units_and_corners_land_on_a_tenth_of_an_inch_and_shift_frees_them(app):
    key(app, pygame.K_F2)
    ruler = app.state.unit("ruler")
    start = screen(app, ruler.x, ruler.y)
    end = (start[0] + 37, start[1] - 23)  # an odd number of pixels: not a tenth of an inch
    drag_with(app, start, end)
    moved = app.state.unit("ruler")
    assert moved.x != ruler.x
    for value in (moved.x, moved.y):
        assert round(value * 10) == pytest.approx(value * 10, abs=1e-9), value
    free_start = screen(app, moved.x, moved.y)
    drag_with(app, free_start, (free_start[0] + 13, free_start[1] + 7), pygame.KMOD_SHIFT)
    freed = app.state.unit("ruler")
    assert any(abs(round(v * 10) - v * 10) > 1e-6 for v in (freed.x, freed.y))
    assert all(round(v, 2) == v for v in (freed.x, freed.y))
    # a corner dot dragged lands on the grid too
    press_button(app, app.adjust.panel.tools["rect"])
    drag_with(app, screen(app, 30.03, 20.04), screen(app, 36.02, 24.07))
    piece = app.state.terrain[-1]
    assert len(piece.polygon) == 4
    for x, y in piece.polygon:
        assert (round(x * 10), round(y * 10)) == pytest.approx((x * 10, y * 10), abs=1e-9)
    assert piece.polygon[0] == pytest.approx((30, 20), abs=0.15)
    press_button(app, app.adjust.panel.tools["select"])
    corner = screen(app, *piece.polygon[2])
    drag_with(app, corner, (corner[0] + 29, corner[1] - 11))
    x, y = app.state.terrain_piece(piece.id).polygon[2]
    assert (round(x * 10), round(y * 10)) == pytest.approx((x * 10, y * 10), abs=1e-9)
    assert (x, y) != piece.polygon[2]


def test_a_new_table_is_fitted_to_the_window_at_once(app):
    key(app, pygame.K_F2)
    app.view = replace(app.view, camera=app.view.camera.panned(300, 200))
    new_table(app, "48", "36")
    assert app.state.board.width == 48
    assert app.view.camera == app.fitted_camera()


def test_ctrl_s_saves_while_a_field_has_the_focus(tmp_path):
    mine = tmp_path / "mine.toml"
    shutil.copy(builtin_map("dystopian-wars"), mine)
    app = App(load_map(mine), SIZE, headless=True, path=mine)
    key(app, pygame.K_F2)
    into_box(app)
    typed(app, "ruler 20 4 0")
    type_text(app, "tribal")  # half a line typed, the box still has the focus
    assert app.input.typing()
    key(app, pygame.K_s, mod=pygame.KMOD_CTRL)
    assert load_map(mine).unit("ruler").x == 20, app.view.status
    assert app.adjust.panel.entry.get_text() == "tribal"  # no "s" typed into the line


def test_the_open_dialog_lists_the_builtin_scenarios_and_only_maps_and_saves(tmp_path, monkeypatch):
    import pygame_gui

    from tactical.ui.open_dialog import OpenDialog

    for name in ("club.toml", "game.json", "notes.txt", "picture.png"):
        (tmp_path / name).write_text("")
    monkeypatch.chdir(tmp_path)
    app = App(load_map(default_map_path()), SIZE, headless=True)
    key(app, pygame.K_o, mod=pygame.KMOD_CTRL)
    purpose, dialog = app.files.dialog
    assert purpose == "open" and isinstance(dialog, OpenDialog)
    listed = [item["text"] for item in dialog.file_selection_list.item_list]
    builtin = "Built-in: battlefleet-mars (Deimos orbital base)"
    assert listed[0].startswith("Built-in: ") and builtin in listed
    assert "Built-in: heavy-combat (Duel at the Neutral Zone)" in listed
    files = [text for text in listed if not text.startswith("Built-in: ")]
    assert files == ["club.toml", "game.json"]
    app.handle(
        pygame.event.Event(
            pygame_gui.UI_SELECTION_LIST_NEW_SELECTION,
            ui_element=dialog.file_selection_list,
            text=builtin,
        )
    )
    assert not dialog.delete_button.is_enabled  # never deleted from here
    press_button(app, dialog.ok_button)
    settle(app)
    assert app.state.title == "Deimos orbital base" and app.state.rules == "battlefleet-mars"


# a 6'x4' Dystopian Wars table read off the real one: 6 pieces (one a 5-corner polygon),
# 10 ships
CLUB_TABLE = (
    "rect 20 20 26 24 dense large",
    "circle 36 24 3 obstructing medium",
    "rect 50 10 54 16 soft tiny",
    "circle 12 34 2 dense small",
    "poly 58 30 64 30 66 33 62 36 58 34 dense massive",
    "circle 44 40 2.5 soft small",
    "ruler 30 4 0",
    "tribal 38 4 0",
    "tribal 42 4 0",
    "attacker 46 3 0",
    "avenger 24 4 0",
    "markgraf 30 44 180",
    "stralsund 38 44 180",
    "stralsund 42 44 180",
    "blucher 46 45 180",
    "wachter 24 44 180",
)
TYPING = 200 / 60  # characters a second: a slow typist (40 words a minute)
READING = 4.0  # seconds to read a ship's or a piece's place off the real table
POINTING = 1.0  # seconds a click or a key


def test_a_ten_ship_six_piece_table_by_hand_in_25_steps_under_3_minutes(tmp_path, monkeypatch):
    """Everything through the screen as a player does it: F2, New table…, Create, a click
    in the quick entry box, 16 typed lines, then Save map as… (Ctrl+Shift+S, a click in the
    file name, End, the name typed, OK): 8 clicks and keys and 17 typed lines, 25 steps,
    355 characters; at 40 words a minute, 4 s to read each place off the real table and 1 s
    a click or key, 178 s (143 s at 60 words a minute). The saved map is the table built,
    and it plays."""
    monkeypatch.chdir(tmp_path)
    app = App(load_map(default_map_path()), SIZE, headless=True)
    steps = {"keys": 0, "clicks": 0, "lines": 0}
    typed_chars = 0

    def press(code, mod=0):
        steps["keys"] += 1
        key(app, code, mod=mod)

    def point(widget):
        steps["clicks"] += 1
        press_at(app, widget.get_abs_rect().center)

    def line(text, enter=True):
        nonlocal typed_chars
        steps["lines"] += 1
        typed_chars += len(text)
        type_text(app, text)
        if enter:
            key(app, pygame.K_RETURN)
            settle(app)

    press(pygame.K_F2)
    point(app.adjust.panel.files["new"])
    point(app.adjust.files.dialog.create)
    point(app.adjust.panel.entry)
    for text in CLUB_TABLE:
        line(text)
        assert app.adjust.panel.entry.get_text() == "", app.view.status
    state = app.state
    assert len(state.units) == 10 and len(state.terrain) == 6
    assert sorted(len(p.polygon) for p in state.terrain if p.polygon) == [4, 4, 5]
    press(pygame.K_s, pygame.KMOD_CTRL | pygame.KMOD_SHIFT)
    purpose, dialog = app.files.dialog
    assert purpose == "save-map-as"
    point(dialog.file_path_text_line)
    press(pygame.K_END)
    line("/club.toml", enter=False)
    settle(app)
    point(dialog.ok_button)
    settle(app)
    saved = tmp_path / "club.toml"
    assert load_map(saved) == state, app.view.status
    count = sum(steps.values())
    assert steps == {"keys": 3, "clicks": 5, "lines": 17} and count == 25
    seconds = typed_chars / TYPING + READING * len(CLUB_TABLE) + POINTING * (count - steps["lines"])
    assert seconds <= 180, seconds
    print(f"{count} steps, {typed_chars} characters typed: about {seconds:.0f} s")
    key(app, pygame.K_F2)
    assert app.view.mode == "play" and app.play.session.game.initial == state
