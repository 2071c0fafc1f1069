"""`tactical check MAP [--unit ID] [--target ID] [--json]`: distances, arcs, LOS and range bands.

JSON (DESIGN.md, fixed keys): `{"rules": id, "pairs": [{"from", "to", "centre_distance",
"edge_distance", "bearing", "centre_arc", "arcs", "los", "blocked_by", "range_band"}]}`,
each pair also carrying `range_distance`, `range_witness`, `edge_witness` and
`arc_margins` (degrees, or inches for a fixed channel) for the close calls.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tactical.io import default_map_path, load_map

__all__ = ["add_parser", "default_map_path", "run"]
from tactical.rules import registry
from tactical.rules.measuring import PairReport, TableGeometry

UNIT_MARKS = {"degrees": "°", "inches": '"'}


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "check",
        help="distances, bearings, arcs, line of sight and range bands between units",
        description="Measure every pair of units on a map (or the pairs from --unit / to "
        "--target) the way the map's rule system measures.",
    )
    parser.add_argument("map", help="map file (TOML)")
    parser.add_argument("--unit", help="only pairs from this unit")
    parser.add_argument("--target", help="only pairs to this unit")
    parser.add_argument("--json", action="store_true", help="print JSON (stable keys)")
    parser.add_argument(
        "--witness",
        action="store_true",
        help="add the measured segments (range_witness, edge_witness); "
        "always on for a single --unit/--target pair",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    state = load_map(args.map)
    system = registry.get(state.rules)
    table = TableGeometry.of(state, system)
    witness = args.witness or bool(args.unit and args.target)
    reports = table.all_pairs(args.unit, args.target, witness=witness)
    if args.json:
        document = {"rules": state.rules, "pairs": [r.as_json() for r in reports]}
        # one write: many small writes to a pipe cost more than building the text
        sys.stdout.write(json.dumps(document, ensure_ascii=False) + "\n")
        return 0
    title = state.title or Path(args.map).name
    print(
        f"{title} — {system.title} ({state.rules}), {len(state.units)} units, "
        f"{len(state.terrain)} terrain pieces"
    )
    print(_conventions_line(system))
    for report in reports:
        print(_text(report))
    return 0


def _conventions_line(system) -> str:
    c = system.conventions
    measured = f"range from the {c.distance_from} to the {c.distance_to}"
    return f"  ({measured}; in an arc by {'its centre' if c.arc_test == 'centre' else 'any part'})"


def _text(report: PairReport) -> str:
    arcs = ", ".join(report.arcs) or "in none of its arcs"
    los = "clear" if report.los else "blocked by " + ", ".join(report.blocked_by)
    band = report.range_band or "out of range"
    margins = "; ".join(
        f"{name} {m.value:+.2f}{UNIT_MARKS[m.unit]}"
        for name, m in report.arc_margins
        if m.value not in (float("inf"), float("-inf"))
    )
    line = (
        f'{report.source} → {report.target}: centre {report.centre_distance:.2f}", '
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
