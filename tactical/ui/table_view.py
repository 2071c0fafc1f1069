"""The table as the play screen draws it: the scene, zones, area rolls, legend, pair, ruler.

`TableView.draw` keeps the table with its selection, zones, roll labels and
legend as one picture until the model or the view under it changes, and the
hover pair on a copy of it; a frame is then a blit, the mode's overlays and the
ruler. While the view is dragged the last picture slides with it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pygame

from tactical.model import GameState
from tactical.present.selection import SelectionView
from tactical.rules.base import RuleSystem
from tactical.rules.measuring import PairReport
from tactical.session.deployment import Deployment
from tactical.ui import palette
from tactical.ui.draw import outline_geometry, text
from tactical.ui.fight_layer import Fades
from tactical.ui.layers import (
    LegendEntry,
    draw_deployment_zone,
    draw_legend,
    highlight_terrain,
    layout_legend,
    legend_entries,
    legend_height,
)
from tactical.ui.scene import SceneRenderer
from tactical.ui.services import PANEL_WIDTH, STATUS_BAR, TICK_BAND
from tactical.ui.status_tokens import StatusBoard
from tactical.ui.view import Ruler, ViewState

ZONE_ALPHA = 60
RULER_COLOUR = (255, 230, 0)


@dataclass(frozen=True)
class TableScene:
    """What one frame of the table shows besides the model and the view."""

    state: GameState
    system: RuleSystem
    deployment: Deployment | None = None
    moving: bool = False  # a move is drawn: the selection's arcs are shown where it ends
    panning: bool = False  # the view is being dragged: slide the last picture
    tokens: bool = True  # each unit's status token (damage bar, pips, marks)
    legend: tuple[LegendEntry, ...] = ()  # the mode's own layers (threat, reach, advice)


class TableView:
    """The cached table picture and the per-frame drawing over it."""

    def __init__(self, renderer: SceneRenderer) -> None:
        self.renderer = renderer
        self.tokens = StatusBoard()
        self.fades = Fades()  # the units gone from the table, fading out
        self.base: tuple[GameState, tuple, pygame.Surface] | None = None
        self.composite: tuple[GameState, tuple, pygame.Surface] | None = None

    def draw(
        self,
        surface: pygame.Surface,
        scene: TableScene,
        view: ViewState,
        pair: Callable[[], PairReport | None],
        hover_key: object,
        overlay: Callable[[pygame.Surface], None],
    ) -> None:
        """One frame: the table picture (redrawn only when its key changes), the hover pair,
        the mode's `overlay`, the ruler."""
        state = scene.state
        size = surface.get_size()
        self.fades.follow(state)
        base_key = (
            view.camera,
            size,
            view.selected,
            view.area_rolls,
            scene.deployment,
            scene.system.id,
            scene.moving,
            scene.tokens,
            scene.legend,
        )
        base = self.base
        if scene.panning and base is not None and _pans(base, state, base_key):
            old = base[1][0]
            offset = (
                round(view.camera.origin[0] - old.origin[0]),
                round(view.camera.origin[1] - old.origin[1]),
            )
            surface.fill(palette.SURROUND)
            surface.blit(base[2], offset)
            self.fades.draw(surface, view.camera)
            overlay(surface)
            self.draw_ruler(surface, view)
            return
        if base is None or base[0] is not state or base[1] != base_key:
            picture = base[2] if base and base[2].get_size() == size else pygame.Surface(size)
            self._draw_table(picture, scene, view)
            self.base = base = (state, base_key, picture)
            self.composite = None
        key = (base_key, view.hovered, hover_key)
        top = self.composite
        if top is None or top[0] is not state or top[1] != key:
            report = pair()
            picture = base[2]
            if report is not None:
                picture = picture.copy()
                self._draw_pair(picture, state, view, report)
            self.composite = top = (state, key, picture)
        surface.blit(top[2], (0, 0))
        self.fades.draw(surface, view.camera)
        overlay(surface)
        self.draw_ruler(surface, view)

    def _draw_table(self, surface: pygame.Surface, scene: TableScene, view: ViewState) -> None:
        camera = view.camera
        state = scene.state
        fonts = self.renderer.fonts
        # where the tokens go first: the units' names are laid out clear of them
        tokens = (
            self.tokens.token_boxes(camera, state, scene.system, fonts) if scene.tokens else None
        )
        selection = self.renderer.draw(
            surface,
            state,
            camera,
            scene.system,
            selected=view.selected,
            overlay=not scene.moving,
            tokens=tokens,
        )
        if scene.tokens:
            self.tokens.draw(
                surface,
                camera,
                state,
                scene.system,
                fonts,
                # the units', the terrain's and the range bands' names: marks keep off them
                names=[
                    *self.renderer.label_rects(state, camera, view.selected),
                    *self.renderer.label_boxes(),
                ],
                selected=view.selected,
            )
        self.renderer.mark_boxes = (
            [block.rect for block in self.tokens.marks] if scene.tokens else []
        )
        if scene.deployment is not None:
            colours = palette.side_colours(state.sides)
            for side, zone in scene.deployment.zones.items():
                depth = zone.y1 - zone.y0 if zone.edge in ("bottom", "top") else zone.x1 - zone.x0
                tint = (*colours.get(side, (200, 200, 200)), ZONE_ALPHA)
                draw_deployment_zone(surface, camera, state.board, zone.edge, depth, tint)
        self._draw_area_rolls(surface, state, view)
        self._draw_legend(surface, state, selection, scene.legend)

    def _draw_legend(
        self,
        surface: pygame.Surface,
        state: GameState,
        selection: SelectionView | None,
        extra: tuple[LegendEntry, ...] = (),
    ) -> None:
        """Terrain kinds and heights, sides and the selection's overlays, above the status."""
        colours = palette.side_colours(state.sides)
        width, height = surface.get_size()
        fonts = self.renderer.fonts
        # left of the mode's panel, which runs down to the window's bottom
        room = width - PANEL_WIDTH - 8 - 2 * TICK_BAND
        rows = layout_legend(fonts, [*legend_entries(state, colours, selection), *extra], room)
        top = height - STATUS_BAR - legend_height(rows) - 4
        surface.fill(palette.SURROUND, (0, top - 4, width - PANEL_WIDTH - 8, height - top + 4))
        draw_legend(surface, fonts, (TICK_BAND, top), rows)

    def _draw_area_rolls(self, surface: pygame.Surface, state: GameState, view: ViewState) -> None:
        if not view.area_rolls:
            return
        areas = {area.name: area for area in state.board.areas}
        fonts = self.renderer.fonts
        for name, rolls in view.area_rolls:
            area = areas.get(name)
            if area is None:
                continue
            centre = view.camera.to_screen((area.x0 + area.x1) / 2, (area.y0 + area.y1) / 2)
            position = (round(centre[0]), round(centre[1]) + 16)
            text(surface, fonts, f"{name}: {rolls}", position, 14, palette.TEXT, "center")

    def _draw_pair(
        self, surface: pygame.Surface, state: GameState, view: ViewState, report: PairReport
    ) -> None:
        camera = view.camera
        fonts = self.renderer.fonts
        source = state.unit(report.source)
        target = state.unit(report.target)
        if not report.los and report.blocked_by:
            pieces = [p for p in state.terrain if p.id in set(report.blocked_by)]
            highlight_terrain(surface, camera, pieces, palette.BLOCKING_HIGHLIGHT)
        for model in report.blocking_models:  # the bases in the way (R002.41)
            if state.has_unit(model):
                outline_geometry(
                    surface, camera, state.unit(model).footprint, palette.BLOCKING_HIGHLIGHT, 3
                )
        colour = (60, 210, 90) if report.los else (230, 60, 60)
        pygame.draw.line(
            surface,
            colour,
            camera.to_screen(source.x, source.y),
            camera.to_screen(target.x, target.y),
            2,
        )
        witnesses = ((report.edge_witness, (255, 220, 80), -12), (report.witness, None, 12))
        for witness, tint, lift in witnesses:
            if witness is None:
                continue
            start = camera.to_screen(*witness.start)
            end = camera.to_screen(*witness.end)
            pygame.draw.line(surface, tint or (255, 255, 255), start, end, 2)
            middle = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2 + lift)
            label = f'{witness.distance:.2f}"'
            # on a plate: the distance pointed at stays readable over the range rings'
            # lines and labels of the selected unit it is drawn across
            rendered = fonts.render(label, 14, palette.TEXT)
            rect = rendered.get_rect(center=(round(middle[0]), round(middle[1])))
            plate = pygame.Surface(rect.inflate(6, 2).size, pygame.SRCALPHA)
            plate.fill(palette.LEGEND_PANEL)
            surface.blit(plate, rect.inflate(6, 2))
            surface.blit(rendered, rect)

    def draw_ruler(self, surface: pygame.Surface, view: ViewState) -> None:
        ruler: Ruler | None = view.ruler
        if ruler is None:
            return
        camera = view.camera
        start = camera.to_screen(*ruler.start)
        pygame.draw.circle(surface, RULER_COLOUR, start, 4)
        if ruler.end is None:
            return
        end = camera.to_screen(*ruler.end)
        pygame.draw.line(surface, RULER_COLOUR, start, end, 2)
        pygame.draw.circle(surface, RULER_COLOUR, end, 4)
        fonts = self.renderer.fonts
        reading = fonts.render(f'{ruler.length:.2f}"', 16, RULER_COLOUR)
        rect = _reading_place(
            reading.get_size(), start, end, self.label_boxes(), surface.get_rect()
        )
        plate = pygame.Surface(rect.inflate(6, 2).size, pygame.SRCALPHA)
        plate.fill(palette.LEGEND_PANEL)
        surface.blit(plate, rect.inflate(6, 2))
        surface.blit(reading, rect)

    def label_boxes(self) -> list[pygame.Rect]:
        """Every text on the table of the last picture: the units', terrain's and range
        bands' names and the marks (a reading drawn over the table keeps off them)."""
        return self.renderer.label_boxes()


def _reading_place(
    size: tuple[int, int],
    start: tuple[float, float],
    end: tuple[float, float],
    avoid: list[pygame.Rect],
    bounds: pygame.Rect,
) -> pygame.Rect:
    """Where a ruler's reading goes: above the ruler's middle, else below it, beside it,
    or by either end, the first place clear of `avoid` (the names on the table: a reading
    over a name reads as neither) inside `bounds`; above the middle where none is."""
    rect = pygame.Rect((0, 0), size)
    width = size[0]
    places = []
    for t in (0.5, 0.35, 0.65, 0.2, 0.8):
        x = start[0] + (end[0] - start[0]) * t
        y = start[1] + (end[1] - start[1]) * t
        for ox, oy in ((0, -14), (0, 14), (width / 2 + 10, 0), (-width / 2 - 10, 0)):
            place = rect.copy()
            place.center = (round(x + ox), round(y + oy))
            places.append(place)
    inside = [place for place in places if bounds.contains(place)] or places
    clear = (place for place in inside if place.inflate(6, 2).collidelist(avoid) == -1)
    return next(clear, inside[0])


def _pans(base: tuple, state: GameState, key: tuple) -> bool:
    """Whether `key` differs from the cached table's only by where the camera is."""
    old = base[1]
    return (
        base[0] is state
        and old[1:] == key[1:]
        and old[0].scale == key[0].scale
        and old[0].viewport == key[0].viewport
    )
