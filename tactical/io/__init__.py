"""Files: TOML maps, JSON saves and logs, validation errors."""

from tactical.io.map_save import save_map
from tactical.io.maps import MapError, dumps_map, load_map, loads_map
from tactical.io.paths import builtin_map, default_map_path

__all__ = [
    "MapError",
    "builtin_map",
    "default_map_path",
    "dumps_map",
    "load_map",
    "loads_map",
    "save_map",
]
