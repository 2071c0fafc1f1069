"""The area a base sweeps along a path, and where it first touches an obstacle (GEO002.8, R002.35).

Approximation and tolerance:

- A straight move of a convex base sweeps exactly the convex hull of its start
  and end footprints (a rectangle moving along its heading: a longer rectangle).
- A rotation about a pivot is cut into chunks of at most 90°. A rectangle's
  swept area is its start footprint plus, for every edge (split at its point
  nearest the pivot), the curved band that edge sweeps: bounded by the edge at
  the start and at the end and by the arcs of its two ends. The outer arc is
  drawn as a circumscribed polyline and the inner one inscribed, with chords
  short enough that the polyline is within `tolerance` of the true arc, so the
  swept polygon always *contains* the exact swept area and exceeds it by at
  most `tolerance` (`SWEEP_TOLERANCE` = 0.01"). A round base sweeps the hulls
  of consecutive discs along its centre's path, drawn as circumscribed 64-gons
  grown by the chord's sagitta, so they contain the true circles.
- First contact is exact (no sampling): the first touch of two polygons is a
  vertex of one meeting an edge of the other, so every vertex of the moving
  base is run along its line (a straight move) or its arc about the pivot (a
  rotation) against every edge of the candidate obstacles, and every obstacle
  vertex along the reverse motion against the base's edges; the smallest
  parameter wins (numpy, all pairs at once). A moving round base is exact: its
  centre against every obstacle edge grown by the radius. Round obstacles use
  their 64-gon outlines (within 0.0012 x radius of the circle).
- Contact means the base penetrates an obstacle by more than
  `CONTACT_TOLERANCE` (0.001"): the moving base is shrunk by that much, so
  bases placed in contact are not colliding. The unit stops `CONTACT_TOLERANCE`/2
  short of that point, so a stopped unit is clear for its next move (moving
  away is free, moving further in is a contact at once). Obstacles the base
  already penetrates at the start of the path are ignored (it may move out).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Polygon, box
from shapely.geometry.base import BaseGeometry

from tactical.geometry.movement import Motion, Rotation, Translation
from tactical.geometry.shapes import (
    Base,
    CircleBase,
    Pose,
    RectBase,
    base_corners,
    footprint,
)
from tactical.geometry.sweep_touch import arc_circle_hits, arc_hits, ray_circle_hits, ray_hits

SWEEP_TOLERANCE = 0.01  # inches: swept areas contain the exact one and exceed it by at most this
CONTACT_TOLERANCE = 1e-3  # inches: penetration that counts as contact; stop precision
MAX_SUBARCS = 720
UNION_GRID = 1e-9  # inches
MAX_CHUNK_DEGREES = 90.0  # a band must not wrap around its pivot


@lru_cache(maxsize=64)
def _shrunk(base: Base) -> Base:
    """`shrunk` by `CONTACT_TOLERANCE`, once per base (a table holds a few kinds)."""
    return shrunk(base)


def shrunk(base: Base, margin: float = CONTACT_TOLERANCE) -> Base:
    """The base made `margin` smaller on every side (so mere touching is not contact)."""
    if isinstance(base, CircleBase):
        return CircleBase(max(base.diameter - 2 * margin, margin))
    return RectBase(max(base.width - 2 * margin, margin), max(base.length - 2 * margin, margin))


def arc_steps(rotation: Rotation, base: Base, tolerance: float = SWEEP_TOLERANCE) -> int:
    """Chords per arc so a circumscribed polyline strays at most `tolerance` outside the arc."""
    reach = rotation.reach(base)
    angle = abs(math.radians(rotation.angle))
    if reach <= tolerance or angle == 0:
        return 1
    step = 2 * math.acos(1 / (1 + tolerance / reach))
    return min(MAX_SUBARCS, max(1, math.ceil(angle / step)))


def sample_poses(motion: Motion, count: int) -> list[Pose]:
    """count + 1 poses evenly along the motion, both ends included."""
    return [motion.pose_at(i / count) for i in range(count + 1)]


def swept_pieces(motion: Motion, base: Base, tolerance: float = SWEEP_TOLERANCE) -> np.ndarray:
    """Polygons whose union contains the area swept by the base (see the module doc).

    Kept as separate pieces so STRtree queries and predicates can run on the
    array without paying for a union.
    """
    if isinstance(motion, Translation):
        if isinstance(base, CircleBase):
            end = motion.end
            return _discs([(motion.start.x, motion.start.y), (end.x, end.y)], base.radius)
        # moving along its own heading, a rectangle sweeps a longer rectangle
        middle = motion.pose_at(0.5)
        stretched = RectBase(base.width, base.length + abs(motion.distance))
        return np.array([Polygon(base_corners(middle, stretched))], dtype=object)
    chunks = max(1, math.ceil(abs(motion.angle) / MAX_CHUNK_DEGREES - 1e-12))
    pieces = [footprint(motion.start, base)]
    for k in range(chunks):
        part = motion.part(k / chunks, (k + 1) / chunks)
        if isinstance(base, CircleBase):
            pieces.extend(_circle_arc_sweep(part, base, tolerance))
        else:
            pieces.extend(_edge_sweeps(part, base, tolerance))
    return np.array(pieces, dtype=object)


def _circle_arc_sweep(rotation: Rotation, base: CircleBase, tolerance: float) -> np.ndarray:
    """A round base sweeps along its centre's arc: hulls of consecutive discs (see `_discs`)."""
    centre_reach = math.dist((rotation.start.x, rotation.start.y), rotation.pivot)
    if centre_reach < 1e-9:  # turning about its own centre: it covers only its own disc
        return _discs([(rotation.start.x, rotation.start.y)], base.radius)
    count = arc_steps(rotation, base, tolerance)
    poses = sample_poses(rotation, count)
    sagitta = centre_reach * (1 - math.cos(abs(math.radians(rotation.angle)) / count / 2))
    return _discs([(p.x, p.y) for p in poses], base.radius + sagitta)


_UNIT_GON = np.stack(
    [np.cos(np.arange(64) * math.pi / 32), np.sin(np.arange(64) * math.pi / 32)], axis=1
) / math.cos(math.pi / 64)


def _discs(centres: Sequence[tuple[float, float]], radius: float) -> np.ndarray:
    """Convex hulls of consecutive circumscribed 64-gons about the centres: they contain the
    true discs of `radius` and every disc between two consecutive centres."""
    ring = np.asarray(centres, dtype=float)[:, None, :] + radius * _UNIT_GON[None, :, :]
    if len(ring) == 1:
        return shapely.polygons(ring)
    pairs = np.concatenate([ring[:-1], ring[1:]], axis=1)
    return shapely.convex_hull(shapely.multipoints(pairs))


def _edge_sweeps(rotation: Rotation, base: RectBase, tolerance: float) -> np.ndarray:
    """The curved bands swept by each edge of a rectangle rotating (<= 90°) about the pivot.

    An edge is split at its point nearest the pivot so that the radius grows
    monotonically along each piece; such a piece sweeps the band bounded by the
    piece at the start, the arc of its far end, the piece at the end and the
    arc of its near end. The far arc is circumscribed and the near arc
    inscribed, so the band contains the exact one.
    """
    px, py = rotation.pivot
    corners = base_corners(rotation.start, base)
    pieces: list[tuple[np.ndarray, np.ndarray]] = []
    for i in range(4):
        a, b = corners[i], corners[(i + 1) % 4]
        edge = b - a
        u = float(np.dot((px, py) - a, edge) / np.dot(edge, edge))
        if 0.0 < u < 1.0:
            foot = a + u * edge
            pieces.extend([(foot, a), (foot, b)])
        elif u <= 0.0:
            pieces.append((a, b))
        else:
            pieces.append((b, a))
    # a piece of no length (the foot on a corner) sweeps only an arc its neighbours cover
    pieces = [(a, b) for a, b in pieces if math.dist(a, b) > 1e-9]
    near = np.array([p[0] for p in pieces]) - (px, py)  # (m, 2), relative to the pivot
    far = np.array([p[1] for p in pieces]) - (px, py)
    # a pivot on an edge: that piece fans out from the pivot itself (no rounding noise)
    near[np.hypot(near[:, 0], near[:, 1]) < 1e-9] = 0.0
    r_near = np.hypot(near[:, 0], near[:, 1])
    r_far = np.hypot(far[:, 0], far[:, 1])
    a_near = np.arctan2(near[:, 1], near[:, 0])
    a_far = np.arctan2(far[:, 1], far[:, 0])
    beta = -math.radians(rotation.angle)  # compass clockwise is mathematically negative
    count = arc_steps(rotation, base, tolerance)
    delta = beta / count
    # far arc: exact start, tangent-line corners in between, exact end
    mids = (np.arange(count) + 0.5) * delta
    far_radius = r_far / math.cos(delta / 2)
    far_angles = a_far[:, None] + mids[None, :]
    far_arc = np.stack(
        [far_radius[:, None] * np.cos(far_angles), far_radius[:, None] * np.sin(far_angles)],
        axis=-1,
    )
    far_end_angle = a_far + beta
    far_end = np.stack([r_far * np.cos(far_end_angle), r_far * np.sin(far_end_angle)], axis=-1)
    # near arc back from the end position to the start, on the circle (inscribed)
    # the ring closes on the exact start point, so the arc stops one chord short of it
    back = beta - np.arange(count) * delta
    near_angles = a_near[:, None] + back[None, :]
    near_arc = np.stack(
        [r_near[:, None] * np.cos(near_angles), r_near[:, None] * np.sin(near_angles)], axis=-1
    )
    rings = np.concatenate(
        [near[:, None], far[:, None], far_arc, far_end[:, None], near_arc], axis=1
    )
    return shapely.polygons(rings + np.array([px, py]))


def swept_area(motion: Motion, base: Base, tolerance: float = SWEEP_TOLERANCE) -> BaseGeometry:
    """A polygon containing every point the base covers during the motion (see module doc)."""
    pieces = swept_pieces(motion, base, tolerance)
    return pieces[0] if len(pieces) == 1 else _union(pieces)


def _union(pieces: Sequence[BaseGeometry]) -> BaseGeometry:
    """Union on a fine grid: the pieces share edges exactly, which GEOS's floating overlay
    can get wrong; snap-rounding to 1e-9" is robust and changes nothing measurable."""
    return shapely.union_all(list(pieces), grid_size=UNION_GRID)


def swept_path(motions: Sequence[Motion], base: Base) -> BaseGeometry:
    """The area swept along a whole path: the union of its motions' swept areas."""
    if not motions:
        raise ValueError("a path of no motions sweeps nothing")
    return _swept_path(tuple(motions), base)


@lru_cache(maxsize=512)
def _swept_path(motions: tuple[Motion, ...], base: Base) -> BaseGeometry:
    """`swept_path` of immutable motions and base, remembered: a planned move is swept again
    when it is made (the computer players preview every candidate move, then make it)."""
    return _union([p for m in motions for p in swept_pieces(m, base)])


# --------------------------------------------------------------------------- contacts


class Obstacles:
    """Static obstacle polygons indexed once (STRtree, prepared) for many sweep queries.

    What a sweep asks of them is remembered while they live, by what it reads (bounded,
    pure functions of the immutable polygons): the paths weighed for one unit on one table
    start from the same place, and many share their first motion."""

    def __init__(self, geometries: Sequence[BaseGeometry]) -> None:
        self.geometries = np.array(list(geometries), dtype=object)
        shapely.prepare(self.geometries)
        self.tree = shapely.STRtree(self.geometries)
        self._edges: dict[int, np.ndarray] = {}
        self._started: dict[tuple[Pose, Base, bool], np.ndarray] = {}
        self._near: dict[tuple[Motion, Base], np.ndarray] = {}
        self._gathered: dict[bytes, tuple[np.ndarray, ...]] = {}
        self._lines: dict[tuple[Pose, bool, Base, bytes], _Line] = {}

    def edges(self, index: int) -> np.ndarray:
        """Every edge of obstacle `index` (all rings) as an (n, 2, 2) array of end points."""
        found = self._edges.get(index)
        if found is None:
            found = self._edges[index] = _edges_of(self.geometries[index])
        return found

    def __len__(self) -> int:
        return len(self.geometries)

    def touching(self, geometry: BaseGeometry, allowed: np.ndarray | None = None) -> np.ndarray:
        """Ascending indices of obstacles intersecting `geometry` (only `allowed` ones if given)."""
        found = np.sort(self.tree.query(geometry, predicate="intersects"))
        if allowed is not None and len(found):
            found = found[allowed[found]]
        return found

    def started_in(self, pose: Pose, core: Base, ignore_touching: bool) -> np.ndarray:
        """Ascending indices of the obstacles a (shrunk) base at `pose` already meets (R002.35:
        ignored by its sweep), grown a little with `ignore_touching` (R002.32)."""
        key = (pose, core, ignore_touching)
        found = self._started.get(key)
        if found is None:
            found = _kept(self._started, key, self.touching(_start_of(key)))
        return found

    def near_motion(self, motion: Motion, core: Base) -> np.ndarray:
        """Ascending indices of the obstacles meeting the box around what `motion` sweeps
        (`coarse_bounds`: the broad phase)."""
        key = (motion, core)
        found = self._near.get(key)
        if found is None:
            near = self.tree.query(_box_of(key), predicate="intersects")
            # one geometry asked: each obstacle at most once, so sorted is `np.unique`
            found = _kept(self._near, key, np.sort(near))
        return found

    def line(self, motion: Translation, core: Base, mask: bytes) -> _Line:
        """What is known of the straight line `motion` runs along (`_Line`): from its start,
        forwards or backwards, with the obstacles of `mask` (its bytes)."""
        key = (motion.start, motion.distance > 0, core, mask)
        found = self._lines.get(key)
        if found is None:
            found = _kept(self._lines, key, _Line())
        return found

    def motion_hit(
        self, motion: Motion, core: Base, candidates: np.ndarray
    ) -> tuple[float, int, float] | None:
        """`motion_contact` of the base along `motion` with the obstacles `candidates`, with
        the touch's parameter along the motion (`_first_hit`).

        Remembered by the polygons themselves (beside their ids, so that no id is reused),
        whatever index holds them: a table where a unit moved elsewhere, or the rules'
        own index of the table a move was previewed on, holds the same polygons."""
        among = tuple(self.geometries[candidates].tolist())
        key = (motion, core, tuple(map(id, among)))
        kept = _HITS.get(key)
        if kept is not None and all(a is b for a, b in zip(kept[0], among, strict=True)):
            return kept[1]
        # the candidates' edges gathered once: the motions near one place meet the same few
        which = candidates.tobytes()
        gathered = self._gathered.get(which)
        if gathered is None:
            edges = [self.edges(int(i)) for i in candidates]
            gathered = _kept(self._gathered, which, _gathered(edges))
        found = _gathered_contact(motion, core, gathered)
        if len(_HITS) >= MAX_HITS:
            _HITS.clear()
        _HITS[key] = (among, found)
        return found


MAX_KEPT = 512  # answers one obstacle index remembers of each kind (`Obstacles`)
# the shapes a sweep asks an index about, by what they are made of (all values), from one
# index to the next: a unit's paths are planned again on every new table
_STARTS: dict[tuple[Pose, Base, bool], BaseGeometry] = {}
_BOXES: dict[tuple[Motion, Base], BaseGeometry] = {}
MAX_SHAPES = 1024


def _start_of(key: tuple[Pose, Base, bool]) -> BaseGeometry:
    """The base at a sweep's start (`Obstacles.started_in`), grown a little where touching
    is ignored (R002.32): a pure function of (pose, core, ignore_touching), remembered."""
    found = _STARTS.get(key)
    if found is None:
        pose, core, ignore_touching = key
        found = footprint(pose, core)
        if ignore_touching:
            found = found.buffer(3 * CONTACT_TOLERANCE, quad_segs=2)
        if len(_STARTS) >= MAX_SHAPES:
            _STARTS.clear()
        _STARTS[key] = found
    return found


def _box_of(key: tuple[Motion, Base]) -> BaseGeometry:
    """The box around what a motion sweeps (`coarse_bounds`), remembered by (motion, core)."""
    found = _BOXES.get(key)
    if found is None:
        found = shapely.box(*coarse_bounds(*key))
        if len(_BOXES) >= MAX_SHAPES:
            _BOXES.clear()
        _BOXES[key] = found
    return found


# a motion's first touch (the place of the obstacle among the candidates) by the motion,
# the base and the candidate polygons' ids, the polygons kept beside
_HITS: dict[tuple[Any, ...], tuple[tuple[BaseGeometry, ...], tuple[float, int, float] | None]] = {}
MAX_HITS = 2048


def _kept(memo: dict[Any, Any], key: Any, found: Any) -> Any:
    """`found` remembered in `memo` under `key` (started again once `MAX_KEPT` are held)."""
    if len(memo) >= MAX_KEPT:
        memo.clear()
    memo[key] = found
    return found


def coarse_bounds(motion: Motion, base: Base) -> tuple[float, float, float, float]:
    """A cheap box (xmin, ymin, xmax, ymax) around everything the motion sweeps."""
    if isinstance(motion, Translation):
        end = motion.end
        r = base.radius
        return (
            min(motion.start.x, end.x) - r,
            min(motion.start.y, end.y) - r,
            max(motion.start.x, end.x) + r,
            max(motion.start.y, end.y) + r,
        )
    reach = motion.reach(base)
    px, py = motion.pivot
    return px - reach, py - reach, px + reach, py + reach


@dataclass(frozen=True, slots=True)
class Contact:
    """The first obstacle met: its index, the motion it stopped, how far through, and the stop."""

    obstacle: int
    motion: int
    t: float
    pose: Pose


def first_contact(
    motions: Sequence[Motion],
    base: Base,
    obstacles: Obstacles,
    allowed: np.ndarray | None = None,
    ignore_touching: bool = False,
) -> Contact | None:
    """Where a base moving along `motions` first penetrates an obstacle, or None. R002.35.

    `allowed` is a boolean mask over the obstacles (which of them this unit
    collides with). Obstacles already overlapping the base at the start are
    ignored, so a unit can move out of an overlap; with `ignore_touching` so
    are those it merely touches (disengaging from a ram, R002.32). Remembered by what it
    reads (bounded): a move is swept when previewed and again when made.
    """
    if not motions or len(obstacles) == 0:
        return None
    # what the search reads of the obstacles: the ones allowed, in order (the others are
    # masked out before any test), so a table indexed twice (a move previewed, then made)
    # finds a contact once
    among = obstacles.geometries if allowed is None else obstacles.geometries[allowed]
    key = (tuple(motions), base, ignore_touching, tuple(map(id, among)))
    kept = _CONTACTS.get(key)
    if kept is not None and all(a is b for a, b in zip(kept[0], among, strict=True)):
        return _contact_at(kept[1], allowed, motions)
    found = _first_contact(motions, base, obstacles, allowed, ignore_touching)
    if len(_CONTACTS) >= MAX_CONTACTS:
        _CONTACTS.clear()
    # the contact by its place among the allowed obstacles (the same in any index of them);
    # the geometries kept beside their ids, so that no id is reused
    place = found
    if found is not None and allowed is not None:
        place = replace(found, obstacle=int(np.count_nonzero(allowed[: found.obstacle])))
    _CONTACTS[key] = (tuple(among), place)
    return found


# first contacts by the motions, the base, ignore_touching and the allowed obstacles' ids
_CONTACTS: dict[tuple[Any, ...], tuple[tuple[BaseGeometry, ...], Contact | None]] = {}
MAX_CONTACTS = 1024


def _contact_at(
    place: Contact | None, allowed: np.ndarray | None, motions: Sequence[Motion]
) -> Contact | None:
    """A remembered contact (its obstacle counted among the allowed ones) in this index,
    its stop on these very motions (equal ones: the pose worked out as the search does)."""
    if place is None:
        return None
    obstacle = place.obstacle if allowed is None else int(np.flatnonzero(allowed)[place.obstacle])
    return Contact(obstacle, place.motion, place.t, motions[place.motion].pose_at(place.t))


def _first_contact(
    motions: Sequence[Motion],
    base: Base,
    obstacles: Obstacles,
    allowed: np.ndarray | None,
    ignore_touching: bool,
) -> Contact | None:
    """`first_contact` searched (see the module doc)."""
    core = _shrunk(base)
    mask = np.ones(len(obstacles), dtype=bool) if allowed is None else allowed.copy()
    # those it already meets are ignored (masked out whether allowed or not: the same mask)
    mask[obstacles.started_in(motions[0].start, core, ignore_touching)] = False
    masked: bytes | None = None  # the mask as a value, once a straight motion asks
    for index, motion in enumerate(motions):
        line = None
        if type(motion) is Translation and motion.distance != 0:
            if masked is None:
                masked = mask.tobytes()
            line = obstacles.line(motion, core, masked)
            known = line.answer(abs(motion.distance))
            if known is not None:  # settled by a longer or shorter motion along the line
                if known is _CLEAR:
                    continue
                best, obstacle = known
                t = _stop(best, abs(motion.distance), abs(motion.distance))
                return Contact(obstacle, index, t, motion.pose_at(t))
        # broad phase: the obstacles in a box around the motion
        candidates = obstacles.near_motion(motion, core)
        candidates = candidates[mask[candidates]]
        found = obstacles.motion_hit(motion, core, candidates) if len(candidates) else None
        if found is None:
            if line is not None:
                line.cleared(abs(motion.distance))
            continue
        t, hit, best = found
        obstacle = int(candidates[hit])
        if line is not None:
            line.hit = (best, obstacle)
        return Contact(obstacle, index, t, motion.pose_at(t))
    return None


_CLEAR = (math.inf, -1)  # a motion along a `_Line` that touches nothing


class _Line:
    """What sweeps found along one straight line from one start (one direction, one base,
    the same obstacles ignored, one index): the first touch, where one was found, else how
    far it is known clear. A straight motion's touches are at the same distances along its
    line whatever its length (each vertex against each edge, element by element; the
    length only bounds them, and its box holds every touch within it), so a motion along
    the line is settled without sweeping it: the same touch where it reaches it, else
    clear (the paths weighed for one unit begin alike: "F6", "F3", "F3 P45 F3")."""

    __slots__ = ("clear", "hit")

    def __init__(self) -> None:
        self.clear = 0.0  # inches known clear from the start
        self.hit: tuple[float, int] | None = None  # the first touch (distance, obstacle)

    def answer(self, length: float) -> tuple[float, int] | None:
        """The touch of a motion `length` long along the line, `_CLEAR`, or None: unknown."""
        hit = self.hit
        if hit is not None:
            return hit if hit[0] <= length else _CLEAR
        return _CLEAR if length <= self.clear else None

    def cleared(self, length: float) -> None:
        self.clear = max(self.clear, length)


def _edges_of(geometry: BaseGeometry) -> np.ndarray:
    """`polygon_edges`, remembered by the (immutable) polygon itself, kept beside its id: a
    game's terrain and every unit standing still are the same polygons from table to table."""
    found = _EDGES.get(id(geometry))
    if found is not None and found[0] is geometry:
        return found[1]
    edges = polygon_edges(geometry)
    edges.setflags(write=False)  # shared by every index holding the polygon
    if len(_EDGES) >= MAX_EDGES:
        _EDGES.clear()
    _EDGES[id(geometry)] = (geometry, edges)
    return edges


_EDGES: dict[int, tuple[BaseGeometry, np.ndarray]] = {}
MAX_EDGES = 1024


def polygon_edges(geometry: BaseGeometry) -> np.ndarray:
    """All ring edges of a polygon (or multipolygon) as an (n, 2, 2) array."""
    rings = [*shapely.get_exterior_ring(shapely.get_parts(geometry))]
    for part in shapely.get_parts(geometry):
        rings.extend(part.interiors)
    chunks = []
    for ring in rings:
        coords = np.asarray(ring.coords)[:, :2]
        chunks.append(np.stack([coords[:-1], coords[1:]], axis=1))
    return np.concatenate(chunks) if chunks else np.empty((0, 2, 2))


def base_outline(pose: Pose, base: Base) -> np.ndarray:
    """The base's outline vertices (m, 2) in table inches (round bases as the 64-gon)."""
    if isinstance(base, CircleBase):
        return np.asarray(footprint(pose, base).exterior.coords)[:-1, :2]
    return base_corners(pose, base)


def motion_contact(
    motion: Motion, base: Base, obstacle_edges: Sequence[np.ndarray]
) -> tuple[float, int] | None:
    """Exact first touch of the moving base with any obstacle: (stop fraction, which) or None.

    The stop fraction is `CONTACT_TOLERANCE`/2 of travel short of the touch.
    """
    if not obstacle_edges:
        return None
    found = _gathered_contact(motion, base, _gathered(obstacle_edges))
    return None if found is None else found[:2]


def _gathered(obstacle_edges: Sequence[np.ndarray]) -> tuple[np.ndarray, ...]:
    """The obstacles' edges as one array, whose each is (its obstacle's place in the
    sequence), and each edge's lowest and highest end coordinates."""
    owners = np.concatenate([np.full(len(e), i) for i, e in enumerate(obstacle_edges)])
    edges = np.concatenate(obstacle_edges)
    return owners, edges, edges.min(axis=1), edges.max(axis=1)


def _gathered_contact(
    motion: Motion, base: Base, gathered: tuple[np.ndarray, ...]
) -> tuple[float, int, float] | None:
    """`motion_contact` of obstacles' edges `_gathered` already, with the touch's parameter
    along the motion (`_first_hit`)."""
    owners, edges, lo, hi = gathered
    # only edges whose box meets the box around the motion can be touched
    x0, y0, x1, y1 = coarse_bounds(motion, base)
    near = (hi[:, 0] >= x0) & (lo[:, 0] <= x1) & (hi[:, 1] >= y0) & (lo[:, 1] <= y1)
    owners, edges = owners[near], edges[near]
    if not len(edges):
        return None
    if isinstance(base, CircleBase):
        return _circle_contact(motion, base, edges, owners)
    vertices = base_outline(motion.start, base)
    own_edges = np.stack([vertices, np.roll(vertices, -1, axis=0)], axis=1)
    obstacle_vertices = edges[:, 0]
    path = _path_of(motion, base)
    if path is None:
        return None
    if path.direction is not None:
        # the base's corners into obstacle edges (owner by the edge hit), and the
        # obstacles' corners into the base's edges (owner by the corner that hits)
        s_out, _, hit_out = ray_hits(vertices, path.direction, edges, path.total)
        s_in, hit_in, _ = ray_hits(obstacle_vertices, -path.direction, own_edges, path.total)
    else:
        s_out, _, hit_out = arc_hits(vertices, path.pivot, path.sense, edges, path.total)
        s_in, hit_in, _ = arc_hits(
            obstacle_vertices, path.pivot, -path.sense, own_edges, path.total
        )
    return _first_hit([(s_out, owners[hit_out]), (s_in, owners[hit_in])], path)


@dataclass(frozen=True, slots=True)
class _Path:
    """A motion as the contact search sweeps it: `total` inches along `direction` (a unit
    vector) for a straight move, else `total` radians about `pivot` in `sense` (compass
    clockwise is mathematically negative); `scale`: inches the base's farthest point goes."""

    total: float
    scale: float
    direction: np.ndarray | None = None
    pivot: np.ndarray | None = None
    sense: float = 1.0


def _path_of(motion: Motion, base: Base) -> _Path | None:
    """The motion's `_Path`; None when it does not move at all."""
    if isinstance(motion, Translation):
        length = abs(motion.distance)
        if length == 0:
            return None
        radians = math.radians(motion.start.heading)
        direction = np.array([math.sin(radians), math.cos(radians)]) * np.sign(motion.distance)
        return _Path(length, length, direction=direction)
    total = abs(math.radians(motion.angle))
    if total == 0:
        return None
    sense = -1.0 if motion.angle > 0 else 1.0
    pivot = np.asarray(motion.pivot, dtype=float)
    return _Path(total, total * motion.reach(base), pivot=pivot, sense=sense)


def _first_hit(
    candidates: Sequence[tuple[np.ndarray, np.ndarray]], path: _Path
) -> tuple[float, int, float] | None:
    """The earliest of the candidate hits (parameters along the path, and whose each is) as a
    fraction of the motion, backed off by half the contact tolerance, whose it is, and its
    parameter itself."""
    best, which = math.inf, -1
    for values, who in candidates:
        if len(values) and values.min() < best:
            k = int(np.argmin(values))
            best, which = float(values[k]), int(who[k])
    if which < 0:
        return None
    return _stop(best, path.total, path.scale), which, best


def _stop(best: float, total: float, scale: float) -> float:
    """The fraction of a motion (`total` along its path, its farthest point going `scale`
    inches) where it stops: half the contact tolerance short of its touch at `best`."""
    backoff = (CONTACT_TOLERANCE / 2) / scale if scale > 0 else 0.0
    return max(0.0, best / total - backoff)


def _circle_contact(
    motion: Motion, base: CircleBase, edges: np.ndarray, owners: np.ndarray
) -> tuple[float, int, float] | None:
    """A round base, exactly: its centre against each edge's capsule (the edge grown by the
    radius: two offset segments and a circle at each end)."""
    radius = base.radius
    along = edges[:, 1] - edges[:, 0]
    lengths = np.hypot(along[:, 0], along[:, 1])
    keep = lengths > 1e-12
    edges, along, lengths, owners = edges[keep], along[keep], lengths[keep], owners[keep]
    normal = np.stack([-along[:, 1], along[:, 0]], axis=1) / lengths[:, None] * radius
    offsets = np.concatenate([edges + normal[:, None, :], edges - normal[:, None, :]])
    offset_owners = np.concatenate([owners, owners])
    ends = edges[:, 0]  # every vertex starts an edge of its ring
    centre = np.array([[motion.start.x, motion.start.y]])
    path = _path_of(motion, base)
    if path is None:
        return None
    if path.direction is not None:
        s_line, _, hit_line = ray_hits(centre, path.direction, offsets, path.total)
        s_end, hit_end = ray_circle_hits(centre[0], path.direction, ends, radius, path.total)
    else:
        s_line, _, hit_line = arc_hits(centre, path.pivot, path.sense, offsets, path.total)
        s_end, hit_end = arc_circle_hits(
            centre[0], path.pivot, path.sense, ends, radius, path.total
        )
    return _first_hit([(s_line, offset_owners[hit_line]), (s_end, owners[hit_end])], path)


@lru_cache(maxsize=16)
def board_exterior(width: float, height: float, margin: float = 1000.0) -> Polygon:
    """Everything off the table, as a frame polygon around it (for board-exit contacts).
    One (immutable) polygon per table size: every index of a table holds the same one,
    which `first_contact` remembers its contacts by."""
    return box(-margin, -margin, width + margin, height + margin).difference(
        box(0.0, 0.0, width, height)
    )
