"""The adjudication card: one picture that settles "is it in arc? is it in range?".

Left, the table zoomed on the two bases: the measured segment (the witness) with its
length, the firer's arc boundary lines with the target's margin, the range-band edge
nearest the target, the line of sight (green clear, red blocked, blockers outlined);
right, the numbers and the SPEC ids that decided them. The values are a `CardView`
(`card_view`), built from the same `TableGeometry` as `tactical check`.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

import pygame
import shapely

from tactical.drawing.wording import wrap
from tactical.geometry.arcs import arc_region
from tactical.rules.conventions import band_name
from tactical.ui import palette
from tactical.ui.camera import Camera, Margins
from tactical.ui.card_view import ArcCall, CardView, card_view, margin_text
from tactical.ui.draw import fill_geometry, outline_geometry, polyline, text
from tactical.ui.fonts import Fonts, shared_fonts
from tactical.ui.layers import (
    LegendEntry,
    draw_legend,
    draw_units,
    highlight_terrain,
    layout_legend,
    legend_height,
)
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
PLACES = {"centre": "centre", "edge": "base edge", "nearest": "nearest point"}


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
        _focus_bounds(view),
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


def _focus_bounds(view: CardView) -> tuple[float, float, float, float]:
    """Both bases and the witness, with room around them for the labels."""
    shapes = [view.firer.footprint, view.target.footprint]
    for segment in (view.report.witness, view.report.edge_witness):
        if segment is not None:
            shapes.append(shapely.LineString([segment.start, segment.end]))
    x0, y0, x1, y1 = shapely.GeometryCollection(shapes).bounds
    pad = max(1.5, 0.18 * max(x1 - x0, y1 - y0))
    return x0 - pad, y0 - pad, x1 + pad, y1 + pad


def _draw_table_pane(
    surface: pygame.Surface, view: CardView, camera: Camera, pane: pygame.Rect, fonts: Fonts
) -> None:
    state, report = view.state, view.report
    renderer = SceneRenderer(fonts)
    static = renderer.static_layer(state, camera, view.system, surface.get_size())
    previous_clip = surface.get_clip()
    surface.set_clip(pane)
    surface.blit(static, pane, pane)
    blockers = [p for p in state.terrain if p.id in report.blocked_by]
    highlight_terrain(surface, camera, blockers, palette.BLOCKING_HIGHLIGHT)
    for model in report.blocking_models:  # the bases in the way (R002.41)
        if state.has_unit(model):
            outline_geometry(
                surface, camera, state.unit(model).footprint, palette.BLOCKING_HIGHLIGHT, 3
            )
    arcs = view.drawn_arcs
    _draw_arc_tints(surface, view, camera, pane, arcs)
    _draw_band_edge(surface, view, camera, fonts)
    for arc in arcs:
        for start, end in arc.lines:
            polyline(
                surface,
                palette.CARD_ARC_LINE,
                [camera.to_screen(*start), camera.to_screen(*end)],
                2,
            )
    start, end = (view.firer.x, view.firer.y), (view.target.x, view.target.y)
    los_colour = palette.LOS_CLEAR if report.los else palette.LOS_BLOCKED
    pygame.draw.aaline(surface, los_colour, camera.to_screen(*start), camera.to_screen(*end))
    draw_units(surface, camera, renderer.unit_shapes(state), fonts, selected=view.firer.id)
    _draw_witnesses(surface, view, camera, fonts)
    for arc in arcs:
        _arc_label(surface, view, camera, fonts, arc)
    _draw_band_edge(surface, view, camera, fonts, label=True)
    surface.set_clip(previous_clip)
    pygame.draw.rect(surface, palette.FRAME, pane, 1)


def _draw_arc_tints(surface, view: CardView, camera: Camera, pane, arcs) -> None:
    own = {arc.name: arc for arc in view.system.unit_arcs(view.firer)}
    reach = max(view.report.centre_distance * 1.25, view.report.centre_distance + 3.0)
    scratch = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    for index, call in enumerate(arcs):
        region = arc_region(view.firer.pose, view.firer.base, own[call.name], reach)
        if not region.is_empty:
            fill_geometry(scratch, camera, region, palette.arc_tint(index), smooth_edge=False)
    surface.blit(scratch, (0, 0))


def _draw_band_edge(
    surface, view: CardView, camera: Camera, fonts: Fonts, label: bool = False
) -> None:
    """The ring of the band edge nearest the target; with `label`, only its label (drawn over
    the units)."""
    edge = view.band_edge
    if edge is None or edge.limit <= 0:
        return
    firer = view.firer
    measured_from = (
        firer.footprint
        if view.conventions.distance_from == "edge"
        else shapely.Point(firer.x, firer.y)
    )
    ring = measured_from.buffer(edge.limit, quad_segs=128).exterior
    if not label:
        outline_geometry(surface, camera, ring, palette.CARD_BAND_EDGE, 2)
        return
    # label the ring where it passes nearest the target
    point = ring.interpolate(ring.project(shapely.Point(view.target.x, view.target.y)))
    px, py = camera.to_screen(point.x, point.y)
    _label(
        surface,
        fonts,
        f'{band_name(edge.inside)} ends at {edge.limit:.2f}"',
        (px + 8, py - 8),
        palette.CARD_BAND_EDGE,
        "bottomleft",
    )


def _label(surface, fonts: Fonts, message: str, position, colour, anchor: str) -> None:
    """Shadowed text at `position`, moved inside the clip rectangle (the table pane)."""
    rendered = fonts.shadowed(message, TEXT_SIZE, colour, palette.LABEL_SHADOW)
    rect = rendered.get_rect(**{anchor: (round(position[0]), round(position[1]))})
    rect.clamp_ip(surface.get_clip().inflate(-8, -8))
    surface.blit(rendered, rect)


def _draw_witnesses(surface, view: CardView, camera: Camera, fonts: Fonts) -> None:
    report = view.report
    edge = report.edge_witness
    if (
        edge is not None
        and report.witness is not None
        and (
            math.dist(edge.start, report.witness.start) > 1e-6
            or math.dist(edge.end, report.witness.end) > 1e-6
        )
    ):
        a, b = camera.to_screen(*edge.start), camera.to_screen(*edge.end)
        pygame.draw.line(surface, palette.CARD_EDGE_WITNESS, a, b, 1)
    witness = report.witness
    if witness is None:
        return
    a, b = camera.to_screen(*witness.start), camera.to_screen(*witness.end)
    pygame.draw.line(surface, palette.CARD_WITNESS, a, b, 3)
    for point in (a, b):
        pygame.draw.circle(surface, palette.CARD_WITNESS, point, 4)
    middle = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    text(
        surface,
        fonts,
        f'{report.distance:.2f}"',
        (middle[0], middle[1] - 10),
        HEAD_SIZE,
        palette.CARD_WITNESS,
        "midbottom",
        shadow=palette.LABEL_SHADOW,
    )


def _arc_label(surface, view: CardView, camera: Camera, fonts: Fonts, arc: ArcCall) -> None:
    """The arc's name and the target's margin, on the line nearer the target, level with it."""
    target = shapely.Point(view.target.x, view.target.y)
    line = min((shapely.LineString(s) for s in arc.lines), key=target.distance)
    point = line.interpolate(min(line.project(target), line.length))
    px, py = camera.to_screen(point.x, point.y)
    _label(
        surface,
        fonts,
        f"{arc.name} line: target margin {margin_text(arc.margin)}",
        (px, py - 6),
        palette.CARD_ARC_LINE,
        "midbottom",
    )


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
    entries = [
        LegendEntry("range measured", "line", palette.CARD_WITNESS, 3),
        LegendEntry("edge to edge", "line", palette.CARD_EDGE_WITNESS, 1),
        LegendEntry("arc lines", "line", palette.CARD_ARC_LINE, 2),
    ]
    if view.band_edge is not None:
        entries.append(LegendEntry("band edge", "line", palette.CARD_BAND_EDGE, 2))
    entries.append(LegendEntry("LOS clear", "line", palette.LOS_CLEAR, 2))
    entries.append(LegendEntry("LOS blocked", "line", palette.LOS_BLOCKED, 2))
    if view.report.blocked_by or view.report.blocking_models:
        entries.append(LegendEntry("blocking", "outline", palette.BLOCKING_HIGHLIGHT, 3))
    return entries


# --------------------------------------------------------------------------- text


def _draw_header(surface: pygame.Surface, view: CardView, fonts: Fonts) -> None:
    firer, target = view.firer, view.target
    title = (
        f"Adjudication: {view.state.shown_names.get(firer.id, firer.id)} ({firer.id}) firing "
        f"on {view.state.shown_names.get(target.id, target.id)} ({target.id})"
    )
    fitted = fonts.fit(title, TITLE_SIZE, surface.get_width() - 2 * GAP) or ""
    text(surface, fonts, fitted, (GAP, 4), TITLE_SIZE, palette.TEXT, "topleft")
    map_title = view.state.title or "untitled map"
    right = f"{map_title} · {view.system.title}"
    fitted = fonts.fit(right, 12, surface.get_width() - 2 * GAP) or ""
    text(surface, fonts, fitted, (GAP, HEADER - 3), 12, palette.TEXT_DIM, "bottomleft")


def card_lines(view: CardView) -> list[tuple[str, str]]:
    """The panel's text as (style, line): "head", "text" or "dim"."""
    report, conventions = view.report, view.conventions

    def cited(question: str) -> str:
        spec = conventions.citation(question)
        return f" ({spec})" if spec else ""

    lines: list[tuple[str, str]] = [("head", "Range" + cited("range"))]
    measured = (
        f"from the firer's {PLACES[conventions.distance_from]} to the target's "
        f"{PLACES[conventions.distance_to]}"
    )
    band = band_name(report.range_band) if report.range_band else "out of range"
    lines.append(("text", f'{report.distance:.2f}" {measured}: {band}'))
    if report.witness is not None:
        w = report.witness
        lines.append(
            (
                "dim",
                f"measured ({w.start[0]:.2f}, {w.start[1]:.2f}) to "
                f"({w.end[0]:.2f}, {w.end[1]:.2f})",
            )
        )
    edge = view.band_edge
    if edge is not None:
        side = "inside" if edge.margin >= 0 else "beyond"
        lines.append(
            (
                "text",
                f'nearest band edge: {band_name(edge.inside)} ends at {edge.limit:.2f}" '
                f"({band_name(edge.outside) if edge.outside else 'out of range'} beyond); "
                "the target is "
                f'{abs(edge.margin):.2f}" {side} it',
            )
        )
    lines.append(
        (
            "dim",
            f'centre to centre {report.centre_distance:.2f}", edge to edge '
            f'{report.edge_distance:.2f}"',
        )
    )
    lines.append(("head", "Arcs" + cited("arcs")))
    test = "its centre" if conventions.arc_test == "centre" else "any part of its base"
    lines.append(
        ("text", f"bearing {report.bearing:.2f}° ({report.centre_arc}); in an arc by {test}")
    )
    held = ", ".join(report.arcs) or "none of the firer's arcs"
    lines.append(("text", f"in: {held}"))
    for arc in view.arcs:
        verdict = "holds the target" if arc.holds else "misses"
        if math.isinf(arc.margin.value):
            lines.append(("dim", f"{arc.name}: every bearing ({verdict})"))
        else:
            lines.append(
                ("dim", f"{arc.name}: centre margin {margin_text(arc.margin)} ({verdict})")
            )
    lines.append(("head", "Line of sight" + cited("line of sight")))
    if report.los:
        lines.append(("text", "clear, centre to centre"))
    else:
        pieces = view.state.shown_terrain_names
        named = [pieces.get(t, "terrain") for t in report.blocked_by]  # names, never ids
        if report.blocked_by:
            lines.append(("text", "blocked by " + ", ".join(named)))
        if report.blocking_models:  # by the names a player reads, never the ids
            models = report.blocking_model_names
            which = "the model " if len(models) == 1 else "the models "
            lead = "and by " if report.blocked_by else "blocked by "
            lines.append(("text", lead + which + ", ".join(models)))
    if view.weapons:
        lines.append(("head", "Weapons"))
        grouped: dict[tuple[str, str | None], list[str]] = {}
        for verdict in view.weapons:
            if verdict.may_fire:
                lines.append(("text", f"{verdict.weapon}: may fire"))
            else:
                grouped.setdefault((verdict.reason, verdict.spec_id), []).append(verdict.weapon)
        for (reason, spec_id), names in grouped.items():
            spec = f" ({spec_id})" if spec_id and spec_id not in reason else ""
            lines.append(("text", f"{', '.join(names)}: no, {reason}{spec}"))
    return lines


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
