"""Units and terrain moved by hand while the table is set up.

`SetupPlacing` is setup mode's hand on the table: a press selects the unit under it and
grabs it (or the terrain piece there), a drag shows the table as it would be
(`preview_state`), a release places it; Q / E and the wheel over a unit turn it (Shift:
by 1°). A place the rules refuse (off the table, outside the side's deployment zone,
over another unit or piece: tactical.present.setup_placement) is said on the status line
and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from tactical.geometry.shapes import Pose, normalise_heading
from tactical.model import GameState, Terrain
from tactical.present.setup_placement import placement_problem, shifted_terrain, terrain_problem
from tactical.session.deployment import Deployment
from tactical.ui.services import Services
from tactical.ui.view import terrain_at

ROTATE_STEP = 5.0  # degrees per Q/E or wheel notch; 1 with Shift


class SetupPlacing:
    """See the module docstring. `deployment` gives the zones chosen (None: anywhere)."""

    def __init__(self, services: Services, deployment: Callable[[], Deployment | None]) -> None:
        self.services = services
        self._deployment = deployment
        self._drag: tuple[str, str, tuple[float, float]] | None = None  # kind, id, grab offset
        self._drag_to: tuple[float, float] | None = None

    def cancel(self) -> None:
        """Nothing is dragged any more."""
        self._drag = self._drag_to = None

    def preview_state(self, state: GameState) -> GameState:
        """The table with the piece being dragged where the pointer has it."""
        if self._drag is None or self._drag_to is None:
            return state
        kind, item, grab = self._drag
        if kind == "terrain":
            offset = (self._drag_to[0] - grab[0], self._drag_to[1] - grab[1])
            moved = shifted_terrain(state.terrain_piece(item), offset)
            return state.with_terrain(tuple(moved if t.id == item else t for t in state.terrain))
        unit = state.unit(item)
        pose = Pose(self._drag_to[0] + grab[0], self._drag_to[1] + grab[1], unit.heading)
        return state.replace_unit(unit.moved_to(pose))

    # ------------------------------------------------------------------ input

    def press(self, point: tuple[float, float], unit_id: str | None) -> None:
        """A left press on the table: select the unit under it and grab it (or the terrain)."""
        self.services.select(unit_id)
        state = self.services.state
        if unit_id is not None:
            unit = state.unit(unit_id)
            self._drag = ("unit", unit_id, (unit.x - point[0], unit.y - point[1]))
        else:
            piece = terrain_at(state, point)
            if piece is not None:
                self._drag = ("terrain", piece, point)
        self._drag_to = None

    def drag(self, point: tuple[float, float]) -> None:
        if self._drag is not None:
            self._drag_to = point

    def release(self, point: tuple[float, float], moved: bool) -> None:
        drag, self._drag = self._drag, None
        self._drag_to = None
        if drag is None or not moved:
            return
        kind, item, grab = drag
        if kind == "unit":
            self.place_unit(item, (point[0] + grab[0], point[1] + grab[1]))
        else:
            self.move_terrain(item, (point[0] - grab[0], point[1] - grab[1]))

    def wheel(self, notches: int, under: str | None) -> bool:
        """The wheel over a unit rotates it (Shift: by 1°)."""
        if under is None:
            return False
        shift = bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)
        self.services.select(under)
        self.rotate_selected(notches * (1.0 if shift else ROTATE_STEP))
        return True

    # ------------------------------------------------------------------ placing

    def place_unit(self, unit_id: str, centre: tuple[float, float], heading: float | None = None):
        """Move a unit (setup); refused with the reason when illegal. True when placed."""
        services = self.services
        unit = services.state.unit(unit_id)
        pose = Pose(centre[0], centre[1], unit.heading if heading is None else heading)
        moved = unit.moved_to(pose)
        reason = placement_problem(
            services.state, moved, self._deployment(), services.system.los_level
        )
        if reason:
            services.set_status(f"refused: {reason}")
            return False
        services.set_state(services.state.replace_unit(moved))
        services.set_status(
            f"{unit_id} placed at ({pose.x:.2f}, {pose.y:.2f}) heading {pose.heading:g}°"
        )
        return True

    def rotate_selected(self, degrees: float) -> None:
        unit_id = self.services.view.selected
        if unit_id is None:
            self.services.set_status("select a unit to rotate it")
            return
        unit = self.services.state.unit(unit_id)
        self.place_unit(unit_id, (unit.x, unit.y), normalise_heading(unit.heading + degrees))

    def move_terrain(self, terrain_id: str, offset: tuple[float, float]) -> bool:
        """Shift a terrain piece by `offset` inches; refused off the table or onto another."""
        services = self.services
        state = services.state
        moved = shifted_terrain(state.terrain_piece(terrain_id), offset)
        problem = terrain_problem(state, moved)
        if problem:
            services.set_status(f"refused: {problem}")
            return False
        terrain: tuple[Terrain, ...] = tuple(
            moved if t.id == terrain_id else t for t in state.terrain
        )
        services.set_state(state.with_terrain(terrain))
        services.set_status(f"terrain {terrain_id} moved by ({offset[0]:.2f}, {offset[1]:.2f})")
        return True
