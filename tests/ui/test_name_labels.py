"""Issue h20a, part 1: the units' names on the table never overlap and hide no marks.

Each unit's name stands clear of every other name (a few pixels apart, so that two never
read as one), of every status token, and beside its own unit; a name that had to move
away from its base is tied to it by a leader line. Checked on units packed together and
on the play screen of every built-in system, at the start and after some play.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace

import pygame
import pytest
from ui_events import settle

from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.model import CircleBase, GameState, Pose, RectBase, Unit
from tactical.model.board import Board
from tactical.rules import registry
from tactical.rules.battlefleet_mars.logistics import resolve_launch
from tactical.session import autoplay
from tactical.session.controller import Session
from tactical.session.history import History
from tactical.ui import palette
from tactical.ui.app import App
from tactical.ui.camera import Camera
from tactical.ui.name_layout import LEADER_FROM, NameRequest, names_under, place_names
from tactical.ui.scene import SceneRenderer
from tactical.ui.units_layer import LABEL_HEIGHT, LABEL_MIN_EXTENT

SIZE = (900, 700)
NEAR = 60  # pixels: the farthest a name may stand from its unit's base


def _off_base(rect: pygame.Rect, centre: tuple[float, float], reach: float) -> float:
    """Pixels between `rect` and the circle of radius `reach` around `centre` (0 inside)."""
    x = min(max(centre[0], rect.left), rect.right)
    y = min(max(centre[1], rect.top), rect.bottom)
    return max(0.0, math.hypot(x - centre[0], y - centre[1]) - reach)


def _apart(labels, obstacles) -> None:
    """No two names' texts touch (a pixel between at least) and none covers `obstacles`."""
    for index, (unit_id, rect, *_) in enumerate(labels):
        for other_id, other, *_ in labels[index + 1 :]:
            assert not rect.inflate(2, 2).colliderect(other), (unit_id, rect, other_id, other)
        hit = rect.collidelist(obstacles)
        assert hit == -1, (unit_id, rect, obstacles[hit])


def _packed_squadron() -> GameState:
    """Eight frigates with long names 3.5" apart in two rows, a ship beside them."""
    units = [
        Unit(
            f"frigate-{row}{column}",
            f"Attacker Class Frigate {row}{column}",
            "A" if row == 0 else "B",
            Pose(10 + column * 3.5, 10 + row * 2.2, 0.0),
            CircleBase(0.5),
        )
        for row in range(2)
        for column in range(4)
    ]
    units.append(Unit("ship", "Ruler Class Battleship", "A", Pose(13, 15, 90.0), RectBase(1, 3)))
    return GameState(rules="none", board=Board(30, 30), units=tuple(units))


def test_names_of_packed_units_keep_apart_clear_of_tokens_and_near_their_units():
    """Nine units packed together, each with a status token above its base: every unit
    gets its name, none over another or over a token, each within NEAR pixels of its
    base, with a leader line past LEADER_FROM pixels."""
    state = _packed_squadron()
    camera = Camera(24.0, (-100.0, 650.0), SIZE)
    renderer = SceneRenderer()
    shapes = renderer.unit_shapes(state)
    tokens = {}  # on screen, and as the renderer takes them: from the camera's origin
    for unit, extent in zip(state.units, shapes.extents * camera.scale, strict=True):
        x, y = camera.to_screen(unit.x, unit.y)
        tokens[unit.id] = pygame.Rect(round(x) - 12, round(y - extent) - 13, 24, 7)
    local = {unit_id: rect.move(100, -650) for unit_id, rect in tokens.items()}
    target = pygame.Surface(SIZE)
    renderer.draw(target, state, camera, registry.get("battlefleet-mars"), tokens=local)
    labels = renderer.drawn_labels(state, camera, SIZE)
    assert sorted(unit_id for unit_id, *_ in labels) == sorted(u.id for u in state.units)
    _apart(labels, list(tokens.values()))
    for unit_id, rect, leader, _ in labels:
        unit = state.unit(unit_id)
        centre = camera.to_screen(unit.x, unit.y)
        reach = shapes.extents[shapes.index[unit_id]] * camera.scale
        off = _off_base(rect, centre, reach)
        assert off <= NEAR, (unit_id, off)
        if off > LEADER_FROM + 1 and not rect.inflate(14, 14).colliderect(tokens[unit_id]):
            assert leader is not None, unit_id
        # the name is drawn there: its letters' colour shows in its box
        patch = target.subsurface(rect.clip(target.get_rect()))
        assert any(
            sum(abs(a - b) for a, b in zip(patch.get_at((x, y))[:3], palette.LABEL, strict=True))
            < 60
            for x in range(patch.get_width())
            for y in range(patch.get_height())
        ), unit_id


def test_a_name_blocked_all_round_is_left_out_rather_than_drawn_over_another():
    """A unit whose every place is taken by tokens gets no name (its hover card names
    it): never a name over a token."""
    walls = [pygame.Rect(0, 0, 400, 400)]
    request = NameRequest("boxed", (("Boxed In", 50),), (200.0, 200.0), 5.0)
    assert place_names([request], LABEL_HEIGHT, keep_off=walls) == []
    free = place_names([request], LABEL_HEIGHT)
    assert [place.text for place in free] == ["Boxed In"]
    assert free[0].rect.top == 200 + 5 + 3 and free[0].leader is None  # under the base


@pytest.mark.parametrize(
    "rules_id",
    ["battlefleet-mars", "heavy-combat", "dystopian-wars", "cortex-space", "sw-d6-capital"],
)
def test_play_screen_names_keep_apart_in_every_system(rules_id):
    """The play screen at 1280x800, at the start and after a few steps of play: the names
    drawn cover no other name, no token and no mark, each stands near its unit and on
    the table, and every unit in view has its name."""
    game = Session.new(load_map(builtin_map(rules_id)), 3).game
    for steps in (0, 8):
        for _ in range(steps):
            game = autoplay.next_game(game)
        app = App(game.state, (1280, 800), headless=True, session=Session(History((game,), 0)))
        settle(app, 1)
        app.frame()
        camera, state = app.view.camera, app.state
        labels = app.table.renderer.drawn_labels(state, camera, (1280, 800), app.view.selected)
        board = app.table.tokens
        marks = [line.rect for block in board.marks for line in block.lines]
        _apart(labels, [*(t for t in board.drawn.values() if t.width), *marks])
        shapes = app.table.renderer.unit_shapes(state)
        named = {unit_id for unit_id, *_ in labels}
        in_view = []
        for unit in state.units:
            k = shapes.index[unit.id]
            reach = shapes.extents[k] * camera.scale
            x, y = camera.to_screen(unit.x, unit.y)
            if reach >= LABEL_MIN_EXTENT and 40 < x < 900 and 60 < y < 700:
                in_view.append(unit.id)
        # every one, even one wedged between touching neighbours (h21a)
        unnamed = [unit_id for unit_id in in_view if unit_id not in named]
        assert not unnamed, (rules_id, steps, unnamed)
        # on the table, clear of the inch numbers along its edges (h21a)
        table = pygame.Rect(camera.screen_rect(state.board.bounds))
        for unit_id, rect, *_ in labels:
            assert table.contains(rect), (rules_id, steps, unit_id, rect, table)
        for unit_id, rect, *_ in labels:
            unit = state.unit(unit_id)
            reach = shapes.extents[shapes.index[unit_id]] * camera.scale
            off = _off_base(rect, camera.to_screen(unit.x, unit.y), reach)
            token = board.drawn.get(unit_id)
            if token is not None and token.width:  # beside its token is beside its unit
                off = min(off, _off_base(rect, token.center, max(token.size) / 2))
            assert off <= NEAR, (rules_id, steps, unit_id, off)


# --------------------------------------------------------------------------- part 2


def test_units_sharing_a_name_read_numbered_on_the_table_the_panel_and_the_log():
    """Dystopian Wars after 58 steps (the cruisers have moved): the two Tribal Class
    Cruisers read "Tribal Class Cruiser 1" and "... 2" in their table labels, in the
    action list and in the log; no shared name is ever drawn bare; a unique name is."""
    state = load_map(builtin_map("dystopian-wars"))
    game = Session.new(state, 7).game
    for _ in range(58):
        game = autoplay.next_game(game)
    app = App(game.state, (1280, 800), headless=True, session=Session(History((game,), 0)))
    settle(app, 2)
    app.frame()
    shared = {u.name for u in state.units if sum(v.name == u.name for v in state.units) > 1}
    assert {"Tribal Class Cruiser", "Attacker Class Frigate"} <= shared
    bare = re.compile("|".join(re.escape(name) + r"(?! \d)" for name in shared))
    labels = app.table.renderer.drawn_labels(app.state, app.view.camera, (1280, 800))
    texts = {unit_id: text for unit_id, _, _, text in labels}
    assert texts["tribal-1"] == "Tribal Class Cruiser 1"
    assert texts["tribal-2"] == "Tribal Class Cruiser 2"
    assert texts["ruler"] == "Ruler Class Battleship"
    panel = app.play.actions.labels
    log = app.play.log.lines
    assert any("Tribal Class Cruiser 1 moves" in line for line in log), log
    for text in [*texts.values(), *panel, *log]:
        assert not bare.search(text), text


# --------------------------------------------------------------------------- h21a


def _fighter(number: int) -> NameRequest:
    """One of three touching 1" flyers at 12 pixels an inch (the Dystopian Wars map's
    Fighter Planes beside the Avenger), its token staggered a row above its left
    neighbour's."""
    x = 148.9 + 12.2 * number
    return NameRequest(
        f"fighter-{number}",
        ((f"Fighter Plane {number}", 90), (f"Fighter… {number}", 66)),
        (x, 114.4),
        8.6,
        pygame.Rect(round(x) - 18, 105 - 9 * number, 36, 7),
        pygame.Rect(round(x) - 6, 108, 14, 14),
    )


def test_the_middle_of_three_touching_units_gets_its_name():
    """Three touching flyers next to a carrier: the first and the last names took every
    place around the middle one (its leader line would cross them), which had no name
    at all. Laid out again with it first, every unit is named, names apart, each
    within NEAR pixels of its base."""
    carrier = NameRequest(
        "carrier",
        (("Avenger Class Carrier", 129),),
        (75.6, 151.1),
        29.0,
        pygame.Rect(58, 112, 36, 7),
        pygame.Rect(66, 123, 20, 57),
    )
    requests = [carrier, *(_fighter(number) for number in (1, 2, 3))]
    tokens = [request.token for request in requests]
    terrain = [pygame.Rect(135, 55, 62, 11), pygame.Rect(156, 67, 20, 11)]
    placed = place_names(
        requests,
        LABEL_HEIGHT,
        keep_off=tokens,
        avoid=[*(request.base for request in requests), *terrain],
        within=pygame.Rect(-560, -240, 880, 440),
    )
    assert [place.unit_id for place in placed] == ["carrier", "fighter-1", "fighter-2", "fighter-3"]
    labels = [(place.unit_id, place.rect) for place in placed]
    _apart(labels, tokens)
    for place, request in zip(placed, requests, strict=True):
        assert place.text == request.wordings[0][0]  # whole names, all of them
        assert _off_base(place.rect, request.centre, request.reach) <= NEAR, place


def test_a_boxed_in_name_goes_farther_out_tied_by_its_leader():
    """A unit walled in by tokens on every side but a corridor down, too narrow for its
    name, that opens six lines under its base: its name stands there, past the usual
    NAME_RINGS lines, with a leader line up the corridor to its base."""
    centre, reach = (200.0, 200.0), 6.0
    walls = [pygame.Rect(0, 0, 400, 190), pygame.Rect(0, 190, 195, 110)]
    walls.append(pygame.Rect(205, 190, 195, 110))
    request = NameRequest("boxed", (("Boxed In", 50),), centre, reach)
    placed = place_names([request], LABEL_HEIGHT, keep_off=walls)
    assert [place.text for place in placed] == ["Boxed In"]
    assert placed[0].rect.collidelist(walls) == -1 and placed[0].rect.top > 300
    assert placed[0].leader == ((200, placed[0].rect.top), (200, 206))
    assert place_names([request], LABEL_HEIGHT, keep_off=[pygame.Rect(0, 0, 400, 400)]) == []


def test_a_name_never_runs_off_the_table_onto_the_edge_numbers():
    """A unit on the table's bottom edge, whose every place on the table is taken: its name
    is left out rather than put under the edge, where the inch numbers are; with room on
    the table it stands there, inside."""
    table = pygame.Rect(0, 0, 400, 400)
    request = NameRequest("edge", (("Edge Runner", 70),), (200.0, 392.0), 6.0)
    walls = [
        pygame.Rect(0, 0, 400, 380),
        pygame.Rect(0, 385, 180, 15),
        pygame.Rect(220, 385, 180, 15),
    ]
    assert place_names([request], LABEL_HEIGHT, keep_off=walls, within=table) == []
    placed = place_names([request], LABEL_HEIGHT, keep_off=walls[:1], within=table)
    assert [place.text for place in placed] == ["Edge Runner"]
    assert table.contains(placed[0].rect)


def test_a_crowded_tables_names_stay_on_it_too():
    """The crowded layout (each name under its base or nowhere) leaves out a name that
    would hang under the table's edge, over its inch numbers."""
    table = pygame.Rect(0, 0, 400, 400)
    items = [(0, (("Inside", 40),), 100.0, 100.0, 5.0), (1, (("Edge", 30),), 200.0, 395.0, 5.0)]
    placed = names_under(items, LABEL_HEIGHT, within=table)
    assert [(index, text) for index, text, _, _ in placed] == [(0, "Inside")]
    assert len(names_under(items, LABEL_HEIGHT)) == 2


def test_groups_launched_onto_their_carrier_read_naturally_and_are_named():
    """Battlefleet Mars' map with two catapults named "Catapult" (so they read "Catapult
    1" and "Catapult 2"), the first launching a missile twice: both groups, stacked on
    it, get their whole names on the table (their leader lines start on the base they
    stand on), and no text drawn reads two numbers in a row ("... Catapult 1 2")."""
    state = load_map(builtin_map("battlefleet-mars"))
    catapult = replace(state.unit("mars-catapult"), name="Catapult")
    twin = replace(catapult, id="mars-catapult-b", pose=replace(catapult.pose, y=catapult.y - 6))
    state = replace(state, units=(*state.replace_unit(catapult).units, twin))
    for _ in range(2):
        state = resolve_launch(state, "mars-catapult", missiles=1).state
    app = App(state, (1280, 800), headless=True)
    settle(app, 1)
    app.frame()
    labels = app.table.renderer.drawn_labels(app.state, app.view.camera, (1280, 800))
    texts = {unit_id: text for unit_id, _, _, text in labels}
    assert texts["mars-catapult"] == "Catapult 1"
    assert texts["mars-catapult-missiles-1"] == "Missiles 1 from Catapult 1"
    assert texts["mars-catapult-missiles-2"] == "Missiles 2 from Catapult 1"
    assert not [text for text in texts.values() if re.search(r"\d \d", text)], texts
