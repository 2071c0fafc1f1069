"""Names for the files the play screen writes without asking (a log export, say), and
whether a name is a file the window already has (its map, saved again without asking)."""

from __future__ import annotations

from pathlib import Path

from tactical.io.paths import is_builtin


def free_name(stem: str, suffix: str) -> Path:
    """`stem-N.suffix` in the current folder with the first N not taken."""
    number = 1
    while (target := Path.cwd() / f"{stem}-{number}{suffix}").exists():
        number += 1
    return target


def same_file(path: Path, other: Path | None) -> bool:
    """Whether `path` and `other` name one file (a relative name, `..` or a link resolved)."""
    if other is None:
        return False
    try:
        return path.resolve() == other.resolve()
    except OSError:
        return False


def dialog_start(path: Path | None, existing: bool) -> Path:
    """Where a file dialog opens: the folder of the window's file, but never the built-in
    maps' folder for a save (nothing can be written there), else the current folder."""
    if path is None or (not existing and is_builtin(path)):
        return Path.cwd()
    return path.parent


def builtin_note(path: Path | None) -> str:
    """What the status line says when a save of `path` asks for a name instead ("" when
    the map has no file yet)."""
    return f"{path.name} is a built-in map: save it under a name of yours" if path else ""
