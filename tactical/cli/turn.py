"""`tactical turn GAME [--side S] [--out FILE]`: play your go of a game by file.

Play-by-email with dice neither player can foresee or choose (`session.by_file`): open
the file the other player sent, play your go in the play screen, and send the file back.
What needs no choosing is done as soon as the file is opened: joining the game, giving
your nonce to the other player's roll, revealing your own roll once the other's nonce is
in. `--no-window` does only that, says what it did and what to do next.

pygame is imported only when the window opens.
"""

from __future__ import annotations

import argparse
import secrets
from pathlib import Path

from tactical.cli.declare import WINDOW_SIZE, command
from tactical.errors import UserError


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    command(
        subparsers,
        "turn",
        run,
        (
            (
                "game",
                {
                    "metavar": "GAME",
                    "help": "the game's file (.json), or a map to start a new game",
                },
            ),
            (
                "--side",
                {
                    "default": None,
                    "help": "the side you play (default: the side whose secret file is next to "
                    "GAME, the side that has not joined yet, or, for a new game, the "
                    "side that acts first)",
                },
            ),
            (
                "--out",
                {
                    "metavar": "FILE",
                    "default": None,
                    "help": "where the game is written (default: GAME itself; for a new game, "
                    "the map's name with .json in this folder). Only this game's own "
                    "file is ever written over",
                },
            ),
            (
                "--secret",
                {
                    "metavar": "FILE",
                    "default": None,
                    "help": "your secret file for this game (default: next to the game's file, "
                    "named after it and your side; made the first time you play, "
                    "readable by you only)",
                },
            ),
            (
                "--no-window",
                {
                    "action": "store_true",
                    "help": "only do what needs no choosing, say what was done and what to do next",
                },
            ),
            (
                "--seed",
                {
                    "type": int,
                    "default": None,
                    "help": "a new game's seed (kept in the file; its dice come from the "
                    "players' chains and nonces, not from the seed)",
                },
            ),
            WINDOW_SIZE,
        ),
        help="play your go of a game by file (play by email) with dice no one can foresee",
        description="Open GAME, the game file the other player sent (or a map, to start a "
        "new game by file), do what needs no choosing (join, give your nonce to the other "
        "player's roll, reveal your own), then play your go in a window. The file is "
        "written after every step: send it to the player it names.",
    )


def run(args: argparse.Namespace) -> int:
    from tactical.io.files import output_path
    from tactical.session.by_file_session import FileTurnSession

    size = None
    if not args.no_window:
        from tactical.cli.play import window_size

        size = window_size(args.size)
    own, secret, secret_file, played = _opened(args)
    try:
        output_path(secret_file)
    except UserError as error:
        raise UserError(f"--secret {error.message}") from None
    session = FileTurnSession(played, own, secret, secret_file)
    try:
        notes = session.catch_up()
    except UserError as error:
        raise UserError(f"{args.game}: {error.message}", spec_id=error.spec_id) from None
    for note in notes:
        print(note)
    if session.autosave_problem:
        raise UserError(session.autosave_problem)
    print(_next(session, own))
    if args.no_window:
        return 0
    code = _window(session, size)
    print(_next(session, own))
    return code


def _next(session, own: Path) -> str:
    """What to do next, in words."""
    outcome = session.outcome
    if outcome is not None and session.pending is None:
        return (
            f"the game is over: {outcome.headline()}. Send {own.name} to the other players so "
            f"they have the end; `tactical verify {own}` checks every roll"
        )
    held = session.hold_reason()
    if held is not None:
        return held
    return f"{session.side}'s go: play it with `tactical turn {own} --side {session.side}`"


def _opened(args: argparse.Namespace):
    """Everything read and checked before anything is written: the game's own file, the
    side, its secret (made new when the side has not joined), the game."""
    from tactical.io.files import is_file, output_path
    from tactical.io.maps import load_map
    from tactical.io.paths import find_map
    from tactical.io.saves import read_save
    from tactical.session.by_file import from_saved, start_game
    from tactical.session.file_secrets import SideSecret, load_secret, secret_path
    from tactical.session.game import Game

    given = Path(args.game)
    is_save = given.suffix.lower() == ".json"
    if is_save and not is_file(given):
        raise UserError(f"file {str(given)!r} not found (the game's file, .json)")
    source = given if is_save else find_map(args.game)
    own = Path(args.out) if args.out else given if is_save else Path(f"{source.stem}.json")
    try:
        output_path(own)
    except UserError as error:
        raise UserError(f"--out {error.message}") from None
    if is_save:
        saved = read_save(given)
        sides = tuple(Game.new(saved.initial, saved.seed).sides)
        if own.exists() and not _same_file(own, given):
            _refuse_other_game(own, saved)
    else:
        if args.seed is not None and args.seed < 0:
            raise UserError(f"--seed: a whole number >= 0, not {args.seed}")
        if own.exists():
            raise UserError(
                f"{str(own)!r} already exists: give --out FILE for the new game, or play on "
                f"the game in it with `tactical turn {own}`"
            )
        state = load_map(source)
        seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
        fresh = start_game(state, seed)
        sides = tuple(fresh.game.sides)
    ledger = saved.fair if is_save else None
    side = _side(args.side, sides, own, ledger, None if is_save else fresh)
    secret_file = Path(args.secret) if args.secret else secret_path(own, side)
    joined = ledger is not None and bool(ledger.chains_of(side))
    if secret_file.exists():
        secret = load_secret(secret_file, side)
    elif joined:
        raise UserError(
            f"{side} has played this game, but its secret file {str(secret_file)!r} is not "
            "there: give --secret FILE (it was made next to the game's file the first time "
            f"{side} played); without it {side}'s rolls cannot be revealed"
        )
    else:
        secret = SideSecret.new(side)
    played = from_saved(saved, str(given), [secret]) if is_save else fresh
    return own, secret, secret_file, played


def _same_file(one: Path, other: Path) -> bool:
    try:
        return one.resolve() == other.resolve()
    except OSError:
        return False


def _refuse_other_game(own: Path, saved) -> None:
    """--out names an existing file: only this game's own file (an earlier copy of it) may
    be written over."""
    from tactical.io.saves import read_save

    try:
        there = read_save(own)
    except UserError:
        there = None
    same = (
        there is not None
        and (there.seed, there.rules) == (saved.seed, saved.rules)
        and there.initial == saved.initial
        and len(there.actions) <= len(saved.actions)
        and all(
            (a.kind, a.actor, a.params, a.rolls, a.fair)
            == (b.kind, b.actor, b.params, b.rolls, b.fair)
            for a, b in zip(there.actions, saved.actions, strict=False)
        )
    )
    if not same:
        raise UserError(
            f"--out {str(own)!r} already exists and does not hold an earlier point of this "
            "game: it is not written over (give another --out)"
        )


def _side(wanted: str | None, sides: tuple[str, ...], own: Path, ledger, fresh) -> str:
    """The side played here (see --side)."""
    from tactical.session.file_secrets import secret_path

    if wanted is not None:
        if wanted not in sides:
            raise UserError(f"--side {wanted!r}: this game's sides are {', '.join(sides)}")
        return wanted
    if fresh is not None:
        return fresh.game.side_to_act
    here = [s for s in sides if secret_path(own, s).exists()]
    if len(here) == 1:
        return here[0]
    if not here and ledger is not None:
        new = [s for s in sides if not ledger.chains_of(s)]
        if len(new) == 1:
            return new[0]
    raise UserError(f"which side do you play? give --side (one of {', '.join(sides)})")


def _window(session, size: tuple[int, int] | None) -> int:
    import pygame

    from tactical.ui.app import App
    from tactical.ui.stopping import run_stoppable

    try:
        app = App(session.game.initial, size, seed=session.game.seed, session=session)
    except pygame.error as error:
        raise UserError(
            f"cannot open a window: {error} (no display? --no-window does what needs no choosing)"
        ) from None
    try:
        return run_stoppable(app)
    finally:
        pygame.display.quit()
