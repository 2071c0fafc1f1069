"""Files: TOML maps, JSON saves and logs, validation errors."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tactical.io.map_save import save_map
    from tactical.io.maps import MapError, dumps_map, load_map, loads_map
    from tactical.io.paths import builtin_map, default_map_path

# each name's module: loaded when first asked for (PEP 562), so that `tactical.io.paths`
# alone (finding a map by name) does not load the map reader, the model and the rules
_MODULES = {
    "save_map": "map_save",
    **dict.fromkeys(("MapError", "dumps_map", "load_map", "loads_map"), "maps"),
    **dict.fromkeys(("builtin_map", "default_map_path"), "paths"),
}


def __getattr__(name: str):
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


__all__ = [
    "MapError",
    "builtin_map",
    "default_map_path",
    "dumps_map",
    "load_map",
    "loads_map",
    "save_map",
]
