"""The panels that follow the pointer: the hovered unit's card and the pair's numbers.

Each owns its widget and its placement; the caller says what to show and where
the pointer is.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from html import escape

import pygame
import pygame_gui
from pygame_gui.elements import UITextBox

from tactical.model import GameState, Unit
from tactical.rules.conventions import band_name
from tactical.rules.measuring import PairReport, blocker_words
from tactical.rules.status import UnitStatus, words
from tactical.ui.services import LEGEND_BAND, OVERLAY_HEIGHT, STATUS_BAR, TOP_BAR

CARD_WIDTH = 340
DIM_HEX = "#A0A0A0"
WRECK_HEX = "#E06050"
PAIR_WIDTH = 350
POINTER_GAP = 24  # pixels kept between the pointer and a panel
MARGIN = 8


def card_html(
    unit: Unit,
    status: UnitStatus | None,
    roll: Sequence[str] = (),
    hits: Sequence[str] = (),
    name: str = "",
    seen_only: bool = False,
) -> str:
    """The hover card: name, side and pose; every current value the rule system reports
    (label, value, its one-line help); its marks (the table may only count them); the
    weapons; the last roll and the last hits. `name` is how the unit reads on the table
    (numbered where units share a name); its own name (or id) without it. `seen_only`: the
    side shown knows the unit only where it was last seen (its pose says so)."""
    where = "last seen at" if seen_only else "at"
    lines = [
        f"<b>{escape(name or unit.name or unit.id)}</b>",
        f"side {escape(unit.side)} · {words(unit.movement.value)} · {words(unit.size.value)}",
        f"{where} ({unit.x:.1f}, {unit.y:.1f}), heading {unit.heading:g}°",
    ]
    if status is not None:
        if status.wreck:
            lines.append(f"<font color='{WRECK_HEX}'><b>wreck</b>: out of the fight</font>")
        for value in status.values:
            tail = f" <font color='{DIM_HEX}'>{escape(value.help)}</font>" if value.help else ""
            lines.append(f"{escape(value.label)}: <b>{escape(value.text)}</b>{tail}")
        if status.marks:  # every one, where the table has room for a count only ("+3")
            marks = " · ".join(escape(mark) for mark in status.marks)
            lines.append(f"Marks on the table: <b>{marks}</b>")
        if status.weapons:
            lines.append("<b>Weapons</b>")
            for weapon in status.weapons:
                parts = [weapon.arc, weapon.ranges, weapon.attack, weapon.shots]
                shown = " · ".join(escape(p) for p in parts if p)
                lines.append(f"<b>{escape(weapon.name)}</b>: {shown}")
    if roll:
        lines.append("<b>Last roll</b>")
        lines.extend(escape(line) for line in roll)
    if hits:
        lines.append("<b>Last hits</b>")
        lines.extend(escape(line) for line in hits)
    return "<br>".join(lines)


def pair_html(report: PairReport, moving: bool, names: Mapping[str, str] | None = None) -> str:
    """The selected unit to the hovered one: distances, arcs, margins, sight, range band
    (`names`: how the units and the terrain pieces read, by id)."""
    names = names or {}
    margins = ", ".join(
        f"{name} {m.value:+.2f}{'°' if m.unit == 'degrees' else chr(34)}"
        for name, m in report.arc_margins
        if math.isfinite(m.value)
    )
    return "<br>".join(
        [
            f"<b>{escape(names.get(report.source, report.source))} to "
            f"{escape(names.get(report.target, report.target))}</b>"
            + (" <i>where the move ends</i>" if moving else ""),
            f'centre {report.centre_distance:.2f}"  edge {report.edge_distance:.2f}"',
            f"bearing {report.bearing:.1f}°  centre arc {escape(report.centre_arc)}",
            f"in arcs: {escape(', '.join(report.arcs) or 'none')}",
            f"margins: {escape(margins or '-')}",
            "LOS clear" if report.los else "LOS blocked by " + escape(blocker_words(report, names)),
            f'range {report.distance:.2f}": '
            + escape(band_name(report.range_band) if report.range_band else "out of range"),
            "<i>K: adjudication card (PNG)</i>",
        ]
    )


def table_area(size: tuple[int, int], panel_width: int) -> pygame.Rect:
    """The window between the bars and left of the mode's panel: where the cards go."""
    width, height = size
    bottom = height - STATUS_BAR - LEGEND_BAND
    return pygame.Rect(0, TOP_BAR, max(1, width - panel_width - 8), max(1, bottom - TOP_BAR))


def unit_names(state: GameState, unit_ids: Sequence[str]) -> dict[str, str]:
    """How the units read (their names, else their ids), by id, and every terrain piece
    (`GameState.shown_terrain_names`: a line of sight names its blockers)."""
    names = dict(state.shown_terrain_names)
    names.update({uid: state.shown_names[uid] for uid in unit_ids if state.has_unit(uid)})
    return names


def beside(
    box: pygame.Rect,
    pointer: tuple[int, int],
    area: pygame.Rect,
    top: bool,
    avoid: pygame.Rect | None = None,
) -> pygame.Rect:
    """Where a panel of `box`'s size goes in a corner of `area` (top or bottom), on the side
    away from the pointer: it never covers what is under the pointer nor takes its click,
    and keeps off `avoid` (the other panel) where a corner allows."""
    inner = area.inflate(-2 * MARGIN, -2 * MARGIN)
    left_first = pointer[0] >= area.centerx
    free = []
    for left in (left_first, not left_first):
        rect = box.copy()
        if left:
            rect.left = inner.left
        else:
            rect.right = inner.right
        if top:
            rect.top = inner.top
        else:
            rect.bottom = inner.bottom
        if not rect.inflate(2 * POINTER_GAP, 2 * POINTER_GAP).collidepoint(pointer):
            if avoid is None or not rect.colliderect(avoid):
                return rect
            free.append(rect)
    return free[0] if free else rect


class UnitCard:
    """The hovered unit's card, in a top corner of the table away from the pointer;
    re-worded only when what it says changes."""

    def __init__(self, manager: pygame_gui.UIManager) -> None:
        # height -1: the card is as tall as its lines (pygame_gui sizes it on each set_text)
        self.box = UITextBox(
            "", pygame.Rect(0, 0, CARD_WIDTH, -1), manager, starting_height=OVERLAY_HEIGHT
        )
        self.box.hide()
        self._key: object = None

    def forget(self) -> None:
        """The next `show` re-words the card even if its key did not change."""
        self._key = None

    def hide(self) -> None:
        if self.box.visible:
            self.box.hide()
        self._key = None

    def show(
        self,
        key: object,
        html: Callable[[], str],
        pointer: tuple[int, int],
        area: pygame.Rect,
    ) -> None:
        """The card for `key` in `area`, away from `pointer`; `html()` is asked only when
        `key` changed."""
        if self._key != key:
            self.box.set_text(html())
            self._key = key
        rect = beside(self.box.rect, pointer, area, top=True)
        if rect.topleft != self.box.rect.topleft:
            self.box.set_relative_position(rect.topleft)
        if not self.box.visible:
            self.box.show()


class PairPanel:
    """The pair's numbers in a bottom corner of the table, away from the pointer; its bottom
    edge stays put as its height follows its lines."""

    def __init__(self, manager: pygame_gui.UIManager) -> None:
        self.box = UITextBox("", pygame.Rect(0, 0, PAIR_WIDTH, -1), manager)  # as tall as its lines
        self.box.hide()
        self._place: tuple[tuple[int, int], pygame.Rect] = ((0, 0), pygame.Rect(0, 0, 1, 1))

    def hide(self) -> None:
        if self.box.visible:
            self.box.hide()

    def layout(
        self, pointer: tuple[int, int], area: pygame.Rect, avoid: pygame.Rect | None = None
    ) -> None:
        self._place = (pointer, area)
        rect = beside(self.box.rect, pointer, area, top=False, avoid=avoid)
        if rect.topleft != self.box.rect.topleft:
            self.box.set_relative_position(rect.topleft)

    def show(
        self,
        report: PairReport | None,
        moving: bool,
        pointer: tuple[int, int],
        area: pygame.Rect,
        names: Mapping[str, str] | None = None,
        avoid: pygame.Rect | None = None,
    ) -> None:
        """The pair's numbers away from the pointer and, where a corner allows, off `avoid`
        (the unit card)."""
        if report is None:
            self.hide()
            return
        html = pair_html(report, moving, names)
        if self.box.html_text != html:
            self.box.set_text(html)
        self.layout(pointer, area, avoid)
        if not self.box.visible:
            self.box.show()
