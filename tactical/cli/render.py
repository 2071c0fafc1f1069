"""`tactical render MAP -o FILE.png [--unit ID] [--size WxH]`: the table as a picture.

Draws offscreen (no window): the table, the 2'x2' grid with area names, inch
ticks on the edges, terrain by kind and height, the units, and with `--unit`
that unit's arcs, range bands and lines of sight. Every user mistake is one
line on stderr and exit code 2 (through the CLI's UserError handler).
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from tactical.errors import UserError

SIZE_PATTERN = re.compile(r"^\s*(\d+)\s*[xX×]\s*(\d+)\s*$")


def map_command(
    subparsers: argparse._SubParsersAction, name: str, summary: str, description: str
) -> argparse.ArgumentParser:
    """A subcommand `name` that draws from a map: its first argument is the MAP file."""
    parser = subparsers.add_parser(name, help=summary, description=description)
    parser.add_argument("map", metavar="MAP", help="map file (TOML)")
    return parser


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = map_command(
        subparsers,
        "render",
        "draw the table as a PNG picture",
        "Draw MAP as a PNG: table, grid, edge ticks, terrain, units; "
        "with --unit that unit's arcs, range bands and lines of sight.",
    )
    parser.add_argument(
        "-o", "--output", metavar="FILE.png", required=True, help="PNG file to write"
    )
    parser.add_argument("--unit", metavar="ID", help="show this unit's arcs and lines of sight")
    parser.add_argument(
        "--size",
        metavar="WxH",
        type=parse_size,
        help="picture size in pixels (default: 1600 wide, height from the table)",
    )
    parser.set_defaults(run=run)


def parse_size(value: str) -> tuple[int, int]:
    """'1920x1080' -> (1920, 1080); anything else is a UserError."""
    match = SIZE_PATTERN.match(value)
    if not match:
        raise UserError(f"--size {value!r}: expected WIDTHxHEIGHT in pixels, e.g. 1920x1080")
    return int(match.group(1)), int(match.group(2))


def run(args: argparse.Namespace) -> int:
    # imported here so that other commands never pay for pygame
    from tactical.io.maps import load_map
    from tactical.ui.render import check_size, render_png

    map_path = Path(args.map)
    if not map_path.is_file():
        raise UserError(f"map file {args.map!r} not found")
    if args.size is not None:
        check_size(args.size)
    state = load_map(map_path)
    written = render_png(state, args.output, unit_id=args.unit, size=args.size)
    print(f"wrote {written}")
    return 0
