"""Where a unit or a terrain piece may stand while the table is set up, in a player's words.

Setup mode (tactical.ui.setup_mode) moves units and terrain by hand before the game: a
unit stays on the table, wholly inside its side's deployment zone once the zones are
chosen (R002.17), and clear of the other units (R002.33); a terrain piece stays on the
table and off the other pieces. Each check returns why not ("" when it may), so the
status line can say it. No pygame.
"""

from __future__ import annotations

from dataclasses import replace

from tactical.model import Circle, GameState, Terrain, Unit
from tactical.physics.overlap import LayerOf, overlapping_pairs
from tactical.session.deployment import OVERLAP_RULE, ZONE_RULE, Deployment, is_deployed_in

SLACK = 1e-9  # inches: a base touching the table's edge is on the table


def shifted_terrain(piece: Terrain, offset: tuple[float, float]) -> Terrain:
    """The piece moved by `offset` inches (a new value; the shape is unchanged)."""
    dx, dy = offset
    if piece.circle is not None:
        c = piece.circle
        return replace(piece, circle=Circle(c.x + dx, c.y + dy, c.radius))
    assert piece.polygon is not None
    return replace(piece, polygon=tuple((x + dx, y + dy) for x, y in piece.polygon))


def placement_problem(
    state: GameState, unit: Unit, deployment: Deployment | None, los_level: LayerOf
) -> str:
    """Why `unit` may not stand where it is on `state`'s table ("" when it may);
    `los_level` is the rule system's (what overlaps what)."""
    x0, y0, x1, y1 = unit.footprint.bounds
    bx0, by0, bx1, by1 = state.board.bounds
    if x0 < bx0 - SLACK or y0 < by0 - SLACK or x1 > bx1 + SLACK or y1 > by1 + SLACK:
        return f"{unit.id} would stand off the table"
    if deployment is None:
        return ""
    zone = deployment.zones.get(unit.side)
    if zone is not None and not is_deployed_in(unit, zone):
        return (
            f"{unit.id} is not wholly inside side {unit.side}'s deployment zone "
            f"({zone.edge} edge) [{ZONE_RULE}]"
        )
    units = tuple(unit if u.id == unit.id else u for u in state.units)
    clash = overlapping_pairs(units, los_level, among=(unit.id,))
    if clash:
        a, b = clash[0]
        return f"{a} and {b} would overlap [{OVERLAP_RULE}]"
    return ""


def terrain_problem(state: GameState, moved: Terrain) -> str:
    """Why the piece `moved` may not lie where it is ("" when it may): off the table, or
    over another piece."""
    bx0, by0, bx1, by1 = state.board.bounds
    x0, y0, x1, y1 = moved.geometry.bounds
    if x0 < bx0 or y0 < by0 or x1 > bx1 or y1 > by1:
        return f"terrain {moved.id} would lie off the table"
    for other in state.terrain:
        if other.id != moved.id and other.geometry.intersects(moved.geometry):
            return f"terrain {moved.id} would overlap {other.id}"
    return ""
