"""The declaration form's window onto its rows: which rows are in view, where, and a scroll bar.

A declaration may have more fields than the action panel has room for while the odds
chart keeps its share of the panel: the form then shows a band of rows and
scrolls (the wheel over it, or its scroll bar). The rows stay widgets of the panel itself,
not of a scrolling container, so that an open drop-down is not cut off at the band's edge;
rows out of view are parked under the panel's edge, where the panel clips them (hiding
would not last: showing the panel again shows every child).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UIPanel, UIVerticalScrollBar

FORM_BAR = 16  # the scroll bar's width, when the rows do not all fit
PARKED = 400  # pixels under the panel's edge where the rows out of view wait


class FormWindow:
    """`shown` rows of a form from row `first`, in `area` (panel coordinates)."""

    def __init__(self, manager: pygame_gui.UIManager, panel: UIPanel, row_height: int) -> None:
        self.manager = manager
        self.panel = panel
        self.row_height = row_height
        self.first = 0  # the first row in view
        self.shown = 0  # rows in view
        self.area = pygame.Rect(0, 0, 0, 0)
        self.bar: UIVerticalScrollBar | None = None
        self._count = 0
        self._set_start = 0.0  # the bar's start as the form last set it

    @property
    def scrolls(self) -> bool:
        return self.shown < self._count

    def fit(self, count: int, top: int, left: int, width: int, room: int) -> int:
        """Room for `count` rows from `top`, at most `room` pixels tall (one row at least):
        the height the form takes."""
        self._count = count
        self.shown = max(1, min(count, room // self.row_height)) if count else 0
        self.first = max(0, min(self.first, count - self.shown))
        self.area = pygame.Rect(left, top, width, self.shown * self.row_height)
        return self.area.height

    def in_view(self, index: int) -> bool:
        return self.first <= index < self.first + self.shown

    def place(self, rows: Sequence[Any], label_left: int, widget_left: int, width: int) -> None:
        """Put each row (its `label` and `widget`) in its place, the bar beside them."""
        self._count = len(rows)
        height = self.panel.get_container().get_rect().height
        widget_width = width - (FORM_BAR + 6 if self.scrolls else 0)
        for index, row in enumerate(rows):
            if self.in_view(index):
                y = self.area.top + (index - self.first) * self.row_height
            else:
                y = max(60, height) + PARKED
            row.label.set_relative_position((label_left, y))
            row.widget.set_relative_position((widget_left, y))
            row.widget.set_dimensions((max(10, widget_width), self.row_height - 2))
        self._place_bar()

    def _place_bar(self) -> None:
        bar = self.bar
        if not self.scrolls:
            if bar is not None:
                bar.kill()
                self.bar = None
            return
        area = self.area
        rect = pygame.Rect(area.right - FORM_BAR, area.top, FORM_BAR, area.height - 2)
        visible = self.shown / self._count
        if bar is None or tuple(bar.relative_rect) != tuple(rect):
            if bar is not None:
                bar.kill()
            bar = UIVerticalScrollBar(rect, visible, self.manager, container=self.panel)
            self.bar = bar
        else:
            bar.set_visible_percentage(visible)
        self._set_start = self.first / self._count
        bar.set_scroll_from_start_percentage(self._set_start)

    def scroll_to(self, first: int) -> bool:
        """Start the window at row `first` (kept in range); True when it moved."""
        first = max(0, min(first, self._count - self.shown))
        if first == self.first:
            return False
        self.first = first
        return True

    def index_to_show(self, index: int) -> int:
        """The first row that brings row `index` into view with the least scrolling."""
        if index < self.first:
            return index
        if index >= self.first + self.shown:
            return index - self.shown + 1
        return self.first

    def dragged(self) -> int | None:
        """Where the player dragged the scroll bar to (a first row), or None."""
        bar = self.bar
        if bar is None or not bar.check_has_moved_recently() or bar.scrollable_height <= 0:
            return None
        if abs(bar.start_percentage - self._set_start) < 1e-6:
            return None  # where the form put it, not the player
        return round(bar.start_percentage * self._count)

    def on_screen(self) -> pygame.Rect:
        """The rows' band on the screen (where the wheel scrolls them)."""
        return self.area.move(self.panel.get_container().get_rect().topleft)
