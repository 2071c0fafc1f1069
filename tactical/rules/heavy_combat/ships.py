"""Heavy Combat ship sheets (`[unit.stats]`) and map options (`[options]`): schema and reading.

The SSDs are external to the seed (SPEC §2.0): each stat below is a
parameter with the SPEC's stated default.

Unit stats:

- `race`: federation | klingon | romulan (default federation);
- `chart`: the internal damage chart, federation (T001.5) or klingon (T001.6);
  defaults to klingon for Klingons and federation otherwise;
- `power_dice`: d6 rolled for power each turn (A001.1, default 2);
- `internals`: internal boxes (R001.35, default 23, the Fed CA; at least 6);
- `boxes`: boxes per chart category {bridge, sensors, weapons, impulse,
  batteries, warp}; all six when given, summing to `internals`. Default:
  `internals` spread evenly, the first categories taking the remainder
  (23 -> 4, 4, 4, 4, 4, 3);
- `shields`: capacity per facing {fore, aft, port, starboard, dorsal, ventral}
  (default 27 each, the "4/27" of X001.1);
- `phasers` (R001.15, default true), `romulan_disruptors` (R001.16, default
  false) with `romulan_disruptor_arcs` (a table of the six facings, default
  all true), `photon_launchers` (R001.18, default 2), `torpedoes` (R001.17,
  default 20, the CA's magazine), `disruptors` (Klingon HC disruptors, R001.19,
  default false), `cloak` (R001.29, default false);
- `elevation`: level | dorsal | ventral — the declared elevation (GEO001.7):
  a ship at dorsal or ventral elevation presents that facing to the enemy.

Options: see `OPTION_FIELDS` (each with its SPEC id and the adopted default).
`system_failure` (A001.27, R001.38): a chart category whose boxes are all destroyed
("last-box", the default), or that has lost any box ("first-box"), stops its systems:
Phasers / Photons no phasers (nor Romulan disruptors, fired as phasers) and no photons;
Armor / Cloak / Disruptors / Photons no disruptors, no photons and no cloak; Fire
Control / Bridge fires by the direction procedure of R001.32. "off" plays the reading
before R001.38 (no category stops anything), and is what a game recorded without the
option replays with.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from tactical.errors import UserError
from tactical.model import FrozenMap, Unit
from tactical.rules.base import (
    Field,
    Problem,
    check_fields,
    options_check,
    turn_limit_field,
)
from tactical.rules.fields import choice, flag, number, whole
from tactical.rules.heavy_combat.tables import (
    CATEGORIES,
    ELEVATIONS,
    FACINGS,
    PHASER_ARCS,
    TORPEDO_MAGAZINE_CA,
)

RACES = ("federation", "klingon", "romulan")
CHART_NAMES = ("federation", "klingon")
DEFAULT_INTERNALS = 23
DEFAULT_SHIELD = 27
STEP_INCHES = 12.0
# A001.27: when a chart category stops its systems (R001.38): once every box is destroyed,
# once any is, or never (how games were played before R001.38 was adopted)
FAILURES = ("last-box", "first-box", "off")

STATS_FIELDS = (
    choice("race", RACES, doc="the ship's race"),
    choice("chart", CHART_NAMES, "R001.34", "internal damage chart", default=None),
    whole("power_dice", 2, 1, 6, "A001.1", "power dice (d6)"),
    whole("internals", None, len(CATEGORIES), 99, "R001.35",
          f"internal boxes (default {DEFAULT_INTERNALS})"),
    Field("boxes", "table", doc="internal boxes per chart category", spec_id="R001.34",
          fields=tuple(whole(c, None, 1, 99, required=True) for c in CATEGORIES)),
    Field("shields", "table", doc="shield capacity per facing", spec_id="R001.28",
          fields=tuple(whole(f, DEFAULT_SHIELD, 0, 99) for f in FACINGS)),
    flag("phasers", True, "R001.15"),
    flag("romulan_disruptors", False, "R001.16"),
    Field("romulan_disruptor_arcs", "table", spec_id="R001.16",
          fields=tuple(flag(f, True) for f in FACINGS)),
    whole("photon_launchers", 2, 0, 4, "R001.18"),
    whole("torpedoes", TORPEDO_MAGAZINE_CA, 0, 99, "R001.17"),
    flag("disruptors", False, "R001.19"),
    flag("cloak", False, "R001.29"),
    choice("elevation", ELEVATIONS, "GEO001.7"),
)  # fmt: skip

OPTION_FIELDS = (
    number("inches_per_range_step", STEP_INCHES, 1, 48, "GEO001.7",
           "inches per range band on the table"),
    choice("geometry", ("table", "categorical"), "GEO001.7",
           "range and facings from the table, or kept as categories only"),
    whole("start_range", None, 1, 3, "GEO001.1",
          "categorical geometry: the starting range band (default: from the table)"),
    choice("specific_system_die", ("d10", "2d6"), "A001.9", "specific-system targeting roll"),
    choice("countermeasures", ("negate", "none"), "A001.12",
           "countermeasure points negate incoming damage 1 for 1, or do nothing"),
    choice("tracking_damage_die", ("1d6", "2d6"), "A001.6",
           "photon / Klingon disruptor damage roll (times the range multiplier)"),
    choice("cloaked_direction", ("roll", "declare"), "R001.30",
           "direction fired at a cloaked ship: rolled on T001.4 or nominated"),
    flag("allow_disengage", False, "A001.18", "a retreat from range 3 leaves the engagement"),
    choice("system_failure", FAILURES, "A001.27",
           "a damage-chart category stops its systems once its last box is destroyed, once its "
           "first is, or never; games recorded before this rule was adopted: off", before="off"),
    turn_limit_field("A001.E1"),  # docs/game-end.md
)  # fmt: skip


def even_boxes(internals: int) -> tuple[int, ...]:
    """The default boxes per category: spread evenly, the first categories take the rest."""
    base, extra = divmod(internals, len(CATEGORIES))
    return tuple(base + (1 if k < extra else 0) for k in range(len(CATEGORIES)))


def check_stats(stats: Mapping[str, Any]) -> list[Problem]:
    """Schema problems, then the checks tying `boxes` to `internals`."""
    problems = check_fields(STATS_FIELDS, stats)
    if problems:
        return problems
    if "boxes" in stats and "internals" in stats:
        total = sum(int(stats["boxes"][c]) for c in CATEGORIES)
        if total != int(stats["internals"]):
            problems.append(
                Problem(
                    "boxes",
                    f"boxes summing to internals ({stats['internals']}), not {total}",
                    "R001.35",
                )
            )
    return problems


@dataclass(frozen=True, slots=True)
class Profile:
    """A ship's sheet (SSD) with the defaults filled in."""

    race: str
    chart: str
    power_dice: int
    internals: int
    boxes: tuple[int, ...]  # per category, CATEGORIES order
    shields: tuple[int, ...]  # per facing, FACINGS order
    phasers: bool
    romulan_disruptors: bool
    romulan_disruptor_arcs: frozenset[str]
    photon_launchers: int
    torpedoes: int
    disruptors: bool
    cloak: bool
    elevation: str

    def shield(self, facing: str) -> int:
        return self.shields[FACINGS.index(facing)]

    def capacity(self, category: str) -> int:
        return self.boxes[CATEGORIES.index(category)]


def profile(unit: Unit) -> Profile:
    """Read a unit's stats (validated by the map loader) with the defaults filled in."""
    stats = unit.stats if isinstance(unit.stats, FrozenMap) else FrozenMap(unit.stats)
    read = _profile(stats)
    if isinstance(read, Problem):
        raise UserError(
            f"unit {unit.id!r}: stats {read.key}: expected {read.expected}", spec_id=read.spec_id
        )
    return read


@lru_cache(maxsize=1024)
def _profile(stats: FrozenMap) -> Profile | Problem:
    # cached by the (hashable, immutable) stats: the resolvers read the same two ships often
    problems = check_stats(stats)
    if problems:
        return problems[0]
    race = str(stats.get("race", "federation"))
    if "boxes" in stats:
        boxes = tuple(int(stats["boxes"][c]) for c in CATEGORIES)
        internals = int(stats.get("internals", sum(boxes)))
    else:
        internals = int(stats.get("internals", DEFAULT_INTERNALS))
        boxes = even_boxes(internals)
    shields = stats.get("shields", FrozenMap())
    arcs = stats.get("romulan_disruptor_arcs", FrozenMap())
    return Profile(
        race=race,
        chart=str(stats.get("chart", "klingon" if race == "klingon" else "federation")),
        power_dice=int(stats.get("power_dice", 2)),
        internals=internals,
        boxes=boxes,
        shields=tuple(int(shields.get(f, DEFAULT_SHIELD)) for f in FACINGS),
        phasers=bool(stats.get("phasers", True)),
        romulan_disruptors=bool(stats.get("romulan_disruptors", False)),
        romulan_disruptor_arcs=frozenset(f for f in PHASER_ARCS if arcs.get(f, True)),
        photon_launchers=int(stats.get("photon_launchers", 2)),
        torpedoes=int(stats.get("torpedoes", TORPEDO_MAGAZINE_CA)),
        disruptors=bool(stats.get("disruptors", False)),
        cloak=bool(stats.get("cloak", False)),
        elevation=str(stats.get("elevation", "level")),
    )


def settings(options: Mapping[str, Any]) -> FrozenMap:
    """The options in force, validated (UserError naming the key otherwise)."""
    return _options(options if isinstance(options, FrozenMap) else FrozenMap(options))


_options = options_check(OPTION_FIELDS)
