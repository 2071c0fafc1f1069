"""What a Heavy Combat ship's damaged systems and cloak let it do this turn.

Pure functions of the ship's sheet and record: sensors (R001.31, R001.32) and
impulse (R001.12) intact, half lost or lost; warp (R001.13); whether the ship
can manoeuvre and how many turns a manoeuvre or a rotation step takes (R001.11,
R001.12, A001.26, A001.3); the cloak (R001.29); the moves a flash detector
predicts (`MOVES`, `moves_of`, R001.33); the chart categories that stop their
systems (R001.38, A001.27: `category_down`, with the option `system_failure`).
The declarations, the fire context and the Result step all read these.
"""

from __future__ import annotations

from tactical.rules.heavy_combat.duel import Ship
from tactical.rules.heavy_combat.ships import Profile
from tactical.rules.heavy_combat.tables import (
    BRIDGE,
    CATEGORIES,
    CHARTS,
    HALF_IMPULSE_FACTOR,
    ROTATION_TURNS_PER_STEP,
    WEAPONS,
)

MOVES = ("none", "close", "retreat", "lateral", "rotate")  # what a flash detector predicts


def _lost(destroyed: int, capacity: int) -> str:
    if destroyed >= capacity:
        return "lost"
    return "half" if 2 * destroyed >= capacity else "ok"


def sensors_state(card: Profile, ship: Ship) -> str:
    """R001.31/R001.32: ok, half (>= 1/2 of the capacity lost) or lost (all of it)."""
    return _lost(ship.destroyed_in("sensors"), card.capacity("sensors"))


def impulse_state(card: Profile, ship: Ship) -> str:
    """R001.12: ok, half (>= 1/2 lost) or lost."""
    return _lost(ship.destroyed_in("impulse"), card.capacity("impulse"))


def warp_ok(card: Profile, ship: Ship) -> bool:
    """R001.13: warp capacity is lost when every warp box is destroyed."""
    return ship.destroyed_in("warp") < card.capacity("warp")


def can_manoeuvre(card: Profile, ship: Ship) -> bool:
    """R001.12/R001.13: no manoeuvre without impulse or without warp."""
    return impulse_state(card, ship) != "lost" and warp_ok(card, ship)


def manoeuvre_turns(card: Profile, ship: Ship) -> int:
    """R001.12 / A001.26: manoeuvres take twice as long with half the impulse lost."""
    return HALF_IMPULSE_FACTOR if impulse_state(card, ship) == "half" else 1


def rotation_step_turns(card: Profile, ship: Ship) -> int:
    """R001.11/R001.12: turns per facing step, 2 (4 with half impulse)."""
    return ROTATION_TURNS_PER_STEP * manoeuvre_turns(card, ship)


def rotating(card: Profile, ship: Ship) -> bool:
    """A ship is rotating this turn when a rotation is under way and it can manoeuvre."""
    return ship.turning is not None and can_manoeuvre(card, ship)


def rotation_phase(card: Profile, ship: Ship) -> int:
    """A001.3: the 1st or 2nd "phase" of a rotation step (the first or second half of it)."""
    assert ship.turning is not None
    return 1 if 2 * ship.turning.elapsed < rotation_step_turns(card, ship) else 2


def shields_down(ship: Ship) -> bool:
    """R001.29: no shields in the turn before a cloak engages and the turn after it drops."""
    return ship.cloak in ("engaging", "disengaging")


def cloaked(ship: Ship) -> bool:
    return ship.cloak == "on"


def moves_of(card: Profile, ship: Ship, turn: int) -> frozenset[str]:
    """R001.33: the moves a ship is making this turn, as a flash detector predicts them."""
    moves = {m.kind for m in ship.moving(turn)}
    if rotating(card, ship):
        moves.add("rotate")
    return frozenset(moves or {"none"})


def category_down(card: Profile, ship: Ship, category: str, failure: str) -> bool:
    """R001.38 / A001.27: a chart category stops its systems once every box of it is
    destroyed ("last-box"), once any is ("first-box"), or never ("off", before R001.38)."""
    if failure == "off":
        return False
    destroyed = ship.destroyed_in(category)
    if failure == "first-box":
        return destroyed > 0
    return destroyed >= card.capacity(category)


def fire_control_down(card: Profile, ship: Ship, failure: str) -> bool:
    """R001.38: without Fire Control / Bridge every attack uses the direction procedure."""
    return category_down(card, ship, BRIDGE, failure)


def weapons_down(card: Profile, ship: Ship, failure: str) -> bool:
    """R001.38: the chart's weapons row (Phasers / Photons, or Armor / Cloak / Disruptors /
    Photons) is down: `weapons.stopped` says which weapons it takes with it."""
    return category_down(card, ship, WEAPONS, failure)


def cloak_down(card: Profile, ship: Ship, failure: str) -> bool:
    """R001.38: only the Klingon chart names the cloak (Armor / Cloak / Disruptors /
    Photons); a Federation-chart ship's cloak has no row to lose."""
    return card.chart == "klingon" and weapons_down(card, ship, failure)


def category_label(card: Profile, category: str) -> str:
    """The chart's own name for a category (T001.5 / T001.6), as a player reads it."""
    return CHARTS[card.chart][CATEGORIES.index(category) + 1]


def down_words(card: Profile, category: str, failure: str) -> str:
    """Why a category is down, in words: "every Phasers / Photons box is destroyed"."""
    label = category_label(card, category)
    if failure == "first-box":
        return f"a {label} box is destroyed"
    return f"every {label} box is destroyed"
