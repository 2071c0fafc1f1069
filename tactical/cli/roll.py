"""`tactical roll EXPR [--seed N] [--odds] [--json]`: roll dice, or show their exact odds.

EXPR is the dice notation of `tactical.dice.notation` (`2d6`, `1d10z`, `d3`,
`5D+2`, `d12+d4`, `d8+1step`, `(d12+d2)-2step`). Without `--seed` a fresh seed is drawn and
reported, so any roll can be repeated.

JSON keys (stable). A roll:

    {"expression": str, "normalised": str, "kind": "plain"|"die-code"|"cortex",
     "seed": int, "rolls": [{"who", "what", "die", "faces", "result", "sign": 1|-1}],
     "constant": int, "total": int, "botch": bool|null}

`--odds` (exact; `probability` is a fraction string, `percent` a float):

    {"expression", "normalised", "kind",
     "outcomes": [{"total": int, "probability": "a/b", "percent": float}],
     "mean": "a/b", "botch": {"probability", "percent"}|null}

`botch` is only given for Cortex rolls (every die showing 1, R003.5).
"""

from __future__ import annotations

import argparse
import json
import textwrap
from typing import Any

from tactical.cli.declare import command

NOTATION_HELP = textwrap.dedent(
    """\
    notation (terms joined by + or -; spaces and case ignored):
      NdX, dX         N dice numbered 1..X (2d6, 1d10); d3 is a d6 halved, rounded up
      NdXz            dice read 0..X-1 (1d10z)
      ND+P            a Star Wars D6 die code with pips (5D+2)
      d12+d4          Cortex step dice added together (botch: every die a 1)
      d8+1step        a step modifier steps the die type right before it (d8+1step = d10)
      (d12+d2)-2step  a die type of several dice is stepped in brackets: d10
    d12+d2-2step is ambiguous (d12+d2 is both one die type and two dice) and refused:
    write (d12+d2)-2step for the die type, d2-2step+d12 for the d2 alone.
    """
)


def add_parser(subparsers: Any) -> None:
    command(
        subparsers,
        "roll",
        run,
        (
            ("expression", {"metavar": "EXPR", "help": "dice expression"}),
            ("--seed", {"type": int, "default": None, "help": "seed for a repeatable roll"}),
            ("--odds", {"action": "store_true", "help": "exact distribution instead"}),
            ("--json", {"action": "store_true", "help": "machine-readable output"}),
        ),
        help="roll dice in any system's notation, or show the exact odds",
        description="Roll a dice expression (2d6, 1d10z, d3, 5D+2, d12+d4, d8+1step).",
        epilog=NOTATION_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def roll_document(text: str, seed: int) -> dict[str, Any]:
    """The JSON document of one seeded roll."""
    # the dice here, not at the top: `tactical --help` builds this parser without them
    from tactical.dice import SeededDice, parse_expression, roll_expression

    expression = parse_expression(text)
    dice = SeededDice(seed)
    result = roll_expression(expression, dice, who="roll")
    return {
        "expression": text,
        "normalised": expression.normalised,
        "kind": expression.kind,
        "seed": seed,
        "rolls": [
            {**roll.as_dict(), "sign": sign}
            for roll, (sign, _) in zip(dice.rolls, expression.dice, strict=True)
        ],
        "constant": expression.constant,
        "total": result.total,
        "botch": result.botch,
    }


def odds_document(text: str) -> dict[str, Any]:
    """The JSON document of an expression's exact distribution."""
    from tactical.dice import expression_odds, fraction_text, parse_expression, percent

    expression = parse_expression(text)
    distribution = expression_odds(expression)
    totals = distribution.map(lambda summary: summary[0]).sorted()
    botch = None
    if expression.reports_botch:
        chance = distribution.where(lambda summary: bool(summary[1]))
        botch = {"probability": fraction_text(chance), "percent": percent(chance)}
    return {
        "expression": text,
        "normalised": expression.normalised,
        "kind": expression.kind,
        "outcomes": totals.rows("total"),
        "mean": fraction_text(totals.expected()),
        "botch": botch,
    }


def run(args: argparse.Namespace) -> int:
    if args.odds:
        document = odds_document(args.expression)
        if args.json:
            print(json.dumps(document, indent=2))
            return 0
        print(f"{document['normalised']} ({document['kind']}): exact odds")
        for row in document["outcomes"]:
            print(f"  {row['total']:>5}  {row['percent']:>8.4f}%  {row['probability']}")
        print(f"  mean {document['mean']}")
        if document["botch"]:
            print(
                f"  botch {document['botch']['percent']:.4f}% ({document['botch']['probability']})"
            )
        return 0
    if args.seed is None:
        import secrets  # only for a roll without a seed

        seed = secrets.randbelow(2**31)
    else:
        seed = args.seed
    document = roll_document(args.expression, seed)
    if args.json:
        print(json.dumps(document, indent=2))
        return 0
    faces = " ".join(
        f"{'-' if roll['sign'] < 0 else ''}{roll['result']}" for roll in document["rolls"]
    )
    constant = document["constant"]
    extra = f" {constant:+d}" if constant else ""
    botch = " BOTCH" if document["botch"] else ""
    print(f"{document['normalised']}: {faces}{extra} = {document['total']}{botch} (seed {seed})")
    return 0
