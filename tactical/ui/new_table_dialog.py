"""File → New: a window asking for the rule system, the table's size and a title."""

from __future__ import annotations

import math
from collections.abc import Callable

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIDropDownMenu, UILabel, UITextEntryLine, UIWindow

from tactical.errors import UserError
from tactical.rules import registry

WINDOW_SIZE = (420, 250)
DEFAULT_SIZE = ("72", "48")  # a 6' x 4' table, in inches


class NewTableDialog:
    """The window; `on_create(rules, width, height, title)` is called with valid values."""

    def __init__(
        self,
        manager: pygame_gui.UIManager,
        screen: tuple[int, int],
        rules: str,
        on_create: Callable[[str, float, float, str], None],
    ) -> None:
        self.on_create = on_create
        self.titles = {registry.get(r).title: r for r in registry.rule_ids()}
        rect = pygame.Rect(0, 0, *WINDOW_SIZE)
        rect.center = (screen[0] // 2, screen[1] // 2)
        self.window = UIWindow(rect, manager, "New table", resizable=False)
        w = self.window
        UILabel(pygame.Rect(8, 8, 110, 28), "Rule system", manager, container=w)
        start = registry.get(rules).title
        self.rules = UIDropDownMenu(
            list(self.titles), start, pygame.Rect(120, 8, 270, 28), manager, container=w
        )
        UILabel(pygame.Rect(8, 44, 110, 28), "Width (in)", manager, container=w)
        self.width = UITextEntryLine(pygame.Rect(120, 44, 80, 28), manager, container=w)
        UILabel(pygame.Rect(210, 44, 90, 28), "Depth (in)", manager, container=w)
        self.height = UITextEntryLine(pygame.Rect(300, 44, 80, 28), manager, container=w)
        self.width.set_text(DEFAULT_SIZE[0])
        self.height.set_text(DEFAULT_SIZE[1])
        UILabel(pygame.Rect(8, 80, 110, 28), "Title", manager, container=w)
        self.title = UITextEntryLine(pygame.Rect(120, 80, 270, 28), manager, container=w)
        self.problem = UILabel(pygame.Rect(8, 114, 390, 24), " ", manager, container=w)
        self.create = UIButton(pygame.Rect(270, 144, 120, 30), "Create", manager, container=w)

    @property
    def alive(self) -> bool:
        return self.window.alive()

    def widgets(self) -> list:
        return [self.window] if self.window.alive() else []

    def typing(self) -> bool:
        return self.alive and any(e.is_focused for e in (self.width, self.height, self.title))

    def ui_event(self, event: pygame.event.Event) -> bool:
        if not self.alive:
            return False
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.create:
            self.submit()
            return True
        return False

    def values(self) -> tuple[str, float, float, str]:
        """The typed values, checked: UserError says which one is wrong."""
        rules = self.titles[self.rules.selected_option[0]]
        sizes = []
        for name, entry in (("width", self.width), ("depth", self.height)):
            try:
                value = float(entry.get_text().strip())
            except ValueError:
                value = math.nan
            if not math.isfinite(value) or value <= 0:
                raise UserError(f"the table's {name} is a number of inches above 0")
            sizes.append(value)
        return rules, sizes[0], sizes[1], self.title.get_text().strip()

    def submit(self) -> None:
        try:
            values = self.values()
        except UserError as error:
            self.problem.set_text(error.describe())
            return
        self.window.kill()
        self.on_create(*values)
