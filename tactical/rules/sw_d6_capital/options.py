"""`[options]` of a sw-d6-capital map: the configurable readings and [external] parameters.

- `inches_per_space` (GEO004.1, default 1): inches of table per Space unit; weapon ranges
  and speeds are in Space units.
- `meet_or_beat` (R004.5, A004.5, default false; before the revision true): a to-hit roll
  must beat its Difficulty (a tie misses); true: a tie hits.
- `meet_or_beat_scope` (A004.5, default "to-hit"): `meet_or_beat` judges the Gunnery rolls
  only; every other roll (Damage Control, repairs, shields, Piloting) succeeds on a roll
  equal to its Difficulty ("roll 30+"). "every-roll" (the reading before the revision) lets
  `meet_or_beat` judge every roll.
- `initiative_pass` (R004.10, R004.11, default false; before the fix true): no side passes
  while this turn's Initiative is still to be rolled; true lets the sides pass it, leaving
  the roll to the first captain who takes it in a later phase.
- `command_pass` (R004.15, R004.17, default false; before the fix true): a side with a
  Command roll or its orders still open to it does not pass the Command phase; true lets
  it pass, its ships keeping no Command modifier and Steady orders.
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

from collections.abc import Mapping
from typing import Any

from tactical.rules.base import turn_limit_field
from tactical.rules.fields import choice, flag, number, whole

OPTION_FIELDS = (
    number("inches_per_space", 1.0, 0.1, 12, "GEO004.1"),
    flag("meet_or_beat", False, "A004.5",
         "a Gunnery roll equal to its Difficulty hits (false: a tie misses); games recorded "
         "before this reading was revised: true", before=True),
    choice("meet_or_beat_scope", ("to-hit", "every-roll"), "A004.5",
           "the rolls meet or beat judges: the Gunnery rolls only (every other roll succeeds on "
           "a tie) or every roll; games recorded before the revision: every-roll",
           before="every-roll"),
    flag("initiative_pass", False, "R004.11",
         "a side may pass before the turn's Initiative is rolled, leaving the roll to a later "
         "phase; games recorded before this was fixed: true",
         title="Pass before rolling Initiative", before=True),
    flag("command_pass", False, "R004.15",
         "a side may pass the Command phase with a Command roll or its orders still to make "
         "(its ships then keep no Command modifier and Steady orders); games recorded before "
         "this was fixed: true", title="Pass before Command rolls and orders", before=True),
    choice("initiative_rounding", ("half-pips", "odd-dice"), "A004.1"),
    whole("range_point_blank", 5, 0, 60, "T004.19"),
    whole("range_short", 10, 0, 60, "T004.19"),
    whole("range_medium", 15, 0, 60, "T004.19"),
    whole("range_long", 20, 0, 60, "T004.19"),
    flag("catastrophic_damage", True, "R004.49"),
    choice("passenger_damage", ("bridge", "every-level"), "A004.26"),
    whole("hazard_difficulty", 15, 1, 60, "GEO004.7"),
    number("hazard_proximity", 1.0, 0, 24, "GEO004.7"),
    turn_limit_field("A004.E1"),  # docs/game-end.md
)  # fmt: skip

RANGE_OPTION = {
    "point-blank": "range_point_blank",
    "short": "range_short",
    "medium": "range_medium",
    "long": "range_long",
}


def tie_succeeds(settings: Mapping[str, Any], *, to_hit: bool) -> bool:
    """R004.5, A004.5: whether a roll equal to its Difficulty succeeds. A to-hit roll must
    beat it unless `meet_or_beat`; any other roll meets it ("roll 30+"), save under the
    reading before the revision (`meet_or_beat_scope` "every-roll"), where `meet_or_beat`
    judged every roll."""
    if to_hit or settings["meet_or_beat_scope"] == "every-roll":
        return bool(settings["meet_or_beat"])
    return True
