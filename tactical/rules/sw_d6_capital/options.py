"""`[options]` of a sw-d6-capital map: the configurable readings and [external] parameters.

- `inches_per_space` (GEO004.1, default 1): inches of table per Space unit; weapon ranges
  and speeds are in Space units.
- `meet_or_beat` (A004.5, default true): success on roll >= Difficulty; false: roll > it.
- `initiative_rounding` (A004.1, default "half-pips"): (Tactics + Sensors) / 2 rounded up
  in pips; "odd-dice" halves the dice and rounds up to whole dice.
- `range_point_blank`, `range_short`, `range_medium`, `range_long` (T004.19 [external],
  defaults 5 / 10 / 15 / 20): the Range Difficulty of each band.
- `catastrophic_damage` (R004.49, default true): a PC-manned ship (`pc_crew`) that would be
  Destroyed rolls on the Catastrophic Damage table instead (the GM's discretion).
- `passenger_damage` (R004.47, R004.48, A004.26, default "bridge"): passenger damage (and
  the crew-casualty penalties of large ships) is rolled when the effect calls for it
  (Severely Damaged #5); "every-level" rolls it for every damage level a ship reaches.
- `hazard_difficulty` (GEO004.7 [external], default 15, Moderate): the Piloting Difficulty of
  a tricky manoeuvre; `hazard_proximity` (default 1"): flying within this of another
  capital-scale ship is one.
"""

from __future__ import annotations

from tactical.rules.base import Field, turn_limit_field

OPTION_FIELDS = (
    Field("inches_per_space", "float", default=1.0, low=0.1, high=12, spec_id="GEO004.1"),
    Field("meet_or_beat", "bool", default=True, spec_id="A004.5"),
    Field(
        "initiative_rounding",
        "str",
        default="half-pips",
        choices=("half-pips", "odd-dice"),
        spec_id="A004.1",
    ),
    Field("range_point_blank", "int", default=5, low=0, high=60, spec_id="T004.19"),
    Field("range_short", "int", default=10, low=0, high=60, spec_id="T004.19"),
    Field("range_medium", "int", default=15, low=0, high=60, spec_id="T004.19"),
    Field("range_long", "int", default=20, low=0, high=60, spec_id="T004.19"),
    Field("catastrophic_damage", "bool", default=True, spec_id="R004.49"),
    Field(
        "passenger_damage",
        "str",
        default="bridge",
        choices=("bridge", "every-level"),
        spec_id="A004.26",
    ),
    Field("hazard_difficulty", "int", default=15, low=1, high=60, spec_id="GEO004.7"),
    Field("hazard_proximity", "float", default=1.0, low=0, high=24, spec_id="GEO004.7"),
    turn_limit_field("A004.E1"),  # docs/game-end.md
)

RANGE_OPTION = {
    "point-blank": "range_point_blank",
    "short": "range_short",
    "medium": "range_medium",
    "long": "range_long",
}
