"""Drawing a move on the table during play: the move tool, its preview and its end view.

`MoveControl` is a part of the play screen that holds the move being drawn for one
`ActionChoice` (a move of one unit), the table with the mover where the path ends (and
that table's geometry, built once per end pose), and the mover's arcs and lines of sight
from there. It starts, confirms and cancels the move and takes the pointer and the keys
while one is drawn, through the screen it is given (its `session`, `services`,
`actions`, `do`); the session checks the path (`Session.preview_move`) as the rule
system does.
"""

from __future__ import annotations

from typing import Any

import pygame

from tactical.errors import UserError
from tactical.model import FrozenMap, GameState
from tactical.present.declaration import is_move_choice
from tactical.present.flow import moving_words
from tactical.present.selection import SelectionView, selection_view
from tactical.rules.base import Action, ActionChoice
from tactical.rules.measuring import TableGeometry
from tactical.session.controller import Session
from tactical.session.game import Step
from tactical.session.movement import turning_rules_for
from tactical.ui import palette
from tactical.ui.camera import Camera
from tactical.ui.fonts import Fonts
from tactical.ui.move_preview import draw_end_view, draw_handles, draw_move_preview
from tactical.ui.move_tool import MoveTool


class MoveControl:
    """The move being drawn (if any) and what it shows; see the module docstring."""

    def __init__(self, screen: Any) -> None:
        self.screen = screen
        self.tool: MoveTool | None = None
        self.choice: ActionChoice | None = None
        self.dragging = False
        self._end_view: tuple[GameState, bool, SelectionView | None] | None = None
        self._moved: tuple[tuple, GameState, TableGeometry | None] | None = None

    def _session(self) -> Session:
        return self.screen.session

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

    def end_view(self, tool: MoveTool | None = None) -> SelectionView | None:
        """The mover's arcs and range rings where the drawn path ends, and its lines of sight
        from there once the path is not being dragged (computed once per end pose): where it
        will be able to fire from. (`tool`: the move tool, which is this part's own.)"""
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

    # ------------------------------------------------------------------ the screen's commands

    def start_move(self, choice: ActionChoice) -> None:
        """The move tool for the choice's unit: drag, keys and handles draw the path."""
        screen = self.screen
        if not screen.session.state.has_unit(choice.actor):
            screen.services.set_status(f"{choice.title}: that unit is no longer on the table")
            return
        tool = self.start(choice, screen.actions.values.get("activation"))
        unit = tool.unit
        screen.services.select(unit.id)
        screen.services.set_status(
            moving_words(screen.session.state.shown_names.get(unit.id, unit.id))
        )

    def confirm_move(self) -> Step | None:
        """Enter or Move: the path drawn declared as the move (its other values the form's)."""
        screen = self.screen
        tool, choice = self.tool, self.choice
        if tool is None or choice is None:
            return None
        if not tool.draft.tokens:
            screen.services.set_status("draw a path first: W or a drag moves ahead")
            return None
        problem = tool.problem()
        if problem:
            screen.services.set_status(f"refused: {problem}")
            return None
        values = {k: v for k, v in screen.actions.values.items() if k != "path"}
        values["path"] = tool.draft.path
        step = screen.do(Action(choice.kind, choice.actor, FrozenMap(values)))
        if step is not None and screen.actions.picked is not None:
            # the move is made: its declaration goes with it (a move still offered is picked
            # again to draw another, not left asking for a path no tool is drawing)
            screen.actions.pick(None)
            screen.refresh_odds()
        return step

    def move_key(self, event: pygame.event.Event) -> bool:
        """A key while a move is drawn: the tool's (turn, step, confirm, cancel)."""
        tool = self.tool
        if tool is None:
            return False
        verdict = tool.key(event)
        if verdict == "confirm":
            self.confirm_move()
        elif verdict == "cancel":
            self.cancel()
            self.screen.services.set_status("move cancelled")
        else:
            self.screen.services.set_status(tool.status())
        return verdict is not None or tool.handles_key(event)

    # ------------------------------------------------------------------ pointer

    def press(self, point: tuple[float, float], camera: Camera) -> bool:
        """A left press: the path end or a turn handle grabbed (the status line says so)."""
        tool = self.tool
        if tool is None:
            return False
        self.dragging = tool.press(point, camera)
        if self.dragging:
            self.screen.services.set_status(tool.status())
        return self.dragging

    def drag(self, point: tuple[float, float]) -> bool:
        if self.tool is not None and self.dragging:
            self.tool.drag(point)
            self.screen.services.set_status(self.tool.status())
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
