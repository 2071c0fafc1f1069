"""The threat map casts the shade of the models that block line of sight (R002.41 /
A002.21) and names them; `models_block = "none"` casts none (the old reading)."""

from __future__ import annotations

from tactical.geometry.shapes import RectBase
from tactical.model import Board, FrozenMap, GameState, MovementClass, Pose, SizeClass, Unit
from tactical.threat.heatmap import threat_map

GUNS = {"name": "Guns", "kind": "gunnery", "arc": "all-round", "attack_dice": "6-4-2-1"}


def ship(unit_id, name, side, x, y, heading=0.0):
    return Unit(
        unit_id, name, side, Pose(x, y, heading), RectBase(1.0, 3.0), MovementClass.NAVAL,
        SizeClass.MEDIUM, FrozenMap(weapons=(FrozenMap(GUNS),)),
    )  # fmt: skip


def table(**options):
    return GameState(
        "dystopian-wars",
        Board(48, 48),
        options=FrozenMap(options),
        units=(
            ship("a", "Ruler Class Battleship", "A", 20, 10),
            ship("screen", "Stralsund Class Cruiser", "B", 20, 15, 90.0),
            ship("t", "Markgraf Class Battleship", "B", 30, 30),
        ),
    )


def test_R002_41_a_model_shades_the_cells_behind_it_and_is_named():
    found = threat_map(table(), "B", "t", damage=False)
    behind = found.at(20, 20)[0]
    beside = found.at(24, 20)[0]
    assert (behind, beside) == (0, 1)
    assert found.blocking_models == ("Stralsund Class Cruiser",)
    old = threat_map(table(models_block="none"), "B", "t", damage=False)
    assert old.at(20, 20)[0] == 1 and old.blocking_models == ()
