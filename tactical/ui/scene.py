"""Frames of a table: static layers cached per camera, units and overlays drawn per frame.

`SceneRenderer` is the one object the play screen and `render_state` share.
It keeps three caches, each keyed by the values it was drawn from (cameras
and model values are immutable, so equality is the whole story):

- the static layer (table, grid and area names, edge ticks, terrain), redrawn
  only when the camera, the board, the terrain or the target size changes;
- the selected unit's `SelectionView` (arcs, range rings, lines of sight),
  recomputed only when the map's units, terrain or options or the selection change;
- that view rasterised as a translucent overlay, redrawn when the view or the
  camera changes.

Per frame it blits the two cached surfaces and draws the sight lines and the
units on top.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pygame

from tactical.geometry.los import TerrainIndex
from tactical.model import GameState
from tactical.rules.base import RuleSystem
from tactical.ui import palette
from tactical.ui.camera import Camera
from tactical.ui.fonts import Fonts, shared_fonts
from tactical.ui.layers import (
    UnitShapes,
    draw_edge_ticks,
    draw_frame,
    draw_grid,
    draw_selection_overlay,
    draw_sight_lines,
    draw_table,
    draw_terrain,
    draw_units,
    highlight_terrain,
)
from tactical.ui.selection import SelectionView, selection_view, terrain_index_of


@dataclass
class _Cached:
    key: Any
    value: Any


class SceneRenderer:
    """Draws frames of a GameState through a Camera, caching what does not change."""

    def __init__(self, fonts: Fonts | None = None, terrain_labels: bool = True) -> None:
        self.fonts = fonts or shared_fonts()
        self.terrain_labels = terrain_labels
        self._static: _Cached | None = None
        self._units: _Cached | None = None
        self._index: _Cached | None = None
        self._view: _Cached | None = None
        self._overlay: _Cached | None = None

    # ------------------------------------------------------------------ frame

    def draw(
        self,
        target: pygame.Surface,
        state: GameState,
        camera: Camera,
        system: RuleSystem,
        selected: str | None = None,
        sight_lines: bool = True,
    ) -> SelectionView | None:
        """Draw one frame onto `target`; returns the selection's view (for legends, panels)."""
        target.blit(self.static_layer(state, camera, system, target.get_size()), (0, 0))
        view = None
        if selected is not None:
            view = self.selection(state, system, selected, sight_lines)
            overlay, dirty = self.overlay(view, camera, state, target.get_size())
            if dirty.width and dirty.height:
                target.blit(overlay, dirty, dirty)
            if view.blocking:
                pieces = [p for p in state.terrain if p.id in set(view.blocking)]
                highlight_terrain(target, camera, pieces, palette.BLOCKING_HIGHLIGHT)
            draw_sight_lines(target, camera, view, width=2 if camera.scale >= 12 else 1)
        draw_units(target, camera, self.unit_shapes(state), self.fonts, selected)
        return view

    # ------------------------------------------------------------------ cached parts

    def static_layer(
        self, state: GameState, camera: Camera, system: RuleSystem, size: tuple[int, int]
    ) -> pygame.Surface:
        """Table, grid with area names, edge ticks and terrain: drawn once per camera change."""
        key = (
            camera,
            tuple(size),
            state.board,
            state.terrain,
            system.background,
            self.terrain_labels,
        )
        if self._static is None or self._static.key != key:
            surface = pygame.Surface(size)
            look = palette.background(system.background)
            draw_table(surface, camera, state.board, look)
            draw_grid(surface, camera, state.board, look, self.fonts)
            draw_terrain(surface, camera, state.terrain, self.fonts, labels=self.terrain_labels)
            draw_frame(surface, camera, state.board)
            draw_edge_ticks(surface, camera, state.board, self.fonts)
            self._static = _Cached(key, surface)
        return self._static.value

    def unit_shapes(self, state: GameState) -> UnitShapes:
        """The units' geometry arrays, rebuilt only when the units change."""
        if self._units is None or self._units.key is not state.units:
            if self._units is None or self._units.key != state.units:
                colours = palette.side_colours(state.sides)
                self._units = _Cached(state.units, UnitShapes.of(state.units, colours))
            else:
                self._units.key = state.units
        return self._units.value

    def selection(
        self, state: GameState, system: RuleSystem, unit_id: str, sight_lines: bool = True
    ) -> SelectionView:
        """The selected unit's arcs, rings and lines of sight, recomputed only on change."""
        key = (
            system.id,
            state.board,
            state.options,
            state.terrain,
            state.units,
            unit_id,
            sight_lines,
        )
        if self._view is None or self._view.key != key:
            view = selection_view(
                state,
                system,
                unit_id,
                sight_lines=sight_lines,
                terrain_index=self.terrain_index(state) if sight_lines else None,
            )
            self._view = _Cached(key, view)
        return self._view.value

    def terrain_index(self, state: GameState) -> TerrainIndex:
        """The LOS index of the map's terrain, rebuilt only when the terrain changes."""
        if self._index is None or self._index.key != state.terrain:
            self._index = _Cached(state.terrain, terrain_index_of(state))
        return self._index.value

    def overlay(
        self, view: SelectionView, camera: Camera, state: GameState, size: tuple[int, int]
    ) -> tuple[pygame.Surface, pygame.Rect]:
        """The view's arcs and rings rasterised (SRCALPHA) and the rect that holds them."""
        key = (view, camera, tuple(size), state.board)
        if self._overlay is None or self._overlay.key != key:
            previous = self._overlay.value[0] if self._overlay else None
            surface = (
                previous
                if previous is not None and previous.get_size() == tuple(size)
                else pygame.Surface(size, pygame.SRCALPHA)
            )
            draw_selection_overlay(surface, camera, view, state.board, self.fonts)
            dirty = surface.get_bounding_rect()
            self._overlay = _Cached(key, (surface, dirty))
        return self._overlay.value
