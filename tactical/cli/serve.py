"""`tactical serve MAP|SAVE`: a neutral server that plays no side (see `cli.host`).

Both players join it; the person running it takes no part. With no host among the
players, both players' nonces go into every roll.
"""

from __future__ import annotations

import argparse

from tactical.cli.declare import command
from tactical.cli.host import SERVER_OPTIONS, hosted, serve_forever


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    command(
        subparsers,
        "serve",
        run,
        SERVER_OPTIONS,
        help="serve a game that two players join, playing no side yourself",
        description="Serve MAP (or a saved game) with no window: every side is played from "
        "elsewhere (`tactical join ADDRESS --token TOKEN`, printed here) or by the computer "
        "(--ai). Runs until Ctrl+C; the game is saved after every step.",
    )


def run(args: argparse.Namespace) -> int:
    server, window, invite = hosted(args, None)
    if window is not None:
        window.close()
    for line in invite.words():
        print(line, flush=True)
    return serve_forever(server)
