"""Regenerate the generated maps in maps/: the 200-unit stress map and the dense-terrain map,
or write the big-table stress maps (1,000 and 3,000 units) somewhere else.

Deterministic (fixed numpy seeds): running it again writes the same files.
Usage:
    python scripts/make_maps.py                      # maps/stress-200.toml, maps/dense.toml
    python scripts/make_maps.py --units 1000 --out /tmp/maps   # /tmp/maps/stress-1000.toml
    python scripts/make_maps.py --units 1000 --thin --out /tmp/maps   # stress-thin-1000.toml

The big maps keep the 200-unit map's density (one ship and 0.2 terrain pieces per
23 square inches): the table grows with the fleet, as it does on a real floor. They
are not committed (about 0.4 MB and 1.1 MB); the benches write them to a temporary
folder.
"""

from __future__ import annotations

import argparse
import math
from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path

import numpy as np
from shapely.geometry import Polygon

from tactical.io import save_map
from tactical.model import (
    Board,
    Circle,
    CircleBase,
    FrozenMap,
    GameState,
    MovementClass,
    Pose,
    RectBase,
    SizeClass,
    Terrain,
    Unit,
)

MAPS = Path(__file__).resolve().parents[1] / "maps"
THIN_FROM = 250  # the thinned stress maps cross as much a line as this many ships' table
KINDS = ("soft", "dense", "obstructing")
HEIGHTS = ("tiny", "small", "medium", "large", "massive")
# what a player calls a piece of each kind on a sea table, taken in turn and numbered
# ("Sandbank 1", "Shoals 1", "Kelp bed 1", "Sandbank 2"...)
SEA_NAMES = {
    "soft": ("Sandbank", "Shoals", "Kelp bed"),
    "dense": ("Rocky islet", "Reef", "Sea stack"),
    "obstructing": ("Island", "Sea cliffs", "Headland"),
}


class _Grid:
    """Shapes bucketed by the 4" cells their bounds cover: the placement loops ask only the
    shapes near a new one (the same answers as asking every shape, far fewer calls)."""

    CELL = 4.0

    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], list[int]] = defaultdict(list)
        self.shapes: list = []

    def _keys(self, bounds: tuple[float, float, float, float], pad: float):
        low_x, low_y = (
            math.floor((bounds[0] - pad) / self.CELL),
            math.floor((bounds[1] - pad) / self.CELL),
        )
        high_x, high_y = (
            math.floor((bounds[2] + pad) / self.CELL),
            math.floor((bounds[3] + pad) / self.CELL),
        )
        return [(a, b) for a in range(low_x, high_x + 1) for b in range(low_y, high_y + 1)]

    def near(self, shape, pad: float = 0.0) -> list:
        """The shapes whose bounds come within `pad` of `shape`'s bounds, in insertion order."""
        found = sorted(
            {k for key in self._keys(shape.bounds, pad) for k in self.cells.get(key, ())}
        )
        return [self.shapes[k] for k in found]

    def add(self, shape) -> None:
        for key in self._keys(shape.bounds, 0.0):
            self.cells[key].append(len(self.shapes))
        self.shapes.append(shape)


def _blob(rng: np.random.Generator, cx: float, cy: float, radius: float, vertices: int):
    angles = np.sort(rng.uniform(0, 2 * math.pi, vertices))
    radii = radius * rng.uniform(0.6, 1.0, vertices)
    return [
        (round(cx + r * math.cos(a), 2), round(cy + r * math.sin(a), 2))
        for a, r in zip(angles, radii, strict=True)
    ]


def random_terrain(
    rng,
    board: Board,
    count: int,
    margin: float,
    min_r: float,
    max_r: float,
    keep_clear: float = 1.0,
) -> list[Terrain]:
    pieces: list[Terrain] = []
    shapes = _Grid()
    while len(pieces) < count:
        radius = float(rng.uniform(min_r, max_r))
        cx = float(rng.uniform(radius + margin, board.width - radius - margin))
        cy = float(rng.uniform(radius + margin, board.height - radius - margin))
        kind = KINDS[int(rng.integers(0, 3))]
        height = HEIGHTS[int(rng.integers(0, 5))]
        index = len(pieces) + 1
        if rng.random() < 0.25:
            piece = Terrain(
                f"{kind}-{index}",
                kind,
                SizeClass(height),
                circle=Circle(round(cx, 2), round(cy, 2), round(radius, 2)),
            )
        else:
            points = _blob(rng, cx, cy, radius, int(rng.integers(5, 13)))
            if not Polygon(points).is_valid:
                continue
            piece = Terrain(f"{kind}-{index}", kind, SizeClass(height), polygon=tuple(points))
        if any(
            piece.geometry.distance(other) < keep_clear
            for other in shapes.near(piece.geometry, keep_clear)
        ):
            continue
        pieces.append(piece)
        shapes.add(piece.geometry)
    return pieces


def named_terrain(pieces: list[Terrain]) -> list[Terrain]:
    """The pieces, each given a sea name of its kind (`SEA_NAMES`, in turn, numbered where a
    name comes back); geometry, ids and the random draws untouched."""
    by_kind: Counter[str] = Counter()
    names = []
    for piece in pieces:
        choices = SEA_NAMES[piece.kind]
        names.append(choices[by_kind[piece.kind] % len(choices)])
        by_kind[piece.kind] += 1
    shared = Counter(names)
    seen: Counter[str] = Counter()
    named = []
    for piece, name in zip(pieces, names, strict=True):
        seen[name] += 1
        shown = f"{name} {seen[name]}" if shared[name] > 1 else name
        named.append(replace(piece, name=shown))
    return named


def random_units(
    rng, board: Board, count: int, terrain: list[Terrain], flying: float = 0.3
) -> list[Unit]:
    """`count` ships placed at random clear of the terrain and of each other, a share
    `flying` of them flyers on round bases (they block no line of sight: R002.41)."""
    units: list[Unit] = []
    taken = _Grid()
    for piece in terrain:
        taken.add(piece.geometry)
    while len(units) < count:
        side = "A" if len(units) % 2 == 0 else "B"
        if rng.random() < flying:
            base = CircleBase(float(rng.choice([1.0, 1.5, 2.0])))
            movement = MovementClass.AERIAL
            level = "flying"
        else:
            base = RectBase(float(rng.choice([1.0, 1.5])), float(rng.choice([2.0, 3.0, 4.0])))
            movement = MovementClass.NAVAL
            level = "surface"
        pose = Pose(
            round(float(rng.uniform(3, board.width - 3)), 2),
            round(float(rng.uniform(3, board.height - 3)), 2),
            round(float(rng.uniform(0, 360)), 1),
        )
        index = len(units) + 1
        unit = Unit(
            f"{side.lower()}{index:03d}",
            f"Ship {index}",
            side,
            pose,
            base,
            movement,
            SizeClass.MEDIUM,
            FrozenMap(
                {
                    "move": 6.0,
                    "min_move": 2.0,
                    "height_level": level,
                    "weapons": [
                        {
                            "name": "Turret",
                            "kind": "gunnery",
                            "arc": "turret",
                            "attack_dice": "6-6-4-2",
                        }
                    ],
                }
            ),
        )
        footprint = unit.footprint.buffer(0.05)
        if any(footprint.intersects(g) for g in taken.near(footprint)):
            continue
        units.append(unit)
        taken.add(unit.footprint)
    return units


def stress_state(units: int, thin: bool = False) -> GameState:
    """The stress map of `units` ships (200: maps/stress-200.toml): a 2:1 table holding one
    ship per 23.04 square inches (96" x 48" for 200) and a terrain piece per five ships.

    `thin`: the same table and as many ships, but what blocks a line thins out as the
    table grows, so that a line crosses about as many pieces and models as on THIN_FROM
    ships' table, where it is sqrt(units / THIN_FROM) times shorter: the terrain pieces
    are fewer by that factor, and the ships on the Surface by its cube root (a model
    blocks only a line between two Surface models, R002.40), the others flyers. What
    `check` writes a pair then stays about the same size, and its cost a pair shows
    what grows with the table itself."""
    scale = math.sqrt(units / 200)
    rng = np.random.default_rng(200 if units == 200 else units)
    board = Board(round(96 * scale), round(48 * scale))
    pieces, flying = units // 5, 0.3
    if thin and units > THIN_FROM:
        fewer = math.sqrt(units / THIN_FROM)
        pieces, flying = round(pieces / fewer), 1.0 - 0.7 / fewer ** (1 / 3)
    terrain = random_terrain(rng, board, pieces, 1.0, 1.0, 2.6)
    fleet = random_units(rng, board, units, terrain, flying)
    terrain = named_terrain(terrain)
    return GameState(
        "dystopian-wars",
        board,
        f"Stress test: {units:,} ships, {pieces} terrain pieces" + (", thinned" if thin else ""),
        terrain=tuple(terrain),
        units=tuple(fleet),
    )


def write_stress_map(units: int, folder: Path, thin: bool = False) -> Path:
    """Write `stress-<units>.toml` (`thin`: `stress-thin-<units>.toml`) into `folder` (made
    if missing) and return its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"stress-{'thin-' if thin else ''}{units}.toml"
    save_map(stress_state(units, thin), path)
    return path


def main() -> None:
    save_map(stress_state(200), MAPS / "stress-200.toml")

    rng = np.random.default_rng(7)
    board = Board(72, 48)
    terrain = named_terrain(random_terrain(rng, board, 28, 9.0, 1.5, 3.5))
    fleet = [
        Unit(
            "a-ruler",
            "Ruler Class Battleship",
            "A",
            Pose(20, 4, 0),
            RectBase(1.5, 4),
            MovementClass.NAVAL,
            SizeClass.LARGE,
            FrozenMap(
                {
                    "move": 6.0,
                    "min_move": 3.0,
                    "weapons": [
                        {
                            "name": "Main turrets",
                            "kind": "gunnery",
                            "arc": "turret",
                            "attack_dice": "8-10-8-6",
                        }
                    ],
                }
            ),
        ),
        Unit(
            "a-tribal",
            "Tribal Class Cruiser",
            "A",
            Pose(50, 4, 0),
            RectBase(1, 3),
            MovementClass.NAVAL,
            SizeClass.MEDIUM,
            FrozenMap(
                {
                    "move": 8.0,
                    "min_move": 4.0,
                    "weapons": [
                        {
                            "name": "Turret",
                            "kind": "gunnery",
                            "arc": "turret",
                            "attack_dice": "5-6-4-2",
                        }
                    ],
                }
            ),
        ),
        Unit(
            "b-markgraf",
            "Markgraf Class Battleship",
            "B",
            Pose(52, 44, 180),
            RectBase(1.5, 4.5),
            MovementClass.NAVAL,
            SizeClass.LARGE,
            FrozenMap(
                {
                    "move": 5.0,
                    "min_move": 3.0,
                    "weapons": [
                        {
                            "name": "Main turrets",
                            "kind": "gunnery",
                            "arc": "turret",
                            "attack_dice": "8-10-8-6",
                        }
                    ],
                }
            ),
        ),
        Unit(
            "b-stralsund",
            "Stralsund Class Cruiser",
            "B",
            Pose(22, 44, 180),
            RectBase(1, 3),
            MovementClass.NAVAL,
            SizeClass.MEDIUM,
            FrozenMap(
                {
                    "move": 7.0,
                    "min_move": 3.5,
                    "weapons": [
                        {
                            "name": "Turret",
                            "kind": "gunnery",
                            "arc": "turret",
                            "attack_dice": "5-6-4-2",
                        }
                    ],
                }
            ),
        ),
    ]
    save_map(
        GameState(
            "dystopian-wars",
            board,
            "Archipelago: dense terrain",
            terrain=tuple(terrain),
            units=tuple(fleet),
        ),
        MAPS / "dense.toml",
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=int, help="write only the stress map of this many ships")
    parser.add_argument("--out", type=Path, default=MAPS, help="folder for --units (default maps/)")
    parser.add_argument(
        "--thin", action="store_true",
        help="with --units: fewer pieces and blocking ships as the table grows (stress-thin-N)",
    )  # fmt: skip
    args = parser.parse_args()
    if args.units:
        print("wrote", write_stress_map(args.units, args.out, args.thin))
    else:
        main()
        print("wrote", MAPS / "stress-200.toml", MAPS / "dense.toml")
