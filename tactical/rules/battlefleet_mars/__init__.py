"""Battlefleet Mars: Tactical Game Changes (seed 000, SPEC §1) as a rule system.

Conventions (GEO000.1): range is measured centre to centre on the table and
counted in range units of `range_unit_inches` (default 1") — see
`tables.range_units` for the rounding we adopt; there are no arcs, no facing
and no line of sight (every direction is in reach, nothing blocks).

Turn sequence: logistics (R000.15/16), launches (R000.17), then the
alternating tactical combat sequence (R000.18): the sides take turns
resolving one attack each — one unit's laser attack (R000.3) or one declared
missile attack — until both pass. `play` offers each phase's choices and
applies them.

Modules: `tables` (formulas and T000.*), `units` (stats and options schema),
`ranges` (range on the table), `combat` (declarations, resolvers, odds), `logistics`
(LP, launches), `play` (the turn through the generic protocol). The rule system below is
their declaration: each hook bound to the function that implements it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tactical.geometry.arcs_spec import OMNI
from tactical.model import Unit
from tactical.rules.base import (
    FiringBand,
    MeasuringConventions,
    RuleSystem,
    WeaponReach,
    never_blocks_los,
)
from tactical.rules.battlefleet_mars import outcome as ending
from tactical.rules.battlefleet_mars import ranges
from tactical.rules.battlefleet_mars.tables import RESULT_KEY
from tactical.rules.battlefleet_mars.units import OPTION_FIELDS, STATS_FIELDS, check_stats
from tactical.rules.protocol import hook, later

RULES_ID = "battlefleet-mars"


# the turn (R000.15-R000.18): each phase's own kinds (`play`; BFM has no movement rules, its
# counters are moved freely on the table: the session's `move`, `free_table_moves`), an
# attack (`combat`), what the player reads (`status`) and sets by hand (`by_hand`), the end
# (`ending`, docs/game-end.md, which declares its own): the standard hooks of each, each module
# imported when one of its hooks is first asked for (`tactical check` loads no combat)
@dataclass(frozen=True)
class BattlefleetMars(
    RuleSystem,
    rules_id=RULES_ID,
    hooks_from=(".play", ".combat", ".status", ".by_hand", ending),
):
    """Seed 000 with the SPEC's adopted readings (options for the configurable ones)."""

    check_stats = staticmethod(check_stats)
    # GEO000.1: range in whole range units, as far as the lasers reach (R000.6)
    range_band = staticmethod(ranges.range_band)
    range_band_indices = staticmethod(ranges.range_band_indices)
    weapons = hook(".combat", "weapons_of")

    def weapon_reach(self, unit: Unit, weapon: str, options: Mapping[str, Any]) -> WeaponReach:
        """GEO000.1: no arcs; lasers reach as far as their strength allows (R000.6), missiles
        any range (GEO000.3)."""
        from tactical.rules.battlefleet_mars import combat  # here: loaded on first use

        if weapon == combat.MISSILES:
            return WeaponReach(weapon, (OMNI,), (FiringBand("any range", 0.0, math.inf),))
        return super().weapon_reach(unit, weapon, options)


RULE_SYSTEM = BattlefleetMars(
    end_reading=ending.SPEC_ID,
    result_key=RESULT_KEY,  # T000.5: what B2, iL, D... do, for the help
    id=RULES_ID,
    title="Battlefleet Mars: Tactical Game Changes",
    seed="000",
    background="space",
    conventions=MeasuringConventions(
        range_unit=1.0,
        arcs=(OMNI,),
        citations=(("range", "GEO000.1"), ("arcs", "GEO000.1"), ("line of sight", "GEO000.1")),
    ),
    stats_fields=STATS_FIELDS,
    option_fields=OPTION_FIELDS,
    turn=later("tactical.rules.battlefleet_mars.play", "TURN_SEQUENCE"),
    blocks_los=never_blocks_los,  # GEO000.1: no line of sight, so nothing blocks it
)
