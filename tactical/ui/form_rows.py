"""The declaration form's rows on the action panel: one name label and one input per field.

A drop-down where the values are listed, a text entry for numbers and free strings, a
yes/no toggle for flags, a label for a path drawn on the table. What they hold is the
presenter's (`tactical.present.declaring.DeclarationForm`): these widgets show it, and
the rows in view scroll (`FormWindow`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from typing import Any, Literal

import pygame
import pygame_gui
from pygame_gui.core import ObjectID
from pygame_gui.elements import UIButton, UIDropDownMenu, UILabel, UITextEntryLine

from tactical.present.declaration import field_tooltip, form_fields, format_value, menu_options
from tactical.present.declaring import DeclarationForm
from tactical.rules.base import Field
from tactical.ui.fonts import cut_to_fit
from tactical.ui.form_scroll import FormWindow

PAD = 6
ROW = 28  # height of one form row
MIN_LABEL_WIDTH = 64
TEXT_SLACK = 12  # a label's own padding: text wider than its rect less this is cut by pygame_gui
FIELD_NAME_ID = "#action_field_name"


@dataclass
class FormRow:
    """One form row: the field, its name label and its input widget."""

    field: Field
    label: UILabel
    widget: Any
    kind: Literal["menu", "entry", "toggle", "drawn"]
    options: dict[str, Any]  # drop-down label -> value (None: unset)


class FormRows:
    """The picked choice's rows (see the module docstring)."""

    def __init__(self, manager: pygame_gui.UIManager, container: Any, state: DeclarationForm):
        self.manager = manager
        self.container = container
        self.state = state
        # how a listed value reads in a drop-down (a unit's name for its id); the screen
        # knows the units, "" leaves the value to read as words
        self.naming: Callable[[str], str] = lambda value: ""
        self.rows: list[FormRow] = []
        self.label_width = MIN_LABEL_WIDTH
        self.window = FormWindow(manager, container, ROW)  # the rows in view: it scrolls

    def build(self) -> None:
        """The rows of the picked choice (none without one), the name column fitted."""
        for row in self.rows:
            row.label.kill()
            row.widget.kill()
        self.rows = []
        self.window.first = 0
        picked = self.state.picked
        if picked is None:
            return
        shown = form_fields(picked)
        widest = max((self.text_width(spec.label) for spec in shown), default=0)
        self.label_width = max(MIN_LABEL_WIDTH, min(widest + TEXT_SLACK + PAD, self.inner() // 2))
        for spec in shown:
            self.rows.append(self._make_row(spec, self.state.is_drawn(spec)))

    def _make_row(self, spec: Field, drawn: bool) -> FormRow:
        m, c = self.manager, self.container
        values = self.state.values
        tip = escape(field_tooltip(spec, self.naming))
        label = UILabel(
            pygame.Rect(0, 0, self.label_width - PAD, ROW - 2),
            self.fit(spec.label, self.label_width - PAD),
            m,
            container=c,
            object_id=ObjectID(FIELD_NAME_ID),
        )
        label.set_tooltip(tip)
        rect = pygame.Rect(0, 0, self.widget_width(), ROW - 2)
        if drawn:
            text = self.fit(self.state.drawn_text(spec), rect.width)
            widget = UILabel(rect, text, m, container=c)
            widget.set_tooltip(tip)
            return FormRow(spec, label, widget, "drawn", {})
        if spec.kind == "bool":
            text = "yes" if values.get(spec.name) else "no"
            widget = UIButton(rect, text, m, container=c, tool_tip_text=tip)
            return FormRow(spec, label, widget, "toggle", {})
        if spec.kind == "str" and spec.choices:
            options = menu_options(spec, self.naming)
            current = values.get(spec.name)
            start = next((k for k, v in options.items() if v == current and v is not None), None)
            if start is None:
                start = next(iter(options))
            widget = UIDropDownMenu(list(options), start, rect, m, container=c)
            widget.set_tooltip(tip)
            return FormRow(spec, label, widget, "menu", options)
        text = self.state.texts.get(spec.name, format_value(values.get(spec.name)))
        widget = UITextEntryLine(rect, m, container=c, initial_text=text)
        widget.set_tooltip(tip)
        return FormRow(spec, label, widget, "entry", {})

    def row(self, name: str) -> FormRow | None:
        return next((row for row in self.rows if row.field.name == name), None)

    def of_widget(self, element: object) -> FormRow | None:
        return next((row for row in self.rows if row.widget is element), None)

    def show_value(self, row: FormRow) -> bool:
        """The row shows its field's value again; True when a drop-down was built again
        (the panel lays itself out again)."""
        value = self.state.values.get(row.field.name)
        if row.kind == "entry":
            row.widget.set_text(format_value(value))
        elif row.kind == "toggle":
            row.widget.set_text("yes" if value else "no")
        elif row.kind == "drawn":
            row.widget.set_text(self.fit(self.state.drawn_text(row.field), self.widget_width()))
        else:
            # a drop-down shows another option only when built again
            index = self.rows.index(row)
            row.label.kill()
            row.widget.kill()
            self.rows[index] = self._make_row(row.field, False)
            return True
        return False

    def show_drawn(self) -> None:
        """The drawn path's row says the path again (the move tool drew another)."""
        for row in self.rows:
            if row.kind == "drawn":
                self.show_value(row)

    # ------------------------------------------------------------------ sizes and place

    def inner(self) -> int:
        return max(60, self.container.get_container().get_rect().width) - 2 * PAD

    def widget_width(self) -> int:
        return max(10, self.inner() - self.label_width)

    def text_width(self, text: str) -> int:
        font = self.manager.get_theme().get_font_dictionary().get_default_font()
        return font.size(text)[0]

    def fit(self, text: str, width: int) -> str:
        """`text`, cut with an ellipsis to fit a label `width` pixels wide (tooltips show it)."""
        return cut_to_fit(text, width - TEXT_SLACK, self.text_width)

    def place(self) -> None:
        self.window.place(self.rows, PAD, PAD + self.label_width, self.widget_width())

    def scroll(self, rows: int) -> bool:
        """Scroll the form by `rows` (the wheel over it); False when it does not scroll."""
        if not self.window.scrolls:
            return False
        if self.window.scroll_to(self.window.first + rows):
            self.place()
        return True

    def show_field(self, name: str) -> None:
        """Scroll the form so that field `name`'s row is in view."""
        row = self.row(name)
        window = self.window
        if row is not None and window.scroll_to(window.index_to_show(self.rows.index(row))):
            self.place()

    def follow_bar(self) -> None:
        """The form follows its scroll bar when the player drags it."""
        first = self.window.dragged()
        if first is not None and self.window.scroll_to(first):
            self.place()

    def kill(self) -> None:
        self.rows = []
