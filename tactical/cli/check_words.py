"""The words of `tactical check`: each pair of units in one line a player reads, their
units and terrain by name (the JSON keeps the ids).

`Words.text(block)` writes a block of pair reports from their columns at once
(`tactical.rules.report_json`), the same bytes as `pair_line` of each report; `pair_line`
stays the reference and writes the few lines the columns cannot vouch for.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from tactical.cli.plain_output import printable
from tactical.geometry.arcs import QUADRANT_NAMES
from tactical.geometry.margins import margin_unit
from tactical.rules.conventions import band_name
from tactical.rules.measuring import PairReport, PairReports, TableGeometry, blocker_words
from tactical.rules.report_json import Columns, entry_tables, fixed, table, texts

__all__ = ["UNIT_MARKS", "Words", "conventions_line", "pair_line"]

UNIT_MARKS = {"degrees": "°", "inches": '"'}


def conventions_line(system) -> str:
    """How the rule system measures, in words (the second line of the text)."""
    c = system.conventions
    measured = f"range from the {c.distance_from} to the {c.distance_to}"
    return f"  ({measured}; in an arc by {'its centre' if c.arc_test == 'centre' else 'any part'})"


def pair_line(report: PairReport, units: Mapping[str, str], terrain: Mapping[str, str]) -> str:
    """One pair in words, its units and terrain by the names a player reads (the JSON
    keeps the ids)."""
    arcs = ", ".join(report.arcs) or "in none of its arcs"
    los = "clear" if report.los else "blocked by " + blocker_words(report, terrain)
    band = band_name(report.range_band) if report.range_band else "out of range"
    margins = "; ".join(
        f"{name} {m.value:+.2f}{UNIT_MARKS[m.unit]}"
        for name, m in report.arc_margins
        if m.value not in (float("inf"), float("-inf"))
    )
    line = (
        f"{units.get(report.source, report.source)} → {units.get(report.target, report.target)}: "
        f'centre {report.centre_distance:.2f}", '
        f'edge {report.edge_distance:.2f}", bearing {report.bearing:.1f}° '
        f'({report.centre_arc}); arcs: {arcs}; LOS {los}; range {report.distance:.2f}" = {band}'
    )
    line += f"; margins: {margins}" if margins else ""
    for label, w in (("range", report.witness), ("edge", report.edge_witness)):
        if w is not None:
            line += (
                f"\n    {label} measured from ({w.start[0]:.2f}, {w.start[1]:.2f}) "
                f"to ({w.end[0]:.2f}, {w.end[1]:.2f})"
            )
    return line


class Words:
    """The text lines of a table's pair reports from their columns at once (`report_json`),
    the same bytes as `_text` of each report and a line break: the names a player reads
    as tables of text, picked by index (every control character dropped, as `print`
    through `printable_streams` drops them)."""

    MODELS = ("", "the model ", "the models ", " and the model ", " and the models ")

    def __init__(self, geometry: TableGeometry) -> None:
        state = geometry.state
        self.units_by_id = state.shown_names
        self.terrain_by_id = state.shown_terrain_names
        names = [printable(self.units_by_id.get(u.id, u.id)) for u in state.units]
        pieces = [printable(self.terrain_by_id.get(t, t)) for t in geometry.terrain.ids]
        self.units = table(names)
        self.pieces = entry_tables(pieces)
        self.models = entry_tables(names)
        self.quadrants = table(QUADRANT_NAMES)
        self.los = table(["blocked by ", "clear"])
        self.model_words = table(self.MODELS)

    def text(self, block: PairReports) -> bytes | bytearray:
        """The lines of one block of reports, each ended by a line break."""
        if block.witnesses is not None:  # measured pair by pair anyway: the plain way
            return "".join(self._line(block, k) for k in range(len(block))).encode()
        g = block.geometry
        rows = Columns(len(block))
        rows.pick(self.units, block.sources)
        rows.constant(" → ")
        rows.pick(self.units, block.targets)
        rows.constant(": centre ")
        rows.bytes_of(*fixed(block.centre_distance, 2))
        rows.constant('", edge ')
        rows.bytes_of(*fixed(block.edge_distance, 2))
        rows.constant('", bearing ')
        rows.bytes_of(*fixed(block.bearing, 1))
        rows.constant("° (")
        rows.pick(self.quadrants, block.centre_quadrant)
        rows.constant("); arcs: ")
        # each row's arcs as a number (arc a is bit a), then one text per number present
        weights = 1 << np.arange(len(g.arcs), dtype=np.int64)
        held, codes = np.unique(block.in_arc.astype(np.int64) @ weights, return_inverse=True)
        lists = [
            ", ".join(arc.name for arc, w in zip(g.arcs, weights.tolist(), strict=True) if h & w)
            or "in none of its arcs"
            for h in held.tolist()
        ]
        rows.pick(table([printable(t) for t in lists]), codes.reshape(-1))
        rows.constant("; LOS ")
        rows.pick(self.los, block.los.astype(np.intp))
        rows.lists(*self.pieces, block.blocker_lists)  # blocker_words: terrain, then models
        if block.model_lists is not None:
            count = block.model_lists.count
            terrain = block.blocker_lists.count > 0
            words = np.where(count == 0, 0, np.where(count == 1, 1, 2) + 2 * terrain)
            rows.pick(self.model_words, words)
            rows.lists(*self.models, block.model_lists)
        rows.constant("; range ")
        rows.bytes_of(*fixed(block.distance, 2))
        rows.constant('" = ')
        bands = [band_name(n) if n else "out of range" for n in block.band_names]
        rows.pick(table([printable(b) for b in bands]), block.bands)
        shown = block.own & ~np.isinf(block.margins)
        before = np.cumsum(shown, axis=1) - shown  # margins shown before each arc
        for k, arc in enumerate(g.arcs):
            name = printable(arc.name)
            leads = table(["", f"; margins: {name} ", f"; {name} "])
            rows.pick(leads, np.where(shown[:, k], 1 + (before[:, k] > 0), 0))
            rows.bytes_of(
                *fixed(np.where(shown[:, k], block.margins[:, k], 0.0), 2, True), shown[:, k]
            )
            rows.pick(table(["", UNIT_MARKS[margin_unit(arc)]]), shown[:, k].astype(np.intp))
        rows.constant("\n")
        return texts(rows, lambda k: self._line(block, k), block.use_kernel)

    def _line(self, block: PairReports, k: int) -> str:
        return printable(pair_line(block[k], self.units_by_id, self.terrain_by_id)) + "\n"
