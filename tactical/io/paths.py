"""Where the built-in maps live."""

from __future__ import annotations

from pathlib import Path

# The repository's maps/ folder (the package is installed editable from the repo).
MAPS_DIR = Path(__file__).resolve().parents[2] / "maps"
DEFAULT_MAP = "default.toml"


def builtin_map(name: str) -> Path:
    """Path of a map shipped in maps/ (with or without the .toml suffix)."""
    file = name if name.endswith(".toml") else f"{name}.toml"
    return MAPS_DIR / file


def default_map_path() -> Path:
    """The built-in default scenario: a 6'x4' Dystopian Wars table."""
    return builtin_map(DEFAULT_MAP)
