"""`tactical play [MAP]` (and `tactical` alone): the play screen in a pygame-ce window.

pygame is imported inside `run` only, so that every other command stays free of it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tactical.errors import UserError


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "play",
        help="open the table in a window: inspect, measure, set up",
        description="Open MAP (default: the built-in default map) in a resizable window to "
        "inspect units, measure, set up terrain and deployment. F1 lists every control.",
    )
    parser.add_argument("map", metavar="MAP", nargs="?", help="map file (TOML)")
    parser.add_argument(
        "--size",
        metavar="WxH",
        default="1280x800",
        help="initial window size in pixels (default 1280x800)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from tactical.cli.render import parse_size
    from tactical.io.maps import load_map
    from tactical.io.paths import default_map_path

    size = parse_size(args.size)
    path = Path(args.map) if args.map else default_map_path()
    if not path.is_file():
        raise UserError(f"map file {str(path)!r} not found")
    state = load_map(path)
    import pygame

    from tactical.ui.app import App

    try:
        app = App(state, size, path=path if args.map else None)
    except pygame.error as error:
        raise UserError(
            f"cannot open a window: {error} (no display? `tactical render` draws without one)"
        ) from None
    try:
        return app.run()
    finally:
        # the window only: fonts stay usable for whoever calls us next (tests, a shell)
        pygame.display.quit()
