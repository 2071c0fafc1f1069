"""The panels that follow the pointer: the hovered unit's card and the pair's numbers.

Each owns its widget and its placement; the caller says what to show and where
the pointer is. What they say is the presenter's (`tactical.present.cards`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pygame
import pygame_gui
from pygame_gui.elements import UITextBox

from tactical.present.cards import card_html, pair_html, unit_names
from tactical.rules.measuring import PairReport
from tactical.ui.services import LEGEND_BAND, OVERLAY_HEIGHT, STATUS_BAR, TOP_BAR

CARD_WIDTH = 340
PAIR_WIDTH = 350
POINTER_GAP = 24  # pixels kept between the pointer and a panel
MARGIN = 8


def table_area(size: tuple[int, int], panel_width: int) -> pygame.Rect:
    """The window between the bars and left of the mode's panel: where the cards go."""
    width, height = size
    bottom = height - STATUS_BAR - LEGEND_BAND
    return pygame.Rect(0, TOP_BAR, max(1, width - panel_width - 8), max(1, bottom - TOP_BAR))


def beside(
    box: pygame.Rect,
    pointer: tuple[int, int],
    area: pygame.Rect,
    top: bool,
    avoid: pygame.Rect | None = None,
) -> pygame.Rect:
    """Where a panel of `box`'s size goes in a corner of `area` (top or bottom), on the side
    away from the pointer: it never covers what is under the pointer nor takes its click,
    and keeps off `avoid` (the other panel) where a corner allows."""
    inner = area.inflate(-2 * MARGIN, -2 * MARGIN)
    left_first = pointer[0] >= area.centerx
    free = []
    for left in (left_first, not left_first):
        rect = box.copy()
        if left:
            rect.left = inner.left
        else:
            rect.right = inner.right
        if top:
            rect.top = inner.top
        else:
            rect.bottom = inner.bottom
        if not rect.inflate(2 * POINTER_GAP, 2 * POINTER_GAP).collidepoint(pointer):
            if avoid is None or not rect.colliderect(avoid):
                return rect
            free.append(rect)
    return free[0] if free else rect


class UnitCard:
    """The hovered unit's card, in a top corner of the table away from the pointer;
    re-worded only when what it says changes."""

    def __init__(self, manager: pygame_gui.UIManager) -> None:
        # height -1: the card is as tall as its lines (pygame_gui sizes it on each set_text)
        self.box = UITextBox(
            "", pygame.Rect(0, 0, CARD_WIDTH, -1), manager, starting_height=OVERLAY_HEIGHT
        )
        self.box.hide()
        self._key: object = None

    def forget(self) -> None:
        """The next `show` re-words the card even if its key did not change."""
        self._key = None

    def hide(self) -> None:
        if self.box.visible:
            self.box.hide()
        self._key = None

    def show(
        self,
        key: object,
        html: Callable[[], str],
        pointer: tuple[int, int],
        area: pygame.Rect,
    ) -> None:
        """The card for `key` in `area`, away from `pointer`; `html()` is asked only when
        `key` changed."""
        if self._key != key:
            self.box.set_text(html())
            self._key = key
        rect = beside(self.box.rect, pointer, area, top=True)
        if rect.topleft != self.box.rect.topleft:
            self.box.set_relative_position(rect.topleft)
        if not self.box.visible:
            self.box.show()


class PairPanel:
    """The pair's numbers in a bottom corner of the table, away from the pointer; its bottom
    edge stays put as its height follows its lines."""

    def __init__(self, manager: pygame_gui.UIManager) -> None:
        self.box = UITextBox("", pygame.Rect(0, 0, PAIR_WIDTH, -1), manager)  # as tall as its lines
        self.box.hide()
        self._place: tuple[tuple[int, int], pygame.Rect] = ((0, 0), pygame.Rect(0, 0, 1, 1))

    def hide(self) -> None:
        if self.box.visible:
            self.box.hide()

    def layout(
        self, pointer: tuple[int, int], area: pygame.Rect, avoid: pygame.Rect | None = None
    ) -> None:
        self._place = (pointer, area)
        rect = beside(self.box.rect, pointer, area, top=False, avoid=avoid)
        if rect.topleft != self.box.rect.topleft:
            self.box.set_relative_position(rect.topleft)

    def show(
        self,
        report: PairReport | None,
        moving: bool,
        pointer: tuple[int, int],
        area: pygame.Rect,
        names: Mapping[str, str] | None = None,
        avoid: pygame.Rect | None = None,
    ) -> None:
        """The pair's numbers away from the pointer and, where a corner allows, off `avoid`
        (the unit card)."""
        if report is None:
            self.hide()
            return
        html = pair_html(report, moving, names)
        if self.box.html_text != html:
            self.box.set_text(html)
        self.layout(pointer, area, avoid)
        if not self.box.visible:
            self.box.show()


__all__ = ["PairPanel", "UnitCard", "beside", "card_html", "pair_html", "table_area", "unit_names"]
