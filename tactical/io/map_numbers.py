"""The numbers a map file is saved with: places, corners and headings to a hundredth.

A drag, a turned piece or a random placement leaves values such as 23.094010767585 in
the table; the saved map reads 23.09, which a player can check with a tape measure and
which no table could tell apart. Rounding never puts an item off the table nor makes a
polygon's edges cross: such an item keeps its exact numbers. A game's save (JSON) is not
rounded: a replay must start from the very table the game was played on.
"""

from __future__ import annotations

from dataclasses import replace

from shapely.geometry import Polygon

from tactical.io.maps import on_board
from tactical.model import Board, Circle, GameState, Pose, Terrain, Unit

SAVED_PLACES = 2  # inches (and degrees) to a hundredth


def rounded_table(state: GameState, places: int = SAVED_PLACES) -> GameState:
    """`state` with every unit's place and heading and every terrain piece's corners,
    centre and radius rounded to `places` decimals (see the module docstring)."""
    return replace(
        state,
        units=tuple(_unit(unit, state.board, places) for unit in state.units),
        terrain=tuple(_piece(piece, state.board, places) for piece in state.terrain),
    )


def _round(value: float, places: int) -> float:
    return round(float(value), places) + 0.0  # never -0.0


def _unit(unit: Unit, board: Board, places: int) -> Unit:
    pose = Pose(*(_round(v, places) for v in (unit.pose.x, unit.pose.y, unit.pose.heading)))
    if pose == unit.pose:
        return unit
    rounded = replace(unit, pose=pose)
    return rounded if on_board(rounded.footprint, board) else unit


def _piece(piece: Terrain, board: Board, places: int) -> Terrain:
    if piece.circle is not None:
        circle = piece.circle
        radius = _round(circle.radius, places)
        if radius <= 0:
            return piece
        rounded = replace(
            piece, circle=Circle(_round(circle.x, places), _round(circle.y, places), radius)
        )
    else:
        corners = tuple((_round(x, places), _round(y, places)) for x, y in piece.polygon or ())
        shape = Polygon(corners)
        if not shape.is_valid or shape.area <= 0:
            return piece
        rounded = replace(piece, polygon=corners)
    return rounded if on_board(rounded.geometry, board) else piece
