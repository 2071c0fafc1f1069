"""The built-in maps (TOML), installed as package data: tactical.maps."""
