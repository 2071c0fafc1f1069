"""Regenerate the generated maps in maps/: the 200-unit stress map and the dense-terrain map.

Deterministic (fixed numpy seeds): running it again writes the same files.
Usage: python scripts/make_maps.py
"""

from __future__ import annotations

import math
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
KINDS = ("soft", "dense", "obstructing")
HEIGHTS = ("tiny", "small", "medium", "large", "massive")


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
    shapes: list[Polygon] = []
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
        if any(piece.geometry.distance(other) < keep_clear for other in shapes):
            continue
        pieces.append(piece)
        shapes.append(piece.geometry)
    return pieces


def random_units(rng, board: Board, count: int, terrain: list[Terrain]) -> list[Unit]:
    units: list[Unit] = []
    taken = [t.geometry for t in terrain]
    while len(units) < count:
        side = "A" if len(units) % 2 == 0 else "B"
        if rng.random() < 0.3:
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
        if any(footprint.intersects(g) for g in taken):
            continue
        units.append(unit)
        taken.append(unit.footprint)
    return units


def main() -> None:
    rng = np.random.default_rng(200)
    board = Board(96, 48)
    terrain = random_terrain(rng, board, 40, 1.0, 1.0, 2.6)
    units = random_units(rng, board, 200, terrain)
    save_map(
        GameState(
            "dystopian-wars",
            board,
            "Stress test: 200 ships, 40 terrain pieces",
            terrain=tuple(terrain),
            units=tuple(units),
        ),
        MAPS / "stress-200.toml",
    )

    rng = np.random.default_rng(7)
    board = Board(72, 48)
    terrain = random_terrain(rng, board, 28, 9.0, 1.5, 3.5)
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
    main()
    print("wrote", MAPS / "stress-200.toml", MAPS / "dense.toml")
