"""`tactical play [MAP]` (and `tactical` alone): the play screen in a pygame-ce window.

pygame is imported inside `run` only, so that every other command stays free of it.
"""

from __future__ import annotations

import argparse
import os
import secrets
from pathlib import Path

from tactical.errors import UserError


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play a game in a window: set up, move, fire with exact odds, undo, save",
        description="Open MAP (default: the built-in default map) or a saved game (.json) in a "
        "resizable window: set up terrain and deployment, then play the map's rule system turn "
        "by turn (moves with live preview, declarations, exact odds, seeded rolls, a log). The "
        "game is autosaved after every action. F1 lists every control.",
    )
    parser.add_argument(
        "map", metavar="MAP", nargs="?", help="map file (TOML) or a saved game (JSON)"
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="the game's dice seed (default: a fresh one, shown in the log; same seed and "
        "actions give the same game)",
    )
    parser.add_argument(
        "--autosave",
        metavar="FILE",
        default=None,
        help="where the game is saved after every action "
        "(default: $XDG_STATE_HOME/tactical/autosave.json)",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="reopen the autosaved game where it stopped",
    )
    parser.add_argument(
        "--ai",
        metavar="SIDE[:LEVEL]",
        default=None,
        help="the computer plays SIDE (comma-separated for more): LEVEL random, greedy "
        "(default) or search, e.g. --ai B:search; the play screen's side menus change it",
    )
    parser.add_argument(
        "--size",
        metavar="WxH",
        default="1280x800",
        help="initial window size in pixels (default 1280x800)",
    )
    parser.set_defaults(run=run)


def default_autosave_path() -> Path:
    """$XDG_STATE_HOME/tactical/autosave.json (~/.local/state when unset)."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "tactical" / "autosave.json"


def run(args: argparse.Namespace) -> int:
    from tactical.cli.render import parse_size
    from tactical.io.maps import load_map
    from tactical.io.paths import default_map_path
    from tactical.session.controller import Session
    from tactical.session.saving import Autosave

    size = parse_size(args.size)
    if args.seed is not None and args.seed < 0:
        raise UserError(f"--seed: a whole number >= 0, not {args.seed}")
    if args.autosave:
        autosave = Autosave(Path(args.autosave))
    else:
        autosave = Autosave(default_autosave_path())
        try:
            autosave.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise UserError(
                f"cannot make the autosave folder {str(autosave.path.parent)!r}: "
                f"{error.strerror} (give --autosave FILE)"
            ) from None
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    if args.resume:
        if args.map:
            raise UserError("--resume reopens the autosave: give no MAP with it")
        if not autosave.exists():
            raise UserError(f"--resume: there is no autosave at {str(autosave.path)!r}")
        session = Session.open(autosave.path, autosave)
        path = None
    else:
        path = Path(args.map) if args.map else default_map_path()
        if not path.is_file():
            raise UserError(f"file {str(path)!r} not found")
        if path.suffix.lower() == ".json":
            session = Session.open(path, autosave)
            autosave.write(session.history)
        else:
            session = Session.new(load_map(path), seed, autosave)
    import pygame

    from tactical.ui.ai_player import parse_seats
    from tactical.ui.app import App

    seats = parse_seats(args.ai, session.game.sides)

    try:
        app = App(
            session.game.initial,
            size,
            path=path if args.map and path and path.suffix != ".json" else None,
            seed=session.game.seed,
            session=session,
            ai=seats,
        )
    except pygame.error as error:
        raise UserError(
            f"cannot open a window: {error} (no display? `tactical render` draws without one)"
        ) from None
    try:
        return app.run()
    finally:
        # the window only: fonts stay usable for whoever calls us next (tests, a shell)
        pygame.display.quit()
