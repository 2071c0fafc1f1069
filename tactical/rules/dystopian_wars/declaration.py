"""What Dystopian Wars 1.1 declares as data (seed 002): its stats and options fields, its
arcs by name, its Range Bands (G.5, A002.3) and line of sight by Height Level (R002.40).

The modules of this package read these directly; the rule system object is assembled from
them and the package's other modules in `system`, which none of them imports.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tactical.geometry.arcs_spec import BROADSIDES, CHANNEL, OMNI, QUADRANTS, TURRET_270, ArcSpec
from tactical.model import FrozenMap, MovementClass, SizeClass, Terrain, Unit
from tactical.model.frozen import remembered
from tactical.rules.conventions import RangeBand, RangeBands
from tactical.rules.dystopian_wars.schema import (
    OPTION_EXTRA_FIELDS,
    STATS_EXTRA_FIELDS,
    WEAPON_EXTRA_FIELDS,
    attack_dice_problems,
)
from tactical.rules.fields import choice, flag, number, text
from tactical.rules.schema import Field, Problem, check_fields, with_defaults

RANGE_BAND_INCHES = 8.0  # external default: four bands of 8"

# the names a card gives its arcs: fore, starboard, aft, port, turret, the two broadsides,
# channel and all-round, in this order (the order `arc` lists them in)
ARCS_BY_NAME: dict[str, ArcSpec] = {
    arc.name: arc for arc in (*QUADRANTS, TURRET_270, *BROADSIDES, CHANNEL, OMNI)
}

HEIGHT_LEVELS = ("surface", "diving", "flying", "obscured")
WEAPON_KINDS = ("gunnery", "rocket", "torpedo", "bomb", "ack-ack", "concussion", "mines")

STATS_FIELDS = (
    number("move", 6.0, 0, 60, doc="Movement in inches"),
    number("min_move", 0.0, 0, 60, "R002.30", "Minimum Move (R002.30)"),
    choice("height_level", HEIGHT_LEVELS, "R002.40"),
    text("generators", doc="comma-separated: tesla, kinetic, guardian, ultrasonic"),
    flag("shield_generator", False),
    flag("fleet_commodore", False, "R002.10"),
    text("squadron"),
    Field("weapons", "tables", default=(), fields=(
        text("name", None, required=True),
        choice("kind", WEAPON_KINDS, "R002.36", default=None, required=True),
        choice("arc", tuple(ARCS_BY_NAME)),
        text("attack_dice", "", "G.5", "AD per range band 1-4, e.g. '8-6-4-2'; each at most 100"),
        *WEAPON_EXTRA_FIELDS,
    )),
    *STATS_EXTRA_FIELDS,
)  # fmt: skip

OPTION_FIELDS = (
    number("range_band_inches", RANGE_BAND_INCHES, 1, 48,
           doc="length of each of Range Bands 1-4 (base game, external)"),
    number("command_distance", 10.0, 0, 72, "A002.3", "Command Distance (base game, external)"),
    choice("guardian_measure", ("nearest", "centre"), "A002.11"),
    choice("half_rounding", ("exact", "up", "down"), "A002.9",
           '"at least half" the boosted Movement: exact (Mv 11: 5.5" is enough), or rounded up or '
           "down; games recorded before this reading was revised: up", before="up"),
    flag("tesla_with_kinetic", True, "R002.48",
         "a model may roll both its Tesla and its Kinetic boost in one activation (only a second "
         "Kinetic Generator is forbidden); games recorded before this was fixed: false, one boost",
         before=False),
    choice("lost_off_table", ("wing", "flying"), "R002.59",
           "who is Lost leaving the table: a Tiny Flyer Wing only (any other model may not leave "
           "it), or any flying model with its whole squadron; games recorded before this was "
           "fixed: flying", before="flying"),
    choice("fc_option_b_measure_from", ("firer", "target"), "A002.4"),
    choice("models_block", ("all", "larger", "none"), "A002.21",
           "which other Surface models block line of sight between two Surface models: all, "
           "only those of the target's size class or bigger, or none (Auxiliary weapons ignore "
           "models); games recorded before this reading was revised: none", before="none"),
    *OPTION_EXTRA_FIELDS,
)  # fmt: skip


def bands(band_inches: float) -> RangeBands:
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
    """The model's Height Level; an aerial model without one given is Flying."""
    default = "flying" if unit.movement is MovementClass.AERIAL else "surface"
    return str(unit.stats.get("height_level", default))


def settings(given: Mapping[str, Any]) -> dict[str, Any]:
    """The options in force: the map's, with the adopted defaults filled in (as the rule
    system's `options`)."""
    return with_defaults(OPTION_FIELDS, given)


def los_level(unit: Unit) -> str:
    """R002.40 tells surface models from flying and obscured ones."""
    return "air" if _level(unit) in ("flying", "obscured") else "surface"


def range_table(unit: Unit, options: Mapping[str, Any]) -> RangeBands:
    """GEO002.7: Range Bands 1-4 of `range_band_inches` each, the same for every unit
    (kept for the table's own options, an immutable map: every distance measured asks)."""
    if not isinstance(options, FrozenMap):
        return bands(float(settings(options)["range_band_inches"]))
    found = _TABLES.get(id(options))
    if found is None or found[0] is not options:
        found = (options, bands(float(settings(options)["range_band_inches"])))
        if len(_TABLES) >= 16:
            _TABLES.clear()
        _TABLES[id(options)] = found
    return found[1]


# the range table of the options last asked, by their identity (kept beside their id)
_TABLES: dict[int, tuple[FrozenMap, RangeBands]] = {}


def range_band(unit: Unit, distance: float, options: Mapping[str, Any]) -> str | None:
    """GEO002.7: the Range Band `distance` falls in, bands of `range_band_inches` each."""
    return range_table(unit, options).band(distance)


def unit_arcs(unit: Unit) -> tuple[ArcSpec, ...]:
    """The arcs of the unit's weapons (R002.14: batteries measured from the centre); the
    four quadrants for a unit with none. Remembered by the very stats read (a moved model,
    and each place the computer players weigh for it, shares its stats): every table built
    asks it of every model."""
    stats = unit.stats
    if not isinstance(stats, FrozenMap):  # not immutable: read afresh
        return _arcs_of(stats)
    return remembered(_ARCS, stats, _arcs_of, MAX_ARCS)


# the arcs of a model's stats, by the stats' identity (kept beside it)
_ARCS: dict[int, tuple[Any, tuple[ArcSpec, ...]]] = {}
MAX_ARCS = 1024


def _arcs_of(stats: Mapping[str, Any]) -> tuple[ArcSpec, ...]:
    arcs: dict[str, ArcSpec] = {}
    for weapon in stats.get("weapons", ()):
        # R002.15: an FSA Rocket Battery is a Turret for line of sight and range
        arc = (
            TURRET_270 if weapon.get("rocket_battery") else ARCS_BY_NAME[weapon.get("arc", "fore")]
        )
        arcs.setdefault(arc.name, arc)
    return tuple(arcs.values()) or QUADRANTS


def check_stats(stats: Mapping[str, Any]) -> list[Problem]:
    """One unit's stats: the schema, then each weapon's Attack Dice band by band (G.5, at
    most `MAX_ATTACK_DICE` a band)."""
    return check_fields(STATS_FIELDS, stats) or attack_dice_problems(stats)
