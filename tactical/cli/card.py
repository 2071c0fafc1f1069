"""`tactical card MAP FROM TO -o card.png|card.pdf [--size WxH]`: an adjudication card for a
close call.

The table zoomed on the two bases with the measured segment and its length, the
firer's arc lines with the target's margin, the range-band edge nearest the
target, the line of sight and its blockers, and the numbers with the SPEC ids that
decided them (the same numbers `tactical check` prints). The output's extension
chooses the medium: a PNG picture, or a vector PDF page for print. Every user mistake
is one line on stderr and exit code 2, and nothing is written.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tactical.cli.declare import MAP, command, existing_map
from tactical.cli.render import size_option
from tactical.errors import UserError

FORMATS = (".png", ".pdf")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    command(
        subparsers,
        "card",
        run,
        (
            MAP,
            ("source", {"metavar": "FROM", "help": "the firing unit's id"}),
            ("target", {"metavar": "TO", "help": "the target unit's id"}),
            (
                "-o",
                "--output",
                {"metavar": "FILE", "required": True, "help": "card.png or card.pdf to write"},
            ),
            size_option("a PNG card's size in pixels (default 1400x900); a PDF card is an A4 page"),
        ),
        help="an adjudication card (PNG or PDF) for one firer and one target",
        description="Draw the close call between FROM and TO as a card: witness segment, "
        "arc lines and margins, nearest range-band edge, line of sight, and the numbers. The "
        "output's extension chooses a PNG picture or a PDF page (vector, for print).",
    )


def run(args: argparse.Namespace) -> int:
    suffix = Path(args.output).suffix.lower()
    if suffix not in FORMATS:
        raise UserError(
            f"output {args.output!r} must be a .png file (a picture) or a .pdf file (a page "
            "for print): the card's extension chooses which"
        )
    if suffix == ".pdf" and args.size:
        raise UserError("--size is a PNG card's size in pixels: a PDF card is an A4 page")
    existing_map(args.map)
    # imported here so that other commands never pay for pygame (nor a PDF card)
    from tactical.io.maps import load_map

    state = load_map(args.map)
    if suffix == ".pdf":
        from tactical.ui.card_paper import write_card_pdf

        written = write_card_pdf(state, args.source, args.target, args.output)
    else:
        from tactical.ui.card import CARD_SIZE, write_card

        written = write_card(state, args.source, args.target, args.output, args.size or CARD_SIZE)
    print(f"wrote {written}")
    return 0
