"""The play screen's view state and the pure look-ups its input handlers need.

Nothing here draws or touches pygame: the view state is an immutable value
(camera, mode, tool, selection, hover, ruler, setup stage), replaced by the
App's handlers; hit-testing and snapping work in table inches on the model.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import shapely

from tactical.model import GameState
from tactical.ui.camera import Camera

SNAP_PIXELS = 8.0  # a ruler end this close to a centre or base edge snaps to it

Point = tuple[float, float]


@dataclass(frozen=True)
class Ruler:
    """The measure tool's segment in table inches; `end` is None while choosing it."""

    start: Point
    end: Point | None = None
    done: bool = False

    @property
    def length(self) -> float:
        if self.end is None:
            return 0.0
        return float(np.hypot(self.end[0] - self.start[0], self.end[1] - self.start[1]))


@dataclass(frozen=True)
class ViewState:
    """What the play screen shows, apart from the model: never written into a map."""

    camera: Camera
    mode: str = "inspect"  # "inspect" or "setup"
    tool: str = "select"  # "select" or "measure"
    selected: str | None = None
    hovered: str | None = None
    ruler: Ruler | None = None
    help_visible: bool = False
    status: str = ""
    area_rolls: tuple[tuple[str, str], ...] = field(default=())  # (area name, "A 5 / B 2")


class UnitIndex:
    """The footprints of a state's units for point hit-tests, built once per units tuple."""

    def __init__(self, state: GameState) -> None:
        self.units = state.units
        self.ids = [unit.id for unit in state.units]
        self.footprints = np.array([unit.footprint for unit in state.units], dtype=object)
        self.centres = np.array([(unit.x, unit.y) for unit in state.units], dtype=float).reshape(
            -1, 2
        )
        self.tree = shapely.STRtree(self.footprints) if len(self.footprints) else None

    def unit_at(self, point: Point) -> str | None:
        """The unit whose base holds `point` (the last drawn, i.e. topmost, on a tie)."""
        if self.tree is None:
            return None
        hits = self.tree.query(shapely.Point(point), predicate="intersects")
        return self.ids[int(max(hits))] if len(hits) else None

    def snap(self, point: Point, tolerance: float) -> tuple[Point, str]:
        """`point` snapped to a unit centre, else to the nearest base edge, within `tolerance`
        inches; returns the point and what it snapped to ("" when it did not)."""
        if self.tree is None:
            return point, ""
        offsets = self.centres - np.asarray(point)
        distances = np.hypot(offsets[:, 0], offsets[:, 1])
        nearest = int(np.argmin(distances))
        if distances[nearest] <= tolerance:
            centre = self.centres[nearest]
            return (float(centre[0]), float(centre[1])), f"centre of {self.ids[nearest]}"
        probe = shapely.Point(point)
        near = self.tree.query(probe, predicate="dwithin", distance=tolerance)
        best: tuple[float, Point, str] | None = None
        for index in near:
            edge = self.footprints[index].exterior
            on_edge = edge.interpolate(edge.project(probe))
            gap = on_edge.distance(probe)
            if gap <= tolerance and (best is None or gap < best[0]):
                best = (gap, (on_edge.x, on_edge.y), f"edge of {self.ids[index]}")
        if best is None:
            return point, ""
        return best[1], best[2]


def snap_tolerance(camera: Camera) -> float:
    """SNAP_PIXELS in table inches at the camera's zoom."""
    return camera.inches(SNAP_PIXELS)


def terrain_at(state: GameState, point: Point) -> str | None:
    """The terrain piece under `point` (the last in map order on a tie)."""
    probe = shapely.Point(point)
    found = None
    for piece in state.terrain:
        if piece.geometry.intersects(probe):
            found = piece.id
    return found
