"""The adjust mode's panel: quick entry, tools, the selection's values, palette, files.

Widgets only: `AdjustMode` (tactical.ui.adjust_mode) reads and fills them; what the
selection's lines say is decided in tactical.present.adjust_selection.
"""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import (
    UIButton,
    UIDropDownMenu,
    UILabel,
    UIPanel,
    UITextBox,
    UITextEntryLine,
)

from tactical.io.catalogue import Catalogue
from tactical.model import SizeClass
from tactical.present.adjust_selection import SelectionWords
from tactical.ui.entry_line import EntryLine
from tactical.ui.services import PANEL_WIDTH, STATUS_BAR, TOP_BAR
from tactical.ui.unit_palette import UnitPalette
from tactical.ui.widgets import set_shown

TOOLS = (
    (
        "select",
        "Move",
        "drag units and terrain; drag a corner dot to reshape (Shift+click an "
        "edge: add a corner, Ctrl+click a corner: remove it)",
    ),
    ("rect", "Rectangle", "drag out a rectangular terrain piece"),
    ("circle", "Circle", "drag from the centre out to the rim of a round terrain piece"),
    ("delete", "Delete", "Delete key: take the selected unit or terrain piece off the table"),
)
HINT = (
    "Type, then Enter: <b>ruler 12 6 0</b> (a class or unit, x, y, heading), "
    "<b>rect</b> x1 y1 x2 y2, <b>circle</b> x y r, <b>poly</b> x y x y x y…, "
    "<b>delete</b> unit, <b>set</b> unit stat value; Up: earlier lines"
)
POSE_KEYS = ("x", "y", "heading")
HEIGHTS = tuple(size.value for size in SizeClass)


class AdjustPanel:
    """The column on the right in adjust mode."""

    def __init__(
        self,
        manager: pygame_gui.UIManager,
        catalogue: Catalogue,
        terrain_kinds: tuple[str, ...],
    ) -> None:
        m = manager
        self.manager = manager
        self.panel = c = UIPanel(pygame.Rect(0, 0, PANEL_WIDTH, 700), manager=m)
        width = PANEL_WIDTH - 12
        UILabel(pygame.Rect(6, 4, width, 22), "Adjust the table (at any moment)", m, container=c)
        self.hint = UITextBox(HINT, pygame.Rect(4, 28, width, 110), m, container=c)
        self.entry = EntryLine(pygame.Rect(4, 140, width, 30), m, container=c)
        self.tools: dict[str, UIButton] = {}
        button = (width - 12) // 4
        for index, (key, label, tip) in enumerate(TOOLS):
            self.tools[key] = UIButton(
                pygame.Rect(4 + index * (button + 4), 176, button, 28),
                label,
                m,
                container=c,
                tool_tip_text=tip,
            )
        UILabel(pygame.Rect(4, 208, 110, 24), "New terrain", m, container=c)
        self.kind = self._kinds(terrain_kinds)
        self.height = UIDropDownMenu(
            list(HEIGHTS), SizeClass.MEDIUM.value, pygame.Rect(214, 208, 94, 26), m, container=c
        )
        self.selected = UILabel(pygame.Rect(4, 238, width, 22), "Nothing selected", m, container=c)
        self.pose: dict[str, UITextEntryLine] = {}
        for index, key in enumerate(POSE_KEYS):
            UILabel(pygame.Rect(4 + index * 102, 260, 98, 22), key, m, container=c)
            self.pose[key] = UITextEntryLine(
                pygame.Rect(4 + index * 102, 282, 98, 28), m, container=c
            )
        self.values = UITextBox("", pygame.Rect(4, 314, width, 96), m, container=c)
        self.palette = UnitPalette(m, c, pygame.Rect(4, 416, width, 162), catalogue)
        self.files: dict[str, UIButton] = {}
        labels = (
            ("new", "New table…", "an empty table: any rule system, any size"),
            ("save-as", "Save map as…", "save the table as a TOML map, under a name you choose"),
            ("undo", "Undo", "Ctrl+Z"),
            ("redo", "Redo", "Ctrl+Y"),
            ("done", "Back to play", "F2 or Tab: back to the game"),
        )
        half = (width - 4) // 2
        for index, (key, label, tip) in enumerate(labels):
            row, column = divmod(index, 2)
            self.files[key] = UIButton(
                pygame.Rect(4 + column * (half + 4), 584 + row * 32, half, 28),
                label,
                m,
                container=c,
                tool_tip_text=tip,
            )

    def _kinds(self, terrain_kinds: tuple[str, ...]) -> UIDropDownMenu:
        return UIDropDownMenu(
            list(terrain_kinds),
            terrain_kinds[0],
            pygame.Rect(112, 208, 100, 26),
            self.manager,
            container=self.panel,
        )

    def show_terrain_kinds(self, terrain_kinds: tuple[str, ...]) -> None:
        """The kinds of new terrain another rule system's table offers (New table…)."""
        self.kind.kill()
        self.kind = self._kinds(terrain_kinds)

    def layout(self, size: tuple[int, int]) -> None:
        top = TOP_BAR + 4
        height = max(300, size[1] - STATUS_BAR - 4 - top)
        self.panel.set_relative_position((size[0] - PANEL_WIDTH - 4, top))
        self.panel.set_dimensions((PANEL_WIDTH, height))

    def show(self, visible: bool) -> None:
        set_shown(self.panel, visible)

    def typing(self) -> bool:
        return any(entry.is_focused for entry in (self.entry, *self.pose.values()))

    def command(self, element: object) -> str | None:
        for key, widget in (*self.tools.items(), *self.files.items()):
            if widget is element:
                return key
        return None

    def show_tool(self, tool: str) -> None:
        for key, widget in self.tools.items():
            if key == tool:
                widget.select()
            else:
                widget.unselect()

    def show_pose(self, values: tuple[str, str, str], title: str) -> None:
        self.selected.set_text(title or " ")
        for entry, value in zip(self.pose.values(), values, strict=True):
            if not entry.is_focused:
                entry.set_text(value)

    def show_selection(self, words: SelectionWords) -> None:
        """The selection's pose in the entries, its name and its values."""
        self.show_pose(words.pose, words.title)
        self.values.set_text(words.html)

    def typed_pose(self) -> tuple[str, str, str]:
        return tuple(self.pose[key].get_text().strip() for key in POSE_KEYS)  # type: ignore[return-value]
