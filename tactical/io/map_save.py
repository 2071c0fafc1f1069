"""Saving a map safely: "Save map as…", comments kept, nothing overwritten unasked.

- A map is never written inside the installed package (`paths.is_builtin`):
  the built-in maps are read-only examples.
- An existing file is overwritten only when the caller says so
  (`overwrite=True`, after asking the player); otherwise `FileExistsError`
  (a `UserError`) says which file.
- A map that was loaded from a file is saved over that file's text with
  tomlkit: every comment, the key order and the layout of what did not change
  stay; changed values are rewritten, removed units and pieces go, new ones
  are appended. The result is read back: if it does not give exactly the
  table being saved, the plain layout (`dumps_map`) is written instead and
  the result says the comments were not kept.
- Places, corners and headings are written to a hundredth (`map_numbers`), by
  "Save map as…", Ctrl+S and `save_map` alike.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tactical.errors import UserError
from tactical.io.files import output_path, write_text_atomic
from tactical.io.map_numbers import rounded_table
from tactical.io.maps import dumps_map, loads_map, map_document
from tactical.io.paths import is_builtin
from tactical.model import GameState
from tactical.rules import registry

if TYPE_CHECKING:
    from tomlkit.items import Table

# tomlkit is imported where a map is saved over its file (not when the play screen opens)

ASSUMED = "\0assumed"  # the key under which an item lists the values left to the loader


class MapExistsError(UserError):
    """The file exists and the caller did not say to overwrite it (ask the player first)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        super().__init__(f"{path} already exists: overwrite it, or choose another name")


@dataclass(frozen=True)
class MapSaved:
    """Where the map went and whether the loaded file's comments were kept."""

    path: Path
    comments_kept: bool
    note: str


def save_map_as(
    state: GameState,
    path: str | os.PathLike[str],
    *,
    overwrite: bool = False,
    original: str | None = None,
) -> MapSaved:
    """Write `state` as a TOML map to `path` (see the module docstring). `original` is the
    text of the file the map was loaded from, whose comments are kept."""
    target = Path(path)
    if target.suffix.lower() != ".toml":
        raise UserError(f"{target}: a map file name ends in .toml")
    if is_builtin(target):
        raise UserError(
            f"{target} is a built-in map inside the installed program: save your table under "
            "another name, in a folder of your own"
        )
    if target.is_dir():
        raise UserError(f"{target} is a folder: give a file name ending in .toml")
    output_path(target)  # the folder exists, the name fits, no device or pipe
    if target.exists() and not overwrite:
        raise MapExistsError(target)
    text, kept, note = map_text(state, original)
    write_text_atomic(target, text)
    return MapSaved(target, kept, note)


def save_map(state: GameState, path: str | os.PathLike[str]) -> None:
    """Write the map atomically (a temporary file in the same folder, then a rename), its
    numbers to a hundredth; no questions asked (`save_map_as` asks)."""
    write_text_atomic(Path(path), dumps_map(rounded_table(state)))


def map_text(state: GameState, original: str | None) -> tuple[str, bool, str]:
    """The text to write, whether the original's comments are in it, and a sentence saying so;
    its numbers to a hundredth (`rounded_table`: what loading the text gives back)."""
    state = rounded_table(state)
    if original is None:
        return dumps_map(state), False, "saved (a new map: written in the standard layout)"
    import tomlkit

    try:
        text = dumps_map_over(state, original)
        same = loads_map(text, "<saved map>") == state
    except (UserError, tomlkit.exceptions.TOMLKitError):
        same = False
    if same:
        return text, True, "saved, with the loaded file's comments and layout kept"
    return (
        dumps_map(state),
        False,
        "saved in the standard layout: the loaded file's comments could not be kept",
    )


def dumps_map_over(state: GameState, original: str) -> str:
    """`state` written over the text of the map it was loaded from, keeping its comments."""
    import tomlkit
    from tomlkit.items import Table

    document = tomlkit.parse(original)
    wanted = map_document(state)
    for key in ("title", "rules"):
        _set_or_drop(document, key, wanted.get(key))
    for key in ("board", "options"):
        if key not in wanted:
            document.pop(key, None)
        elif isinstance(document.get(key), Table):
            _update(document[key], wanted[key])
        else:
            document[key] = wanted[key]
    system = registry.get(state.rules)
    assumed = {"heading": 0.0, "movement": system.default_movement.value}
    assumed["size"] = system.default_size.value
    for key in ("terrain", "unit"):
        items = [_without_assumed(item, assumed) for item in wanted.get(key, [])]
        _update_items(document, key, items)
    return tomlkit.dumps(document)


def _without_assumed(item: dict[str, Any], assumed: Mapping[str, Any]) -> dict[str, Any]:
    """The item without the values a map may leave out (the loader assumes them), so that
    a file that left them out does not gain them."""
    dropped = {key: value for key, value in assumed.items() if item.get(key) == value}
    if item.get("name") == item.get("id"):
        dropped["name"] = item["id"]
    kept = {key: value for key, value in item.items() if key not in dropped}
    kept[ASSUMED] = dropped
    return kept


def _set_or_drop(container: Any, key: str, value: Any) -> None:
    if value is None:
        container.pop(key, None)
    elif key not in container or _plain(container[key]) != value:
        container[key] = value


def _update(container: Any, wanted: Mapping[str, Any]) -> None:
    """Set the keys of a tomlkit table to `wanted`, leaving equal values (and their layout).
    A key `wanted` leaves out is removed, unless it is in `wanted[ASSUMED]`: a value the
    loader assumes when it is left out, kept as the file wrote it."""
    from tomlkit.items import Table

    assumed = wanted.get(ASSUMED, {})
    for key in [k for k in container if k not in wanted and k not in assumed]:
        del container[key]
    for key, value in assumed.items():
        # left out, the loader assumes it; written with another value, it is rewritten
        if key in container and _plain(container[key]) != value:
            container[key] = value
    for key, value in wanted.items():
        if key == ASSUMED:
            continue
        current = container.get(key)
        if current is not None and _plain(current) == value:
            continue
        if isinstance(current, Table) and isinstance(value, Mapping):
            _update(current, value)
        else:
            container[key] = value


def _update_items(document: Any, key: str, wanted: list[dict[str, Any]]) -> None:
    import tomlkit
    from tomlkit.items import AoT

    existing = document.get(key)
    if not wanted:
        document.pop(key, None)
        return
    wanted_ids = [str(item["id"]) for item in wanted]
    if isinstance(existing, AoT):
        # in place, so that the blank lines and comments between the tables stay
        for index in reversed(range(len(existing))):
            if str(existing[index].get("id")) not in wanted_ids:
                del existing[index]
        kept = [str(table.get("id")) for table in existing]
        if kept == wanted_ids[: len(kept)]:
            for table, item in zip(existing, wanted, strict=False):
                _update(table, item)
            for item in wanted[len(kept) :]:
                existing.append(_new_table(item))
            return
    by_id = {str(t.get("id")): t for t in existing} if isinstance(existing, AoT) else {}
    items = tomlkit.aot()
    for item in wanted:
        table = by_id.get(str(item["id"]))
        if table is None:
            table = _new_table(item)
        else:
            _update(table, item)
        items.append(table)
    document[key] = items


def _new_table(item: Mapping[str, Any]) -> Table:
    import tomlkit

    table = tomlkit.table()
    for name, value in item.items():
        if name == ASSUMED:
            continue
        table[name] = _inline(value) if name != "stats" else value
    table.add(tomlkit.nl())
    return table


def _inline(value: Any) -> Any:
    """Bases and circles inline, as the map format lays them out."""
    if isinstance(value, Mapping):
        import tomlkit

        inline = tomlkit.inline_table()
        inline.update(value)
        return inline
    return value


def _plain(value: Any) -> Any:
    return value.unwrap() if hasattr(value, "unwrap") else value
