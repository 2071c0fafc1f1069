"""Colours, line weights and hatching: every visual choice of the renderer in one place.

Colours are (r, g, b) or (r, g, b, a) tuples so that tests can compare pixels
against them. Nothing here knows pixels per inch; sizes are screen pixels.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from tactical.drawing import hatching
from tactical.model import SizeClass

Colour = tuple[int, int, int]
RGBA = tuple[int, int, int, int]

SURROUND: Colour = (24, 26, 31)  # outside the table: margins, letterbox
FRAME: Colour = (196, 186, 160)  # table edge
TEXT: Colour = (226, 224, 216)
TEXT_DIM: Colour = (150, 150, 150)
TICK: Colour = (190, 186, 172)


@dataclass(frozen=True, slots=True)
class Background:
    """How the table surface looks for a rule system's setting (RuleSystem.background)."""

    name: str
    table: Colour
    grid: Colour
    area_label: Colour
    stars: bool = False


BACKGROUNDS: dict[str, Background] = {
    "sea": Background("sea", table=(27, 66, 104), grid=(92, 136, 176), area_label=(64, 104, 142)),
    "land": Background("land", table=(74, 96, 58), grid=(136, 156, 112), area_label=(104, 126, 86)),
    "space": Background(
        "space", table=(12, 14, 28), grid=(60, 66, 104), area_label=(44, 48, 82), stars=True
    ),
}
STAR: Colour = (176, 182, 210)


def background(name: str) -> Background:
    """The look of `name` ("sea", "land", "space"); unknown settings get the sea."""
    return BACKGROUNDS.get(name, BACKGROUNDS["sea"])


# --------------------------------------------------------------------------- terrain


class Hatch:
    """Hatching patterns: angles of the line families (degrees, screen, 0 = horizontal), the
    drawing seam's (`hatching.KIND_HATCH`: the print kit hatches the kinds alike)."""

    NONE = hatching.NO_HATCH
    DIAGONAL = hatching.DIAGONAL
    CROSS = hatching.CROSS
    HORIZONTAL = hatching.ACROSS


@dataclass(frozen=True, slots=True)
class TerrainStyle:
    """Fill, hatching and outline of one terrain kind."""

    label: str
    fill: Colour
    hatch: tuple[float, ...]
    hatch_colour: Colour
    outline: Colour


TERRAIN_STYLES: dict[str, TerrainStyle] = {
    "soft": TerrainStyle("soft", (176, 166, 112), Hatch.NONE, (150, 140, 92), (226, 214, 160)),
    "dense": TerrainStyle("dense", (74, 104, 52), Hatch.DIAGONAL, (46, 70, 32), (178, 204, 140)),
    "obstructing": TerrainStyle(
        "obstructing", (112, 108, 104), Hatch.CROSS, (76, 72, 70), (236, 232, 226)
    ),
}

# Kinds a rule system adds get a colour from here, picked by a stable hash of the name.
GENERIC_FILLS: tuple[Colour, ...] = (
    (150, 92, 150),
    (176, 120, 64),
    (84, 150, 150),
    (150, 150, 70),
    (110, 110, 170),
)


def terrain_style(kind: str) -> TerrainStyle:
    """The style of a terrain kind; kinds beyond soft/dense/obstructing are drawn generically."""
    if kind in TERRAIN_STYLES:
        return TERRAIN_STYLES[kind]
    fill = GENERIC_FILLS[zlib.crc32(kind.encode()) % len(GENERIC_FILLS)]
    hatch_colour = _shade(fill, 0.75)
    return TerrainStyle(kind, fill, Hatch.HORIZONTAL, hatch_colour, _shade(fill, 1.5))


# Outline width in pixels by Surface Height (R002.8): taller pieces get heavier outlines.
HEIGHT_OUTLINE: dict[SizeClass, int] = {
    SizeClass.TINY: 1,
    SizeClass.SMALL: 2,
    SizeClass.MEDIUM: 3,
    SizeClass.LARGE: 4,
    SizeClass.MASSIVE: 5,
}
HATCH_SPACING = 7  # pixels between hatch lines, the same at every zoom
BLOCKING_HIGHLIGHT: Colour = (255, 70, 60)  # outline of terrain blocking a shown LOS line

# --------------------------------------------------------------------------- units

SIDE_COLOURS: dict[str, Colour] = {"A": (70, 150, 255), "B": (250, 136, 36)}
OTHER_SIDE_COLOURS: tuple[Colour, ...] = (
    (200, 96, 226),
    (238, 214, 64),
    (56, 200, 172),
    (240, 110, 150),
    (160, 160, 160),
)
UNIT_OUTLINE: Colour = (16, 18, 22)
HEADING_MARKER: Colour = (255, 255, 255)
SELECTED_OUTLINE: Colour = (255, 255, 255)
LABEL: Colour = (240, 240, 236)
LABEL_SHADOW: Colour = (10, 12, 16)
LABEL_LEADER: Colour = (170, 170, 165)  # the line from a name put away to its unit


def side_colours(sides: tuple[str, ...]) -> dict[str, Colour]:
    """A colour for every side: A and B fixed, other sides from a palette in order of appearance."""
    colours: dict[str, Colour] = {}
    others = iter(OTHER_SIDE_COLOURS)
    for side in sides:
        if side in SIDE_COLOURS:
            colours[side] = SIDE_COLOURS[side]
        else:
            colours[side] = next(others, OTHER_SIDE_COLOURS[len(colours) % len(OTHER_SIDE_COLOURS)])
    return colours


# --------------------------------------------------------------------------- overlays

LOS_CLEAR: Colour = (60, 232, 96)
LOS_BLOCKED: Colour = (240, 44, 44)
ARC_TINTS: tuple[RGBA, ...] = (
    (90, 220, 255, 36),
    (255, 226, 80, 36),
    (255, 110, 200, 36),
    (140, 255, 120, 36),
    (255, 160, 80, 36),
    (180, 140, 255, 36),
)
ARC_EDGE_ALPHA = 190
RANGE_RING: RGBA = (255, 255, 255, 120)
RANGE_LABEL: Colour = (230, 230, 230)
DEPLOYMENT_TINTS: dict[str, RGBA] = {"A": (70, 150, 255, 40), "B": (250, 136, 36, 40)}
LEGEND_PANEL: RGBA = (18, 20, 26, 215)

# --------------------------------------------------------------------------- adjudication card

CARD_WITNESS: Colour = (255, 222, 40)  # the measured range segment
CARD_EDGE_WITNESS: Colour = (120, 220, 255)  # the edge-to-edge segment, when it differs
CARD_ARC_LINE: Colour = (255, 120, 220)  # the firer's arc boundary lines
CARD_BAND_EDGE: Colour = (150, 255, 170)  # the range-band edge nearest the target
CARD_PANEL: Colour = (32, 35, 42)


def arc_tint(index: int) -> RGBA:
    return ARC_TINTS[index % len(ARC_TINTS)]


def _shade(colour: Colour, factor: float) -> Colour:
    r, g, b = (min(255, max(0, round(c * factor))) for c in colour)
    return r, g, b


def darker(colour: Colour, factor: float = 0.6) -> Colour:
    return _shade(colour, factor)
