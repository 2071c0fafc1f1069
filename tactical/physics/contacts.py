"""First contact along a path with terrain, other models or the table's edge (R002.35, R002.59).

`TableObstacles` indexes a table once (terrain footprints, every unit's base
and the region off the table) so that many moves can be checked against it,
e.g. the play screen previewing a path every frame. Which obstacles stop a
given unit is decided by the caller (the rule system's terrain collisions and
height layers); this module only finds the first one met, with the sweep of
`tactical.geometry.sweep`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import shapely

from tactical.geometry.movement import Motion
from tactical.geometry.shapes import Pose
from tactical.geometry.sweep import Obstacles, board_exterior, first_contact
from tactical.model import Terrain, Unit

ObstacleKind = Literal["terrain", "ram", "edge"]


@dataclass(frozen=True, slots=True)
class PathContact:
    """What a moving unit met first: `kind` terrain / ram (another model) / edge of the table."""

    kind: ObstacleKind
    id: str  # terrain id, unit id, or "table-edge"
    step: int  # index of the motion it happened in
    t: float  # fraction of that motion completed
    pose: Pose  # where the unit stopped


EDGE_ID = "table-edge"
CONTACT_DISTANCE = 0.01  # inches: bases this close are in contact (a collision or ram)


class TableObstacles:
    """Terrain, units and the off-table region of one table, indexed for sweep queries."""

    def __init__(
        self,
        terrain: Sequence[Terrain],
        units: Sequence[Unit],
        table: tuple[float, float] | None = None,
    ) -> None:
        self.terrain = tuple(terrain)
        self.units = tuple(units)
        self.table = table
        geometries = [t.geometry for t in self.terrain] + [u.footprint for u in self.units]
        if table is not None:
            geometries.append(board_exterior(*table))
        self.index = Obstacles(geometries)
        self._unit_offset = len(self.terrain)
        self._position = {u.id: i for i, u in enumerate(self.units)}
        self._layers: dict[str, np.ndarray] = {}
        self._masks: dict[tuple[str, str], np.ndarray] = {}

    def unit_layers(self, layer_of: Callable[[Unit], str], key: str) -> np.ndarray:
        """Every unit's collision layer, computed once per `key` (e.g. the rule system id)."""
        found = self._layers.get(key) if key else None
        if found is None:
            found = np.array([layer_of(u) for u in self.units], dtype=object)
            if key:
                self._layers[key] = found
        return found

    def mask(
        self,
        mover: Unit,
        terrain_collides: Callable[[Terrain], bool],
        layer_of: Callable[[Unit], str],
        layers_key: str = "",
    ) -> np.ndarray:
        """Which obstacles stop `mover`: colliding terrain, other units on its layer, the edge.

        With a `layers_key` (the rule system id: the same key must mean the same
        predicates) the layers and each mover's mask are kept while this table
        lives, since a preview asks for the same unit every frame.
        """
        key = (layers_key, mover.id)
        position = self._position.get(mover.id)
        cacheable = bool(layers_key) and position is not None and self.units[position] is mover
        if cacheable and key in self._masks:
            return self._masks[key]
        allowed = np.zeros(len(self.index), dtype=bool)
        for i, piece in enumerate(self.terrain):
            allowed[i] = terrain_collides(piece)
        if self.units:
            same = self.unit_layers(layer_of, layers_key) == layer_of(mover)
            if position is not None:
                same[position] = False
            allowed[self._unit_offset : self._unit_offset + len(self.units)] = same
        if self.table is not None:
            allowed[-1] = True
        if cacheable:
            self._masks[key] = allowed
        return allowed

    def first_contact(
        self,
        mover: Unit,
        motions: Sequence[Motion],
        terrain_collides: Callable[[Terrain], bool],
        layer_of: Callable[[Unit], str],
        layers_key: str = "",
        ignore_touching: bool = False,
    ) -> PathContact | None:
        """The first obstacle the mover's base meets along `motions`, or None. R002.35.

        Terrain stops it where `terrain_collides`; another unit where both are on
        the same `layer_of` (a ram); the table's edge always. `ignore_touching`
        lets a unit disengage from what it is in contact with (R002.32).
        """
        allowed = self.mask(mover, terrain_collides, layer_of, layers_key)
        found = first_contact(motions, mover.base, self.index, allowed, ignore_touching)
        if found is None:
            return None
        return PathContact(*self.describe(found.obstacle), found.motion, found.t, found.pose)

    def in_contact(
        self,
        mover: Unit,
        terrain_collides: Callable[[Terrain], bool],
        layer_of: Callable[[Unit], str],
        layers_key: str = "",
        distance: float = CONTACT_DISTANCE,
    ) -> list[tuple[ObstacleKind, str]]:
        """What the mover's base touches now (within `distance`): colliding terrain and
        models on its layer, not the table edge. R002.32: only these can be disengaged from."""
        allowed = self.mask(mover, terrain_collides, layer_of, layers_key)
        near = self.index.tree.query(mover.footprint, predicate="dwithin", distance=distance)
        found = []
        for index in sorted(int(i) for i in near):
            kind, name = self.describe(index)
            if allowed[index] and kind != "edge":
                found.append((kind, name))
        return found

    def units_within(self, bounds: tuple[float, float, float, float]) -> tuple[Unit, ...]:
        """The units whose bases' boxes meet the box `bounds` (xmin, ymin, xmax, ymax), in
        the table's order: every unit a sweep inside that box can meet or touch."""
        found = self.index.tree.query(shapely.box(*bounds))
        offset, count = self._unit_offset, len(self.units)
        return tuple(
            self.units[i - offset] for i in sorted(int(i) for i in found) if 0 <= i - offset < count
        )

    def describe(self, obstacle: int) -> tuple[ObstacleKind, str]:
        if obstacle < self._unit_offset:
            return "terrain", self.terrain[obstacle].id
        if obstacle < self._unit_offset + len(self.units):
            return "ram", self.units[obstacle - self._unit_offset].id
        return "edge", EDGE_ID
