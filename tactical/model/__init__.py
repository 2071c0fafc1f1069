"""Immutable value types: Board, Terrain, Unit, Pose, GameState."""

from tactical.geometry.shapes import Base, CircleBase, Pose, RectBase
from tactical.model.board import EDGES, OPPOSITE_EDGE, Area, Board
from tactical.model.frozen import FrozenMap, freeze, thaw
from tactical.model.state import GameState
from tactical.model.units import (
    Circle,
    MovementClass,
    SizeClass,
    Terrain,
    TerrainKind,
    Unit,
    terrain_kind_words,
    terrain_names,
)

__all__ = [
    "EDGES",
    "OPPOSITE_EDGE",
    "Area",
    "Base",
    "Board",
    "Circle",
    "CircleBase",
    "FrozenMap",
    "GameState",
    "MovementClass",
    "Pose",
    "RectBase",
    "SizeClass",
    "Terrain",
    "TerrainKind",
    "Unit",
    "freeze",
    "terrain_kind_words",
    "terrain_names",
    "thaw",
]
