"""Where the selected unit's range-band labels go on their rings (`place_ring_labels`).

Each ring's label ("Short 12\"") stands just inside its ring. It goes at the ring's top
where that is free; where a unit's name, a status token, another ring's label or a base
is there, it slides along its ring, a few degrees at a time to either side, to the
first place free of them all (then the same just outside the ring: the nearest ring is
often too small to hold its label clear of its own unit). The units' names stay where
they are: selecting a unit would otherwise move every name its rings pass, and a
player would lose track of the names he had just read. Where no place on a ring is
free, the one covering the fewest pixels of tokens, then of bases, is taken, nearest the
top among equals; but a label that would cover a name or another ring's label wherever
it went is left out (rings an inch apart round a unit zoomed far out stacked their
labels into an unreadable knot): zooming in gives it room, and pointing at a unit gives
its range band in the hover panel.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pygame

from tactical.drawing.scenes import ring_label
from tactical.present.selection import RangeRing
from tactical.ui import palette
from tactical.ui.camera import Camera
from tactical.ui.fonts import Fonts

RING_LABEL_SIZE = 11
RING_LABEL_GAP = 2  # pixels between a ring and its label, inside it
STEP = 10  # degrees between the places tried along a ring


@dataclass(frozen=True)
class RingLabel:
    """A ring's label as placed: its text and its pixels on screen."""

    text: str
    rect: pygame.Rect


def ring_label_text(ring: RangeRing) -> str:
    """A ring's label as the ring's description names it (`scenes.ring_label`: "Short
    12\"", "band 2: 24\"")."""
    return ring_label(ring.name, ring.distance)


def _bearings() -> list[float]:
    """The directions tried from the unit's middle, in screen radians: straight up first,
    then STEP degrees more to either side in turn, down to straight down."""
    found = [-90.0]
    for step in range(STEP, 180, STEP):
        found += [-90.0 + step, -90.0 - step]
    found.append(90.0)
    return [math.radians(degrees) for degrees in found]


_BEARINGS = _bearings()


def _places_on(
    points: np.ndarray, centre: tuple[float, float], size: tuple[int, int]
) -> list[pygame.Rect]:
    """A label of `size` just inside a ring through `points` (screen pixels) around
    `centre`, in the order of `_bearings`: for each, the ring's point nearest that
    direction, and the label on the middle's side of it, touching it; then the same
    just outside the ring (a ring too small for its label inside but over its unit)."""
    cx, cy = centre
    angles = np.arctan2(points[:, 1] - cy, points[:, 0] - cx)
    bearings = np.array(_BEARINGS)
    # each direction's nearest point of the ring, for all at once
    turn = np.abs((angles[None, :] - bearings[:, None] + math.pi) % (2 * math.pi) - math.pi)
    nearest = points[np.argmin(turn, axis=1)]
    offsets = nearest - (cx, cy)
    lengths = np.hypot(offsets[:, 0], offsets[:, 1])
    units = offsets / np.where(lengths > 0, lengths, 1.0)[:, None]
    width, height = size
    # each label's middle inward from its point: its half extent along the direction, and
    # the gap
    inward = np.abs(units[:, 0]) * width / 2 + np.abs(units[:, 1]) * height / 2 + RING_LABEL_GAP
    places = []
    for side in (1, -1):
        middles = nearest - units * (inward * side)[:, None]
        corners = np.rint(middles - (width / 2, height / 2)).astype(int).tolist()
        places += [pygame.Rect(left, top, width, height) for left, top in corners]
    return places


def _covered(rect: pygame.Rect, others: Sequence[pygame.Rect]) -> int:
    """The pixels of `others` that `rect` covers."""
    area = 0
    for index in rect.collidelistall(others):
        overlap = rect.clip(others[index])
        area += overlap.width * overlap.height
    return area


def place_ring_labels(
    rings: Sequence[RangeRing],
    camera: Camera,
    fonts: Fonts,
    centre: tuple[float, float],
    within: pygame.Rect,
    *,
    names: Sequence[pygame.Rect] = (),
    tokens: Sequence[pygame.Rect] = (),
    bases: Sequence[pygame.Rect] = (),
) -> list[RingLabel]:
    """Each ring's label (see the module docstring), the rings in their order: on screen
    pixels through `camera`, around the unit's middle `centre` (table inches), inside
    `within` (the table on screen), clear of `names` (the units' names drawn), `tokens`
    and `bases` where some place on the ring lets it. A ring with no place inside
    `within`, or none clear of the names and the labels placed before it, has no label."""
    middle = camera.to_screen(*centre)
    placed: list[RingLabel] = []
    taken: list[pygame.Rect] = list(names)
    for ring in rings:
        text = ring_label_text(ring)
        size = fonts.shadowed(text, RING_LABEL_SIZE, palette.RANGE_LABEL, palette.LABEL_SHADOW)
        points = camera.to_screen_array(np.asarray(ring.outline.coords)[:, :2])
        places = _places_on(points, middle, size.get_size())
        inside = [rect for rect in places if within.contains(rect)]
        if not inside:
            continue
        best = min(
            range(len(inside)),
            key=lambda k: (
                _covered(inside[k], taken),
                _covered(inside[k], tokens),
                _covered(inside[k], bases),
                k,
            ),
        )
        rect = inside[best]
        if _covered(rect, taken):
            continue  # over a name or a nearer ring's label wherever it goes: left out
        placed.append(RingLabel(text, rect))
        taken.append(rect)
    return placed


def draw_ring_labels(surface: pygame.Surface, fonts: Fonts, labels: Sequence[RingLabel]) -> None:
    """Blit the ring labels placed, each with its shadow."""
    surface.blits(
        [
            (
                fonts.shadowed(
                    label.text, RING_LABEL_SIZE, palette.RANGE_LABEL, palette.LABEL_SHADOW
                ),
                label.rect,
            )
            for label in labels
        ],
        doreturn=False,
    )
