"""The play screen driven headless with synthetic pygame events."""

from __future__ import annotations

import math
from dataclasses import replace

import pygame
import pygame_gui
import pytest
from ui_events import click, drag, key, move, press_button, screen, wheel

from tactical.geometry.shapes import Pose
from tactical.io.maps import load_map
from tactical.io.paths import default_map_path
from tactical.io.saves import read_save
from tactical.model import FrozenMap
from tactical.rules.base import Action
from tactical.rules.measuring import TableGeometry
from tactical.session import autoplay
from tactical.session.controller import Session
from tactical.session.deployment import is_deployed_in
from tactical.session.game import Game
from tactical.session.saving import load_game, save_game
from tactical.session.terrain_setup import seeded_setup
from tactical.ui.app import App


@pytest.fixture(scope="module")
def default_state():
    return load_map(default_map_path())


@pytest.fixture
def app(default_state):
    return App(default_state, (1280, 800), headless=True)


def first_step(app):
    """The side to act takes the first step offered, with its defaults (a step of the game
    to save or refuse setup after: the default map opens on a roll, where no pass is
    offered yet)."""
    choice = app.play.session.game.choices()[0]
    return app.play.do(Action(choice.kind, choice.actor))


# ---------------------------------------------------------------------- inspect


def test_click_on_centre_selects_and_tints_the_arcs(app):
    """A click on a unit's centre selects it; its arcs tint the table ahead of it."""
    ruler = app.state.unit("ruler")
    probe = screen(app, ruler.x, ruler.y + 14)  # dead ahead, inside the fore arc
    before = tuple(app.frame().get_at(probe))
    click(app, screen(app, ruler.x, ruler.y))
    assert app.view.selected == "ruler"
    after = tuple(app.frame().get_at(probe))
    assert after != before
    click(app, screen(app, 2, 46))  # empty water: the selection clears
    assert app.view.selected is None
    assert tuple(app.frame().get_at(probe)) == before


def test_hover_shows_the_card_with_the_rule_systems_status(app):
    """The card shows every current value the rule system reports, labelled, and
    the unit's weapons (name, arc, ranges, dice)."""
    unit = app.state.unit("markgraf")
    move(app, screen(app, unit.x, unit.y))
    assert app.view.hovered == "markgraf"
    assert app.card.box.visible
    html = app.card.box.html_text
    assert unit.name in html and "side B" in html
    status = app.system.unit_status(app.play.session.state, unit)
    assert len(status.values) >= 5 and status.weapons
    for value in status.values:
        assert f"{value.label}: <b>{value.text}</b>" in html
    for weapon in unit.stats["weapons"]:
        assert f"<b>{weapon['name']}</b>" in html
    assert "Hull: <b>8/8</b>" in html
    move(app, screen(app, 2, 46))
    assert app.view.hovered is None and not app.card.box.visible


def test_the_card_is_as_tall_as_its_lines_and_stays_in_the_window(app):
    heights = {}
    for unit in app.state.units:
        move(app, screen(app, unit.x, unit.y))
        if app.view.hovered != unit.id:
            continue  # another base lies over this one's centre
        lines = app.card.box.html_text.count("<br>") + 1
        heights.setdefault(lines, set()).add(app.card.box.rect.height)
        assert app.card.box.rect.bottom <= app.size[1] and app.card.box.rect.top >= 0
    # the lines decide the height (a long line may wrap, so the same count may differ a little)
    fewest, most = min(heights), max(heights)
    assert most > fewest and min(heights[most]) > max(heights[fewest])


def test_hover_second_unit_numbers_equal_table_geometry_pair(app):
    """The panel's numbers are TableGeometry.pair's: what `tactical check` prints."""
    ruler, target = app.state.unit("ruler"), app.state.unit("markgraf")
    click(app, screen(app, ruler.x, ruler.y))
    move(app, screen(app, target.x, target.y))
    expected = TableGeometry.of(app.state).pair("ruler", "markgraf")
    assert app.hover.pair_report == expected
    html = app.pair_panel.box.html_text
    assert app.pair_panel.box.visible
    assert f"{expected.centre_distance:.2f}" in html
    assert f"{expected.edge_distance:.2f}" in html
    assert f"{expected.distance:.2f}" in html
    # the LOS line between the centres is drawn green (clear) or red (blocked)
    frame = app.frame()
    probe = screen(app, ruler.x + (target.x - ruler.x) * 0.3, ruler.y + (target.y - ruler.y) * 0.3)
    wanted = (60, 210, 90) if expected.los else (230, 60, 60)
    near = [(probe[0] + dx, probe[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
    assert wanted in {tuple(frame.get_at(p))[:3] for p in near}


# ---------------------------------------------------------------------- measure


def test_measure_two_clicks_snap_to_centres_and_read_to_a_hundredth(app):
    key(app, pygame.K_m)
    assert app.view.tool == "measure"
    a, b = app.state.unit("ruler"), app.state.unit("markgraf")
    start = screen(app, a.x, a.y)
    end = screen(app, b.x, b.y)
    click(app, (start[0] + 3, start[1] - 2))
    click(app, (end[0] - 2, end[1] + 3))
    ruler = app.view.ruler
    assert ruler is not None and ruler.done
    assert ruler.start == (a.x, a.y) and ruler.end == (b.x, b.y)
    exact = math.hypot(b.x - a.x, b.y - a.y)
    assert f"{ruler.length:.2f}" == f"{exact:.2f}"
    assert f'{exact:.2f}"' in app.view.status
    key(app, pygame.K_ESCAPE)
    assert app.view.ruler is None


def test_measure_drag_between_free_points(app):
    key(app, pygame.K_m)
    start, end = screen(app, 4, 30), screen(app, 20, 18)
    drag(app, start, end)
    ruler = app.view.ruler
    a, b = app.world(start), app.world(end)
    assert ruler.done
    assert round(ruler.length, 2) == round(math.dist(a, b), 2)


def test_measure_snaps_to_a_base_edge(app):
    key(app, pygame.K_m)
    unit = app.state.unit("markgraf")  # heading 180: its long sides run along y
    edge_x = max(x for x, _ in unit.footprint.exterior.coords)
    near = screen(app, edge_x + app.view.camera.inches(3), unit.y)
    click(app, near)
    start = app.view.ruler.start
    assert start[0] == pytest.approx(edge_x, abs=1e-6)
    assert start[1] == pytest.approx(unit.y, abs=app.view.camera.inches(1))


# ---------------------------------------------------------------------- camera


def test_right_drag_pans_by_the_drag(app):
    before = app.view.camera
    drag(app, (600, 400), (680, 350), button=3)
    after = app.view.camera
    assert after.scale == before.scale
    assert after.origin == (before.origin[0] + 80, before.origin[1] - 50)


def test_table_follows_the_drag_while_panning(app):
    """Mid-drag the picture slides with the cursor; after release it is drawn afresh."""
    probe = screen(app, 30, 20)
    before = tuple(app.frame().get_at(probe))
    move(app, (600, 400))
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(600, 400), button=3))
    move(app, (640, 430), buttons=(0, 0, 1))
    assert tuple(app.frame().get_at((probe[0] + 40, probe[1] + 30))) == before
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(640, 430), button=3))
    assert screen(app, 30, 20) == (probe[0] + 40, probe[1] + 30)
    assert tuple(app.frame().get_at((probe[0] + 40, probe[1] + 30))) == before


def test_middle_drag_and_arrow_keys_pan(app):
    before = app.view.camera
    drag(app, (600, 400), (610, 400), button=2)
    key(app, pygame.K_LEFT)
    after = app.view.camera
    assert after.origin[0] == pytest.approx(before.origin[0] + 10 + 60)


def test_wheel_zooms_about_the_cursor(app):
    cursor = (400, 300)
    move(app, cursor)
    under = app.world(cursor)
    scale = app.view.camera.scale
    wheel(app, 2)
    assert app.view.camera.scale == pytest.approx(scale * 1.15**2)
    assert app.world(cursor) == pytest.approx(under)
    wheel(app, -3)
    assert app.world(cursor) == pytest.approx(under)


def test_fit_key_brings_the_whole_table_back(app):
    fitted = app.view.camera
    wheel(app, 5)
    drag(app, (600, 400), (100, 100), button=3)
    assert app.view.camera != fitted
    key(app, pygame.K_f)
    assert app.view.camera == fitted


def test_resize_refits_a_whole_table_and_keeps_a_zoomed_centre(app):
    """The window refits the table when resized; a view the player zoomed keeps
    its centre and scale."""
    assert app.view.camera == app.fitted_camera()
    app.handle(pygame.event.Event(pygame.VIDEORESIZE, w=1600, h=900, size=(1600, 900)))
    assert app.size == (1600, 900)
    assert app.frame().get_size() == (1600, 900)
    assert app.view.camera == app.fitted_camera()
    wheel(app, 2)
    scale = app.view.camera.scale
    centre = app.world((800, 450))
    app.handle(pygame.event.Event(pygame.VIDEORESIZE, w=1200, h=700, size=(1200, 700)))
    assert app.view.camera.scale == scale
    assert app.world((600, 350)) == pytest.approx(centre)


# ---------------------------------------------------------------------- setup


def test_terrain_roll_equals_the_session_procedure_and_shows_the_rolls(app):
    """R002.9 on screen: seed N gives session.terrain_setup's pieces with seed N."""
    key(app, pygame.K_TAB)
    assert app.view.mode == "setup"
    expected = seeded_setup(app.state.board, 5, keep_clear=[u.footprint for u in app.state.units])
    area = app.state.board.areas[0]
    label_at = screen(app, (area.x0 + area.x1) / 2, (area.y0 + area.y1) / 2)
    before = app.frame().copy()
    app.setup.roll_terrain(5)
    assert app.state.terrain == expected.terrain
    assert app.view.area_rolls[0][0] == area.name
    rolls = expected.areas[0].rolls
    assert app.view.area_rolls[0][1] == " / ".join(f"{s} {r}" for s, r in rolls.items())
    after = app.frame()
    region = [
        (label_at[0] + dx, label_at[1] + 16 + dy) for dx in range(-20, 21) for dy in (-3, 0, 3)
    ]
    assert any(before.get_at(p) != after.get_at(p) for p in region)


def test_roll_and_new_seed_buttons(app):
    """The scenario's terrain is replaced only after asking; New seed draws a fresh random
    seed and shows it; no piece lies under a unit (R002.9: the placing side picks the spot)."""
    key(app, pygame.K_TAB)
    scenario = app.state.terrain
    footprints = [u.footprint for u in app.state.units]
    app.setup.seed_entry.set_text("7")
    press_button(app, app.setup.roll_button)
    assert app.state.terrain == scenario and app.setup.confirm is not None
    app.handle(
        pygame.event.Event(
            pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED, ui_element=app.setup.confirm
        )
    )
    assert app.state.terrain == seeded_setup(app.state.board, 7, keep_clear=footprints).terrain
    seeds = set()
    for _ in range(3):
        press_button(app, app.setup.reroll_button)  # no question: the terrain is a roll
        seeds.add(app.setup.seed)
        assert app.setup.seed_entry.get_text() == str(app.setup.seed)
        assert f"seed {app.setup.seed}" in app.view.status
        expected = seeded_setup(app.state.board, app.setup.seed, keep_clear=footprints)
        assert app.state.terrain == expected.terrain
        assert not any(p.geometry.intersects(f) for p in app.state.terrain for f in footprints)
    assert 7 not in seeds and len(seeds) == 3


def test_deployment_roll_off_zones_and_drag_to_place(app):
    """R002.16 roll-off, R002.17 zones: outside is refused with the reason and stays."""
    key(app, pygame.K_TAB)
    app.setup.choose_edge("bottom")
    assert app.setup.deployment is None and "R002.16" in app.view.status
    app.setup.do_roll_off()
    rolloff = app.setup.rolloff
    last = rolloff.rounds[-1].totals
    assert last[rolloff.winner] == max(last.values())
    assert rolloff.winner in app.setup.rolloff_label.html_text
    app.setup.choose_edge("bottom")
    zone = app.setup.deployment.zone(rolloff.winner)
    assert zone.edge == "bottom"
    mover = next(u for u in app.state.units if u.side == rolloff.winner and u.id != "eagle")
    start = screen(app, mover.x, mover.y)
    drag(app, start, screen(app, mover.x, 30))
    assert app.state.unit(mover.id).pose == mover.pose
    assert "R002.17" in app.view.status
    target_y = zone.y0 + 4 if zone.edge == "bottom" else mover.y
    drag(app, start, screen(app, mover.x - 3, target_y))
    placed = app.state.unit(mover.id)
    assert placed.pose != mover.pose
    assert is_deployed_in(placed, zone)


def test_companion_drag_rotate_and_typed_pose(app):
    key(app, pygame.K_TAB)
    unit = app.state.unit("markgraf")
    drag(app, screen(app, unit.x, unit.y), screen(app, unit.x - 10, unit.y - 5))
    moved = app.state.unit("markgraf")
    assert moved.x == pytest.approx(unit.x - 10, abs=app.view.camera.inches(1))
    assert moved.y == pytest.approx(unit.y - 5, abs=app.view.camera.inches(1))
    assert app.view.selected == "markgraf"
    key(app, pygame.K_e)
    assert app.state.unit("markgraf").heading == pytest.approx(185)
    key(app, pygame.K_q, mod=pygame.KMOD_SHIFT)
    assert app.state.unit("markgraf").heading == pytest.approx(184)
    move(app, screen(app, moved.x, moved.y))
    wheel(app, -1)
    assert app.state.unit("markgraf").heading == pytest.approx(179)
    for name, value in (("x", "30.5"), ("y", "20.25"), ("heading", "370")):
        app.setup.pose_entries[name].set_text(value)
    app.setup.pose_entries["heading"].focus()
    key(app, pygame.K_RETURN)
    app.pump()
    assert app.state.unit("markgraf").pose == Pose(30.5, 20.25, 10)


def test_companion_refuses_off_table(app):
    key(app, pygame.K_TAB)
    app.select("ruler")
    for name, value in (("x", "-5"), ("y", "10"), ("heading", "0")):
        app.setup.pose_entries[name].set_text(value)
    app.setup.apply_pose_entries()
    assert app.state.unit("ruler").x == 24.0
    assert "off the table" in app.view.status


def test_drag_terrain_piece_moves_it_and_refuses_overlap(app):
    key(app, pygame.K_TAB)
    piece = app.state.terrain[0]
    centroid = piece.geometry.representative_point()
    offset = (0.0, -1.0)
    start = screen(app, centroid.x, centroid.y)
    end = (start[0], start[1] + round(app.view.camera.pixels(1.0)))
    before = app.state.terrain
    drag(app, start, end)
    moved = app.state.terrain_piece(piece.id)
    if moved == piece:
        assert "refused" in app.view.status
    else:
        shift = app.world(end)[1] - app.world(start)[1]
        assert moved.geometry.centroid.y == pytest.approx(piece.geometry.centroid.y + shift)
        assert shift == pytest.approx(offset[1], abs=0.1)
    other = before[1]
    assert not app.setup.placing.move_terrain(
        piece.id,
        (
            other.geometry.centroid.x - moved.geometry.centroid.x,
            other.geometry.centroid.y - moved.geometry.centroid.y,
        ),
    )
    assert "refused" in app.view.status


# ---------------------------------------------------------------------- files, help


def test_ctrl_s_in_setup_saves_a_map_that_loads_back_equal(app, tmp_path):
    target = tmp_path / "table.toml"
    app.path = target
    key(app, pygame.K_TAB)
    assert app.view.mode == "setup"
    app.setup.roll_terrain(3)
    key(app, pygame.K_s, mod=pygame.KMOD_CTRL)
    assert target.is_file()
    assert load_map(target) == app.state
    assert str(target) in app.view.status


def test_ctrl_shift_s_in_play_saves_the_table_the_game_started_from(default_state, tmp_path):
    """The map is the table as set up: a turn's moves change the game, not the map."""
    played = tmp_path / "turn.json"
    save_game(autoplay.play_turns(Game.new(default_state, 11), 1), played)
    app = App(default_state, (1280, 800), headless=True, session=Session.open(played))
    assert app.state.units != default_state.units  # the turn moved ships
    target = tmp_path / "table.toml"
    app.path = target
    key(app, pygame.K_s, mod=pygame.KMOD_CTRL | pygame.KMOD_SHIFT)
    assert load_map(target) == app.map_state == default_state
    assert str(target) in app.view.status


def test_ctrl_s_in_play_saves_the_game_that_loads_back_at_its_step(app, tmp_path):
    target = tmp_path / "game.json"
    app.play.game_path = target
    first_step(app)
    key(app, pygame.K_s, mod=pygame.KMOD_CTRL)
    history = load_game(target)
    assert history.cursor == 1 and history.game.state == app.state
    assert history.games[0].initial == app.map_state
    assert str(target) in app.view.status
    assert not (tmp_path / "table.toml").exists()


def test_save_button_saves_the_game_in_play_and_the_map_in_setup(app):
    press_button(app, app.top.buttons["save"])
    assert app.files.dialog is not None and app.files.dialog[0] == "save-game"
    app.files.dialog[1].kill()
    app.files.dialog = None
    key(app, pygame.K_TAB)
    press_button(app, app.top.buttons["save"])
    assert app.files.dialog is not None and app.files.dialog[0] == "save-map-as"


def test_ctrl_s_without_a_path_asks_and_ctrl_o_opens_a_dialog(app):
    key(app, pygame.K_s, mod=pygame.KMOD_CTRL)
    assert app.files.dialog is not None and app.files.dialog[0] == "save-game"
    app.files.dialog[1].kill()
    app.files.dialog = None
    key(app, pygame.K_s, mod=pygame.KMOD_CTRL | pygame.KMOD_SHIFT)
    assert app.files.dialog is not None and app.files.dialog[0] == "save-map-as"
    app.files.dialog[1].kill()
    app.files.dialog = None
    key(app, pygame.K_o, mod=pygame.KMOD_CTRL)
    assert app.files.dialog is not None and app.files.dialog[0] == "open"


def test_open_bad_map_shows_the_message_and_keeps_the_table(app, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('rules = "dystopian-wars"\n[board]\nwidth = "wide"\n')
    state = app.state
    assert not app.files.open_map(bad)
    assert app.state is state
    assert app.files.message is not None and app.files.message.alive()
    assert "bad.toml" in app.view.status
    app.frame()


def test_file_dialog_pick_opens_the_map(app):
    """Ctrl+O, then the dialog's pick event: the picked map replaces the table."""
    key(app, pygame.K_o, mod=pygame.KMOD_CTRL)
    _, dialog = app.files.dialog
    path = default_map_path().parent / "dense.toml"
    app.handle(
        pygame.event.Event(pygame_gui.UI_FILE_DIALOG_PATH_PICKED, ui_element=dialog, text=str(path))
    )
    assert app.files.dialog is None
    assert app.path == path
    assert_new_game_on(app, load_map(path))


def test_closing_the_file_dialog_gives_the_keys_back(app):
    """Ctrl+O, then the dialog's close: nothing opened, and the table's keys work again."""
    key(app, pygame.K_o, mod=pygame.KMOD_CTRL)
    _, dialog = app.files.dialog
    state = app.state
    other = pygame.event.Event(pygame_gui.UI_WINDOW_CLOSE, ui_element=app.top.panel)
    app.handle(other)  # another window's closing: the dialog stays
    assert app.files.dialog is not None
    key(app, pygame.K_m)  # typed into the dialog, not a shortcut
    assert app.view.tool != "measure"
    app.handle(pygame.event.Event(pygame_gui.UI_WINDOW_CLOSE, ui_element=dialog))
    assert app.files.dialog is None and app.state is state
    key(app, pygame.K_m)
    assert app.view.tool == "measure"


def assert_new_game_on(app, table):
    """A new game at step 0 on `table`: the game's state is the table plus the rule state
    the rule system's setup keeps."""
    session = app.play.session
    assert app.map_state == table and session.game.initial == table
    assert session.step_number == 0 and app.state == session.state
    assert replace(app.state, rule_state=FrozenMap()) == table


def test_save_and_png_dialogs_write_the_picked_paths(app, tmp_path):
    """Ctrl+S (the game), Ctrl+Shift+S (a new map) and Shift+F12 ask for a file; the pick
    is written."""
    picked = pygame_gui.UI_FILE_DIALOG_PATH_PICKED
    key(app, pygame.K_s, mod=pygame.KMOD_CTRL)
    purpose, dialog = app.files.dialog
    assert purpose == "save-game"
    game = tmp_path / "picked.json"
    app.handle(pygame.event.Event(picked, ui_element=dialog, text=str(game)))
    assert app.files.dialog is None and app.play.game_path == game
    assert read_save(game).initial == app.map_state and read_save(game).actions == ()
    key(app, pygame.K_s, mod=pygame.KMOD_CTRL | pygame.KMOD_SHIFT)
    purpose, dialog = app.files.dialog
    assert purpose == "save-map-as"
    target = tmp_path / "picked.toml"
    app.handle(pygame.event.Event(picked, ui_element=dialog, text=str(target)))
    assert load_map(target) == app.map_state and app.path == target
    key(app, pygame.K_F12, mod=pygame.KMOD_SHIFT)
    purpose, dialog = app.files.dialog
    assert purpose == "png"
    app.handle(pygame.event.Event(picked, ui_element=dialog, text=str(tmp_path / "view")))
    assert pygame.image.load(str(tmp_path / "view.png")).get_size() == app.size


def test_open_good_map_replaces_the_table(app):
    path = default_map_path().parent / "dense.toml"
    assert first_step(app) is not None
    assert app.files.open_map(path)
    assert app.path == path
    assert_new_game_on(app, load_map(path))
    assert app.view.mode == "play" and app.play.session.game.seed == app.game_seed


def test_open_a_saved_game_resumes_it_at_its_step(app, tmp_path):
    target = tmp_path / "game.json"
    first_step(app)
    assert app.play.save_game(target)
    state = app.state
    assert app.files.open_map(default_map_path().parent / "dense.toml")
    assert app.play.session.step_number == 0
    assert app.files.open_file(target)
    assert app.play.session.step_number == 1 and app.state == state
    assert app.map_state == load_map(default_map_path())


def test_f1_shows_the_help_listing_every_control(app):
    key(app, pygame.K_F1)
    assert app.view.help_visible and app.help.box.visible
    for control in ("Ctrl+O", "F12", "Q / E", "Wheel", "M"):
        assert control in app.help.box.html_text
    key(app, pygame.K_F1)
    assert not app.help.box.visible


def test_the_help_is_centred_over_the_table_and_scrolls_to_its_last_control(app):
    """The F1 help fits the window, centred over the table (left of the panels),
    and scrolls: a drawn scroll bar, and the last control in view once scrolled down."""
    key(app, pygame.K_F1)
    app.step()
    panel, box = app.help.panel, app.help.box
    rect = panel.get_abs_rect()
    table = app.table_area()
    assert pygame.Rect((0, 0), app.size).contains(rect)
    assert abs(rect.centerx - table.centerx) <= 1 and rect.right <= table.right
    bar = box.scroll_bar
    assert bar is not None and bar.visible and rect.contains(bar.get_abs_rect())
    picture = app.frame()
    bar_rect = bar.get_abs_rect()
    # the bar is drawn over the text box: its colours differ from the box's background
    colours = {
        tuple(picture.get_at((bar_rect.centerx, y)))[:3]
        for y in range(bar_rect.top, bar_rect.bottom, 4)
    }
    assert len(colours) > 1
    bar.set_scroll_from_start_percentage(1.0)
    app.step()
    assert box.text_box_layout.layout_rect.height > box.rect.height  # it needs the bar
    key(app, pygame.K_F1)


def test_f12_writes_the_view_as_png(app, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    key(app, pygame.K_F12)
    written = tmp_path / "tactical-view-1.png"
    assert written.is_file()
    picture = pygame.image.load(str(written))
    assert picture.get_size() == (1280, 800)
    assert str(written) in app.view.status


def test_mode_button_click_switches_mode(app):
    """Play -> setup -> play; a table left unchanged keeps its game."""
    assert app.view.mode == "play" and app.play.actions.panel.visible
    session = app.play.session
    press_button(app, app.top.buttons["mode"])
    assert app.view.mode == "setup" and app.setup.panel.visible
    assert not app.play.actions.panel.visible
    press_button(app, app.top.buttons["mode"])
    assert app.view.mode == "play" and not app.setup.panel.visible
    assert app.play.actions.panel.visible and app.play.session is session


def test_setup_is_refused_once_the_game_has_a_step(app):
    first_step(app)
    key(app, pygame.K_TAB)
    assert app.view.mode == "play" and not app.setup.panel.visible
    assert "setup is over" in app.view.status


def test_leaving_setup_with_a_changed_table_starts_a_new_game_on_it(app):
    key(app, pygame.K_TAB)
    app.setup.roll_terrain(4)
    table = app.state
    key(app, pygame.K_TAB)
    assert app.view.mode == "play"
    assert_new_game_on(app, table)


def test_play_command_runs_the_window_until_quit(monkeypatch, tmp_path):
    from tactical.cli import main

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    calls = []

    def events():
        calls.append(1)
        return [pygame.event.Event(pygame.QUIT)]

    monkeypatch.setattr(pygame.event, "get", events)
    assert main(["play", str(default_map_path()), "--size", "800x600"]) == 0
    assert calls
    [file] = (tmp_path / "tactical" / "autosave").glob("*.json")  # the game's own, by its id
    autosave = read_save(file)
    assert autosave.initial == load_map(default_map_path()) and autosave.actions == ()


def test_play_command_bad_map_is_one_line(capsys, tmp_path):
    from tactical.cli import main

    assert main(["play", str(tmp_path / "missing.toml")]) == 2
    assert "not found" in capsys.readouterr().err


def test_tactical_alone_opens_the_play_screen(monkeypatch, tmp_path):
    """`tactical` with no arguments runs `tactical play` on the default map, a new game
    autosaved under $XDG_STATE_HOME."""
    from tactical.cli import main
    from tactical.ui import app as app_module

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    opened = []
    monkeypatch.setattr(app_module.App, "run", lambda self: opened.append(self) or 0)
    assert main([]) == 0
    [app] = opened
    assert app.view.mode == "play"
    assert_new_game_on(app, load_map(default_map_path()))
    autosave = read_save(app.play.session.autosave.path)
    assert app.play.session.autosave.path.parent == tmp_path / "tactical" / "autosave"
    assert autosave.initial == app.map_state and autosave.seed == app.play.session.game.seed


def test_play_command_seed_and_autosave_file(monkeypatch, tmp_path):
    from tactical.cli import main
    from tactical.ui import app as app_module

    opened = []
    monkeypatch.setattr(app_module.App, "run", lambda self: opened.append(self) or 0)
    target = tmp_path / "mine.json"
    assert main(["play", "--seed", "42", "--autosave", str(target)]) == 0
    assert opened[0].play.session.game.seed == 42
    assert read_save(target).seed == 42 and read_save(target).actions == ()


def test_play_without_a_display_is_one_line(monkeypatch, capsys, tmp_path):
    from tactical.cli import main

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    from tactical.ui import app as app_module

    def no_window(*args, **kwargs):
        raise pygame.error("No available video device")

    monkeypatch.setattr(app_module.App, "__init__", no_window)
    assert main(["play"]) == 2
    err = capsys.readouterr().err
    assert "cannot open a window" in err and err.count("\n") == 1


def test_next_says_why_a_pass_is_refused_now(app):
    """The default map (Dystopian Wars) opens on the Field Order roll, which a fleet must
    make before it may pass (R002.20): Next's tool tip says so; once rolled, it does not."""
    tip = app.play.tracker.next_button.tool_tip_text
    assert tip.startswith("N: end this side's go (pass). Not now: ")
    assert "Field Order" in tip and tip.endswith("(R002.20)")
    press_button(app, app.play.tracker.next_button)  # a click says it too, and passes not
    assert app.play.session.game.step_number == 0
    assert "cannot pass now" in app.view.status
    first_step(app)
    refusal = app.play.session.game.pass_refusal()
    tip = app.play.tracker.next_button.tool_tip_text
    assert (refusal is None) == (tip == "N: end this side's go (pass)")
