"""Revised Rules for Heavy Combat (seed 001): conventions on the table (GEO001.7).

On the table the range band 1-3 comes from the centre-to-centre distance,
`inches_per_range_step` inches per band (an option); the facing each ship
presents comes from the relative bearing in the standard quadrants.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tactical.geometry.arcs_spec import QUADRANTS
from tactical.model import MovementClass, Unit
from tactical.rules.base import Field, MeasuringConventions, RangeBand, RangeBands, RuleSystem

STEP_INCHES = 12.0

STATS_FIELDS = (
    Field("race", "str", default="federation", choices=("federation", "klingon", "romulan")),
    Field("power_dice", "int", default=2, low=1, high=6, spec_id="A001.1"),
    Field("internals", "int", default=23, low=1, high=99, spec_id="R001.35"),
    Field(
        "shields",
        "table",
        default=None,
        fields=tuple(
            Field(face, "int", default=27, low=0, high=99)
            for face in ("fore", "aft", "port", "starboard", "dorsal", "ventral")
        ),
    ),
    Field("photon_launchers", "int", default=2, low=0, high=4, spec_id="R001.18"),
    Field("torpedoes", "int", default=20, low=0, high=99, spec_id="R001.17"),
    Field("disruptors", "bool", default=False, spec_id="R001.19"),
)

OPTION_FIELDS = (
    Field(
        "inches_per_range_step", "float", default=STEP_INCHES, low=1, high=48, spec_id="GEO001.7"
    ),
    Field("specific_system_die", "str", default="d10", choices=("d10", "2d6"), spec_id="A001.9"),
    Field(
        "countermeasures", "str", default="negate", choices=("negate", "none"), spec_id="A001.12"
    ),
)


def _bands(step: float) -> RangeBands:
    return RangeBands(tuple(RangeBand(str(n), step * n) for n in (1, 2, 3)))


@dataclass(frozen=True)
class HeavyCombat(RuleSystem):
    def range_band(self, unit: Unit, distance: float, options: Mapping[str, Any]) -> str | None:
        return _bands(float(self.options(options)["inches_per_range_step"])).band(distance)


RULE_SYSTEM = HeavyCombat(
    id="heavy-combat",
    title="Revised Rules for Heavy Combat",
    seed="001",
    background="space",
    default_movement=MovementClass.SPACE,
    conventions=MeasuringConventions(
        distance_from="centre",
        distance_to="centre",
        arc_test="centre",
        range_bands=_bands(STEP_INCHES),
        arcs=QUADRANTS,
    ),
    stats_fields=STATS_FIELDS,
    option_fields=OPTION_FIELDS,
    phases=("Roll power", "Reaction movement", "Countermeasures / reinforce", "Fire", "Result"),
)
