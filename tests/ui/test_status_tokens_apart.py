"""Issue h20b, part 2: the status tokens of units standing close never run together.

Each unit's bar or pips stand over its own unit, centred on it; the tokens of a tight
squadron narrow to the room between the units (one row, each over its unit) or, where
that leaves no readable bar, stand staggered a row higher: never two tokens touching.
Checked on the layout alone (any tokens, hypothesis) and on the play screen of Dystopian
Wars (frigate squadrons, fighter planes) at the start, after some play and packed tighter.
"""

from __future__ import annotations

from dataclasses import replace

import pygame
from hypothesis import given, settings
from hypothesis import strategies as st
from ui_events import settle

from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.model import GameState, Pose
from tactical.session import autoplay
from tactical.session.controller import Session
from tactical.session.history import History
from tactical.ui.app import App
from tactical.ui.mark_layout import TOKEN_GAP, TOKEN_ROWS, place_tokens, token_room
from tactical.ui.status_tokens import BAR_EDGE, MIN_BAR_WIDTH

SIZE = (1280, 800)


def _apart(tokens: dict[str, pygame.Rect]) -> None:
    """No two tokens touch: TOKEN_GAP pixels between them at least."""
    rects = [(unit_id, rect) for unit_id, rect in tokens.items() if rect.width]
    gap_x, gap_y = TOKEN_GAP
    for index, (unit_id, rect) in enumerate(rects):
        for other_id, other in rects[index + 1 :]:
            grown = rect.inflate(2 * gap_x - 1, 2 * gap_y - 1)
            assert not grown.colliderect(other), (unit_id, rect, other_id, other)


packed = st.lists(
    st.tuples(st.integers(0, 120), st.integers(0, 40), st.sampled_from([(36, 7), (26, 6)])),
    min_size=1,
    max_size=14,
)


@settings(max_examples=80, deadline=None)
@given(packed)
def test_placed_tokens_never_touch_and_stay_over_their_units(spots):
    """Wherever the units stand, no two placed tokens touch, each keeps its middle over its
    unit and stands where it was or a whole number of rows (at most TOKEN_ROWS - 1) up;
    a token is left out only where every row is taken."""
    tokens = {f"u{i}": pygame.Rect(x, y, w, h) for i, (x, y, (w, h)) in enumerate(spots)}
    placed = place_tokens(tokens)
    _apart(placed)
    for unit_id, rect in placed.items():
        first = tokens[unit_id]
        assert rect.size == first.size and rect.centerx == first.centerx
        rows, rest = divmod(first.y - rect.y, first.height + TOKEN_GAP[1])
        assert rest == 0 and 0 <= rows < TOKEN_ROWS, (unit_id, first, rect)
    assert len(placed) >= min(len(tokens), TOKEN_ROWS)


def test_room_is_shared_between_neighbours_side_by_side():
    """Three bars 24 pixels apart may be 20 wide each: then they stand in one row."""
    tokens = {f"f{i}": pygame.Rect(0, 0, 36, 7).move(100 + 24 * i - 18, 50) for i in range(3)}
    room = token_room(tokens)
    assert room == {"f0": 20, "f1": 20, "f2": 20}
    narrowed = {k: pygame.Rect(r.centerx - 10, 50, room[k], 7) for k, r in tokens.items()}
    assert place_tokens(narrowed) == narrowed  # nothing to move
    assert token_room({"alone": pygame.Rect(0, 0, 36, 7)}) == {}


def _tight(state: GameState) -> GameState:
    """The Dystopian Wars table with side A's frigates 1.4" apart and its fighters 0.7"
    apart in the open (B1), and side B's frigates in a triangle."""
    moves = {
        "attacker-1": (24.0, 16.0),
        "attacker-2": (25.4, 16.0),
        "attacker-3": (26.8, 16.0),
        "fighter-1": (30.0, 8.0),
        "fighter-2": (30.7, 8.0),
        "fighter-3": (31.4, 8.0),
        "blucher-1": (36.0, 22.0),
        "blucher-2": (37.2, 22.5),
        "blucher-3": (36.6, 21.0),
    }
    for unit_id, (x, y) in moves.items():
        unit = state.unit(unit_id)
        state = state.replace_unit(unit.moved_to(Pose(x, y, unit.heading)))
    return state


def _check_screen(game) -> App:
    app = App(game.state, SIZE, headless=True, session=Session(History((game,), 0)))
    settle(app, 1)
    frame = app.frame()
    board, camera, state = app.table.tokens, app.view.camera, app.state
    drawn = dict(board.drawn)
    _apart(drawn)
    for unit_id, token in drawn.items():
        unit = state.unit(unit_id)
        x = camera.to_screen(unit.x, unit.y)[0]
        top = camera.to_screen(x, unit.footprint.bounds[3])[1]  # the base's top edge
        assert abs(token.centerx - x) <= 1, (unit_id, token, x)  # straight over its unit
        assert token.bottom <= top + 1, (unit_id, token, top)
        assert token.bottom >= top - 8 - TOKEN_ROWS * (token.height + 2), (unit_id, token, top)
        # the token is drawn there: its bar's edge shows in it
        patch = frame.subsurface(token.clip(frame.get_rect()))
        colours = {
            tuple(patch.get_at((i, j)))[:3]
            for i in range(patch.get_width())
            for j in range(patch.get_height())
        }
        assert BAR_EDGE in colours or len(colours) > 2, unit_id
    # names stay clear of every token
    labels = app.table.renderer.drawn_labels(state, camera, SIZE, app.view.selected)
    for unit_id, rect, *_ in labels:
        hit = rect.collidelist([t for t in drawn.values() if t.width])
        assert hit == -1, (unit_id, rect)
    return app


def test_dystopian_squadrons_tokens_stand_apart_on_the_play_screen():
    """At the start, after some play and packed tighter: no token touches another; the
    frigates' bars stand in one row narrowed, the fighters' too close for that staggered."""
    game = Session.new(load_map(builtin_map("dystopian-wars.toml")), 3).game
    app = _check_screen(game)
    drawn = app.table.tokens.drawn
    frigates = [drawn[f"attacker-{k}"] for k in (1, 2, 3)]
    assert len({t.y for t in frigates}) == 1  # one row
    assert all(MIN_BAR_WIDTH <= t.width - 2 < 34 for t in frigates)  # narrowed to fit
    fighters = [drawn[f"fighter-{k}"] for k in (1, 2, 3)]
    assert len({t.y for t in fighters}) == 3  # staggered: a row each
    every = {u.id for u in app.state.units}
    assert set(drawn) == every  # none left out on this table
    for _ in range(10):
        game = autoplay.next_game(game)
    _check_screen(game)
    app = _check_screen(replace(game, state=_tight(game.state)))
    drawn = app.table.tokens.drawn
    assert {f"attacker-{k}" for k in (1, 2, 3)} <= set(drawn)
