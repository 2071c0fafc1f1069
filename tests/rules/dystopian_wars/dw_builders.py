"""Builders for Dystopian Wars states (GameState values built directly, no map file)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tactical.errors import UserError
from tactical.model import (
    Board,
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
from tactical.rules import registry
from tactical.rules.dystopian_wars.chance import Defence
from tactical.rules.dystopian_wars.dicework import PoolRules

RULES = "dystopian-wars"
DW = registry.get(RULES)

# an attack roll's defence with shields, a guardian and a Critical Rating the roll can pass
SHIELDED = Defence(
    dice=5,
    pool=PoolRules(4, 2, True),
    shield_dice=1,
    guardian_dice=1,
    save_on=4,
    damage_rating=2,
    critical_rating=4,
    critical_damage=1,
    hull_left=3,
    wing_size=0,
    kill_hits=1,
)

GUNS = {"name": "Guns", "kind": "gunnery", "arc": "all-round", "attack_dice": "6-4-2-1"}
ACK_ACK = {"name": "Ack Ack", "kind": "ack-ack", "arc": "all-round", "attack_dice": "4-0-0-0"}
TORPEDOES = {"name": "Torpedoes", "kind": "torpedo", "arc": "all-round", "attack_dice": "4-4-4-0"}
ROCKETS = {"name": "Rockets", "kind": "rocket", "arc": "all-round", "attack_dice": "4-4-4-4"}
BOMBS = {"name": "Bombs", "kind": "bomb", "arc": "all-round", "attack_dice": "4-0-0-0"}
DEPTH_CHARGES = {
    "name": "Depth charges",
    "kind": "concussion",
    "arc": "all-round",
    "attack_dice": "3-0-0-0",
}
TESLA_COILS = {
    "name": "Tesla coils",
    "kind": "gunnery",
    "arc": "all-round",
    "attack_dice": "5-5-0-0",
}


def unit(
    unit_id: str,
    x: float,
    y: float,
    side: str = "A",
    heading: float = 0.0,
    *,
    size: str = "medium",
    movement: str = "naval",
    base: Any = None,
    name: str | None = None,
    **stats: Any,
) -> Unit:
    """A model; stats as keyword arguments (validated against the system's schema)."""
    stats.setdefault("weapons", [GUNS])
    problems = DW.check_stats(stats)
    assert not problems, problems
    if base is None:
        base = RectBase(1.0, 3.0) if movement != "aerial" else CircleBase(2.0)
    return Unit(
        unit_id,
        name or unit_id,
        side,
        Pose(x, y, heading),
        base,
        MovementClass(movement),
        SizeClass(size),
        FrozenMap(stats),
    )


def flyer(
    unit_id: str, x: float, y: float, side: str = "A", wing_type: str = "fighter", **stats: Any
) -> Unit:
    """A Tiny Flyer (1" round stand, flying)."""
    weapons = {
        "fighter": [ACK_ACK],
        "dive-bomber": [BOMBS],
        "torpedo-bomber": [TORPEDOES],
        "recon": [],
    }
    stats.setdefault("weapons", weapons[wing_type])
    stats.setdefault("squadron", f"{wing_type}-wing")
    return unit(
        unit_id,
        x,
        y,
        side,
        size="tiny",
        movement="aerial",
        base=CircleBase(1.0),
        height_level="flying",
        wing_type=wing_type,
        move=12.0,
        **stats,
    )


def table(
    *units: Unit,
    terrain: tuple[Terrain, ...] = (),
    width: float = 72,
    height: float = 48,
    **options: Any,
) -> GameState:
    assert not DW.check_options(options), DW.check_options(options)
    return GameState(
        RULES, Board(width, height), options=FrozenMap(options), terrain=terrain, units=tuple(units)
    )


def rock(
    piece_id: str,
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    kind: str = "obstructing",
    height: str = "large",
) -> Terrain:
    return Terrain(
        piece_id, kind, SizeClass(height), polygon=((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    )


def duel(
    attacker_stats: dict[str, Any] | None = None,
    target_stats: dict[str, Any] | None = None,
    distance: float = 6.0,
    **options: Any,
) -> GameState:
    """Attacker "a" at (20, 10) heading 0 and target "t" `distance` inches ahead of it
    (distance measured from a's centre to t's nearest point: t's base is 1x3 across)."""
    a = unit("a", 20, 10, "A", **(attacker_stats or {}))
    t = unit("t", 20, 10 + distance + 0.5, "B", 90.0, **(target_stats or {}))
    return table(a, t, **options)


@contextmanager
def refused(spec_id: str | None, words: str = "") -> Iterator[None]:
    """The block raises a UserError citing `spec_id` (and containing `words`)."""
    with pytest.raises(UserError) as error:
        yield
    assert error.value.spec_id == spec_id, (error.value.spec_id, error.value.message)
    assert words in error.value.message, error.value.message
