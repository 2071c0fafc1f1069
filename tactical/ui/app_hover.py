"""The words under the pointer: the hovered unit's card and the pair panel's numbers.

`HoverWords` is the window's part that says what the pointer is over: the card of the
hovered unit (its status, the last roll's lines, where a side last saw it) and the pair
panel between the selected unit (during an attack, the attacker; while a move is drawn,
from where that move ends) and the hovered one. Every number comes from
`TableGeometry.pair` (what `tactical check` prints), computed once per table and pair.
"""

from __future__ import annotations

from dataclasses import replace

from tactical.errors import UserError
from tactical.model import GameState
from tactical.rules.base import last_seen
from tactical.rules.measuring import PairReport, TableGeometry
from tactical.ui.app_window import Window
from tactical.ui.hover_panels import card_html, unit_names


class HoverWords:
    """See the module docstring. `window` is the `App`."""

    def __init__(self, window: Window) -> None:
        self.window = window
        self._geometry: tuple[GameState, TableGeometry] | None = None
        self._pair: tuple[tuple, PairReport | None] | None = None

    @property
    def moving(self) -> bool:
        """A move is being drawn: the selection's arcs are shown where it ends, not here."""
        window = self.window
        return window.view.mode == "play" and window.play.move_tool is not None

    @property
    def geometry(self) -> TableGeometry:
        """`TableGeometry` of the current state (what `tactical check` prints), cached."""
        state = self.window.state
        if self._geometry is None or self._geometry[0] is not state:
            self._geometry = (state, TableGeometry.of(state, self.window.system))
        return self._geometry[1]

    @property
    def pair_report(self) -> PairReport | None:
        """The selected unit (during an attack, the attacker) against the hovered one, or
        None; while a move is drawn, from where that move ends (the numbers `tactical check`
        gives with the unit moved)."""
        window = self.window
        view, play = window.view, window.play
        hovered = view.hovered
        attacker = play.pair_source() if view.mode == "play" else None
        selected = attacker or view.selected
        if selected is None or hovered is None or selected == hovered:
            return None
        moved = play.moved_state() if self.moving else None
        state = moved or window.state
        key = (state, selected, hovered)
        if self._pair is None or self._pair[0] != key:
            try:
                geometry = self.geometry if moved is None else play.moved_geometry()
                report = geometry.pair(selected, hovered)
            except UserError:
                report = None
            self._pair = (key, report)
        return self._pair[1]

    def update(self, pos: tuple[int, int]) -> None:
        """The card of the unit under the pointer at `pos` and the pair panel beside it."""
        window = self.window
        state, play = window.state, window.play
        hovered = window.view.hovered
        if hovered is None:
            window.card.hide()
        else:
            key = (hovered, state, play.result)
            unit = state.unit(hovered)

            def html() -> str:
                status = window.table.tokens.statuses(state, window.system).get(hovered)
                roll = play.card_lines(hovered)
                hits = tuple(h for h in play.last_hits(hovered) if h not in roll)
                name = state.shown_names[hovered]
                seen_only = hovered in last_seen(state)  # a side's view: where last seen
                return card_html(unit, status, roll, hits, name, seen_only)

            window.card.show(key, html, pos, window.table_area())
        report = self.pair_report
        names = unit_names(state, (report.source, report.target) if report else ())
        card = window.card.box.rect if window.card.box.visible else None
        window.pair_panel.show(report, self.moving, pos, window.table_area(), names, card)

    def refresh(self, pos: tuple[int, int]) -> None:
        """Re-word the card (after a roll: the result appears on the target's card)."""
        self.window.card.forget()
        self.update(pos)

    def tidy(self) -> None:
        """Before a frame: a card or pair panel whose unit is gone (deleted by hand, undone)
        goes with it."""
        window = self.window
        view = window.view
        if view.hovered is not None and not window.state.has_unit(view.hovered):
            window.set_view(replace(view, hovered=None))
            window.play.hover(None)
        if window.view.hovered is None and window.card.box.visible:
            window.card.hide()  # (it stayed up until the pointer moved)
        if window.pair_panel.box.visible and self.pair_report is None:
            window.pair_panel.hide()  # its unit deleted or undone: its numbers go with it
