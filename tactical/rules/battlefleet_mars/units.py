"""Battlefleet Mars unit stats (`[unit.stats]`) and options (`[options]`): schema and reading.

Unit stats:

- `type`: base | catapult | transport | miner | ship | fighter | missile
  (the BFM types of the T000.1 column labels, plus "ship" for any other
  warship). Bases use the "v. Base" damage column; every other type the
  "v. Ship/Ftr/Msl" column (R000.9).
- `laser_strength`: current LS 0..6 (R000.2). Defaults to the type's nominal
  strength from the column labels (Bse 6, Cat 4, Trn 3, Mnr 2, Ftr 0, A000.2);
  required for "ship"; missiles have none.
- `printed_laser_strength`: the strength before damage, the card's "2/5" second number
  (A000.11). Defaults to the type's nominal strength, else to `laser_strength`; written
  when an L result (or a hand edit) first lowers a ship's strength.
- `launch_capacity`, `missiles`, `fighters`, `launched`, `fighters_launched`:
  ships and bases only — launch capacity, missiles and fighters carried, and
  missiles / fighters launched so far this turn (R000.17).
- `count`: fighters or missiles in a fighter or missile group (default 1).

Options: `range_unit_inches` (GEO000.1, default 1), `range_rounding`
(GEO000.1, default "floor"), `missile_to_hit` / `missile_to_hit_score`
(A000.8, default "auto"), `lp_granularity` (A000.10, default "whole"),
`ciws_default` (A000.15, default true), `lp_limit` (R000.16, default 4),
`laser_damage` (A000.11, default true: an L1-L4 result against a ship or base lowers its
current laser strength by 1-4; false, the reading before this revision and the value of a
game recorded before it, keeps the L codes for the base game only).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any

from tactical.errors import UserError
from tactical.model import FrozenMap, Unit
from tactical.rules.base import Problem, check_fields, turn_limit_field
from tactical.rules.battlefleet_mars.tables import ROUNDINGS, Column
from tactical.rules.fields import choice, flag, number, whole


class UnitType(StrEnum):
    BASE = "base"
    CATAPULT = "catapult"
    TRANSPORT = "transport"
    MINER = "miner"
    SHIP = "ship"
    FIGHTER = "fighter"
    MISSILE = "missile"


NOMINAL_LASER_STRENGTH: dict[UnitType, int] = {
    UnitType.BASE: 6,
    UnitType.CATAPULT: 4,
    UnitType.TRANSPORT: 3,
    UnitType.MINER: 2,
    UnitType.FIGHTER: 0,
}
CARRIERS = frozenset(
    {UnitType.BASE, UnitType.CATAPULT, UnitType.TRANSPORT, UnitType.MINER, UnitType.SHIP}
)
GROUPS = frozenset({UnitType.FIGHTER, UnitType.MISSILE})
CARRIER_ONLY = ("launch_capacity", "missiles", "fighters", "launched", "fighters_launched")

STATS_FIELDS = (
    choice("type", tuple(t.value for t in UnitType), "A000.2", "BFM unit type",
           default=UnitType.SHIP.value),
    whole("laser_strength", None, 0, 6, "R000.2", "current laser strength"),
    whole("printed_laser_strength", None, 0, 6, "A000.11",
          "laser strength before damage (the card's second number; default the type's)"),
    whole("launch_capacity", 0, 0, 50, "R000.17"),
    whole("missiles", 0, 0, 999, doc="missiles carried"),
    whole("fighters", 0, 0, 999, doc="fighters carried"),
    whole("launched", 0, 0, 999, doc="missiles launched this turn"),
    whole("fighters_launched", 0, 0, 999, "A000.13"),
    # a group is one launch at most: twice a launch capacity of 50 (R000.17)
    whole("count", 1, 1, 100, "R000.17", "fighters or missiles in the group"),
)  # fmt: skip

OPTION_FIELDS = (
    number("range_unit_inches", 1.0, 0.05, 48, "GEO000.1"),
    choice("range_rounding", ROUNDINGS, "GEO000.1", default="floor"),
    choice("missile_to_hit", ("auto", "roll"), "A000.8"),
    whole("missile_to_hit_score", 0, 0, 9, "A000.8"),
    choice("lp_granularity", ("whole", "fractional"), "A000.10"),
    flag("ciws_default", True, "A000.15"),
    whole("lp_limit", 4, 0, 99, "R000.16"),
    flag("laser_damage", True, "A000.11",
         "an L1-L4 result lowers a ship's or base's current laser strength by 1-4 (never below "
         "0); games recorded before this reading was revised: false", before=False),
    turn_limit_field("A000.E1"),  # docs/game-end.md
)  # fmt: skip


def check_stats(stats: Mapping[str, Any]) -> list[Problem]:
    """Schema problems, then the checks that tie fields to the unit type."""
    problems = check_fields(STATS_FIELDS, stats)
    if problems:
        return problems
    kind = UnitType(stats.get("type", UnitType.SHIP.value))
    if kind is UnitType.SHIP and "laser_strength" not in stats:
        problems.append(
            Problem("laser_strength", "a whole number from 0 to 6 (required for a ship)", "R000.2")
        )
    if kind is UnitType.MISSILE:
        problems.extend(
            Problem(name, "no laser strength: missiles carry no lasers")
            for name in ("laser_strength", "printed_laser_strength")
            if name in stats
        )
    printed = stats.get("printed_laser_strength")
    current = int(stats.get("laser_strength", NOMINAL_LASER_STRENGTH.get(kind, 0)))
    if printed is not None and current > int(printed):
        problems.append(
            Problem(
                "laser_strength",
                f"at most the printed laser strength {printed} (damage only lowers it)",
                "A000.11",
            )
        )
    if kind is UnitType.FIGHTER and int(stats.get("laser_strength", 0)) != 0:
        problems.append(
            Problem("laser_strength", "0 or left out: fighters fire at LS 0", "A000.14")
        )
    if kind not in GROUPS and "count" in stats:
        problems.append(Problem("count", "no count: only fighter and missile groups have one"))
    if kind in GROUPS:
        problems.extend(
            Problem(name, f"no {name}: only ships and bases carry and launch")
            for name in CARRIER_ONLY
            if name in stats
        )
    capacity = int(stats.get("launch_capacity", 0))
    if int(stats.get("launched", 0)) > 2 * capacity:
        problems.append(
            Problem("launched", f"at most {2 * capacity} (twice the launch capacity)", "R000.17")
        )
    return problems


@dataclass(frozen=True, slots=True)
class Profile:
    """A unit's BFM stats with the defaults applied."""

    kind: UnitType
    laser_strength: int | None
    printed_laser_strength: int | None
    launch_capacity: int
    missiles: int
    fighters: int
    launched: int
    fighters_launched: int
    count: int

    @property
    def column(self) -> Column:
        """R000.9: bases use "v. Base", ships, fighters and missiles "v. Ship/Ftr/Msl"."""
        return "base" if self.kind is UnitType.BASE else "ship"

    @property
    def has_lasers(self) -> bool:
        return self.laser_strength is not None

    @property
    def is_carrier(self) -> bool:
        return self.kind in CARRIERS


def profile(unit: Unit) -> Profile:
    """Read a unit's stats (validated by the map loader) with the defaults filled in;
    remembered by the stats' identity (kept beside it), before their value: the rules and
    the computer players read the same unit's card many times a decision."""
    stats = unit.stats
    known = _BY_STATS.get(id(stats))
    if known is not None and known[0] is stats:
        return known[1]
    try:
        found = _profile(stats if isinstance(stats, FrozenMap) else FrozenMap(stats))
    except _MissingLasers:
        raise UserError(
            f"unit {unit.id!r}: a ship needs a laser_strength", spec_id="R000.2"
        ) from None
    except ValueError:
        raise UserError(
            f"unit {unit.id!r}: unknown BFM type {unit.stats.get('type')!r}", spec_id="A000.2"
        ) from None
    if type(stats) is FrozenMap:  # immutable: its card cannot change while it is kept
        if len(_BY_STATS) >= 4096:
            _BY_STATS.clear()
        _BY_STATS[id(stats)] = (stats, found)
    return found


_BY_STATS: dict[int, tuple[FrozenMap, Profile]] = {}  # by the stats' identity (`profile`)


class _MissingLasers(Exception):
    pass


@lru_cache(maxsize=4096)
def _profile(stats: FrozenMap) -> Profile:
    # cached by the (hashable, immutable) stats: odds enumeration reads the same units often
    kind = UnitType(stats.get("type", UnitType.SHIP.value))
    if kind is UnitType.MISSILE:
        laser: int | None = None
    elif "laser_strength" in stats:
        laser = int(stats["laser_strength"])
    elif kind in NOMINAL_LASER_STRENGTH:
        laser = NOMINAL_LASER_STRENGTH[kind]
    else:
        raise _MissingLasers
    printed: int | None = None
    if laser is not None:
        # A000.11: the strength before damage; a map that gives only a (lowered) current
        # strength keeps its type's nominal one as printed
        nominal = NOMINAL_LASER_STRENGTH.get(kind, laser)
        printed = int(stats.get("printed_laser_strength", max(nominal, laser)))
    return Profile(
        kind=kind,
        laser_strength=laser,
        printed_laser_strength=printed,
        launch_capacity=int(stats.get("launch_capacity", 0)),
        missiles=int(stats.get("missiles", 0)),
        fighters=int(stats.get("fighters", 0)),
        launched=int(stats.get("launched", 0)),
        fighters_launched=int(stats.get("fighters_launched", 0)),
        count=int(stats.get("count", 1)),
    )
