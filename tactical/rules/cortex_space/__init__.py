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
(actions applied) and `odds`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tactical.dice import Dice
from tactical.geometry.arcs_spec import OMNI
from tactical.geometry.movement_spec import Pivot, TurningRules
from tactical.model import FrozenMap, GameState, MovementClass, Terrain, Unit
from tactical.rules.base import (
    Action,
    ActionChoice,
    Attack,
    Field,
    MeasuringConventions,
    OddsReport,
    Problem,
    RangeBand,
    RangeBands,
    Resolution,
    RuleSystem,
    Stage,
    TurnPosition,
    TurnSequence,
    WeaponReach,
    bands_from_limits,
)
from tactical.rules.cortex_space import by_hand, choices, combat, odds, play, sequence, status
from tactical.rules.cortex_space import outcome as ending
from tactical.rules.cortex_space.positions import bands
from tactical.rules.cortex_space.tables import STRUCTURE_KINDS
from tactical.rules.cortex_space.units import (
    OPTION_FIELDS,
    RANGE_DEFAULTS,
    RANGE_NAMES,
    STATS_FIELDS,
    check_stats,
    vessel,
)
from tactical.rules.ending import UnitCondition
from tactical.rules.status import OrderEntry, Unavailable, UnitStatus

RULES_ID = "cortex-space"


def _no_line_of_sight(terrain: Terrain, viewer: Unit | None, target: Unit | None) -> bool:
    """Seed 003 has no line-of-sight rule: nothing blocks."""
    return False


@dataclass(frozen=True)
class CortexSpace(RuleSystem):
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

    def unit_condition(self, state: GameState, unit: Unit) -> UnitCondition:
        """How a unit as it started stands now (`outcome.unit_condition`, docs/game-end.md)."""
        return ending.unit_condition(state, unit)

    def check_stats(self, stats: Mapping[str, Any]) -> list[Problem]:
        return check_stats(stats)

    def range_band(self, unit: Unit, distance: float, options: Mapping[str, Any]) -> str | None:
        """GEO003.1 / GEO003.7: the ordinal band of a centre-to-centre distance."""
        return self.range_table(unit, options).band(distance)

    def range_table(self, unit: Unit, options: Mapping[str, Any]) -> RangeBands:
        """GEO003.1 / GEO003.7: the five ordinal bands, the same for every unit."""
        return bands(self.options(options))

    def terrain_collides(self, unit: Unit, terrain: Terrain) -> bool:
        """Asteroids and wrecks (dense, obstructing) are obstacles; ground targets are not."""
        return terrain.kind in ("dense", "obstructing")

    def turning_rules(self, unit: Unit, options: Mapping[str, Any]) -> TurningRules:
        """Free turning about the centre; Speed x `inches_per_speed` a move (GEO003.7); no
        manoeuvres once the sublight engines are destroyed (R003.29)."""
        card = vessel(unit)
        per = float(self.options(options)["inches_per_speed"])
        if card.sublight_destroyed:
            return TurningRules(
                pivot=Pivot.CENTRE,
                max_distance=0.0,
                max_turn_per_move=0.0,
                distance_rule="R003.29",
                move_turn_rule="R003.29",
            )
        return TurningRules(
            pivot=Pivot.CENTRE, max_distance=card.speed * per, distance_rule="GEO003.7"
        )

    def turn_sequence(self) -> TurnSequence:
        return sequence.TURN_SEQUENCE

    def stage(self, state: GameState, position: TurnPosition) -> Stage | None:
        """R003.11: in the Actions phase, the initiative group acting now."""
        return sequence.stage(state, position)

    def acting_order(self, state: GameState, position: TurnPosition) -> tuple[OrderEntry, ...]:
        """R003.10 / R003.11: the vessels by initiative, who has acted, who acts now."""
        return status.acting_order(state, position)

    @property
    def has_combat(self) -> bool:
        return True

    def weapons(self, unit: Unit, options: Mapping[str, Any]) -> tuple[str, ...]:
        return tuple(w.name for w in vessel(unit).weapons)

    def weapon_reach(self, unit: Unit, weapon: str, options: Mapping[str, Any]) -> WeaponReach:
        """GEO003.1 / GEO003.7: all round, out to the weapon's longest range band."""
        found = next((w for w in vessel(unit).weapons if w.name == weapon), None)
        if found is None:
            return super().weapon_reach(unit, weapon, options)
        table = bands(self.options(options)).bands
        limits = [(band.name, band.max_inches) for band in table[: found.max_band + 1]]
        return WeaponReach(weapon, (OMNI,), bands_from_limits(limits, None))

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

    def setup(self, state: GameState) -> GameState:
        return sequence.setup(state)

    def actions(
        self, state: GameState, position: TurnPosition, side: str
    ) -> tuple[ActionChoice, ...]:
        return choices.actions(state, position, side)

    def apply(self, state: GameState, action: Action, dice: Dice) -> Resolution:
        return play.apply(state, action, dice)

    def action_odds(self, state: GameState, action: Action) -> OddsReport | None:
        return odds.action_odds(state, action, self.id)

    def unit_status(self, state: GameState, unit: Unit) -> UnitStatus:
        return status.unit_status(state, unit)

    def unavailable(
        self, state: GameState, position: TurnPosition, side: str
    ) -> tuple[Unavailable, ...]:
        return status.unavailable(state, position, side)

    def status_fields(self, state: GameState, unit: Unit) -> tuple[Field, ...]:
        return by_hand.status_fields(state, unit)

    def set_status(self, state: GameState, unit: Unit, values: Mapping[str, Any]) -> GameState:
        return by_hand.set_status(state, unit, values)

    def describe_resolution(self, before: GameState, action: Action, events) -> str:
        return status.describe(before, action, events)


RULE_SYSTEM = CortexSpace(
    end_reading=ending.SPEC_ID,
    id=RULES_ID,
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
        citations=(("range", "GEO003.7"), ("arcs", "GEO003.7"), ("line of sight", "GEO003.7")),
    ),
    stats_fields=STATS_FIELDS,
    option_fields=OPTION_FIELDS,
    # the seed's actions move nothing: vessels move on the table, within their Speed
    # (`turning_rules`, GEO003.7), by the session's own move
    free_table_moves=True,
    phases=tuple(phase.name for phase in sequence.TURN_SEQUENCE.phases),
    terrain_kinds=("soft", "dense", "obstructing", *STRUCTURE_KINDS),
    blocks_los=_no_line_of_sight,
)
