"""Revised Rules for Heavy Combat (seed 001, SPEC §2) as a rule system.

A two-ship duel (A001.22). On the table (GEO001.7) the range band 1-3 comes
from the centre-to-centre distance, `inches_per_range_step` inches per band
(an option, default 12"); the in-plane facing each ship presents comes from
the relative bearing in the standard quadrants; dorsal/ventral is a declared
elevation. Option `geometry = "categorical"` keeps range and facings as
categories only (GEO001.6). Nothing blocks line of sight (the source has
none).

Turn (R001.3): Roll power, Reaction movement, Countermeasures / reinforce,
Target selection / fire — each side simultaneously — then one Result step
that applies all fire and movement. See `turn` for the turn and its readings.

Modules: `tables` (T001.*, rounding and arithmetic rules), `ships` (stats and
options schema), `duel` (the rule state), `engagement` (range and facings,
table motions), `combat` (one weapon's fire: context, to-hit, damage pipeline)
with `weapons` (the weapons and their declaration), `systems` (what damaged
systems and the cloak allow), `shields` (reinforcement, countermeasures,
shields) and `internals` (the internal hits); `turn` (the phases, the choices
offered, the action protocol) with `duel_state` (the duel set up and read
back), `declarations` and `result` (the Result step); `attacks` (the attack
and odds hooks); `hidden` (what a side may not see of a cloaked enemy, R001.29).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tactical.dice import Dice
from tactical.geometry.arcs_spec import QUADRANTS
from tactical.model import FrozenMap, GameState, MovementClass, SizeClass, Terrain, Unit
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
    StepFacts,
    TurnPosition,
    TurnSequence,
    WeaponReach,
    Withheld,
)
from tactical.rules.ending import UnitCondition
from tactical.rules.heavy_combat import attacks, by_hand, duel_state, hidden, status, turn
from tactical.rules.heavy_combat import outcome as ending
from tactical.rules.heavy_combat.ships import (
    OPTION_FIELDS,
    STATS_FIELDS,
    STEP_INCHES,
    check_options,
    check_stats,
    profile,
    settings,
)
from tactical.rules.heavy_combat.weapons import weapons_of
from tactical.rules.status import Unavailable, UnitStatus

RULES_ID = "heavy-combat"


def _bands(step: float) -> RangeBands:
    """GEO001.7: band n covers distances up to n x step inches (G.4: within is <=)."""
    return RangeBands(tuple(RangeBand(str(n), step * n) for n in (1, 2, 3)))


def _no_line_of_sight(terrain: Terrain, viewer: Unit | None, target: Unit | None) -> bool:
    """GEO001.6: the duel has no line of sight, so nothing blocks it."""
    return False


@dataclass(frozen=True)
class HeavyCombat(RuleSystem):
    """Seed 001 with the SPEC's adopted readings (options for the configurable ones)."""

    # for the computer players (tactical.agents.hints): closing the range (R001.9) takes
    # effect only at the Result, so a one-step look sees nothing come of it; it costs the
    # turn's fire for one more step of multiplier (R001.7) in the turns after: from range 2
    # (x2 now against x3 then) it pays off only with three of them left, less once the
    # enemy may retreat again (measured: fewer drawn duels than with two). Because the
    # ship that closes cannot fire that turn, holding still while the enemy closes is
    # often the better play: the search level weighs a pass too, with play-outs long
    # enough to reach the turn's Result (a turn is about 12 steps of both sides)
    agent_hints = FrozenMap(
        {"eager_kinds": ("close",), "eager_turns": 3, "playout_steps": 24, "weigh_passes": True}
    )

    def unit_condition(self, state: GameState, unit: Unit) -> UnitCondition:
        """How a unit as it started stands now (`outcome.unit_condition`, docs/game-end.md)."""
        return ending.unit_condition(state, unit)

    def check_stats(self, stats: Mapping[str, Any]) -> list[Problem]:
        return check_stats(stats)

    def check_options(self, options: Mapping[str, Any]) -> list[Problem]:
        return check_options(options)

    def range_band(self, unit: Unit, distance: float, options: Mapping[str, Any]) -> str | None:
        return self.range_table(unit, options).band(distance)

    def range_table(self, unit: Unit, options: Mapping[str, Any]) -> RangeBands:
        """GEO001.7: the three bands of `inches_per_range_step`, the same for every unit."""
        return _bands(float(self.options(options)["inches_per_range_step"]))

    def turn_sequence(self) -> TurnSequence:
        return turn.TURN_SEQUENCE

    @property
    def has_combat(self) -> bool:
        return True

    def weapons(self, unit: Unit, options: Mapping[str, Any]) -> tuple[str, ...]:
        return tuple(weapon.name for weapon in weapons_of(profile(unit)))

    def weapon_reach(self, unit: Unit, weapon: str, options: Mapping[str, Any]) -> WeaponReach:
        """T001.8 / GEO001.7: the in-plane facings the weapon fires through, as quadrants, out
        to band 3 (R001.21)."""
        reach = super().weapon_reach(unit, weapon, options)
        found = next((w for w in weapons_of(profile(unit)) if w.name == weapon), None)
        if found is None:
            return reach
        arcs = tuple(arc for arc in QUADRANTS if arc.name in found.arcs)
        return WeaponReach(weapon, arcs, reach.bands, reach.measured_from)

    def declare_attack(
        self,
        state: GameState,
        attacker: str,
        weapon: str,
        target: str,
        params: Mapping[str, Any] | None = None,
    ) -> Attack:
        settings(state.options)
        return attacks.declare_attack(state, attacker, weapon, target, params)

    def resolve_attack(self, state: GameState, attack: Attack, dice: Dice) -> Resolution:
        return attacks.resolve_attack(state, attack, dice)

    def attack_odds(self, state: GameState, attack: Attack) -> OddsReport:
        return attacks.attack_odds(state, attack, self.id)

    def setup(self, state: GameState) -> GameState:
        return duel_state.setup(state)

    def actions(
        self, state: GameState, position: TurnPosition, side: str
    ) -> tuple[ActionChoice, ...]:
        return turn.actions(state, position, side)

    def apply(self, state: GameState, action: Action, dice: Dice) -> Resolution:
        return turn.apply(state, action, dice)

    def action_odds(self, state: GameState, action: Action) -> OddsReport | None:
        return attacks.action_odds(state, action, self.id)

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

    def view_for(self, state: GameState, side: str) -> GameState:
        """R001.29: a cloaked enemy stands where it was last seen, its course hidden."""
        return hidden.view_for(state, side)

    def withheld(self, now: GameState, step: StepFacts, side: str) -> Withheld:
        """R001.29: a cloaked enemy's moves are withheld until its cloak drops."""
        return hidden.withheld(now, step, side)


RULE_SYSTEM = HeavyCombat(
    end_reading=ending.SPEC_ID,
    id=RULES_ID,
    title="Revised Rules for Heavy Combat",
    seed="001",
    background="space",
    default_movement=MovementClass.SPACE,
    default_size=SizeClass.MEDIUM,
    conventions=MeasuringConventions(
        distance_from="centre",
        distance_to="centre",
        arc_test="centre",
        range_bands=_bands(STEP_INCHES),
        arcs=QUADRANTS,
        citations=(("range", "GEO001.7"), ("arcs", "GEO001.7"), ("line of sight", "GEO001.6")),
    ),
    stats_fields=STATS_FIELDS,
    option_fields=OPTION_FIELDS,
    free_table_moves=False,
    phases=tuple(phase.name for phase in turn.TURN_SEQUENCE.phases),
    terrain_kinds=("soft", "dense", "obstructing"),
    blocks_los=_no_line_of_sight,
)
