"""`tactical card MAP FROM TO -o card.png [--size WxH]`: an adjudication card for a close call.

The table zoomed on the two bases with the measured segment and its length, the
firer's arc lines with the target's margin, the range-band edge nearest the
target, the line of sight and its blockers, and the numbers with the SPEC ids that
decided them (the same numbers `tactical check` prints). Every user mistake is one
line on stderr and exit code 2, and nothing is written.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tactical.cli.render import map_command, parse_size
from tactical.errors import UserError


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = map_command(
        subparsers,
        "card",
        "an adjudication card (PNG) for one firer and one target",
        "Draw the close call between FROM and TO as a PNG card: witness segment, "
        "arc lines and margins, nearest range-band edge, line of sight, and the numbers.",
    )
    parser.add_argument("source", metavar="FROM", help="the firing unit's id")
    parser.add_argument("target", metavar="TO", help="the target unit's id")
    parser.add_argument(
        "-o", "--output", metavar="FILE.png", required=True, help="PNG file to write"
    )
    parser.add_argument(
        "--size", metavar="WxH", type=parse_size, help="card size in pixels (default 1400x900)"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    # imported here so that other commands never pay for pygame
    from tactical.io.maps import load_map
    from tactical.ui.card import CARD_SIZE, write_card

    if not Path(args.map).is_file():
        raise UserError(f"map file {args.map!r} not found")
    state = load_map(args.map)
    written = write_card(state, args.source, args.target, args.output, args.size or CARD_SIZE)
    print(f"wrote {written}")
    return 0
