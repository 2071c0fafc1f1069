"""Cortex / Battlestar Galactica space rules (seed 003): conventions on the table (GEO003.7).

Range categories map to table distances in inches: personal < skirmish <
capital < short DRADIS < long DRADIS (GEO003.1), each an option.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tactical.geometry.arcs_spec import OMNI
from tactical.model import MovementClass, Unit
from tactical.rules.base import Field, MeasuringConventions, RangeBand, RangeBands, RuleSystem

RANGE_NAMES = ("personal", "skirmish", "capital", "short DRADIS", "long DRADIS")
RANGE_DEFAULTS = (1.0, 12.0, 36.0, 72.0, 144.0)

STATS_FIELDS = (
    Field("scale", "str", default="spacecraft", choices=("personal", "planetcraft", "spacecraft")),
    Field("agility", "str", default="d6"),
    Field("strength", "str", default="d6"),
    Field("vitality", "str", default="d6"),
    Field("alertness", "str", default="d6"),
    Field("life_points", "int", default=10, low=0, high=999),
    Field("armor", "int", default=0, low=0, high=99),
    Field("speed", "int", default=6, low=0, high=99),
    Field("pilot", "str", default="d6"),
    Field("gunnery", "str", default="d6"),
)

OPTION_FIELDS = tuple(
    Field(
        name.replace(" ", "_").lower() + "_inches",
        "float",
        default=value,
        low=0.1,
        high=1000,
        spec_id="GEO003.7",
    )
    for name, value in zip(RANGE_NAMES, RANGE_DEFAULTS, strict=True)
)


def _bands(options: Mapping[str, Any]) -> RangeBands:
    return RangeBands(
        tuple(
            RangeBand(name, float(options[name.replace(" ", "_").lower() + "_inches"]))
            for name in RANGE_NAMES
        )
    )


@dataclass(frozen=True)
class CortexSpace(RuleSystem):
    def range_band(self, unit: Unit, distance: float, options: Mapping[str, Any]) -> str | None:
        return _bands(self.options(options)).band(distance)


RULE_SYSTEM = CortexSpace(
    id="cortex-space",
    title="Cortex / Battlestar Galactica space rules",
    seed="003",
    background="space",
    default_movement=MovementClass.SPACE,
    conventions=MeasuringConventions(
        distance_from="centre",
        distance_to="centre",
        arc_test="centre",
        range_bands=RangeBands(
            tuple(RangeBand(n, v) for n, v in zip(RANGE_NAMES, RANGE_DEFAULTS, strict=True))
        ),
        arcs=(OMNI,),
    ),
    stats_fields=STATS_FIELDS,
    option_fields=OPTION_FIELDS,
    phases=("Advantage / initiative", "Actions"),
)
