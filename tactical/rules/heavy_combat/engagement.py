"""The duel's geometry: range band and the facing each ship presents (GEO001.1-GEO001.7).

Two modes (option `geometry`):

- `table` (GEO001.7, default): the range band comes from the centre-to-centre
  distance, `inches_per_range_step` inches per band ("within" is <=, G.4); the
  in-plane facing a ship presents is the standard quadrant holding the
  enemy's centre (docs/architecture.md; on a quadrant line the first of fore, starboard,
  aft, port); a ship at a declared dorsal or ventral elevation presents that
  facing. Manoeuvres move the models: a completed rotation step turns the
  model in place (or sets its elevation), a lateral move swings the mover
  about the enemy's centre by whole quadrants keeping its own bearing to the
  enemy, and close / retreat translate along the line between the centres by
  one band per step. The pair is then shifted together (nothing relative
  changes) when a model would leave the table.
- `categorical` (GEO001.6): range band and facings are kept in the rule
  state only; the models stay where they are.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from tactical.geometry.arcs import centre_arc, relative_bearing
from tactical.geometry.measure import centre_to_centre
from tactical.geometry.movement import Rotation, Translation
from tactical.geometry.shapes import Pose
from tactical.model import GameState, Unit
from tactical.rules.base import RangeBand, RangeBands, with_defaults
from tactical.rules.heavy_combat.duel import Duel
from tactical.rules.heavy_combat.ships import OPTION_FIELDS
from tactical.rules.heavy_combat.tables import FACING_BEARING, IN_PLANE, MAX_RANGE

BAND_TOLERANCE = 1e-9  # inches: a distance on a band's limit is within it (G.4)


def band_of(distance: float, step: float) -> int:
    """GEO001.7: the range band of a centre-to-centre distance: 1 up to `step`, 2 up to
    twice it, ...; bands beyond 3 are counted on (out of weapons range, R001.21)."""
    return max(1, math.ceil(distance / step - BAND_TOLERANCE))


def table_mode(options: Mapping[str, Any]) -> bool:
    return options["geometry"] == "table"


@dataclass(frozen=True, slots=True)
class Engagement:
    """The categorical view of the duel now: band (counted on beyond 3), the distance when
    on the table, and the facing each ship presents to the other."""

    band: int
    distance: float | None
    facings: tuple[tuple[str, str], ...]

    @property
    def range(self) -> int | None:
        """R001.7: the range band 1-3, or None beyond weapons range."""
        return self.band if self.band <= MAX_RANGE else None

    def facing(self, ship_id: str) -> str:
        return dict(self.facings)[ship_id]


def table_facing(unit: Unit, enemy: Unit, elevation: str) -> str:
    """GEO001.2/GEO001.7: the facing `unit` presents to `enemy` on the table."""
    return _facing(unit.pose, enemy.pose, elevation)


def distance_between(state: GameState, a: str, b: str) -> float:
    return centre_to_centre(state.unit(a).pose, state.unit(b).pose).distance


def engagement(state: GameState, duel: Duel, options: Mapping[str, Any]) -> Engagement:
    """Range band and presented facings, from the table or from the rule state."""
    first, second = duel.ids
    if not table_mode(options):
        assert duel.range is not None
        return Engagement(
            duel.range,
            None,
            tuple((key, str(duel.ship(key).facing)) for key in duel.ids),
        )
    a, b = state.unit(first), state.unit(second)
    return _on_table(
        (first, a.pose, duel.ship(first).elevation),
        (second, b.pose, duel.ship(second).elevation),
        float(options["inches_per_range_step"]),
    )


@lru_cache(maxsize=1024)
def _on_table(
    first: tuple[str, Pose, str], second: tuple[str, Pose, str], step: float
) -> Engagement:
    """GEO001.7: the engagement of two ships on the table, by their ids, poses and
    elevations only (a pure function: each roll the computer players enumerate asks it
    again on an unmoved pair)."""
    (a_id, a, a_elevation), (b_id, b, b_elevation) = first, second
    distance = centre_to_centre(a, b).distance
    facings = (
        (a_id, _facing(a, b, a_elevation)),
        (b_id, _facing(b, a, b_elevation)),
    )
    return Engagement(band_of(distance, step), distance, facings)


def _facing(pose: Pose, enemy: Pose, elevation: str) -> str:
    """GEO001.2/GEO001.7: the facing a ship at `pose` presents to one at `enemy`."""
    if elevation != "level":
        return elevation
    return centre_arc(relative_bearing(pose, enemy.x, enemy.y))


# --------------------------------------------------------------------------- motions


def _absolute_bearing(unit: Unit, x: float, y: float) -> float:
    return relative_bearing(Pose(unit.x, unit.y, 0.0), x, y)


def present_facing(
    state: GameState, duel: Duel, ship_id: str, facing: str, options: Mapping[str, Any]
) -> tuple[GameState, Duel]:
    """A completed rotation step (R001.11): the ship now presents `facing` to the enemy.

    On the table an in-plane facing turns the model in place until the enemy's centre
    lies in the middle of that quadrant (and the ship is level again); dorsal and
    ventral set the elevation."""
    ship = duel.ship(ship_id)
    if not table_mode(options):
        return state, duel.with_ship(ship_id, replace(ship, facing=facing))
    if facing not in IN_PLANE:
        return state, duel.with_ship(ship_id, replace(ship, elevation=facing))
    unit = state.unit(ship_id)
    enemy = state.unit(duel.opponent(ship_id))
    turn_by = relative_bearing(unit.pose, enemy.x, enemy.y) - FACING_BEARING[facing]
    turned = Rotation(unit.pose, (unit.x, unit.y), turn_by).end
    return (
        state.replace_unit(unit.moved_to(turned)),
        duel.with_ship(ship_id, replace(ship, elevation="level")),
    )


def engage_facing(
    state: GameState, duel: Duel, mover_id: str, facing: str, options: Mapping[str, Any]
) -> tuple[GameState, Duel]:
    """A lateral move (R001.10, GEO001.4): the mover makes the enemy present `facing` to it.

    On the table an in-plane facing swings the mover about the enemy's centre (its
    heading turning with it, so the facing the mover presents is kept) until it sits in
    the middle of that quadrant of the enemy, and the enemy is level again; dorsal and
    ventral set the enemy's elevation."""
    enemy_id = duel.opponent(mover_id)
    enemy_ship = duel.ship(enemy_id)
    if not table_mode(options):
        return state, duel.with_ship(enemy_id, replace(enemy_ship, facing=facing))
    if facing not in IN_PLANE:
        return state, duel.with_ship(enemy_id, replace(enemy_ship, elevation=facing))
    mover, enemy = state.unit(mover_id), state.unit(enemy_id)
    swing = FACING_BEARING[facing] - relative_bearing(enemy.pose, mover.x, mover.y)
    swung = Rotation(mover.pose, (enemy.x, enemy.y), swing).end
    return (
        keep_on_table(state.replace_unit(mover.moved_to(swung)), duel.ids),
        duel.with_ship(enemy_id, replace(enemy_ship, elevation="level")),
    )


def shift_range(
    state: GameState,
    duel: Duel,
    movers: Mapping[str, int],
    band_change: int,
    options: Mapping[str, Any],
) -> tuple[GameState, Duel]:
    """R001.9: the range band changes by `band_change` (already summed and clamped).

    On the table the ships whose declared move agrees with the change share the
    distance, `inches_per_range_step` per band, each moving along the line between the
    centres (headings kept)."""
    if band_change == 0:
        return state, duel
    if not table_mode(options):
        assert duel.range is not None
        return state, replace(duel, range=duel.range + band_change)
    step = float(options["inches_per_range_step"])
    sharing = [key for key, shift in movers.items() if shift * band_change > 0]
    each = abs(band_change) * step / len(sharing)
    for key in sharing:
        unit = state.unit(key)
        enemy = state.unit(duel.opponent(key))
        toward = _absolute_bearing(unit, enemy.x, enemy.y)
        # a retreat is a move straight away from the enemy
        moved = Translation(Pose(unit.x, unit.y, toward), each if band_change < 0 else -each).end
        state = state.replace_unit(unit.moved_to(Pose(moved.x, moved.y, unit.heading)))
    return keep_on_table(state, duel.ids), duel


def keep_on_table(state: GameState, ids: tuple[str, ...]) -> GameState:
    """Shift the duelling models together (nothing relative changes) so that they stay on
    the table where they fit on it; a pair wider than the table is centred on it."""
    units = [state.unit(key) for key in ids]
    bounds = [unit.footprint.bounds for unit in units]
    low_x, low_y = min(b[0] for b in bounds), min(b[1] for b in bounds)
    high_x, high_y = max(b[2] for b in bounds), max(b[3] for b in bounds)
    dx = _shift_into(low_x, high_x, state.board.width)
    dy = _shift_into(low_y, high_y, state.board.height)
    if dx == 0.0 and dy == 0.0:
        return state
    for unit in units:
        moved = Translation(Pose(unit.x, unit.y, 90.0), dx).end
        moved = Translation(Pose(moved.x, moved.y, 0.0), dy).end
        state = state.replace_unit(unit.moved_to(Pose(moved.x, moved.y, unit.heading)))
    return state


def _shift_into(low: float, high: float, size: float) -> float:
    if high - low > size:
        return (size - (high + low)) / 2
    if low < 0.0:
        return -low
    if high > size:
        return size - high
    return 0.0


def bands(step: float) -> RangeBands:
    """GEO001.7: band n covers distances up to n x step inches (G.4: within is <=)."""
    return RangeBands(tuple(RangeBand(str(n), step * n) for n in (1, 2, 3)))


def range_table(unit: Unit, options: Mapping[str, Any]) -> RangeBands:
    """`RuleSystem.range_table` (GEO001.7): the three bands of `inches_per_range_step`, the
    same for every unit."""
    return bands(float(with_defaults(OPTION_FIELDS, options)["inches_per_range_step"]))


def range_band(unit: Unit, distance: float, options: Mapping[str, Any]) -> str | None:
    """`RuleSystem.range_band` (GEO001.7): the band `distance` falls in."""
    return range_table(unit, options).band(distance)
