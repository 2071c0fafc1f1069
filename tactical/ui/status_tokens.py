"""Status tokens on the table: each unit's damage bar or pips, its marks, wrecks crossed out.

What a token shows is the rule system's `UnitStatus` (`RuleSystem.unit_status`):
the values it marks "bar" or "pips" and its short `marks` (a critical, an order,
"fired"), one per line beside the token, placed so that no mark covers another
(`tactical.ui.mark_layout`). Each token stands over its unit; the tokens of a tight
squadron are staggered so that no two run together (`place_tokens`). `StatusBoard` asks
once per game state and draws the tokens into the cached table picture, so a frame costs
nothing more.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pygame
import shapely

from tactical.errors import UserError
from tactical.model import GameState
from tactical.rules.base import RuleSystem
from tactical.rules.status import UnitStatus
from tactical.ui.camera import Camera
from tactical.ui.draw import text
from tactical.ui.fonts import Fonts
from tactical.ui.mark_layout import (
    MarkBlock,
    MarkRequest,
    place_marks,
    place_tokens,
    token_room,
)
from tactical.ui.palette import LABEL_SHADOW, Colour

BAR_WIDTH = 34
MIN_BAR_WIDTH = 14  # a bar narrowed for its neighbours' (`token_room`) reads down to this
BAR_HEIGHT = 5
PIP = 4  # pip diameter
MAX_PIPS = 10  # beyond this the pips read as a number
GAP = 6  # pixels between the unit's top and its token
MARK_SIZE = 12
MIN_EXTENT = 5  # pixels: smaller units carry no token (the hover card says it all)
BAR_BACK: Colour = (40, 40, 40)
BAR_EDGE: Colour = (210, 210, 210)
HEALTHY: Colour = (70, 200, 90)
HURT: Colour = (230, 190, 60)
CRITICAL: Colour = (230, 70, 60)
PIP_ON: Colour = (235, 235, 235)
PIP_OFF: Colour = (90, 90, 90)
MARK: Colour = (255, 214, 120)
PLATE = (15, 20, 30, 150)  # behind a block of marks
PLATE_MARGIN = 2  # pixels of plate left and right of a line of marks
WRECK: Colour = (160, 160, 160)


def bar_colour(fraction: float) -> Colour:
    """Green while healthy, amber past half, red in the last quarter."""
    if fraction > 0.5:
        return HEALTHY
    if fraction > 0.25:
        return HURT
    return CRITICAL


class StatusBoard:
    """The units' statuses of one game state (asked once per state) and their tokens."""

    def __init__(self) -> None:
        self._for: tuple[GameState, str] | None = None
        self._statuses: dict[str, UnitStatus] = {}
        self._sized: tuple[tuple, list[float], np.ndarray] | None = None
        self.marks: list[MarkBlock] = []  # the marks drawn last, where they went
        self.drawn: dict[str, pygame.Rect] = {}  # each unit's token drawn last, by unit id
        self._boxes: tuple[tuple, dict, dict[str, pygame.Rect]] | None = None
        self.raised: dict[str, int] = {}  # pixels each token stands above its first place
        self.bar_widths: dict[str, int] = {}  # the bars narrowed for their neighbours
        self._shapes: tuple[dict, dict[str, pygame.Rect]] | None = None

    def _sizes(self, state: GameState) -> list[float]:
        """Each unit's footprint's larger side (inches), for the units of `state` (measured
        once per set of units, all footprints at once)."""
        return self._measured(state)[1]

    def _measured(self, state: GameState) -> tuple[tuple, list[float], np.ndarray]:
        if self._sized is None or self._sized[0] is not state.units:
            bounds = shapely.bounds([unit.footprint for unit in state.units]).reshape(-1, 4)
            sizes = np.maximum(bounds[:, 2] - bounds[:, 0], bounds[:, 3] - bounds[:, 1])
            self._sized = (state.units, sizes.tolist(), bounds)
        return self._sized

    def statuses(self, state: GameState, system: RuleSystem) -> dict[str, UnitStatus]:
        if self._for is None or self._for[0] is not state or self._for[1] != system.id:
            found = {}
            for unit in state.units:
                try:
                    found[unit.id] = system.unit_status(state, unit)
                except UserError:
                    continue  # a table not set up for play (setup mode): no token
            self._for, self._statuses = (state, system.id), found
        return self._statuses

    def token_boxes(
        self, camera: Camera, state: GameState, system: RuleSystem, fonts: Fonts
    ) -> dict[str, pygame.Rect]:
        """Where every unit's token goes (those big enough on screen to carry one and with
        room clear of the others' tokens, `place_tokens`), by unit id, in pixels from the
        camera origin's whole part (the same for every pan by whole pixels): the units'
        names are laid out clear of them. Measured, not drawn."""
        statuses = self.statuses(state, system)
        key = (state.units, system.id, camera.scale, camera.origin[0] % 1, camera.origin[1] % 1)
        if self._boxes is not None and self._boxes[0] == key and self._boxes[1] is statuses:
            return self._boxes[2]
        dx, dy = math.floor(camera.origin[0]), math.floor(camera.origin[1])
        local = camera.panned(-dx, -dy)
        _, sizes, _ = self._measured(state)
        extents = (np.asarray(sizes) * (camera.scale / 2)).tolist()
        centres = local.to_screen_array(
            np.array([(u.x, u.y) for u in state.units], dtype=float).reshape(-1, 2)
        ).tolist()
        if self._shapes is None or self._shapes[0] is not statuses:
            # each token's pixels about its bottom centre's pixel: the same at every zoom
            shapes = {u: draw_token(None, fonts, status, (0, 0)) for u, status in statuses.items()}
            self._shapes = (statuses, shapes)
        shapes = self._shapes[1]
        found, bottoms = {}, {}
        for unit, extent, (cx, cy) in zip(state.units, extents, centres, strict=True):
            shape = shapes.get(unit.id)
            if shape is None or extent < MIN_EXTENT:
                continue
            bottoms[unit.id] = (round(cx), round(cy - extent - GAP))
            found[unit.id] = shape.move(bottoms[unit.id])
        self.bar_widths = {}
        for unit_id, room in token_room(found).items():
            bar = room - 3  # its edges, and a pixel for rounding the middle
            if bar < MIN_BAR_WIDTH:
                continue  # too narrow to read: staggered instead (`place_tokens`)
            narrow = draw_token(None, fonts, statuses[unit_id], (0, 0), bar)
            if narrow.width <= room:  # pips or a count may keep it wider
                found[unit_id] = narrow.move(bottoms[unit_id])
                self.bar_widths[unit_id] = bar
        placed = place_tokens(found)
        self.raised = {unit_id: found[unit_id].y - rect.y for unit_id, rect in placed.items()}
        self._boxes = (key, statuses, placed)
        return placed

    def draw(
        self,
        surface: pygame.Surface,
        camera: Camera,
        state: GameState,
        system: RuleSystem,
        fonts: Fonts,
        *,
        names: Sequence[pygame.Rect] = (),
        selected: str | None = None,
    ) -> None:
        """Every unit's token above it (wrecks crossed out), then the marks of all (the
        `selected` unit's first): clear of the tokens, of each other and of the units'
        `names` (the name labels' pixels), and of the bases where they can be."""
        statuses = self.statuses(state, system)
        width, height = surface.get_size()
        _, sizes, bounds = self._measured(state)
        boxes = self.token_boxes(camera, state, system, fonts)
        requests: list[MarkRequest] = []
        self.drawn = {}
        for unit, size in zip(state.units, sizes, strict=True):
            status = statuses.get(unit.id)
            if status is None:
                continue
            extent = size * camera.scale / 2
            cx, cy = camera.to_screen(unit.x, unit.y)
            if extent < MIN_EXTENT or not (-40 <= cx <= width + 40 and -40 <= cy <= height + 40):
                continue
            if status.wreck:
                draw_wreck(surface, (cx, cy), extent)
            if unit.id not in boxes:  # no room clear of the other tokens: the hover card tells
                continue
            raised = self.raised[unit.id]  # where `token_boxes` put it: a row or more up
            bottom = (cx, cy - extent - GAP - raised)
            bar = self.bar_widths.get(unit.id, BAR_WIDTH)
            token = self.drawn[unit.id] = draw_token(surface, fonts, status, bottom, bar)
            if status.marks:
                request = MarkRequest(unit.id, status.marks, token)
                requests.insert(0 if unit.id == selected else len(requests), request)
        if not requests:
            self.marks = []
            return
        corners = camera.to_screen_array(bounds.reshape(-1, 2, 2)).reshape(-1, 4)
        bases = [
            pygame.Rect(round(x0), round(y1), round(x1 - x0) + 1, round(y0 - y1) + 1)
            for x0, y0, x1, y1 in corners.tolist()
        ]
        self.marks = place_marks(
            requests,
            lambda mark: mark_picture(fonts, mark).get_width() + 2 * PLATE_MARGIN,
            mark_pitch(fonts),
            keep_off=[*names, *(token for token in self.drawn.values() if token.width)],
            avoid=bases,
            within=surface.get_rect(),
        )
        for block in self.marks:
            draw_marks(surface, fonts, block)


def draw_wreck(surface: pygame.Surface, centre: tuple[float, float], extent: float) -> None:
    """A grey cross over the unit: out of the fight, still on the table."""
    r = extent * 0.8
    cx, cy = centre
    pygame.draw.line(surface, WRECK, (cx - r, cy - r), (cx + r, cy + r), 3)
    pygame.draw.line(surface, WRECK, (cx - r, cy + r), (cx + r, cy - r), 3)


def mark_picture(fonts: Fonts, mark: str) -> pygame.Surface:
    """A mark's text as the table shows it (cached by `fonts`)."""
    return fonts.shadowed(mark, MARK_SIZE, MARK, LABEL_SHADOW)


def mark_pitch(fonts: Fonts) -> int:
    """The height of a line of marks: the tallest letters' and a pixel."""
    return mark_picture(fonts, "Hg|").get_height() + 1


def draw_marks(surface: pygame.Surface, fonts: Fonts, block: MarkBlock) -> None:
    """A placed block of marks on a dark plate (readable over a base or terrain), each
    line in the middle of its slot; a block moved from its first place (for a neighbour)
    is tied to its token by a thin line, so that it still reads as its unit's."""
    for line in block.lines:  # the plate, line by line (as they were kept clear)
        backing = pygame.Surface(line.rect.size, pygame.SRCALPHA)
        backing.fill(PLATE)
        surface.blit(backing, line.rect)
    plate, token = block.rect, block.token
    near = (
        min(max(token.centerx, plate.left), plate.right - 1),
        min(max(token.centery, plate.top), plate.bottom - 1),
    )
    on_token = (
        min(max(near[0], token.left), max(token.left, token.right - 1)),
        min(max(near[1], token.top), max(token.top, token.bottom - 1)),
    )
    if block.moved and on_token != near:  # beside it and level, it needs no tie
        pygame.draw.line(surface, MARK, near, on_token, 1)
    for line in block.lines:
        picture = mark_picture(fonts, line.text)
        slot = line.rect.inflate(-2 * PLATE_MARGIN, 0)
        if line.align == "left":
            place = picture.get_rect(midleft=slot.midleft)
        elif line.align == "right":
            place = picture.get_rect(midright=slot.midright)
        else:
            place = picture.get_rect(center=slot.center)
        surface.blit(picture, place)


def draw_token(
    surface: pygame.Surface | None,
    fonts: Fonts,
    status: UnitStatus,
    bottom: tuple[float, float],
    bar_width: int = BAR_WIDTH,
) -> pygame.Rect:
    """The token with its bottom centre at `bottom`: bars (`bar_width` pixels inside their
    edge) and pips stacked (its marks are placed with every unit's, `StatusBoard.draw`);
    its pixels. With no `surface`, only where it would go."""
    x, y = bottom
    drawn = pygame.Rect(round(x), round(y), 0, 0)
    for value in reversed(status.tokens):
        fraction = value.fraction
        if value.token == "pips" and value.current is not None:
            rect = _pips(surface, fonts, int(value.current), value.maximum, (x, y))
        elif fraction is not None:
            rect = _bar(surface, fraction, (x, y), bar_width)
        else:
            continue
        drawn.union_ip(rect)
        y = rect.top - 2
    return drawn


def _bar(
    surface: pygame.Surface | None, fraction: float, bottom: tuple[float, float], width: int
) -> pygame.Rect:
    rect = pygame.Rect(0, 0, width, BAR_HEIGHT)
    rect.midbottom = (round(bottom[0]), round(bottom[1]))
    if surface is None:
        return rect.inflate(2, 2)
    pygame.draw.rect(surface, BAR_BACK, rect)
    filled = rect.copy()
    filled.width = math.ceil(width * fraction) if fraction > 0 else 0
    if filled.width:
        pygame.draw.rect(surface, bar_colour(fraction), filled)
    pygame.draw.rect(surface, BAR_EDGE, rect.inflate(2, 2), 1)
    return rect.inflate(2, 2)


def _pips(
    surface: pygame.Surface | None,
    fonts: Fonts,
    current: int,
    maximum: float | None,
    bottom: tuple[float, float],
) -> pygame.Rect:
    total = int(maximum) if maximum is not None else current
    if total > MAX_PIPS:
        shown = f"{current}/{total}" if maximum is not None else str(current)
        if surface is None:
            picture = fonts.shadowed(shown, MARK_SIZE, PIP_ON, LABEL_SHADOW)
            return picture.get_rect(midbottom=(round(bottom[0]), round(bottom[1])))
        return text(
            surface, fonts, shown, bottom, MARK_SIZE, PIP_ON, "midbottom", shadow=LABEL_SHADOW
        )
    step = PIP + 2
    left = round(bottom[0] - total * step / 2)
    top = round(bottom[1]) - PIP
    for index in range(total if surface is not None else 0):
        colour = PIP_ON if index < current else PIP_OFF
        pygame.draw.circle(
            surface, colour, (left + index * step + PIP // 2, top + PIP // 2), PIP // 2 + 1
        )
    return pygame.Rect(left - 1, top - 1, total * step + 2, PIP + 2)
