"""What the panels that follow the pointer say: the hovered unit's card and the numbers
from the selected unit to the hovered one, in pygame_gui's HTML subset.

The values are the rule system's (`UnitStatus`, through the session) and the rules
layer's measurements (`PairReport`); this module only words them. No pygame here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape

from tactical.model import GameState, Unit
from tactical.rules.conventions import band_name
from tactical.rules.measuring import PairReport, blocker_words
from tactical.rules.status import UnitStatus, words

DIM_HEX = "#A0A0A0"
WRECK_HEX = "#E06050"


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


def unit_names(state: GameState, unit_ids: Sequence[str]) -> dict[str, str]:
    """How the units read (their names, else their ids), by id, and every terrain piece
    (`GameState.shown_terrain_names`: a line of sight names its blockers)."""
    names = dict(state.shown_terrain_names)
    names.update({uid: state.shown_names[uid] for uid in unit_ids if state.has_unit(uid)})
    return names
