"""Units on the table: true-size bases in their side colour with heading markers, drawn
from per-unit sprites kept per zoom level, and their labels placed so that none covers
another (`LabelLayout`: placed once per zoom for the whole table, blitted per frame)."""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import pygame

from tactical.model import CircleBase, Unit
from tactical.ui import palette
from tactical.ui.camera import Camera
from tactical.ui.draw import (
    arrow_head,
    outline_geometry,
)
from tactical.ui.fonts import Fonts
from tactical.ui.palette import Colour

UNIT_LABEL_SIZE = 12


@dataclass(frozen=True)
class UnitShapes:
    """Table-inch geometry of many units, precomputed once per set of units for fast frames."""

    units: tuple[Unit, ...]
    centres: np.ndarray  # (n, 2)
    fronts: np.ndarray  # (n, 2): middle of the front edge (or front of the circle)
    extents: np.ndarray  # (n,): centre-to-farthest-point distance, inches
    rect_index: np.ndarray  # indices of rectangular bases
    rect_corners: np.ndarray  # (r, 4, 2)
    circle_index: np.ndarray
    circle_radii: np.ndarray
    colours: tuple[Colour, ...]
    index: dict[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, units: tuple[Unit, ...], colours: dict[str, Colour]) -> UnitShapes:
        count = len(units)
        centres = np.array([(u.x, u.y) for u in units], dtype=float).reshape(count, 2)
        headings = np.radians([u.heading for u in units]) if count else np.zeros(0)
        forward = np.stack([np.sin(headings), np.cos(headings)], axis=-1).reshape(count, 2)
        starboard = np.stack([forward[:, 1], -forward[:, 0]], axis=-1)
        is_circle = np.array([isinstance(u.base, CircleBase) for u in units], dtype=bool)
        half_length = np.array(
            [u.base.radius if isinstance(u.base, CircleBase) else u.base.length / 2 for u in units]
        ).reshape(count)
        half_width = np.array(
            [u.base.radius if isinstance(u.base, CircleBase) else u.base.width / 2 for u in units]
        ).reshape(count)
        fronts = centres + forward * half_length[:, None]
        rect_index = np.flatnonzero(~is_circle)
        # corners in base_corners order: front-port, front-starboard, rear-starboard, rear-port
        signs = np.array([(-1, 1), (1, 1), (1, -1), (-1, -1)], dtype=float)
        r = rect_index
        rect_corners = (
            centres[r, None, :]
            + signs[None, :, 0, None] * half_width[r, None, None] * starboard[r, None, :]
            + signs[None, :, 1, None] * half_length[r, None, None] * forward[r, None, :]
        )
        circle_index = np.flatnonzero(is_circle)
        return cls(
            units=units,
            centres=centres,
            fronts=fronts,
            extents=np.hypot(half_width, half_length),
            rect_index=rect_index,
            rect_corners=rect_corners.reshape(len(r), 4, 2),
            circle_index=circle_index,
            circle_radii=half_length[circle_index],
            colours=tuple(colours.get(u.side, palette.OTHER_SIDE_COLOURS[-1]) for u in units),
            index={u.id: i for i, u in enumerate(units)},
        )

    @cached_property
    def _slots(self) -> np.ndarray:
        """Each unit's row in rect_corners or circle_radii."""
        slots = np.zeros(len(self.units), dtype=np.intp)
        slots[self.rect_index] = np.arange(len(self.rect_index))
        slots[self.circle_index] = np.arange(len(self.circle_index))
        return slots

    def single(self, index: int) -> UnitShapes:
        """Unit `index` alone, its rows sliced from these arrays (the numbers `of` gives
        for that unit alone, without building them again)."""
        slot = int(self._slots[index])
        rect = bool(np.any(self.rect_index == index))
        one = slice(index, index + 1)
        return UnitShapes(
            units=self.units[one],
            centres=self.centres[one],
            fronts=self.fronts[one],
            extents=self.extents[one],
            rect_index=np.zeros(1 if rect else 0, dtype=np.intp),
            rect_corners=self.rect_corners[slot : slot + 1] if rect else self.rect_corners[:0],
            circle_index=np.zeros(0 if rect else 1, dtype=np.intp),
            circle_radii=self.circle_radii[:0] if rect else self.circle_radii[slot : slot + 1],
            colours=self.colours[one],
            index={self.units[index].id: 0},
        )


LABEL_HEIGHT = 14  # pixels a unit label takes, for keeping labels apart
LABEL_MIN_EXTENT = 5.0  # px: smaller bases (far zoomed out) are not labelled unless selected
SPRITE_LIMIT = 200.0  # px: bases bigger than this on screen are drawn directly, not cached


class UnitSprites:
    """Each unit's base and heading marker drawn once per zoom level, then blitted per frame.

    A sprite depends only on the base, the heading, the colour and the scale (the
    unit's centre is put on a whole pixel), so panning and other units moving never
    redraw it. The sprites of the last `SCALES_KEPT` scales are kept, so zooming back
    and forth redraws none; an older scale's are dropped.
    """

    SCALES_KEPT = 4

    def __init__(self) -> None:
        self._by_scale: OrderedDict[float, dict[tuple, tuple[pygame.Surface, int]]] = OrderedDict()
        self._scale: float | None = None
        self._sprites: dict[tuple, tuple[pygame.Surface, int]] = {}

    def sprite(self, shapes: UnitShapes, index: int, scale: float) -> tuple[pygame.Surface, int]:
        """Unit `index`'s sprite and the pixel offset of its centre inside it."""
        unit, colour = shapes.units[index], shapes.colours[index]
        if scale != self._scale:
            self._sprites = self._by_scale.pop(scale, None) or {}
            self._by_scale[scale] = self._sprites
            while len(self._by_scale) > self.SCALES_KEPT:
                self._by_scale.popitem(last=False)
            self._scale = scale
        key = (unit.base, unit.heading, colour)
        cached = self._sprites.get(key)
        if cached is None:
            cached = self._sprites[key] = _draw_sprite(shapes.single(index), scale)
        return cached

    def __len__(self) -> int:
        return len(self._sprites)


def _draw_sprite(shapes: UnitShapes, scale: float) -> tuple[pygame.Surface, int]:
    """The one unit of `shapes` drawn on a transparent square around its centre."""
    unit = shapes.units[0]
    half = math.ceil(unit.base.radius * scale) + 3
    size = 2 * half + 1
    surface = pygame.Surface((size, size), pygame.SRCALPHA)
    local = Camera.centred_on((unit.x, unit.y), (half, half), scale, (size, size))
    everything = np.ones(1, dtype=bool)
    _draw_bases(surface, local, shapes, everything)
    # run-length encoding skips the transparent corners: blits about twice as fast
    surface.set_alpha(255, pygame.RLEACCEL)
    return surface, half


def draw_units(
    surface: pygame.Surface,
    camera: Camera,
    shapes: UnitShapes,
    fonts: Fonts,
    selected: str | None = None,
    labels: bool = True,
    sprites: UnitSprites | None = None,
) -> list[pygame.Rect]:
    """Units as true-size bases in their side colour, with a heading marker and a label;
    returns where the labels went (none overlaps another).

    With `sprites`, bases are blitted from per-unit sprites (see UnitSprites)
    instead of being drawn afresh every frame.
    """
    placed: list[pygame.Rect] = []
    if not shapes.units:
        return placed
    centres = camera.to_screen_array(shapes.centres)
    extents = shapes.extents * camera.scale
    width, height = surface.get_size()
    visible = (
        (centres[:, 0] + extents >= 0)
        & (centres[:, 0] - extents < width)
        & (centres[:, 1] + extents >= 0)
        & (centres[:, 1] - extents < height)
    )
    if sprites is None:
        _draw_bases(surface, camera, shapes, visible)
    else:
        small = visible & (extents <= SPRITE_LIMIT)
        _draw_bases(surface, camera, shapes, visible & ~small)
        pixels = np.rint(centres).astype(int).tolist()
        blits = []
        for index in np.flatnonzero(small).tolist():
            sprite, half = sprites.sprite(shapes, index, camera.scale)
            x, y = pixels[index]
            blits.append((sprite, (x - half, y - half)))
        surface.blits(blits, doreturn=False)
    if selected is not None and selected in shapes.index:
        _selected_outline(surface, camera, shapes, shapes.index[selected])
    if labels:
        centre_list, extent_list = centres.tolist(), extents.tolist()
        shown = [
            index
            for index in np.flatnonzero(visible).tolist()
            if extent_list[index] >= LABEL_MIN_EXTENT or shapes.units[index].id == selected
        ]
        # the selected unit's label first, then the larger units': a label that would cover
        # one already placed gives way (its unit's id if that fits, else nothing; the hover
        # card names it), so crowded squadrons stay readable
        shown.sort(key=lambda i: (shapes.units[i].id != selected, -extent_list[i]))
        taken = _PlacedLabels(placed)
        for index in shown:
            _unit_label(
                surface, fonts, shapes.units[index], centre_list[index], extent_list[index], taken
            )
    return placed


class _PlacedLabels:
    """The labels placed so far, bucketed by 64-pixel cells: whether a new one would cover
    one of them asks only its neighbours (the same answer as `Rect.collidelist` over all,
    for thousands of labels)."""

    CELL = 64

    def __init__(self, placed: list[pygame.Rect]) -> None:
        self.placed = placed
        self.cells: dict[tuple[int, int], list[pygame.Rect]] = {}
        for rect in placed:
            self._file(rect)

    def _keys(self, rect: pygame.Rect):
        cell = self.CELL
        return [
            (x, y)
            for x in range(rect.left // cell, (rect.right - 1) // cell + 1)
            for y in range(rect.top // cell, (rect.bottom - 1) // cell + 1)
        ]

    def _file(self, rect: pygame.Rect) -> None:
        for key in self._keys(rect):
            self.cells.setdefault(key, []).append(rect)

    def collides(self, rect: pygame.Rect) -> bool:
        cells = self.cells
        return any(rect.collidelist(cells[key]) != -1 for key in self._keys(rect) if key in cells)

    def add(self, rect: pygame.Rect) -> None:
        self.placed.append(rect)
        self._file(rect)


def _draw_bases(
    surface: pygame.Surface, camera: Camera, shapes: UnitShapes, which: np.ndarray
) -> None:
    """Bases (filled, outlined) and heading markers of the units where `which` is true."""
    if not which.any():
        return
    centres = camera.to_screen_array(shapes.centres)
    fronts = camera.to_screen_array(shapes.fronts)
    extents = shapes.extents * camera.scale
    corners = camera.to_screen_array(shapes.rect_corners).tolist()
    outline = palette.UNIT_OUTLINE
    for slot, index in enumerate(shapes.rect_index.tolist()):
        if which[index]:
            points = corners[slot]
            pygame.draw.polygon(surface, shapes.colours[index], points)
            pygame.draw.aalines(surface, outline, True, points)
    radii = (shapes.circle_radii * camera.scale).tolist()
    for slot, index in enumerate(shapes.circle_index.tolist()):
        if which[index]:
            centre = centres[index].tolist()
            pygame.draw.circle(surface, shapes.colours[index], centre, radii[slot])
            pygame.draw.aacircle(surface, outline, centre, radii[slot], 1)
    centre_list, front_list, extent_list = centres.tolist(), fronts.tolist(), extents.tolist()
    for index in np.flatnonzero(which).tolist():
        _heading_marker(surface, centre_list[index], front_list[index], extent_list[index])


def _heading_marker(
    surface: pygame.Surface, centre: list[float], front: list[float], extent: float
) -> None:
    dx, dy = front[0] - centre[0], front[1] - centre[1]
    length = math.hypot(dx, dy)
    if length < 1.0:
        return
    direction = (dx / length, dy / length)
    head = min(length * 0.45, 10.0)
    shaft_end = (front[0] - direction[0] * head * 0.8, front[1] - direction[1] * head * 0.8)
    line_width = 2 if extent >= 10 else 1
    pygame.draw.aaline(surface, palette.HEADING_MARKER, centre, shaft_end, line_width)
    if head >= 3:
        arrow_head(surface, palette.HEADING_MARKER, front, direction, head)


def _selected_outline(
    surface: pygame.Surface, camera: Camera, shapes: UnitShapes, index: int
) -> None:
    unit = shapes.units[index]
    outline_geometry(
        surface, camera, unit.footprint.buffer(camera.inches(2.5)), palette.SELECTED_OUTLINE, 2
    )


def _unit_label(
    surface: pygame.Surface,
    fonts: Fonts,
    unit: Unit,
    centre: list[float],
    extent: float,
    placed: _PlacedLabels,
) -> None:
    """The unit's name under its base (its id when the name is cut or would cover a label
    in `placed`); nothing when both would. A label drawn is added to `placed`."""
    found = _place_label(fonts, unit, centre, extent, placed)
    if found is not None:
        picture, rect = found
        surface.blit(picture, rect)


def _place_label(
    fonts: Fonts, unit: Unit, centre: list[float], extent: float, placed: _PlacedLabels
) -> tuple[pygame.Surface, pygame.Rect] | None:
    """`_unit_label`'s choice: the label picture and where it goes, added to `placed`."""
    max_width = int(max(110, extent * 5))
    candidates = []
    name = fonts.fit(unit.name, UNIT_LABEL_SIZE, max_width) if unit.name else None
    if name is not None and name == unit.name:
        candidates.append(name)
    short = fonts.fit(unit.id, UNIT_LABEL_SIZE, max_width)
    candidates += [c for c in (short, name) if c and c not in candidates]
    top = centre[1] + extent + 3
    for label in candidates:
        width = fonts.width(label, UNIT_LABEL_SIZE)
        rect = pygame.Rect(round(centre[0] - width / 2), round(top), width, LABEL_HEIGHT)
        if placed.collides(rect):
            continue
        placed.add(rect)
        picture = fonts.shadowed(label, UNIT_LABEL_SIZE, palette.LABEL, palette.LABEL_SHADOW)
        return picture, picture.get_rect(midtop=(round(centre[0]), round(top)))
    return None


@dataclass(frozen=True, eq=False)
class LabelLayout:
    """The unit labels of a whole table at one zoom, placed once (`layout_labels`) and
    blitted per frame: panning moves them all together and reshuffles none. Positions are
    pixels from the camera origin's whole part (the same for every camera with that scale
    and that fractional part of the origin)."""

    pictures: tuple[pygame.Surface, ...]
    rects: tuple[pygame.Rect, ...]  # where each picture goes
    boxes: tuple[pygame.Rect, ...]  # the space each label claims (for giving way)

    def draw(
        self, surface: pygame.Surface, camera: Camera, first: LabelLayout | None = None
    ) -> None:
        """Blit the labels on screen through `camera`; with `first` (the selected unit's
        label, placed for the same scale and fraction), the labels it would cover give way
        and it is drawn over them."""
        dx, dy = math.floor(camera.origin[0]), math.floor(camera.origin[1])
        screen = surface.get_clip().move(-dx, -dy)
        shown = screen.collidelistall(self.rects) if self.rects else []
        keep_clear = first.boxes[0] if first is not None and first.boxes else None
        surface.blits(
            [
                (self.pictures[k], self.rects[k].move(dx, dy))
                for k in shown
                if keep_clear is None or not keep_clear.colliderect(self.boxes[k])
            ],
            doreturn=False,
        )
        if first is not None:
            first.draw(surface, camera)


def layout_labels(
    shapes: UnitShapes,
    camera: Camera,
    fonts: Fonts,
    only: str | None = None,
    skip: str | None = None,
) -> LabelLayout:
    """Place the labels of every unit big enough on screen (LABEL_MIN_EXTENT), the larger
    units' first, each giving way as in `draw_units`; `only` places that one unit's label
    (whatever its size), `skip` leaves that unit out. Positions are for `camera` moved to
    the fractional part of its origin: `LabelLayout.draw` adds the whole pixels back."""
    whole = (math.floor(camera.origin[0]), math.floor(camera.origin[1]))
    local = camera.panned(-whole[0], -whole[1])
    centres = local.to_screen_array(shapes.centres).tolist()
    extents = (shapes.extents * camera.scale).tolist()
    if only is not None:
        chosen = [shapes.index[only]] if only in shapes.index else []
    else:
        chosen = [
            k for k, extent in enumerate(extents)
            if extent >= LABEL_MIN_EXTENT and shapes.units[k].id != skip
        ]  # fmt: skip
        chosen.sort(key=lambda k: -extents[k])
    placed = _PlacedLabels([])
    pictures, rects, boxes = [], [], []
    for k in chosen:
        found = _place_label(fonts, shapes.units[k], centres[k], extents[k], placed)
        if found is not None:
            pictures.append(found[0])
            rects.append(found[1])
            boxes.append(placed.placed[-1])
    return LabelLayout(tuple(pictures), tuple(rects), tuple(boxes))
