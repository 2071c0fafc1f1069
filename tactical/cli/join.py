"""`tactical join HOST[:PORT] --token T`: open the play screen on a game served elsewhere."""

from __future__ import annotations

import argparse

from tactical.cli.declare import WINDOW_SIZE, command
from tactical.errors import UserError


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    command(
        subparsers,
        "join",
        run,
        (
            ("address", {"metavar": "HOST[:PORT]", "help": "where the game is served"}),
            ("--token", {"default": None, "help": "your seat's token, from the host"}),
            (
                "--side",
                {
                    "default": None,
                    "help": "the side you expect to play (checked against the token)",
                },
            ),
            ("--watch", {"action": "store_true", "help": "watch: see the game, change nothing"}),
            WINDOW_SIZE,
        ),
        help="play (or watch) a game someone hosts or serves",
        description="Join the game at ADDRESS (HOST or HOST:PORT, as the host's screen shows "
        "it) with your seat's token, or watch it (--watch). Your copy of the game is "
        "autosaved as it goes: `tactical verify` checks its dice afterwards.",
    )


def run(args: argparse.Namespace) -> int:
    from tactical.cli.play import _autosave_folder, window_size
    from tactical.net.client import RemoteSession
    from tactical.session.saving import Autosave

    size = window_size(args.size)
    if args.watch and args.token:
        raise UserError("--watch needs no token: give one or the other")
    autosave = Autosave.new_game_in(_autosave_folder())
    session = RemoteSession.join(args.address, args.token, watch=args.watch, autosave=autosave)
    if args.side is not None and not args.watch and session.side != args.side:
        session.close()
        raise UserError(f"--side {args.side}: that token opens {session.side}'s seat")
    from tactical.ui.app import run_online

    return run_online(session, size)
