"""`tactical play [MAP]` (and `tactical` alone): the play screen in a pygame-ce window.

pygame is imported inside `run` only, so that every other command stays free of it.
"""

from __future__ import annotations

import argparse
import os
import secrets
from collections.abc import Callable
from pathlib import Path

from tactical.cli.declare import command
from tactical.errors import UserError


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    command(
        subparsers,
        "play",
        run,
        (
            (
                "map",
                {"metavar": "MAP", "nargs": "?", "help": "map file (TOML) or a saved game (JSON)"},
            ),
            (
                "--seed",
                {
                    "type": int,
                    "default": None,
                    "help": "the game's dice seed (default: a fresh one, shown in the log; "
                    "same seed and actions give the same game)",
                },
            ),
            (
                "--autosave",
                {
                    "metavar": "FILE",
                    "default": None,
                    "help": "where the game is saved after every action (default: a file per "
                    "game, named by its id, in $XDG_STATE_HOME/tactical/autosave/)",
                },
            ),
            (
                "--resume",
                {
                    "action": "store_true",
                    "help": "reopen the most recently autosaved game where it stopped (with "
                    "--autosave FILE: the latest of FILE and the games autosaved next "
                    "to it)",
                },
            ),
            (
                "--catalogue",
                {
                    "metavar": "FILE",
                    "default": None,
                    "help": "your own unit classes (TOML, docs/maps.md): added to the palette "
                    "and quick entry of adjust mode (F2)",
                },
            ),
            (
                "--ai",
                {
                    "metavar": "SIDE[:LEVEL]",
                    "default": None,
                    "help": "the computer plays SIDE (comma-separated for more): LEVEL random, "
                    "greedy (default) or search, e.g. --ai B:search; the play screen's "
                    "side menus change it",
                },
            ),
            (
                "--size",
                {
                    "metavar": "WxH",
                    "default": "1280x800",
                    "help": "initial window size in pixels (default 1280x800)",
                },
            ),
        ),
        help="play a game in a window: set up, move, fire with exact odds, undo, save",
        description="Open MAP (default: the built-in default map) or a saved game (.json) in a "
        "resizable window: set up terrain and deployment, then play the map's rule system turn "
        "by turn (moves with live preview, declarations, exact odds, seeded rolls, a log). The "
        "game is autosaved after every action. F1 lists every control.",
    )


MIN_WINDOW = (320, 240)
MAX_WINDOW = (16384, 16384)  # pixels: beyond any screen


def default_autosave_folder() -> Path:
    """$XDG_STATE_HOME/tactical/autosave/ (~/.local/state when unset): a file per game."""
    return _state_folder() / "autosave"


def legacy_autosave_path() -> Path:
    """The single autosave file of earlier versions (`--resume` still finds it)."""
    return _state_folder() / "autosave.json"


def _state_folder() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "tactical"


def window_size(text: str) -> tuple[int, int]:
    """--size WxH within MIN_WINDOW..MAX_WINDOW (a UserError saying what is allowed)."""
    from tactical.cli.render import parse_size

    width, height = parse_size(text)
    if not (MIN_WINDOW[0] <= width <= MAX_WINDOW[0] and MIN_WINDOW[1] <= height <= MAX_WINDOW[1]):
        raise UserError(
            f"--size {text!r}: the window is {MIN_WINDOW[0]} to {MAX_WINDOW[0]} pixels wide and "
            f"{MIN_WINDOW[1]} to {MAX_WINDOW[1]} high"
        )
    return width, height


def _checked_autosave_file(args: argparse.Namespace) -> Path | None:
    """--autosave FILE checked before anything is read or written (exit 2 when unusable)."""
    from tactical.io.files import output_path

    if not args.autosave:
        return None
    try:
        output_path(args.autosave)
    except UserError as error:
        raise UserError(f"--autosave {error.message}") from None
    return Path(args.autosave)


def _autosave_folder() -> Path:
    """The autosave folder, made if needed (once the game has loaded: a refused file
    writes nothing), with the leftovers of killed sessions removed."""
    from tactical.io.files import remove_stale_temps

    folder = default_autosave_folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(
            f"cannot make the autosave folder {str(folder)!r}: {error.strerror} "
            "(give --autosave FILE)"
        ) from None
    remove_stale_temps(folder)
    return folder


def _open_session(
    args: argparse.Namespace,
    path: Path | None,
    seed: int,
    check_sides: Callable[[tuple[str, ...]], None] | None = None,
):
    """The game to play: everything read and checked first (`check_sides`: a command's own
    check of the game's sides), the autosave written last."""
    from tactical.io.files import remove_stale_temps
    from tactical.io.maps import load_map
    from tactical.session.controller import Session
    from tactical.session.saving import Autosave, load_game

    file = _checked_autosave_file(args)
    if path is None:  # --resume
        if file is not None:
            found = Autosave.latest_of(file)
            if found is None:
                raise UserError(f"--resume: there is no autosave at {str(file)!r}")
            autosave = found
        else:
            folder = default_autosave_folder()
            found = Autosave.latest_in(folder, legacy_autosave_path()) if folder.is_dir() else None
            if found is None:
                raise UserError(f"--resume: there is no autosaved game in {str(folder)!r}")
            autosave = found
        history = load_game(autosave.path)
        remove_stale_temps(autosave.path.parent, autosave.path)
        return Session(history, autosave)
    if path.suffix.lower() == ".json":
        history = load_game(path)
        state = None
    else:
        state = load_map(path)
    if check_sides is not None:  # the map's sides as its units name them (no setup run twice)
        check_sides(state.sides if state is not None else history.game.sides)
    if file is not None:
        remove_stale_temps(file.parent, file)
        autosave = Autosave(file)
    else:
        autosave = Autosave.new_game_in(_autosave_folder())
    if state is not None:
        return Session.new(state, seed, autosave)
    own = autosave if autosave.is_for(path) else autosave.for_new_game()
    session = Session(history, own)
    session.write_autosave()
    return session


def run(args: argparse.Namespace) -> int:
    from tactical.io.files import is_file
    from tactical.io.paths import default_map_path

    size = window_size(args.size)
    if args.catalogue:
        from tactical.io.catalogue import load_catalogue

        load_catalogue(args.catalogue)  # a bad file is refused before any window opens
    if args.seed is not None and args.seed < 0:
        raise UserError(f"--seed: a whole number >= 0, not {args.seed}")
    if args.resume and args.map:
        raise UserError("--resume reopens the autosave: give no MAP with it")
    path = None if args.resume else Path(args.map) if args.map else default_map_path()
    if path is not None and not is_file(path):
        there = os.path.lexists(path) and not os.path.isdir(path)
        why = "is not a regular file (a device, a pipe or a socket)" if there else "not found"
        raise UserError(f"file {str(path)!r} {why}")
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    session = _open_session(args, path, seed)
    import pygame

    from tactical.ui.ai_player import parse_seats
    from tactical.ui.app import App
    from tactical.ui.stopping import run_stoppable

    seats = parse_seats(args.ai, session.game.sides)

    try:
        app = App(
            session.game.initial,
            size,
            path=path if args.map and path and path.suffix != ".json" else None,
            seed=session.game.seed,
            session=session,
            catalogue=args.catalogue,
        )
    except pygame.error as error:
        raise UserError(
            f"cannot open a window: {error} (no display? `tactical render` draws without one)"
        ) from None
    if seats:  # the sides the computer plays
        app.play.ai.set_seats(seats)
    # SIGTERM, SIGINT, SIGHUP close the window as its close button does: the loop ends and
    # stops the odds and computer-player processes (tactical.ui.stopping)
    try:
        return run_stoppable(app)
    finally:
        # the window only: fonts stay usable for whoever calls us next (tests, a shell)
        pygame.display.quit()
