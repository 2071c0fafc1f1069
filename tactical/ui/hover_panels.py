"""The panels that follow the pointer: the hovered unit's card and the pair's numbers.

Each owns its widget and its placement; the caller says what to show and where
the pointer is.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from html import escape

import pygame
import pygame_gui
from pygame_gui.elements import UITextBox

from tactical.model import Unit
from tactical.rules.base import RuleSystem
from tactical.rules.measuring import PairReport
from tactical.ui.services import LEGEND_BAND, OVERLAY_HEIGHT, STATUS_BAR, TOP_BAR

CARD_WIDTH = 300
PAIR_WIDTH = 350
POINTER_GAP = 18  # pixels between the pointer and a card placed beside it


def card_html(unit: Unit, system: RuleSystem, result: Sequence[str] = ()) -> str:
    """The hover card: name, side, classes and the rule system's stats with their docs."""
    docs = {f.name: f.doc for f in system.stats_fields}
    lines = [
        f"<b>{escape(unit.name or unit.id)}</b> ({escape(unit.id)})",
        f"side {escape(unit.side)} · {unit.movement.value} · {unit.size.value}",
        f"at ({unit.x:.2f}, {unit.y:.2f}) heading {unit.heading:g}°",
    ]
    for key, value in unit.stats.items():
        doc = docs.get(key, "")
        shown = value if not isinstance(value, (tuple, list)) else f"{len(value)} entries"
        tail = f" <i>{escape(doc[:60])}</i>" if doc else ""
        lines.append(f"{escape(str(key))}: {escape(str(shown))}{tail}")
    if result:
        lines.append("<b>last roll</b>")
        lines.extend(escape(line) for line in result)
    return "<br>".join(lines)


def pair_html(report: PairReport, moving: bool) -> str:
    """The selected unit to the hovered one: distances, arcs, margins, sight, range band."""
    margins = ", ".join(
        f"{name} {m.value:+.2f}{'°' if m.unit == 'degrees' else chr(34)}"
        for name, m in report.arc_margins
        if math.isfinite(m.value)
    )
    return "<br>".join(
        [
            f"<b>{escape(report.source)} to {escape(report.target)}</b>"
            + (" <i>where the move ends</i>" if moving else ""),
            f'centre {report.centre_distance:.2f}"  edge {report.edge_distance:.2f}"',
            f"bearing {report.bearing:.1f}°  centre arc {escape(report.centre_arc)}",
            f"in arcs: {escape(', '.join(report.arcs) or 'none')}",
            f"margins: {escape(margins or '-')}",
            "LOS clear" if report.los else f"LOS blocked by {escape(', '.join(report.blocked_by))}",
            f'range {report.distance:.2f}": {escape(report.range_band or "out of range")}',
        ]
    )


class UnitCard:
    """The hovered unit's card, beside the pointer; re-worded only when what it says changes."""

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
        size: tuple[int, int],
    ) -> None:
        """The card beside `pointer`; `html()` is asked only when `key` changed."""
        if self._key != key:
            self.box.set_text(html())
            self._key = key
        x = min(pointer[0] + POINTER_GAP, size[0] - CARD_WIDTH - 4)
        y = min(pointer[1] + POINTER_GAP, size[1] - STATUS_BAR - 4 - self.box.rect.height)
        self.box.set_relative_position((max(0, x), max(TOP_BAR, y)))
        if not self.box.visible:
            self.box.show()


class PairPanel:
    """Bottom left, above the legend: its bottom edge stays put as its height follows its lines."""

    def __init__(self, manager: pygame_gui.UIManager) -> None:
        self.box = UITextBox("", pygame.Rect(0, 0, PAIR_WIDTH, -1), manager)  # as tall as its lines
        self.box.hide()
        self._size = (0, 0)

    def layout(self, size: tuple[int, int]) -> None:
        self._size = size
        bottom = size[1] - STATUS_BAR - LEGEND_BAND - 8
        self.box.set_relative_position((8, bottom - self.box.rect.height))

    def show(self, report: PairReport | None, moving: bool) -> None:
        if report is None:
            if self.box.visible:
                self.box.hide()
            return
        html = pair_html(report, moving)
        if self.box.html_text != html:
            self.box.set_text(html)
            self.layout(self._size)
        if not self.box.visible:
            self.box.show()
