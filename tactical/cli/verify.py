"""`tactical verify SAVE`: the proof afterwards that a game's dice were fair.

Re-derives every roll of the save from its players' nonces and revealed chain values,
checks the chains, replays the game and compares the table it ends on with the one saved
(`session.verify`). Exit 0 when everything checks out, 2 naming the first step that does
not (or a file that cannot be read).
"""

from __future__ import annotations

import argparse
import json

from tactical.cli.declare import command
from tactical.errors import UserError


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    command(
        subparsers,
        "verify",
        run,
        (
            ("save", {"metavar": "SAVE", "help": "a saved game (.json)"}),
            (
                "--secret",
                {
                    "metavar": "FILE",
                    "action": "append",
                    "default": [],
                    "help": "a side's secret file of a game by file (may be given more than once)",
                },
            ),
            ("--json", {"action": "store_true", "help": "the verdict as JSON"}),
        ),
        help="check that every roll of a saved game came from its players' nonces",
        description="Re-derive every roll of SAVE from the nonces its players gave and the "
        "values their dice chains revealed, check the chains, replay the game and compare "
        "it with the table saved. Says 'all N rolls check out' or names the first step that "
        "does not. A side's secret file of a game by file (found next to SAVE, or given "
        "with --secret) also proves that each nonce the side gave was for the step as "
        "played.",
    )


def run(args: argparse.Namespace) -> int:
    from tactical.io.saves import read_save
    from tactical.session.file_secrets import load_secret, secret_path
    from tactical.session.game import Game
    from tactical.session.verify import check_saved

    saved = read_save(args.save)
    secrets = []
    if saved.fair is not None:
        named = {}
        for given in args.secret:
            secret = load_secret(given)
            if secret.side not in saved.fair.players:
                raise UserError(f"--secret {given!r}: {secret.side} is not a player of this game")
            named[secret.side] = secret
        try:
            sides = Game.new(saved.initial, saved.seed).sides
        except UserError:
            sides = ()
        for side in sides:
            found = secret_path(args.save, side)
            if side not in named and found.is_file():
                named[side] = load_secret(found, side)
        secrets = list(named.values())
    verdict = check_saved(saved, secrets).verdict
    if args.json:
        print(json.dumps(verdict.document(), indent=1, ensure_ascii=False))
        return 0 if verdict.ok else 2
    if not verdict.ok:
        raise UserError(f"{args.save}: {verdict.message()}")
    print(verdict.message())
    return 0
