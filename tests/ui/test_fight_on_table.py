"""The table as a player reads it during a fight: every text on it apart (the 200-unit
map), each name drawn once (the threat map on), the unit declaring an attack highlighted,
the last attack drawn as an arrow with its result in words, destroyed units fading out,
the threat map of either side, and no panel left over from a unit or a move gone."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pygame
import pytest
from ui_events import key, move, screen

from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.session import autoplay
from tactical.session.controller import Session
from tactical.session.game import Game
from tactical.session.saving import save_game
from tactical.ui import fight_layer, palette
from tactical.ui.app import App
from tactical.ui.fight_layer import ARROW, FADE_SECONDS, last_attack
from tactical.ui.view import Ruler

SIZE = (1280, 800)


def _texts(app) -> list[tuple[str, pygame.Rect]]:
    """Every text the table shows, on screen: units' names, terrain's, range bands', the
    marks."""
    found = [
        (f"name {text}", rect)
        for _, rect, _, text in app.renderer.drawn_labels(
            app.state, app.view.camera, app.screen.get_size(), app.view.selected
        )
    ]
    boxes = app.renderer.label_boxes()
    found += [("terrain, band or marks", rect) for rect in boxes[len(found) :]]
    return found


def _overlaps(texts, area: pygame.Rect) -> list[tuple[str, str]]:
    shown = [(what, rect) for what, rect in texts if area.colliderect(rect)]
    return [
        (a, b)
        for k, (a, rect) in enumerate(shown)
        for b, other in shown[k + 1 :]
        if rect.colliderect(other)
    ]


@pytest.fixture
def stress():
    return App(load_map(builtin_map("stress-200")), SIZE, headless=True)


@pytest.mark.parametrize("zoom", [1.0, 1.6, 2.5, 4.0])
def test_no_text_on_the_200_unit_table_covers_another(stress, zoom):
    """The units', terrain's and range bands' names and the marks, fitted and zoomed in,
    with a unit selected or none: not one pixel of one over another; the names that find
    no room are left out, not piled (fewer drawn than units on screen)."""
    app = stress
    fitted = app.fitted_camera()
    for selected in (None, app.state.units[17].id):
        app.view = replace(app.view, camera=fitted.zoomed(zoom, (500, 400)))
        app.select(selected)
        app.frame()
        texts = _texts(app)
        names = [what for what, _ in texts if what.startswith("name ")]
        assert len(names) > 30
        assert _overlaps(texts, app.table_area()) == []
        assert len(names) == len(set(names))  # each unit's name once


def test_the_ruler_reading_keeps_off_the_names(stress):
    """The ruler's reading goes where no name is: drawn across a crowded table, the
    reading's pixels (its colour) stand clear of every name's box."""
    app = stress
    app.view = replace(app.view, camera=app.fitted_camera().zoomed(1.6, (500, 400)))
    app.select(None)
    app.frame()
    texts = [rect for _, rect in _texts(app)]
    for start, end in (((20, 20), (40, 30)), ((50, 10), (70, 40)), ((10, 40), (30, 5))):
        app.view = replace(app.view, ruler=Ruler(start, end, done=True))
        surface = app.frame()
        from tactical.ui.table_view import RULER_COLOUR, _reading_place

        reading = app.renderer.fonts.render('00.00"', 16, RULER_COLOUR)
        place = _reading_place(
            reading.get_size(),
            app.view.camera.to_screen(*start),
            app.view.camera.to_screen(*end),
            app.table.label_boxes(),
            surface.get_rect(),
        )
        assert place.inflate(6, 2).collidelist(texts) == -1, (start, end)
    app.view = replace(app.view, ruler=None)


def _label_pixels_outside(app, surface) -> int:
    """Pixels of the names' colour outside every name's box: a name drawn a second time
    somewhere else."""
    pixels = pygame.surfarray.pixels3d(surface)
    mask = np.all(pixels == np.array(palette.LABEL), axis=2)
    del pixels
    for _, rect, _, _ in app.renderer.drawn_labels(
        app.state, app.view.camera, surface.get_size(), app.view.selected
    ):
        box = rect.inflate(2, 2).clip(surface.get_rect())
        mask[box.left : box.right, box.top : box.bottom] = False
    return int(mask.sum())


@pytest.mark.parametrize("rules", ["dystopian-wars", "heavy-combat"])
def test_the_threat_map_draws_each_name_once_where_it_stands(rules):
    """With the threat map on, the units are drawn again over its heat: their names are
    the same names in the same places, not a second layout beside the first (two ships'
    names read twice)."""
    app = App(load_map(builtin_map(rules)), SIZE, headless=True)
    app.frame()
    assert _label_pixels_outside(app, app.frame()) == 0
    key(app, pygame.K_t)
    assert app.play.overlays.threat_mode == "weapons"
    surface = app.frame()
    assert _label_pixels_outside(app, surface) == 0


def test_the_threat_map_shows_either_side():
    """T shows the danger to the side to act; Shift+T to the other side, said in plain
    words (the legend, the status line), and the map changes with it."""
    app = App(load_map(builtin_map("dystopian-wars")), SIZE, headless=True)
    first = app.play.session.side_to_act
    other = next(side for side in app.state.sides if side != first)
    key(app, pygame.K_t)
    legend = [e.label for e in app.play.overlays.legend(app.state, None, first)]
    assert any(label.startswith(f"threat to {first}:") for label in legend), legend
    assert f"Shift+T: {other}'s" in app.view.status
    mine = app.play.overlays.threat(app.state, None, first)
    before = app.frame().copy()
    key(app, pygame.K_t, pygame.KMOD_SHIFT)
    assert app.play.overlays.threat_mode == "weapons"
    assert f"danger to {other}" in app.view.status
    legend = [e.label for e in app.play.overlays.legend(app.state, None, first)]
    assert any(label.startswith(f"threat to {other}:") for label in legend), legend
    theirs = app.play.overlays.threat(app.state, None, first)
    assert theirs.side == other and mine.side == first
    assert not np.array_equal(mine.count, theirs.count)
    after = app.frame()
    assert pygame.surfarray.array3d(before).tolist() != pygame.surfarray.array3d(after).tolist()
    key(app, pygame.K_t, pygame.KMOD_SHIFT)  # and back
    assert app.play.overlays.threat(app.state, None, first).side == first


def _game_at_an_attack(rules: str, seed: int = 3) -> Game:
    game = Game.new(load_map(builtin_map(rules)), seed)
    for _ in range(3000):
        game = autoplay.next_game(game)
        mark = last_attack(game)
        if mark is not None and mark.number == len(game.steps):
            return game
    raise AssertionError(f"no attack in {rules}")


def _arrow_pixels(surface, start, end) -> int:
    """Pixels of the arrow's colour along the line from `start` to `end` (its middle half)."""
    found = 0
    for k in range(25, 76):
        x = round(start[0] + (end[0] - start[0]) * k / 100)
        y = round(start[1] + (end[1] - start[1]) * k / 100)
        near = [surface.get_at((x + dx, y + dy))[:3] for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
        found += any(tuple(colour) == ARROW for colour in near)
    return found


def _app_at(game: Game, tmp_path) -> App:
    """The play screen over `game` as saved and opened again."""
    path = tmp_path / "attack.json"
    save_game(game, path)
    app = App(game.initial, SIZE, headless=True, session=Session.open(path))
    app.play.sync()
    return app


@pytest.mark.parametrize(
    ("rules", "words"),
    [
        ("dystopian-wars", "dice"),
        ("battlefleet-mars", "rolled"),
        ("cortex-space", "against"),
        ("sw-d6-capital", "against"),
    ],
)
def test_the_last_attack_is_an_arrow_with_its_result_in_words(rules, words, tmp_path, monkeypatch):
    """After an attack (whoever made it), an arrow runs from the firer to the target and
    its result, in the rule system's own words, is drawn on the table by it; once a unit
    acts again, both go."""
    app = _app_at(_game_at_an_attack(rules), tmp_path)
    game = app.play.session.game
    mark = last_attack(game)
    shot = mark.shots[0]
    step = game.steps[mark.number - 1]
    assert shot.lines and shot.lines[0] in step.words and words in " ".join(shot.lines)
    said: list[str] = []
    real = fight_layer.Fonts.render

    def spy(fonts, text, *args, **kwargs):
        said.append(text)
        return real(fonts, text, *args, **kwargs)

    monkeypatch.setattr(fight_layer.Fonts, "render", spy)
    surface = app.frame()
    monkeypatch.undo()
    fonts = app.renderer.fonts
    wanted = [text for line in shot.lines for text in fight_layer.wrapped(fonts, line)]
    wanted = wanted[: fight_layer.WRAPPED_LINES]
    assert set(wanted) <= set(said), (wanted, said)
    before = step.state_before
    firer, target = before.unit(shot.firer), before.unit(shot.target)
    start, end = screen(app, firer.x, firer.y), screen(app, target.x, target.y)
    assert _arrow_pixels(surface, start, end) > 30
    # a unit acting again takes it off the table
    later = game
    while last_attack(later) is not None and later.outcome is None:
        later = autoplay.next_game(later)
    if later.outcome is None:
        app = _app_at(later, tmp_path)
        assert last_attack(app.play.session.game) is None
        assert _arrow_pixels(app.frame(), start, end) == 0


def _outline_pixels(app, surface, unit_id: str) -> int:
    """Pixels of the selection's outline around a unit."""
    unit = app.state.unit(unit_id)
    x0, y0, x1, y1 = unit.footprint.bounds
    left, top = app.view.camera.to_screen(x0, y1)
    right, bottom = app.view.camera.to_screen(x1, y0)
    box = pygame.Rect(round(left), round(top), round(right - left), round(bottom - top))
    box = box.inflate(16, 16).clip(surface.get_rect())
    pixels = pygame.surfarray.pixels3d(surface)[box.left : box.right, box.top : box.bottom]
    found = int(np.all(pixels == np.array(palette.SELECTED_OUTLINE), axis=2).sum())
    del pixels
    return found


def test_the_unit_declaring_an_attack_is_the_one_highlighted(tmp_path):
    """Picking an attack highlights its attacker, with its arcs and range rings; those of
    the unit selected before are gone. Dropping the declaration brings the selection
    back."""
    game = Game.new(load_map(builtin_map("dystopian-wars")), 3)
    while not any(c.kind == "declare-attack" for c in game.choices()):
        game = autoplay.next_game(game)
    app = _app_at(game, tmp_path)
    choice = next(c for c in app.play.actions.choices if c.kind == "declare-attack")
    other = next(
        u.id
        for u in app.state.units
        if u.id != choice.actor and u.side == app.state.unit(choice.actor).side
    )
    app.select(other)
    surface = app.frame()
    before = {u: _outline_pixels(app, surface, u) for u in (other, choice.actor)}
    app.play.actions.pick(choice)
    app.play.panel_command("picked", None)
    assert app.play.pair_source() == choice.actor
    surface = app.frame()
    after = {u: _outline_pixels(app, surface, u) for u in (other, choice.actor)}
    assert after[choice.actor] > before[choice.actor] + 40, (before, after)
    assert after[other] < before[other] - 40, (before, after)
    view = app.renderer.selection(app.state, app.system, choice.actor)
    assert view.rings and app.renderer.ring_labels  # its range rings and their labels
    assert app.renderer._drawn[3] == choice.actor
    app.play.escape()
    surface = app.frame()
    assert abs(_outline_pixels(app, surface, other) - before[other]) < 10


def test_a_destroyed_unit_fades_out_over_a_second():
    """A unit taken off the table is drawn where it stood, fainter and fainter, and gone
    after FADE_SECONDS; frames keep coming meanwhile."""
    app = App(load_map(builtin_map("dystopian-wars")), SIZE, headless=True)
    now = [100.0]
    app.table.fades.clock = lambda: now[0]
    unit = max(app.state.units, key=lambda u: u.base.radius)
    centre = screen(app, unit.x, unit.y)
    full = app.frame().get_at(centre)[:3]
    app.set_state(replace(app.state, units=tuple(u for u in app.state.units if u.id != unit.id)))
    gone = app.table.fades  # the table without it, drawn once its second is over
    seen = []
    for elapsed in (0.0, 0.3, 0.6, 0.9, FADE_SECONDS + 0.05):
        now[0] = 100.0 + elapsed
        seen.append(tuple(app.frame().get_at(centre)[:3]))
        assert app.table.fades.active == (elapsed < FADE_SECONDS)
        assert app.animating() or elapsed >= FADE_SECONDS  # frames keep coming meanwhile
    assert seen[0] == tuple(full)
    distances = [math.dist(colour, seen[-1]) for colour in seen]
    assert distances[0] > distances[1] > distances[2] > distances[3] > 0
    assert distances[-1] == 0 and not gone.fading


def test_the_pair_panel_goes_with_its_unit():
    """The measurements between the selected and the hovered unit go when either unit
    leaves the table (deleted in adjust mode, undone), not when the pointer next moves."""
    app = App(load_map(builtin_map("dystopian-wars")), SIZE, headless=True)
    first, second = app.state.units[0], app.state.units[5]
    app.select(first.id)
    move(app, screen(app, second.x, second.y))
    app.frame()
    assert app.pair_panel.box.visible
    app.set_state(replace(app.state, units=tuple(u for u in app.state.units if u.id != first.id)))
    app.frame()
    assert not app.pair_panel.box.visible


def test_the_path_box_goes_after_a_move(tmp_path):
    """A move drawn and confirmed takes its declaration with it: the panel no longer asks
    to "draw the move on the table" for a move made (the unit may still move: its row is
    picked again to draw another)."""
    game = Game.new(load_map(builtin_map("battlefleet-mars")), 3)
    app = _app_at(game, tmp_path)
    choice = next(c for c in app.play.actions.choices if app.play.can_draw(c))
    app.play.actions.pick(choice)
    app.play.panel_command("picked", None)
    assert app.play.move_tool is not None
    key(app, pygame.K_w)
    key(app, pygame.K_RETURN)
    app.frame()
    assert app.play.session.step_number >= 1 and app.play.move_tool is None
    assert app.play.actions.picked is None
    assert "draw the move" not in app.play.actions.problem_box.html_text
