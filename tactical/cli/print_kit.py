"""`tactical print (MAP | --rules ID) -o kit.pdf [--paper a4|letter]`: a printable 1:1 kit.

For the rule system: range rulers with its bands, its turning templates and an arc
template for each base used; for a map also its terrain placement sheets (one per
2'x2' area) and a deployment sheet. Every page carries a 100 mm and a 4" calibration
bar. Every user mistake is one line on stderr and exit code 2, and nothing is written.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tactical.cli.declare import command
from tactical.errors import UserError


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    command(
        subparsers,
        "print",
        run,
        (
            ("map", {"metavar": "MAP", "nargs": "?", "help": "map file (TOML)"}),
            ("--rules", {"metavar": "ID", "help": "a rule system's kit, without a map"}),
            ("-o", "--output", {"metavar": "FILE.pdf", "required": True, "help": "PDF to write"}),
            (
                "--paper",
                {"choices": ("a4", "letter"), "default": "a4", "help": "paper size (default a4)"},
            ),
        ),
        help="a printable true-size kit (PDF): rulers, templates, placement sheets",
        description="Write a PDF at true scale: range rulers, turning templates and arc "
        "templates for the rule system, and for a map its terrain placement and deployment "
        "sheets. Print it at 100%.",
    )


def run(args: argparse.Namespace) -> int:
    from tactical.kit.content import kit_for_map, kit_for_rules
    from tactical.kit.pdf import checked_pdf_path, write_kit

    if (args.map is None) == (args.rules is None):
        raise UserError("tactical print: give either a MAP or --rules ID (one of the two)")
    checked_pdf_path(args.output)
    if args.map is not None:
        if not Path(args.map).is_file():
            raise UserError(f"map file {args.map!r} not found")
        content = with_fairness(kit_for_map(args.map))
    else:
        content = kit_for_rules(args.rules)
    written = write_kit(content, args.output, args.paper)
    print(f"wrote {written}")
    return 0


def with_fairness(content):
    """The kit with its map's fairness score (the threat layer's; the kit prints words only).
    A map the score cannot take (one side only, a table too small for two zones) prints
    without it, saying why."""
    from dataclasses import replace

    from tactical.threat.fairness import score_layout, score_lines

    state = content.state
    try:
        score = score_layout(state)
    except UserError as error:
        return replace(content, fairness=(f"not scored: {error.describe()}",))
    headline = score.summary().removeprefix("fairness ") + "; 1 is an even table, 0 the most uneven"
    return replace(content, fairness=(headline, *score_lines(score)))
