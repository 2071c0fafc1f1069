"""The layers of a table picture, each a function (surface, camera, values) -> drawing.

Static layers (table, grid and area names, edge ticks, terrain) change only
with the camera or the map; unit and selection layers change every frame. All
positions come from the model and pass through the Camera; all looks come
from the palette.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pygame
import shapely

from tactical.drawing import scenes
from tactical.drawing.primitives import Polygon, Style
from tactical.model import Board, GameState, SizeClass, Terrain, terrain_names
from tactical.present.selection import SelectionView
from tactical.ui import palette
from tactical.ui.camera import Camera
from tactical.ui.draw import PygameCanvas, hatch_screen_geometry, polygons_of, text
from tactical.ui.fonts import Fonts
from tactical.ui.palette import RGBA, Colour
from tactical.ui.units_layer import (  # re-exported: drawn with the rest
    LABEL_HEIGHT,
    LABEL_MIN_EXTENT,
    SPRITE_LIMIT,
    UNIT_LABEL_SIZE,
    LabelLayout,
    UnitShapes,
    UnitSprites,
    draw_units,
    layout_labels,
)

TICK_LABEL_SIZE = 11
TERRAIN_LABEL_SIZE = 12
STAR_DENSITY = 0.6  # stars per square inch on a space table
STAR_SEED = 1977  # fixed: the star field is decoration and must look the same every time


# --------------------------------------------------------------------------- table


def draw_table(
    surface: pygame.Surface, camera: Camera, board: Board, look: palette.Background
) -> pygame.Rect:
    """The surround, the table surface in the rule system's setting, and a star field in space."""
    surface.fill(palette.SURROUND)
    table = pygame.Rect(camera.screen_rect(board.bounds))
    surface.fill(look.table, table)
    if look.stars:
        _draw_stars(surface, camera, board, table)
    return table


def _draw_stars(surface: pygame.Surface, camera: Camera, board: Board, table: pygame.Rect) -> None:
    rng = np.random.default_rng(STAR_SEED)
    count = int(board.width * board.height * STAR_DENSITY)
    world = rng.random((count, 2)) * np.array([board.width, board.height])
    brightness = rng.random(count)
    screen = camera.to_screen_array(world)
    clip = table.clip(surface.get_rect())
    inside = (
        (screen[:, 0] >= clip.left)
        & (screen[:, 0] < clip.right)
        & (screen[:, 1] >= clip.top)
        & (screen[:, 1] < clip.bottom)
    )
    big = camera.scale > 12
    for (px, py), light in zip(screen[inside].tolist(), brightness[inside].tolist(), strict=True):
        colour = tuple(round(c * (0.35 + 0.65 * light)) for c in palette.STAR)
        if big and light > 0.93:
            pygame.draw.circle(surface, colour, (px, py), 1.5)
        else:
            surface.fill(colour, (int(px), int(py), 1, 1))


def draw_grid(
    surface: pygame.Surface, camera: Camera, board: Board, look: palette.Background, fonts: Fonts
) -> None:
    """The 2'x2' area lines and each area's name in its top-left corner (GEO002.1, R002.9)."""
    left, bottom = camera.to_screen(0, 0)
    right, top = camera.to_screen(board.width, board.height)
    for column in range(1, board.columns):
        x = round(camera.to_screen(column * board.area, 0)[0])
        pygame.draw.line(surface, look.grid, (x, round(top)), (x, round(bottom)))
    for row in range(1, board.rows):
        y = round(camera.to_screen(0, row * board.area)[1])
        pygame.draw.line(surface, look.grid, (round(left), y), (round(right), y))
    area_px = camera.pixels(board.area)
    size = int(min(max(area_px * 0.09, 10), 40))
    pad = max(3, size // 3)
    for area in board.areas:
        corner_x, corner_y = camera.to_screen(area.x0, area.y1)
        label = fonts.render(area.name, size, look.area_label)
        if label.get_width() + pad * 2 > camera.pixels(area.width) or (
            label.get_height() + pad * 2 > camera.pixels(area.height)
        ):
            continue
        surface.blit(label, (round(corner_x) + pad, round(corner_y) + pad))


def draw_frame(surface: pygame.Surface, camera: Camera, board: Board) -> None:
    """The table edge."""
    rect = pygame.Rect(camera.screen_rect(board.bounds))
    pygame.draw.rect(surface, palette.FRAME, rect.inflate(2, 2), 1)


def tick_steps(scale: float, fonts: Fonts, board: Board) -> tuple[float, float]:
    """(minor, labelled) tick spacing in inches that stays legible at `scale` px/inch."""
    minor = next((s for s in (1.0, 2.0, 6.0, 12.0, 24.0) if s * scale >= 4), 48.0)
    widest = fonts.width(str(int(max(board.width, board.height))), TICK_LABEL_SIZE)
    labelled = next(
        (s for s in (1.0, 2.0, 3.0, 6.0, 12.0, 24.0) if s * scale >= widest + 10 and s >= minor),
        48.0,
    )
    return minor, labelled


def draw_edge_ticks(surface: pygame.Surface, camera: Camera, board: Board, fonts: Fonts) -> None:
    """Inch ticks on all four edges, outside the table, numbered every few inches."""
    minor, labelled = tick_steps(camera.scale, fonts, board)
    x0, y1 = camera.to_screen(0, board.height)
    x1, y0 = camera.to_screen(board.width, 0)
    long_tick, short_tick, gap = 8, 4, 2

    def marks(length: float) -> Iterable[tuple[float, bool]]:
        count = math.floor(length / minor + 1e-9)
        for index in range(count + 1):
            inches = index * minor
            yield inches, _is_multiple(inches, labelled)
        if not _is_multiple(length, minor):
            yield length, True

    for inches, major in marks(board.width):
        x = round(camera.to_screen(inches, 0)[0])
        size = long_tick if major else short_tick
        pygame.draw.line(surface, palette.TICK, (x, round(y0) + 1), (x, round(y0) + size))
        pygame.draw.line(surface, palette.TICK, (x, round(y1) - 1), (x, round(y1) - size))
        if major:
            for at, anchor in (
                ((x, y0 + long_tick + gap), "midtop"),
                ((x, y1 - long_tick - gap), "midbottom"),
            ):
                text(surface, fonts, _inches(inches), at, TICK_LABEL_SIZE, palette.TEXT, anchor)
    for inches, major in marks(board.height):
        y = round(camera.to_screen(0, inches)[1])
        size = long_tick if major else short_tick
        pygame.draw.line(surface, palette.TICK, (round(x0) - 1, y), (round(x0) - size, y))
        pygame.draw.line(surface, palette.TICK, (round(x1) + 1, y), (round(x1) + size, y))
        if major:
            for at, anchor in (
                ((x0 - long_tick - gap, y), "midright"),
                ((x1 + long_tick + gap, y), "midleft"),
            ):
                text(surface, fonts, _inches(inches), at, TICK_LABEL_SIZE, palette.TEXT, anchor)


def _is_multiple(value: float, step: float) -> bool:
    return abs(value / step - round(value / step)) < 1e-6


def _inches(value: float) -> str:
    return str(round(value)) if abs(value - round(value)) < 1e-6 else f"{value:.1f}"


# --------------------------------------------------------------------------- terrain


def draw_terrain(
    surface: pygame.Surface,
    camera: Camera,
    terrain: Sequence[Terrain],
    fonts: Fonts,
    labels: bool = True,
) -> None:
    """Terrain by kind (fill and hatching) and Surface Height (outline weight, R002.8).
    Only the pieces that reach the surface's clip are drawn (the whole of a clipped piece:
    pixels outside the clip are left alone)."""
    clip = surface.get_clip()
    x0, y1 = camera.to_world(clip.left - 2, clip.top - 2)
    x1, y0 = camera.to_world(clip.right + 2, clip.bottom + 2)
    visible = shapely.box(*camera.visible_bounds).intersection(shapely.box(x0, y0, x1, y1))
    shown = [piece for piece in terrain if piece.geometry.intersects(visible)]
    PygameCanvas(surface, camera).draw(scenes.terrain(shown, screen_look, palette.HATCH_SPACING))
    if labels:
        # every piece's name as the whole table places them (none over another), those
        # reaching the clip blitted: a slid picture's strips show the same names
        dx, dy = math.floor(camera.origin[0]), math.floor(camera.origin[1])
        surface.blits(
            [
                (picture, rect.move(dx, dy))
                for picture, rect in terrain_labels(camera, terrain, fonts)
                if clip.colliderect(rect.move(dx, dy))
            ],
            doreturn=False,
        )


_TERRAIN_LABELS: dict[str, tuple] = {}  # the last table's terrain names as placed


def terrain_labels(
    camera: Camera, terrain: Sequence[Terrain], fonts: Fonts
) -> list[tuple[pygame.Surface, pygame.Rect]]:
    """The terrain's names (`terrain_label`'s lines) of the whole table, the larger pieces'
    first, a piece's name left out where it would cover one placed already (two names
    run together read as neither; the hover card and the legend name the piece).
    Positions are pixels from the camera origin's whole part, worked out once per terrain
    and zoom (a pan by whole pixels moves them all)."""
    fraction = (camera.origin[0] % 1.0, camera.origin[1] % 1.0)
    key = (id(terrain), camera.scale, fraction, id(fonts))
    last = _TERRAIN_LABELS.get("last")
    if last is not None and last[0] == key and last[2] is terrain:
        return last[1]
    local = camera.panned(-math.floor(camera.origin[0]), -math.floor(camera.origin[1]))
    names = terrain_names(terrain)
    areas = [piece.geometry.area for piece in terrain]
    placed: list[tuple[pygame.Surface, pygame.Rect]] = []
    taken: list[pygame.Rect] = []
    for k in sorted(range(len(terrain)), key=lambda k: -areas[k]):
        piece = terrain[k]
        lines = terrain_label(local, piece, names[piece.id], fonts)
        if lines and all(rect.collidelist(taken) == -1 for _, rect in lines):
            placed.extend(lines)
            taken.extend(rect for _, rect in lines)
    _TERRAIN_LABELS["last"] = (key, placed, terrain)
    return placed


def screen_look(piece: Terrain) -> scenes.TerrainLook:
    """A piece's look on screen: its kind's fill, hatching and outline (palette), the
    outline's width by its Surface Height (R002.8)."""
    style = palette.terrain_style(piece.kind)
    width = palette.HEIGHT_OUTLINE.get(piece.height, 1)
    return scenes.TerrainLook(style.fill, style.outline, width, style.hatch, style.hatch_colour)


def draw_terrain_label(
    surface: pygame.Surface, camera: Camera, piece: Terrain, name: str, fonts: Fonts
) -> None:
    """The piece's `name` (`terrain_names`: its own, else its kind in words) and height class
    at its centre, when it is big enough on screen."""
    surface.blits(terrain_label(camera, piece, name, fonts), doreturn=False)


def terrain_label(
    camera: Camera, piece: Terrain, name: str, fonts: Fonts
) -> list[tuple[pygame.Surface, pygame.Rect]]:
    """`draw_terrain_label`'s lines: each picture and where it goes (none when the piece
    is too small on screen); the units' names keep clear of them."""
    # the screen bounds of the piece: its bounds through the camera (a scale and a shift
    # are monotonic, so these are the transformed geometry's bounds to the bit)
    left, bottom, right, top = piece.geometry.bounds
    x0, y0 = camera.to_screen(left, top)
    x1, y1 = camera.to_screen(right, bottom)
    if min(x1 - x0, y1 - y0) < 22:
        return []
    point = piece.geometry.representative_point()
    px, py = camera.to_screen(point.x, point.y)
    width = int(max(x1 - x0, 60) * 1.4)
    fitted = fonts.fit(name, TERRAIN_LABEL_SIZE, width)
    if fitted is None:
        return []
    shadow = palette.LABEL_SHADOW
    title = fonts.shadowed(fitted, TERRAIN_LABEL_SIZE, palette.TEXT, shadow)
    title_at = title.get_rect(midbottom=(round(px), round(py)))
    height = fonts.shadowed(str(piece.height), TERRAIN_LABEL_SIZE - 2, palette.TEXT_DIM, shadow)
    height_at = height.get_rect(midtop=(round(px), title_at.bottom + 1))
    return [(title, title_at), (height, height_at)]


def highlight_terrain(
    surface: pygame.Surface, camera: Camera, pieces: Iterable[Terrain], colour: Colour
) -> None:
    """Outline terrain pieces (the ones blocking a shown line of sight)."""
    style = Style(colour=colour, width=3)
    PygameCanvas(surface, camera).draw([Polygon(piece.geometry, style) for piece in pieces])


# --------------------------------------------------------------------------- deployment


def deployment_strip(board: Board, edge: str, depth: float) -> shapely.Polygon:
    """The strip `depth` inches deep along a board edge (R002.17: the edge's length x 8")."""
    width, height = board.width, board.height
    depth = min(depth, height if edge in ("bottom", "top") else width)
    boxes = {
        "bottom": (0, 0, width, depth),
        "top": (0, height - depth, width, height),
        "left": (0, 0, depth, height),
        "right": (width - depth, 0, width, height),
    }
    if edge not in boxes:
        raise ValueError(f"unknown edge {edge!r}")
    return shapely.box(*boxes[edge])


def draw_deployment_zone(
    surface: pygame.Surface, camera: Camera, board: Board, edge: str, depth: float, tint: RGBA
) -> None:
    """A translucent deployment strip along `edge`."""
    zone = deployment_strip(board, edge, depth)
    rect = pygame.Rect(camera.screen_rect(zone.bounds)).clip(surface.get_rect())
    if rect.width <= 0 or rect.height <= 0:
        return
    overlay = pygame.Surface(rect.size, pygame.SRCALPHA)
    overlay.fill(tint)
    surface.blit(overlay, rect)
    pygame.draw.rect(surface, tint[:3], camera.screen_rect(zone.bounds), 1)


# --------------------------------------------------------------------------- selection


def draw_selection_overlay(
    surface: pygame.Surface,
    camera: Camera,
    view: SelectionView,
    board: Board,
    fonts: Fonts,
) -> None:
    """A unit's arcs as translucent sectors and its range bands as rings, blended onto
    `surface` (`scenes.fire_arcs`, `scenes.range_rings`; `PygameCanvas` fills each arc on a
    scratch of its own, so where arcs overlap the tints blend and every arc stays
    visible, and draws the lines on one more, blended with what is below too)."""
    # within the surface's clip only: a slid picture redraws just its uncovered strips
    table = pygame.Rect(camera.screen_rect(board.bounds)).clip(surface.get_clip())
    if table.width <= 0 or table.height <= 0:
        return
    arcs = scenes.fire_arcs(view.arcs, board.bounds, palette.arc_tint, palette.ARC_EDGE_ALPHA)
    rings = scenes.range_rings(view.rings, palette.RANGE_RING)
    PygameCanvas(surface, camera, clip=table).draw(arcs + rings)
    # the rings' labels go on the frame, clear of the units' names (`ring_labels`)


def draw_sight_lines(
    surface: pygame.Surface,
    camera: Camera,
    view: SelectionView,
    width: int = 1,
    antialias: bool = True,
) -> None:
    """Lines of sight from the selected unit's centre to the units in range: green when
    clear, red when blocked (`antialias=False`: plain lines, several times cheaper, for a
    layer drawn every frame). The ends go to the screen in one array; the lines off the
    surface are not drawn."""
    lines = [line for line in view.sight_lines if line.in_range]
    if not lines:
        return
    points = camera.to_screen_array(
        np.array([(*line.start, *line.end) for line in lines]).reshape(-1, 2, 2)
    )
    box = surface.get_clip()
    low, high = points.min(axis=1), points.max(axis=1)
    shown = (high[:, 0] >= box.left - width) & (low[:, 0] <= box.right + width)
    shown &= (high[:, 1] >= box.top - width) & (low[:, 1] <= box.bottom + width)
    ends = points.tolist()
    draw = pygame.draw.aaline if antialias else pygame.draw.line
    # clear lines first so a blocked line crossing them stays visible
    for blocked in (False, True):
        colour = palette.LOS_BLOCKED if blocked else palette.LOS_CLEAR
        for k in np.flatnonzero(shown).tolist():
            if lines[k].clear != blocked:
                draw(surface, colour, ends[k][0], ends[k][1], width)


# --------------------------------------------------------------------------- legend


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
            LegendEntry(
                kind.replace("-", " "),
                "fill",
                style.fill,
                1,
                style.hatch,
                style.hatch_colour,
                style.outline,
            )
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
    "LABEL_HEIGHT",
    "LABEL_MIN_EXTENT",
    "SPRITE_LIMIT",
    "UNIT_LABEL_SIZE",
    "LabelLayout",
    "LegendEntry",
    "SizeClass",
    "UnitShapes",
    "UnitSprites",
    "deployment_strip",
    "draw_deployment_zone",
    "draw_edge_ticks",
    "draw_frame",
    "draw_grid",
    "draw_legend",
    "draw_selection_overlay",
    "draw_sight_lines",
    "draw_table",
    "draw_terrain",
    "draw_units",
    "highlight_terrain",
    "layout_labels",
    "layout_legend",
    "legend_entries",
    "legend_height",
    "polygons_of",
    "terrain_label",
    "terrain_labels",
]
