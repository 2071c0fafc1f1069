"""The adjudication card: one picture that settles "is it in arc? is it in range?".

Left, the table zoomed on the two bases: the measured segment (the witness) with its
length, the firer's arc boundary lines with the target's margin, the range-band edge
nearest the target, the line of sight (green clear, red blocked, blockers outlined);
right, the numbers and the SPEC ids that decided them. The values are a `CardView`
(`card_view`), built from the same `TableGeometry` as `tactical check`; what is drawn over
the table is `card_scene`'s, drawn here by `PygameCanvas` (and by `card_paper` on a PDF).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pygame

from tactical.drawing.wording import wrap
from tactical.ui import palette
from tactical.ui.camera import Camera, Margins
from tactical.ui.card_scene import (
    CardInks,
    card_lines,
    card_scene,
    card_title,
    focus_bounds,
    legend_items,
)
from tactical.ui.card_view import CardView, card_view
from tactical.ui.draw import PygameCanvas, text
from tactical.ui.fonts import Fonts, shared_fonts
from tactical.ui.layers import LegendEntry, draw_legend, draw_units, layout_legend, legend_height
from tactical.ui.render import check_size, checked_png_path, save_png
from tactical.ui.scene import SceneRenderer

CARD_SIZE = (1400, 900)
PANEL_WIDTH = 500
HEADER = 52
GAP = 16
LINE = 20
TEXT_SIZE = 14
HEAD_SIZE = 15
TITLE_SIZE = 19
SCREEN_INKS = CardInks(
    palette.CARD_WITNESS,
    palette.CARD_EDGE_WITNESS,
    palette.CARD_ARC_LINE,
    palette.CARD_BAND_EDGE,
    palette.LOS_CLEAR,
    palette.LOS_BLOCKED,
    palette.BLOCKING_HIGHLIGHT,
    palette.arc_tint,
    dot=3.5,  # a filled polygon covers its edge pixels: as wide as a circle of 4 pixels
    text_size=TEXT_SIZE,
    head_size=HEAD_SIZE,
)


@dataclass(frozen=True)
class CardLayout:
    """Where the card put the table: the camera of its zoomed view and the view's rectangle."""

    camera: Camera
    table_rect: pygame.Rect


def render_card(
    view: CardView, size: tuple[int, int] = CARD_SIZE, fonts: Fonts | None = None
) -> tuple[pygame.Surface, CardLayout]:
    """The card as a surface, with the layout (tests map table points to pixels with it)."""
    width, height = check_size(size)
    fonts = fonts or shared_fonts()
    surface = pygame.Surface((width, height))
    surface.fill(palette.SURROUND)
    panel = min(PANEL_WIDTH, width // 2)
    pane = pygame.Rect(GAP, HEADER, width - panel - 3 * GAP, height - HEADER - GAP)
    camera = Camera.fit(
        focus_bounds(view),
        (width, height),
        Margins(pane.left, pane.top, width - pane.right, height - pane.bottom),
    )
    _draw_table_pane(surface, view, camera, pane, fonts)
    _draw_header(surface, view, fonts)
    panel_rect = pygame.Rect(pane.right + GAP, HEADER, panel, pane.height)
    rows = layout_legend(fonts, _legend(view), panel_rect.width - 24)
    footer = legend_height(rows) + 40
    _draw_panel(surface, view, fonts, panel_rect, footer)
    draw_legend(surface, fonts, (panel_rect.left + 12, panel_rect.bottom - footer + 4), rows)
    _scale_bar(surface, camera, panel_rect.left + 14, panel_rect.bottom - 18, fonts)
    return surface, CardLayout(camera, pane)


def write_card(
    state, firer_id: str, target_id: str, path: str | os.PathLike[str], size=CARD_SIZE
) -> Path:
    """Check the output, build the card's values, draw and write the PNG atomically."""
    target = checked_png_path(path)
    view = card_view(state, firer_id, target_id)
    surface, _ = render_card(view, size)
    return save_png(surface, target)


# --------------------------------------------------------------------------- table pane


def _draw_table_pane(
    surface: pygame.Surface, view: CardView, camera: Camera, pane: pygame.Rect, fonts: Fonts
) -> None:
    """The table under the card's scene (`card_scene`), the units between its layers, its
    labels shadowed and kept inside the pane."""
    renderer = SceneRenderer(fonts)
    static = renderer.static_layer(view.state, camera, view.system, surface.get_size())
    previous_clip = surface.get_clip()
    surface.set_clip(pane)
    surface.blit(static, pane, pane)
    scene = card_scene(view, SCREEN_INKS, 1 / camera.scale)
    canvas = PygameCanvas(surface, camera)
    canvas.draw(scene.under)
    draw_units(surface, camera, renderer.unit_shapes(view.state), fonts, selected=view.firer.id)
    canvas.draw(scene.over)
    for label in scene.labels:
        colour = tuple(round(c) for c in label.style.colour or palette.TEXT)
        at = camera.to_screen(*label.at)
        _label(surface, fonts, label.text, at, colour, label.anchor, round(label.size))
    surface.set_clip(previous_clip)
    pygame.draw.rect(surface, palette.FRAME, pane, 1)


def _label(surface, fonts: Fonts, message: str, position, colour, anchor: str, size: int) -> None:
    """Shadowed text at `position`, moved inside the clip rectangle (the table pane)."""
    rendered = fonts.shadowed(message, size, colour, palette.LABEL_SHADOW)
    rect = rendered.get_rect(**{anchor: (round(position[0]), round(position[1]))})
    rect.clamp_ip(surface.get_clip().inflate(-8, -8))
    surface.blit(rendered, rect)


def _scale_bar(surface, camera: Camera, left: int, y: int, fonts: Fonts) -> None:
    """A bar of one inch (or more, to be at least 60 pixels) at (left, y): the zoom's scale."""
    inches = 1.0
    while camera.pixels(inches) < 60:
        inches *= 2
    length = camera.pixels(inches)
    pygame.draw.line(surface, palette.TEXT, (left, y), (left + length, y), 2)
    for x in (left, left + length):
        pygame.draw.line(surface, palette.TEXT, (x, y - 5), (x, y + 5), 2)
    text(
        surface,
        fonts,
        f'{inches:g}" on the table',
        (left + length + 8, y),
        12,
        palette.TEXT,
        "midleft",
    )


def _legend(view: CardView) -> list[LegendEntry]:
    return [
        LegendEntry(label, kind, colour, round(width))  # type: ignore[arg-type]
        for label, kind, colour, width in legend_items(view, SCREEN_INKS)
    ]


# --------------------------------------------------------------------------- text


def _draw_header(surface: pygame.Surface, view: CardView, fonts: Fonts) -> None:
    title, subtitle = card_title(view)
    fitted = fonts.fit(title, TITLE_SIZE, surface.get_width() - 2 * GAP) or ""
    text(surface, fonts, fitted, (GAP, 4), TITLE_SIZE, palette.TEXT, "topleft")
    fitted = fonts.fit(subtitle, 12, surface.get_width() - 2 * GAP) or ""
    text(surface, fonts, fitted, (GAP, HEADER - 3), 12, palette.TEXT_DIM, "bottomleft")


def _draw_panel(
    surface: pygame.Surface, view: CardView, fonts: Fonts, rect: pygame.Rect, footer: int
) -> None:
    """The numbers, top down, leaving `footer` pixels at the bottom for the legend."""
    surface.fill(palette.CARD_PANEL, rect)
    y = rect.top + 10
    styles = {
        "head": (HEAD_SIZE, palette.TEXT),
        "text": (TEXT_SIZE, palette.TEXT),
        "dim": (TEXT_SIZE - 1, palette.TEXT_DIM),
    }
    for style, line in card_lines(view):
        size, colour = styles[style]
        if style == "head":
            y += 6
        for part in wrap(line, rect.width - 24, lambda text, size=size: fonts.width(text, size)):
            if y + LINE > rect.bottom - footer:
                return
            indent = 0 if style == "head" else 10
            text(surface, fonts, part, (rect.left + 12 + indent, y), size, colour, "topleft")
            y += LINE
