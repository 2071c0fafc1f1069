"""`tactical check MAP [--unit ID] [--target ID] [--json]`: distances, arcs, LOS and range bands.

JSON (DESIGN.md, fixed keys): `{"rules": id, "pairs": [{"from", "to", "centre_distance",
"edge_distance", "bearing", "centre_arc", "arcs", "los", "blocked_by", "range_band"}]}`,
each pair also carrying `blocked_by_models` (the models whose bases block the line where
the rule system's models block sight, R002.41: each `{"name", "id"}`), `range_distance`,
`range_witness`, `edge_witness` and `arc_margins` (degrees, or inches for a fixed
channel) for the close calls.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

from tactical.io import default_map_path, load_map

__all__ = ["add_parser", "default_map_path", "run"]
from tactical.rules import registry
from tactical.rules.conventions import band_name
from tactical.rules.measuring import PairReport, PairReports, TableGeometry, blocker_words

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
    # a block of firers at a time (validated before the first byte is written), so that
    # memory stays bounded on any table
    blocks = table.report_blocks(args.unit, args.target, witness=witness)
    if args.json:
        _write_json(state.rules, blocks)
        return 0
    title = state.title or Path(args.map).name
    print(
        f"{title} — {system.title} ({state.rules}), {len(state.units)} units, "
        f"{len(state.terrain)} terrain pieces"
    )
    print(_conventions_line(system))
    units, terrain = state.shown_names, state.shown_terrain_names
    for block in blocks:
        for report in block:
            print(_text(report, units, terrain))
    return 0


def _write_json(rules: str, blocks: Iterator[PairReports]) -> None:
    """`{"rules": ..., "pairs": [...]}` exactly as json.dumps writes the whole document,
    written block by block (UTF-8) as each block of pairs is reported."""
    first = next(blocks, None)  # a bad --unit / --target fails here, before any output
    out = getattr(sys.stdout, "buffer", None)
    sys.stdout.flush()

    def write(text: bytes) -> None:
        if out is not None:
            out.write(text)
        else:
            sys.stdout.write(text.decode())

    write(('{"rules": ' + json.dumps(rules, ensure_ascii=False) + ', "pairs": [').encode())
    if first is not None:
        write(first.json_text(first=True))
        for block in blocks:
            write(block.json_text(first=False))
    write(b"]}\n")
    if out is not None:
        out.flush()


def _conventions_line(system) -> str:
    c = system.conventions
    measured = f"range from the {c.distance_from} to the {c.distance_to}"
    return f"  ({measured}; in an arc by {'its centre' if c.arc_test == 'centre' else 'any part'})"


def _text(report: PairReport, units: Mapping[str, str], terrain: Mapping[str, str]) -> str:
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
