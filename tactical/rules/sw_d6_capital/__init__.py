"""Star Wars D6 capital ship combat (seed 004): conventions, stats schema and options.

Positions are in "Space" movement units (GEO004.1); on the table one Space unit
is `inches_per_space` inches (an option). Fire arcs are the four quadrants,
renamed front/right/rear/left (DESIGN.md); weapon ranges are per weapon
("3-15/35/75", GEO004.2).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tactical.geometry.arcs_spec import Sector
from tactical.model import MovementClass, Unit
from tactical.rules.base import Field, MeasuringConventions, RuleSystem

FRONT = Sector("front", 315.0, 45.0)
RIGHT = Sector("right", 45.0, 135.0)
REAR = Sector("rear", 135.0, 225.0)
LEFT = Sector("left", 225.0, 315.0)
SW_ARCS = (FRONT, RIGHT, REAR, LEFT)
SPEEDS = ("stationary", "cautious", "cruising", "high", "all-out")

STATS_FIELDS = (
    Field("scale", "str", default="capital", choices=("starfighter", "frigate", "capital")),
    Field("space", "int", default=4, low=0, high=20, doc="Space (movement units)"),
    Field("speed", "str", default="cruising", choices=SPEEDS, spec_id="R004.51"),
    Field("hull", "str", default="4D"),
    Field("shields", "str", default="2D"),
    Field("maneuverability", "str", default="1D"),
    Field(
        "weapons",
        "tables",
        default=(),
        fields=(
            Field("name", "str", required=True),
            Field("arc", "str", default="front", choices=("front", "right", "rear", "left")),
            Field("fire_control", "str", default="2D"),
            Field("damage", "str", default="4D"),
            Field("battery", "str", default="0D"),
            Field(
                "ranges",
                "str",
                default="3-15/35/75",
                doc="short min-short/medium/long in Space units",
            ),
        ),
    ),
)

OPTION_FIELDS = (
    Field("inches_per_space", "float", default=1.0, low=0.1, high=12, spec_id="GEO004.1"),
    Field("meet_or_beat", "bool", default=True, spec_id="A004.5"),
)


def parse_ranges(text: str) -> tuple[float, float, float, float]:
    """'3-15/35/75' -> (point-blank limit 3, short 15, medium 35, long 75) in Space units."""
    short_part, medium, long = text.split("/")
    low, short = short_part.split("-")
    return float(low), float(short), float(medium), float(long)


@dataclass(frozen=True)
class SwD6Capital(RuleSystem):
    """Star Wars D6 capital ships with the SPEC's adopted readings."""

    def range_band(self, unit: Unit, distance: float, options: Mapping[str, Any]) -> str | None:
        """GEO004.2: the band of the unit's longest-ranged weapon (Point Blank below Short)."""
        weapons = unit.stats.get("weapons", ())
        if not weapons:
            return None
        scale = float(self.options(options)["inches_per_space"])
        space = distance / scale
        low, short, medium, long = max(parse_ranges(w.get("ranges", "3-15/35/75")) for w in weapons)
        if space < low:
            return "point-blank"
        for name, limit in (("short", short), ("medium", medium), ("long", long)):
            if space <= limit + 1e-9:
                return name
        return None

    def turning_rules(self, unit: Unit, options: Mapping[str, Any]):  # -> TurningRules
        """R004.50, R004.51, T004.14: see `movement.turning_rules`."""
        from tactical.rules.sw_d6_capital import movement

        return movement.turning_rules(unit, self.options(options))


RULE_SYSTEM = SwD6Capital(
    id="sw-d6-capital",
    title="Star Wars D6 Capital Ship Combat",
    seed="004",
    background="space",
    default_movement=MovementClass.SPACE,
    conventions=MeasuringConventions(
        distance_from="centre", distance_to="centre", arc_test="centre", arcs=SW_ARCS
    ),
    stats_fields=STATS_FIELDS,
    option_fields=OPTION_FIELDS,
    phases=("Initiative", "Command", "Damage Control", "Action", "Movement"),
)
