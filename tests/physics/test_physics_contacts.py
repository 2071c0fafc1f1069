"""First contact along a path against a whole table (R002.35, R002.59, GEO002.11)."""

from __future__ import annotations

import pytest

from tactical.geometry.movement import Translation
from tactical.model import FrozenMap, MovementClass, Pose, RectBase, SizeClass, Terrain, Unit
from tactical.physics.contacts import EDGE_ID, TableObstacles

REEF = Terrain("reef", "soft", SizeClass.TINY, polygon=((8, 20), (12, 20), (12, 22), (8, 22)))
ROCK = Terrain("rock", "dense", SizeClass.LARGE, polygon=((8, 30), (12, 30), (12, 32), (8, 32)))


def unit(unit_id: str, x: float, y: float, heading: float = 0.0, level: str = "surface") -> Unit:
    return Unit(
        unit_id,
        unit_id,
        "A",
        Pose(x, y, heading),
        RectBase(1.5, 4),
        MovementClass.NAVAL,
        stats=FrozenMap({"level": level}),
    )


def layer(u: Unit) -> str:
    return str(u.stats["level"])


def run(obstacles, mover, distance, collides=lambda t: True, key=""):
    return obstacles.first_contact(mover, [Translation(mover.pose, distance)], collides, layer, key)


def test_terrain_that_does_not_collide_is_passed_r002_35():
    mover = unit("m", 10, 10)
    obstacles = TableObstacles((REEF, ROCK), (mover,), (72, 48))
    hit = run(obstacles, mover, 30, lambda t: t.kind == "dense")
    assert (hit.kind, hit.id) == ("terrain", "rock")
    assert hit.pose.y + 2 == pytest.approx(30.0, abs=0.002)
    hit = run(obstacles, mover, 30)
    assert (hit.kind, hit.id) == ("terrain", "reef")


def test_rams_only_on_the_same_layer():
    mover = unit("m", 10, 10)
    ship = unit("ship", 10, 16, 90)
    plane = unit("plane", 10, 16, 90, level="air")
    hit = run(TableObstacles((), (mover, ship), (72, 48)), mover, 10)
    assert (hit.kind, hit.id) == ("ram", "ship")
    assert run(TableObstacles((), (mover, plane), (72, 48)), mover, 10) is None


def test_the_table_edge_geo002_11():
    mover = unit("m", 10, 40)
    hit = run(TableObstacles((), (mover,), (72, 48)), mover, 20)
    assert (hit.kind, hit.id) == ("edge", EDGE_ID)
    assert hit.pose.y + 2 == pytest.approx(48.0, abs=0.002)
    assert run(TableObstacles((), (mover,), None), mover, 20) is None


def test_the_mover_never_hits_itself():
    mover = unit("m", 10, 10)
    assert run(TableObstacles((), (mover,), (72, 48)), mover, 5) is None


def test_masks_are_kept_per_rule_system_key():
    mover = unit("m", 10, 10)
    obstacles = TableObstacles((REEF, ROCK), (mover,), (72, 48))
    hit = run(obstacles, mover, 30, lambda t: t.kind == "dense", key="rules-a")
    assert hit.id == "rock"
    # same key: the same predicates are assumed, so the kept mask is used
    assert run(obstacles, mover, 30, lambda t: True, key="rules-a").id == "rock"
    assert run(obstacles, mover, 30, lambda t: True, key="rules-b").id == "reef"
