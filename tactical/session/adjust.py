"""Adjusting the table by hand: move, turn, add, delete, reshape, restat.

A player copies a physical table into the tool, or makes the screen follow the
real table after a nudge. Every adjustment is an `Action` of kind `adjust`
whose `actor` is the unit or terrain piece it touches and whose `op` says what:

- `move` — a unit to `x`, `y`, `heading`; a terrain piece by `dx`, `dy` and
  `turn` (degrees, about its centre);
- `add` — a new unit (`unit`: a `[[unit]]` table) or piece (`terrain`: a
  `[[terrain]]` table), in the map file's format;
- `delete` — the unit or piece goes;
- `reshape` — a piece's new `polygon` or `circle` (vertex moves, inserted and
  removed vertices are built by `move_vertex`, `insert_vertex`, `remove_vertex`);
- `set` — a unit's `name`, `side` and `stats` keys; `unset` lists stats keys to
  remove (the rule system then reads the unit anew from its stats);
- `status` — a unit's status `values` in a game (its damage state: hull left,
  shields, wounds...), the keys of `RuleSystem.status_fields`, set where the rule
  system keeps them (`RuleSystem.set_status`: its stats or its rule state) and
  nothing else of the game changed; a value over its maximum or below 0 is refused.

Each change is checked exactly as a map file is (`io.maps.read_unit` /
`read_terrain`: the rule system's stats schema, a simple polygon, the whole
base on the table, unique ids), so a bad one is one `UserError` and nothing
changes. In a game (`Game.apply`) an adjustment is allowed at any moment, is
not a go (whose go it is does not change), rolls no dice, and is saved,
undone and replayed like any other step; the rule system keeps its rule state
through `RuleSystem.adjusted`. `TableDraft` is the same adjustments on a table
with no game yet (File → New: an empty table cannot start a game).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from shapely.geometry import Polygon

from tactical.errors import UserError
from tactical.geometry.shapes import CircleBase, Pose
from tactical.io.limits import MAX_COORDINATE
from tactical.io.maps import EDGE_TOLERANCE, read_terrain, read_unit, terrain_table, unit_table
from tactical.model import Board, FrozenMap, GameState, Terrain, Unit, terrain_kind_words, thaw
from tactical.rules import registry
from tactical.rules.adjusting import checked_status, status_sentence
from tactical.rules.base import Action, Event, TurnPosition, unit_name

ADJUST = "adjust"
OPS = ("move", "add", "delete", "reshape", "set", "status")
# what only moves a unit or a piece: no unit comes or goes, no rule's bookkeeping follows it
MOVES = ("move",)
SOURCE = "adjust"
UNIT_SETTABLE = ("name", "side", "stats", "unset")
PLACES = 2  # decimals of inches in the log's sentences
COORDINATE_PLACES = 6  # a turned outline's vertices, in inches: far below any measure
CLEAR = 1e-3  # inches: a base this far inside every edge needs no outline to say so


@dataclass(frozen=True)
class Adjustment:
    """An adjustment applied: the table after it and the sentence the log shows, naming
    units and pieces as a player reads them (`GameState.shown_names`,
    `shown_terrain_names`), not by id."""

    state: GameState
    change: str

    @property
    def event(self) -> Event:
        return Event.of(ADJUST, None, change=self.change)


# --------------------------------------------------------------------------- declaring


def move_unit(unit_id: str, x: float, y: float, heading: float = 0.0) -> Action:
    """Put a unit at (x, y) facing `heading` degrees."""
    return _action(unit_id, "move", x=float(x), y=float(y), heading=float(heading))


def move_terrain(piece_id: str, dx: float = 0.0, dy: float = 0.0, turn: float = 0.0) -> Action:
    """Shift a terrain piece by (dx, dy) and turn it `turn` degrees about its centre."""
    return _action(piece_id, "move", dx=float(dx), dy=float(dy), turn=float(turn))


def add_unit(table: Mapping[str, Any]) -> Action:
    """Add a unit given as a `[[unit]]` table of the map format."""
    return _action(_table_id(table, "unit"), "add", unit=thaw(table))


def add_terrain(table: Mapping[str, Any]) -> Action:
    """Add a terrain piece given as a `[[terrain]]` table of the map format."""
    return _action(_table_id(table, "terrain"), "add", terrain=thaw(table))


def delete(item_id: str) -> Action:
    """Take a unit or terrain piece off the table."""
    return _action(item_id, "delete")


def reshape(
    piece_id: str,
    polygon: Sequence[Sequence[float]] | None = None,
    circle: Mapping[str, float] | None = None,
) -> Action:
    """Give a terrain piece a new outline: a polygon or a circle {x, y, radius}."""
    if (polygon is None) == (circle is None):
        raise UserError(f"reshaping {piece_id!r} needs exactly one of a polygon or a circle")
    if polygon is not None:
        return _action(piece_id, "reshape", polygon=[[float(x), float(y)] for x, y in polygon])
    assert circle is not None
    return _action(piece_id, "reshape", circle={k: float(v) for k, v in circle.items()})


def set_unit(
    unit_id: str,
    *,
    name: str | None = None,
    side: str | None = None,
    stats: Mapping[str, Any] | None = None,
    unset: Sequence[str] = (),
) -> Action:
    """Change a unit's name, side or stats keys (its damage state where the rule system keeps
    it in the stats); `unset` removes stats keys."""
    params: dict[str, Any] = {}
    if name is not None:
        params["name"] = name
    if side is not None:
        params["side"] = side
    if stats:
        params["stats"] = thaw(stats)
    if unset:
        params["unset"] = list(unset)
    return _action(unit_id, "set", **params)


def set_status(unit_id: str, values: Mapping[str, Any]) -> Action:
    """Set a unit's status values in a game (its damage state), by the keys of its rule
    system's `status_fields`: `set_status("enterprise", {"shield_fore": 4})`."""
    return _action(unit_id, "status", values=thaw(values))


def move_vertex(state: GameState, piece_id: str, index: int, x: float, y: float) -> Action:
    """Drag vertex `index` of a polygon piece to (x, y)."""
    points = _polygon_points(state, piece_id, index)
    points[index] = [float(x), float(y)]
    return reshape(piece_id, points)


def insert_vertex(state: GameState, piece_id: str, after: int, x: float, y: float) -> Action:
    """Add a vertex at (x, y) on the edge after vertex `after`."""
    points = _polygon_points(state, piece_id, after)
    points.insert(after + 1, [float(x), float(y)])
    return reshape(piece_id, points)


def remove_vertex(state: GameState, piece_id: str, index: int) -> Action:
    """Remove vertex `index` of a polygon piece (a polygon keeps at least 3)."""
    points = _polygon_points(state, piece_id, index)
    if len(points) <= 3:
        raise UserError(f"terrain {piece_id!r} has 3 vertices: a polygon cannot have fewer")
    del points[index]
    return reshape(piece_id, points)


def rectangle_table(
    piece_id: str, kind: str, height: str, corner: Sequence[float], opposite: Sequence[float]
) -> dict[str, Any]:
    """A `[[terrain]]` table for a rectangle dragged from `corner` to `opposite`."""
    x0, x1 = sorted((float(corner[0]), float(opposite[0])))
    y0, y1 = sorted((float(corner[1]), float(opposite[1])))
    polygon = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
    return {"id": piece_id, "kind": kind, "height": height, "polygon": polygon}


def circle_table(
    piece_id: str, kind: str, height: str, centre: Sequence[float], rim: Sequence[float]
) -> dict[str, Any]:
    """A `[[terrain]]` table for a circle dragged from its centre out to `rim`."""
    radius = math.dist((float(centre[0]), float(centre[1])), (float(rim[0]), float(rim[1])))
    circle = {"x": float(centre[0]), "y": float(centre[1]), "radius": radius}
    return {"id": piece_id, "kind": kind, "height": height, "circle": circle}


def free_id(state: GameState, stem: str, numbered: bool = False) -> str:
    """The first of `stem`, `stem-2`, `stem-3`... (`numbered`: `stem-1`, `stem-2`...) not
    used by a unit or piece of the table."""
    taken = _taken(state)
    stem = stem.strip().replace(" ", "-").lower() or "piece"
    if stem not in taken and not numbered:
        return stem
    number = 1 if numbered else 2
    while f"{stem}-{number}" in taken:
        number += 1
    return f"{stem}-{number}"


# the parameters each op takes, of a unit or a terrain piece (`op` itself besides)
OP_PARAMS = {
    "move": ("x", "y", "heading", "dx", "dy", "turn"),
    "add": ("unit", "terrain"),
    "delete": (),
    "reshape": ("polygon", "circle"),
    "set": (*UNIT_SETTABLE, "kind", "height"),
    "status": ("values",),
}


def adjust_params(op: Any) -> tuple[str, ...]:
    """The parameters an adjustment of `op` may have (all of every op's for an unknown op:
    applying it says what is wrong with the op)."""
    if op in OP_PARAMS:
        return ("op", *OP_PARAMS[op])
    return ("op", *dict.fromkeys(key for keys in OP_PARAMS.values() for key in keys))


def is_adjustment(action: Action) -> bool:
    return action.kind == ADJUST


# --------------------------------------------------------------------------- applying


def adjust_table(state: GameState, action: Action) -> Adjustment:
    """The table after `action` (see the module docstring); UserError and nothing changed
    when the action is malformed or the result is not a valid table."""
    if action.kind != ADJUST:
        raise UserError(f"{action.kind!r} is not an adjustment of the table")
    params = dict(action.params)
    op = params.pop("op", None)
    if op not in OPS:
        raise UserError(f"adjust {action.actor!r}: op must be one of {', '.join(OPS)}, not {op!r}")
    if op == "add":
        return _add(state, action.actor, params)
    if state.has_unit(action.actor):
        return _adjust_unit(state, state.unit(action.actor), op, params)
    try:
        piece = state.terrain_piece(action.actor)
    except KeyError:
        raise UserError(
            f"adjust: no unit or terrain piece {action.actor!r} on the table" + _known(state)
        ) from None
    return _adjust_terrain(state, piece, op, params)


def adjust_in_game(
    state: GameState,
    action: Action,
    sides: Sequence[str] | None = None,
    position: TurnPosition | None = None,
) -> Adjustment:
    """`adjust_table` in a game under way: the rule system must still be able to play the
    table (its `setup` accepts it: e.g. a duel keeps two ships), it must not refuse the change
    at `position` (`RuleSystem.adjustment_refused`: a unit in the middle of its go), and it
    carries its rule state over (`RuleSystem.adjusted`)."""
    adjusted = adjust_table(state, action)
    op = action.params.get("op")
    system = registry.get(state.rules)
    if position is not None and op not in MOVES:
        reason = system.adjustment_refused(state, adjusted.state, position)
        if reason:
            raise UserError(f"adjust: {adjusted.change} is refused: {reason}")
    if op == "status":
        return adjusted  # the rule system set its own values (`set_status`), nothing else
    playing = tuple(sides) if sides is not None else state.sides
    strangers = sorted({unit.side for unit in adjusted.state.units} - set(playing))
    if strangers:
        raise UserError(
            f"adjust: side {strangers[0]} is not playing in this game (sides: "
            f"{', '.join(playing)}); start a new game from the table to add a side"
        )
    blank = replace(adjusted.state, rule_state=FrozenMap())
    if not blank.units:
        raise UserError(
            f"adjust: {adjusted.change} would leave no unit on the table: nobody can play"
        )
    try:
        fresh = system.setup(blank)
    except UserError as error:
        raise UserError(
            f"adjust: {adjusted.change} is refused: {error.message}", spec_id=error.spec_id
        ) from None
    return Adjustment(system.adjusted(state, adjusted.state, fresh), adjusted.change)


def _add(state: GameState, item_id: str, params: dict[str, Any]) -> Adjustment:
    system = registry.get(state.rules)
    taken = _taken(state)
    if set(params) == {"unit"}:
        table = _plain_table(params["unit"], "unit", item_id)
        unit = read_unit(table, system, state.board, taken, SOURCE, f"unit {item_id}")
        added = replace(state, units=(*state.units, unit))
        name = unit_name(added, unit.id)  # numbered among its namesakes once it is there
        return Adjustment(added, f"{name} added for {unit.side} at {_pose(unit)}")
    if set(params) == {"terrain"}:
        table = _plain_table(params["terrain"], "terrain", item_id)
        piece = read_terrain(table, system, state.board, taken, SOURCE, f"terrain {item_id}")
        added = state.with_terrain((*state.terrain, piece))
        name = added.shown_terrain_names[piece.id]
        # a piece with no name of its own is named by its kind already
        kind = f"{terrain_kind_words(piece.kind).lower()}, " if piece.name else ""
        return Adjustment(added, f"{name} added ({kind}{_outline(piece)})")
    raise UserError(f"adjust: adding {item_id!r} needs one unit table or one terrain table")


def _adjust_unit(state: GameState, unit: Unit, op: str, params: dict[str, Any]) -> Adjustment:
    system = registry.get(state.rules)
    taken = {key: what for key, what in _taken(state).items() if key != unit.id}
    if op == "delete":
        _no_params(unit.id, op, params)
        # a correction, not a loss: off the roster too, so the numbers close up
        return Adjustment(state.struck_off(unit.id), f"{unit_name(state, unit.id)} removed")
    if op == "status":
        return _set_status(state, unit, params)
    if op == "move":
        _only(unit.id, op, params, ("x", "y", "heading"))
        moved = _moved(state, unit, params)
        if moved is not None:
            name = unit_name(state, unit.id)
            after = state.replace_unit(moved)
            # the names are the same on the moved table: worked out once, not per move
            for known in ("shown_names", "shown_terrain_names"):
                if known in state.__dict__:
                    after.__dict__[known] = state.__dict__[known]
            return Adjustment(after, f"{name} moved {_pose(unit)} to {_pose(moved)}")
    table = unit_table(unit)
    if op == "move":
        for key in ("x", "y", "heading"):
            if key in params:
                table[key] = params[key]
    elif op == "set":
        _only(unit.id, op, params, UNIT_SETTABLE)
        for key in ("name", "side"):
            if key in params:
                table[key] = params[key]
        stats = dict(table.get("stats", {}))
        changes = params.get("stats", {})
        if not isinstance(changes, Mapping):
            raise UserError(f"adjust {unit.id}: stats must be a table of keys to set")
        stats.update(thaw(changes))
        unset = params.get("unset", ())
        if isinstance(unset, str) or not isinstance(unset, Sequence):
            raise UserError(f"adjust {unit.id}: unset must be a list of stats keys")
        for key in unset:
            stats.pop(str(key), None)
        table["stats"] = stats
    else:
        raise UserError(f"adjust {unit.id}: a unit can be moved, set or deleted, not {op!r}d")
    changed = read_unit(table, system, state.board, taken, SOURCE, f"unit {unit.id}")
    after = state.replace_unit(changed)
    name = unit_name(state, unit.id)  # as it was called before a rename
    if op == "move":
        return Adjustment(after, f"{name} moved {_pose(unit)} to {_pose(changed)}")
    return Adjustment(after, f"{name} changed: {_differences(unit, changed)}")


def _moved(state: GameState, unit: Unit, params: Mapping[str, Any]) -> Unit | None:
    """The unit at its new pose when the move needs no more checking than where it stands:
    its numbers are plain, in range, and its whole base is on the table (its stats, name and
    base are as they were checked already). None sends the move through `read_unit`, which
    says what is wrong: a move of a long game must not read the whole unit again."""
    pose = unit.pose
    values = (params.get("x", pose.x), params.get("y", pose.y), params.get("heading", pose.heading))
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None
        if not -MAX_COORDINATE <= value <= MAX_COORDINATE:  # also refuses NaN
            return None
    moved = unit.moved_to(Pose(*(float(value) for value in values)))
    board = state.board
    # the base's reach from its centre (a rectangle's half diagonal): clear of every edge by
    # it, the base is on the table; nearer an edge, its outline decides as a map's does
    base = moved.base
    reach = base.radius if isinstance(base, CircleBase) else math.hypot(base.width, base.length) / 2
    x, y = moved.pose.x, moved.pose.y
    margin = reach + CLEAR
    if margin <= x <= board.width - margin and margin <= y <= board.height - margin:
        return moved
    x0, y0, x1, y1 = moved.footprint.bounds
    inside = (
        x0 >= -EDGE_TOLERANCE
        and y0 >= -EDGE_TOLERANCE
        and x1 <= board.width + EDGE_TOLERANCE
        and y1 <= board.height + EDGE_TOLERANCE
    )
    return moved if inside and not moved.footprint.is_empty else None


def _set_status(state: GameState, unit: Unit, params: dict[str, Any]) -> Adjustment:
    _only(unit.id, "status", params, ("values",))
    values = params["values"]
    if not isinstance(values, Mapping):
        raise UserError(f"adjust {unit.id}: status values must be a table of values to set")
    system = registry.get(state.rules)
    fields = system.status_fields(state, unit)
    checked = checked_status(fields, thaw(values), unit.id)
    after = system.set_status(state, unit, checked)
    sentence = status_sentence(fields, checked)
    return Adjustment(after, f"{unit_name(state, unit.id)} status set: {sentence}")


def _adjust_terrain(
    state: GameState, piece: Terrain, op: str, params: dict[str, Any]
) -> Adjustment:
    system = registry.get(state.rules)
    taken = {key: what for key, what in _taken(state).items() if key != piece.id}
    if op == "delete":
        _no_params(piece.id, op, params)
        remaining = tuple(p for p in state.terrain if p.id != piece.id)
        name = state.shown_terrain_names[piece.id]
        return Adjustment(state.with_terrain(remaining), f"{name} removed")
    table = terrain_table(piece)
    if op == "move":
        _only(piece.id, op, params, ("dx", "dy", "turn"))
        dx, dy, turn = (_number(piece.id, params, key) for key in ("dx", "dy", "turn"))
        _place_outline(table, piece, dx, dy, turn)
        sentence = f"moved by ({dx:.{PLACES}f}, {dy:.{PLACES}f})"
        if turn:
            sentence += f", turned {_degrees(turn)}"
    elif op == "reshape":
        if set(params) not in ({"polygon"}, {"circle"}):
            raise UserError(f"adjust {piece.id}: reshape takes one polygon or one circle")
        table.pop("polygon", None)
        table.pop("circle", None)
        table.update(thaw(params))
        sentence = None
    elif op == "set":
        _only(piece.id, op, params, ("name", "kind", "height"))
        table.update(params)
        sentence = None
    else:
        raise UserError(
            f"adjust {piece.id}: a terrain piece can be moved, reshaped, set or deleted"
        )
    changed = read_terrain(table, system, state.board, taken, SOURCE, f"terrain {piece.id}")
    after = state.with_terrain(tuple(changed if p.id == piece.id else p for p in state.terrain))
    if sentence is None:
        sentence = (
            f"reshaped from {_outline(piece)} to {_outline(changed)}"
            if op == "reshape"
            else f"changed: {_terrain_differences(piece, changed)}"
        )
    return Adjustment(after, f"{state.shown_terrain_names[piece.id]} {sentence}")


def _place_outline(
    table: dict[str, Any], piece: Terrain, dx: float, dy: float, turn: float
) -> None:
    """Move the piece's outline in its table: turned about its centre, then shifted."""
    if piece.circle is not None:
        table["circle"] = {
            "x": piece.circle.x + dx,
            "y": piece.circle.y + dy,
            "radius": piece.circle.radius,
        }
        return
    centre = Polygon(piece.polygon or ()).centroid
    cx, cy = centre.x, centre.y
    # clockwise, as headings turn (y points away from side A: shapes.py conventions)
    angle = math.radians(turn)
    cos, sin = math.cos(angle), math.sin(angle)
    table["polygon"] = [
        [
            round(cx + (x - cx) * cos + (y - cy) * sin + dx, COORDINATE_PLACES),
            round(cy - (x - cx) * sin + (y - cy) * cos + dy, COORDINATE_PLACES),
        ]
        for x, y in piece.polygon or ()
    ]


# --------------------------------------------------------------------------- a table with no game


@dataclass(frozen=True)
class TableDraft:
    """A table being built before any game (File → New): its states, the adjustments made
    and a cursor, with undo and redo like a game's history."""

    states: tuple[GameState, ...]
    changes: tuple[tuple[Action, str], ...]
    cursor: int

    @classmethod
    def empty(cls, rules: str, width: float, height: float, title: str = "") -> TableDraft:
        """An empty table of `width` x `height` inches under a known rule system."""
        registry.get(rules)
        for name, value in (("width", width), ("height", height)):
            if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
                raise UserError(f"a new table's {name} must be a number of inches above 0")
        return cls.of(GameState(rules, Board(float(width), float(height)), title))

    @classmethod
    def of(cls, state: GameState) -> TableDraft:
        """A draft starting from an existing table (a loaded map)."""
        return cls((state,), (), 0)

    @property
    def state(self) -> GameState:
        return self.states[self.cursor]

    @property
    def can_undo(self) -> bool:
        return self.cursor > 0

    @property
    def can_redo(self) -> bool:
        return self.cursor < len(self.changes)

    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(action for action, _ in self.changes[: self.cursor])

    def apply(self, action: Action) -> TableDraft:
        if action.kind == ADJUST and action.params.get("op") == "status":
            raise UserError(
                f"adjust {action.actor}: a table with no game yet has no damage to set: "
                "set its stats (set ruler hull points 5), or adjust it once the game is on"
            )
        adjusted = adjust_table(self.state, action)
        keep = self.cursor + 1
        return TableDraft(
            (*self.states[:keep], adjusted.state),
            (*self.changes[: self.cursor], (action, adjusted.change)),
            self.cursor + 1,
        )

    def undo(self) -> TableDraft:
        if not self.can_undo:
            raise UserError("nothing to undo: the table is as it started")
        return replace(self, cursor=self.cursor - 1)

    def redo(self) -> TableDraft:
        if not self.can_redo:
            raise UserError("nothing to redo: this is the latest change")
        return replace(self, cursor=self.cursor + 1)

    def log_lines(self) -> tuple[str, ...]:
        return tuple(f"adjust: {change}" for _, change in self.changes[: self.cursor])


# --------------------------------------------------------------------------- helpers


def _action(item_id: str, op: str, **params: Any) -> Action:
    if not isinstance(item_id, str) or not item_id.strip():
        raise UserError("an adjustment needs the id of a unit or terrain piece")
    return Action(ADJUST, item_id, FrozenMap({"op": op, **params}))


def _table_id(table: Mapping[str, Any], what: str) -> str:
    item_id = table.get("id") if isinstance(table, Mapping) else None
    if not isinstance(item_id, str) or not item_id.strip():
        raise UserError(f"a new {what} needs an id (a non-empty string)")
    return item_id


def _plain_table(value: Any, what: str, item_id: str) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise UserError(f"adjust: the new {what} {item_id!r} must be a table")
    table = thaw(value)
    if table.get("id") != item_id:
        raise UserError(f"adjust: the new {what}'s id {table.get('id')!r} is not {item_id!r}")
    return table


def _taken(state: GameState) -> dict[str, str]:
    taken = {piece.id: "a terrain piece" for piece in state.terrain}
    taken.update({unit.id: "a unit" for unit in state.units})
    return taken


def _known(state: GameState) -> str:
    ids = [*(u.id for u in state.units), *(p.id for p in state.terrain)]
    if not ids:
        return " (the table is empty)"
    shown = ", ".join(ids[:12]) + (f" and {len(ids) - 12} more" if len(ids) > 12 else "")
    return f" (on the table: {shown})"


def _only(item_id: str, op: str, params: Mapping[str, Any], allowed: Sequence[str]) -> None:
    for key in params:
        if key not in allowed:
            raise UserError(f"adjust {item_id}: {op} takes {', '.join(allowed)}, not {key!r}")
    if not params:
        raise UserError(f"adjust {item_id}: {op} needs at least one of {', '.join(allowed)}")


def _no_params(item_id: str, op: str, params: Mapping[str, Any]) -> None:
    if params:
        raise UserError(f"adjust {item_id}: {op} takes no values, not {', '.join(params)}")


def _number(item_id: str, params: Mapping[str, Any], key: str) -> float:
    value = params.get(key, 0.0)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise UserError(f"adjust {item_id}: {key} must be a number, not {value!r}")
    return float(value)


def _polygon_points(state: GameState, piece_id: str, index: int) -> list[list[float]]:
    try:
        piece = state.terrain_piece(piece_id)
    except KeyError:
        raise UserError(f"no terrain piece {piece_id!r} on the table" + _known(state)) from None
    if piece.polygon is None:
        raise UserError(f"terrain {piece_id!r} is a circle: drag its rim to resize it")
    points = [[x, y] for x, y in piece.polygon]
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(points):
        raise UserError(f"terrain {piece_id!r} has vertices 0 to {len(points) - 1}, not {index!r}")
    return points


def _pose(unit: Unit) -> str:
    return f"({unit.pose.x:.{PLACES}f}, {unit.pose.y:.{PLACES}f}, {_degrees(unit.pose.heading)})"


def _degrees(value: float) -> str:
    return f"{value:.0f}°" if float(value).is_integer() else f"{value:.1f}°"


def _outline(piece: Terrain) -> str:
    if piece.circle is not None:
        c = piece.circle
        return f'circle at ({c.x:.{PLACES}f}, {c.y:.{PLACES}f}), radius {c.radius:.{PLACES}f}"'
    return f"{len(piece.polygon or ())} vertices"


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, Mapping | list | tuple):
        return "(changed)"
    return str(value)


def _differences(before: Unit, after: Unit) -> str:
    parts = []
    for name in ("name", "side"):
        if getattr(before, name) != getattr(after, name):
            parts.append(f"{name} {getattr(before, name)} to {getattr(after, name)}")
    for key in dict.fromkeys([*before.stats, *after.stats]):
        old, new = before.stats.get(key), after.stats.get(key)
        if old == new:
            continue
        label = key.replace("_", " ")
        if old is None:
            parts.append(f"{label} set to {_value(new)}")
        elif new is None:
            parts.append(f"{label} removed")
        else:
            parts.append(f"{label} {_value(old)} to {_value(new)}")
    return ", ".join(parts) or "nothing changed"


def _terrain_differences(before: Terrain, after: Terrain) -> str:
    parts = [
        f"{name} {getattr(before, name)} to {getattr(after, name)}"
        for name in ("name", "kind", "height")
        if getattr(before, name) != getattr(after, name)
    ]
    return ", ".join(parts) or "nothing changed"
