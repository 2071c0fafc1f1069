"""The legend under the table: what the picture shows, as swatches and labels.

Terrain kinds with their fill and hatching, height classes, the sides' colours
and the selected unit's overlays (arcs, range bands, lines of sight), laid out
in rows that fit the window's width.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import pygame
import shapely

from tactical.model import GameState
from tactical.ui import palette
from tactical.ui.draw import hatch_screen_geometry, text
from tactical.ui.fonts import Fonts
from tactical.ui.palette import RGBA, Colour
from tactical.ui.selection import SelectionView


@dataclass(frozen=True, slots=True)
class LegendEntry:
    """One legend item: a swatch drawn by `kind` and its label."""

    label: str
    kind: Literal["fill", "line", "outline", "tint"]
    colour: Colour | RGBA
    width: int = 1
    hatch: tuple[float, ...] = ()
    hatch_colour: Colour | None = None
    edge: Colour | None = None


SWATCH = 16
ENTRY_GAP = 16
LEGEND_SIZE = 12


def legend_entries(
    state: GameState, colours: dict[str, Colour], view: SelectionView | None = None
) -> list[LegendEntry]:
    """What the picture shows: terrain kinds, height classes, sides, and a selection's overlays."""
    entries: list[LegendEntry] = []
    kinds = list(dict.fromkeys(piece.kind for piece in state.terrain))
    for kind in kinds:
        style = palette.terrain_style(kind)
        entries.append(
            LegendEntry(kind, "fill", style.fill, 1, style.hatch, style.hatch_colour, style.outline)
        )
    heights = sorted({piece.height for piece in state.terrain}, key=lambda h: h.rank)
    for height in heights:
        entries.append(
            LegendEntry(str(height), "outline", palette.TEXT_DIM, palette.HEIGHT_OUTLINE[height])
        )
    for side, colour in colours.items():
        entries.append(LegendEntry(f"side {side}", "fill", colour, edge=palette.UNIT_OUTLINE))
    if view is not None:
        for index, arc in enumerate(view.arcs):
            entries.append(LegendEntry(arc.name, "tint", palette.arc_tint(index)))
        if view.rings:
            entries.append(LegendEntry("range band", "line", palette.RANGE_RING[:3]))
        if view.sight_lines:
            entries.append(LegendEntry("LOS clear", "line", palette.LOS_CLEAR, 2))
            entries.append(LegendEntry("LOS blocked", "line", palette.LOS_BLOCKED, 2))
        if view.blocking:
            entries.append(LegendEntry("blocking", "outline", palette.BLOCKING_HIGHLIGHT, 3))
    return entries


def layout_legend(
    fonts: Fonts, entries: Sequence[LegendEntry], max_width: int
) -> list[list[tuple[LegendEntry, int]]]:
    """Entries flowed into rows no wider than `max_width`: [(entry, x offset), ...] per row."""
    rows: list[list[tuple[LegendEntry, int]]] = [[]]
    x = 0
    for entry in entries:
        width = SWATCH + 5 + fonts.width(entry.label, LEGEND_SIZE)
        if rows[-1] and x + width > max_width:
            rows.append([])
            x = 0
        rows[-1].append((entry, x))
        x += width + ENTRY_GAP
    return [row for row in rows if row]


def legend_height(rows: Sequence[Sequence[tuple[LegendEntry, int]]]) -> int:
    return len(rows) * (SWATCH + 6)


def draw_legend(
    surface: pygame.Surface,
    fonts: Fonts,
    topleft: tuple[int, int],
    rows: Sequence[Sequence[tuple[LegendEntry, int]]],
) -> None:
    """Draw laid-out legend rows from `topleft`."""
    left, top = topleft
    for row_index, row in enumerate(rows):
        y = top + row_index * (SWATCH + 6)
        for entry, offset in row:
            swatch = pygame.Rect(left + offset, y, SWATCH, SWATCH)
            _swatch(surface, entry, swatch)
            text(
                surface,
                fonts,
                entry.label,
                (swatch.right + 5, swatch.centery),
                LEGEND_SIZE,
                palette.TEXT,
                "midleft",
            )


def _swatch(surface: pygame.Surface, entry: LegendEntry, rect: pygame.Rect) -> None:
    if entry.kind == "fill":
        surface.fill(entry.colour[:3], rect)
        if entry.hatch and entry.hatch_colour is not None:
            square = shapely.box(rect.left, rect.top, rect.right, rect.bottom)
            hatch_screen_geometry(
                surface, square, entry.hatch, palette.HATCH_SPACING, entry.hatch_colour
            )
        pygame.draw.rect(surface, entry.edge or entry.colour[:3], rect, 1)
    elif entry.kind == "tint":
        tile = pygame.Surface(rect.size, pygame.SRCALPHA)
        tile.fill((*entry.colour[:3], min(255, entry.colour[3] * 3)))
        surface.blit(tile, rect)
        pygame.draw.rect(surface, entry.colour[:3], rect, 1)
    elif entry.kind == "line":
        pygame.draw.line(surface, entry.colour[:3], rect.midleft, rect.midright, entry.width)
    else:
        inner = rect.inflate(-2, -2)
        pygame.draw.rect(surface, entry.colour[:3], inner, entry.width)


__all__ = [
    "LegendEntry",
    "draw_legend",
    "layout_legend",
    "legend_entries",
    "legend_height",
]
