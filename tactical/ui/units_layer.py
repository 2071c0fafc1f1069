"""Units on the table: true-size bases in their side colour with heading markers, drawn
from per-unit sprites kept per zoom level, and their labels placed so that none covers
another (`LabelLayout`: placed once per zoom for the whole table, blitted per frame)."""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

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
from tactical.ui.mark_layout import CROWDED, NamePlace, NameRequest, names_under, place_names
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
    names: tuple[str, ...] = ()  # each unit's name as the table shows it (its own if none)

    @classmethod
    def of(
        cls,
        units: tuple[Unit, ...],
        colours: dict[str, Colour],
        names: tuple[str, ...] = (),
        faded: frozenset[str] = frozenset(),
    ) -> UnitShapes:
        """`faded`: the units a side's view shows only where they were last seen (their
        colour washed out toward grey)."""
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
            colours=tuple(
                _washed(colour) if u.id in faded else colour
                for u in units
                for colour in (colours.get(u.side, palette.OTHER_SIDE_COLOURS[-1]),)
            ),
            index={u.id: i for i, u in enumerate(units)},
            names=names,
        )


FADED_GREY = (96, 96, 104)
FADED_SHARE = 0.35  # of the side's colour left in a unit drawn where it was last seen


def _washed(colour: Colour) -> Colour:
    """A side's colour washed out toward grey: a unit known only where it was last seen."""
    return tuple(  # type: ignore[return-value]
        round(FADED_SHARE * c + (1 - FADED_SHARE) * g)
        for c, g in zip(colour[:3], FADED_GREY, strict=True)
    )


LABEL_HEIGHT = 14  # pixels a unit label's line takes (the tallest letters and the shadow)
# px a label may take whatever the base's size: most ships' whole names fit
LABEL_MIN_WIDTH = 160
LABEL_MIN_EXTENT = 5.0  # px: smaller bases (far zoomed out) are not labelled unless selected
SPRITE_LIMIT = 200.0  # px: bases bigger than this on screen are drawn directly, not cached


class UnitSprites:
    """Each unit's base and heading marker drawn once per zoom level, then blitted per frame.

    A sprite depends only on the base, the heading, the colour and the scale (the
    unit's centre is put on a whole pixel), so panning and other units moving never
    redraw it. The sprites of the last `SCALES_KEPT` scales are kept, so zooming back
    and forth redraws none; an older scale's are dropped.

    A scale seen for the first time gets no sprites (`worth_drawing`): the units are
    drawn straight onto the frame where their sprites would go, which costs half as
    much as making and blitting sprites that a wheel passing through the level would
    never use again; the next frame at that scale (a pan, a selection) makes them.
    """

    SCALES_KEPT = 4

    def __init__(self) -> None:
        self._by_scale: OrderedDict[float, dict[int, tuple[pygame.Surface, int]]] = OrderedDict()
        self._scale: float | None = None
        self._sprites: dict[int, tuple[pygame.Surface, int]] = {}
        # each distinct (base, heading, colour) numbered once, and the numbers of the last
        # units seen (hashing a thousand bases per frame would cost a frame)
        self._numbers: dict[tuple, int] = {}
        self._numbered: tuple[UnitShapes, list[int]] | None = None
        self._seen: float | None = None  # the last scale drawn without sprites

    def worth_drawing(self, scale: float) -> bool:
        """Whether to draw and use sprites at `scale`: not at a scale seen first now."""
        if scale == self._scale or scale in self._by_scale or scale == self._seen:
            return True
        self._seen = scale
        return False

    def _keys(self, shapes: UnitShapes) -> list[int]:
        """Each unit's sprite number: units alike in base, heading and colour share one."""
        if self._numbered is None or self._numbered[0] is not shapes:
            numbers = self._numbers
            keys = [
                numbers.setdefault((unit.base, unit.heading, colour), len(numbers))
                for unit, colour in zip(shapes.units, shapes.colours, strict=True)
            ]
            self._numbered = (shapes, keys)
        return self._numbered[1]

    def sprites(
        self, shapes: UnitShapes, indices: list[int], scale: float
    ) -> list[tuple[pygame.Surface, int]]:
        """The sprites of units `indices` and the pixel offset of each centre inside its
        sprite; those not drawn yet at this scale are drawn together (`_draw_sprites`)."""
        if scale != self._scale:
            self._sprites = self._by_scale.pop(scale, None) or {}
            self._by_scale[scale] = self._sprites
            while len(self._by_scale) > self.SCALES_KEPT:
                self._by_scale.popitem(last=False)
            self._scale = scale
        every, cache = self._keys(shapes), self._sprites
        keys = [every[k] for k in indices]
        missing: dict[int, int] = {}
        for key, index in zip(keys, indices, strict=True):
            if key not in cache and key not in missing:
                missing[key] = index
        if missing:
            drawn = _draw_sprites(shapes, list(missing.values()), scale)
            cache.update(zip(missing, drawn, strict=True))
        return [cache[key] for key in keys]

    def __len__(self) -> int:
        return len(self._sprites)


def _draw_sprites(
    shapes: UnitShapes,
    indices: list[int],
    scale: float,
    target: pygame.Surface | None = None,
    pixels: np.ndarray | None = None,
) -> list[tuple[pygame.Surface, int]]:
    """Units `indices` each drawn alone on a transparent square around its centre (the
    centre on the middle pixel), their screen points computed for all at once: per unit,
    the points `Camera.centred_on(centre, (half, half), scale)` gives, bit for bit.

    With a `target`, each unit is drawn straight onto it where its sprite would be
    blitted (its centre on `pixels[index]`, whole pixels), in the sprites' order."""
    chosen = np.asarray(indices, dtype=np.intp)
    halves = [math.ceil(shapes.units[k].base.radius * scale) + 3 for k in indices]
    # each sprite's camera origin, as Camera.centred_on computes it
    origin_x = np.asarray(halves, dtype=float) - shapes.centres[chosen, 0] * scale
    origin_y = np.asarray(halves, dtype=float) + shapes.centres[chosen, 1] * scale
    # where each sprite's corner goes on the target: added after the sprite's own numbers
    shift = None if target is None else pixels[chosen] - np.asarray(halves)[:, None]

    def to_sprite(points: np.ndarray, rows: np.ndarray | slice = slice(None)) -> np.ndarray:
        """(k, ..., 2) table points of the chosen units -> their sprites' pixels."""
        shape = (len(points),) + (1,) * (points.ndim - 2)
        result = np.empty_like(points)
        result[..., 0] = origin_x[rows].reshape(shape) + points[..., 0] * scale
        result[..., 1] = origin_y[rows].reshape(shape) - points[..., 1] * scale
        if shift is not None:
            result += shift[rows].reshape(*shape, 2)
        return result

    centres = to_sprite(shapes.centres[chosen]).tolist()
    fronts = to_sprite(shapes.fronts[chosen]).tolist()
    extents = (shapes.extents[chosen] * scale).tolist()
    slots = np.full(len(shapes.units), -1, dtype=np.intp)
    slots[shapes.rect_index] = np.arange(len(shapes.rect_index))
    slots[shapes.circle_index] = np.arange(len(shapes.circle_index))
    is_rect = np.zeros(len(shapes.units), dtype=bool)
    is_rect[shapes.rect_index] = True
    rect_rows = np.flatnonzero(is_rect[chosen])
    corners = dict(
        zip(
            rect_rows.tolist(),
            to_sprite(shapes.rect_corners[slots[chosen[rect_rows]]], rect_rows).tolist(),
            strict=True,
        )
    )
    circle_rows = np.flatnonzero(~is_rect[chosen])
    radii = dict(
        zip(
            circle_rows.tolist(),
            (shapes.circle_radii[slots[chosen[circle_rows]]] * scale).tolist(),
            strict=True,
        )
    )
    outline = palette.UNIT_OUTLINE
    drawn = []
    for row, (index, half) in enumerate(zip(indices, halves, strict=True)):
        size = 2 * half + 1
        surface = target or pygame.Surface((size, size), pygame.SRCALPHA)
        colour = shapes.colours[index]
        points = corners.get(row)
        if points is not None:
            pygame.draw.polygon(surface, colour, points)
            pygame.draw.aalines(surface, outline, True, points)
        else:
            centre = centres[row]
            pygame.draw.circle(surface, colour, centre, radii[row])
            pygame.draw.aacircle(surface, outline, centre, radii[row], 1)
        _heading_marker(surface, centres[row], fronts[row], extents[row])
        if target is None:
            # run-length encoding skips the transparent corners: blits about twice as fast
            surface.set_alpha(255, pygame.RLEACCEL)
            drawn.append((surface, half))
    return drawn


def unit_pictures(
    units: Sequence[Unit], colours: Sequence[Colour], scale: float
) -> list[tuple[pygame.Surface, int]]:
    """Each unit's base and heading marker drawn alone, in its side's colour, at `scale`
    (as the table draws it), and the pixels from its picture's corner to its centre."""
    by_side = {unit.side: colour for unit, colour in zip(units, colours, strict=True)}
    return _draw_sprites(UnitShapes.of(tuple(units), by_side), list(range(len(units))), scale)


def draw_units(
    surface: pygame.Surface,
    camera: Camera,
    shapes: UnitShapes,
    fonts: Fonts,
    selected: str | None = None,
    labels: bool = True,
    sprites: UnitSprites | None = None,
    table: tuple[float, float, float, float] | None = None,
    avoid: Sequence[pygame.Rect] = (),
) -> list[pygame.Rect]:
    """Units as true-size bases in their side colour, with a heading marker and a label;
    returns where the labels went (none overlaps another).

    With `sprites`, bases are blitted from per-unit sprites (see UnitSprites)
    instead of being drawn afresh every frame (from the second frame at a scale on).
    The labels stay on the `table` (its bounds in inches) where they can, and clear of
    `avoid` (screen pixels: the terrain's names; see `layout_labels`).
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
        whole = np.rint(centres).astype(int)
        chosen = np.flatnonzero(small).tolist()
        if not sprites.worth_drawing(camera.scale):
            # drawn where and as the sprites would be, without making them; but for those
            # the window's edge cuts (pygame shifts antialiased lines it clips)
            inside = (
                (centres[:, 0] - extents >= 0)
                & (centres[:, 0] + extents < width)
                & (centres[:, 1] - extents >= 0)
                & (centres[:, 1] + extents < height)
            )
            direct = np.flatnonzero(small & inside).tolist()
            _draw_sprites(shapes, direct, camera.scale, surface, whole)
            chosen = np.flatnonzero(small & ~inside).tolist()
        pixels = whole.tolist()
        blits = []
        for index, (sprite, half) in zip(
            chosen, sprites.sprites(shapes, chosen, camera.scale), strict=True
        ):
            x, y = pixels[index]
            blits.append((sprite, (x - half, y - half)))
        surface.blits(blits, doreturn=False)
    if selected is not None and selected in shapes.index:
        _selected_outline(surface, camera, shapes, shapes.index[selected])
    if labels:
        extent_list = extents.tolist()
        shown = [
            index
            for index in np.flatnonzero(visible).tolist()
            if extent_list[index] >= LABEL_MIN_EXTENT or shapes.units[index].id == selected
        ]
        # the selected unit's label first, then the larger units': the first placed get
        # the places nearest their bases
        shown.sort(key=lambda i: (shapes.units[i].id != selected, -extent_list[i]))
        dx, dy = math.floor(camera.origin[0]), math.floor(camera.origin[1])
        local = [rect.move(-dx, -dy) for rect in avoid]
        layout = _layout(shapes, camera, fonts, shown, {}, table, local)
        layout.draw(surface, camera)
        placed.extend(rect.move(dx, dy) for rect in layout.rects)
    return placed


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


def _label_candidates(
    fonts: Fonts, name: str, unit_id: str, max_width: int
) -> tuple[tuple[str, int], ...]:
    """The labels a unit may have, best first, with their widths: its whole name, cut to
    fit where it must (a number it ends in kept: "Cylon Ra… 1"), then its first word and
    that number ("Wachter…"). Always the name the card and the log give, never its id (a
    unit "zeppelin" named "Wachter Class Sky Fortress" read "Zeppelin" on the table); a
    unit with no name reads its id in words ("Tribal 1")."""
    name = name or id_words(unit_id)
    stem, number = _split_number(name)
    if number:
        return _numbered_candidates(fonts, stem, " " + number, max_width)
    return _numbered_candidates(fonts, name, "", max_width)


def _split_number(name: str) -> tuple[str, str]:
    """A name's words before a number it ends in, and that number ("Ship 142": "Ship",
    "142"); the name and "" when it ends in none (or is one word)."""
    stem, _, last = name.rpartition(" ")
    return (stem, last) if stem and last.isdigit() else (name, "")


@lru_cache(maxsize=8192)
def _wordings(
    fonts: Fonts, own: str, shown: str, unit_id: str, max_width: int
) -> tuple[tuple[str, int], ...]:
    """A unit's label wordings (`_label_candidates`), its own name `own` shown as `shown`:
    a numbered name ("Attacker Class Frigate 2") keeps its number when cut ("Attacker
    Cl… 2"), and never reads as its id (whose number may differ). Each width is a pixel
    more than the text's: the shadow's."""
    if own and shown != own and shown.startswith(own + " "):
        found = _numbered_candidates(fonts, own, shown[len(own) :], max_width)
    else:
        found = _label_candidates(fonts, shown if own else "", unit_id, max_width)
    return tuple((text, width + 1) for text, width in found)


@lru_cache(maxsize=8192)
def _numbered_candidates(
    fonts: Fonts, name: str, number: str, max_width: int
) -> tuple[tuple[str, int], ...]:
    """A numbered name's wordings, best first: whole (or cut to `max_width`), then its
    first word alone (for a tight spot), the number kept in each ("Blucher… 2")."""
    whole = name + number
    if fonts.width(whole, UNIT_LABEL_SIZE) <= max_width:
        texts = [whole]
    else:
        cut = fonts.fit(name, UNIT_LABEL_SIZE, max_width - fonts.width(number, UNIT_LABEL_SIZE))
        texts = [cut + number] if cut is not None else []
    words = name.split()
    if len(words) > 1:
        short = f"{words[0]}…{number}"
        if short not in texts and fonts.width(short, UNIT_LABEL_SIZE) <= max_width:
            texts.append(short)
    return tuple((text, fonts.width(text, UNIT_LABEL_SIZE)) for text in texts)


def id_words(unit_id: str) -> str:
    """A unit id as a short name a player reads: dashes and underscores as spaces, the
    first letter capital ("tribal-1": "Tribal 1")."""
    words = " ".join(unit_id.replace("_", " ").replace("-", " ").split()) or unit_id
    return words[:1].upper() + words[1:]


@dataclass(frozen=True, eq=False)
class LabelLayout:
    """The unit labels of a whole table at one zoom, placed once (`layout_labels`) and
    blitted per frame: panning moves them all together and reshuffles none. Positions are
    pixels from the camera origin's whole part (the same for every camera with that scale
    and that fraction of the origin)."""

    pictures: tuple[pygame.Surface, ...]
    rects: tuple[pygame.Rect, ...]  # where each picture goes
    boxes: tuple[pygame.Rect, ...]  # the room each label claims (for giving way)
    units: tuple[str, ...] = ()  # whose label each is
    leaders: tuple[tuple[tuple[int, int], tuple[int, int]] | None, ...] = ()
    texts: tuple[str, ...] = ()  # what each label reads

    def draw(
        self, surface: pygame.Surface, camera: Camera, first: LabelLayout | None = None
    ) -> None:
        """Blit the labels on screen through `camera`; with `first` (the selected unit's
        label, placed for the same scale and fraction), that unit's own label here and
        the labels its label would cover give way, and it is drawn over them."""
        dx, dy = math.floor(camera.origin[0]), math.floor(camera.origin[1])
        shown = self.shown(surface.get_clip(), camera, first)
        for k in shown:
            leader = self.leaders[k] if self.leaders else None
            if leader is not None:
                start, end = leader
                pygame.draw.aaline(
                    surface,
                    palette.LABEL_LEADER,
                    (start[0] + dx, start[1] + dy),
                    (end[0] + dx, end[1] + dy),
                )
        surface.blits(
            [(self.pictures[k], self.rects[k].move(dx, dy)) for k in shown], doreturn=False
        )
        if first is not None:
            first.draw(surface, camera)

    def shown(
        self, clip: pygame.Rect, camera: Camera, first: LabelLayout | None = None
    ) -> list[int]:
        """The labels `draw` blits within `clip` (screen pixels): all that reach it but,
        with `first`, its unit's own label and those its label covers."""
        dx, dy = math.floor(camera.origin[0]), math.floor(camera.origin[1])
        screen = clip.move(-dx, -dy)
        shown = screen.collidelistall(self.boxes) if self.boxes else []
        if first is not None and first.boxes:
            keep_clear, itself = first.boxes[0], first.units[0]
            shown = [
                k
                for k in shown
                if self.units[k] != itself and not keep_clear.colliderect(self.boxes[k])
            ]
        return shown


def layout_labels(
    shapes: UnitShapes,
    camera: Camera,
    fonts: Fonts,
    only: str | None = None,
    skip: str | None = None,
    tokens: Mapping[str, pygame.Rect] | None = None,
    table: tuple[float, float, float, float] | None = None,
    avoid: Sequence[pygame.Rect] = (),
) -> LabelLayout:
    """Place the labels of every unit big enough on screen (LABEL_MIN_EXTENT), the larger
    units' first (`mark_layout.place_names`: none over another, over a status token in
    `tokens` or, where there is room, over a base); `only` places that one unit's label
    (whatever its size), `skip` leaves that unit out. Positions (and `tokens`, by unit
    id) are for `camera` moved to the fractional part of its origin: `LabelLayout.draw`
    adds the whole pixels back. With the `table`'s bounds (inches), names stay on it
    where they can; none covers `avoid` (the terrain's names)."""
    extent_array = shapes.extents * camera.scale
    extents = extent_array.tolist()
    units = shapes.units
    if only is not None:
        chosen = [shapes.index[only]] if only in shapes.index else []
    else:
        # the larger units first (a stable sort: equal sizes keep the units' order)
        order = np.argsort(-extent_array, kind="stable").tolist()
        chosen = [
            k for k in order if extents[k] >= LABEL_MIN_EXTENT and units[k].id != skip
        ]  # fmt: skip
    return _layout(shapes, camera, fonts, chosen, tokens or {}, table, avoid)


def _layout(
    shapes: UnitShapes,
    camera: Camera,
    fonts: Fonts,
    chosen: list[int],
    tokens: Mapping[str, pygame.Rect],
    table: tuple[float, float, float, float] | None = None,
    avoid: Sequence[pygame.Rect] = (),
) -> LabelLayout:
    """The labels of units `chosen`, placed in that order (positions from the camera
    origin's whole part), on the `table` where they can."""
    whole = (math.floor(camera.origin[0]), math.floor(camera.origin[1]))
    local = camera.panned(-whole[0], -whole[1])
    centres = local.to_screen_array(shapes.centres)
    extent_array = shapes.extents * camera.scale
    centre_list, extents = centres.tolist(), extent_array.tolist()
    units, names = shapes.units, shapes.names or tuple(unit.name for unit in shapes.units)

    def wordings(k: int):
        width = int(max(LABEL_MIN_WIDTH, extents[k] * 5))
        return _wordings(fonts, units[k].name, names[k], units[k].id, width)

    # names stay on the table: off it they would run into the edge's inch numbers
    within = pygame.Rect(local.screen_rect(table)) if table is not None else None
    # no name over a token, nor over a terrain piece's name: text over text reads as neither
    keep_off = [t for t in tokens.values() if t.width] + list(avoid)
    if len(chosen) > CROWDED:  # each under its base or nowhere, as quick as can be
        items = (
            (
                k,
                wordings(k),
                centre_list[k][0],
                centre_list[k][1],
                extents[k],
            )
            for k in chosen
        )
        under = names_under(items, LABEL_HEIGHT, keep_off, within)
        placed = [NamePlace(units[k].id, text, rect, claim) for k, text, rect, claim in under]
        return _pictures(fonts, placed)
    bases = _base_boxes_cached(shapes, local) if chosen else []
    requests = [
        NameRequest(
            units[k].id,
            wordings(k),
            (centre_list[k][0], centre_list[k][1]),
            extents[k],
            tokens.get(units[k].id),
            bases[k],
        )
        for k in chosen
    ]
    placed = place_names(
        requests,
        LABEL_HEIGHT,
        keep_off=keep_off,
        avoid=bases,
        within=within,
    )
    return _pictures(fonts, placed)


def _pictures(fonts: Fonts, placed: list[NamePlace]) -> LabelLayout:
    """The layout of the names placed: each one's picture where its box is."""
    pictures, rects = [], []
    for place in placed:
        picture = fonts.shadowed(place.text, UNIT_LABEL_SIZE, palette.LABEL, palette.LABEL_SHADOW)
        pictures.append(picture)
        rects.append(picture.get_rect(topleft=place.rect.topleft))
    return LabelLayout(
        tuple(pictures),
        tuple(rects),
        tuple(place.claim for place in placed),
        tuple(place.unit_id for place in placed),
        tuple(place.leader for place in placed),
        tuple(place.text for place in placed),
    )


_BASES: dict[str, tuple] = {}  # the last bases' boxes: the whole table's labels and the
# selected unit's are laid out for the same camera


def _base_boxes_cached(shapes: UnitShapes, camera: Camera) -> list[pygame.Rect]:
    """`base_boxes`, worked out once for the last units and camera."""
    key = (id(shapes), camera.scale, camera.origin)
    last = _BASES.get("last")
    if last is None or last[0] != key:
        _BASES["last"] = last = (key, base_boxes(shapes, camera), shapes)
    return last[1]


def base_boxes(shapes: UnitShapes, camera: Camera) -> list[pygame.Rect]:
    """Every base's bounding box on screen (a round base's square, a rectangle's corners'
    box), worked out for all at once."""
    centres = camera.to_screen_array(shapes.centres)
    radii = np.zeros(len(shapes.units))
    radii[shapes.circle_index] = shapes.circle_radii * camera.scale
    low, high = centres - radii[:, None], centres + radii[:, None]
    if len(shapes.rect_index):
        corners = camera.to_screen_array(shapes.rect_corners)
        low[shapes.rect_index] = corners.min(axis=1)
        high[shapes.rect_index] = corners.max(axis=1)
    low, high = np.floor(low).astype(int).tolist(), np.ceil(high).astype(int).tolist()
    return [
        pygame.Rect(x0, y0, x1 - x0 + 1, y1 - y0 + 1)
        for (x0, y0), (x1, y1) in zip(low, high, strict=True)
    ]
