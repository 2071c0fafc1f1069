"""Dystopian Wars 1.1 (seed 002): measuring conventions, stats schema, options, movement hooks.

Range bands 1-4 and the Command Distance are base-game values (external,
G.5, A002.3); they are options with documented defaults.

Line of sight (R002.40, R002.41 / A002.21): terrain blocks it per `dw_blocks_los`; between
two Surface models the base of any other Surface model it crosses blocks it too (no Tiny
Flyer; Auxiliary weapons ignore models), per the `models_block` option: "all" (default),
"larger" (only models of the target's size class or bigger) or "none" (games recorded
before this reading was revised).

Movement readings fixed against the booklet, each an option whose earlier value replays
games recorded before the fix: `half_rounding` (A002.9, R002.45, R002.48: "at least half"
the boosted Movement is exact, "exact"; "up" before), `tesla_with_kinetic` (R002.48: only
a second Kinetic Generator is forbidden, a Tesla boost may join a Kinetic one, true; false
before, one boost) and `lost_off_table` (R002.59: only a Tiny Flyer Wing that leaves the
table is Lost, any other model may not leave it, "wing"; "flying" before, any flying model
and its whole squadron). Derelict models (set by hand) Drift in the End Phase (R002.19).

Seed 002 lives in the modules of this package: `declaration` (the stats and options
fields, the arcs by name, the Range Bands, line of sight by Height Level), `schema` (those
of fleet building, damage, tiny flyers and the external mechanics), `tables`
(T002.1-T002.12), `cards` (stat cards, R002.44), `fleet` (R002.2-R002.6, R002.58), `command`
(R002.10, R002.23-R002.27), `combat` (declaring an attack: R002.29, R002.36-R002.43,
R002.51), `chance`, `resolving` and `odds_report` (an attack's roll on plain numbers, its
resolution on the table and its exact odds: R002.49, R002.50, R002.56), `close_quarters`
(rams and Boarding Assaults), `generators` (R002.45-R002.51), `flyers` (R002.52-R002.61),
`victory` (R002.20-R002.22), `maneuver` (a move played as an action), `tracking` (rule_state
keys), `sequence` (the turn's phases, setup, the tracker's stage, the activation record),
the turn's segments as choices and actions (`opening`, `movement_segment`, `attacks`,
`combat_steps`, `activation_end`, `end_phase`, `commodore`) and `play` (the protocol's
`actions`, `apply` and odds, dispatching to them). The rule system object is assembled
last, in `system`, from all of them; none of them imports it.
"""

from tactical.rules.dystopian_wars.declaration import (
    ARCS_BY_NAME,
    HEIGHT_LEVELS,
    OPTION_FIELDS,
    RANGE_BAND_INCHES,
    STATS_FIELDS,
    WEAPON_KINDS,
    dw_blocks_los,
)
from tactical.rules.dystopian_wars.system import RULE_SYSTEM, DystopianWars

__all__ = [
    "ARCS_BY_NAME",
    "HEIGHT_LEVELS",
    "OPTION_FIELDS",
    "RANGE_BAND_INCHES",
    "RULE_SYSTEM",
    "STATS_FIELDS",
    "WEAPON_KINDS",
    "DystopianWars",
    "dw_blocks_los",
]
