"""Where the units' tokens and marks go on the table (`place_tokens`, `place_marks`).

Tokens (each unit's damage bar or pips, centred over its base): tokens of units standing
side by side narrow to the room between them (`token_room`, where that leaves a bar
readable), so that a squadron's bars stand in one row, each over its own unit. Then
(`place_tokens`), units taken left to right, each token goes where it stands unless it
would touch a token placed already; then a row higher, and higher, up to TOKEN_ROWS rows:
a squadron too tight for narrower bars has its tokens staggered like bricks, each still
straight over its own unit. A token with no such place is not drawn (the hover card gives
the unit's status): two bars run together read as one unit's.

Marks ("activated", a critical's name, an order):

Each unit's marks stand one per line, stacked into a block beside its status token.
The blocks are placed one unit after another (the selected unit first). A block goes
to the first place around the token (right, above, left, above from either end, then
the same a little higher) where it covers no token, no unit's name and no block placed
already, and no base either; a crowded unit writes fewer of its marks and counts the
rest ("+2 more"), down to a count ("3 marks", "+3"). Where every wording and place
would cover a base, the one covering the fewest pixels of bases is taken; one with no
room at all shows nothing there (its hover card lists every mark). So no two marks
are ever drawn over each other, and every line drawn is readable whole.

Names: tactical.ui.name_layout (`place_names`, `names_under`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import pygame

# the names' layout was found here first: the table's layers import it from here
from tactical.ui.name_layout import (
    CROWDED,
    LEADER_FROM,
    NAME_MARGIN,
    NamePlace,
    NameRequest,
    names_under,
    place_names,
)
from tactical.ui.rect_grid import RectGrid

SIDE_GAP = 4  # pixels between a token and a block beside it
ABOVE_GAP = 2  # pixels between a token and a block above it


@dataclass(frozen=True)
class MarkLine:
    """One mark's text and the pixels its line takes (the block's width, a line high)."""

    text: str
    rect: pygame.Rect
    align: str  # "left", "right" or "centre": how the text sits in the line


@dataclass(frozen=True)
class MarkBlock:
    """A unit's marks as placed: its lines, top to bottom, and how many are counted only."""

    unit_id: str
    lines: tuple[MarkLine, ...]
    counted: int  # marks not written out (summed up by the last line, "+2 more" / "+3")
    token: pygame.Rect  # the unit's token the block belongs to
    rect: pygame.Rect  # the block's pixels: its lines, one under another, as wide
    moved: bool = False  # not in the first place tried (right of the token, level with it)


@dataclass(frozen=True)
class MarkRequest:
    """A unit's marks, in the rule system's order, and its token's pixels on screen."""

    unit_id: str
    marks: tuple[str, ...]
    token: pygame.Rect


def wordings(marks: Sequence[str]) -> list[tuple[tuple[str, ...], int]]:
    """The ways to write `marks`, fullest first, with how many each counts only: every
    mark; the first k and "+n more"; "n marks"; a bare "+n"."""
    count = len(marks)
    found: list[tuple[tuple[str, ...], int]] = [(tuple(marks), 0)]
    for kept in range(count - 1, 0, -1):
        found.append(((*marks[:kept], f"+{count - kept} more"), count - kept))
    found.append(((f"{count} mark{'s' if count > 1 else ''}",), count))
    found.append(((f"+{count}",), count))
    return found


def _places(
    width: int, height: int, pitch: int, token: pygame.Rect
) -> list[tuple[pygame.Rect, str]]:
    """Where a block `width` x `height` may go around `token`, in the order tried, and how
    its lines align: beside the token, its last line level with the token's middle (the
    rest above it), or raised by half a line or a line; above it, on the token or a line
    up."""
    beside = token.centery + (pitch + 1) // 2
    above = token.top - ABOVE_GAP
    right, left = token.right + SIDE_GAP, token.left - SIDE_GAP - width
    places = [
        (x, bottom, align)
        for bottom_beside, bottom_above in ((beside, above), (beside - pitch // 2, above - pitch))
        for x, bottom, align in (
            (right, bottom_beside, "left"),
            (token.centerx - width // 2, bottom_above, "centre"),
            (left, bottom_beside, "right"),
            (token.left, bottom_above, "left"),
            (token.right - width, bottom_above, "right"),
        )
    ]
    places += [(right, beside - pitch, "left"), (left, beside - pitch, "right")]
    return [(pygame.Rect(x, bottom - height, width, height), align) for x, bottom, align in places]


def _block(
    unit_id: str,
    texts: tuple[str, ...],
    counted: int,
    token: pygame.Rect,
    rect: pygame.Rect,
    align: str,
    pitch: int,
    moved: bool,
) -> MarkBlock:
    """The block of `texts` in `rect`, a line every `pitch` pixels."""
    lines = tuple(  # every line the block's width: one even plate behind them
        MarkLine(text, pygame.Rect(rect.left, rect.top + index * pitch, rect.width, pitch), align)
        for index, text in enumerate(texts)
    )
    return MarkBlock(unit_id, lines, counted, token, rect, moved)


def place_marks(
    requests: Sequence[MarkRequest],
    measure: Callable[[str], int],
    pitch: int,
    *,
    keep_off: Sequence[pygame.Rect] = (),
    avoid: Sequence[pygame.Rect] = (),
    within: pygame.Rect | None = None,
) -> list[MarkBlock]:
    """Each request's block (see the module docstring), in the requests' order: no block
    covers a token, another block or `keep_off` (the units' names: text over text reads
    as neither); each avoids `avoid` (the bases) and stays `within` the screen where some
    wording and place lets it. `measure` gives a text's width in pixels, `pitch` the
    height of a line."""
    hard = [request.token for request in requests if request.token.width] + list(keep_off)
    soft = list(avoid)
    placed: list[MarkBlock] = []
    for request in requests:
        if not request.marks:
            continue
        options = []  # (wording, counted, rect, align), fullest wording first
        for texts, counted in wordings(request.marks):
            width = max(measure(text) for text in texts)
            for rect, align in _places(width, pitch * len(texts), pitch, request.token):
                options.append((texts, counted, rect, align))
        # only what lies near the token can be in the way (a crowded table has hundreds)
        rects = [option[2] for option in options]
        near = rects[0].unionall(rects[1:])
        near_hard = [hard[i] for i in near.collidelistall(hard)]
        near_soft = [soft[i] for i in near.collidelistall(soft)]
        chosen = _first_clear(rects, near_hard + near_soft, within)
        if chosen is None:
            chosen = _least_covering(rects, near_hard, near_soft, within)
        if chosen is not None:
            texts, counted, rect, align = options[chosen]
            moved = rect.topleft != rects[0].topleft  # the fullest wording's first place
            block = _block(
                request.unit_id, texts, counted, request.token, rect, align, pitch, moved
            )
            placed.append(block)
            hard.append(rect)
    return placed


def _first_clear(
    rects: list[pygame.Rect], obstacles: list[pygame.Rect], within: pygame.Rect | None = None
) -> int | None:
    """The first of `rects` covering none of `obstacles` (and inside `within`)."""
    for index, rect in enumerate(rects):
        if within is not None and not within.contains(rect):
            continue
        if rect.collidelist(obstacles) == -1:
            return index
    return None


def _least_covering(
    rects: list[pygame.Rect],
    obstacles: list[pygame.Rect],
    avoid: list[pygame.Rect],
    within: pygame.Rect | None,
) -> int | None:
    """Of `rects` covering none of `obstacles` (inside `within`), the one covering the
    fewest pixels of `avoid` (the first of equals: the fullest wording)."""
    best: tuple[int, int] | None = None
    for index, rect in enumerate(rects):
        if within is not None and not within.contains(rect):
            continue
        if rect.collidelist(obstacles) != -1:
            continue
        covered = 0
        for hit in rect.collidelistall(avoid):
            overlap = rect.clip(avoid[hit])
            covered += overlap.width * overlap.height
        if best is None or covered < best[0]:
            best = (covered, index)
    return best[1] if best else None


# --------------------------------------------------------------------------- tokens

TOKEN_ROWS = 4  # places tried over a unit: where its token stands and three rows higher
TOKEN_GAP = (4, 2)  # pixels kept between two tokens side by side and one over the other


def token_room(tokens: Mapping[str, pygame.Rect]) -> dict[str, int]:
    """How wide (pixels) each token may be to keep TOKEN_GAP from the tokens of its
    neighbours side by side (by unit id; only those that touch a neighbour's where they
    stand): the distance between their middles less the gap, so that both fit."""
    gap_x, gap_y = TOKEN_GAP
    claims = {unit_id: rect.inflate(gap_x, gap_y) for unit_id, rect in tokens.items() if rect.width}
    owner = {id(claim): unit_id for unit_id, claim in claims.items()}
    grid = RectGrid(claims.values())
    room: dict[str, int] = {}
    for unit_id, claim in claims.items():
        for other in grid.near(claim):
            if owner[id(other)] != unit_id:
                width = abs(other.centerx - claim.centerx) - gap_x
                room[unit_id] = min(room.get(unit_id, tokens[unit_id].width), width)
    return room


def place_tokens(tokens: Mapping[str, pygame.Rect]) -> dict[str, pygame.Rect]:
    """Each unit's token (by unit id: its pixels where it stands over its unit) moved clear
    of the others (see the module docstring); the tokens with no room left out, empty ones
    kept where they are."""
    gap_x, gap_y = TOKEN_GAP
    claimed = RectGrid()
    placed: dict[str, pygame.Rect] = {}
    for unit_id, rect in sorted(tokens.items(), key=lambda item: (item[1].x, item[1].y)):
        if not rect.width or not rect.height:
            placed[unit_id] = rect
            continue
        rows = [rect.move(0, -row * (rect.height + gap_y)) for row in range(TOKEN_ROWS)]
        claims = [row.inflate(gap_x, gap_y) for row in rows]  # half a gap each side
        chosen = _first_clear(claims, claimed.near(claims[0].unionall(claims[1:])))
        if chosen is not None:
            claimed.add(claims[chosen])
            placed[unit_id] = rows[chosen]
    return placed


__all__ = [
    "CROWDED",
    "LEADER_FROM",
    "NAME_MARGIN",
    "MarkBlock",
    "MarkLine",
    "MarkRequest",
    "NamePlace",
    "NameRequest",
    "names_under",
    "place_marks",
    "place_names",
    "place_tokens",
    "token_room",
    "wordings",
]
