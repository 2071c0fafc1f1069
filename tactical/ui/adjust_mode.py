"""Adjust mode of the play screen: make the table follow the real one, at any moment.

F2 (or the Adjust button) opens it from play or setup, also in the middle of a
game. Units and terrain are dragged, turned (Q / E, the wheel) or given exact
values; terrain is drawn as rectangles and circles by dragging and reshaped by
its corner dots; units are placed from the palette of the rule system's
catalogue or by typing a line (`ruler 12 6 0`); Delete removes the selection.
Every change is an `adjust` action (tactical.session.adjust) applied through a
`TableEditor`: in a game it is a step of the game (undone, saved, replayed, not
a go), on a new table (New table…) a change of the draft. A refused change says
why on the status line and changes nothing. The mode's parts: the pointer on the table
(tactical.ui.adjust_pointer), New table… and Save map as… (tactical.ui.adjust_files), the
panel (tactical.ui.adjust_panel) and what it says of the selection
(tactical.present.adjust_selection).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from pathlib import Path

import pygame
import pygame_gui

from tactical.errors import UserError
from tactical.io.catalogue import Catalogue, catalogue_for
from tactical.model import GameState
from tactical.present.adjust_selection import piece_centre, selection_words
from tactical.rules import registry
from tactical.rules.base import Action
from tactical.session import adjust
from tactical.session.adjust import TableDraft
from tactical.session.controller import Session
from tactical.session.quick_entry import parse_quick_entry
from tactical.ui.adjust_files import MapFiles
from tactical.ui.adjust_panel import AdjustPanel
from tactical.ui.adjust_pointer import ROTATE_STEP, AdjustPointer
from tactical.ui.play_mode import PlayScreen
from tactical.ui.services import Services
from tactical.ui.table_editor import DraftEditor, GameEditor, TableEditor


class AdjustMode:
    """See the module docstring. Its parts: `pointer` (the hand on the table) and `files`
    (New table…, Save map as…)."""

    def __init__(
        self, services: Services, play: PlayScreen, catalogue_file: str | os.PathLike | None
    ) -> None:
        self.services = services
        self.play = play
        self.catalogue_file = catalogue_file
        self.catalogue = catalogue_for(services.state.rules, catalogue_file)
        self.editor: TableEditor | None = None
        self.tool = "select"
        self.terrain: str | None = None  # the selected terrain piece
        self.pointer = AdjustPointer(services, self)
        self.files = MapFiles(services, lambda: self.state, self.new_table)
        self._panel: AdjustPanel | None = None  # made when the mode is first entered
        self._size: tuple[int, int] | None = None

    # ------------------------------------------------------------------ the mode's frame

    @property
    def state(self) -> GameState:
        return self.editor.state if self.editor is not None else self.services.state

    @property
    def drafting(self) -> bool:
        """A new table with no game yet (New table…)."""
        return isinstance(self.editor, DraftEditor)

    @property
    def panel(self) -> AdjustPanel:
        """The mode's panel, made the first time it is needed: a window that never adjusts
        opens without building it."""
        if self._panel is None:
            services = self.services
            self._panel = AdjustPanel(
                services.manager, self.catalogue, services.system.terrain_kinds
            )
            self._panel.show(False)
            self._panel.show_tool(self.tool)
            if self._size is not None:
                self._panel.layout(self._size)
        return self._panel

    def layout(self, size: tuple[int, int]) -> None:
        self._size = size
        if self._panel is not None:
            self._panel.layout(size)

    def show(self, visible: bool) -> None:
        if visible or self._panel is not None:
            self.panel.show(visible)
        if not visible:
            self.pointer.cancel()

    def widgets(self) -> list:
        found = [self._panel.panel] if self._panel is not None else []
        return found + self.files.widgets()

    def typing(self) -> bool:
        panel_typing = self._panel is not None and self._panel.typing()
        return panel_typing or self.files.typing()

    def loaded(self, path: Path | None) -> None:
        """A map was opened (or a game started from one): its file keeps its comments."""
        self.files.source = path
        self.terrain = None
        self.pointer.cancel()

    def enter(self) -> bool:
        """Open adjust mode over the game being played; False (said why) when it cannot."""
        if self.play.replaying:
            self.services.set_status("replaying: exit the replay to adjust the table")
            return False
        self.play.cancel_move()
        if not self.drafting:
            self.editor = GameEditor(self.play.session)
        self._follow_rules()
        self.services.set_status(
            "adjust: drag, type or place; every change is a step of the game (Ctrl+Z undoes)"
            if not self.drafting
            else "new table: draw terrain, place units, then Save map as… or back to play"
        )
        return True

    def leave(self) -> bool:
        """Back to play; a new table becomes a new game (it needs a unit to play)."""
        if self.drafting:
            state = self.state
            if not state.units:
                self.services.set_status(
                    "place at least one unit to play this table (Save map as… keeps it as it is)"
                )
                return False
            session = self.play.session
            try:
                game = Session.new(state, session.game.seed, session.autosave)
            except UserError as error:
                self.services.set_status(f"this table cannot start a game: {error.describe()}")
                return False
            self.services.adopt_map(state, None)
            self.play.new_game(game)
            self.services.set_status(f"a new game on this table, seed {game.game.seed}")
        self.editor = None
        self.terrain = None
        self.pointer.cancel()
        return True

    def _follow_rules(self) -> None:
        """The palette and terrain kinds of the table's rule system (another map, New)."""
        state = self.state
        if self.catalogue.rules != state.rules:
            try:
                self.catalogue = catalogue_for(state.rules, self.catalogue_file)
            except UserError as error:
                self.services.set_status(error.describe())
                self.catalogue = Catalogue(state.rules, ())
        sides = self.editor.sides if self.editor is not None else None
        self.panel.palette.rebuild(self.catalogue, sides or state.sides)
        self.selection_changed()

    # ------------------------------------------------------------------ changing the table

    def apply(self, action: Action) -> bool:
        """Apply an adjustment; a refusal says why and changes nothing."""
        if self.editor is None:
            return False
        try:
            sentence = self.editor.apply(action)
        except UserError as error:
            self.services.set_status(f"refused: {error.describe()}")
            return False
        self._after_change()
        self.services.set_status(sentence)
        return True

    def apply_safely(self, build: Callable[[], Action]) -> bool:
        """Build an adjustment and apply it; a refusal of either says why."""
        try:
            action = build()
        except UserError as error:
            self.services.set_status(f"refused: {error.describe()}")
            return False
        return self.apply(action)

    def _after_change(self) -> None:
        if isinstance(self.editor, GameEditor):
            self.play.sync()
        else:
            self.services.set_state(self.state)
        if self.terrain is not None and not any(p.id == self.terrain for p in self.state.terrain):
            self.terrain = None
        self.selection_changed()

    def undo(self) -> None:
        self._history("undo")

    def redo(self) -> None:
        self._history("redo")

    def _history(self, which: str) -> None:
        if self.editor is None:
            return
        try:
            sentence = self.editor.undo() if which == "undo" else self.editor.redo()
        except UserError as error:
            self.services.set_status(error.describe())
            return
        self._after_change()
        self.services.set_status(sentence)

    def quick_entry(self, text: str) -> bool:
        """The typed line (`ruler 12 6 0`, `rect ...`, `poly ...`, `delete ...`, `set ...`):
        applied, the box empties; refused, the line stays in it, selected, to be corrected
        or typed over (tactical.ui.entry_line)."""
        if self.editor is None:
            return False
        try:
            entry = parse_quick_entry(
                text, self.state, self.catalogue, self.panel.palette.side, self.editor.sides
            )
        except UserError as error:
            self.services.set_status(error.describe())
            self.panel.entry.entered(text, accepted=False)
            return False
        accepted = self.apply(entry.action)
        self.panel.entry.entered(text, accepted)
        return accepted

    def delete_selected(self) -> bool:
        target = self.services.view.selected or self.terrain
        if target is None:
            self.services.set_status("select a unit or a terrain piece to delete it")
            return False
        return self.apply(adjust.delete(target))

    def rotate(self, degrees: float) -> bool:
        """Turn the selected unit (or terrain piece) by `degrees`."""
        unit_id = self.services.view.selected
        if unit_id is not None and self.state.has_unit(unit_id):
            unit = self.state.unit(unit_id)
            return self.apply(adjust.move_unit(unit_id, unit.x, unit.y, unit.heading + degrees))
        if self.terrain is not None:
            return self.apply(adjust.move_terrain(self.terrain, turn=degrees))
        self.services.set_status("select a unit or a terrain piece to turn it")
        return False

    def apply_pose(self) -> bool:
        """The typed x, y and heading: a unit's exact place, a piece's shift and turn."""
        try:
            x, y, heading = (float(v) for v in self.panel.typed_pose())
        except ValueError:
            self.services.set_status("x, y and heading must be numbers (inches, degrees)")
            return False
        if not all(math.isfinite(v) for v in (x, y, heading)):
            self.services.set_status("x, y and heading must be finite numbers")
            return False
        unit_id = self.services.view.selected
        if unit_id is not None and self.state.has_unit(unit_id):
            return self.apply(adjust.move_unit(unit_id, x, y, heading))
        if self.terrain is not None:
            cx, cy = piece_centre(self.state, self.terrain)
            return self.apply(adjust.move_terrain(self.terrain, x - cx, y - cy, heading))
        self.services.set_status("select a unit or a terrain piece first")
        return False

    def place(self, point: tuple[float, float]) -> bool:
        """A unit of the palette's class at `point`, for the palette's side."""
        unit_class = self.panel.palette.picked
        if unit_class is None:
            return False
        side = self.panel.palette.side
        sides = self.editor.sides if self.editor is not None else None
        order = sides or self.state.sides or (side,)
        heading = 0.0 if side == order[0] else 180.0  # facing the other side across the table
        unit_id = adjust.free_id(self.state, unit_class.id, numbered=True)
        x, y = self.pointer.snapped(point[0]), self.pointer.snapped(point[1])
        table = unit_class.unit_table(unit_id, x, y, heading, side)
        if self.apply(adjust.add_unit(table)):
            self.services.select(unit_id)
            return True
        return False

    # ------------------------------------------------------------------ a new table

    def new_table(self, rules: str, width: float, height: float, title: str = "") -> None:
        """File → New: an empty table to build (it becomes a game back in play)."""
        draft = TableDraft.empty(rules, width, height, title)
        self.editor = DraftEditor(draft)
        self.files.source = None
        self.terrain = None
        self.services.adopt_map(draft.state, None)
        self.services.fit()
        self.panel.show_terrain_kinds(registry.get(rules).terrain_kinds)
        self._follow_rules()
        self.services.set_status(
            f"new {_inches(width)} x {_inches(height)} table for "
            f"{registry.get(rules).title}: draw terrain, place units"
        )

    def ui_event(self, event: pygame.event.Event) -> bool:
        """A pygame_gui event of the mode's widgets; True when it was ours."""
        if self.files.ui_event(event):
            return True
        if self.panel.palette.ui_event(event):
            picked = self.panel.palette.picked
            if picked is not None:
                self.services.set_status(f"click the table to place a {picked.name} (Esc: stop)")
            return True
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED:
            if event.ui_element is self.panel.entry:
                self.quick_entry(self.panel.entry.get_text())
                return True
            if event.ui_element in self.panel.pose.values():
                self.apply_pose()
                return True
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            name = self.panel.command(event.ui_element)
            if name is None:
                return False
            commands = {
                "delete": self.delete_selected,
                "new": self.files.ask_new_table,
                "save-as": self.files.save_map_as,
                "undo": self.undo,
                "redo": self.redo,
            }
            if name in commands:
                commands[name]()
            elif name != "done":
                self.set_tool(name)
            return name != "done"
        return False

    def set_tool(self, tool: str) -> None:
        self.tool = tool
        self.panel.show_tool(tool)
        self.panel.palette.disarm()
        words = {
            "select": "drag units and terrain; drag a corner dot to reshape",
            "rect": "drag out a rectangle of terrain",
            "circle": "drag from the centre of a round piece out to its rim",
        }
        self.services.set_status(words.get(tool, ""))

    def key(self, event: pygame.event.Event) -> bool:
        shift = bool(event.mod & pygame.KMOD_SHIFT)
        if event.key in (pygame.K_DELETE, pygame.K_BACKSPACE):
            self.delete_selected()
        elif event.key in (pygame.K_q, pygame.K_e):
            step = 1.0 if shift else ROTATE_STEP
            self.rotate(-step if event.key == pygame.K_q else step)
        else:
            return False
        return True

    def escape(self) -> None:
        self.pointer.cancel()
        if self._panel is not None and self._panel.palette.picked is not None:
            self.panel.palette.disarm()
            self.services.set_status("placing stopped")

    def selection_changed(self) -> None:
        """The panel says what is selected: its pose, its name, its values."""
        words = selection_words(
            self.services.system,
            self.state,
            self.services.view.selected,
            self.terrain,
            not self.drafting,
        )
        self.panel.show_selection(words)


def _inches(value: float) -> str:
    return f'{value:g}"'
