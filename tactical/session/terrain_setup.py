"""Randomized battlefield setup by the 2'x2' area procedure (R002.9, A002.5, GEO002.1).

For each area in order (A1, B1, ..., then the next row; partial areas at the
right and top edges too), both sides roll 1D6 before moving on; each 5 or 6
places one piece in that area, so an area gets 0, 1 or 2 pieces with
probabilities 4/9, 4/9, 1/9. The rolls come from the injected dice (recorded);
which piece, its rotation and position come from an injected numpy Generator,
so the same seed gives the same layout, byte for byte.

A placed piece lies wholly inside its area, overlaps no other piece, keeps at
least `MIN_GAP` (1") from every other piece and stays out of the deployment
zones when they are known. Positions are rounded to 0.1" and rotations to
whole degrees so the layout can be copied onto a real table from the
placement sheet. A piece that finds no legal spot after a bounded number of
tries is reported as unplaced (it can only happen in tiny partial areas or
very crowded ones).
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Polygon, box

from tactical.dice import D6, Dice, Roll
from tactical.errors import UserError
from tactical.geometry.zones import Zone
from tactical.io.files import read_input
from tactical.io.paths import assets_dir
from tactical.model import Area, Board, Circle, SizeClass, Terrain, TerrainKind, terrain_names

TERRAIN_RULE = "R002.9"  # the procedure, for the screens that cite it
MIN_GAP = 1.0  # inches between pieces
PLACES_ON = (5, 6)  # R002.9
TRIES_PER_PIECE = 40
PIECES_PER_PLACEMENT = 4  # different library pieces tried before giving up
SIDES = ("A", "B")
LIBRARY_KEYS = ("key", "name", "kind", "height", "weight", "polygon", "radius")


@dataclass(frozen=True, slots=True)
class LibraryPiece:
    """One kind of terrain piece: footprint about its centre (polygon or radius), inches."""

    key: str
    name: str
    kind: str
    height: SizeClass
    polygon: tuple[tuple[float, float], ...] | None = None
    radius: float | None = None
    weight: float = 1.0

    def shape_at(self, x: float, y: float, rotation: float) -> Polygon:
        """The footprint centred at (x, y), turned `rotation` degrees clockwise."""
        if self.radius is not None:
            return Terrain(
                self.key, self.kind, self.height, circle=Circle(x, y, self.radius)
            ).geometry
        assert self.polygon is not None
        return Polygon(_placed_vertices(self.polygon, x, y, rotation))


def _placed_vertices(
    polygon: Sequence[tuple[float, float]], x: float, y: float, rotation: float
) -> tuple[tuple[float, float], ...]:
    radians = math.radians(rotation)
    cos, sin = math.cos(radians), math.sin(radians)
    # clockwise rotation (compass sense), then rounded for hand layout and stable files
    return tuple(
        (round(x + px * cos + py * sin, 2), round(y - px * sin + py * cos, 2)) for px, py in polygon
    )


def library_path() -> Path:
    return assets_dir() / "terrain_library.toml"


def load_library(path: str | Path | None = None) -> tuple[LibraryPiece, ...]:
    """Read a terrain library TOML file (default: the one shipped in assets/)."""
    source = Path(path) if path is not None else library_path()
    try:
        document = tomllib.loads(read_input(source).decode("utf-8"))
    except OSError as error:
        raise UserError(f"{source}: cannot read the terrain library ({error.strerror})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise UserError(f"{source}: not a valid TOML terrain library ({error})") from None
    except RecursionError:
        raise UserError(f"{source}: not a valid TOML terrain library (nested too deeply)") from None
    entries = document.get("piece")
    if not isinstance(entries, list) or not entries:
        raise UserError(f"{source}: expected [[piece]] tables")
    pieces = [_library_piece(source, index, entry) for index, entry in enumerate(entries)]
    keys = [p.key for p in pieces]
    if len(set(keys)) != len(keys):
        raise UserError(f"{source}: piece keys must be unique, got {keys}")
    return tuple(pieces)


def _library_piece(source: Path, index: int, entry: Any) -> LibraryPiece:
    where = f"{source}: piece[{index}]"
    if not isinstance(entry, Mapping):
        raise UserError(f"{where}: expected a table")
    unknown = sorted(set(entry) - set(LIBRARY_KEYS))
    if unknown:
        raise UserError(f"{where}.{unknown[0]}: expected a known key ({', '.join(LIBRARY_KEYS)})")
    for key in ("key", "kind", "height"):
        if not isinstance(entry.get(key), str):
            raise UserError(f"{where}.{key}: expected a string (required)")
    if entry["height"] not in {s.value for s in SizeClass}:
        raise UserError(f"{where}.height: expected one of " + ", ".join(s.value for s in SizeClass))
    if entry["kind"] not in {k.value for k in TerrainKind}:
        raise UserError(f"{where}.kind: expected one of " + ", ".join(k.value for k in TerrainKind))
    weight = entry.get("weight", 1.0)
    if isinstance(weight, bool) or not isinstance(weight, int | float) or weight <= 0:
        raise UserError(f"{where}.weight: expected a number greater than 0")
    polygon, radius = entry.get("polygon"), entry.get("radius")
    if (polygon is None) == (radius is None):
        raise UserError(f"{where}: expected exactly one of 'polygon' or 'radius'")
    vertices = None
    if polygon is not None:
        try:
            vertices = tuple((float(x), float(y)) for x, y in polygon)
        except (TypeError, ValueError):
            raise UserError(f"{where}.polygon: expected [[x, y], ...] in inches") from None
        if len(vertices) < 3 or not Polygon(vertices).is_valid:
            raise UserError(f"{where}.polygon: expected a simple polygon of at least 3 vertices")
    elif isinstance(radius, bool) or not isinstance(radius, int | float) or radius <= 0:
        raise UserError(f"{where}.radius: expected a number of inches greater than 0")
    return LibraryPiece(
        key=entry["key"],
        name=str(entry.get("name", entry["key"])),
        kind=entry["kind"],
        height=SizeClass(entry["height"]),
        polygon=vertices,
        radius=None if radius is None else float(radius),
        weight=float(weight),
    )


@dataclass(frozen=True)
class AreaRolls:
    """One area of the procedure: each side's roll and the pieces placed there."""

    area: str
    rolls: Mapping[str, int]
    pieces: tuple[str, ...]
    unplaced: int = 0

    def as_dict(self) -> dict[str, Any]:
        found: dict[str, Any] = {
            "area": self.area,
            "rolls": dict(self.rolls),
            "pieces": list(self.pieces),
        }
        if self.unplaced:
            found["unplaced"] = self.unplaced
        return found


@dataclass(frozen=True)
class TerrainSetup:
    """The result of the procedure: per-area rolls, the placed terrain, every die rolled."""

    board: Board
    areas: tuple[AreaRolls, ...]
    terrain: tuple[Terrain, ...]
    rolls: tuple[Roll, ...]
    seed: int | None = None

    def piece_area(self) -> dict[str, str]:
        return {piece: area.area for area in self.areas for piece in area.pieces}

    def as_dict(self) -> dict[str, Any]:
        """The `tactical terrain --json` answer (docs/architecture.md keys)."""
        return {
            "seed": self.seed,
            "board": {"width": _number(self.board.width), "height": _number(self.board.height)},
            "areas": [area.as_dict() for area in self.areas],
            "terrain": [
                {
                    "id": piece.id,
                    "kind": piece.kind,
                    "height": piece.height.value,
                    "polygon": [[round(x, 4), round(y, 4)] for x, y in piece.outline()],
                    **({"name": piece.name} if piece.name else {}),
                }
                for piece in self.terrain
            ],
        }


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def setup_terrain(
    board: Board,
    dice: Dice,
    rng: np.random.Generator,
    library: Sequence[LibraryPiece] | None = None,
    avoid: Sequence[Zone] = (),
    sides: Sequence[str] = SIDES,
    seed: int | None = None,
    keep_clear: Sequence[Polygon] = (),
) -> TerrainSetup:
    """Run the R002.9 procedure on `board` (see the module doc).

    `keep_clear` are the footprints of units already on the table: no piece is placed
    under one. R002.9 says a side rolling 5 or 6 *may place* a piece in the area, so
    where in the area is the placing side's choice: the piece goes to a spot of its
    area clear of every unit (or, where there is none, is reported unplaced)."""
    pieces = tuple(library) if library is not None else load_library()
    weights = np.array([p.weight for p in pieces], dtype=float)
    weights /= weights.sum()
    recorded_from = len(getattr(dice, "rolls", ()))
    placed: list[Terrain] = []
    shapes: list[Polygon] = []
    counters: dict[str, int] = {}
    zones = [zone.polygon for zone in avoid] + list(keep_clear)
    areas = []
    for area in board.areas:
        rolls = {
            side: dice.roll(D6, who=side, what=f"terrain roll for area {area.name} (R002.9)")
            for side in sides
        }
        names: list[str] = []
        unplaced = 0
        for side in sides:
            if rolls[side] not in PLACES_ON:
                continue
            found = _place(area, pieces, weights, rng, shapes, zones)
            if found is None:
                unplaced += 1
                continue
            piece, x, y, rotation = found
            counters[piece.key] = counters.get(piece.key, 0) + 1
            terrain = _terrain(piece, f"{piece.key}-{counters[piece.key]}", x, y, rotation)
            placed.append(terrain)
            shapes.append(terrain.geometry)
            names.append(terrain.id)
        areas.append(AreaRolls(area.name, rolls, tuple(names), unplaced))
    rolls_made = tuple(getattr(dice, "rolls", ())[recorded_from:])
    return TerrainSetup(board, tuple(areas), tuple(placed), rolls_made, seed)


def _place(
    area: Area,
    pieces: Sequence[LibraryPiece],
    weights: np.ndarray,
    rng: np.random.Generator,
    placed: Sequence[Polygon],
    zones: Sequence[Polygon],
) -> tuple[LibraryPiece, float, float, float] | None:
    """A legal spot for some library piece in `area`, or None after bounded tries."""
    region = box(*area.bounds)
    free = region.difference(shapely.union_all(list(zones))) if zones else region
    if free.is_empty:
        return None
    neighbours = shapely.STRtree(list(placed)) if placed else None
    for _choice in range(PIECES_PER_PLACEMENT):
        piece = pieces[int(rng.choice(len(pieces), p=weights))]
        for _try in range(TRIES_PER_PIECE):
            rotation = float(rng.integers(0, 360))
            x = round(float(rng.uniform(area.x0, area.x1)), 1)
            y = round(float(rng.uniform(area.y0, area.y1)), 1)
            shape = piece.shape_at(x, y, rotation)
            if not free.covers(shape):
                continue
            if neighbours is not None and len(
                neighbours.query(shape, predicate="dwithin", distance=MIN_GAP - 1e-9)
            ):
                continue
            return piece, x, y, rotation
    return None


def _terrain(piece: LibraryPiece, terrain_id: str, x: float, y: float, rotation: float) -> Terrain:
    if piece.radius is not None:
        return Terrain(
            terrain_id, piece.kind, piece.height, circle=Circle(x, y, piece.radius), name=piece.name
        )
    assert piece.polygon is not None
    vertices = _placed_vertices(piece.polygon, x, y, rotation)
    return Terrain(terrain_id, piece.kind, piece.height, polygon=vertices, name=piece.name)


def seeded_setup(
    board: Board,
    seed: int,
    library: Sequence[LibraryPiece] | None = None,
    avoid: Sequence[Zone] = (),
    keep_clear: Sequence[Polygon] = (),
) -> TerrainSetup:
    """The procedure with dice and placement both seeded from `seed` (reproducible)."""
    from tactical.dice import SeededDice

    return setup_terrain(
        board,
        SeededDice(seed),
        np.random.default_rng(seed),
        library,
        avoid,
        seed=seed,
        keep_clear=keep_clear,
    )


def placement_sheet(setup: TerrainSetup, title: str = "Terrain placement sheet") -> str:
    """A Markdown sheet to lay the terrain out by hand: per piece its area, kind, height and
    reference points measured from the table's bottom-left corner, across then up, to 0.1"."""
    board = setup.board
    lines = [
        f"# {title}",
        "",
        f'Table {board.width:g}" x {board.height:g}"'
        + (f", seed {setup.seed}" if setup.seed is not None else "")
        + ". Measure every point from the bottom-left corner of the table as seen from "
        "side A: x to the right along side A's edge, y away from it, in inches (0.1\").",
        "",
        "## Rolls (R002.9: a 5 or 6 places a piece)",
        "",
        "| Area | " + " | ".join(f"Side {s}" for s in _sides(setup)) + " | Pieces |",
        "|---|" + "---|" * len(_sides(setup)) + "---|",
    ]
    for area in setup.areas:
        rolls = " | ".join(str(area.rolls[s]) for s in _sides(setup))
        pieces = ", ".join(area.pieces) or "–"
        if area.unplaced:
            pieces += f" ({area.unplaced} found no room)"
        lines.append(f"| {area.area} | {rolls} | {pieces} |")
    lines += ["", "## Pieces", ""]
    where = setup.piece_area()
    if not setup.terrain:
        lines.append("No terrain was placed.")
    names = terrain_names(setup.terrain)
    for piece in setup.terrain:
        lines.append(f"### {piece.id} — {names[piece.id]}")
        lines.append("")
        lines.append(
            f"Area {where.get(piece.id, '?')}, kind {piece.kind}, height {piece.height.value}."
        )
        if piece.circle is not None:
            c = piece.circle
            lines.append(f'Round: centre ({c.x:.1f}, {c.y:.1f}), radius {c.radius:.1f}".')
        else:
            assert piece.polygon is not None
            points = ", ".join(f"({x:.1f}, {y:.1f})" for x, y in piece.polygon)
            lines.append(f"Corners in order: {points}.")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _sides(setup: TerrainSetup) -> list[str]:
    return list(setup.areas[0].rolls) if setup.areas else list(SIDES)
