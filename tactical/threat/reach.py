"""Reach: every end position a unit can legally reach this activation, with its heading.

The candidate moves are paths in the movement planner's own steps (`F`, `P`/`S`,
`B`), built from the unit's `TurningRules` (its rule system's, with this activation's
choices): straight moves; template turns after the Minimum Move (GEO002.8, R002.30),
one or two groups of them with straights between; backwards moves (R002.31); and for a
unit turning about its centre, a turn, a straight and a turn within its turn limit
(R004.51). Each path's end pose is the composition of the planner's own motions
(`motion_for`: translations, and rotations about `pivot_point`), done for all paths at
once with numpy; the limits the planner checks (distance, Minimum Move, turn per step
and per move, backwards) hold for every candidate by construction, and the tests run
`plan_path` on them to prove it.

On the table a candidate is kept when its base at the end lies on the table, clear of
the terrain it collides with (`terrain_collides`) and of the other models on its layer,
and its centre's path keeps half its base width from them (the swept corridor; the
planner's exact sweep, `plan_move`, judges a chosen move).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import shapely

from tactical.geometry.movement import Step, StepKind, format_path, motion_for
from tactical.geometry.movement_spec import Pivot, TurningRules
from tactical.geometry.shapes import Base, CircleBase, Pose
from tactical.model import GameState, Unit
from tactical.rules import registry
from tactical.session.movement import find_unit, turning_rules_for

DISTANCE_SAMPLES = 12  # straight lengths tried per leg, from 0 to the unit's movement
TURN_STEP = 5.0  # degrees between the turns tried by a unit turning about its centre
UNLIMITED_MOVE = 24.0  # inches: a unit without a movement limit is shown this far
GRID = 0.5  # inches: the reach region is drawn on the threat map's grid


@dataclass(frozen=True)
class Reach:
    """A unit's legal end positions: `poses` (n, 3) x, y, heading; `paths` the planner's
    path for each; `spread` (n,) the further heading change still allowed at that end
    (a unit turning about its centre may finish with a turn); `region` the cells its
    centre can end in."""

    unit_id: str
    poses: np.ndarray
    paths: tuple[str, ...]
    spread: np.ndarray
    region: shapely.Geometry
    limited: bool

    def __len__(self) -> int:
        return len(self.paths)


@dataclass(frozen=True)
class _Family:
    """Candidate paths relative to a pose at the origin heading 0 (cached per rules, base)."""

    poses: np.ndarray  # (n, 3)
    corridors: np.ndarray  # (n, k, 2): the centre's way points
    paths: tuple[str, ...]
    spread: np.ndarray


def reach(state: GameState, unit_id: str) -> Reach:
    """`unit_id`'s legal end positions this activation on `state` (see the module doc)."""
    unit = find_unit(state, unit_id)
    system = registry.get(state.rules)
    rules = turning_rules_for(system, state, unit, None)
    family = candidate_moves(rules, unit.base)
    poses, corridors = _placed(family, unit.pose)
    keep = _clear(state, system, unit, poses, corridors)
    if rules.pivot is Pivot.CENTRE and rules.max_turn_per_step is None:
        # turning freely about its centre the unit can end anywhere in its sector: the region
        # is every cell of it, not only the sampled ends
        region = _centre_region(state, system, unit, rules)
    else:
        region = _region(poses[keep, :2])
    return Reach(
        unit.id,
        poses[keep],
        tuple(p for p, k in zip(family.paths, keep, strict=True) if k),
        family.spread[keep],
        region,
        rules.max_distance is not None,
    )


# --------------------------------------------------------------------------- candidates


@lru_cache(maxsize=64)
def candidate_moves(rules: TurningRules, base: Base) -> _Family:
    """Every candidate path for `rules` and `base`, with its end pose from the origin."""
    limit = rules.max_distance if rules.max_distance is not None else UNLIMITED_MOVE
    paths: list[tuple[Step, ...]] = []
    spreads: list[float] = []
    if rules.pivot is Pivot.CENTRE and rules.max_turn_per_step is None:
        total = rules.max_turn_per_move if rules.max_turn_per_move is not None else 180.0
        for first in np.arange(-total, total + 1e-9, TURN_STEP):
            for distance in _lengths(limit, rules.min_total_distance):
                steps = (*_turn(first), *((Step(StepKind.FORWARD, distance),) if distance else ()))
                paths.append(steps)
                spreads.append(total - abs(first))
    else:
        paths.extend(_template_paths(rules, limit))
        spreads.extend(0.0 for _ in range(len(paths) - len(spreads)))
    if rules.allow_backwards and rules.max_backwards and rules.min_total_distance <= 0:
        for distance in _lengths(rules.max_backwards, 0.0)[1:]:
            paths.append((Step(StepKind.BACKWARD, distance),))
            spreads.append(0.0)
    poses, corridors = _ends(paths, base, rules)
    return _Family(
        poses, corridors, tuple(format_path(p) or "stay" for p in paths), np.array(spreads)
    )


def _lengths(limit: float, minimum: float) -> list[float]:
    samples = np.round(np.linspace(0.0, limit, DISTANCE_SAMPLES + 1), 2)  # paths read to 0.01"
    return [float(d) for d in samples if d >= minimum - 1e-9 and d <= limit + 1e-9]


def _turn(degrees: float) -> tuple[Step, ...]:
    if abs(degrees) < 1e-9:
        return ()
    kind = StepKind.STARBOARD if degrees > 0 else StepKind.PORT
    return (Step(kind, float(abs(degrees))),)


def _template_paths(rules: TurningRules, limit: float) -> list[tuple[Step, ...]]:
    """Straight; F a, turns, F b; F a, turns, F b, turns, F c (a at least the Minimum
    Move; each turn one use of the template; every leg within the movement)."""
    angle = rules.max_turn_per_step or 45.0
    most = max(1, int(180.0 // angle))
    total_limit = rules.max_turn_per_move
    lengths = _lengths(limit, 0.0)
    paths: list[tuple[Step, ...]] = [
        (Step(StepKind.FORWARD, d),) if d else ()
        for d in lengths
        if d >= rules.min_total_distance - 1e-9
    ]

    def group(side: int, uses: int) -> tuple[Step, ...]:
        kind = StepKind.STARBOARD if side > 0 else StepKind.PORT
        return tuple(Step(kind, angle) for _ in range(uses))

    firsts = [d for d in lengths if d >= rules.min_straight_before_turn - 1e-9]
    for side in (-1, 1):
        for uses in range(1, most + 1):
            if total_limit is not None and uses * angle > total_limit + 1e-9:
                continue
            for a in firsts:
                for b in lengths:
                    if a + b > limit + 1e-9 or a + b < rules.min_total_distance - 1e-9:
                        continue
                    legs = (Step(StepKind.FORWARD, a),) if a else ()
                    tail = (Step(StepKind.FORWARD, b),) if b else ()
                    paths.append((*legs, *group(side, uses), *tail))
    coarse = _lengths(limit, 0.0)[:: max(1, DISTANCE_SAMPLES // 4)]
    for first_side in (-1, 1):
        for second_side in (-1, 1):
            if total_limit is not None and 2 * angle > total_limit + 1e-9:
                continue
            for a in (d for d in coarse if d >= rules.min_straight_before_turn - 1e-9):
                for b in coarse:
                    for c in coarse:
                        if b <= 0 or a + b + c > limit + 1e-9:
                            continue
                        if a + b + c < rules.min_total_distance - 1e-9:
                            continue
                        legs = (Step(StepKind.FORWARD, a),) if a else ()
                        tail = (Step(StepKind.FORWARD, c),) if c else ()
                        paths.append(
                            (
                                *legs,
                                *group(first_side, 1),
                                Step(StepKind.FORWARD, b),
                                *group(second_side, 1),
                                *tail,
                            )
                        )
    return paths


def _ends(
    paths: list[tuple[Step, ...]], base: Base, rules: TurningRules
) -> tuple[np.ndarray, np.ndarray]:
    """End poses and the centre's way points of every path from the origin, by the planner's
    motions (each step's motion from where the previous one ended)."""
    ends = np.zeros((len(paths), 3))
    width = max((len(p) for p in paths), default=0) + 1
    corridors = np.zeros((len(paths), 2 * width, 2))
    for index, steps in enumerate(paths):
        pose = Pose(0.0, 0.0, 0.0)
        points = [(0.0, 0.0)]
        for step in steps:
            motion = motion_for(pose, base, step, rules)
            middle = motion.pose_at(0.5)
            pose = motion.end
            points += [(middle.x, middle.y), (pose.x, pose.y)]
        points += [points[-1]] * (2 * width - len(points))
        corridors[index] = points
        ends[index] = (pose.x, pose.y, pose.heading)
    return ends, corridors


# --------------------------------------------------------------------------- on the table


def _placed(family: _Family, pose: Pose) -> tuple[np.ndarray, np.ndarray]:
    """The family's poses and corridors moved to start from `pose`."""
    t = math.radians(pose.heading)
    cos, sin = math.cos(t), math.sin(t)

    def move(points: np.ndarray) -> np.ndarray:
        # a compass heading turns clockwise: local (x, y) -> table
        x, y = points[..., 0], points[..., 1]
        return np.stack((pose.x + x * cos + y * sin, pose.y - x * sin + y * cos), axis=-1)

    ends = np.empty_like(family.poses)
    ends[:, :2] = move(family.poses[:, :2])
    ends[:, 2] = np.mod(family.poses[:, 2] + pose.heading, 360.0)
    return ends, move(family.corridors)


def _clear(state, system, unit: Unit, poses: np.ndarray, corridors: np.ndarray) -> np.ndarray:
    """Which ends are on the table and clear, with a clear corridor (see the module doc)."""
    footprints = _footprints(unit.base, poses)
    board = shapely.box(*state.board.bounds)
    keep = shapely.contains(board, footprints)  # a flying unit off the table is lost: no end
    obstacles = [p.geometry for p in state.terrain if system.terrain_collides(unit, p)]
    level = system.los_level(unit)
    obstacles += [
        u.footprint for u in state.units if u.id != unit.id and system.los_level(u) == level
    ]
    if not obstacles:
        return keep
    tree = shapely.STRtree(obstacles)
    hit_end = tree.query(footprints, predicate="intersects")
    keep[np.unique(hit_end[0])] = False
    lines = shapely.linestrings(corridors)
    half = unit.base.radius if isinstance(unit.base, CircleBase) else unit.base.width / 2
    hit_way = tree.query(lines, predicate="dwithin", distance=half)
    keep[np.unique(hit_way[0])] = False
    return keep


def _footprints(base: Base, poses: np.ndarray) -> np.ndarray:
    """The base at every pose, as shapely polygons (vectorised)."""
    if isinstance(base, CircleBase):
        return shapely.buffer(shapely.points(poses[:, :2]), base.radius, quad_segs=8)
    hw, hl = base.width / 2, base.length / 2
    t = np.radians(poses[:, 2])
    fx, fy = np.sin(t), np.cos(t)  # forward
    sx, sy = fy, -fx  # starboard
    corners = []
    for a, b in ((-hw, -hl), (hw, -hl), (hw, hl), (-hw, hl)):
        corners.append(np.stack((poses[:, 0] + a * sx + b * fx, poses[:, 1] + a * sy + b * fy), -1))
    return shapely.polygons(np.stack(corners, axis=1))


def _centre_region(state, system, unit: Unit, rules: TurningRules) -> shapely.Geometry:
    """The cells a unit turning about its centre can end in: within its move of its centre,
    within its turn limit of its heading, its base (any heading: its circumscribed circle)
    on the table and off the obstacles; with a turn limit, a clear straight way there too
    (without one the unit may turn on its way round an obstacle)."""
    limit = rules.max_distance if rules.max_distance is not None else UNLIMITED_MOVE
    x0, y0 = unit.x - limit, unit.y - limit
    steps = int(np.ceil(2 * limit / GRID))
    xs = np.floor(x0 / GRID) * GRID + (np.arange(steps + 2) + 0.5) * GRID
    ys = np.floor(y0 / GRID) * GRID + (np.arange(steps + 2) + 0.5) * GRID
    cx, cy = (a.ravel() for a in np.meshgrid(xs, ys))
    dx, dy = cx - unit.x, cy - unit.y
    inside = np.hypot(dx, dy) <= limit + 1e-9
    if rules.max_turn_per_move is not None:
        off = np.mod(np.degrees(np.arctan2(dx, dy)) - unit.heading + 180.0, 360.0) - 180.0
        inside &= (np.abs(off) <= rules.max_turn_per_move + 1e-9) | (np.hypot(dx, dy) < GRID)
    radius = (
        unit.base.radius
        if isinstance(unit.base, CircleBase)
        else math.hypot(unit.base.width / 2, unit.base.length / 2)
    )
    table = shapely.box(*state.board.bounds).buffer(-radius)
    inside &= shapely.contains_xy(table, cx, cy)
    cx, cy = cx[inside], cy[inside]
    obstacles = [p.geometry for p in state.terrain if system.terrain_collides(unit, p)]
    level = system.los_level(unit)
    obstacles += [
        u.footprint for u in state.units if u.id != unit.id and system.los_level(u) == level
    ]
    if obstacles and len(cx):
        tree = shapely.STRtree(obstacles)
        ends = shapely.points(cx, cy)
        hit = tree.query(ends, predicate="dwithin", distance=radius)
        keep = np.ones(len(cx), dtype=bool)
        keep[np.unique(hit[0])] = False
        if rules.max_turn_per_move is not None:
            # a limited turn keeps the way nearly straight; a free turner steers round
            starts = np.column_stack((np.full(len(cx), unit.x), np.full(len(cx), unit.y)))
            ways = shapely.linestrings(np.stack([starts, np.column_stack((cx, cy))], axis=1))
            half = unit.base.radius if isinstance(unit.base, CircleBase) else unit.base.width / 2
            crossed = tree.query(ways, predicate="dwithin", distance=half)
            keep[np.unique(crossed[0])] = False
        cx, cy = cx[keep], cy[keep]
    return _region(np.column_stack((cx, cy)))


def _region(centres: np.ndarray) -> shapely.Geometry:
    """The cells of the 0.5" grid holding a reachable end centre, as one geometry."""
    if len(centres) == 0:
        return shapely.Polygon()
    cells = np.unique(np.floor(centres / GRID).astype(np.int64), axis=0)
    boxes = shapely.box(
        cells[:, 0] * GRID, cells[:, 1] * GRID, (cells[:, 0] + 1) * GRID, (cells[:, 1] + 1) * GRID
    )
    return shapely.union_all(boxes)
