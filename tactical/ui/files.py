"""Names for the files the play screen writes without asking (a log export, say)."""

from __future__ import annotations

from pathlib import Path


def free_name(stem: str, suffix: str) -> Path:
    """`stem-N.suffix` in the current folder with the first N not taken."""
    number = 1
    while (target := Path.cwd() / f"{stem}-{number}{suffix}").exists():
        number += 1
    return target
