"""The action panel of the play screen: the offered choices and the declaration form.

Everything on it comes from what the rule system publishes through the session:
`ActionChoice` titles and SPEC ids for the list, and each choice's `Field`
schema for the form (a drop-down where the values are listed, a text entry for
numbers and free strings, a yes/no toggle for flags, inline TOML for a required
table). Nothing here knows a rule system: the pure helpers turn typed text and
picked values into an `Action` checked against the same schema the session
checks (`check_fields`, `with_defaults`), and say why when they cannot.

While nobody at the mouse may declare (the computer has the go, the game is over),
`set_choices(..., notice=lines)` lists nothing: the lines take the list's place.

The App drives it: `set_choices` after every change of the game, `command(event)`
for each pygame_gui event, `offer_unit` when a unit is clicked on the table,
`set_value` when its move tool has drawn a path, `show_odds` with the chart.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any, Literal

import pygame
import pygame_gui
from pygame_gui.core import ObjectID
from pygame_gui.elements import (
    UIButton,
    UIDropDownMenu,
    UIImage,
    UILabel,
    UIPanel,
    UISelectionList,
    UITextBox,
    UITextEntryLine,
)

from tactical.errors import UserError
from tactical.rules.base import Action, ActionChoice, Field, Problem, check_fields, checkable_params
from tactical.rules.status import Unavailable
from tactical.ui.declaration import (
    PATH_FIELD,
    action_from_values,
    choice_label,
    choice_words,
    field_tooltip,
    form_fields,
    format_value,
    is_move_choice,
    key_words,
    menu_options,
    parse_value,
    problem_text,
    unique_labels,
    unique_titles,
    value_problems,
)
from tactical.ui.fonts import cut_to_fit
from tactical.ui.form_scroll import FormWindow

PAD = 6
ROW = 28  # height of one form row
CHART_SHARE = 3  # the odds chart keeps at least a third of the panel's height
CHART_LEAST = 96  # and never less than this many pixels
MIN_LABEL_WIDTH = 64
TEXT_SLACK = 12  # a label's own padding: text wider than its rect less this is cut by pygame_gui
BUTTON_HEIGHT = 28
PROBLEM_HEIGHT = 44  # two lines; the box scrolls
CAPTION_HEIGHT = 20
LIST_ITEM = 20  # pygame_gui's default selection list row height
LIST_BORDER = 4
MIN_LIST_ROWS = 2
LIST_ROWS = 8
SCROLL_ROOM = 20  # the list's scroll bar takes this much of a row's width

CHOICES_ID = "#action_choices"
FIELD_NAME_ID = "#action_field_name"
UNAVAILABLE_ID = "#unavailable_choice"
GREYED = {  # an action of the phase the rules refuse now
    "colours": {"normal_text": "#7C7C7C", "hovered_text": "#9A9A9A", "selected_text": "#9A9A9A"},
    "misc": {"text_horiz_alignment": "left", "text_horiz_alignment_padding": "4"},
}
THEME = {  # scoped to the panel's own object ids: long titles read from their start
    f"{CHOICES_ID}.@selection_list_item": {
        "misc": {"text_horiz_alignment": "left", "text_horiz_alignment_padding": "4"}
    },
    FIELD_NAME_ID: {"misc": {"text_horiz_alignment": "left"}},
    UNAVAILABLE_ID: GREYED,
    f"{CHOICES_ID}.{UNAVAILABLE_ID}": GREYED,
}

CommandName = Literal[
    "picked", "changed", "apply", "cancel", "move", "confirm-move", "unavailable", "details"
]
DETAILS_WIDTH = 64

# --------------------------------------------------------------------------- the widget


@dataclass(frozen=True)
class PanelCommand:
    """What the panel asks of the App: `apply` carries the complete Action."""

    name: CommandName
    action: Action | None = None
    reason: str = ""  # "unavailable": why the action cannot be taken now, with its rule


@dataclass
class _Row:
    """One form row: the field, its name label and its input widget."""

    field: Field
    label: UILabel
    widget: Any
    kind: Literal["menu", "entry", "toggle", "drawn"]
    options: dict[str, Any]  # drop-down label -> value (None: unset)


class ActionPanel:
    """The list of choices, the declaration form, its problem, the odds and Roll / Cancel."""

    def __init__(self, manager: pygame_gui.UIManager, rect: pygame.Rect) -> None:
        self.manager = manager
        self.rect = pygame.Rect(rect)
        manager.get_theme().load_theme(THEME)
        self.panel = UIPanel(self.rect, manager=manager)
        m, c = manager, self.panel
        self.choice_list = UISelectionList(
            pygame.Rect(0, 0, 10, 10), [], m, container=c, object_id=ObjectID(CHOICES_ID)
        )
        self.problem_box = UITextBox(
            "", pygame.Rect(0, 0, max(60, rect.width - 2 * PAD), PROBLEM_HEIGHT), m, container=c
        )
        self._blank = pygame.Surface((1, 1), pygame.SRCALPHA)
        self.odds_image = UIImage(pygame.Rect(0, 0, 1, 1), self._blank, m, container=c)
        self.odds_image.hide()
        self.odds_caption = UILabel(pygame.Rect(0, 0, 10, CAPTION_HEIGHT), " ", m, container=c)
        # the chart's secondary sections (the target's other results, the attacker's side
        # effects) shown or collapsed
        self.details = True
        self.details_button = UIButton(
            pygame.Rect(0, 0, DETAILS_WIDTH, CAPTION_HEIGHT),
            "less",
            m,
            container=c,
            tool_tip_text="show or hide the chart's other sections",
        )
        self.roll_button = UIButton(pygame.Rect(0, 0, 10, BUTTON_HEIGHT), "Apply", m, container=c)
        self.cancel_button = UIButton(
            pygame.Rect(0, 0, 10, BUTTON_HEIGHT), "Cancel", m, container=c
        )
        self.choices: tuple[ActionChoice, ...] = ()
        self.unavailable: tuple[Unavailable, ...] = ()
        self.unavailable_labels: tuple[str, ...] = ()
        self.notice: tuple[str, ...] = ()  # why nothing may be declared now (see set_choices)
        # whether a path of a choice is drawn with the move tool (its actor is one unit on the
        # table); the App decides, and a path it cannot draw is typed like any other text
        self.drawable: Callable[[ActionChoice], bool] = is_move_choice
        # how a listed value reads in a drop-down (a unit's name for its id); the App knows
        # the units, "" leaves the value to read as words
        self.naming: Callable[[str], str] = lambda value: ""
        self.labels: tuple[str, ...] = ()
        self.picked: ActionChoice | None = None
        self.problem: str | None = None
        self._problem_room = False
        self.has_odds = False
        # while the move tool draws the picked choice's path: whether that path is legal
        # (None: no move drawn); its card takes the odds' place and Apply confirms it
        self.move_legal: bool | None = None
        self._drawn_path = ""
        self._values: dict[str, Any] = {}
        self._texts: dict[str, str] = {}
        self._errors: dict[str, str] = {}
        self._rows: list[_Row] = []
        self._label_width = MIN_LABEL_WIDTH
        self._odds_surface: pygame.Surface | None = None
        self._placed: tuple | None = None
        self.form = FormWindow(manager, self.panel, ROW)  # the rows in view: it scrolls
        self._caption = ""
        self._layout()
        self._refresh()

    # ------------------------------------------------------------------ reading

    @property
    def values(self) -> dict[str, Any]:
        """The picked choice's values as the form holds them (defaults shown count)."""
        return dict(self._values)

    def action(self) -> Action | None:
        """The declaration on the form, or None (`problem` says why)."""
        self._refresh()
        if self.problem is not None or self.picked is None or self.move_legal is not None:
            return None  # a drawn move is declared by the move tool, with its path
        return action_from_values(self.picked, self._values)

    # ------------------------------------------------------------------ choices

    def set_choices(
        self,
        choices: Sequence[ActionChoice],
        unavailable: Sequence[Unavailable] = (),
        notice: Sequence[str] = (),
    ) -> None:
        """Offer `choices` (in the App's order), then list `unavailable` greyed out (a click
        says why). The picked choice and its values stay when the same choice (kind, actor)
        is still offered; nothing is rebuilt when nothing changed. With `notice` lines (the
        first bold) nothing is offered: they take the list's place and Apply stays off."""
        notice = tuple(notice)
        offered = () if notice else tuple(choices)
        refused = () if notice else tuple(unavailable)
        if (offered, refused, notice) == (self.choices, self.unavailable, self.notice):
            return
        self.notice = notice
        self.choices = offered
        self.unavailable = refused
        self.labels = unique_labels(offered)
        self.unavailable_labels = tuple(
            f"{label} (not now)" for label in unique_titles([u.title for u in refused])
        )
        items: list[str | tuple[str, str]] = list(self.labels)
        items.extend((label, UNAVAILABLE_ID) for label in self.unavailable_labels)
        self.choice_list.set_item_list(items)
        kept = self._still_offered(self.picked)
        if kept is None:
            self._clear_pick()
        elif kept == self.picked:
            self._select_row(offered.index(kept))
        else:
            self._pick_choice(kept, carry=True)
        self._layout()
        self._refresh()

    def _still_offered(self, choice: ActionChoice | None) -> ActionChoice | None:
        if choice is None:
            return None
        if choice in self.choices:
            return choice
        same = [c for c in self.choices if (c.kind, c.actor) == (choice.kind, choice.actor)]
        titled = [c for c in same if c.title == choice.title]
        return (titled or same or [None])[0]

    def pick(self, index_or_choice: int | ActionChoice | None) -> ActionChoice | None:
        """Pick an offered choice (by its index in the list, or the choice) and build its form;
        None drops the declaration."""
        if index_or_choice is None:
            if self.picked is not None:
                self._clear_pick()
                self._layout()
            self._refresh()
            return None
        if isinstance(index_or_choice, int):
            if not 0 <= index_or_choice < len(self.choices):
                raise UserError(
                    f"choice {index_or_choice} is not offered: {len(self.choices)} on the panel"
                )
            choice = self.choices[index_or_choice]
        else:
            found = self._still_offered(index_or_choice)
            if found is None:
                raise UserError(f"{index_or_choice.title!r} is not offered now")
            choice = found
        if choice != self.picked:
            self._pick_choice(choice, carry=False)
            self._layout()
        self._select_row(self.choices.index(choice))
        self._refresh()
        return choice

    def _pick_choice(self, choice: ActionChoice, *, carry: bool) -> None:
        old_values, old_texts, old_errors = self._values, self._texts, self._errors
        self.picked = choice
        self._values = {s.name: s.default for s in choice.fields if s.default is not None}
        self._texts, self._errors = {}, {}
        if carry:
            for spec in choice.fields:
                name = spec.name
                if name in old_errors:
                    self._apply_text(spec, old_texts.get(name, ""))
                elif name in old_values and not check_fields(
                    (spec,), checkable_params((spec,), {name: old_values[name]})
                ):
                    self._values[name] = old_values[name]
        self._build_form()
        self._select_row(self.choices.index(choice))

    def _clear_pick(self) -> None:
        self.picked = None
        self._values, self._texts, self._errors = {}, {}, {}
        self._build_form()
        self._select_row(None)

    def _select_row(self, index: int | None) -> None:
        if index is not None:
            self._scroll_to(index)
        for i, item in enumerate(self.choice_list.item_list):
            selected = i == index
            item["selected"] = selected
            button = item["button_element"]
            if button is not None:
                if selected:
                    button.select()
                else:
                    button.unselect()

    def _scroll_to(self, index: int) -> None:
        """Bring a row picked from outside (the App, a kept pick) into view."""
        listing, bar = self.choice_list, self.choice_list.scroll_bar
        total = listing.total_height_of_list
        if bar is None or total <= 0 or bar.scrollable_height <= 0:
            return
        shown = listing.list_and_scroll_bar_container.relative_rect.height
        top = bar.start_percentage * total
        row_top, row_bottom = index * LIST_ITEM, (index + 1) * LIST_ITEM
        if row_top >= top and row_bottom <= top + shown:
            return
        start = row_top if row_top < top else row_bottom - shown
        bar.set_scroll_from_start_percentage(max(0.0, min(start, total - shown)) / total)

    # ------------------------------------------------------------------ values

    def set_value(self, name: str, value: Any) -> None:
        """Set a field of the picked choice (a unit clicked on the table, a drawn path)."""
        row = self._row(name)
        if self.picked is None or (row is None and name not in self._field_names()):
            fields = ", ".join(self._field_names()) or "none"
            raise UserError(f"{name!r} is not a field of the picked action (fields: {fields})")
        if value is None:
            self._values.pop(name, None)
        else:
            self._values[name] = value
        self._errors.pop(name, None)
        self._texts.pop(name, None)
        if row is not None:
            self._show_value(row)
        self._refresh()

    def offer_unit(self, unit_id: str) -> str | None:
        """Fill the first unit field that takes `unit_id` (the first unfilled one if several);
        the field's name, or None when no field of the picked choice takes it."""
        if self.picked is None:
            return None
        taking = [
            s.name
            for s in self.picked.fields
            if s.kind == "str" and s.choices and unit_id in s.choices
        ]
        if not taking:
            return None
        unfilled = [name for name in taking if self._values.get(name) in (None, "")]
        name = (unfilled or taking)[0]
        self.set_value(name, unit_id)
        return name

    def _field_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.picked.fields) if self.picked else ()

    def _row(self, name: str) -> _Row | None:
        return next((row for row in self._rows if row.field.name == name), None)

    def _apply_text(self, spec: Field, text: str) -> None:
        self._texts[spec.name] = text
        try:
            value = parse_value(spec, text)
        except UserError as error:
            self._errors[spec.name] = error.describe()
            self._values.pop(spec.name, None)
            return
        self._errors.pop(spec.name, None)
        if value is None:
            self._values.pop(spec.name, None)
        else:
            self._values[spec.name] = value

    def _refresh(self) -> None:
        """The problem line and the Roll button after any change."""
        if self.notice:
            self.problem = " ".join(self.notice)
        elif self.picked is None:
            self.problem = "pick an action from the list" if self.choices else "nothing to declare"
        elif self._errors:
            self.problem = next(iter(self._errors.values()))
        elif self.move_legal is not None and self.drawable(self.picked):
            self.problem = None  # the move card says what is wrong with the path
        else:
            problems = value_problems(self.picked, self._values)
            self.problem = self._problem_line(problems) if problems else None
        if self._problem_room != (self.problem is not None):
            # the line takes room only while there is a problem; the odds take it back
            self._layout()
        text = "" if self.problem is None else escape(self.problem)
        if self.notice:
            head, *rest = (escape(line) for line in self.notice)
            text = "<br>".join([f"<b>{head}</b>", *rest])
        if self.problem_box.html_text != text:
            self.problem_box.set_text(text)
        label = self._button_label()
        if self.roll_button.text != label:
            self.roll_button.set_text(label)
        _enable(self.roll_button, self.problem is None and self.move_legal is not False)
        # the list cuts long titles: the button that declares it names it whole
        tip = escape(choice_label(self.picked)) if self.picked is not None else None
        if tip is not None and self.has_odds:
            tip += " · the odds above are exact; the seeded dice decide"
        if self.roll_button.tool_tip_text != tip:
            self.roll_button.set_tooltip(tip)
        _enable(self.cancel_button, self.picked is not None)
        _enable(self.details_button, self.has_odds)

    def _button_label(self) -> str:
        """What the button does, in words: Move while a path is drawn, else the picked
        action's kind ("Attack", "Declare attack", "Roll power"), else Apply."""
        if self.move_legal is not None:
            return "Move"
        if self.picked is None:
            return "Apply"
        text = choice_words(self.picked.kind)
        text = text[:1].upper() + text[1:]
        width = self.roll_button.rect.width - TEXT_SLACK
        return text if self._text_width(text) <= width else "Apply"

    def _problem_line(self, problems: Sequence[Problem]) -> str:
        first = problems[0]
        choice = self.picked
        if choice is not None and self.drawable(choice) and first.key == PATH_FIELD:
            cited = f" ({first.spec_id})" if first.spec_id else ""
            line = f"{PATH_FIELD}: draw the move on the table{cited}"
        elif first.key in self._unset_menus():
            cited = f" ({first.spec_id})" if first.spec_id else ""
            line = f"{key_words(first.key)}: pick one in its list (required){cited}"
        else:
            line = problem_text(first)
        more = len(problems) - 1
        return line + (f" (+{more} more)" if more else "")

    def _unset_menus(self) -> set[str]:
        return {
            row.field.name
            for row in self._rows
            if row.kind == "menu" and self._values.get(row.field.name) is None
        }

    # ------------------------------------------------------------------ odds

    def show_odds(self, surface: pygame.Surface | None, caption: str) -> None:
        """Host the App's odds chart (scaled to fit) and its caption; a chart means Roll."""
        if surface is self._odds_surface and caption == self._caption and self.move_legal is None:
            return  # the App asks every frame while odds are pending
        if self.move_legal is not None:
            self.move_legal = None
            for row in self._rows:
                if row.kind == "drawn":
                    self._show_value(row)
        self._odds_surface = surface
        self._caption = caption
        self.has_odds = surface is not None
        self.odds_caption.set_text(self._fit(caption, self._inner()) if caption else " ")
        self.odds_caption.set_tooltip(escape(caption) if caption else None)
        self._place_odds()
        self._refresh()

    def show_move(self, surface: pygame.Surface | None, legal: bool | None, path: str = "") -> None:
        """Host the move tool's card in the odds' place (None: the tool is closed) and show the
        drawn `path` in the path row; Apply becomes Move, enabled while the path is `legal`."""
        if surface is self._odds_surface and legal == self.move_legal and path == self._drawn_path:
            return
        self.move_legal = legal if surface is not None else None
        self._drawn_path = path
        for row in self._rows:
            if row.kind == "drawn":
                self._show_value(row)
        self._odds_surface = surface
        self._caption = ""
        self.has_odds = False
        self.odds_caption.set_text(" ")
        self.odds_caption.set_tooltip(None)
        self._place_odds()
        self._refresh()

    # ------------------------------------------------------------------ events

    def command(self, event: pygame.event.Event) -> PanelCommand | None:
        """The panel's reading of a pygame_gui event, or None when it is not the panel's."""
        element = getattr(event, "ui_element", None)
        if element is None:
            return None
        if event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION:
            if element is self.choice_list and event.text in self.labels:
                choice = self.pick(self.labels.index(event.text))
                return PanelCommand("move" if self.drawable(choice) else "picked")
            if element is self.choice_list and event.text in self.unavailable_labels:
                refused = self.unavailable[self.unavailable_labels.index(event.text)]
                index = self.choices.index(self.picked) if self.picked is not None else None
                self._select_row(index)  # the row cannot be picked: the pick stays
                cited = f" ({refused.spec_id})" if refused.spec_id else ""
                return PanelCommand(
                    "unavailable", reason=f"{refused.title}: {refused.reason}{cited}"
                )
            return None
        if event.type == pygame_gui.UI_SELECTION_LIST_DROPPED_SELECTION:
            if element is self.choice_list and self.picked is not None:
                # a second click on the picked row keeps it picked
                self._select_row(self.choices.index(self.picked))
            return None
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            return self._button(element)
        row = next((r for r in self._rows if r.widget is element), None)
        if row is None:
            return None
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and row.kind == "menu":
            value = row.options.get(event.text)
            if value is None:
                self._values.pop(row.field.name, None)
            else:
                self._values[row.field.name] = value
            self._refresh()
            return PanelCommand("changed")
        if event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED and row.kind == "entry":
            self._apply_text(row.field, element.get_text())
            self._refresh()
            return PanelCommand("changed")
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and row.kind == "entry":
            self._apply_text(row.field, element.get_text())
            action = self.action()
            return PanelCommand("apply", action) if action else PanelCommand("changed")
        return None

    def _button(self, element: object) -> PanelCommand | None:
        if element is self.roll_button:
            if self.move_legal is not None:
                return PanelCommand("confirm-move")
            action = self.action()
            return PanelCommand("apply", action) if action is not None else None
        if element is self.details_button:
            self.details = not self.details
            self.details_button.set_text("less" if self.details else "more")
            return PanelCommand("details")
        if element is self.cancel_button:
            self._clear_pick()
            self._layout()
            self._refresh()
            return PanelCommand("cancel")
        row = next((r for r in self._rows if r.widget is element and r.kind == "toggle"), None)
        if row is None:
            return None
        self._values[row.field.name] = not bool(self._values.get(row.field.name, False))
        self._show_value(row)
        self._refresh()
        return PanelCommand("changed")

    # ------------------------------------------------------------------ the form

    def _build_form(self) -> None:
        for row in self._rows:
            row.label.kill()
            row.widget.kill()
        self._rows = []
        self.form.first = 0
        if self.picked is None:
            return
        shown = form_fields(self.picked)
        widest = max((self._text_width(spec.label) for spec in shown), default=0)
        self._label_width = max(MIN_LABEL_WIDTH, min(widest + TEXT_SLACK + PAD, self._inner() // 2))
        drawn = self.drawable(self.picked)
        for spec in form_fields(self.picked):
            self._rows.append(self._make_row(spec, drawn and spec.name == PATH_FIELD))

    def _make_row(self, spec: Field, drawn: bool) -> _Row:
        m, c = self.manager, self.panel
        tip = escape(field_tooltip(spec, self.naming))
        label = UILabel(
            pygame.Rect(0, 0, self._label_width - PAD, ROW - 2),
            self._fit(spec.label, self._label_width - PAD),
            m,
            container=c,
            object_id=ObjectID(FIELD_NAME_ID),
        )
        label.set_tooltip(tip)
        rect = pygame.Rect(0, 0, self._widget_width(), ROW - 2)
        if drawn:
            widget = UILabel(rect, self._fit(self._drawn_text(spec), rect.width), m, container=c)
            widget.set_tooltip(tip)
            return _Row(spec, label, widget, "drawn", {})
        if spec.kind == "bool":
            text = "yes" if self._values.get(spec.name) else "no"
            widget = UIButton(rect, text, m, container=c, tool_tip_text=tip)
            return _Row(spec, label, widget, "toggle", {})
        if spec.kind == "str" and spec.choices:
            options = menu_options(spec, self.naming)
            current = self._values.get(spec.name)
            start = next((k for k, v in options.items() if v == current and v is not None), None)
            if start is None:
                start = next(iter(options))
            widget = UIDropDownMenu(list(options), start, rect, m, container=c)
            widget.set_tooltip(tip)
            return _Row(spec, label, widget, "menu", options)
        text = self._texts.get(spec.name, format_value(self._values.get(spec.name)))
        widget = UITextEntryLine(rect, m, container=c, initial_text=text)
        widget.set_tooltip(tip)
        return _Row(spec, label, widget, "entry", {})

    def _inner(self) -> int:
        return max(60, self.panel.get_container().get_rect().width) - 2 * PAD

    def _widget_width(self) -> int:
        return max(10, self._inner() - self._label_width)

    def _text_width(self, text: str) -> int:
        font = self.manager.get_theme().get_font_dictionary().get_default_font()
        return font.size(text)[0]

    def _fit(self, text: str, width: int) -> str:
        """`text`, cut with an ellipsis to fit a label `width` pixels wide (tooltips show it)."""
        return cut_to_fit(text, width - TEXT_SLACK, self._text_width)

    def _drawn_text(self, spec: Field) -> str:
        if self.move_legal is not None:
            return self._drawn_path or "(draw it on the table)"
        value = self._values.get(spec.name)
        return str(value) if value else "(draw it on the table)"

    def _show_value(self, row: _Row) -> None:
        value = self._values.get(row.field.name)
        if row.kind == "entry":
            row.widget.set_text(format_value(value))
        elif row.kind == "toggle":
            row.widget.set_text("yes" if value else "no")
        elif row.kind == "drawn":
            row.widget.set_text(self._fit(self._drawn_text(row.field), self._widget_width()))
        else:
            # a drop-down shows another option only when built again
            index = self._rows.index(row)
            row.label.kill()
            row.widget.kill()
            self._rows[index] = self._make_row(row.field, False)
            self._layout()

    # ------------------------------------------------------------------ layout

    def set_rect(self, rect: pygame.Rect) -> None:
        """Move and size the panel (the App's layout); the widgets follow."""
        resized = pygame.Rect(rect).width != self.rect.width
        self.rect = pygame.Rect(rect)
        self.panel.set_relative_position(self.rect.topleft)
        self.panel.set_dimensions(self.rect.size)
        if resized and self._rows:
            self._build_form()  # the name column and its cut names follow the width
        self._layout()

    def kill(self) -> None:
        self.panel.kill()
        self._rows = []

    def _layout(self) -> None:
        """From the top: the list (fixed height), the form (it scrolls), the problem or the
        odds (never under a third of the panel), the buttons. The form gives way to the
        chart: with many fields it shows a few rows and a scroll bar, the chart keeps its
        size."""
        width = max(60, self.panel.get_container().get_rect().width)
        height = max(60, self.panel.get_container().get_rect().height)
        inner = width - 2 * PAD
        self._problem_room = self.problem is not None
        # a list of fixed height (it scrolls), whatever is offered or picked, so that the
        # next click lands where the player aimed: 8 rows in at most 40% of the panel
        rows = max(MIN_LIST_ROWS, min(LIST_ROWS, (height * 2 // 5 - LIST_BORDER) // LIST_ITEM))
        list_height = rows * LIST_ITEM + LIST_BORDER
        y = PAD
        # a notice takes the list's place; the list is parked under the panel's edge
        self.choice_list.set_relative_position((PAD, height + list_height if self.notice else y))
        self.choice_list.set_dimensions((inner, list_height))
        y += list_height + PAD
        bottom = height - PAD - BUTTON_HEIGHT
        # a third of the whole panel (its borders too), rounded up
        chart_least = max(CHART_LEAST, -(-self.rect.height // CHART_SHARE))
        room = bottom - PAD - chart_least - PAD - y  # the form, then a gap, then the chart
        y += self.form.fit(len(self._rows), y, PAD, inner, room)
        self._place_form()
        if self._rows:
            y += PAD
        # the chart heads itself with its caption; without one the caption line says why
        # (computing, refused) and the problem line goes under it
        self._caption_at = (PAD, y)
        self.odds_caption.set_dimensions((inner, CAPTION_HEIGHT))
        self.problem_box.set_dimensions((inner, list_height if self.notice else PROBLEM_HEIGHT))
        if self.notice:
            self.problem_box.set_relative_position((PAD, PAD))
        elif self.problem is not None:
            self.problem_box.set_relative_position((PAD, y + CAPTION_HEIGHT))
        else:
            # parked below the panel's edge, where the panel clips it, rather than hidden:
            # showing the panel again shows every child
            self.problem_box.set_relative_position((PAD, height + PROBLEM_HEIGHT))
        buttons = inner - DETAILS_WIDTH - 2 * PAD
        half = buttons // 2
        self.roll_button.set_relative_position((PAD, bottom))
        self.roll_button.set_dimensions((half, BUTTON_HEIGHT))
        self.cancel_button.set_relative_position((PAD * 2 + half, bottom))
        self.cancel_button.set_dimensions((buttons - half, BUTTON_HEIGHT))
        self.details_button.set_relative_position((PAD + inner - DETAILS_WIDTH, bottom))
        self.details_button.set_dimensions((DETAILS_WIDTH, BUTTON_HEIGHT))
        self._odds_area = pygame.Rect(PAD, y, inner, max(0, bottom - PAD - y))
        self._placed = None
        self._place_odds()

    def _place_form(self) -> None:
        self.form.place(self._rows, PAD, PAD + self._label_width, self._widget_width())

    def scroll_form(self, rows: int) -> bool:
        """Scroll the form by `rows` (the wheel over it); False when it does not scroll."""
        if not self.form.scrolls:
            return False
        if self.form.scroll_to(self.form.first + rows):
            self._place_form()
        return True

    def show_field(self, name: str) -> None:
        """Scroll the form so that field `name`'s row is in view."""
        row = self._row(name)
        if row is not None and self.form.scroll_to(self.form.index_to_show(self._rows.index(row))):
            self._place_form()

    def form_rect(self) -> pygame.Rect:
        """The form's rows on the screen (where the wheel scrolls them)."""
        return self.form.on_screen()

    def update(self) -> None:
        """Once a frame: the form follows its scroll bar when the player drags it; the list's
        rows in view carry their whole label as a tool tip (a greyed one: why not now)."""
        first = self.form.dragged()
        if first is not None and self.form.scroll_to(first):
            self._place_form()
        for item in self.choice_list.item_list:
            button = item["button_element"]
            if button is None:
                continue  # pygame_gui builds buttons for the rows in view only
            tip = self._row_tip(item["text"])
            if button.tool_tip_text != tip:
                button.set_tooltip(tip)

    def _row_tip(self, text: str) -> str | None:
        if text in self.unavailable_labels:
            refused = self.unavailable[self.unavailable_labels.index(text)]
            cited = f" ({refused.spec_id})" if refused.spec_id else ""
            return escape(f"{refused.title}: {refused.reason}{cited}")
        return escape(text) if self.row_shown(text) != text else None

    def row_shown(self, text: str) -> str:
        """A row's text as a player reads it in the list: the part that fits the row, marked
        "…" when cut (the list clips the rest, the tooltip shows it whole)."""
        return self._fit(text, self.choice_list.rect.width - SCROLL_ROOM)

    def odds_size(self) -> tuple[int, int]:
        """The room for the odds chart (or the move card): drawn at this size, its text
        keeps its size instead of being scaled down."""
        area = getattr(self, "_odds_area", None)
        if area is None:
            return (296, 170)
        return (max(40, area.width), max(40, area.height))

    def _place_odds(self) -> None:
        surface, area = self._odds_surface, self._odds_area
        placed = (id(surface), tuple(area))
        if placed == self._placed:
            return
        self._placed = placed
        left, top = getattr(self, "_caption_at", (PAD, area.top))
        if surface is None:
            self.odds_caption.set_relative_position((left, top))
        else:  # the chart carries its caption
            self.odds_caption.set_relative_position((left, -2 * CAPTION_HEIGHT))
        if surface is None or area.height < 8 or area.width < 8:
            # blank as well as hidden: showing the panel again shows its children
            self.odds_image.set_image(self._blank)
            self.odds_image.hide()
            return
        sw, sh = surface.get_size()
        scale = min(area.width / max(1, sw), area.height / max(1, sh), 1.0)
        size = (max(1, round(sw * scale)), max(1, round(sh * scale)))
        self.odds_image.set_relative_position((area.centerx - size[0] // 2, area.top))
        self.odds_image.set_dimensions(size)
        self.odds_image.set_image(surface)
        if not self.odds_image.visible and self.panel.visible:
            self.odds_image.show()


def _enable(widget: Any, enabled: bool) -> None:
    if enabled and not widget.is_enabled:
        widget.enable()
    elif not enabled and widget.is_enabled:
        widget.disable()
