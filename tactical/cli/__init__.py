"""The `tactical` console script (docs/architecture.md "Command line").

Each command lives in its own module here with `add_parser(subparsers)`; the
parser's `run(args) -> int` default does the work. A `UserError` anywhere
becomes one line on stderr and exit code 2; nothing is changed.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import warnings
from collections.abc import Sequence

from tactical.cli.plain_output import printable_streams
from tactical.errors import UserError

# module name under tactical.cli for each command, in help order
COMMANDS = (
    "play", "check", "move", "terrain", "odds", "roll", "render", "replay", "card", "print",
    "threat", "lab", "host", "join", "serve", "turn", "verify",
)  # fmt: skip
# a command whose module is named otherwise: `tactical.cli.print` would shadow the builtin print
# inside this package
MODULES = {"print": "print_kit"}


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage mistakes as a UserError (one line, exit 2)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UserError(f"{self.prog}: {message}")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser; with `only`, just that command's (so that a command loads
    its own modules and no other's: `tactical check` stays quick and never loads pygame)."""
    parser = _Parser(
        prog="tactical",
        description="2D tactical map simulator for tabletop naval and space wargames.",
    )
    subparsers = parser.add_subparsers(dest="command", parser_class=_Parser)
    for name in COMMANDS if only is None else (only,):
        try:
            module_name = f"tactical.cli.{MODULES.get(name, name)}"
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name != module_name:
                raise
            continue
        module.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    # The command's own words only: a library's warning (shapely's RuntimeWarning on a
    # number near the float limit) would be a second line on stderr next to the message.
    # Nothing a command prints carries a control character: a name in a map is the user's
    # text, and an escape sequence in it must not reach the terminal (`plain_output`).
    with warnings.catch_warnings(), printable_streams():
        warnings.simplefilter("ignore")
        return _main(argv)


def _main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    try:
        parser = build_parser(args_list[0] if args_list and args_list[0] in COMMANDS else None)
        if not args_list:
            return _default(parser)
        args = parser.parse_args(args_list)
        if not getattr(args, "run", None):
            parser.print_help()
            return 2
        _find_map(args)
        return int(args.run(args) or 0)
    except UserError as error:
        print(f"tactical: {error.describe()}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (`tactical roll ... | head`): not an error of ours; keep
        # Python from complaining again when it flushes stdout at exit
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


def _find_map(args: argparse.Namespace) -> None:
    """Every command's MAP: a file where one is there, else a built-in map by its name
    (`tactical play battlefleet-mars`, `tactical check heavy-combat`, from any folder)."""
    if isinstance(getattr(args, "map", None), str):
        from tactical.io.paths import find_map  # here: a command without a map loads no io

        args.map = str(find_map(args.map))


def _default(parser: argparse.ArgumentParser) -> int:
    """`tactical` alone: the play screen on the default map (its check table without one)."""
    try:
        play = importlib.import_module("tactical.cli.play")
    except ModuleNotFoundError:
        from tactical.io.paths import default_map_path

        check = importlib.import_module("tactical.cli.check")
        return check.run(parser.parse_args(["check", str(default_map_path())]))
    return play.run(parser.parse_args(["play"]))
