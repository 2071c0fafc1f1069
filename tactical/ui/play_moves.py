"""Drawing a move on the table during play: the move tool, its preview and its end view.

`MoveControl` holds the move being drawn for one `ActionChoice` (a move of one
unit), the table with the mover where the path ends (and that table's
geometry, built once per end pose), and the mover's arcs and lines of sight
from there. The play mode asks it to start, confirm and cancel; the session
checks the path (`Session.preview_move`) as the rule system does.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from tactical.errors import UserError
from tactical.model import GameState
from tactical.rules.base import ActionChoice
from tactical.rules.measuring import TableGeometry
from tactical.session.controller import Session
from tactical.session.movement import turning_rules_for
from tactical.ui import palette
from tactical.ui.camera import Camera
from tactical.ui.declaration import is_move_choice
from tactical.ui.fonts import Fonts
from tactical.ui.move_preview import draw_end_view, draw_handles, draw_move_preview
from tactical.ui.move_tool import MoveTool
from tactical.ui.selection import SelectionView, selection_view


class MoveControl:
    """The move being drawn (if any) and what it shows; see the module docstring."""

    def __init__(self, session: Callable[[], Session]) -> None:
        self._session = session
        self.tool: MoveTool | None = None
        self.choice: ActionChoice | None = None
        self.dragging = False
        self._end_view: tuple[GameState, bool, SelectionView | None] | None = None
        self._moved: tuple[tuple, GameState, TableGeometry | None] | None = None

    def can_draw(self, choice: ActionChoice) -> bool:
        """A path drawn with the move tool: a move of one unit on the table (a move of several,
        a wing in formation say, has its path typed on the panel)."""
        return is_move_choice(choice) and self._session().state.has_unit(choice.actor)

    def start(self, choice: ActionChoice, activation: object) -> MoveTool:
        """The move tool for the choice's unit: drag, keys and handles draw the path."""
        session = self._session()
        state = session.state
        unit = state.unit(choice.actor)
        rules = turning_rules_for(session.game.system, state, unit, activation)

        def preview(unit_id: str, path: str):
            return session.preview_move(unit_id, path, activation)

        names = {**state.shown_terrain_names, **state.shown_names}
        self.tool = MoveTool(unit, rules, preview, names)
        self.choice = choice
        return self.tool

    def cancel(self) -> None:
        self.tool = None
        self.choice = None
        self.dragging = False

    def moved_state(self) -> GameState | None:
        """The table with the mover where the drawn path ends (None without a path drawn);
        the same object while the path ends in the same place."""
        tool = self.tool
        plan = tool.plan if tool is not None else None
        if plan is None:
            return None
        state = self._session().state
        key = (tool.unit.id, plan.final, state)
        if self._moved is None or self._moved[0] != key:
            moved = state.replace_unit(state.unit(tool.unit.id).moved_to(plan.final))
            self._moved = (key, moved, None)
        return self._moved[1]

    def moved_geometry(self) -> TableGeometry:
        """`TableGeometry` of `moved_state()`, built once for it."""
        moved = self.moved_state()
        if moved is None or self._moved is None:
            raise UserError("no move is being drawn")
        key, state, geometry = self._moved
        if geometry is None:
            geometry = TableGeometry.of(state, self._session().game.system)
            self._moved = (key, state, geometry)
        return geometry

    def end_view(self) -> SelectionView | None:
        """The mover's arcs and range rings where the drawn path ends, and its lines of sight
        from there once the path is not being dragged (computed once per end pose): where it
        will be able to fire from."""
        moved = self.moved_state()
        if moved is None or self.tool is None:
            return None
        sight = not self.dragging
        cached = self._end_view
        if cached is None or cached[0] is not moved or cached[1] != sight:
            geometry = self.moved_geometry() if sight else None
            system = self._session().game.system
            try:
                view = selection_view(
                    moved, system, self.tool.unit.id, sight, table_geometry=geometry
                )
            except UserError:
                view = None
            self._end_view = (moved, sight, view)
        return self._end_view[2]

    # ------------------------------------------------------------------ pointer

    def press(self, point: tuple[float, float], camera: Camera) -> bool:
        """A left press: the path end or a turn handle grabbed."""
        tool = self.tool
        if tool is None:
            return False
        self.dragging = tool.press(point, camera)
        return self.dragging

    def drag(self, point: tuple[float, float]) -> bool:
        if self.tool is not None and self.dragging:
            self.tool.drag(point)
            return True
        return False

    def release(self) -> None:
        if self.tool is not None and self.dragging:
            self.tool.release()
        self.dragging = False

    # ------------------------------------------------------------------ drawing

    def draw(self, surface: pygame.Surface, camera: Camera, state: GameState, fonts: Fonts) -> None:
        """The path, its template and the mover's view from where it ends (or the handles)."""
        tool = self.tool
        if tool is None:
            return
        unit = self._session().state.unit(tool.unit.id)
        colour = palette.side_colours(state.sides).get(unit.side, (230, 230, 230))
        if tool.plan is not None:
            end_view = self.end_view()
            if end_view is not None:
                draw_end_view(surface, camera, end_view, state.board)
            draw_move_preview(surface, camera, tool.plan, unit, fonts, colour)
        else:
            draw_handles(surface, tool.handles(camera), colour)
