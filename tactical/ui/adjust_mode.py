"""Adjust mode of the play screen: make the table follow the real one, at any moment.

F2 (or the Adjust button) opens it from play or setup, also in the middle of a
game. Units and terrain are dragged, turned (Q / E, the wheel) or given exact
values; terrain is drawn as rectangles and circles by dragging and reshaped by
its corner dots; units are placed from the palette of the rule system's
catalogue or by typing a line (`ruler 12 6 0`); Delete removes the selection.
Every change is an `adjust` action (tactical.session.adjust) applied through a
`TableEditor`: in a game it is a step of the game (undone, saved, replayed, not
a go), on a new table (New table…) a change of the draft. A refused change says
why on the status line and changes nothing.
"""

from __future__ import annotations

import math
import os
from html import escape
from pathlib import Path

import pygame
import pygame_gui
from pygame_gui.windows import UIConfirmationDialog

from tactical.errors import UserError
from tactical.io.catalogue import Catalogue, catalogue_for
from tactical.io.map_save import MapExistsError, save_map_as
from tactical.model import GameState, Unit
from tactical.rules import registry
from tactical.rules.base import Action, RuleSystem
from tactical.session import adjust
from tactical.session.adjust import TableDraft, adjust_table
from tactical.session.controller import Session
from tactical.session.quick_entry import parse_quick_entry, typed_name
from tactical.ui import palette
from tactical.ui.adjust_panel import AdjustPanel
from tactical.ui.draw import outline_geometry
from tactical.ui.new_table_dialog import NewTableDialog
from tactical.ui.play_mode import PlayScreen
from tactical.ui.services import Services
from tactical.ui.table_editor import DraftEditor, GameEditor, TableEditor
from tactical.ui.view import terrain_at

HANDLE_PIXELS = 8  # a press this close to a corner dot grabs it
TURN_HANDLE_PIXELS = 18  # the turning handle stands this far beyond the selected shape
ROTATE_STEP = 5.0  # degrees per Q / E or wheel notch; 1 with Shift
MIN_DRAWN = 0.1  # inches: a smaller rectangle or circle is a click, not a drawing
DRAG_PLACES = 2  # decimals of an inch a drag places to with Shift held (free)
SNAP = 0.1  # inches: dragged units, corners and drawn pieces land on a tenth of an inch
HANDLE = (250, 250, 250)
HANDLE_EDGE = (20, 20, 20)


class AdjustMode:
    """See the module docstring."""

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
        self._drag: tuple[str, str, tuple[float, float], int] | None = None
        self._drag_to: tuple[float, float] | None = None
        self._free = False  # Shift held: a drag places to a hundredth, not on the 0.1" grid
        self.dialog: NewTableDialog | None = None
        self.confirm: UIConfirmationDialog | None = None
        self._confirmed: tuple[str, object] | None = None
        self._saving: GameState | None = None  # the table waiting for "Replace it?"
        self.source: Path | None = None  # the map file the table came from (its comments)
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
            self._drag = self._drag_to = None

    def widgets(self) -> list:
        found = [self._panel.panel] if self._panel is not None else []
        if self.dialog is not None:
            found.extend(self.dialog.widgets())
        if self.confirm is not None and self.confirm.alive():
            found.append(self.confirm)
        return found

    def typing(self) -> bool:
        panel_typing = self._panel is not None and self._panel.typing()
        return panel_typing or (self.dialog is not None and self.dialog.typing())

    def loaded(self, path: Path | None) -> None:
        """A map was opened (or a game started from one): its file keeps its comments."""
        self.source = path
        self.terrain = None
        self._drag = self._drag_to = None

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
        self._drag = self._drag_to = None
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
        self._show_selection()

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

    def _after_change(self) -> None:
        if isinstance(self.editor, GameEditor):
            self.play.sync()
        else:
            self.services.set_state(self.state)
        if self.terrain is not None and not any(p.id == self.terrain for p in self.state.terrain):
            self.terrain = None
        self._show_selection()

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
            cx, cy = _centre(self.state, self.terrain)
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
        x, y = self._snapped(point[0]), self._snapped(point[1])
        table = unit_class.unit_table(unit_id, x, y, heading, side)
        if self.apply(adjust.add_unit(table)):
            self.services.select(unit_id)
            return True
        return False

    # ------------------------------------------------------------------ new table, files

    def ask_new_table(self) -> None:
        if self.dialog is not None and self.dialog.alive:
            return
        self.dialog = NewTableDialog(
            self.services.manager, self.services.size, self.state.rules, self.new_table
        )

    def new_table(self, rules: str, width: float, height: float, title: str = "") -> None:
        """File → New: an empty table to build (it becomes a game back in play)."""
        draft = TableDraft.empty(rules, width, height, title)
        self.editor = DraftEditor(draft)
        self.source = None
        self.terrain = None
        self.services.adopt_map(draft.state, None)
        self.services.fit()
        self.panel.kind.kill()
        kinds = registry.get(rules).terrain_kinds
        self.panel.kind = pygame_gui.elements.UIDropDownMenu(
            list(kinds),
            kinds[0],
            pygame.Rect(112, 208, 100, 26),
            self.services.manager,
            container=self.panel.panel,
        )
        self._follow_rules()
        self.services.set_status(
            f"new {_inches(width)} x {_inches(height)} table for "
            f"{registry.get(rules).title}: draw terrain, place units"
        )

    def save_map_as(
        self,
        path: str | os.PathLike | None = None,
        overwrite: bool = False,
        state: GameState | None = None,
    ) -> bool:
        """Save the table (or `state`) as a map under a name the player chooses: asks before
        overwriting, never inside the installed program, a loaded map's comments kept."""
        if path is None:
            self.services.ask_file("save-map-as", "Save the map as (.toml)", False)
            return False
        table = state if state is not None else self.state
        original = None
        if self.source is not None and self.source.is_file():
            try:
                original = self.source.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                original = None
        try:
            saved = save_map_as(table, path, overwrite=overwrite, original=original)
        except MapExistsError as exists:
            self._saving = table
            self._ask("overwrite", exists.path, f"{exists.path.name} exists. Replace it?")
            return False
        except UserError as error:
            self.services.show_message("Cannot save the map", error.describe())
            return False
        self.source = saved.path
        self.services.map_saved(saved.path)
        self.services.set_status(f"{saved.path}: {saved.note}")
        return True

    def _ask(self, what: str, subject: object, question: str) -> None:
        size = self.services.size
        rect = pygame.Rect(0, 0, 420, 200)
        rect.center = (size[0] // 2, size[1] // 2)
        self.confirm = UIConfirmationDialog(
            rect, question, self.services.manager, window_title="Confirm", action_short_name="Yes"
        )
        self._confirmed = (what, subject)

    # ------------------------------------------------------------------ input

    def ui_event(self, event: pygame.event.Event) -> bool:
        """A pygame_gui event of the mode's widgets; True when it was ours."""
        if self.dialog is not None and self.dialog.ui_event(event):
            return True
        if (
            event.type == pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED
            and event.ui_element is self.confirm
            and self._confirmed is not None
        ):
            what, subject = self._confirmed
            self._confirmed = None
            if self.confirm.alive():
                self.confirm.kill()
            if what == "overwrite":
                self.save_map_as(subject, overwrite=True, state=self._saving)  # type: ignore[arg-type]
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
                "new": self.ask_new_table,
                "save-as": self.save_map_as,
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
        self._drag = self._drag_to = None
        if self._panel is not None and self._panel.palette.picked is not None:
            self.panel.palette.disarm()
            self.services.set_status("placing stopped")

    def press(self, point: tuple[float, float], unit_id: str | None, mods: int = 0) -> None:
        """A left press on the table (see the module docstring for what it does)."""
        self._drag_to = None
        self._free = bool(mods & pygame.KMOD_SHIFT)
        if self.panel.palette.picked is not None:
            self.place(point)
            return
        if self.tool in ("rect", "circle"):
            self._drag = (self.tool, "", point, -1)
            return
        if self.tool == "delete":
            target = unit_id or terrain_at(self.state, point)
            if target is not None:
                self.apply(adjust.delete(target))
            return
        if self._press_turn_handle(point) or self._press_handle(point, mods):
            return
        self.services.select(unit_id)
        if unit_id is not None:
            self.terrain = None
            self._drag = ("unit", unit_id, point, -1)
        else:
            self.terrain = terrain_at(self.state, point)
            if self.terrain is not None:
                self._drag = ("terrain", self.terrain, point, -1)
        self._show_selection()

    def turn_handle(self) -> tuple[str, tuple[float, float], tuple[float, float]] | None:
        """The selection's turning handle: what it turns, its pivot and where the handle is
        (ahead of a unit's bow; above a polygon piece), a little beyond the shape."""
        camera = self.services.view.camera
        state = self.preview_state(self.state)
        gap = camera.inches(TURN_HANDLE_PIXELS)
        unit_id = self.services.view.selected
        if unit_id is not None and state.has_unit(unit_id):
            unit = state.unit(unit_id)
            corners = unit.footprint.exterior.coords
            reach = max(math.dist((unit.x, unit.y), c) for c in corners) + gap
            angle = math.radians(unit.heading)
            handle = (unit.x + reach * math.sin(angle), unit.y + reach * math.cos(angle))
            return unit_id, (unit.x, unit.y), handle
        if self.terrain is not None and any(p.id == self.terrain for p in state.terrain):
            piece = state.terrain_piece(self.terrain)
            if piece.polygon is None:
                return None  # a circle looks the same turned
            cx, cy = _centre(state, piece.id)
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
        self._drag = ("turn", item, point, -1)
        return True

    def _press_handle(self, point: tuple[float, float], mods: int) -> bool:
        """A corner dot of the selected piece: grab it, remove it (Ctrl), or add one on an
        edge (Shift)."""
        if self.terrain is None:
            return False
        piece = self.state.terrain_piece(self.terrain)
        reach = self.services.view.camera.inches(HANDLE_PIXELS)
        if piece.circle is not None:
            rim = (piece.circle.x + piece.circle.radius, piece.circle.y)
            if math.dist(rim, point) <= reach:
                self._drag = ("rim", piece.id, point, 0)
                return True
            return False
        corners = list(piece.polygon or ())
        for index, corner in enumerate(corners):
            if math.dist(corner, point) <= reach:
                if mods & pygame.KMOD_CTRL:
                    self._apply_safely(
                        lambda i=index: adjust.remove_vertex(self.state, piece.id, i)
                    )
                else:
                    self._drag = ("vertex", piece.id, point, index)
                return True
        if mods & pygame.KMOD_SHIFT:
            for index, corner in enumerate(corners):
                following = corners[(index + 1) % len(corners)]
                if _segment_distance(point, corner, following) <= reach:
                    self._apply_safely(
                        lambda i=index: adjust.insert_vertex(self.state, piece.id, i, *point)
                    )
                    return True
        return False

    def _apply_safely(self, build) -> bool:
        try:
            action = build()
        except UserError as error:
            self.services.set_status(f"refused: {error.describe()}")
            return False
        return self.apply(action)

    def drag(self, point: tuple[float, float]) -> None:
        if self._drag is not None:
            self._drag_to = point
            self._free = bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)

    def release(self, point: tuple[float, float], moved: bool) -> None:
        drag, self._drag = self._drag, None
        self._free = bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)
        self._drag_to = None
        if drag is None or not moved:
            return
        action = self._drag_action(drag, point)
        if action is not None:
            self._apply_safely(lambda: action)

    def _drag_action(self, drag, point: tuple[float, float]) -> Action | None:
        kind, item, start, index = drag
        state = self.state
        # a hand on a mouse places on a tenth of an inch (a hundredth with Shift): the log
        # and the map stay readable, and pieces line up as a tape measure reads them
        snap = self._snapped
        dx, dy = point[0] - start[0], point[1] - start[1]
        point, start = (snap(point[0]), snap(point[1])), (snap(start[0]), snap(start[1]))
        if kind == "turn":
            if state.has_unit(item):
                unit = state.unit(item)
                bearing = math.degrees(math.atan2(point[0] - unit.x, point[1] - unit.y))
                return adjust.move_unit(item, unit.x, unit.y, round(bearing) % 360)
            cx, cy = _centre(state, item)
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
        terrain_kind = self.panel.kind.selected_option[0]
        height = self.panel.height.selected_option[0]
        piece_id = adjust.free_id(state, terrain_kind, numbered=True)
        if kind == "rect":
            table = adjust.rectangle_table(piece_id, terrain_kind, height, start, point)
        else:
            table = adjust.circle_table(piece_id, terrain_kind, height, start, point)
            table["circle"]["radius"] = snap(table["circle"]["radius"])
        self.terrain = piece_id
        return adjust.add_terrain(table)

    def _snapped(self, value: float) -> float:
        """`value` on the 0.1" grid, or to a hundredth with Shift held."""
        if self._free:
            return round(value, DRAG_PLACES) + 0.0
        return round(round(value / SNAP) * SNAP, DRAG_PLACES) + 0.0

    def wheel(self, notches: int, under: str | None) -> bool:
        """The wheel over a unit turns it (Shift: by 1°)."""
        if under is None:
            return False
        shift = bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)
        self.services.select(under)
        self.terrain = None
        self.rotate(notches * (1.0 if shift else ROTATE_STEP))
        return True

    def selection_changed(self) -> None:
        self._show_selection()

    # ------------------------------------------------------------------ drawing

    def preview_state(self, state: GameState) -> GameState:
        """The table with what is being dragged where the pointer has it."""
        if self._drag is None or self._drag_to is None or self._drag[0] in ("rect", "circle"):
            return state
        try:
            action = self._drag_action(self._drag, self._drag_to)
            return adjust_table(state, action).state if action is not None else state
        except UserError:
            return state

    def draw(self, surface: pygame.Surface) -> None:
        """The selected piece's outline and corner dots, the selection's turning handle; the
        rectangle or circle being drawn."""
        camera = self.services.view.camera
        state = self.preview_state(self.state)
        if self.terrain is not None and any(p.id == self.terrain for p in state.terrain):
            piece = state.terrain_piece(self.terrain)
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
        if turning is not None and (self._drag is None or self._drag[0] == "turn"):
            _, pivot, handle = turning
            at = camera.to_screen(*handle)
            pygame.draw.aaline(surface, palette.SELECTED_OUTLINE, camera.to_screen(*pivot), at)
            pygame.draw.circle(surface, HANDLE_EDGE, at, 7)
            pygame.draw.circle(surface, palette.SELECTED_OUTLINE, at, 5)
        if self._drag is not None and self._drag_to is not None:
            kind, _, start, _ = self._drag
            if kind == "rect":
                x0, y0 = camera.to_screen(*start)
                x1, y1 = camera.to_screen(*self._drag_to)
                rect = pygame.Rect(min(x0, x1), min(y0, y1), abs(x1 - x0), abs(y1 - y0))
                pygame.draw.rect(surface, palette.SELECTED_OUTLINE, rect, 2)
            elif kind == "circle":
                radius = camera.pixels(math.dist(start, self._drag_to))
                pygame.draw.circle(
                    surface, palette.SELECTED_OUTLINE, camera.to_screen(*start), radius, 2
                )

    def _show_selection(self) -> None:
        state = self.state
        unit_id = self.services.view.selected
        if unit_id is not None and state.has_unit(unit_id):
            unit = state.unit(unit_id)
            self.panel.show_pose(
                (f"{unit.x:.2f}", f"{unit.y:.2f}", f"{unit.heading:g}"),
                f"{state.shown_names.get(unit.id, unit.name)}, side {unit.side}",
            )
            in_game = not self.drafting
            self.panel.values.set_text(_status_html(self.services.system, state, unit, in_game))
        elif self.terrain is not None and any(p.id == self.terrain for p in state.terrain):
            piece = state.terrain_piece(self.terrain)
            cx, cy = _centre(state, piece.id)
            self.panel.show_pose(
                (f"{cx:.2f}", f"{cy:.2f}", "0"),
                f"{state.shown_terrain_names[piece.id]}: {piece.kind}, {piece.height.value}",
            )
            self.panel.values.set_text(
                "Type a centre to move it, a heading to turn it. Shift+click an edge: a new "
                "corner; Ctrl+click a corner: remove it."
            )
        else:
            self.panel.show_pose(("", "", ""), "Nothing selected")
            self.panel.values.set_text("Click a unit or a terrain piece to select it.")


def _centre(state: GameState, piece_id: str) -> tuple[float, float]:
    piece = state.terrain_piece(piece_id)
    if piece.circle is not None:
        return piece.circle.x, piece.circle.y
    centre = piece.geometry.centroid
    return float(centre.x), float(centre.y)


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


def _inches(value: float) -> str:
    return f'{value:g}"'


def _status_html(system: RuleSystem, state: GameState, unit: Unit, in_game: bool) -> str:
    """The unit's state as its rule system words it (hull 6/7, shields, damage...), and how
    to set a value typed in the quick entry line: in a game its status (its damage state),
    on a table with no game yet its stats."""
    try:
        status = system.unit_status(state, unit)
        settable = system.status_fields(state, unit) if in_game else ()
    except UserError:
        status, settable = None, ()
    shown = [f"{value.label} {value.text}" for value in status.values] if status else []
    typed = typed_name(state, unit.id)  # a name the quick entry line takes, never an id alone
    listed = " · ".join(shown) or "no values"
    number = next((f for f in settable if f.kind == "int" and f.high), None)
    if number is not None:
        now = int(number.default)
        other = now - 1 if now > (number.low or 0) else min(int(number.high), now + 1)
        return (
            f"{escape(listed)}<br><i>set a value by typing: set {escape(typed)} "
            f"{escape(number.label.lower())} {other}</i>"
        )
    example = next(
        (
            (key, value)
            for key, value in unit.stats.items()
            if isinstance(value, int) and not isinstance(value, bool)
        ),
        None,
    )
    if example is None:
        return escape(listed)
    key, value = example
    return (
        f"{escape(listed)}<br><i>set a value by typing: set {escape(typed)} "
        f"{escape(key.replace('_', ' '))} {max(0, value - 1)}</i>"
    )
