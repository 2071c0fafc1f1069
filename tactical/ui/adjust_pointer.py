"""The pointer on the table in adjust mode: what a press grabs, a drag shows, a release does.

`AdjustPointer` is the adjust mode's hand on the table. A press places a unit of the
palette, starts a rectangle or circle of terrain (those tools), deletes (the Delete
tool), grabs the selection's turning handle or a corner dot of the selected piece (Ctrl:
removes the corner, Shift on an edge: adds one), else selects and grabs the unit or piece
under it. A drag shows the table as it would be (`preview_state`) and the release applies
one adjustment through the mode. Units, corners and drawn pieces land on a tenth of an
inch; with Shift held, on a hundredth. The wheel over a unit turns it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Protocol

import pygame

from tactical.errors import UserError
from tactical.model import GameState
from tactical.present.adjust_selection import piece_centre
from tactical.rules.base import Action
from tactical.session import adjust
from tactical.session.adjust import adjust_table
from tactical.ui import palette
from tactical.ui.adjust_panel import AdjustPanel
from tactical.ui.draw import outline_geometry
from tactical.ui.services import Services
from tactical.ui.view import terrain_at

HANDLE_PIXELS = 8  # a press this close to a corner dot grabs it
TURN_HANDLE_PIXELS = 18  # the turning handle stands this far beyond the selected shape
ROTATE_STEP = 5.0  # degrees per Q / E or wheel notch; 1 with Shift
MIN_DRAWN = 0.1  # inches: a smaller rectangle or circle is a click, not a drawing
DRAG_PLACES = 2  # decimals of an inch a drag places to with Shift held (free)
SNAP = 0.1  # inches: dragged units, corners and drawn pieces land on a tenth of an inch
HANDLE = (250, 250, 250)
HANDLE_EDGE = (20, 20, 20)


class AdjustedTable(Protocol):
    """What the pointer asks of the adjust mode (`AdjustMode`) that owns it."""

    tool: str  # the panel's tool: select, rect, circle or delete
    terrain: str | None  # the selected terrain piece

    @property
    def state(self) -> GameState: ...

    @property
    def panel(self) -> AdjustPanel: ...

    def apply(self, action: Action) -> bool: ...

    def apply_safely(self, build: Callable[[], Action]) -> bool: ...

    def place(self, point: tuple[float, float]) -> bool: ...

    def rotate(self, degrees: float) -> bool: ...

    def selection_changed(self) -> None: ...


# what is dragged: its kind, the unit or piece, where the press was, the corner's index
Drag = tuple[str, str, tuple[float, float], int]


class AdjustPointer:
    """See the module docstring. `mode` is the `AdjustMode` whose table this changes."""

    def __init__(self, services: Services, mode: AdjustedTable) -> None:
        self.services = services
        self.mode = mode
        self.drag_from: Drag | None = None
        self.drag_to: tuple[float, float] | None = None
        self.free = False  # Shift held: a drag places to a hundredth, not on the 0.1" grid

    def cancel(self) -> None:
        """Nothing is dragged any more."""
        self.drag_from = self.drag_to = None

    # ------------------------------------------------------------------ a press

    def press(self, point: tuple[float, float], unit_id: str | None, mods: int = 0) -> None:
        """A left press on the table (see the module docstring for what it does)."""
        mode = self.mode
        self.drag_to = None
        self.free = bool(mods & pygame.KMOD_SHIFT)
        if mode.panel.palette.picked is not None:
            mode.place(point)
            return
        if mode.tool in ("rect", "circle"):
            self.drag_from = (mode.tool, "", point, -1)
            return
        if mode.tool == "delete":
            target = unit_id or terrain_at(mode.state, point)
            if target is not None:
                mode.apply(adjust.delete(target))
            return
        if self._press_turn_handle(point) or self._press_handle(point, mods):
            return
        self.services.select(unit_id)
        if unit_id is not None:
            mode.terrain = None
            self.drag_from = ("unit", unit_id, point, -1)
        else:
            mode.terrain = terrain_at(mode.state, point)
            if mode.terrain is not None:
                self.drag_from = ("terrain", mode.terrain, point, -1)
        mode.selection_changed()

    def turn_handle(self) -> tuple[str, tuple[float, float], tuple[float, float]] | None:
        """The selection's turning handle: what it turns, its pivot and where the handle is
        (ahead of a unit's bow; above a polygon piece), a little beyond the shape."""
        camera = self.services.view.camera
        state = self.preview_state(self.mode.state)
        gap = camera.inches(TURN_HANDLE_PIXELS)
        unit_id = self.services.view.selected
        if unit_id is not None and state.has_unit(unit_id):
            unit = state.unit(unit_id)
            corners = unit.footprint.exterior.coords
            reach = max(math.dist((unit.x, unit.y), c) for c in corners) + gap
            angle = math.radians(unit.heading)
            handle = (unit.x + reach * math.sin(angle), unit.y + reach * math.cos(angle))
            return unit_id, (unit.x, unit.y), handle
        terrain = self.mode.terrain
        if terrain is not None and any(p.id == terrain for p in state.terrain):
            piece = state.terrain_piece(terrain)
            if piece.polygon is None:
                return None  # a circle looks the same turned
            cx, cy = piece_centre(state, piece.id)
            reach = max(math.dist((cx, cy), c) for c in piece.polygon) + gap
            return piece.id, (cx, cy), (cx, cy + reach)
        return None

    def _press_turn_handle(self, point: tuple[float, float]) -> bool:
        found = self.turn_handle()
        if found is None:
            return False
        item, _, handle = found
        if math.dist(handle, point) > self.services.view.camera.inches(HANDLE_PIXELS):
            return False
        self.drag_from = ("turn", item, point, -1)
        return True

    def _press_handle(self, point: tuple[float, float], mods: int) -> bool:
        """A corner dot of the selected piece: grab it, remove it (Ctrl), or add one on an
        edge (Shift)."""
        mode = self.mode
        if mode.terrain is None:
            return False
        piece = mode.state.terrain_piece(mode.terrain)
        reach = self.services.view.camera.inches(HANDLE_PIXELS)
        if piece.circle is not None:
            rim = (piece.circle.x + piece.circle.radius, piece.circle.y)
            if math.dist(rim, point) <= reach:
                self.drag_from = ("rim", piece.id, point, 0)
                return True
            return False
        corners = list(piece.polygon or ())
        for index, corner in enumerate(corners):
            if math.dist(corner, point) <= reach:
                if mods & pygame.KMOD_CTRL:
                    mode.apply_safely(lambda i=index: adjust.remove_vertex(mode.state, piece.id, i))
                else:
                    self.drag_from = ("vertex", piece.id, point, index)
                return True
        if mods & pygame.KMOD_SHIFT:
            for index, corner in enumerate(corners):
                following = corners[(index + 1) % len(corners)]
                if _segment_distance(point, corner, following) <= reach:
                    mode.apply_safely(
                        lambda i=index: adjust.insert_vertex(mode.state, piece.id, i, *point)
                    )
                    return True
        return False

    # ------------------------------------------------------------------ a drag, a release

    def drag(self, point: tuple[float, float]) -> None:
        if self.drag_from is not None:
            self.drag_to = point
            self.free = bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)

    def release(self, point: tuple[float, float], moved: bool) -> None:
        drag, self.drag_from = self.drag_from, None
        self.free = bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)
        self.drag_to = None
        if drag is None or not moved:
            return
        action = self._drag_action(drag, point)
        if action is not None:
            self.mode.apply_safely(lambda: action)

    def _drag_action(self, drag: Drag, point: tuple[float, float]) -> Action | None:
        kind, item, start, index = drag
        mode = self.mode
        state = mode.state
        # a hand on a mouse places on a tenth of an inch (a hundredth with Shift): the log
        # and the map stay readable, and pieces line up as a tape measure reads them
        snap = self.snapped
        dx, dy = point[0] - start[0], point[1] - start[1]
        point, start = (snap(point[0]), snap(point[1])), (snap(start[0]), snap(start[1]))
        if kind == "turn":
            if state.has_unit(item):
                unit = state.unit(item)
                bearing = math.degrees(math.atan2(point[0] - unit.x, point[1] - unit.y))
                return adjust.move_unit(item, unit.x, unit.y, round(bearing) % 360)
            cx, cy = piece_centre(state, item)
            return adjust.move_terrain(
                item, turn=round(math.degrees(math.atan2(point[0] - cx, point[1] - cy)))
            )
        if kind == "unit":
            unit = state.unit(item)
            return adjust.move_unit(item, snap(unit.x + dx), snap(unit.y + dy), unit.heading)
        if kind == "terrain":
            return adjust.move_terrain(item, snap(dx), snap(dy))
        if kind == "vertex":
            return adjust.move_vertex(state, item, index, *point)
        if kind == "rim":
            circle = state.terrain_piece(item).circle
            assert circle is not None
            radius = snap(math.dist((circle.x, circle.y), point))
            return adjust.reshape(item, circle={"x": circle.x, "y": circle.y, "radius": radius})
        if math.dist(start, point) < MIN_DRAWN:
            return None
        terrain_kind = mode.panel.kind.selected_option[0]
        height = mode.panel.height.selected_option[0]
        piece_id = adjust.free_id(state, terrain_kind, numbered=True)
        if kind == "rect":
            table = adjust.rectangle_table(piece_id, terrain_kind, height, start, point)
        else:
            table = adjust.circle_table(piece_id, terrain_kind, height, start, point)
            table["circle"]["radius"] = snap(table["circle"]["radius"])
        mode.terrain = piece_id
        return adjust.add_terrain(table)

    def snapped(self, value: float) -> float:
        """`value` on the 0.1" grid, or to a hundredth with Shift held."""
        if self.free:
            return round(value, DRAG_PLACES) + 0.0
        return round(round(value / SNAP) * SNAP, DRAG_PLACES) + 0.0

    def wheel(self, notches: int, under: str | None) -> bool:
        """The wheel over a unit turns it (Shift: by 1°)."""
        if under is None:
            return False
        shift = bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)
        self.services.select(under)
        self.mode.terrain = None
        self.mode.rotate(notches * (1.0 if shift else ROTATE_STEP))
        return True

    # ------------------------------------------------------------------ drawing

    def preview_state(self, state: GameState) -> GameState:
        """The table with what is being dragged where the pointer has it."""
        drag = self.drag_from
        if drag is None or self.drag_to is None or drag[0] in ("rect", "circle"):
            return state
        try:
            action = self._drag_action(drag, self.drag_to)
            return adjust_table(state, action).state if action is not None else state
        except UserError:
            return state

    def draw(self, surface: pygame.Surface) -> None:
        """The selected piece's outline and corner dots, the selection's turning handle; the
        rectangle or circle being drawn."""
        camera = self.services.view.camera
        state = self.preview_state(self.mode.state)
        terrain = self.mode.terrain
        if terrain is not None and any(p.id == terrain for p in state.terrain):
            piece = state.terrain_piece(terrain)
            outline_geometry(surface, camera, piece.geometry, palette.SELECTED_OUTLINE, 2)
            if piece.circle is not None:
                dots = [(piece.circle.x + piece.circle.radius, piece.circle.y)]
            else:
                dots = list(piece.polygon or ())
            for x, y in dots:
                centre = camera.to_screen(x, y)
                pygame.draw.circle(surface, HANDLE_EDGE, centre, 6)
                pygame.draw.circle(surface, HANDLE, centre, 4)
        turning = self.turn_handle()
        if turning is not None and (self.drag_from is None or self.drag_from[0] == "turn"):
            _, pivot, handle = turning
            at = camera.to_screen(*handle)
            pygame.draw.aaline(surface, palette.SELECTED_OUTLINE, camera.to_screen(*pivot), at)
            pygame.draw.circle(surface, HANDLE_EDGE, at, 7)
            pygame.draw.circle(surface, palette.SELECTED_OUTLINE, at, 5)
        if self.drag_from is not None and self.drag_to is not None:
            kind, _, start, _ = self.drag_from
            if kind == "rect":
                x0, y0 = camera.to_screen(*start)
                x1, y1 = camera.to_screen(*self.drag_to)
                rect = pygame.Rect(min(x0, x1), min(y0, y1), abs(x1 - x0), abs(y1 - y0))
                pygame.draw.rect(surface, palette.SELECTED_OUTLINE, rect, 2)
            elif kind == "circle":
                radius = camera.pixels(math.dist(start, self.drag_to))
                pygame.draw.circle(
                    surface, palette.SELECTED_OUTLINE, camera.to_screen(*start), radius, 2
                )


def _segment_distance(
    point: tuple[float, float], a: tuple[float, float], b: tuple[float, float]
) -> float:
    ax, ay = a
    bx, by = b
    length = (bx - ax) ** 2 + (by - ay) ** 2
    if length == 0:
        return math.dist(point, a)
    t = max(0.0, min(1.0, ((point[0] - ax) * (bx - ax) + (point[1] - ay) * (by - ay)) / length))
    return math.dist(point, (ax + t * (bx - ax), ay + t * (by - ay)))
