"""Fair tables: a terrain layout scored for each side (docs/fairness.md; R002.9, R002.17).

The table is sampled on a grid of observers (cell centres, 2" apart by default, laid out
like the threat map's grid so the grid itself is symmetric under a half-turn). Points
inside terrain that blocks sight are not places to stand and are left out. Then:

- **visibility**: for every pair of observers, line of sight by the rule system's own
  `blocks_los` (its terrain kinds and heights), the same engine `tactical check` uses
  (`geometry.los.lines_of_sight`, every pair at once); a side's figure is the mean share
  of the table its zone's observers see.
- **cover from the first strike**: the share of a side's deployment zone that no enemy
  weapon can reach with line of sight in the enemy's first turn. The enemy may stand
  anywhere it can reach from its own zone (its move, `turning_rules_for`; without a
  limit the threat module's `UNLIMITED_MOVE`), off the terrain it collides with, and
  fires to its longest range band (`DamageCache.reaches`), each enemy unit with its own
  move, range and line-of-sight level, against each line-of-sight level among the
  side's units: a cell is covered when no enemy weapon can reach any of them there.
- **lanes**: the share of straight lines between the two zones' observers that cross
  terrain blocking sight or passage; a side's figure counts the lines blocked by a
  piece in its own half of the table.
- **symmetry**: the area of the symmetric difference between the layout and its own
  half-turn about the table's centre, kind by kind, over the area of terrain (0: the
  layout is its own half-turn; 2 at most).

The fairness figure is 1 - (2|cover A - cover B| + |visibility A - visibility B| +
|lanes A - lanes B|) / 4, in [0, 1]; `edge` is the same sum with signs (cover and
lanes for the first side, visibility against it: a zone the enemy sees less of is the
better one), > 0 when the table favours the first side.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import shapely
from shapely import affinity

from tactical.errors import UserError
from tactical.geometry.los import TerrainIndex, lines_of_sight, los_hits
from tactical.geometry.zones import ZONE_DEPTH, Zone, check_edge, deployment_zone, opposite_edge
from tactical.model import GameState, Terrain, Unit
from tactical.rules import registry
from tactical.rules.base import RuleSystem
from tactical.session.movement import turning_rules_for
from tactical.session.terrain_setup import LibraryPiece, TerrainSetup, seeded_setup
from tactical.threat.damage import DamageCache
from tactical.threat.heatmap import Grid
from tactical.threat.reach import UNLIMITED_MOVE

GRID_STEP = 2.0  # inches between observers: a ship's length, 864 observers on a 6' x 4' table
MIN_OBSERVERS = 2  # per direction: fewer is no grid to see across
# weights of the per-side differences in the fairness figure: cover is the first strike
# itself, visibility and lanes the ways to it
WEIGHTS = {"cover": 2.0, "visibility": 1.0, "lanes": 1.0}
EVEN = 0.005  # |edge| below this: the table favours neither side
FAIRNESS_RULES = "R002.9, R002.17"


@dataclass(frozen=True)
class SideScore:
    """One side's figures: its zone's edge, what its observers see, its cover from the
    enemy's first strike, and the lines between the zones blocked in its half."""

    side: str
    edge: str
    visibility: float
    cover: float
    lanes: float

    def as_dict(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "edge": self.edge,
            "visibility": round(self.visibility, 4),
            "cover": round(self.cover, 4),
            "lanes": round(self.lanes, 4),
        }


@dataclass(frozen=True)
class ZoneThreat:
    """A side's zone on the grid: its observers' points and how many enemy units can hit
    each in their first turn (0: covered)."""

    side: str
    points: np.ndarray = field(compare=False, repr=False)
    hits: np.ndarray = field(compare=False, repr=False)


@dataclass(frozen=True)
class FairnessScore:
    """A layout's score (see the module doc)."""

    grid: float
    sides: tuple[SideScore, SideScore]
    visibility: float
    lanes: float
    symmetry: float
    fairness: float
    edge: float
    zones: tuple[ZoneThreat, ZoneThreat] = field(compare=False, repr=False)

    @property
    def favours(self) -> str | None:
        """The side the table favours, or None when it is even."""
        if abs(self.edge) < EVEN:
            return None
        return self.sides[0].side if self.edge > 0 else self.sides[1].side

    @property
    def cover_difference(self) -> float:
        """Cover of the first side less the second's."""
        return self.sides[0].cover - self.sides[1].cover

    def differences(self) -> dict[str, float]:
        """Each component's signed difference, > 0 favouring the first side."""
        a, b = self.sides
        return {
            "cover": a.cover - b.cover,
            "visibility": b.visibility - a.visibility,
            "lanes": a.lanes - b.lanes,
        }

    def as_dict(self) -> dict[str, Any]:
        return {
            "grid": self.grid,
            "fairness": round(self.fairness, 4),
            "edge": round(self.edge, 4),
            "favours": self.favours,
            "visibility": round(self.visibility, 4),
            "lanes": round(self.lanes, 4),
            "symmetry": round(self.symmetry, 4),
            "cover_difference": round(self.cover_difference, 4),
            "sides": [side.as_dict() for side in self.sides],
        }

    def summary(self) -> str:
        """One line a player reads: the figure and who the table favours."""
        who = self.favours
        lean = "favours neither side" if who is None else f"favours {who}"
        return f"fairness {self.fairness:.2f} ({lean})"


def combine(differences: Mapping[str, float]) -> tuple[float, float]:
    """(fairness, edge) from the signed per-side differences (the module doc's formula)."""
    total = sum(WEIGHTS.values())
    unfair = sum(WEIGHTS[k] * abs(differences[k]) for k in WEIGHTS) / total
    edge = sum(WEIGHTS[k] * differences[k] for k in WEIGHTS) / total
    return max(0.0, min(1.0, 1.0 - unfair)), edge


# --------------------------------------------------------------------------- zones


def zones_for(state: GameState, first_edge: str | None = None) -> dict[str, Zone]:
    """The two sides' deployment zones: the map's first side on `first_edge` (by default the
    edge its units stand nearest), the other on the opposite edge, each 8" deep
    (R002.16-R002.17). UserError without two sides with units, or on a table too small for
    two zones apart."""
    sides = [side for side in state.sides if any(u.side == side for u in state.units)]
    if len(sides) < 2:
        have = ", ".join(sides) or "none"
        raise UserError(
            f"no deployment zones: a score needs two sides with units on the map (sides with "
            f"units: {have}); the enemy's weapons decide the cover from its first strike",
            spec_id="R002.17",
        )
    edge = check_edge(first_edge or nearest_edge(state, sides[0]))
    board = state.board
    across = board.height if edge in ("bottom", "top") else board.width
    if across <= 2 * ZONE_DEPTH:
        raise UserError(
            f'no deployment zones: the table is {across:g}" between the {edge} and '
            f'{opposite_edge(edge)} edges, too small for two {ZONE_DEPTH:g}" zones apart',
            spec_id="R002.17",
        )
    return {
        sides[0]: deployment_zone(board.width, board.height, edge),
        sides[1]: deployment_zone(board.width, board.height, opposite_edge(edge)),
    }


def nearest_edge(state: GameState, side: str) -> str:
    """The table edge nearest the middle of `side`'s units: where it deploys ("bottom",
    side A's edge, for a side with no units)."""
    units = [u for u in state.units if u.side == side]
    if not units:
        return "bottom"
    x = sum(u.x for u in units) / len(units)
    y = sum(u.y for u in units) / len(units)
    board = state.board
    gaps = {"bottom": y, "top": board.height - y, "left": x, "right": board.width - x}
    return min(gaps, key=lambda edge: gaps[edge])


def observer_grid(state: GameState, step: float) -> Grid:
    """The observers' grid; UserError when the table is too small for it."""
    if not (math.isfinite(step) and step > 0):
        raise UserError(f'grid {step:g}": expected a number of inches greater than 0')
    board = state.board
    if min(board.width, board.height) / step < MIN_OBSERVERS or step > ZONE_DEPTH:
        raise UserError(
            f'the table ({board.width:g}" x {board.height:g}") is too small for a {step:g}" '
            f"grid: it needs at least {MIN_OBSERVERS} observers each way and one row in each "
            f'{ZONE_DEPTH:g}" deployment zone (use a finer grid)',
            spec_id="R002.17",
        )
    return Grid.over(board.width, board.height, step)


# --------------------------------------------------------------------------- the score


def score_layout(
    state: GameState,
    first_edge: str | None = None,
    *,
    step: float = GRID_STEP,
    cache: DamageCache | None = None,
) -> FairnessScore:
    """Score `state`'s terrain for its two sides, deployed on `first_edge` and the opposite
    edge (by default the edge the first side's units stand nearest; see the module doc)."""
    system = registry.get(state.rules)
    zones = zones_for(state, first_edge)
    grid = observer_grid(state, step)
    sides = tuple(zones)
    gx, gy = grid.points()
    index = TerrainIndex.build([t.id for t in state.terrain], [t.geometry for t in state.terrain])
    sight = np.array([system.blocks_los(p, None, None) for p in state.terrain], dtype=bool)
    open_ = ~_inside(state.terrain, sight, gx, gy)
    points = np.column_stack((gx[open_], gy[open_]))
    seen = visibility_matrix(index, points, sight)
    in_zone = {side: _in_zone(zones[side], points) for side in sides}
    # share of the others each observer sees (itself left out)
    shares = (seen.sum(axis=1) - 1) / max(1, len(points) - 1)
    cache = cache if cache is not None else DamageCache()
    threats = []
    scores = []
    lanes_all, lanes_half = _lanes(state, system, index, points, in_zone, zones, sides)
    for side in sides:
        enemy = next(s for s in sides if s != side)
        hits = _first_strike(
            state, system, index, points, seen, sight, in_zone, zones, side, enemy, cache
        )
        threats.append(ZoneThreat(side, points[in_zone[side]], hits))
        cover = float(np.count_nonzero(hits == 0) / len(hits)) if len(hits) else 0.0
        scores.append(
            SideScore(
                side,
                zones[side].edge,
                float(shares[in_zone[side]].mean()) if in_zone[side].any() else 0.0,
                cover,
                lanes_half[side],
            )
        )
    pair = (scores[0], scores[1])
    differences = {
        "cover": pair[0].cover - pair[1].cover,
        "visibility": pair[1].visibility - pair[0].visibility,
        "lanes": pair[0].lanes - pair[1].lanes,
    }
    fairness, edge = combine(differences)
    return FairnessScore(
        grid=step,
        sides=pair,
        visibility=float(shares.mean()) if len(shares) else 0.0,
        lanes=lanes_all,
        symmetry=symmetry(state),
        fairness=fairness,
        edge=edge,
        zones=(threats[0], threats[1]),
    )


def _inside(terrain: Sequence[Terrain], which: np.ndarray, x: np.ndarray, y: np.ndarray):
    """Whether each point lies inside one of the pieces `which` picks."""
    found = np.zeros(len(x), dtype=bool)
    chosen = [t.geometry for t, keep in zip(terrain, which, strict=True) if keep]
    if chosen:
        found = shapely.contains_xy(shapely.union_all(chosen), x, y)
    return found


def _in_zone(zone: Zone, points: np.ndarray) -> np.ndarray:
    x0, y0, x1, y1 = zone.bounds
    x, y = points[:, 0], points[:, 1]
    return (x >= x0) & (x <= x1) & (y >= y0) & (y <= y1)


def visibility_matrix(index: TerrainIndex, points: np.ndarray, blocking: np.ndarray) -> np.ndarray:
    """(n, n) booleans: whether observer i sees observer j, every pair at once (each line
    once: sight is the same both ways)."""
    n = len(points)
    seen = np.ones((n, n), dtype=bool)
    if n < 2 or len(index) == 0 or not blocking.any():
        return seen
    i, j = np.triu_indices(n, 1)
    clear = lines_of_sight(index, points[i], points[j], blocking)
    seen[i, j] = clear
    seen[j, i] = clear
    return seen


def sight_between(
    index: TerrainIndex, starts: np.ndarray, ends: np.ndarray, blocking: np.ndarray
) -> np.ndarray:
    """(len(starts), len(ends)) booleans: whether each start sees each end."""
    shape = (len(starts), len(ends))
    if not blocking.any() or not all(shape) or len(index) == 0:
        return np.ones(shape, dtype=bool)
    a = np.repeat(starts, len(ends), axis=0)
    b = np.tile(ends, (len(starts), 1))
    return lines_of_sight(index, a, b, blocking).reshape(shape)


# --------------------------------------------------------------------------- the first strike


@dataclass(frozen=True)
class _Profile:
    """What an enemy unit brings to the first strike: how far it moves and shoots, its
    line-of-sight level, and the terrain it collides with."""

    move: float
    reach: float
    level: str
    collides: tuple[bool, ...]


def _profiles(state: GameState, system: RuleSystem, side: str, cache: DamageCache):
    options = system.options(state.options)
    found: dict[_Profile, Unit] = {}
    for unit in state.units:
        if unit.side != side:
            continue
        reaches = cache.reaches(system, unit, options) if system.has_combat else []
        longest = max((r.max_range for r in reaches), default=0.0)
        if longest <= 0:
            continue  # no weapon: nothing of it strikes
        rules = turning_rules_for(system, state, unit, None)
        move = rules.max_distance if rules.max_distance is not None else UNLIMITED_MOVE
        profile = _Profile(
            float(move),
            float(longest),
            system.los_level(unit),
            tuple(bool(system.terrain_collides(unit, p)) for p in state.terrain),
        )
        found.setdefault(profile, unit)
    return found


def _first_strike(
    state, system, index, points, seen, sight, in_zone, zones, side, enemy, cache
) -> np.ndarray:
    """For each observer in `side`'s zone, how many of the enemy's kinds of unit could hit
    a unit of the side there in their first turn."""
    targets = points[in_zone[side]]
    hits = np.zeros(len(targets), dtype=np.int32)
    if not len(targets):
        return hits
    enemy_zone = zones[enemy].polygon
    distance_to_zone = shapely.distance(enemy_zone, shapely.points(points))
    levels = _side_levels(state, system, side)
    for profile, unit in _profiles(state, system, enemy, cache).items():
        stand = distance_to_zone <= profile.move + 1e-9
        collide = np.array(profile.collides, dtype=bool)
        if collide.any():
            stand &= ~_inside(state.terrain, collide, points[:, 0], points[:, 1])
        if not stand.any():
            continue
        starts = points[stand]
        near = (
            np.hypot(
                starts[:, None, 0] - targets[None, :, 0], starts[:, None, 1] - targets[None, :, 1]
            )
            <= profile.reach + 1e-9
        )
        struck = np.zeros(len(targets), dtype=bool)
        for target in levels.values():
            mask = np.array([system.blocks_los(p, unit, target) for p in state.terrain], dtype=bool)
            if len(mask) and np.array_equal(mask, sight):
                clear = seen[np.ix_(stand, in_zone[side])]
            else:
                clear = sight_between(index, starts, targets, mask)
            struck |= (near & clear).any(axis=0)
        hits += struck
    return hits


def _side_levels(state: GameState, system: RuleSystem, side: str) -> dict[str, Unit]:
    found: dict[str, Unit] = {}
    for unit in state.units:
        if unit.side == side:
            found.setdefault(system.los_level(unit), unit)
    return found


# --------------------------------------------------------------------------- lanes, symmetry


def _lanes(state, system, index, points, in_zone, zones, sides) -> tuple[float, dict[str, float]]:
    """The share of lines between the two zones' observers blocked by terrain that blocks
    sight or passage, and per side the share blocked by a piece in its own half."""
    a, b = points[in_zone[sides[0]]], points[in_zone[sides[1]]]
    empty = {side: 0.0 for side in sides}
    if not len(a) or not len(b) or not state.terrain:
        return 0.0, empty
    blocks = np.array(
        [
            system.blocks_los(p, None, None)
            or any(system.terrain_collides(u, p) for u in state.units)
            for p in state.terrain
        ],
        dtype=bool,
    )
    if not blocks.any():
        return 0.0, empty
    starts = np.repeat(a, len(b), axis=0)
    ends = np.tile(b, (len(a), 1))
    line, piece = los_hits(index, starts, ends, blocks)
    total = len(starts)
    blocked = np.zeros(total, dtype=bool)
    blocked[line] = True
    # a piece is in the half nearer the zone whose edge is nearer its centre
    centres = shapely.get_coordinates(shapely.centroid([t.geometry for t in state.terrain]))
    near_first = _nearer_first(state, zones[sides[0]].edge, centres)
    halves = {}
    for k, side in enumerate(sides):
        mine = near_first if k == 0 else ~near_first
        own = np.zeros(total, dtype=bool)
        own[line[mine[piece]]] = True
        halves[side] = float(own.mean())
    return float(blocked.mean()), halves


def _nearer_first(state: GameState, edge: str, centres: np.ndarray) -> np.ndarray:
    board = state.board
    if edge in ("bottom", "top"):
        along, middle = centres[:, 1], board.height / 2
    else:
        along, middle = centres[:, 0], board.width / 2
    return along < middle if edge in ("bottom", "left") else along > middle


def symmetry(state: GameState) -> float:
    """Area of the layout's symmetric difference with its half-turn about the table's
    centre, kind by kind, over the area of terrain (0: symmetric; 0 on an empty table)."""
    if not state.terrain:
        return 0.0
    board = state.board
    centre = (board.width / 2, board.height / 2)
    total = 0.0
    area = 0.0
    for kind in sorted({t.kind for t in state.terrain}):
        shapes = shapely.union_all([t.geometry for t in state.terrain if t.kind == kind])
        turned = affinity.rotate(shapes, 180.0, origin=centre)
        total += shapely.symmetric_difference(shapes, turned).area
        area += shapes.area
    return float(total / area) if area > 0 else 0.0


# --------------------------------------------------------------------------- words


def possessive(name: str) -> str:
    """ "A's", "Cylons'" (a name ending in s takes the apostrophe alone)."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def score_lines(score: FairnessScore) -> list[str]:
    """Every component in a player's words, one a line (the command line, the sheets)."""
    a, b = score.sides
    points = 100 * score.cover_difference
    return [
        f"Cover from the enemy's first turn: {a.side} {_percent(a.cover)} of its zone, "
        f"{b.side} {_percent(b.cover)} (difference {points:+.1f} points)",
        f"Visibility: {possessive(a.side)} zone sees {_percent(a.visibility)} of the table, "
        f"{possessive(b.side)} {_percent(b.visibility)} "
        f"(the whole table {_percent(score.visibility)})",
        f"Lanes: {_percent(score.lanes)} of the lines between the zones are blocked; by "
        f"terrain in {possessive(a.side)} half {_percent(a.lanes)}, "
        f"in {possessive(b.side)} {_percent(b.lanes)}",
        f"Symmetry: {score.symmetry:.2f} from its own half-turn (0 is symmetric, 2 the most)",
        f"Zones: {a.side} on the {a.edge} edge, {b.side} on the {b.edge} edge, "
        f'{ZONE_DEPTH:g}" deep; observers {score.grid:g}" apart',
    ]


def score_markdown(score: FairnessScore) -> str:
    """The score as a section of the Markdown placement sheet."""
    lines = [
        "## Fairness",
        "",
        f"{score.summary().capitalize()}: 1 is an even table, 0 the most uneven.",
        "",
    ]
    lines += [f"- {line}" for line in score_lines(score)]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- the fairest


@dataclass(frozen=True)
class FairRoll:
    """The fairest of several R002.9 layouts: its seed, the setup, its score, and every
    seed tried with its fairness."""

    seed: int
    setup: TerrainSetup
    score: FairnessScore
    tries: tuple[tuple[int, float], ...]


def fairest(
    state: GameState,
    seeds: Sequence[int],
    first_edge: str | None = None,
    *,
    step: float = GRID_STEP,
    library: Sequence[LibraryPiece] | None = None,
    avoid: Sequence[Zone] = (),
    keep_clear: Sequence[shapely.Geometry] = (),
) -> FairRoll:
    """Lay a table by R002.9 from each seed (the procedure unchanged) and keep the fairest
    for `state`'s fleets among those with at least the median number of pieces (an empty
    table is always even, and the procedure lays one now and then: a fair table is one
    with terrain on it); among equals the first (its seed the earliest tried)."""
    if not seeds:
        raise UserError("a fair roll needs at least one layout to try")
    cache = DamageCache()
    rolls = []
    for seed in seeds:
        setup = seeded_setup(state.board, seed, library, avoid, keep_clear)
        score = score_layout(state.with_terrain(setup.terrain), first_edge, step=step, cache=cache)
        rolls.append(FairRoll(seed, setup, score, ()))
    enough = float(np.median([len(roll.setup.terrain) for roll in rolls]))
    best = max(
        (roll for roll in rolls if len(roll.setup.terrain) >= enough),
        key=lambda roll: roll.score.fairness,
    )  # max keeps the first of equals
    return replace(best, tries=tuple((roll.seed, roll.score.fairness) for roll in rolls))
