"""`tactical host MAP|SAVE`: play one side in a window and serve the game to the others.

The server runs in a thread of this process (`tactical.net.hosting`); the window joins it
like any other player, over loopback. The seats' tokens are printed once, here, for the
host to hand on; they are never written to a log. `--resume` goes on with the last hosted
game after a crash, with the same tokens: the players' windows reconnect by themselves.
`tactical serve` (`cli.serve`) is the same server with no window and no side of its own.
"""

from __future__ import annotations

import argparse
import secrets
import sys
from pathlib import Path

from tactical.cli.declare import WINDOW_SIZE, command
from tactical.errors import UserError

LEVELS = ("random", "greedy", "search")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    command(
        subparsers,
        "host",
        run,
        (
            *SERVER_OPTIONS,
            (
                "--side",
                {
                    "metavar": "SIDE",
                    "default": None,
                    "help": "the side you play (default: the first)",
                },
            ),
            WINDOW_SIZE,
        ),
        help="play one side in a window and serve the game to a player elsewhere",
        description="Open MAP (or a saved game) in a window, play --side, and serve the game "
        "over the network: the other player joins with the command printed here (`tactical "
        "join ADDRESS --token TOKEN`). The dice of every roll come from both players' nonces: "
        "neither can foresee or choose one, and `tactical verify` checks them afterwards.",
    )


# the options `host` and `serve` share
SERVER_OPTIONS = (
    (
        "map",
        {"metavar": "MAP", "nargs": "?", "help": "map file (TOML), map name, or saved game (JSON)"},
    ),
    ("--port", {"type": int, "default": 8765, "help": "the port to serve on (8765)"}),
    (
        "--public",
        {
            "action": "store_true",
            "help": "accept players from other machines (default: this machine only, 127.0.0.1)",
        },
    ),
    (
        "--ai",
        {
            "metavar": "SIDE[:LEVEL]",
            "default": None,
            "help": "the computer plays SIDE on the server: LEVEL random, greedy (default) "
            "or search",
        },
    ),
    ("--seed", {"type": int, "default": None, "help": "the map's starting seed"}),
    (
        "--autosave",
        {
            "metavar": "FILE",
            "default": None,
            "help": "where the server saves the game after every step (default: the autosave "
            "folder)",
        },
    ),
    (
        "--watchers",
        {
            "metavar": "VIEW",
            "default": "both",
            "help": "what watchers see where the rules hide something (a cloaked ship): both "
            "sides' view (both, the default) or one side's (a side's name)",
        },
    ),
    (
        "--resume",
        {
            "action": "store_true",
            "help": "go on with the last hosted game after the server stopped or was killed: "
            "same tokens, same committed dice; the players reconnect by themselves",
        },
    ),
)


def checked_port(port: int) -> int:
    if not 1 <= port <= 65535:
        raise UserError(f"--port {port}: a port from 1 to 65535")
    return port


def computer_seats(text: str | None) -> dict[str, str]:
    """--ai SIDE[:LEVEL][,SIDE[:LEVEL]...] as {side: level}."""
    seats: dict[str, str] = {}
    for item in (text or "").split(","):
        if not item.strip():
            continue
        side, _, level = item.strip().partition(":")
        level = level or "greedy"
        if level not in LEVELS:
            raise UserError(f"--ai {item!r}: LEVEL is one of {', '.join(LEVELS)}")
        seats[side] = level
    return seats


def hosted(args: argparse.Namespace, host_side: str | None):
    """(server, the host's window session or None, invite) for `host` and `serve`."""
    from tactical.cli.play import _autosave_folder, _open_session
    from tactical.io.files import is_file
    from tactical.net.hosting import newest_hosted, resume_hosting, start_hosting
    from tactical.session.saving import Autosave

    port = checked_port(args.port)
    computer = computer_seats(args.ai)
    watchers = None if args.watchers == "both" else args.watchers
    if args.resume:
        if args.map:
            raise UserError("--resume goes on with the last hosted game: give no MAP with it")
        if args.autosave:
            autosave = Autosave(args.autosave)
            if not autosave.exists():
                raise UserError(f"--resume: there is no game at {args.autosave!r}")
        else:
            found = newest_hosted(_autosave_folder())
            if found is None:
                raise UserError("--resume: no hosted game in the autosave folder")
            autosave = found
        return resume_hosting(autosave, port=port, public=args.public, watch_only=host_side is None)
    if not args.map:
        raise UserError("give a MAP (a map file, a built-in map's name, or a saved game)")
    path = Path(args.map)
    if not is_file(path):
        raise UserError(f"file {str(path)!r} not found")
    if args.seed is not None and args.seed < 0:
        raise UserError(f"--seed: a whole number >= 0, not {args.seed}")
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    args.resume = False

    def check_watchers(sides: tuple[str, ...]) -> None:
        if watchers is not None and watchers not in sides:
            raise UserError(
                f"--watchers {watchers!r}: both, or one of the sides ({', '.join(sides)})"
            )

    session = _open_session(args, path, seed, check_watchers)
    side = host_side if host_side != "" else session.game.sides[0]
    return start_hosting(
        session,
        host_side=side,
        computer=computer,
        port=port,
        public=args.public,
        watchers=watchers,
    )


def run(args: argparse.Namespace) -> int:
    from tactical.cli.play import window_size

    size = window_size(args.size)
    server, window, invite = hosted(args, args.side or "")
    for line in invite.words():
        print(line, flush=True)
    if window is None:  # resumed with no seat of the host's: serve only
        return serve_forever(server)
    from tactical.ui.app import run_online

    return run_online(window, size, server=server, invite=invite)


def serve_forever(server) -> int:
    """Serve until interrupted (Ctrl+C, SIGTERM): the game stays saved."""
    import signal
    import threading

    stopped = threading.Event()

    def stop(*_: object) -> None:
        stopped.set()

    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), stop)
    try:
        while not stopped.wait(0.5):
            pass
    finally:
        server.stop()
    print("server stopped; the game is saved", file=sys.stderr)
    return 0
