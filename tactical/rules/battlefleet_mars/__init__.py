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
(LP, launches), `play` (the turn through the generic protocol).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from tactical.dice import Dice
from tactical.geometry.arcs_spec import OMNI
from tactical.model import GameState, MovementClass, SizeClass, Terrain, Unit
from tactical.rules.base import (
    Action,
    ActionChoice,
    Attack,
    Field,
    FiringBand,
    MeasuringConventions,
    OddsReport,
    Problem,
    Resolution,
    RuleSystem,
    TurnPosition,
    TurnSequence,
    WeaponReach,
)
from tactical.rules.battlefleet_mars import by_hand, combat, play, status
from tactical.rules.battlefleet_mars import outcome as ending
from tactical.rules.battlefleet_mars.tables import (
    RESULT_KEY,
    max_range,
    range_units,
    range_units_array,
)
from tactical.rules.battlefleet_mars.units import OPTION_FIELDS, STATS_FIELDS, check_stats, profile
from tactical.rules.ending import UnitCondition
from tactical.rules.status import Unavailable, UnitStatus

RULES_ID = "battlefleet-mars"

TURN_SEQUENCE = play.TURN_SEQUENCE


def _no_line_of_sight(terrain: Terrain, viewer: Unit | None, target: Unit | None) -> bool:
    """GEO000.1: BFM has no line of sight, so nothing blocks it."""
    return False


@dataclass(frozen=True)
class BattlefleetMars(RuleSystem):
    """Seed 000 with the SPEC's adopted readings (options for the configurable ones)."""

    def unit_condition(self, state: GameState, unit: Unit) -> UnitCondition:
        """How a unit as it started stands now (`outcome.unit_condition`, docs/game-end.md)."""
        return ending.unit_condition(state, unit)

    def actions(
        self, state: GameState, position: TurnPosition, side: str
    ) -> tuple[ActionChoice, ...]:
        """What `side` may declare at `position`: each phase's own kinds (`play.actions`). BFM
        has no movement rules: its counters are moved freely on the table (the session's
        `move`, `free_table_moves`)."""
        return play.actions(state, position, side)

    def setup(self, state: GameState) -> GameState:
        return play.setup(state)

    def apply(self, state: GameState, action: Action, dice: Dice) -> Resolution:
        return play.apply(state, action, dice)

    def action_odds(self, state: GameState, action: Action) -> OddsReport | None:
        return play.action_odds(state, action, self.id)

    def check_stats(self, stats: Mapping[str, Any]) -> list[Problem]:
        return check_stats(stats)

    def range_band(self, unit: Unit, distance: float, options: Mapping[str, Any]) -> str | None:
        """`R<n>`: the integer range (GEO000.1), None beyond the unit's laser reach (R000.6)."""
        settings = self.options(options)
        reach = range_units(
            distance, float(settings["range_unit_inches"]), str(settings["range_rounding"])
        )
        card = profile(unit)
        if card.has_lasers and reach > max_range(card.laser_strength or 0):
            return None
        return f"R{reach}"

    def range_band_indices(
        self, unit: Unit, distances: np.ndarray, options: Mapping[str, Any]
    ) -> tuple[tuple[str | None, ...], np.ndarray]:
        """`range_band` of many distances at once: `R0` .. `R<n>` and None, as far as the
        unit's laser reach (R000.6) or its farthest distance (GEO000.1)."""
        settings = self.options(options)
        reach = range_units_array(
            distances, float(settings["range_unit_inches"]), str(settings["range_rounding"])
        )
        card = profile(unit)
        if card.has_lasers:
            last = max_range(card.laser_strength or 0)
            reach = np.where(reach > last, last + 1, reach)  # past the reach: None
        else:
            last = int(reach.max()) if len(reach) else 0
        return (*(f"R{k}" for k in range(last + 1)), None), reach

    def turn_sequence(self) -> TurnSequence:
        return TURN_SEQUENCE

    @property
    def has_combat(self) -> bool:
        return True

    def weapons(self, unit: Unit, options: Mapping[str, Any]) -> tuple[str, ...]:
        return combat.weapons_of(unit)

    def weapon_reach(self, unit: Unit, weapon: str, options: Mapping[str, Any]) -> WeaponReach:
        """GEO000.1: no arcs; lasers reach as far as their strength allows (R000.6), missiles
        any range (GEO000.3)."""
        if weapon == combat.MISSILES:
            return WeaponReach(weapon, (OMNI,), (FiringBand("any range", 0.0, math.inf),))
        return super().weapon_reach(unit, weapon, options)

    def declare_attack(
        self,
        state: GameState,
        attacker: str,
        weapon: str,
        target: str,
        params: Mapping[str, Any] | None = None,
    ) -> Attack:
        return combat.declare(state, attacker, weapon, target, params)

    def resolve_attack(self, state: GameState, attack: Attack, dice: Dice) -> Resolution:
        return combat.resolve(state, attack, dice)

    def attack_odds(self, state: GameState, attack: Attack) -> OddsReport:
        return combat.attack_odds(state, attack, self.id)

    def unit_status(self, state: GameState, unit: Unit) -> UnitStatus:
        return status.unit_status(state, unit)

    def status_fields(self, state: GameState, unit: Unit) -> tuple[Field, ...]:
        return by_hand.status_fields(state, unit)

    def set_status(self, state: GameState, unit: Unit, values: Mapping[str, Any]) -> GameState:
        return by_hand.set_status(state, unit, values)

    def describe_resolution(self, before: GameState, action: Action, events) -> str:
        return status.describe(before, action, events)

    def unavailable(
        self, state: GameState, position: TurnPosition, side: str
    ) -> tuple[Unavailable, ...]:
        return status.unavailable(state, position, side)


RULE_SYSTEM = BattlefleetMars(
    end_reading=ending.SPEC_ID,
    result_key=RESULT_KEY,  # T000.5: what B2, iL, D... do, for the help
    id=RULES_ID,
    title="Battlefleet Mars: Tactical Game Changes",
    seed="000",
    background="space",
    default_movement=MovementClass.SPACE,
    default_size=SizeClass.MEDIUM,
    conventions=MeasuringConventions(
        distance_from="centre",
        distance_to="centre",
        arc_test="centre",
        range_unit=1.0,
        range_bands=None,
        arcs=(OMNI,),
        citations=(("range", "GEO000.1"), ("arcs", "GEO000.1"), ("line of sight", "GEO000.1")),
    ),
    stats_fields=STATS_FIELDS,
    option_fields=OPTION_FIELDS,
    phases=tuple(phase.name for phase in TURN_SEQUENCE.phases),
    terrain_kinds=("soft", "dense", "obstructing"),
    blocks_los=_no_line_of_sight,
)
