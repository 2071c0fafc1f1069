"""Dystopian Wars 1.1 (seed 002): measuring conventions, stats schema, options, movement hooks.

Range bands 1-4 and the Command Distance are base-game values (external,
G.5, A002.3); they are options with documented defaults.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tactical.geometry.arcs_spec import (
    AFT,
    BROADSIDES,
    CHANNEL,
    FORE,
    OMNI,
    PORT,
    QUADRANTS,
    STARBOARD,
    TURRET_270,
    ArcSpec,
)
from tactical.model import MovementClass, SizeClass, Terrain, Unit
from tactical.rules.base import (
    Field,
    MeasuringConventions,
    RangeBand,
    RangeBands,
    RuleSystem,
)

RANGE_BAND_INCHES = 8.0  # external default: four bands of 8"

ARCS_BY_NAME: dict[str, ArcSpec] = {
    "fore": FORE,
    "starboard": STARBOARD,
    "aft": AFT,
    "port": PORT,
    "turret": TURRET_270,
    "port broadside": BROADSIDES[0],
    "starboard broadside": BROADSIDES[1],
    "channel": CHANNEL,
    "all-round": OMNI,
}

HEIGHT_LEVELS = ("surface", "diving", "flying", "obscured")
WEAPON_KINDS = ("gunnery", "rocket", "torpedo", "bomb", "ack-ack", "concussion", "mines")

STATS_FIELDS = (
    Field("move", "float", default=6.0, low=0, high=60, doc="Movement in inches"),
    Field(
        "min_move",
        "float",
        default=0.0,
        low=0,
        high=60,
        doc="Minimum Move (R002.30)",
        spec_id="R002.30",
    ),
    Field("height_level", "str", default="surface", choices=HEIGHT_LEVELS, spec_id="R002.40"),
    Field(
        "generators", "str", default="", doc="comma-separated: tesla, kinetic, guardian, ultrasonic"
    ),
    Field("shield_generator", "bool", default=False),
    Field("fleet_commodore", "bool", default=False, spec_id="R002.10"),
    Field("squadron", "str", default=""),
    Field(
        "weapons",
        "tables",
        default=(),
        fields=(
            Field("name", "str", required=True),
            Field("kind", "str", required=True, choices=WEAPON_KINDS, spec_id="R002.36"),
            Field("arc", "str", default="fore", choices=tuple(ARCS_BY_NAME)),
            Field("attack_dice", "str", default="", doc="AD per range band 1-4, e.g. '8-6-4-2'"),
        ),
    ),
)

OPTION_FIELDS = (
    Field(
        "range_band_inches",
        "float",
        default=RANGE_BAND_INCHES,
        low=1,
        high=48,
        doc="length of each of Range Bands 1-4 (base game, external)",
    ),
    Field(
        "command_distance",
        "float",
        default=10.0,
        low=0,
        high=72,
        spec_id="A002.3",
        doc="Command Distance (base game, external)",
    ),
    Field(
        "guardian_measure",
        "str",
        default="nearest",
        choices=("nearest", "centre"),
        spec_id="A002.11",
    ),
    Field("half_rounding", "str", default="up", choices=("up", "down"), spec_id="A002.9"),
    Field(
        "fc_option_b_measure_from",
        "str",
        default="firer",
        choices=("firer", "target"),
        spec_id="A002.4",
    ),
)


def _bands(band_inches: float) -> RangeBands:
    return RangeBands(tuple(RangeBand(f"RB{n}", band_inches * n) for n in range(1, 5)))


def dw_blocks_los(terrain: Terrain, viewer: Unit | None, target: Unit | None) -> bool:
    """R002.40: LoS between the surface and a Flying/Obscured model is blocked only by
    Obstructing terrain of size Large or Massive; otherwise obstructing and dense terrain block."""
    levels = {_level(u) for u in (viewer, target) if u is not None}
    airborne = levels & {"flying", "obscured"}
    if airborne and levels - {"flying", "obscured"}:
        return terrain.kind == "obstructing" and terrain.height >= SizeClass.LARGE
    return terrain.kind in ("obstructing", "dense")


def _level(unit: Unit) -> str:
    return str(unit.stats.get("height_level", "surface"))


@dataclass(frozen=True)
class DystopianWars(RuleSystem):
    """Dystopian Wars 1.1 with the SPEC's adopted readings."""

    def los_level(self, unit: Unit) -> str:
        """R002.40 tells surface models from flying and obscured ones."""
        return "air" if _level(unit) in ("flying", "obscured") else "surface"

    def range_band(self, unit: Unit, distance: float, options: Mapping[str, Any]) -> str | None:
        band_inches = float(self.options(options)["range_band_inches"])
        return _bands(band_inches).band(distance)

    def unit_arcs(self, unit: Unit) -> tuple[ArcSpec, ...]:
        """The arcs of the unit's weapons (R002.14: batteries measured from the centre)."""
        arcs: dict[str, ArcSpec] = {}
        for weapon in unit.stats.get("weapons", ()):
            arc = ARCS_BY_NAME[weapon.get("arc", "fore")]
            arcs.setdefault(arc.name, arc)
        return tuple(arcs.values()) or self.conventions.arcs

    def terrain_collides(self, unit: Unit, terrain: Terrain) -> bool:
        """T002.12, R002.35, A002.7: water hits soft and dense; land and the air hit dense."""
        from tactical.rules.dystopian_wars import movement

        return movement.terrain_collides(unit, terrain)

    def turning_rules(self, unit: Unit, options: Mapping[str, Any]):  # -> TurningRules
        """R002.11-R002.13, R002.30-R002.34, R002.45, R002.48: see `movement.turning_rules`."""
        from tactical.rules.dystopian_wars import movement

        return movement.turning_rules(unit, self.options(options))


RULE_SYSTEM = DystopianWars(
    id="dystopian-wars",
    title="Dystopian Wars 1.1",
    seed="002",
    background="sea",
    default_movement=MovementClass.NAVAL,
    conventions=MeasuringConventions(
        distance_from="centre",
        distance_to="nearest",
        arc_test="any",
        range_bands=_bands(RANGE_BAND_INCHES),
        arcs=QUADRANTS,
    ),
    stats_fields=STATS_FIELDS,
    option_fields=OPTION_FIELDS,
    phases=("Initiative", "Squadron Activation", "End Phase"),
    blocks_los=dw_blocks_los,
)
