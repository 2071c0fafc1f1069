"""Where the built-in maps and assets live: package data, found with importlib.resources.

The repository keeps them at its top level (maps/, assets/); the build installs
them inside the package as ``tactical.maps`` and ``tactical.assets``, so an
editable and a normal install find them the same way.
"""

from __future__ import annotations

import os
from pathlib import Path

from tactical.errors import UserError

DEFAULT_MAP = "default.toml"


def _package_folder(package: str) -> Path:
    """A data package's folder on disk (wheels and editable installs both unpack to files)."""
    from importlib import resources  # here: a map given as a file path needs none of it

    return Path(str(resources.files(package)))


def maps_dir() -> Path:
    """The folder of the built-in maps."""
    return _package_folder("tactical.maps")


def assets_dir() -> Path:
    """The folder of the bundled assets (terrain library, fonts, icons)."""
    return _package_folder("tactical.assets")


def builtin_map(name: str) -> Path:
    """Path of a built-in map (with or without the .toml suffix)."""
    file = name if name.endswith(".toml") else f"{name}.toml"
    return maps_dir() / file


def builtin_map_names() -> tuple[str, ...]:
    """The built-in maps by the names a command takes (battlefleet-mars, ...), sorted."""
    return tuple(sorted(path.stem for path in maps_dir().glob("*.toml")))


def find_map(text: str) -> Path:
    """The map a command's MAP names: the file of that name where there is one (anything
    there: the command says what is wrong with it), else the built-in map of that name
    (`tactical play battlefleet-mars`, from any folder); a UserError listing the built-in
    names otherwise."""
    path = Path(text)
    if os.path.lexists(path):
        return path
    name = text.strip().lower().removesuffix(".toml")
    names = builtin_map_names()
    if name in names and "/" not in name and os.sep not in name:
        return builtin_map(name)
    raise UserError(
        f"map {text!r} not found: no such file, and no built-in map of that name "
        f"(built-in maps: {', '.join(names)})"
    )


def default_map_path() -> Path:
    """The built-in default scenario: a 6'x4' Dystopian Wars table."""
    return builtin_map(DEFAULT_MAP)


def is_builtin(path: Path) -> bool:
    """Whether ``path`` lies inside the installed package's data (never to be written)."""
    try:
        resolved = path.resolve()
    except OSError:
        return False
    return any(resolved.is_relative_to(folder.resolve()) for folder in (maps_dir(), assets_dir()))
