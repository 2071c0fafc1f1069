"""`tactical check MAP [--unit ID] [--target ID] [--json]`: distances, arcs, LOS and range bands.

JSON (docs/architecture.md, fixed keys): `{"rules": id, "pairs": [{"from", "to", "centre_distance",
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
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tactical.cli.declare import JSON_KEYS, command

if TYPE_CHECKING:
    from tactical.rules.measuring import PairReports

__all__ = ["add_parser", "run"]


# the command's arguments in order, as `declare.command` takes them
OPTIONS = (
    ("map", {"help": "map file (TOML)"}),
    ("--unit", {"help": "only pairs from this unit"}),
    ("--target", {"help": "only pairs to this unit"}),
    JSON_KEYS,
    (
        "--witness",
        {
            "action": "store_true",
            "help": "add the measured segments (range_witness, edge_witness); "
            "always on for a single --unit/--target pair",
        },
    ),
)


def add_parser(subparsers: Any) -> None:
    command(
        subparsers, "check", run, OPTIONS,
        help="distances, bearings, arcs, line of sight and range bands between units",
        description="Measure every pair of units on a map (or the pairs from --unit / to "
        "--target) the way the map's rule system measures.",
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    # here, not at the top: `tactical --help` lists this command without loading them
    from tactical.cli.check_words import Words, conventions_line
    from tactical.io.maps import load_map
    from tactical.rules import registry
    from tactical.rules.measuring import TableGeometry

    state = load_map(args.map)
    system = registry.get(state.rules)
    table = TableGeometry.of(state, system)
    witness = args.witness or bool(args.unit and args.target)
    # a block of firers at a time (validated before the first byte is written), so that
    # memory stays bounded on any table
    blocks = table.report_blocks(args.unit, args.target, witness=witness)
    first = next(blocks, None)  # a bad --unit / --target fails here, before any output
    if args.json:
        _write_json(state.rules, first, blocks)
        return 0
    title = state.title or Path(args.map).name
    print(
        f"{title} — {system.title} ({state.rules}), {len(state.units)} units, "
        f"{len(state.terrain)} terrain pieces"
    )
    print(conventions_line(system))
    if first is not None:
        words = Words(table)
        write = _writer()
        write(words.text(first))
        for block in blocks:
            write(words.text(block))
        write(None)
    return 0


def _writer(any_encoding: bool = False) -> Callable[[bytes | None], None]:
    """Writes UTF-8 text to stdout's bytes where it takes UTF-8, or whatever its encoding
    (`any_encoding`: the JSON, which is UTF-8 by definition), else as text, as `print`
    would; None flushes. Whatever was printed before goes first."""
    sys.stdout.flush()
    out = getattr(sys.stdout, "buffer", None)
    encoding = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "")
    if encoding != "utf8" and not any_encoding:
        out = None

    def write(text: bytes | None) -> None:
        if text is None:
            (out or sys.stdout).flush()
        elif out is not None:
            out.write(text)
        else:
            sys.stdout.write(text.decode())

    return write


def _write_json(rules: str, first: PairReports | None, blocks: Iterator[PairReports]) -> None:
    """`{"rules": ..., "pairs": [...]}` exactly as json.dumps writes the whole document,
    written block by block (UTF-8) as each block of pairs is reported."""
    write = _writer(any_encoding=True)
    write(('{"rules": ' + json.dumps(rules, ensure_ascii=False) + ', "pairs": [').encode())
    if first is not None:
        write(first.json_text(first=True))
        for block in blocks:
            write(block.json_text(first=False))
    write(b"]}\n")
    write(None)
