"""Rectangles filed by cells, to ask which ones a rectangle covers among thousands.

The marks, tokens and names laid out on the table (tactical.ui.mark_layout,
tactical.ui.name_layout) each ask it where a box would cover one placed already.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame


class RectGrid:
    """Rectangles filed by 64-pixel cells: which of them a rectangle covers asks only its
    neighbours (the answer of `Rect.collidelist` over all, for thousands of them)."""

    CELL = 64

    def __init__(self, rects: Sequence[pygame.Rect] = ()) -> None:
        self.cells: dict[tuple[int, int], list[pygame.Rect]] = {}
        for rect in rects:
            self.add(rect)

    def _keys(self, rect: pygame.Rect) -> list[tuple[int, int]]:
        cell = self.CELL
        xs = range(rect.left // cell, (rect.right - 1) // cell + 1)
        ys = range(rect.top // cell, (rect.bottom - 1) // cell + 1)
        return [(x, y) for x in xs for y in ys]

    def add(self, rect: pygame.Rect) -> None:
        if rect.width <= 0 or rect.height <= 0:
            return
        cells = self.cells
        for key in self._keys(rect):
            found = cells.get(key)
            if found is None:
                cells[key] = [rect]
            else:
                found.append(rect)

    def near(self, rect: pygame.Rect) -> list[pygame.Rect]:
        """The rectangles filed that `rect` covers."""
        found: list[pygame.Rect] = []
        seen: set[int] = set()
        cells = self.cells
        for key in self._keys(rect):
            for hit in cells.get(key, ()):
                if id(hit) not in seen and rect.colliderect(hit):
                    seen.add(id(hit))
                    found.append(hit)
        return found

    def add_if_clear(self, rect: pygame.Rect) -> bool:
        """File `rect` unless it covers a rectangle filed; whether it was filed."""
        keys = self._keys(rect)
        cells = self.cells
        for key in keys:
            found = cells.get(key)
            if found is not None and rect.collidelist(found) != -1:
                return False
        for key in keys:
            found = cells.get(key)
            if found is None:
                cells[key] = [rect]
            else:
                found.append(rect)
        return True

    def covers(self, rect: pygame.Rect) -> bool:
        """Whether `rect` covers any rectangle filed."""
        cells = self.cells
        for key in self._keys(rect):
            found = cells.get(key)
            if found is not None and rect.collidelist(found) != -1:
                return True
        return False

    def covered_area(self, rect: pygame.Rect) -> int:
        """The pixels of filed rectangles `rect` covers (each counted once)."""
        seen: set[tuple[int, int, int, int]] = set()
        area = 0
        cells = self.cells
        for key in self._keys(rect):
            for hit in cells.get(key, ()):
                corner = (hit.x, hit.y, hit.width, hit.height)
                if corner in seen or not rect.colliderect(hit):
                    continue
                seen.add(corner)
                overlap = rect.clip(hit)
                area += overlap.width * overlap.height
        return area
