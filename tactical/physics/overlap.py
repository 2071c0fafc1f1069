"""Overlap detection and resolution (R002.33, GEO002.9).

"If a model has NO option but to end its move on top of another model, base or
Flight Stand, the models involved must be readjusted until they are clear of
each other in whichever way causes the LEAST possible disturbance."

How, and what is guaranteed:

1. Overlaps are found with shapely: two bases overlap when they penetrate each
   other by more than `CONTACT_TOLERANCE` (bases in contact are fine), and only
   when they are on the same height layer (a flying model over a ship does not
   overlap it).
2. The models involved (every unit in an overlap) become dynamic pymunk
   bodies that cannot rotate (headings never change, so nobody gains an arc);
   every other unit, the terrain each involved unit collides with and the
   table edges are static. pymunk pushes overlapping bodies apart along their
   minimum separating direction, each by its share of the overlap, which is
   the least total displacement for a pair. Bases are inflated by
   `SEPARATION_MARGIN` in the simulation so they end a hair apart.
3. At most `MAX_STEPS` steps, stopping as soon as pymunk reports no
   penetration. The result is then verified with shapely on the true
   footprints; any unit still overlapping a model, touching terrain it
   collides with or off the table is placed by a deterministic spiral search
   (rings of growing radius around where it stands, nearest first) among the
   already settled positions. So the resolution always terminates; it raises
   `UserError` only when no clear place exists within the table.
4. Every moved unit is reported as a `Displacement` (unit id, dx, dy, distance).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
import pymunk
import shapely
from shapely.geometry import Polygon, box
from shapely.geometry.base import BaseGeometry

from tactical.errors import UserError
from tactical.geometry.shapes import CircleBase, Pose, footprint
from tactical.geometry.sweep import CONTACT_TOLERANCE, shrunk
from tactical.model import Terrain, Unit

SEPARATION_MARGIN = 0.005  # inches each base is inflated by inside the simulation
MAX_STEPS = 600
STEP = 1 / 60
CHECK_EVERY = 4  # steps between convergence checks
SPIRAL_STEP = 0.1  # inches between spiral rings and between points on a ring
WALL_THICKNESS = 2.0

LayerOf = Callable[[Unit], str]
Collides = Callable[[Unit, Terrain], bool]


def single_layer(unit: Unit) -> str:
    return "surface"


@dataclass(frozen=True, slots=True)
class Displacement:
    """How far one unit was moved to clear an overlap (R002.33)."""

    unit_id: str
    dx: float
    dy: float

    @property
    def distance(self) -> float:
        return math.hypot(self.dx, self.dy)

    def to_json(self) -> dict[str, object]:
        return {
            "unit": self.unit_id,
            "dx": round(self.dx, 4),
            "dy": round(self.dy, 4),
            "distance": round(self.distance, 4),
        }


@dataclass(frozen=True)
class OverlapResolution:
    """The units after readjustment, what moved, and how it was found."""

    units: tuple[Unit, ...]
    displacements: tuple[Displacement, ...]
    steps: int = 0
    placed_by_search: tuple[str, ...] = field(default=())

    @property
    def total_displacement(self) -> float:
        return sum(d.distance for d in self.displacements)


def rect_corners(units: Sequence[Unit], margin: float = 0.0) -> np.ndarray:
    """Corners (n, 4, 2) of rectangular bases made `margin` smaller on every side, vectorised
    (base_corners order); round bases get a square of their diameter, unused."""
    xs = np.array([u.x for u in units])
    ys = np.array([u.y for u in units])
    radians = np.radians([u.heading for u in units])
    half_w = np.array([getattr(u.base, "width", 2 * u.base.radius) / 2 for u in units]) - margin
    half_l = np.array([getattr(u.base, "length", 2 * u.base.radius) / 2 for u in units]) - margin
    fx, fy = np.sin(radians), np.cos(radians)
    # local (+x starboard, +y forward) corners: front-port, front-starboard, rear-starboard,
    # rear-port; starboard is the forward vector turned clockwise, (fy, -fx)
    signs = np.array([(-1, 1), (1, 1), (1, -1), (-1, -1)], dtype=float)
    lx = signs[None, :, 0] * half_w[:, None]
    ly = signs[None, :, 1] * half_l[:, None]
    wx = xs[:, None] + lx * fy[:, None] + ly * fx[:, None]
    wy = ys[:, None] - lx * fx[:, None] + ly * fy[:, None]
    return np.stack([wx, wy], axis=-1)


def cores(units: Sequence[Unit]) -> np.ndarray:
    """Each base shrunk by `CONTACT_TOLERANCE` (touching is not overlapping), vectorised."""
    result = np.empty(len(units), dtype=object)
    if not units:
        return result
    rounds = np.array([isinstance(u.base, CircleBase) for u in units])
    if (~rounds).any():
        corners = rect_corners(units, CONTACT_TOLERANCE)
        result[~rounds] = shapely.polygons(corners[~rounds])
    if rounds.any():
        picked = [u for u, r in zip(units, rounds, strict=True) if r]
        centres = np.array([(u.x, u.y) for u in picked])
        radii = np.array([u.base.radius - CONTACT_TOLERANCE for u in picked])
        # the same 64-gon as `footprint`, built for all round bases at once
        rings = centres[:, None, :] + radii[:, None, None] * _UNIT_CIRCLE[None, :, :]
        result[rounds] = shapely.polygons(rings)
    return result


_UNIT_CIRCLE = np.stack(
    [np.cos(np.arange(64) * math.pi / 32), np.sin(np.arange(64) * math.pi / 32)], axis=1
)


def overlapping_pairs(
    units: Sequence[Unit], layer_of: LayerOf = single_layer, among: Iterable[str] | None = None
) -> list[tuple[str, str]]:
    """Pairs of unit ids whose bases overlap on the same layer, sorted. GEO002.9.

    With `among`, only pairs with at least one unit of those ids.
    """
    if len(units) < 2:
        return []
    shapes = cores(units)
    tree = shapely.STRtree(shapes)
    if among is None:
        probe = np.arange(len(units))
    else:
        wanted = set(among)
        probe = np.array([i for i, u in enumerate(units) if u.id in wanted], dtype=int)
        if not len(probe):
            return []
    left, right = tree.query(shapes[probe], predicate="intersects")
    layers = [layer_of(u) for u in units]
    pairs = {
        tuple(sorted((units[i].id, units[j].id)))
        for i, j in zip(probe[left].tolist(), right.tolist(), strict=True)
        if i != j and layers[i] == layers[j]
    }
    return sorted(pairs)  # type: ignore[arg-type]


def terrain_overlaps(
    units: Sequence[Unit], terrain: Sequence[Terrain], collides: Collides
) -> list[tuple[str, str]]:
    """(unit id, terrain id) for every unit standing in terrain it collides with."""
    if not units or not terrain:
        return []
    pieces = np.array([t.geometry for t in terrain], dtype=object)
    tree = shapely.STRtree(pieces)
    which, hit = tree.query(cores(units), predicate="intersects")
    return sorted(
        (units[i].id, terrain[j].id)
        for i, j in zip(which.tolist(), hit.tolist(), strict=True)
        if collides(units[i], terrain[j])
    )


def resolve_overlaps(
    units: Sequence[Unit],
    terrain: Sequence[Terrain] = (),
    *,
    collides: Collides | None = None,
    layer_of: LayerOf = single_layer,
    table: tuple[float, float] | None = None,
    fixed: Iterable[str] = (),
    max_steps: int = MAX_STEPS,
) -> OverlapResolution:
    """Readjust overlapping units until clear, with the least disturbance. R002.33.

    `collides(unit, terrain)` says which terrain a unit may not stand in
    (default: none); `layer_of` which units can overlap at all; `table` is
    (width, height) to keep every base on the table; `fixed` ids never move.
    Returns every unit (moved or not) in the input order.
    """
    collides = collides or (lambda unit, piece: False)
    fixed_ids = set(fixed)
    pairs = overlapping_pairs(units, layer_of)
    stuck = {uid for uid, _ in terrain_overlaps(units, terrain, collides)}
    involved = ({a for a, b in pairs} | {b for a, b in pairs} | stuck) - fixed_ids
    if not involved:
        return OverlapResolution(tuple(units), ())
    clusters = _cluster_sizes(involved, pairs)
    footing = _Footing(terrain, collides, layer_of, table)
    simulation = _Simulation(units, footing, involved, clusters)
    steps = simulation.run(max_steps)
    moved = simulation.moved_units()
    moved, searched = _settle(moved, footing, involved)
    originals = {u.id: u for u in units}
    displacements = tuple(
        Displacement(u.id, u.x - originals[u.id].x, u.y - originals[u.id].y)
        for u in moved
        if u.id in involved and (u.x, u.y) != (originals[u.id].x, originals[u.id].y)
    )
    return OverlapResolution(tuple(moved), displacements, steps, searched)


# --------------------------------------------------------------------------- pymunk


@dataclass(frozen=True)
class _Footing:
    """Where a unit may stand: not in the `terrain` it `collides` with, not on another unit of
    its layer (`layer_of`), and on the table (width, height) when there is one."""

    terrain: Sequence[Terrain]
    collides: Collides
    layer_of: LayerOf
    table: tuple[float, float] | None


def _filter_bits(values: Iterable[str]) -> dict[str, int]:
    return {value: 1 << index for index, value in enumerate(sorted(set(values)))}


class _Simulation:
    """A pymunk space holding the involved units as dynamic, non-rotating bodies."""

    def __init__(
        self, units: Sequence[Unit], footing: _Footing, involved: set[str], clusters: dict[str, int]
    ) -> None:
        terrain, collides, layer_of, table = (
            footing.terrain,
            footing.collides,
            footing.layer_of,
            footing.table,
        )
        self.space = pymunk.Space()
        self.space.iterations = 12
        self.space.damping = 0.0  # no momentum: bodies move only to resolve penetration
        self.space.collision_slop = SEPARATION_MARGIN / 2
        self.space.collision_bias = pow(0.5, 60)  # half of each overlap corrected per step
        self.all_units = list(units)
        self.bodies: dict[str, pymunk.Body] = {}

        layers = {u.id: layer_of(u) for u in units}
        moving = [u for u in units if u.id in involved]
        corners = dict(zip((u.id for u in units), rect_corners(units), strict=True))
        # Only what the involved units can reach matters: a cluster of k units spreads out
        # over about sqrt(k) base sizes.
        reach = _reaches(moving, clusters)
        centres = shapely.points([(u.x, u.y) for u in moving])
        near_units = _near(np.array([u.footprint for u in units], dtype=object), centres, reach)
        near_pieces = _near(np.array([t.geometry for t in terrain], dtype=object), centres, reach)
        nearby_terrain = [terrain[i] for i in near_pieces]
        # terrain grouped by which involved units collide with it; one filter bit per group
        signatures: dict[str, tuple[bool, ...]] = {
            t.id: tuple(collides(u, t) for u in moving) for t in nearby_terrain
        }
        layer_bits = _filter_bits(layers[u.id] for u in units)
        shift = len(layer_bits)
        groups = sorted({s for s in signatures.values() if any(s)})
        wall_bit = 1 << shift
        group_bit = {s: 1 << (shift + 1 + i) for i, s in enumerate(groups[: 31 - shift])}
        everything = 0xFFFFFFFF

        for index, unit in enumerate(moving):
            mask = layer_bits[layers[unit.id]] | wall_bit
            for signature, bit in group_bit.items():
                if signature[index]:
                    mask |= bit
            body = pymunk.Body(1.0, math.inf)
            body.position = (unit.x, unit.y)
            shape = _unit_shape(body, unit, corners[unit.id])
            shape.filter = pymunk.ShapeFilter(categories=layer_bits[layers[unit.id]], mask=mask)
            self.space.add(body, shape)
            self.bodies[unit.id] = body

        static = self.space.static_body
        for unit in (units[i] for i in near_units):
            if unit.id in involved:
                continue
            shape = _unit_shape(static, unit, corners[unit.id], offset=(unit.x, unit.y))
            shape.filter = pymunk.ShapeFilter(
                categories=layer_bits[layers[unit.id]], mask=everything
            )
            self.space.add(shape)
        for piece in nearby_terrain:
            signature = signatures[piece.id]
            if signature not in group_bit:
                continue
            for shape in _terrain_shapes(static, piece):
                shape.filter = pymunk.ShapeFilter(categories=group_bit[signature], mask=everything)
                self.space.add(shape)
        if table is not None:
            for shape in _walls(static, *table):
                shape.filter = pymunk.ShapeFilter(categories=wall_bit, mask=everything)
                self.space.add(shape)

    def run(self, max_steps: int) -> int:
        """Step until nothing penetrates (checked every few steps) or `max_steps`."""
        for step in range(1, max_steps + 1):
            self.space.step(STEP)
            for body in self.bodies.values():
                body.velocity = (0.0, 0.0)
            if step % CHECK_EVERY == 0 and not self._penetrating():
                return step
        return max_steps

    def _penetrating(self) -> bool:
        deepest = 0.0

        def record(arbiter: pymunk.Arbiter) -> None:
            nonlocal deepest
            for point in arbiter.contact_point_set.points:
                deepest = min(deepest, point.distance)

        for body in self.bodies.values():
            body.each_arbiter(record)
        # inflated shapes: the true bases are clear while the margins still overlap a little
        return deepest < -SEPARATION_MARGIN

    def moved_units(self) -> list[Unit]:
        result = []
        for unit in self.all_units:
            body = self.bodies.get(unit.id)
            if body is None:
                result.append(unit)
            else:
                x, y = body.position
                result.append(unit.moved_to(Pose(x, y, unit.heading)))
        return result


def _cluster_sizes(involved: set[str], pairs: Sequence[tuple[str, str]]) -> dict[str, int]:
    """For each involved unit, how many units its connected overlap cluster holds."""
    parent = {uid: uid for uid in involved}

    def root(uid: str) -> str:
        while parent[uid] != uid:
            parent[uid] = parent[parent[uid]]
            uid = parent[uid]
        return uid

    for a, b in pairs:
        if a in parent and b in parent:
            parent[root(a)] = root(b)
    sizes: dict[str, int] = {}
    for uid in involved:
        sizes[root(uid)] = sizes.get(root(uid), 0) + 1
    return {uid: sizes[root(uid)] for uid in involved}


def _reaches(moving: Sequence[Unit], clusters: dict[str, int]) -> np.ndarray:
    """How far around each moving unit its cluster may spread: about sqrt(k) base sizes."""
    largest = max(u.base.radius for u in moving)
    return np.array([largest * (2 + math.sqrt(clusters.get(u.id, 1))) for u in moving])


def _near(geometries: np.ndarray, centres: np.ndarray, reach: np.ndarray) -> list[int]:
    """Indices (ascending) of geometries within `reach` of any of the centres."""
    if not len(geometries):
        return []
    _, found = shapely.STRtree(geometries).query(centres, predicate="dwithin", distance=reach)
    return sorted(set(found.tolist()))


def _unit_shape(
    body: pymunk.Body, unit: Unit, corners: np.ndarray, offset: tuple[float, float] = (0.0, 0.0)
) -> pymunk.Shape:
    """The unit's base relative to the body (offset = its centre for the static body)."""
    ox, oy = offset
    if isinstance(unit.base, CircleBase):
        return pymunk.Circle(body, unit.base.radius + SEPARATION_MARGIN, (ox, oy))
    local = corners - (unit.x - ox, unit.y - oy)
    return pymunk.Poly(body, local.tolist(), radius=SEPARATION_MARGIN)


def _terrain_shapes(body: pymunk.Body, piece: Terrain) -> list[pymunk.Shape]:
    """Convex pieces of a terrain footprint for pymunk (circles stay circles)."""
    if piece.circle is not None:
        c = piece.circle
        return [pymunk.Circle(body, c.radius, (c.x, c.y))]
    return [pymunk.Poly(body, part) for part in _convex_parts(piece)]


@lru_cache(maxsize=1024)
def _convex_parts(piece: Terrain) -> tuple[list[tuple[float, float]], ...]:
    """A polygon as convex vertex lists (itself, or its constrained Delaunay triangles)."""
    polygon = piece.geometry
    if _is_convex(polygon):
        return (list(polygon.exterior.coords)[:-1],)
    triangles = shapely.get_parts(shapely.constrained_delaunay_triangles(polygon))
    return tuple(list(t.exterior.coords)[:-1] for t in triangles)


def _is_convex(polygon: Polygon) -> bool:
    return not polygon.interiors and math.isclose(
        polygon.area, polygon.convex_hull.area, rel_tol=1e-9
    )


def _walls(body: pymunk.Body, width: float, height: float) -> list[pymunk.Shape]:
    """Four thick static walls just outside the table's edges."""
    t = WALL_THICKNESS
    outside = [
        (-t, -t, width + t, 0.0),
        (-t, height, width + t, height + t),
        (-t, -t, 0.0, height + t),
        (width, -t, width + t, height + t),
    ]
    return [
        pymunk.Poly(body, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]) for x0, y0, x1, y1 in outside
    ]


# --------------------------------------------------------------------------- verification


def _settle(
    units: list[Unit], footing: _Footing, involved: set[str]
) -> tuple[list[Unit], tuple[str, ...]]:
    """Verify the simulation with shapely; place anything still in trouble by spiral search."""
    troubled = _troubled(units, footing, involved)
    if not troubled:
        return units, ()
    index = {u.id: i for i, u in enumerate(units)}
    settled = [u for u in units if u.id not in troubled]
    searched = []
    for unit_id in sorted(troubled):
        unit = units[index[unit_id]]
        placed = _spiral(unit, settled, footing)
        units[index[unit_id]] = placed
        settled.append(placed)
        searched.append(unit_id)
    return units, tuple(searched)


def _troubled(units: Sequence[Unit], footing: _Footing, involved: set[str]) -> set[str]:
    """The involved units still overlapping a model, in colliding terrain, or off the table."""
    terrain, collides, layer_of, table = (
        footing.terrain,
        footing.collides,
        footing.layer_of,
        footing.table,
    )
    found = {uid for pair in overlapping_pairs(units, layer_of, among=involved) for uid in pair}
    moving = [u for u in units if u.id in involved]
    found |= {uid for uid, _ in terrain_overlaps(moving, terrain, collides)}
    if table is not None:
        found |= {u.id for u in moving if not _on_table(u.footprint, table)}
    return found & involved


def _on_table(geometry: BaseGeometry, table: tuple[float, float]) -> bool:
    x0, y0, x1, y1 = geometry.bounds
    t = CONTACT_TOLERANCE
    return x0 >= -t and y0 >= -t and x1 <= table[0] + t and y1 <= table[1] + t


def _spiral(unit: Unit, settled: Sequence[Unit], footing: _Footing) -> Unit:
    """The nearest clear position on rings of growing radius around the unit (deterministic)."""
    terrain, collides, layer_of, table = (
        footing.terrain,
        footing.collides,
        footing.layer_of,
        footing.table,
    )
    layer = layer_of(unit)
    others = [s.footprint for s in settled if layer_of(s) == layer]
    blocked = others + [t.geometry for t in terrain if collides(unit, t)]
    tree = shapely.STRtree(np.array(blocked, dtype=object)) if blocked else None
    core_base = shrunk(unit.base)
    if table is not None:
        limit = math.hypot(*table)
        inside = box(0, 0, *table)
    else:
        limit = 10 * (len(settled) + 1) * unit.base.radius * 2
        inside = None
    rings = math.ceil(limit / SPIRAL_STEP)
    for ring in range(rings + 1):
        radius = ring * SPIRAL_STEP
        count = max(1, math.ceil(2 * math.pi * radius / SPIRAL_STEP))
        angles = np.arange(count) * (2 * math.pi / count)
        xs = unit.x + radius * np.cos(angles)
        ys = unit.y + radius * np.sin(angles)
        cores = np.array(
            [footprint(Pose(x, y, unit.heading), core_base) for x, y in zip(xs, ys, strict=True)],
            dtype=object,
        )
        clear = np.ones(count, dtype=bool)
        if inside is not None:
            clear &= shapely.covers(inside, cores)
        if tree is not None and clear.any():
            which, _ = tree.query(cores, predicate="intersects")
            clear[which] = False
        if clear.any():
            k = int(np.flatnonzero(clear)[0])
            return unit.moved_to(Pose(float(xs[k]), float(ys[k]), unit.heading))
    raise UserError(
        f"no clear place on the table for unit {unit.id!r} after readjusting overlaps",
        spec_id="R002.33",
    )
