"""Adjust mode on the play screen, driven with synthetic events, headless."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from tactical.io import builtin_map, load_map
from tactical.io.paths import default_map_path
from tactical.model import FrozenMap
from tactical.present.results import step_log_lines
from tactical.rules import registry
from tactical.session.adjust import ADJUST
from tactical.session.autoplay import next_game
from tactical.ui import palette
from tactical.ui.app import App
from tests.ui_events import (
    click,
    drag,
    key,
    move,
    press_at,
    press_button,
    screen,
    settle,
    type_text,
)

SIZE = (1280, 800)
# a 6'x4' Dystopian Wars table typed as a player reads it off the real one
TABLE_LINES = (
    "rect 20 20 26 24 dense large",
    "circle 36 24 3 obstructing medium",
    "rect 50 10 54 16 soft tiny",
    "circle 12 34 2 dense small",
    "rect 60 30 66 33 dense massive",
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


@pytest.fixture
def app():
    return App(load_map(default_map_path()), SIZE, headless=True)


def enter(app, line: str) -> None:
    """Type a quick entry line and press Enter, as a player does (a refused line stays in the
    entry to be corrected: a new one replaces it)."""
    app.adjust.panel.entry.set_text("")
    press_at(app, app.adjust.panel.entry.get_abs_rect().center)
    type_text(app, line)
    key(app, pygame.K_RETURN)
    settle(app)


def drag_drawing(app, start, end) -> None:
    """A drag with a frame drawn halfway (what is dragged is drawn where the pointer is)."""
    move(app, start)
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    halfway = ((start[0] + end[0]) // 2, (start[1] + end[1]) // 2)
    move(app, halfway, buttons=(1, 0, 0))
    app.frame()
    move(app, end, buttons=(1, 0, 0))
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))


def drawn_text(app) -> list[str]:
    return [app.view.status, app.adjust.panel.selected.text, app.adjust.panel.values.html_text]


def test_f2_opens_adjust_mid_game_and_a_drag_is_a_step_that_keeps_the_go(app):
    session = app.play.session
    for _ in range(4):
        session.history = session.history.apply(next_game(session.game).last_step.action)
    app.play.sync()
    position, side = session.game.position, session.side_to_act
    key(app, pygame.K_F2)
    assert app.view.mode == "adjust" and app.adjust.panel.panel.visible
    ruler = app.state.unit("ruler")
    drag_drawing(app, screen(app, ruler.x, ruler.y), screen(app, ruler.x + 4, ruler.y + 2))
    moved = app.state.unit("ruler")
    assert moved.x == pytest.approx(ruler.x + 4, abs=0.2)
    step = session.last_step
    assert step.action.kind == ADJUST and step.title.startswith(
        "adjust: Ruler Class Battleship moved ("
    )
    assert (session.game.position, session.side_to_act) == (position, side)
    assert app.view.status == step.title
    # the log panel: the step's sentence, not "A: adjust: ..." (an adjustment is nobody's go)
    assert step_log_lines(step) == [f"#{step.number} {step.title}"]
    key(app, pygame.K_z, mod=pygame.KMOD_CTRL)
    assert app.state.unit("ruler").x == ruler.x
    key(app, pygame.K_F2)
    assert app.view.mode == "play"


def test_new_table_built_from_nothing_in_18_actions_and_saved(app, tmp_path):
    """File → New, 16 typed lines, Save map as: a 10-ship, 6-terrain table in 18 actions
    (well under five minutes for an experienced user); it reloads identically, plays,
    and the built-in map it replaced was never written."""
    builtin = default_map_path().read_bytes()
    actions = 0
    key(app, pygame.K_F2)
    press_button(app, app.adjust.panel.files["new"])
    dialog = app.adjust.files.dialog
    press_button(app, dialog.create)  # 72 x 48, the rule system of the table shown
    actions += 1
    assert app.adjust.drafting and app.state.units == () and app.state.board.width == 72
    for line in TABLE_LINES:
        enter(app, line)
        actions += 1
    state = app.state
    assert len(state.units) == 10 and len(state.terrain) == 6, app.view.status
    target = tmp_path / "club.toml"
    assert app.adjust.files.save_map_as(target)
    actions += 1
    assert actions == 18
    assert load_map(target) == state
    assert default_map_path().read_bytes() == builtin
    assert app.path == target and app.adjust.files.source == target  # the window's file now
    key(app, pygame.K_F2)  # back to play: the new table is a new game
    assert app.view.mode == "play", app.view.status
    assert app.play.session.game.initial == state
    assert "a new game on this table" in app.view.status


def test_palette_places_a_class_for_the_chosen_side_by_click(app):
    key(app, pygame.K_F2)
    palette = app.adjust.panel.palette
    assert palette.pick("markgraf") is not None and palette.side == "B"
    before = len(app.state.units)
    click(app, screen(app, 40, 20))
    placed = app.state.units[-1]
    assert len(app.state.units) == before + 1
    assert (placed.id, placed.side, placed.heading) == ("markgraf-1", "B", 180)
    key(app, pygame.K_ESCAPE)
    assert palette.picked is None


def test_rectangle_and_circle_by_drag_then_reshape_by_corner(app):
    key(app, pygame.K_F2)
    press_button(app, app.adjust.panel.tools["rect"])
    # halfway through the drag the rectangle is drawn (a frame in the middle of it)
    start = screen(app, 30, 20)
    move(app, start)
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    move(app, screen(app, 33, 22), buttons=(1, 0, 0))
    before = app.frame().copy()
    x, y = screen(app, 31.5, 20)
    assert palette.SELECTED_OUTLINE in [before.get_at((x, y + dy)) for dy in range(-3, 4)]
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=start, button=1))
    drag(app, screen(app, 30, 20), screen(app, 36, 24))
    piece = app.state.terrain[-1]
    xs = sorted({round(x) for x, _ in piece.polygon})
    assert xs == [30, 36] and app.adjust.terrain == piece.id
    press_button(app, app.adjust.panel.tools["select"])
    corner = piece.polygon[2]
    drag_drawing(app, screen(app, *corner), screen(app, corner[0] + 2, corner[1] + 1))
    assert app.state.terrain_piece(piece.id).polygon[2] == pytest.approx(
        (corner[0] + 2, corner[1] + 1), abs=0.2
    )
    # Shift+click on an edge adds a corner, Ctrl+click on a corner removes it
    # (a click inside the piece selects it: its edge at y 20 lies on the island's edge too)
    app.handle(
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=screen(app, 33, 21), button=1)
    )  # the press reads the modifiers from pygame: drive the mode directly for them
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=screen(app, 33, 21), button=1))
    app.adjust.pointer.press((33, 20), None, pygame.KMOD_SHIFT)
    assert len(app.state.terrain_piece(piece.id).polygon) == 5
    app.adjust.pointer.press(app.state.terrain_piece(piece.id).polygon[1], None, pygame.KMOD_CTRL)
    assert len(app.state.terrain_piece(piece.id).polygon) == 4
    press_button(app, app.adjust.panel.tools["circle"])
    drag_drawing(app, screen(app, 10, 40), screen(app, 13, 40))
    assert app.state.terrain[-1].circle.radius == pytest.approx(3, abs=0.2)


def test_bad_input_is_one_message_and_changes_nothing(app):
    key(app, pygame.K_F2)
    before = app.state
    steps = app.play.session.history.length
    enter(app, "ruler 200 4 0")
    assert "whole base on the" in app.view.status and app.state == before
    enter(app, "set ruler hull points -3")
    assert "hull_points" in app.view.status and app.state == before
    enter(app, "dreadnought 1 2")
    assert "neither a unit on the table nor a class" in app.view.status
    assert app.play.session.history.length == steps


def test_typed_pose_and_keys_turn_and_delete(app):
    key(app, pygame.K_F2)
    click(app, screen(app, app.state.unit("ruler").x, app.state.unit("ruler").y))
    assert app.view.selected == "ruler"
    assert app.adjust.panel.selected.text == "Ruler Class Battleship, side A"  # no id
    for name, value in zip(("x", "y", "heading"), ("20", "6", "45"), strict=True):
        app.adjust.panel.pose[name].set_text(value)
    assert app.adjust.apply_pose()
    unit = app.state.unit("ruler")
    assert (unit.x, unit.y, unit.heading) == (20, 6, 45)
    key(app, pygame.K_e)
    assert app.state.unit("ruler").heading == 50
    key(app, pygame.K_DELETE)
    assert not app.state.has_unit("ruler")


def test_saving_never_writes_a_builtin_map_and_asks_before_overwriting(tmp_path):
    path = builtin_map("dystopian-wars")
    before = path.read_bytes()
    app = App(load_map(path), SIZE, headless=True, path=path)
    key(app, pygame.K_s, mod=pygame.KMOD_CTRL | pygame.KMOD_SHIFT)
    assert app.files.dialog is not None and app.files.dialog[0] == "save-map-as"
    assert path.read_bytes() == before
    target = tmp_path / "mine.toml"
    target.write_text("# mine\n")
    key(app, pygame.K_F2)
    assert not app.adjust.files.save_map_as(target)
    assert app.adjust.files.confirm is not None and target.read_text() == "# mine\n"
    app.handle(
        pygame.event.Event(
            pygame_gui_confirmed(), ui_element=app.adjust.files.confirm, ui_object_id="#confirm"
        )
    )
    assert load_map(target) == replace(app.state, rule_state=FrozenMap())  # the table only
    # the loaded file's comments came along
    assert "Kingdom of Britannia" in target.read_text()


def pygame_gui_confirmed() -> int:
    import pygame_gui

    return pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED


@pytest.mark.parametrize("rules", registry.rule_ids())
def test_every_rule_system_opens_adjust_and_says_it_in_words(rules):
    app = App(load_map(builtin_map(rules)), SIZE, headless=True)
    key(app, pygame.K_F2)
    unit = app.state.units[0]
    click(app, screen(app, unit.x, unit.y))
    app.frame()
    for text in drawn_text(app):
        assert "True" not in text and "None" not in text and "FrozenMap" not in text
    assert app.adjust.panel.palette.catalogue.classes


def test_turning_handles_turn_a_unit_and_a_terrain_piece(app):
    key(app, pygame.K_F2)
    ruler = app.state.unit("ruler")
    click(app, screen(app, ruler.x, ruler.y))
    _, pivot, handle = app.adjust.pointer.turn_handle()
    assert pivot == (ruler.x, ruler.y) and handle[1] > ruler.y  # ahead of the bow (heading 0)
    east = (ruler.x + 5, ruler.y)
    drag_drawing(app, screen(app, *handle), screen(app, *east))
    assert app.state.unit("ruler").heading == pytest.approx(90, abs=1)
    assert (app.state.unit("ruler").x, app.state.unit("ruler").y) == (ruler.x, ruler.y)
    piece = next(p for p in app.state.terrain if p.polygon is not None)
    inside = piece.geometry.representative_point()
    click(app, screen(app, inside.x, inside.y))
    assert app.adjust.terrain == piece.id
    item, (cx, cy), handle = app.adjust.pointer.turn_handle()
    assert item == piece.id
    drag_drawing(app, screen(app, *handle), screen(app, cx - 6, cy))
    turned = app.state.terrain_piece(piece.id)
    assert turned.geometry.area == pytest.approx(piece.geometry.area, rel=1e-3)
    assert turned.polygon != piece.polygon
    assert "turned" in app.view.status


def test_a_frigate_deleted_in_adjust_mode_closes_the_numbers_on_the_table():
    """Adjust mode, click the second of three Attacker Class Frigates, Delete: a correction,
    not a loss, so the others' table labels read "... Frigate 1" and "... Frigate 2"."""
    app = App(load_map(builtin_map("dystopian-wars")), SIZE, headless=True)
    key(app, pygame.K_F2)
    frigate = app.state.unit("attacker-2")
    click(app, screen(app, frigate.x, frigate.y))
    assert app.view.selected == "attacker-2"
    key(app, pygame.K_DELETE)
    assert not app.state.has_unit("attacker-2")
    settle(app)
    labels = app.table.renderer.drawn_labels(app.state, app.view.camera, SIZE)
    texts = {unit_id: text for unit_id, _, _, text in labels}
    assert texts["attacker-1"] == "Attacker Class Frigate 1"
    assert texts["attacker-3"] == "Attacker Class Frigate 2"


def test_the_card_of_a_unit_deleted_under_the_pointer_goes_with_it():
    """Adjust mode: the pointer on a frigate shows its card; Delete takes the frigate off
    the table, and its card with it at the next frame, the pointer still where it was."""
    app = App(load_map(builtin_map("dystopian-wars")), SIZE, headless=True)
    key(app, pygame.K_F2)
    frigate = app.state.unit("attacker-2")
    click(app, screen(app, frigate.x, frigate.y))
    settle(app)
    assert app.view.hovered == "attacker-2" and app.card.box.visible
    key(app, pygame.K_DELETE)
    settle(app)
    app.frame()
    assert app.view.hovered is None
    assert not app.card.box.visible
