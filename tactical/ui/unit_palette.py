"""The palette of ready unit classes in adjust mode: a side, then its classes.

The classes come from the rule system's catalogue (and the player's own,
`--catalogue FILE`). Picking one arms the place tool: each click on the table
places a unit of that class for the chosen side; Esc disarms it.
"""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UIDropDownMenu, UILabel, UISelectionList

from tactical.io.catalogue import Catalogue, UnitClass

NO_SIDE = "(no classes)"


class UnitPalette:
    """A side menu and the list of that side's classes, inside `container`."""

    def __init__(
        self,
        manager: pygame_gui.UIManager,
        container: object,
        rect: pygame.Rect,
        catalogue: Catalogue,
        table_sides: tuple[str, ...] = (),
    ) -> None:
        self.manager = manager
        self.container = container
        self.rect = rect
        self.catalogue = catalogue
        self.side = ""
        self.table_sides = table_sides
        self.picked: UnitClass | None = None
        self._labels: dict[str, UnitClass] = {}
        UILabel(
            pygame.Rect(rect.x, rect.y, 120, 24), "Place for side", manager, container=container
        )
        self.menu: UIDropDownMenu | None = None
        self.list: UISelectionList | None = None
        self.rebuild(catalogue, table_sides)

    def sides(self, table_sides: tuple[str, ...]) -> tuple[str, ...]:
        """The table's sides first (a game's), then the catalogue's other sides."""
        return tuple(dict.fromkeys((*table_sides, *self.catalogue.sides())))

    def rebuild(self, catalogue: Catalogue, table_sides: tuple[str, ...] = ()) -> None:
        """A new catalogue or new sides (another table, another rule system)."""
        self.catalogue = catalogue
        self.table_sides = table_sides
        sides = self.sides(table_sides) or (NO_SIDE,)
        if self.side not in sides:
            self.side = sides[0]
        if self.menu is not None:
            self.menu.kill()
        r = self.rect
        self.menu = UIDropDownMenu(
            list(sides),
            self.side,
            pygame.Rect(r.x + 124, r.y, r.width - 124, 26),
            self.manager,
            container=self.container,
        )
        self._fill()

    def _fill(self) -> None:
        if self.list is not None:
            self.list.kill()
        classes = self.catalogue.by_side(self.side) or self.catalogue.classes
        self._labels = {self.label(c): c for c in classes}
        r = self.rect
        self.list = UISelectionList(
            pygame.Rect(r.x, r.y + 30, r.width, r.height - 30),
            list(self._labels),
            self.manager,
            container=self.container,
        )
        self.picked = None

    @staticmethod
    def label(unit_class: UnitClass) -> str:
        return f"{unit_class.name} ({unit_class.id})"

    def ui_event(self, event: pygame.event.Event) -> bool:
        """Our menu or list changed; True when the event was ours."""
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and event.ui_element is self.menu:
            self.side = event.text
            self._fill()
            return True
        if (
            event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION
            and event.ui_element is self.list
        ):
            self.picked = self._labels.get(event.text)
            return True
        if (
            event.type == pygame_gui.UI_SELECTION_LIST_DROPPED_SELECTION
            and event.ui_element is self.list
        ):
            self.picked = None
            return True
        return False

    def pick(self, class_id: str) -> UnitClass | None:
        """Pick a class by id (tests, the quick entry line); None when it is not listed."""
        found = self.catalogue.find(class_id)
        if found is not None and found.side != self.side:
            self.side = found.side
            self.rebuild(self.catalogue, self.table_sides)
        self.picked = found
        return found

    def disarm(self) -> None:
        self.picked = None
        if self.list is not None:
            for item in self.list.item_list:
                item["selected"] = False
            self.list.set_item_list([item["text"] for item in self.list.item_list])
