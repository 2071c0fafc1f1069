"""Cortex / Battlestar Galactica optional space rules (seed 003, SPEC §4) as a rule system.

On the table (GEO003.7): range categories personal < skirmish < capital < short DRADIS
< long DRADIS are distances in inches, centre to centre (options with documented
defaults); proximity (contact, strafing's 30 feet, "very close", wing formation) is
measured base to base at `feet_per_inch`; every weapon fires all round (the seed has no
arcs) and nothing blocks line of sight (the seed has no line-of-sight rule).

Modules: `tables` (T003.1-T003.20), `rolls` (step dice, pools, outcomes, R003.1-R003.9),
`units` (stats and options schema), `positions` (the table's geometry), `damage`
(scales, Armor, wings, battle damage), `combat` (an attack declared, resolved by its
kind, its odds) with `acting` (the unit checked), `attack_pools` (attack and defense
pools and their modifiers), `gunnery` (guns, batteries, fire-linked, wings),
`point_defense` and `missile_lock`; `missiles`, `manoeuvres` (dogfighting, strafing,
wings) with `pilot_rolls` and `collisions` (collisions and ramming), `stations` and
`crew` (characters as crew, variants A and B), `bombardment` (atmosphere and orbital
bombardment), `tracker` (rule_state), and the turn through the generic action protocol:
`sequence` (phases, order of action), `choices` (what a side is offered), `play`
(actions applied) and `odds`. The rule system below is their declaration: each hook bound
to the function that implements it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tactical.geometry.arcs_spec import OMNI
from tactical.model import FrozenMap, Unit
from tactical.rules.base import (
    MeasuringConventions,
    RangeBand,
    RangeBands,
    RuleSystem,
    WeaponReach,
    bands_from_limits,
    never_blocks_los,
)
from tactical.rules.cortex_space import outcome as ending
from tactical.rules.cortex_space import positions, sequence
from tactical.rules.cortex_space.tables import STRUCTURE_KINDS
from tactical.rules.cortex_space.units import (
    OPTION_FIELDS,
    RANGE_DEFAULTS,
    RANGE_NAMES,
    STATS_FIELDS,
    check_stats,
    vessel,
    weapon_names,
)
from tactical.rules.protocol import hook

RULES_ID = "cortex-space"


# an attack (`combat`), what the player reads (`status`) and sets by hand (`by_hand`), the
# end (`ending`, docs/game-end.md): the standard hooks of each, each module imported when one
# of its hooks is first asked for (`tactical check` loads neither the turn's choices nor combat)
@dataclass(frozen=True)
class CortexSpace(
    RuleSystem, rules_id=RULES_ID, hooks_from=(".combat", ".status", ".by_hand", ending)
):
    """Seed 003 with the SPEC's adopted readings (options for the configurable ones)."""

    # for the computer players (tactical.agents.hints): the range bands (GEO003.1) run out
    # to long DRADIS, far past the guns (a Viper's autocannons reach skirmish range, a
    # battlestar's railguns capital range), so a place is valued by where each weapon
    # reaches; and the rules move nothing (a vessel moves on the table), so a table move
    # is made for a small gain too: without both, the agents never closed to gun range;
    # search's play-outs move the vessels too, count each attack in them at its exact
    # expectation (a battery of railguns swings the material further than what a choice
    # changes), and weigh a crew's preparation (a station roll lifts the next attack)
    # against the attack the greedy player would make first, and a choice whose play-outs
    # gain more on the mean replaces the greedy one, however they spread (the one-step
    # look values every preparation at nothing: its choice is no exact anchor to keep)
    # (docs/agents.md)
    agent_hints = FrozenMap(
        {
            "position_by_weapons": True,
            "move_threshold": 0.005,
            "playout_moves": True,
            "playout_expectations": True,
            "weigh_preparations": True,
            "overturn_errors": 0.0,
        }
    )

    check_stats = staticmethod(check_stats)
    unit_conditions = staticmethod(ending.unit_conditions)  # the players' batch of conditions
    # GEO003.1 / GEO003.7: five ordinal bands, the same for every unit; a vessel moves
    # within its Speed. Asteroids and wrecks (dense, obstructing) are obstacles, ground
    # targets are not: the protocol's `terrain_collides`.
    range_band = staticmethod(positions.range_band)
    range_table = staticmethod(positions.range_table)
    turning_rules = staticmethod(positions.turning_rules)
    # the turn: R003.10 / R003.11, the initiative group acting now and the vessels in order
    setup = staticmethod(sequence.setup)
    stage = staticmethod(sequence.stage)
    acting_order = hook(".status", "acting_order")
    actions = hook(".choices", "actions")
    apply = hook(".play", "apply")
    action_odds = hook(".odds", "action_odds")
    weapons = staticmethod(weapon_names)

    def weapon_reach(self, unit: Unit, weapon: str, options: Mapping[str, Any]) -> WeaponReach:
        """GEO003.1 / GEO003.7: all round, out to the weapon's longest range band."""
        found = next((w for w in vessel(unit).weapons if w.name == weapon), None)
        if found is None:
            return super().weapon_reach(unit, weapon, options)
        table = positions.range_table(unit, options).bands
        limits = [(band.name, band.max_inches) for band in table[: found.max_band + 1]]
        return WeaponReach(weapon, (OMNI,), bands_from_limits(limits, None))


RULE_SYSTEM = CortexSpace(
    end_reading=ending.SPEC_ID,
    id=RULES_ID,
    title="Cortex / Battlestar Galactica space rules",
    seed="003",
    background="space",
    conventions=MeasuringConventions(
        range_bands=RangeBands(
            tuple(RangeBand(n, v) for n, v in zip(RANGE_NAMES, RANGE_DEFAULTS, strict=True))
        ),
        arcs=(OMNI,),
        citations=(("range", "GEO003.7"), ("arcs", "GEO003.7"), ("line of sight", "GEO003.7")),
    ),
    stats_fields=STATS_FIELDS,
    option_fields=OPTION_FIELDS,
    # the seed's actions move nothing: vessels move on the table, within their Speed
    # (`turning_rules`, GEO003.7), by the session's own move
    free_table_moves=True,
    turn=sequence.TURN_SEQUENCE,
    terrain_kinds=("soft", "dense", "obstructing", *STRUCTURE_KINDS),
    blocks_los=never_blocks_los,  # seed 003 has no line-of-sight rule
)
