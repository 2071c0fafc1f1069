"""Issue h19a: the marks beside the units on the table ("activated", a critical's name).

A unit's marks stand one per line, none over another, none over another unit's token,
mark or name; a crowded unit writes fewer and counts the rest ("+2 more", "+3"), and its
hover card lists them all. Played in Dystopian Wars (several criticals on one model,
models close together) and in the Star Wars D6 system (three marks on a ship).
"""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ui_events import move, screen, settle, wheel

from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.session import autoplay
from tactical.session.controller import Session
from tactical.session.saving import save_game
from tactical.ui.app import App
from tactical.ui.hover_panels import card_html
from tactical.ui.mark_layout import MarkBlock, MarkRequest, place_marks, wordings
from tactical.ui.status_tokens import MARK

PITCH = 14


def _width(text: str) -> int:
    return 7 * len(text)


def _lines_apart(blocks: list[MarkBlock], obstacles: list[pygame.Rect]) -> None:
    """No line of any block covers another line (of its own block or another's) nor any
    of `obstacles`."""
    lines = [(block.unit_id, line.rect) for block in blocks for line in block.lines]
    for index, (unit_id, rect) in enumerate(lines):
        for other_id, other in lines[index + 1 :]:
            assert not rect.colliderect(other), (unit_id, rect, other_id, other)
        assert rect.collidelist(obstacles) == -1, (unit_id, rect)


def _written_or_counted(block: MarkBlock, marks: tuple[str, ...]) -> None:
    """The block writes its first marks in order and counts the rest, or writes them all."""
    texts = [line.text for line in block.lines]
    if block.counted == 0:
        assert tuple(texts) == marks
    else:
        written = len(marks) - block.counted
        assert tuple(texts[:written]) == marks[:written]
        assert texts[written:] in (
            [f"+{block.counted} more"],
            [f"{block.counted} mark{'s' if block.counted > 1 else ''}"],
            [f"+{block.counted}"],
        )


def test_one_units_marks_stack_one_per_line_beside_its_token():
    token = pygame.Rect(100, 100, 34, 7)
    marks = ("Hard Pounding", "Chaos and Disarray", "activated")
    (block,) = place_marks([MarkRequest("u", marks, token)], _width, PITCH)
    assert [line.text for line in block.lines] == list(marks)
    assert block.counted == 0
    _lines_apart([block], [token])
    # stacked: the same left edge, one line height apart, the last level with the token
    assert {line.rect.left for line in block.lines} == {token.right + 4}
    tops = [line.rect.top for line in block.lines]
    assert tops == [tops[0], tops[0] + PITCH, tops[0] + 2 * PITCH]
    assert block.lines[-1].rect.top <= token.centery < block.lines[-1].rect.bottom


def test_two_close_units_marks_keep_apart_and_clear_of_names():
    """Two tokens 40 px apart, three marks each: the second block goes elsewhere (or is
    cut to a count) rather than over the first; a name label in the way is kept clear."""
    left, right = pygame.Rect(100, 100, 34, 7), pygame.Rect(140, 100, 34, 7)
    name = pygame.Rect(60, 60, 200, 12)
    marks = ("Hard Pounding", "Chaos and Disarray", "Shredded Defences")
    blocks = place_marks(
        [MarkRequest("a", marks, left), MarkRequest("b", marks, right)],
        _width,
        PITCH,
        keep_off=[name],
    )
    assert [block.unit_id for block in blocks] == ["a", "b"]
    _lines_apart(blocks, [left, right, name])
    for block in blocks:
        _written_or_counted(block, marks)


def test_the_wordings_go_from_every_mark_to_a_count():
    assert wordings(("a", "b", "c")) == [
        (("a", "b", "c"), 0),
        (("a", "b", "+1 more"), 1),
        (("a", "+2 more"), 2),
        (("3 marks",), 3),
        (("+3",), 3),
    ]


tokens = st.tuples(st.integers(0, 300), st.integers(0, 200)).map(
    lambda xy: pygame.Rect(xy[0], xy[1], 34, 7)
)
mark_lists = st.lists(
    st.sampled_from(["activated", "broken", "Chaos and Disarray", "fired", "locked on"]),
    min_size=1,
    max_size=4,
).map(tuple)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(tokens, mark_lists), min_size=1, max_size=12))
def test_no_mark_ever_covers_another_or_a_token(units):
    """Wherever the tokens stand, no line of marks covers another line or a token, and a
    block writes its first marks and counts the rest."""
    requests = [MarkRequest(f"u{i}", marks, token) for i, (token, marks) in enumerate(units)]
    blocks = place_marks(requests, _width, PITCH, within=pygame.Rect(0, 0, 400, 260))
    _lines_apart(blocks, [])
    for block in blocks:
        own = next(r for r in requests if r.unit_id == block.unit_id)
        others = [r.token for r in requests if r.unit_id != block.unit_id]
        assert all(line.rect.collidelist([own.token, *others]) == -1 for line in block.lines)
        _written_or_counted(block, own.marks)


# --------------------------------------------------------------------------- on the screen


def _game_with_marks(
    rules_id: str, count: int, saved: Path, steps: int = 400
) -> tuple[Session, str]:
    """A game of the built-in map played by the stand-in until a unit has `count` marks."""
    game = Session.new(load_map(builtin_map(rules_id)), 1).game
    for _ in range(steps):
        game = autoplay.next_game(game)
        for unit in game.state.units:
            if len(game.system.unit_status(game.state, unit).marks) >= count:
                save_game(game, saved)
                return Session.open(saved), unit.id
    raise AssertionError(f"no unit of {rules_id} had {count} marks in {steps} steps")


def _check_screen(app: App) -> list[MarkBlock]:
    app.frame()
    board = app.table.tokens
    statuses = board.statuses(app.state, app.system)
    names = app.table.renderer.label_rects(app.state, app.view.camera, app.view.selected)
    blocks = board.marks
    assert blocks
    # each unit's lines apart from each other and from every other block, token and name
    _lines_apart(blocks, [*board.drawn.values(), *names])
    frame = app.frame()
    for block in blocks:
        _written_or_counted(block, statuses[block.unit_id].marks)
        for line in block.lines:  # the line is drawn there: the marks' colour shows in it
            picture = frame.subsurface(line.rect.clip(frame.get_rect()))
            colours = {
                tuple(picture.get_at((x, y)))[:3]
                for x in range(picture.get_width())
                for y in range(picture.get_height())
            }
            assert any(
                sum(abs(a - b) for a, b in zip(c, MARK, strict=True)) < 60 for c in colours
            ), line
    return blocks


@pytest.mark.parametrize(("rules_id", "count"), [("dystopian-wars", 3), ("sw-d6-capital", 3)])
def test_crowded_marks_on_the_play_screen_stay_readable(rules_id, count, tmp_path):
    session, crowded = _game_with_marks(rules_id, count, tmp_path / "game.json")
    app = App(session.state, (1280, 800), headless=True, session=session)
    settle(app, 1)
    blocks = _check_screen(app)
    marks = app.table.tokens.statuses(app.state, app.system)[crowded].marks
    assert crowded in {block.unit_id for block in blocks}
    # the hover card lists every mark, also those the table only counts
    card = card_html(
        app.state.unit(crowded), app.table.tokens.statuses(app.state, app.system)[crowded]
    )
    assert "Marks on the table: <b>" + " · ".join(marks) + "</b>" in card
    # zoomed in on the unit, there is room for every mark, one per line
    unit = app.state.unit(crowded)
    for _ in range(6):
        move(app, screen(app, unit.x, unit.y))
        wheel(app, 1)
    blocks = _check_screen(app)
    (block,) = [b for b in blocks if b.unit_id == crowded]
    assert [line.text for line in block.lines] == list(marks)
