"""`tactical render MAP -o FILE.png [--unit ID] [--size WxH]`: the table as a picture.

Draws offscreen (no window): the table, the 2'x2' grid with area names, inch
ticks on the edges, terrain by kind and height, the units, and with `--unit`
that unit's arcs, range bands and lines of sight. Every user mistake is one
line on stderr and exit code 2 (through the CLI's UserError handler).
"""

from __future__ import annotations

import argparse
import re
from typing import Any

from tactical.cli.declare import MAP, command, existing_map
from tactical.errors import UserError

SIZE_PATTERN = re.compile(r"^\s*(\d+)\s*[xX×]\s*(\d+)\s*$")


def size_option(help_text: str) -> tuple[str, dict[str, Any]]:
    """`--size WxH` (pixels, read by `parse_size`) with its help."""
    return ("--size", {"metavar": "WxH", "type": parse_size, "help": help_text})


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    command(
        subparsers,
        "render",
        run,
        (
            MAP,
            (
                "-o",
                "--output",
                {"metavar": "FILE.png", "required": True, "help": "PNG file to write"},
            ),
            ("--unit", {"metavar": "ID", "help": "show this unit's arcs and lines of sight"}),
            size_option("picture size in pixels (default: 1600 wide, height from the table)"),
        ),
        help="draw the table as a PNG picture",
        description="Draw MAP as a PNG: table, grid, edge ticks, terrain, units; "
        "with --unit that unit's arcs, range bands and lines of sight.",
    )


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

    map_path = existing_map(args.map)
    if args.size is not None:
        check_size(args.size)
    state = load_map(map_path)
    written = render_png(state, args.output, unit_id=args.unit, size=args.size)
    print(f"wrote {written}")
    return 0
