"""Frames of a table: static layers cached per camera, units and overlays drawn per frame.

`SceneRenderer` is the one object the play screen and `render_state` share.
It keeps three caches, each keyed by the values it was drawn from (cameras
and model values are immutable, so equality is the whole story):

- the static layer (table, grid and area names, edge ticks, terrain), redrawn
  only when the camera, the board, the terrain or the target size changes;
- the selected unit's `SelectionView` (arcs, range rings, lines of sight),
  recomputed only when the map's units, terrain or options or the selection change;
- the static layer with that view drawn in (translucent arcs, range rings, the
  blocking terrain's highlight, the lines of sight), redrawn when the view or
  the camera changes.

Per frame it blits that one cached surface and draws the units on top; a frame
with the same base, units, camera and selection as the last one is that frame,
blitted again (the units and their labels are not redrawn).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pygame

from tactical.model import GameState
from tactical.present.selection import SelectionView, selection_view
from tactical.rules.base import RuleSystem, last_seen
from tactical.rules.measuring import TableGeometry
from tactical.ui import palette
from tactical.ui.camera import Camera
from tactical.ui.fonts import Fonts, shared_fonts
from tactical.ui.layers import (
    LabelLayout,
    UnitShapes,
    UnitSprites,
    draw_edge_ticks,
    draw_frame,
    draw_grid,
    draw_selection_overlay,
    draw_sight_lines,
    draw_table,
    draw_terrain,
    draw_units,
    highlight_terrain,
    layout_labels,
    terrain_labels,
)
from tactical.ui.mark_layout import NAME_MARGIN
from tactical.ui.ring_labels import RingLabel, draw_ring_labels, place_ring_labels
from tactical.ui.units_layer import base_boxes

STATICS_KEPT = 3  # older static pictures kept (a zoom back, a pan back)
LABEL_LAYOUTS_KEPT = 8  # the whole table's and the selected unit's, for four zoom levels
EDGE_BAND = 3  # pixels redrawn past a slid picture's uncovered strip


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
        self._faded: frozenset[str] = frozenset()
        self._geometry: _Cached | None = None
        self._view: _Cached | None = None
        self._overlay: _Cached | None = None
        self._frame: _Cached | None = None  # the last frame: base, overlay and units
        self._spare_static: pygame.Surface | None = None  # the static layer before the last
        # label layouts by (units, scale, origin fraction, selected or None), newest last
        self._labels: OrderedDict[tuple, tuple[UnitShapes, LabelLayout, tuple]] = OrderedDict()
        self._sprites = UnitSprites()
        self._tokens: Mapping[str, pygame.Rect] | None = None  # the last frame's tokens
        self.ring_labels: list[RingLabel] = []  # the last frame's range-band labels
        self._drawn: tuple | None = None  # the last frame's state, camera, size, selection
        self.mark_boxes: list[pygame.Rect] = []  # where the last table's marks went
        self._table: tuple[float, float, float, float] | None = None  # and table's bounds
        self._terrain: tuple = ()  # and terrain
        self._named: tuple | None = None  # the terrain names' places (`_terrain_names`)
        self._static_generation = 0  # names the static picture in use: composites depend on it
        self._generations = 0  # static pictures drawn so far
        self._recent_statics: list[tuple[_Cached, int]] = []  # older static pictures

    # ------------------------------------------------------------------ frame

    def draw(
        self,
        target: pygame.Surface,
        state: GameState,
        camera: Camera,
        system: RuleSystem,
        selected: str | None = None,
        sight_lines: bool = True,
        overlay: bool = True,
        tokens: Mapping[str, pygame.Rect] | None = None,
    ) -> SelectionView | None:
        """Draw one frame onto `target`; returns the selection's view (for legends, panels).
        `overlay=False` draws the selected unit highlighted but without its arcs, rings and
        lines of sight (a move being drawn shows them where it ends instead). `tokens` are
        where the units' status tokens go (`StatusBoard.token_boxes`): no name covers one."""
        base = self.static_layer(state, camera, system, target.get_size())
        view = None
        base_key: Any = ("static", self._static_generation)
        if selected is not None and overlay:
            view = self.selection(state, system, selected, sight_lines)
            base = self.composite(base, view, camera, state)
            base_key = self._overlay.key if self._overlay else None
        self._tokens = tokens
        self._table = state.board.bounds
        self._terrain = state.terrain
        token_key = _tokens_key(tokens)
        key = (base_key, state.units, last_seen(state), camera, selected, target.get_size())
        key += (token_key,)  # a side's view may fade a unit standing as it truly does
        frame = self._frame
        if frame is None or frame.key != key:
            picture = frame.value if frame and frame.value.get_size() == base.get_size() else None
            picture = picture or pygame.Surface(base.get_size())
            picture.blit(base, (0, 0))
            shapes = self.unit_shapes(state)
            draw_units(
                picture, camera, shapes, self.fonts, selected, labels=False, sprites=self._sprites
            )
            layouts = self.label_layouts(state, camera, selected)
            layouts[0].draw(picture, camera, layouts[1] if len(layouts) > 1 else None)
            self.ring_labels = []
            if view is not None and view.rings:
                self.ring_labels = self._ring_labels(state, camera, view, picture.get_size())
                draw_ring_labels(picture, self.fonts, self.ring_labels)
            self._frame = frame = _Cached(key, picture)
            self._drawn = (state, camera, target.get_size(), selected)
        target.blit(frame.value, (0, 0))
        return view

    def label_boxes(self) -> list[pygame.Rect]:
        """Where every text the last frame put on the table is, on screen: the units'
        names, the terrain's and the range bands', and the marks its table view drew
        (`mark_boxes`): what a reading drawn over the table, a ruler's or an attack's,
        keeps clear of."""
        if self._drawn is None:
            return []
        state, camera, size, selected = self._drawn
        boxes = [rect for _, rect, _, _ in self.drawn_labels(state, camera, size, selected)]
        dx, dy = math.floor(camera.origin[0]), math.floor(camera.origin[1])
        fraction = (camera.origin[0] % 1.0, camera.origin[1] % 1.0)
        boxes += [
            rect.move(dx, dy) for rect in self._terrain_names(state.terrain, camera, fraction)
        ]
        boxes += [label.rect for label in self.ring_labels]
        return boxes + list(self.mark_boxes)

    def redraw_labels(self, surface: pygame.Surface, camera: Camera) -> None:
        """The last frame's units' names and range bands' labels blitted again through
        `camera` (the same zoom, perhaps panned): over a layer drawn on the table (the
        threat map's heat), each where it was, not placed anew (a second layout put two
        ships' names twice, each in another place)."""
        if self._drawn is None:
            return
        state, drawn_with, _, selected = self._drawn
        if camera.scale != drawn_with.scale:
            return
        layouts = self.label_layouts(state, drawn_with, selected)
        layouts[0].draw(surface, camera, layouts[1] if len(layouts) > 1 else None)
        shift = (
            round(camera.origin[0] - drawn_with.origin[0]),
            round(camera.origin[1] - drawn_with.origin[1]),
        )
        moved = [RingLabel(label.text, label.rect.move(shift)) for label in self.ring_labels]
        draw_ring_labels(surface, self.fonts, moved)

    def _ring_labels(
        self, state: GameState, camera: Camera, view: SelectionView, size: tuple[int, int]
    ) -> list[RingLabel]:
        """The selected unit's ring labels on the table and on screen, clear of the units'
        names drawn (and their margins) and the terrain's, the status tokens and the bases
        where they can be (`place_ring_labels`: the names stay where they are)."""
        margin_x, margin_y = NAME_MARGIN
        names = [
            rect.inflate(2 * margin_x, 2 * margin_y)
            for _, rect, _, _ in self.drawn_labels(state, camera, size, view.unit_id)
        ]
        dx, dy = math.floor(camera.origin[0]), math.floor(camera.origin[1])
        fraction = (camera.origin[0] % 1.0, camera.origin[1] % 1.0)
        # the terrain's names too: a label over a piece's name reads as neither
        names += [
            rect.move(dx, dy) for rect in self._terrain_names(state.terrain, camera, fraction)
        ]
        tokens = [rect.move(dx, dy) for rect in (self._tokens or {}).values() if rect.width]
        table = pygame.Rect(camera.screen_rect(state.board.bounds)).clip(pygame.Rect((0, 0), size))
        unit = state.unit(view.unit_id)
        return place_ring_labels(
            view.rings,
            camera,
            self.fonts,
            (unit.x, unit.y),
            table,
            names=names,
            tokens=tokens,
            bases=base_boxes(self.unit_shapes(state), camera),
        )

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
            if self._static is not None:  # kept a while: zooming back finds it drawn
                self._recent_statics.append((self._static, self._static_generation))
                del self._recent_statics[:-STATICS_KEPT]
            for index, (entry, generation) in enumerate(self._recent_statics):
                if entry.key == key:
                    del self._recent_statics[index]
                    self._static, self._static_generation = entry, generation
                    return entry.value
            shift = _whole_pixel_shift(self._static.key[0], camera) if self._static else None
            if shift is not None and self._static.key[1:] == key[1:]:
                # panned by whole pixels: the picture slid onto the spare surface (the old
                # one stays as it was), and only the strips it leaves uncovered drawn
                old = self._static.value
                spare = self._spare_static
                kept = any(entry.value is spare for entry, _ in self._recent_statics)
                reusable = spare is not None and not kept and spare.get_size() == size
                surface = spare if reusable else pygame.Surface(size)
                surface.blit(old, shift)
                self._spare_static = old
                for strip in _uncovered(surface.get_rect(), shift):
                    surface.set_clip(strip)
                    self._draw_static(surface, state, camera, system)
                surface.set_clip(None)
            else:
                surface = pygame.Surface(size)
                self._draw_static(surface, state, camera, system)
            self._static = _Cached(key, surface)
            self._generations += 1
            self._static_generation = self._generations
        return self._static.value

    def label_rects(
        self, state: GameState, camera: Camera, selected: str | None = None
    ) -> list[pygame.Rect]:
        """Where the units' name labels of the last frame go on screen (from the layouts
        `draw` placed: nothing is placed again)."""
        layouts = self.label_layouts(state, camera, selected)
        dx, dy = math.floor(camera.origin[0]), math.floor(camera.origin[1])
        return [rect.move(dx, dy) for layout in layouts for rect in layout.rects]

    def drawn_labels(
        self, state: GameState, camera: Camera, size: tuple[int, int], selected: str | None = None
    ) -> list[tuple[str, pygame.Rect, tuple[tuple[int, int], tuple[int, int]] | None, str]]:
        """The units' names the last frame (of `size` pixels) shows: each unit's id, where
        its text is on screen, its leader line (None beside its unit) and the text."""
        layouts = self.label_layouts(state, camera, selected)
        first = layouts[1] if len(layouts) > 1 else None
        dx, dy = math.floor(camera.origin[0]), math.floor(camera.origin[1])
        found = []
        clip = pygame.Rect((0, 0), size)
        for layout, mine in ((layouts[0], first), (first, None)):
            if layout is None:
                continue
            for k in layout.shown(clip, camera, mine):
                leader = layout.leaders[k]
                if leader is not None:
                    leader = (
                        (leader[0][0] + dx, leader[0][1] + dy),
                        (leader[1][0] + dx, leader[1][1] + dy),
                    )
                found.append(
                    (layout.units[k], layout.rects[k].move(dx, dy), leader, layout.texts[k])
                )
        return found

    def label_layouts(
        self, state: GameState, camera: Camera, selected: str | None = None
    ) -> list[LabelLayout]:
        """The label layouts of the last frame (the whole table's, then the selected
        unit's where the table's has no name for it), with the status tokens `draw` was
        given."""
        shapes, tokens = self.unit_shapes(state), self._tokens
        layouts = [self._label_layout(shapes, camera, None, tokens)]
        # a selected unit named on the table already keeps that name: its own layout would
        # put it first, and the names it covered would give way (their units unnamed)
        if selected is not None and selected not in layouts[0].units:
            layouts.append(self._label_layout(shapes, camera, selected, tokens))
        return layouts

    def _label_layout(
        self,
        shapes: UnitShapes,
        camera: Camera,
        only: str | None = None,
        tokens: Mapping[str, pygame.Rect] | None = None,
    ) -> LabelLayout:
        """The labels of every unit (or of `only`, the selected unit, drawn over the rest,
        which give way to it), placed once per set of units and zoom: panning by whole
        pixels blits the same layout (see `LabelLayout`); the layouts of the last few zoom
        levels are kept, so zooming back and forth places none again."""
        fraction = (camera.origin[0] % 1.0, camera.origin[1] % 1.0)
        # the shapes by identity (hashing a thousand units per frame costs a frame), kept
        # alive with the layout so that the id is not reused meanwhile
        table, terrain = self._table, self._terrain
        key = (
            id(shapes),
            camera.scale,
            fraction,
            only,
            _tokens_key(tokens),
            table,
            id(terrain) if self.terrain_labels else None,
        )
        entry = self._labels.pop(key, None)
        if entry is None:
            # the terrain's names too: a unit's name over a piece's reads as neither
            named = self._terrain_names(terrain, camera, fraction)
            layout = layout_labels(
                shapes, camera, self.fonts, only=only, tokens=tokens, table=table, avoid=named
            )
            entry = (shapes, layout, terrain)
        self._labels[key] = entry
        layout = entry[1]
        while len(self._labels) > LABEL_LAYOUTS_KEPT:  # a few zoom levels, as the sprites
            self._labels.popitem(last=False)
        return layout

    def _terrain_names(
        self, terrain: tuple, camera: Camera, fraction: tuple[float, float]
    ) -> list[pygame.Rect]:
        """Where the terrain's names go, from the camera origin's whole part (worked out once
        per terrain and zoom: the whole table's labels and the selected unit's share it)."""
        if not self.terrain_labels:
            return []
        key = (id(terrain), camera.scale, fraction)
        if self._named is None or self._named[0] != key:
            rects = [rect for _, rect in terrain_labels(camera, terrain, self.fonts)]
            self._named = (key, rects, terrain)
        return self._named[1]

    def _draw_static(
        self, surface: pygame.Surface, state: GameState, camera: Camera, system: RuleSystem
    ) -> None:
        look = palette.background(system.background)
        draw_table(surface, camera, state.board, look)
        draw_grid(surface, camera, state.board, look, self.fonts)
        draw_terrain(surface, camera, state.terrain, self.fonts, labels=self.terrain_labels)
        draw_frame(surface, camera, state.board)
        draw_edge_ticks(surface, camera, state.board, self.fonts)

    def unit_shapes(self, state: GameState) -> UnitShapes:
        """The units' geometry arrays, rebuilt only when the units change."""
        # a side's view shows some units only where they were last seen: drawn faded
        faded = last_seen(state)
        if self._units is None or self._units.key is not state.units or self._faded != faded:
            if self._units is None or self._units.key != state.units or self._faded != faded:
                colours = palette.side_colours(state.sides)
                names = tuple(
                    state.shown_names[u.id] + (" (last seen)" if u.id in faded else "")
                    for u in state.units
                )  # numbered
                shapes = UnitShapes.of(state.units, colours, names, faded)
                self._units, self._faded = _Cached(state.units, shapes), faded
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
                table_geometry=self.table_geometry(state, system) if sight_lines else None,
            )
            self._view = _Cached(key, view)
        return self._view.value

    def table_geometry(self, state: GameState, system: RuleSystem) -> TableGeometry:
        """The rules layer's indexed units and terrain, rebuilt only when the map changes."""
        key = (system.id, state.board, state.options, state.terrain, state.units)
        if self._geometry is None or self._geometry.key != key:
            self._geometry = _Cached(key, TableGeometry.of(state, system))
        return self._geometry.value

    def composite(
        self,
        base: pygame.Surface,
        view: SelectionView,
        camera: Camera,
        state: GameState,
    ) -> pygame.Surface:
        """The static layer with the view's arcs, rings, blocking terrain and lines of sight,
        redrawn when the view or the camera changes (long antialiased lines are slow to draw)."""
        key = (self._static_generation, view, camera, state.board)
        if self._overlay is None or self._overlay.key != key:
            previous = self._overlay.value if self._overlay else None
            old = self._overlay.key if self._overlay else None
            shift = _whole_pixel_shift(old[2], camera) if old else None
            if (
                shift is not None
                and old is not None
                and old[1] is view
                and old[3] == state.board
                and previous is not None
                and previous.get_size() == base.get_size()
            ):
                # the static layer slid by the same whole pixels: slide, redo the strips
                surface = previous
                surface.scroll(*shift)
                for strip in _uncovered(surface.get_rect(), shift):
                    surface.set_clip(strip)
                    surface.blit(base, (0, 0))
                    self._draw_overlay(surface, view, camera, state)
                surface.set_clip(None)
            else:
                if previous is not None and previous.get_size() == base.get_size():
                    previous.blit(base, (0, 0))
                    surface = previous
                else:
                    surface = base.copy()
                self._draw_overlay(surface, view, camera, state)
            self._overlay = _Cached(key, surface)
        return self._overlay.value

    def _draw_overlay(
        self, surface: pygame.Surface, view: SelectionView, camera: Camera, state: GameState
    ) -> None:
        draw_selection_overlay(surface, camera, view, state.board, self.fonts)
        if view.blocking:
            blocking = set(view.blocking)
            pieces = [p for p in state.terrain if p.id in blocking]
            highlight_terrain(surface, camera, pieces, palette.BLOCKING_HIGHLIGHT)
        draw_sight_lines(surface, camera, view, width=2 if camera.scale >= 12 else 1)


def _whole_pixel_shift(old: Camera, new: Camera) -> tuple[int, int] | None:
    """(dx, dy) when `new` is `old` panned by whole pixels, less than a screen; else None."""
    if old.scale != new.scale or old.viewport != new.viewport:
        return None
    dx, dy = new.origin[0] - old.origin[0], new.origin[1] - old.origin[1]
    if dx != round(dx) or dy != round(dy):
        return None
    if abs(dx) >= new.viewport[0] or abs(dy) >= new.viewport[1]:
        return None
    return int(dx), int(dy)


def _uncovered(rect: pygame.Rect, shift: tuple[int, int]) -> list[pygame.Rect]:
    """The strips of `rect` a scroll by `shift` leaves without picture, and EDGE_BAND pixels
    more: what was drawn at the old picture's edge (clipped lines, shapes cut by it) is not
    what the same shapes give inside a picture."""
    dx, dy = shift
    band = EDGE_BAND
    strips = []
    if dx > 0:
        strips.append(pygame.Rect(rect.left, rect.top, dx + band, rect.height))
    elif dx < 0:
        strips.append(pygame.Rect(rect.right + dx - band, rect.top, -dx + band, rect.height))
    if dy > 0:
        strips.append(pygame.Rect(rect.left, rect.top, rect.width, dy + band))
    elif dy < 0:
        strips.append(pygame.Rect(rect.left, rect.bottom + dy - band, rect.width, -dy + band))
    return [strip.clip(rect) for strip in strips]


_KEYED: list = [None, ()]  # the last tokens given and their key: asked several times a frame


def _tokens_key(tokens: Mapping[str, pygame.Rect] | None) -> tuple:
    """The status tokens' places as a value (pygame rectangles do not hash)."""
    if not tokens:
        return ()
    if _KEYED[0] is not tokens:
        _KEYED[:] = [tokens, tuple((unit_id, tuple(rect)) for unit_id, rect in tokens.items())]
    return _KEYED[1]
