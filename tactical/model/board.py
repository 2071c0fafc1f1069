"""The table and its 2'x2' areas (docs/architecture.md conventions, GEO002.1, A002.5)."""

from __future__ import annotations

import math
import string
from dataclasses import dataclass
from functools import cached_property

DEFAULT_AREA = 24.0  # inches: the 2'x2' areas of R002.9


def column_letters(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA (spreadsheet style), for boards wider than 26 areas."""
    letters = ""
    index += 1
    while index:
        index, remainder = divmod(index - 1, 26)
        letters = string.ascii_uppercase[remainder] + letters
    return letters


@dataclass(frozen=True, slots=True)
class Area:
    """One 2'x2' area (or the partial one at the right/top edge): [x0, x1) x [y0, y1)."""

    name: str
    column: int
    row: int
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        return self.x0, self.y0, self.x1, self.y1

    @property
    def is_partial(self) -> bool:
        return not (math.isclose(self.width, self.height))


EDGES = ("bottom", "top", "left", "right")
OPPOSITE_EDGE = {"bottom": "top", "top": "bottom", "left": "right", "right": "left"}


@dataclass(frozen=True)
class Board:
    """The playing surface in inches, with its origin at side A's bottom-left corner."""

    width: float
    height: float
    area: float = DEFAULT_AREA

    def __post_init__(self) -> None:
        object.__setattr__(self, "width", float(self.width))
        object.__setattr__(self, "height", float(self.height))
        object.__setattr__(self, "area", float(self.area))

    @cached_property
    def columns(self) -> int:
        return max(1, math.ceil(self.width / self.area - 1e-9))

    @cached_property
    def rows(self) -> int:
        return max(1, math.ceil(self.height / self.area - 1e-9))

    @cached_property
    def areas(self) -> tuple[Area, ...]:
        """Every area in the order the terrain procedure visits them: A1, B1, ..., A2, B2, ...

        Row by row from side A's edge, left to right within a row; partial
        areas at the right and top edges are included (A002.5).
        """
        result = []
        for row in range(self.rows):
            for column in range(self.columns):
                x0, y0 = column * self.area, row * self.area
                result.append(
                    Area(
                        name=f"{column_letters(column)}{row + 1}",
                        column=column,
                        row=row,
                        x0=x0,
                        y0=y0,
                        x1=min(self.width, x0 + self.area),
                        y1=min(self.height, y0 + self.area),
                    )
                )
        return tuple(result)

    def area_named(self, name: str) -> Area:
        for area in self.areas:
            if area.name == name:
                return area
        raise KeyError(name)

    def area_at(self, x: float, y: float) -> Area | None:
        """The area holding a point (far edges belong to the last area); None off the table."""
        if not self.contains_point(x, y):
            return None
        column = min(int(x // self.area), self.columns - 1)
        row = min(int(y // self.area), self.rows - 1)
        return self.areas[row * self.columns + column]

    def contains_point(self, x: float, y: float) -> bool:
        return 0.0 <= x <= self.width and 0.0 <= y <= self.height

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        return 0.0, 0.0, self.width, self.height

    def edge_length(self, edge: str) -> float:
        return self.width if edge in ("bottom", "top") else self.height
