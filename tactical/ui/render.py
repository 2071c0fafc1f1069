"""The table as a picture: `render_state` draws offscreen, `render_png` writes it atomically.

Layout of the picture: a header with the map's title and rule system, the
table fitted with a band around it for the inch ticks and their numbers, and
a legend below. No display is needed: only pygame's font module is started.
"""

from __future__ import annotations

import io
import math
import os
from collections.abc import Callable, Sequence
from pathlib import Path

import pygame

from tactical.drawing.files import checked_output
from tactical.errors import UserError
from tactical.io.files import write_bytes_atomic
from tactical.model import GameState
from tactical.present.selection import selected_unit
from tactical.rules import registry
from tactical.rules.base import RuleSystem
from tactical.ui import palette
from tactical.ui.camera import Camera, Margins
from tactical.ui.draw import text
from tactical.ui.fonts import Fonts, shared_fonts
from tactical.ui.layers import (
    LegendEntry,
    draw_legend,
    layout_legend,
    legend_entries,
    legend_height,
)
from tactical.ui.scene import SceneRenderer

DEFAULT_WIDTH = 1600
MIN_SIZE = (320, 240)
MAX_SIZE = (10000, 10000)
TICK_BAND = 36  # pixels around the table for ticks and their numbers
HEADER = 36
LEGEND_GAP = 6
TITLE_SIZE = 18
SUBTITLE_SIZE = 13


def check_size(size: tuple[int, int]) -> tuple[int, int]:
    """A picture size within MIN_SIZE..MAX_SIZE, or a UserError saying what is allowed."""
    width, height = size
    if not (MIN_SIZE[0] <= width <= MAX_SIZE[0] and MIN_SIZE[1] <= height <= MAX_SIZE[1]):
        raise UserError(
            f"picture size {width}x{height} is out of range: width {MIN_SIZE[0]}-{MAX_SIZE[0]}, "
            f"height {MIN_SIZE[1]}-{MAX_SIZE[1]} pixels"
        )
    return int(width), int(height)


def render_state(
    state: GameState,
    size: tuple[int, int] | None = None,
    unit_id: str | None = None,
    *,
    system: RuleSystem | None = None,
    sight_lines: bool = True,
    renderer: SceneRenderer | None = None,
    overlay: Callable[[pygame.Surface, Camera], None] | None = None,
    legend: Sequence[LegendEntry] = (),
) -> pygame.Surface:
    """The table of `state` as a surface; with `unit_id`, that unit's arcs, bands and LOS.

    Without `size` the picture is DEFAULT_WIDTH wide and as tall as the board's
    aspect ratio needs; with `size` the table is fitted (letterboxed) into it.
    `overlay(surface, camera)` draws a layer of the caller's over the table, `legend` its
    legend entries.
    """
    system = system or registry.get(state.rules)
    if unit_id is not None:
        selected_unit(state, unit_id)
    if size is not None:
        size = check_size(size)
    renderer = renderer or SceneRenderer()
    fonts = renderer.fonts
    view = renderer.selection(state, system, unit_id, sight_lines) if unit_id else None
    width = size[0] if size else DEFAULT_WIDTH
    colours = palette.side_colours(state.sides)
    entries = [*legend_entries(state, colours, view), *legend]
    rows = layout_legend(fonts, entries, width - 2 * TICK_BAND)
    margins = Margins(
        left=TICK_BAND,
        top=HEADER + TICK_BAND,
        right=TICK_BAND,
        bottom=TICK_BAND + LEGEND_GAP + legend_height(rows) + LEGEND_GAP,
    )
    if size is None:
        scale = (width - margins.left - margins.right) / state.board.width
        height = math.ceil(margins.top + margins.bottom + state.board.height * scale)
        size = (width, height)
    camera = Camera.fit(state.board.bounds, size, margins)
    surface = pygame.Surface(size)
    renderer.draw(surface, state, camera, system, selected=unit_id, sight_lines=sight_lines)
    if overlay is not None:  # a layer of the caller's (the threat map), under the header
        overlay(surface, camera)
    _header(surface, fonts, state, system, unit_id)
    table_bottom = camera.to_screen(0, 0)[1]
    legend_top = round(min(table_bottom + TICK_BAND, size[1] - legend_height(rows) - LEGEND_GAP))
    draw_legend(surface, fonts, (TICK_BAND, legend_top), rows)
    return surface


def _header(
    surface: pygame.Surface,
    fonts: Fonts,
    state: GameState,
    system: RuleSystem,
    unit_id: str | None,
) -> None:
    width = surface.get_width()
    middle = HEADER // 2 + 2
    title = state.title or "untitled map"
    if unit_id is not None:
        unit = state.unit(unit_id)
        title += f" — {state.shown_names[unit.id]} ({unit.id}): arcs, range bands, line of sight"
    board = f'{_inches(state.board.width)}" × {_inches(state.board.height)}"'
    right = f"{system.title} · {board}"
    right_rect = text(
        surface,
        fonts,
        right,
        (width - TICK_BAND, middle),
        SUBTITLE_SIZE,
        palette.TEXT_DIM,
        "midright",
    )
    room = right_rect.left - TICK_BAND - 16
    fitted = fonts.fit(title, TITLE_SIZE, room)
    if fitted:
        text(surface, fonts, fitted, (TICK_BAND, middle), TITLE_SIZE, palette.TEXT, "midleft")


def _inches(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def render_png(
    state: GameState,
    path: str | os.PathLike[str],
    unit_id: str | None = None,
    size: tuple[int, int] | None = None,
) -> Path:
    """Render and write a PNG atomically (`tactical.io.files`: checked first, then a temp file
    in the same folder renamed over the target)."""
    target = checked_png_path(path)
    return save_png(render_state(state, size=size, unit_id=unit_id), target)


def checked_png_path(path: str | os.PathLike[str]) -> Path:
    """`path` as a .png file that can be written, or a UserError (checked before any work)."""
    return checked_output(path, ".png")


def save_png(surface: pygame.Surface, target: Path) -> Path:
    """Write `surface` as a PNG to `target` atomically (`write_bytes_atomic`)."""
    picture = io.BytesIO()
    try:
        pygame.image.save(surface, picture, "picture.png")
    except pygame.error as error:
        raise UserError(f"cannot write {str(target)!r}: {error}") from None
    write_bytes_atomic(target, picture.getvalue())
    return target


__all__ = [
    "Fonts",
    "SceneRenderer",
    "check_size",
    "checked_png_path",
    "render_png",
    "render_state",
    "save_png",
    "shared_fonts",
]
