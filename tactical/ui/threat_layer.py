"""Drawing the threat map, a unit's reach and move advice over the table.

The values come from `tactical.threat` (no rules here): the heatmap is one small RGBA
image, a pixel per 0.5" cell, scaled without smoothing onto the table's rectangle, so
every cell keeps its edges; the reach is its region tinted and outlined; each advised
move a ghost of the base at its end with its two numbers.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pygame

from tactical.drawing import scenes
from tactical.drawing.primitives import Raster
from tactical.model import Board, Unit
from tactical.threat.advice import Advice
from tactical.threat.heatmap import ThreatMap
from tactical.threat.reach import Reach
from tactical.ui import palette
from tactical.ui.camera import Camera
from tactical.ui.draw import PygameCanvas, fill_geometry, outline_geometry, raster_picture, text
from tactical.ui.fonts import Fonts
from tactical.ui.layers import LegendEntry

# low to high threat: transparent, then yellow through orange to red
RAMP = np.array(
    [(255, 235, 90, 70), (255, 170, 40, 105), (245, 90, 30, 135), (210, 20, 40, 165)],
    dtype=float,
)
REACH_FILL = (120, 255, 200, 60)
REACH_EDGE = (120, 255, 200)
GHOST = (255, 255, 255)
HEADING_TICKS = 80  # reach ends drawn with their heading


def heat_colours(values: np.ndarray) -> np.ndarray:
    """(ny, nx, 4) RGBA for `values` (0 transparent; the highest the ramp's last colour)."""
    return scenes.heat_colours(values, RAMP)


def heat_map(board: Board, threat: ThreatMap, damage: bool) -> Raster:
    """The threat map as drawn (`scenes.threat_map`): weapon counts, or the expected damage
    where known."""
    values = threat.damage if damage and threat.damage is not None else threat.count
    return scenes.threat_map(values, board.bounds, RAMP)


def heat_picture(
    camera: Camera, board: Board, threat: ThreatMap, damage: bool
) -> tuple[pygame.Surface, tuple[int, int]] | None:
    """The heatmap scaled onto the table's screen rectangle, and where it goes (None when
    the table is off screen): a picture kept while the camera stays."""
    return raster_picture(camera, heat_map(board, threat, damage))


def draw_threat(
    surface: pygame.Surface, camera: Camera, board: Board, threat: ThreatMap, damage: bool
) -> None:
    """The heatmap over the table (see `heat_map`)."""
    PygameCanvas(surface, camera).draw([heat_map(board, threat, damage)])


def draw_reach(surface: pygame.Surface, camera: Camera, found: Reach) -> None:
    """Where the unit's centre can end: the region tinted and outlined."""
    if found.region.is_empty:
        return
    scratch = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    fill_geometry(scratch, camera, found.region, REACH_FILL, hole=(0, 0, 0, 0), smooth_edge=False)
    surface.blit(scratch, (0, 0))
    outline_geometry(surface, camera, found.region, REACH_EDGE, 1)
    # the headings it can have there: a tick from a sample of the ends, along the heading
    if len(found) == 0:
        return
    picked = np.unique(np.linspace(0, len(found) - 1, min(len(found), HEADING_TICKS)).astype(int))
    length = max(6.0, camera.pixels(0.6))
    for x, y, heading in found.poses[picked]:
        px, py = camera.to_screen(float(x), float(y))
        dx, dy = camera.screen_direction(float(heading))
        pygame.draw.line(surface, REACH_EDGE, (px, py), (px + dx * length, py + dy * length), 1)
        pygame.draw.circle(surface, REACH_EDGE, (px, py), 2)


def draw_advice(
    surface: pygame.Surface,
    camera: Camera,
    unit: Unit,
    advice: Sequence[Advice],
    fonts: Fonts,
    list_at: tuple[int, int] | None = None,
    name: str = "",
) -> None:
    """Each advised end as a ghost of the base with its rank; with `list_at`, the ranked
    list (path, damage dealt next and taken) as a box with its top-left there, headed
    with the unit's `name` (its own name or id without it)."""
    for rank, move in enumerate(advice, start=1):
        ghost = unit.moved_to(move.pose).footprint
        outline_geometry(surface, camera, ghost, GHOST, 2)
        px, py = camera.to_screen(move.pose.x, move.pose.y)
        dx, dy = (
            math.sin(math.radians(move.pose.heading)),
            math.cos(math.radians(move.pose.heading)),
        )
        tip = camera.to_screen(move.pose.x + dx * 0.8, move.pose.y + dy * 0.8)
        pygame.draw.line(surface, GHOST, (px, py), tip, 2)
        text(surface, fonts, str(rank), (px, py), 15, GHOST, "center", shadow=palette.LABEL_SHADOW)
    if list_at is None or not advice:
        return
    lines = [f"Advice for {name or unit.name or unit.id} (nothing is moved):"] + [
        f"{rank}. {move.path}: deals {move.dealt:.2f}, takes {move.taken:.2f}"
        for rank, move in enumerate(advice, start=1)
    ]
    width = max(fonts.width(line, 12) for line in lines) + 16
    box = pygame.Rect(list_at, (width, 16 * len(lines) + 8))
    panel = pygame.Surface(box.size, pygame.SRCALPHA)
    panel.fill(palette.LEGEND_PANEL)
    surface.blit(panel, box)
    for k, line in enumerate(lines):
        text(
            surface, fonts, line, (box.left + 8, box.top + 4 + 16 * k), 12, palette.TEXT, "topleft"
        )


def threat_legend(threat: ThreatMap | None, damage: bool, found: Reach | None,
                  advice: Sequence[Advice],
                  names: Mapping[str, str] | None = None) -> list[LegendEntry]:  # fmt: skip
    """Legend entries for what is drawn, units by `names` (their shown names, by id)."""
    names = names or {}
    entries: list[LegendEntry] = []
    if threat is not None:
        showing_damage = damage and threat.damage is not None
        values = threat.damage if showing_damage else threat.count
        top = float(np.max(values)) if values.size else 0.0
        what = (
            f"threat to {names.get(threat.target, threat.target)}: "
            f"{threat.measure or 'expected damage'} up to {top:.2f}"
            if showing_damage
            else f"threat to {threat.side}: enemy weapons bearing, up to {top:.0f}"
        )
        entries.append(LegendEntry(what, "tint", tuple(int(c) for c in RAMP[-1])))
    if found is not None:
        name = names.get(found.unit_id, found.unit_id)
        entries.append(LegendEntry(f"reach of {name}", "tint", REACH_FILL))
    if advice:
        entries.append(LegendEntry("advised moves", "outline", GHOST, 2))
    return entries
