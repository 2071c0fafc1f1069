"""The action panel of the play screen: the offered choices and the declaration form.

Everything on it comes from what the rule system publishes through the session:
`ActionChoice` titles and SPEC ids for the list, and each choice's `Field`
schema for the form (`form_rows`: a drop-down where the values are listed, a text
entry for numbers and free strings, a yes/no toggle for flags). What the list offers
and greys, what the form holds and the problem it says are the presenter's
(`tactical.present.declaring.DeclarationForm`); this module draws them and turns the
panel's events into calls there. Nothing here knows a rule system.

While nobody at the mouse may declare (the computer has the go, the game is over),
`set_choices(..., notice=lines)` lists nothing: the lines take the list's place.

The App drives it: `set_choices` after every change of the game, `command(event)`
for each pygame_gui event, `offer_unit` when a unit is clicked on the table,
`set_value` when its move tool has drawn a path, `show_odds` with the chart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Any, Literal

import pygame
import pygame_gui
from pygame_gui.core import ObjectID
from pygame_gui.elements import UIButton, UIImage, UILabel, UIPanel, UISelectionList, UITextBox

from tactical.present.declaration import choice_label
from tactical.present.declaring import DeclarationForm
from tactical.rules.base import Action, ActionChoice
from tactical.rules.status import Unavailable
from tactical.ui.form_rows import FIELD_NAME_ID, PAD, TEXT_SLACK, FormRows
from tactical.ui.parts import forwards

CHART_SHARE = 3  # the odds chart keeps at least a third of the panel's height
CHART_LEAST = 96  # and never less than this many pixels
BUTTON_HEIGHT = 28
PROBLEM_HEIGHT = 44  # two lines; the box scrolls
CAPTION_HEIGHT = 20
LIST_ITEM = 20  # pygame_gui's default selection list row height
LIST_BORDER = 4
MIN_LIST_ROWS = 2
LIST_ROWS = 8
SCROLL_ROOM = 20  # the list's scroll bar takes this much of a row's width

CHOICES_ID = "#action_choices"
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


@forwards(
    # what the list offers and the form holds: the presenter's own (`drawable`: whether a
    # choice's path is drawn on the table, the screen decides)
    state="choices unavailable unavailable_labels labels notice picked problem move_legal drawable",
    # how a listed value reads in a drop-down, and the rows themselves
    form_rows="naming _rows=rows _text_width=text_width",
)
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
        self.state = DeclarationForm()
        self._problem_room = False
        self.has_odds = False
        self._odds_surface: pygame.Surface | None = None
        self._placed: tuple | None = None
        self.form_rows = FormRows(manager, self.panel, self.state)
        self.form = self.form_rows.window  # the rows in view: it scrolls
        self._caption = ""
        self._layout()
        self._refresh()

    # ------------------------------------------------------------------ reading

    @property
    def values(self) -> dict[str, Any]:
        """The picked choice's values as the form holds them (defaults shown count)."""
        return dict(self.state.values)

    def action(self) -> Action | None:
        """The declaration on the form, or None (`problem` says why)."""
        self._refresh()
        return self.state.action()

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
        state = self.state
        if not state.offer(choices, unavailable, notice=notice):
            return
        items = [row if isinstance(row, str) else (row[0], UNAVAILABLE_ID) for row in state.rows()]
        self.choice_list.set_item_list(items)
        kept = state.still_offered(state.picked)
        if kept is None:
            self._clear_pick()
        elif kept == state.picked:
            self._select_row(state.choices.index(kept))
        else:
            self._pick_choice(kept, carry=True)
        self._layout()
        self._refresh()

    def pick(self, index_or_choice: int | ActionChoice | None) -> ActionChoice | None:
        """Pick an offered choice (by its index in the list, or the choice) and build its form;
        None drops the declaration."""
        if index_or_choice is None:
            if self.state.picked is not None:
                self._clear_pick()
                self._layout()
            self._refresh()
            return None
        choice = self.state.choice_at(index_or_choice)
        if choice != self.state.picked:
            self._pick_choice(choice, carry=False)
            self._layout()
        self._select_row(self.state.choices.index(choice))
        self._refresh()
        return choice

    def _pick_choice(self, choice: ActionChoice, *, carry: bool) -> None:
        self.state.start(choice, carry=carry)
        self.form_rows.build()
        self._select_row(self.state.choices.index(choice))

    def _clear_pick(self) -> None:
        self.state.clear()
        self.form_rows.build()
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
        self.state.set_value(name, value)
        row = self.form_rows.row(name)
        if row is not None and self.form_rows.show_value(row):
            self._layout()
        self._refresh()

    def offer_unit(self, unit_id: str) -> str | None:
        """Fill the first unit field that takes `unit_id` (the first unfilled one if several);
        the field's name, or None when no field of the picked choice takes it."""
        name = self.state.unit_field(unit_id)
        if name is not None:
            self.set_value(name, unit_id)
        return name

    def _refresh(self) -> None:
        """The problem line and the Roll button after any change."""
        state = self.state
        problem = state.judge()
        if self._problem_room != (problem is not None):
            # the line takes room only while there is a problem; the odds take it back
            self._layout()
        text = "" if problem is None else escape(problem)
        if state.notice:
            head, *rest = (escape(line) for line in state.notice)
            text = "<br>".join([f"<b>{head}</b>", *rest])
        if self.problem_box.html_text != text:
            self.problem_box.set_text(text)
        width = self.roll_button.rect.width - TEXT_SLACK
        label = state.button_words(lambda words: self.form_rows.text_width(words) <= width)
        if self.roll_button.text != label:
            self.roll_button.set_text(label)
        _enable(self.roll_button, problem is None and state.move_legal is not False)
        # the list cuts long titles: the button that declares it names it whole
        tip = escape(choice_label(state.picked)) if state.picked is not None else None
        if tip is not None and self.has_odds:
            tip += " · the odds above are exact; the seeded dice decide"
        if self.roll_button.tool_tip_text != tip:
            self.roll_button.set_tooltip(tip)
        _enable(self.cancel_button, state.picked is not None)
        _enable(self.details_button, self.has_odds)

    # ------------------------------------------------------------------ odds

    def show_odds(self, surface: pygame.Surface | None, caption: str) -> None:
        """Host the App's odds chart (scaled to fit) and its caption; a chart means Roll."""
        state = self.state
        if surface is self._odds_surface and caption == self._caption and state.move_legal is None:
            return  # the App asks every frame while odds are pending
        if state.move_legal is not None:
            state.move_legal = None
            self.form_rows.show_drawn()
        self._odds_surface = surface
        self._caption = caption
        self.has_odds = surface is not None
        fitted = self.form_rows.fit(caption, self.form_rows.inner()) if caption else " "
        self.odds_caption.set_text(fitted)
        self.odds_caption.set_tooltip(escape(caption) if caption else None)
        self._place_odds()
        self._refresh()

    def show_move(self, surface: pygame.Surface | None, legal: bool | None, path: str = "") -> None:
        """Host the move tool's card in the odds' place (None: the tool is closed) and show the
        drawn `path` in the path row; Apply becomes Move, enabled while the path is `legal`."""
        state = self.state
        if surface is self._odds_surface and legal == state.move_legal and path == state.drawn_path:
            return
        state.move_legal = legal if surface is not None else None
        state.drawn_path = path
        self.form_rows.show_drawn()
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
        state = self.state
        if event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION:
            if element is self.choice_list and event.text in state.labels:
                choice = self.pick(state.labels.index(event.text))
                return PanelCommand("move" if state.drawable(choice) else "picked")
            refusal = state.refusal(event.text) if element is self.choice_list else None
            if refusal is not None:
                self._select_row(state.picked_row())  # the row cannot be picked: the pick stays
                return PanelCommand("unavailable", reason=refusal)
            return None
        if event.type == pygame_gui.UI_SELECTION_LIST_DROPPED_SELECTION:
            if element is self.choice_list and state.picked is not None:
                # a second click on the picked row keeps it picked
                self._select_row(state.picked_row())
            return None
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            return self._button(element)
        row = self.form_rows.of_widget(element)
        if row is None:
            return None
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and row.kind == "menu":
            value = row.options.get(event.text)
            if value is None:
                state.values.pop(row.field.name, None)
            else:
                state.values[row.field.name] = value
            self._refresh()
            return PanelCommand("changed")
        if event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED and row.kind == "entry":
            state.apply_text(row.field, element.get_text())
            self._refresh()
            return PanelCommand("changed")
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and row.kind == "entry":
            state.apply_text(row.field, element.get_text())
            action = self.action()
            return PanelCommand("apply", action) if action else PanelCommand("changed")
        return None

    def _button(self, element: object) -> PanelCommand | None:
        if element is self.roll_button:
            if self.state.move_legal is not None:
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
        row = self.form_rows.of_widget(element)
        if row is None or row.kind != "toggle":
            return None
        self.state.toggle(row.field.name)
        self.form_rows.show_value(row)
        self._refresh()
        return PanelCommand("changed")

    # ------------------------------------------------------------------ layout

    def set_rect(self, rect: pygame.Rect) -> None:
        """Move and size the panel (the App's layout); the widgets follow."""
        resized = pygame.Rect(rect).width != self.rect.width
        self.rect = pygame.Rect(rect)
        self.panel.set_relative_position(self.rect.topleft)
        self.panel.set_dimensions(self.rect.size)
        if resized and self.form_rows.rows:
            self.form_rows.build()  # the name column and its cut names follow the width
        self._layout()

    def kill(self) -> None:
        self.panel.kill()
        self.form_rows.kill()

    def _layout(self) -> None:
        """From the top: the list (fixed height), the form (it scrolls), the problem or the
        odds (never under a third of the panel), the buttons. The form gives way to the
        chart: with many fields it shows a few rows and a scroll bar, the chart keeps its
        size."""
        width = max(60, self.panel.get_container().get_rect().width)
        height = max(60, self.panel.get_container().get_rect().height)
        inner = width - 2 * PAD
        notice = self.state.notice
        self._problem_room = self.state.problem is not None
        # a list of fixed height (it scrolls), whatever is offered or picked, so that the
        # next click lands where the player aimed: 8 rows in at most 40% of the panel
        rows = max(MIN_LIST_ROWS, min(LIST_ROWS, (height * 2 // 5 - LIST_BORDER) // LIST_ITEM))
        list_height = rows * LIST_ITEM + LIST_BORDER
        y = PAD
        # a notice takes the list's place; the list is parked under the panel's edge
        self.choice_list.set_relative_position((PAD, height + list_height if notice else y))
        self.choice_list.set_dimensions((inner, list_height))
        y += list_height + PAD
        bottom = height - PAD - BUTTON_HEIGHT
        # a third of the whole panel (its borders too), rounded up
        chart_least = max(CHART_LEAST, -(-self.rect.height // CHART_SHARE))
        room = bottom - PAD - chart_least - PAD - y  # the form, then a gap, then the chart
        form_rows = self.form_rows
        y += form_rows.window.fit(len(form_rows.rows), y, PAD, inner, room)
        form_rows.place()
        if form_rows.rows:
            y += PAD
        # the chart heads itself with its caption; without one the caption line says why
        # (computing, refused) and the problem line goes under it
        self._caption_at = (PAD, y)
        self.odds_caption.set_dimensions((inner, CAPTION_HEIGHT))
        self.problem_box.set_dimensions((inner, list_height if notice else PROBLEM_HEIGHT))
        if notice:
            self.problem_box.set_relative_position((PAD, PAD))
        elif self.state.problem is not None:
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

    def scroll_form(self, rows: int) -> bool:
        """Scroll the form by `rows` (the wheel over it); False when it does not scroll."""
        return self.form_rows.scroll(rows)

    def show_field(self, name: str) -> None:
        """Scroll the form so that field `name`'s row is in view."""
        self.form_rows.show_field(name)

    def form_rect(self) -> pygame.Rect:
        """The form's rows on the screen (where the wheel scrolls them)."""
        return self.form.on_screen()

    def update(self) -> None:
        """Once a frame: the form follows its scroll bar when the player drags it; the list's
        rows in view carry their whole label as a tool tip (a greyed one: why not now)."""
        self.form_rows.follow_bar()
        for item in self.choice_list.item_list:
            button = item["button_element"]
            if button is None:
                continue  # pygame_gui builds buttons for the rows in view only
            tip = self._row_tip(item["text"])
            if button.tool_tip_text != tip:
                button.set_tooltip(tip)

    def _row_tip(self, text: str) -> str | None:
        refusal = self.state.refusal(text)
        if refusal is not None:
            return escape(refusal)
        return escape(text) if self.row_shown(text) != text else None

    def row_shown(self, text: str) -> str:
        """A row's text as a player reads it in the list: the part that fits the row, marked
        "…" when cut (the list clips the rest, the tooltip shows it whole)."""
        return self.form_rows.fit(text, self.choice_list.rect.width - SCROLL_ROOM)

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
