"""The live preview of a planned move: path, swept area, ghost base, stop, turns.

`draw_move_preview` draws a `MovePlan` over the table: the centreline of the
path (solid where the unit goes, dashed and faded past a collision stop), the
area the base sweeps (translucent), the ghost base at the final pose with its
heading marker, a cross where a collision or the table edge stops it, every
turn labelled with its angle (turns that need a Treacherous Terrain test in
the warning colour) and a tag with the distance moved of the maximum and the
minimum move. Everything in screen space is computed once per (plan, camera,
surface size) and cached, so a frame where nothing changed is a blit and a
few lines. Limits and SPEC ids come from the plan's `TurningRules`.
"""

from __future__ import annotations

import itertools
import math
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
import pygame

from tactical.drawing import primitives as ink
from tactical.drawing import scenes
from tactical.geometry.movement import Motion, Rotation, StepKind
from tactical.geometry.movement_spec import TurningRules
from tactical.geometry.shapes import Base, CircleBase, Pose, RectBase, base_corners
from tactical.model import Board, Unit
from tactical.present.selection import SelectionView
from tactical.session.movement import MovePlan
from tactical.ui.camera import Camera
from tactical.ui.draw import lines_of, polyline, screen_points, text
from tactical.ui.fonts import Fonts
from tactical.ui.layers import draw_sight_lines
from tactical.ui.palette import HEADING_MARKER, LABEL_SHADOW, TEXT_DIM, Colour, arc_tint
from tactical.ui.play_panels import wrap_text

RING_COLOUR: Colour = (130, 134, 150)  # range rings at the path's end (opaque: drawn per frame)
WARNING: Colour = (255, 196, 40)  # turns that need a Treacherous Terrain test
STOP: Colour = (255, 70, 60)  # the collision stop cross
SWEPT_ALPHA = 60
GHOST_ALPHA = 130
ARC_DEGREES_PER_POINT = 5.0  # centreline samples along a turn
DASH, GAP = 8.0, 6.0  # pixels: the part of the path cut by a collision stop
CROSS = 7  # pixels: half the size of the stop cross
LABEL_SIZE = 13
TAG_SIZE = 14
CACHE_SIZE = 8
HANDLE_RADIUS = 7  # pixels: the drawn handles
HANDLE_OFFSET = 28  # pixels: port/starboard handles beside the path end

Point = tuple[float, float]


def collision_rule(rules: TurningRules) -> str | None:
    """The SPEC id a collision stop cites, where the rule system publishes one in its rules."""
    return getattr(rules, "collision_rule", None)


def straight_before_turn(plan: MovePlan) -> tuple[float, bool]:
    """Inches moved straight ahead before the first turn, and whether the path turns at all."""
    ahead = 0.0
    for planned in plan.path.steps:
        if planned.step.is_turn:
            return ahead, True
        if planned.step.kind is StepKind.FORWARD:
            ahead += planned.step.amount
    return ahead, False


def status_tag(plan: MovePlan) -> str:
    """'4.0" of 6" · min 2" met (R002.30)': the distance moved of the maximum and whether the
    minimum move before a turn is met ("not yet met" while the path has not turned)."""
    rules = plan.rules
    moved = f'{plan.distance:.1f}"'
    parts = [f'{moved} of {rules.max_distance:g}"' if rules.max_distance is not None else moved]
    minimum = rules.min_straight_before_turn
    backwards = any(s.step.kind is StepKind.BACKWARD for s in plan.path.steps)
    if minimum > 0 and not backwards and not plan.path.disengage:
        ahead, turns = straight_before_turn(plan)
        # short of it without a turn is still legal: the unit may not turn yet
        verdict = "met" if ahead >= minimum - 1e-9 else "not met" if turns else "not yet met"
        parts.append(f'min {minimum:g}" {verdict} ({rules.min_move_rule})')
    return " · ".join(parts)


def handle_points(camera: Camera, end: Pose, base: Base | None = None) -> dict[str, Point]:
    """Screen points of the move tool's handles: "end" at the path end, "port" and
    "starboard" beside it, left and right of its heading (clear of the `base` when given)."""
    x, y = camera.to_screen(end.x, end.y)
    dx, dy = camera.screen_direction(end.heading)
    offset = HANDLE_OFFSET
    if base is not None:
        offset = max(offset, camera.pixels(_half_beam(base)) + 2 * HANDLE_RADIUS)
    # port is left of the heading: the screen direction turned a quarter anticlockwise as seen
    return {
        "end": (x, y),
        "port": (x + dy * offset, y - dx * offset),
        "starboard": (x - dy * offset, y + dx * offset),
    }


def draw_handles(surface: pygame.Surface, handles: dict[str, Point], colour: Colour) -> None:
    """The handles as small rings: the end in the unit's colour, the turn handles white."""
    for name, (x, y) in handles.items():
        tint = colour if name == "end" else HEADING_MARKER
        pygame.draw.circle(surface, LABEL_SHADOW, (x, y), HANDLE_RADIUS + 1, 2)
        pygame.draw.circle(surface, tint, (x, y), HANDLE_RADIUS, 2)


# --------------------------------------------------------------------------- screen shapes


@dataclass(frozen=True)
class PreviewShapes:
    """A plan in screen pixels for one camera: everything a frame draws, computed once."""

    overlay: pygame.Surface | None  # swept area and ghost fill, translucent
    overlay_at: tuple[int, int]
    executed: tuple[Point, ...]  # centreline actually travelled
    dashes: tuple[tuple[Point, Point], ...]  # centreline past the collision stop
    ghost: tuple[Point, ...]  # ghost base outline (closed)
    heading: tuple[Point, Point]  # ghost heading marker: centre to bow
    turns: tuple[tuple[Point, str, bool], ...]  # (where, label, needs a test)
    stop: tuple[Point, str] | None  # collision / edge stop cross and its label
    tag: str
    tag_at: Point
    handles: dict[str, Point]


_CacheKey = tuple[int, Camera, tuple[int, int], Colour]
_cache: OrderedDict[_CacheKey, tuple[MovePlan, PreviewShapes]] = OrderedDict()


def preview_shapes(
    plan: MovePlan, camera: Camera, size: tuple[int, int], colour: Colour
) -> PreviewShapes:
    """The plan's screen shapes for `camera` on a surface of `size` (cached per plan object)."""
    key = (id(plan), camera, size, colour)
    hit = _cache.get(key)
    if hit is not None and hit[0] is plan:
        _cache.move_to_end(key)
        return hit[1]
    shapes = _build(plan, camera, size, colour)
    _cache[key] = (plan, shapes)
    if len(_cache) > CACHE_SIZE:
        _cache.popitem(last=False)
    return shapes


def _centreline(camera: Camera, motions: list[Motion]) -> list[Point]:
    """The unit's centre along the motions, in screen pixels."""
    poses: list[Pose] = []
    for motion in motions:
        if isinstance(motion, Rotation):
            count = max(1, math.ceil(abs(motion.angle) / ARC_DEGREES_PER_POINT))
        else:
            count = 1
        start = 1 if poses else 0
        poses.extend(motion.pose_at(i / count) for i in range(start, count + 1))
    if not poses:
        return []
    points = camera.to_screen_array(np.array([(p.x, p.y) for p in poses]))
    return [(float(x), float(y)) for x, y in points]


def _dashes(points: list[Point]) -> list[tuple[Point, Point]]:
    """Dash segments along a screen polyline (DASH on, GAP off)."""
    dashes: list[tuple[Point, Point]] = []
    phase = 0.0  # distance into the current dash+gap period
    period = DASH + GAP
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        length = math.hypot(x1 - x0, y1 - y0)
        at = 0.0
        while at < length:
            into = phase % period
            if into < DASH:
                run = min(DASH - into, length - at)
                a, b = at / length, (at + run) / length
                dashes.append(
                    (
                        (x0 + (x1 - x0) * a, y0 + (y1 - y0) * a),
                        (x0 + (x1 - x0) * b, y0 + (y1 - y0) * b),
                    )
                )
            else:
                run = min(period - into, length - at)
            at += run
            phase += run
    return dashes


def _outline(camera: Camera, pose: Pose, base: Base) -> list[Point]:
    if isinstance(base, RectBase):
        corners = base_corners(pose, base)
    else:
        angles = np.linspace(0.0, 2 * math.pi, 48, endpoint=False)
        corners = np.column_stack(
            (pose.x + base.radius * np.cos(angles), pose.y + base.radius * np.sin(angles))
        )
    return [(float(x), float(y)) for x, y in camera.to_screen_array(corners)]


def _half_beam(base: Base) -> float:
    return base.radius if isinstance(base, CircleBase) else base.width / 2


def _half_length(base: Base) -> float:
    return base.radius if isinstance(base, CircleBase) else base.length / 2


def _build(plan: MovePlan, camera: Camera, size: tuple[int, int], colour: Colour) -> PreviewShapes:
    base = plan.base
    final = plan.final
    executed = _centreline(camera, [step.motion for step in plan.executed])
    dashes: list[tuple[Point, Point]] = []
    stop = None
    contact = plan.contact
    if contact is not None:
        stopped = plan.path.steps[contact.step]
        rest = [stopped.motion.part(contact.t, 1.0)]
        rest += [step.motion for step in plan.path.steps[contact.step + 1 :]]
        dashes = _dashes(_centreline(camera, rest))
        # the cross goes on the edge that leads into the obstacle
        backwards = stopped.step.kind is StepKind.BACKWARD
        edge = contact.pose.to_world(0.0, -_half_length(base) if backwards else _half_length(base))
        what = "table edge" if contact.kind == "edge" else contact.id
        stop = (camera.to_screen(*edge), f"stop: {what}")
    turns = []
    for planned in plan.path.steps:
        if planned.step.is_turn:
            where = camera.to_screen(planned.start.x, planned.start.y)
            label = f"{planned.step.token}°" + (" test" if planned.treacherous else "")
            turns.append((where, label, planned.treacherous))
    ghost = _outline(camera, final, base)
    centre = camera.to_screen(final.x, final.y)
    bow = camera.to_screen(*final.to_world(0.0, _half_length(base)))
    overlay, overlay_at = _overlay(plan, camera, size, colour, ghost)
    handles = handle_points(camera, plan.path.end, base)
    # the tag goes under the ghost and the handles, whichever way the unit ends up facing
    lowest = max(y for _, y in (*ghost, *handles.values()))
    tag_at = (centre[0], lowest + HANDLE_RADIUS + 4)
    return PreviewShapes(
        overlay,
        overlay_at,
        tuple(executed),
        tuple(dashes),
        tuple(ghost),
        (centre, bow),
        tuple(turns),
        stop,
        status_tag(plan),
        tag_at,
        handles,
    )


def _overlay(
    plan: MovePlan,
    camera: Camera,
    size: tuple[int, int],
    colour: Colour,
    ghost: list[Point],
) -> tuple[pygame.Surface | None, tuple[int, int]]:
    """The swept area and the ghost's fill on one translucent surface over their bounds."""
    rings = []
    for piece in plan.swept_pieces():
        if piece.geom_type != "Polygon":  # a degenerate hull covers no pixels of its own
            continue
        coords = np.asarray(piece.exterior.coords)[:, :2]
        rings.append(camera.to_screen_array(coords))
    everything = np.concatenate([*rings, np.asarray(ghost)]) if rings else np.asarray(ghost)
    left = max(0, math.floor(everything[:, 0].min()) - 1)
    top = max(0, math.floor(everything[:, 1].min()) - 1)
    right = min(size[0], math.ceil(everything[:, 0].max()) + 2)
    bottom = min(size[1], math.ceil(everything[:, 1].max()) + 2)
    if right <= left or bottom <= top:
        return None, (0, 0)
    overlay = pygame.Surface((right - left, bottom - top), pygame.SRCALPHA)
    offset = np.array([left, top])
    swept = (*colour, SWEPT_ALPHA)
    for ring in rings:
        pygame.draw.polygon(overlay, swept, (ring - offset).tolist())
    pygame.draw.polygon(overlay, (*colour, GHOST_ALPHA), (np.asarray(ghost) - offset).tolist())
    return overlay, (left, top)


# --------------------------------------------------------------------------- end-pose arcs

EndLines = tuple[tuple[Colour, tuple[Point, ...]], ...]
_end_cache: OrderedDict[tuple, tuple[SelectionView, list[ink.Primitive]]] = OrderedDict()


def end_view_scene(view: SelectionView, board: Board) -> list[ink.Primitive]:
    """The arcs and range rings of the unit at the path's end, described once in inches
    (`scenes.fire_arcs` unfilled, `scenes.range_rings`): the arc lines in the arc's tint and the
    rings in the rings' colour, opaque and plain (they are drawn every frame), without the
    arcs' edges along the table's edge; cached per view, for every camera."""
    key = (id(view), board)
    hit = _end_cache.get(key)
    if hit is not None and hit[0] is view:
        _end_cache.move_to_end(key)
        return hit[1]
    found = scenes.fire_arcs(view.arcs, board.bounds, arc_tint, 255, filled=False)
    found += scenes.range_rings(view.rings, (*RING_COLOUR, 255))
    _end_cache[key] = (view, found)
    if len(_end_cache) > CACHE_SIZE:
        _end_cache.popitem(last=False)
    return found


_end_lines: OrderedDict[tuple, tuple[SelectionView, EndLines]] = OrderedDict()


def end_view_lines(view: SelectionView, camera: Camera, board: Board) -> EndLines:
    """`end_view_scene` on screen: each polyline with its colour, as the seam's canvas
    strokes it (one plain pixel wide); cached per view and camera, for `draw_end_view`."""
    key = (id(view), camera, board)
    hit = _end_lines.get(key)
    if hit is not None and hit[0] is view:
        _end_lines.move_to_end(key)
        return hit[1]
    found = _end_view_lines(view, camera, board)
    _end_lines[key] = (view, found)
    if len(_end_lines) > CACHE_SIZE:
        _end_lines.popitem(last=False)
    return found


def _end_view_lines(view: SelectionView, camera: Camera, board: Board) -> EndLines:
    found: list[tuple[Colour, tuple[Point, ...]]] = []
    for line in end_view_scene(view, board):
        assert isinstance(line, ink.Line | ink.Ring) and line.style.colour is not None
        colour: Colour = tuple(round(c) for c in line.style.colour)  # type: ignore[assignment]
        for coords in lines_of(line.geometry):
            points = tuple(screen_points(camera, coords))
            if len(points) >= 2:
                found.append((colour, points))
    return tuple(found)


def draw_end_view(
    surface: pygame.Surface, camera: Camera, view: SelectionView, board: Board
) -> None:
    """Outline where the unit's arcs and range rings would lie at the end of the drawn path,
    with the view's lines of sight from there, clipped to the table (the arcs at its present
    pose are hidden while a move is drawn)."""
    previous = surface.get_clip()
    surface.set_clip(pygame.Rect(camera.screen_rect(board.bounds)).clip(previous))
    # the seam's scene as its canvas strokes it, the screen points kept while the camera
    # rests (drawn every frame: converting them again cost a tenth of a millisecond)
    for colour, points in end_view_lines(view, camera, board):
        pygame.draw.lines(surface, colour, False, points, 1)
    draw_sight_lines(surface, camera, view, antialias=False)  # redrawn every frame
    surface.set_clip(previous)


# --------------------------------------------------------------------------- drawing


def draw_move_preview(
    surface: pygame.Surface,
    camera: Camera,
    plan: MovePlan,
    unit: Unit,
    fonts: Fonts,
    colour: Colour,
) -> PreviewShapes:
    """Draw the plan's preview over the table for `unit` in its side's `colour`, with the
    move tool's handles at the path end. The plan carries the base and poses; `unit` is the
    mover as it stands (its footprint is the table's, so the preview leaves it alone).

    Returns the screen shapes drawn (cached: the same plan and camera draw from them again).
    """
    colour = tuple(colour[:3])  # type: ignore[assignment]
    shapes = preview_shapes(plan, camera, surface.get_size(), colour)
    if shapes.overlay is not None:
        surface.blit(shapes.overlay, shapes.overlay_at)
    faded = TEXT_DIM
    for start, end in shapes.dashes:
        pygame.draw.aaline(surface, faded, start, end)
    if len(shapes.executed) >= 2:
        polyline(surface, colour, shapes.executed, 2)
    pygame.draw.aalines(surface, colour, True, shapes.ghost)
    pygame.draw.line(surface, HEADING_MARKER, *shapes.heading, 2)
    for where, label, warn in shapes.turns:
        tint = WARNING if warn else HEADING_MARKER
        pygame.draw.circle(surface, tint, where, 4 if warn else 3)
        text(
            surface,
            fonts,
            label,
            (where[0] + 8, where[1]),
            LABEL_SIZE,
            tint,
            "midleft",
            LABEL_SHADOW,
        )
    if shapes.stop is not None:
        (x, y), label = shapes.stop
        pygame.draw.line(surface, STOP, (x - CROSS, y - CROSS), (x + CROSS, y + CROSS), 3)
        pygame.draw.line(surface, STOP, (x - CROSS, y + CROSS), (x + CROSS, y - CROSS), 3)
        text(surface, fonts, label, (x + CROSS + 4, y), LABEL_SIZE, STOP, "midleft", LABEL_SHADOW)
    colour_of_tag = HEADING_MARKER if plan.legal else STOP
    text(surface, fonts, shapes.tag, shapes.tag_at, TAG_SIZE, colour_of_tag, "midtop", LABEL_SHADOW)
    draw_handles(surface, shapes.handles, colour)
    return shapes


TONES: dict[str, Colour] = {
    "ok": (110, 220, 120),
    "bad": STOP,
    "warn": WARNING,
    "info": (225, 228, 236),
    "hint": TEXT_DIM,
}
CARD_BACKGROUND: Colour = (22, 24, 31)
CARD_EDGE: Colour = (70, 74, 88)
CARD_PAD = 6
CARD_TEXT_SIZE = 14  # as large as the rest of the panel's text
CARD_LINE = 15


def move_card(report: list[tuple[str, str]], size: tuple[int, int], fonts: Fonts) -> pygame.Surface:
    """The move tool's report (`MoveTool.report`) as a panel card: each line in its tone
    (legal green, illegal and violations red, stops and Snaking amber), wrapped to the width;
    what does not fit the height ends in an ellipsis line."""
    width, height = max(40, int(size[0])), max(40, int(size[1]))
    surface = pygame.Surface((width, height))
    surface.fill(CARD_BACKGROUND)
    pygame.draw.rect(surface, CARD_EDGE, surface.get_rect(), 1)
    room = width - 2 * CARD_PAD
    rows = [
        (piece, TONES.get(tone, TONES["info"]))
        for line, tone in report
        for piece in wrap_text(line, room, lambda t: fonts.width(t, CARD_TEXT_SIZE))
    ]
    fits = max(1, (height - 2 * CARD_PAD) // CARD_LINE)
    if len(rows) > fits:
        rows = [*rows[: fits - 1], ("…", TONES["info"])]
    for index, (piece, colour) in enumerate(rows):
        at = (CARD_PAD, CARD_PAD + index * CARD_LINE)
        surface.blit(fonts.render(piece, CARD_TEXT_SIZE, colour), at)
    return surface
