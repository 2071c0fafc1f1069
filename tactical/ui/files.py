"""Names for the files the play screen writes without asking (a log export, say), and
whether a name is a file the window already has (its map, saved again without asking)."""

from __future__ import annotations

from pathlib import Path


def free_name(stem: str, suffix: str) -> Path:
    """`stem-N.suffix` in the current folder with the first N not taken."""
    number = 1
    while (target := Path.cwd() / f"{stem}-{number}{suffix}").exists():
        number += 1
    return target


def same_file(path: Path, other: Path) -> bool:
    """Whether `path` and `other` name one file (a relative name, `..` or a link resolved)."""
    try:
        return path.resolve() == other.resolve()
    except OSError:
        return False
