"""What the adjust mode's panel says about the selection: its pose, its name and its values.

A unit shows its place and heading, its name and side, and its values as its rule system
words them (hull 6/7, shields, damage...) with how to set one by typing; a terrain piece
its centre, name, kind and height, and how to reshape it. No pygame: the panel
(tactical.ui.adjust_panel) fills its widgets from `SelectionWords`.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from tactical.errors import UserError
from tactical.model import GameState, Unit
from tactical.rules.base import RuleSystem
from tactical.session.quick_entry import typed_name

NOTHING = "Click a unit or a terrain piece to select it."
TERRAIN_HINT = (
    "Type a centre to move it, a heading to turn it. Shift+click an edge: a new "
    "corner; Ctrl+click a corner: remove it."
)


@dataclass(frozen=True)
class SelectionWords:
    """The panel's pose entries (x, y, heading), its title line and its values (HTML)."""

    pose: tuple[str, str, str]
    title: str
    html: str


def piece_centre(state: GameState, piece_id: str) -> tuple[float, float]:
    """The centre of a terrain piece: a circle's, else its shape's centroid."""
    piece = state.terrain_piece(piece_id)
    if piece.circle is not None:
        return piece.circle.x, piece.circle.y
    centre = piece.geometry.centroid
    return float(centre.x), float(centre.y)


def selection_words(
    system: RuleSystem,
    state: GameState,
    unit_id: str | None,
    terrain: str | None,
    in_game: bool,
) -> SelectionWords:
    """The selected unit (else the selected terrain piece, else nothing) in the panel's
    words; `in_game`: a game is adjusted (a value typed sets its status, not its stats)."""
    if unit_id is not None and state.has_unit(unit_id):
        unit = state.unit(unit_id)
        return SelectionWords(
            (f"{unit.x:.2f}", f"{unit.y:.2f}", f"{unit.heading:g}"),
            f"{state.shown_names.get(unit.id, unit.name)}, side {unit.side}",
            status_html(system, state, unit, in_game),
        )
    if terrain is not None and any(p.id == terrain for p in state.terrain):
        piece = state.terrain_piece(terrain)
        cx, cy = piece_centre(state, piece.id)
        return SelectionWords(
            (f"{cx:.2f}", f"{cy:.2f}", "0"),
            f"{state.shown_terrain_names[piece.id]}: {piece.kind}, {piece.height.value}",
            TERRAIN_HINT,
        )
    return SelectionWords(("", "", ""), "Nothing selected", NOTHING)


def status_html(system: RuleSystem, state: GameState, unit: Unit, in_game: bool) -> str:
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
