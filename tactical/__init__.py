"""tactical: a 2D tactical map simulator for tabletop naval and space wargames."""

__version__ = "0.1.0"
