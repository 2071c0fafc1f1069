"""A subcommand declared as data: its words, the function it runs, and its options in
order, each as `add_argument` takes it (names, then settings), or a shared flag by name.

Every command's parser is built the same way, so a command file states only what it
takes; `--help` reads as it did when each file spelled out its own `add_argument` calls.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from tactical.errors import UserError

# an option: ("--flag", "-f", {settings}) or the name of a shared one
Option = tuple[Any, ...] | str

MAP = ("map", {"metavar": "MAP", "help": "map file (TOML)"})  # a command's first argument
JSON_OUTPUT = ("--json", {"action": "store_true", "help": "machine-readable output"})
JSON_KEYS = ("--json", {"action": "store_true", "help": "print JSON (stable keys)"})
WINDOW_SIZE = (
    "--size",
    {"metavar": "WxH", "default": "1280x800", "help": "window size (default 1280x800)"},
)


def command(
    subparsers: Any,
    name: str,
    run: Callable[[argparse.Namespace], int],
    options: Sequence[Option],
    *,
    shared: Mapping[str, Mapping[str, Any]] | None = None,
    **words: Any,
) -> argparse.ArgumentParser:
    """The subcommand `name` (`help=` and `description=` in `words`) running `run`, with
    its `options` in order: a flag named in `shared`, or the names and settings of one
    `add_argument`."""
    parser = subparsers.add_parser(name, **words)
    for option in options:
        if isinstance(option, str):
            parser.add_argument(option, **(shared or {})[option])
        else:
            *names, settings = option
            parser.add_argument(*names, **settings)
    parser.set_defaults(run=run)
    return parser


def existing_map(path: str) -> Path:
    """The map file a command was given, or one clear message when there is none."""
    found = Path(path)
    if not found.is_file():
        raise UserError(f"map file {path!r} not found")
    return found
