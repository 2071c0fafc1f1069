"""Where the units' marks go on the table ("activated", a critical's name, an order).

Each unit's marks stand one per line, stacked into a block beside its status token.
The blocks are placed one unit after another (the selected unit first). A block goes
to the first place around the token (right, above, left, above from either end, then
the same a little higher) where it covers no token, no unit's name and no block placed
already, and no base either; a crowded unit writes fewer of its marks and counts the
rest ("+2 more"), down to a count ("3 marks", "+3"). Where every wording and place
would cover a base, the one covering the fewest pixels of bases is taken; one with no
room at all shows nothing there (its hover card lists every mark). So no two marks
are ever drawn over each other, and every line drawn is readable whole.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pygame

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

    @property
    def rect(self) -> pygame.Rect:
        return self.lines[0].rect.unionall([line.rect for line in self.lines[1:]])


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


def _stacked(
    unit_id: str,
    texts: tuple[str, ...],
    counted: int,
    widths: list[int],
    pitch: int,
    token: pygame.Rect,
) -> list[MarkBlock]:
    """The block of `texts` at each place around `token`, in the order tried."""
    height = pitch * len(texts)
    width = max(widths)
    # beside the token, its last line level with the token's middle (the rest above it),
    # or raised by half a line or a line; above it, its last line on the token or a line up
    beside = token.centery + (pitch + 1) // 2
    above = token.top - ABOVE_GAP
    places = [
        (left, bottom, align)
        for bottom_beside, bottom_above in ((beside, above), (beside - pitch // 2, above - pitch))
        for left, bottom, align in (
            (token.right + SIDE_GAP, bottom_beside, "left"),
            (token.centerx - width // 2, bottom_above, "centre"),
            (token.left - SIDE_GAP - width, bottom_beside, "right"),
            (token.left, bottom_above, "left"),
            (token.right - width, bottom_above, "right"),
        )
    ]
    places += [
        (token.right + SIDE_GAP, beside - pitch, "left"),
        (token.left - SIDE_GAP - width, beside - pitch, "right"),
    ]
    blocks = []
    for left, bottom, align in places:
        top = bottom - height
        lines = [  # every line the block's width: one even plate behind them
            MarkLine(text, pygame.Rect(left, top + index * pitch, width, pitch), align)
            for index, text in enumerate(texts)
        ]
        blocks.append(MarkBlock(unit_id, tuple(lines), counted, token))
    return blocks


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
        options = [
            block
            for texts, counted in wordings(request.marks)
            for block in _stacked(
                request.unit_id,
                texts,
                counted,
                [measure(text) for text in texts],
                pitch,
                request.token,
            )
        ]
        chosen = _first_clear(options, hard + soft, within) or _least_covering(
            options, hard, soft, within
        )
        if chosen is not None:
            placed.append(chosen)
            hard.extend(line.rect for line in chosen.lines)
    return placed


def _first_clear(
    options: list[MarkBlock], obstacles: list[pygame.Rect], within: pygame.Rect | None = None
) -> MarkBlock | None:
    """The first block of `options` covering none of `obstacles` (and inside `within`)."""
    for block in options:
        if within is not None and not within.contains(block.rect):
            continue
        if all(line.rect.collidelist(obstacles) == -1 for line in block.lines):
            return block
    return None


def _least_covering(
    options: list[MarkBlock],
    obstacles: list[pygame.Rect],
    avoid: list[pygame.Rect],
    within: pygame.Rect | None,
) -> MarkBlock | None:
    """Of the blocks of `options` covering none of `obstacles` (inside `within`), the one
    covering the fewest pixels of `avoid` (the first of equals: the fullest wording)."""
    best: tuple[int, MarkBlock] | None = None
    for block in options:
        if within is not None and not within.contains(block.rect):
            continue
        if any(line.rect.collidelist(obstacles) != -1 for line in block.lines):
            continue
        covered = 0
        for line in block.lines:
            for index in line.rect.collidelistall(avoid):
                overlap = line.rect.clip(avoid[index])
                covered += overlap.width * overlap.height
        if best is None or covered < best[0]:
            best = (covered, block)
    return best[1] if best else None
