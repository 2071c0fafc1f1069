"""The Dystopian Wars 1.1 rule system object (seed 002), assembled last from the modules of
this package: none of them imports it (they read `declaration`), the package re-exports it
and the registry finds it there."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tactical.dice import Dice
from tactical.geometry.arcs_spec import QUADRANTS, TURRET_270, ArcSpec
from tactical.model import FrozenMap, GameState, MovementClass, Terrain, Unit
from tactical.rules.base import (
    Action,
    ActionChoice,
    Attack,
    Field,
    FiringBand,
    MeasuringConventions,
    OddsReport,
    Problem,
    RangeBands,
    Resolution,
    RuleSystem,
    Stage,
    TurnPosition,
    TurnSequence,
    WeaponReach,
)
from tactical.rules.dystopian_wars import (
    by_hand,
    cards,
    combat,
    declaration,
    generators,
    measures,
    movement,
    odds_report,
    play,
    resolving,
    sequence,
    status,
)
from tactical.rules.dystopian_wars import outcome as ending
from tactical.rules.dystopian_wars.declaration import (
    ARCS_BY_NAME,
    OPTION_FIELDS,
    RANGE_BAND_INCHES,
    STATS_FIELDS,
    bands,
    dw_blocks_los,
)
from tactical.rules.dystopian_wars.schema import attack_dice_problems
from tactical.rules.ending import Outcome, UnitCondition
from tactical.rules.status import Unavailable, UnitStatus


@dataclass(frozen=True)
class DystopianWars(RuleSystem):
    """Dystopian Wars 1.1 with the SPEC's adopted readings."""

    # for the computer players (tactical.agents.hints): a Carrier's Launch (R002.61) and a
    # Wing's move in formation (R002.52) change nothing a one-step look can measure, so
    # without the hint the Wings never left the deck and never moved. A Carrier launches
    # only before it moves: the launch must outweigh the positional gain of its move (a
    # few hundredths of all strength), hence 0.05. No turn need be left: a Wing moved in
    # the last turn still attacks in its activation. Four steps in five of a turn are the
    # other fleet's passes while a squadron activates, and a squadron's attacks resolve
    # about twenty steps after it is activated: the search level's play-outs run 40
    # steps, to see that squadron's attacks and the enemy's answer.
    agent_hints = FrozenMap(
        {
            "eager_kinds": ("launch", "move-wing"),
            "eager_turns": 0,
            "eager_worth": 0.05,
            "playout_steps": 40,
        }
    )

    def check_stats(self, stats: Mapping[str, Any]) -> list[Problem]:
        """The schema, then each weapon's Attack Dice band by band (G.5, at most
        `MAX_ATTACK_DICE` a band)."""
        return super().check_stats(stats) or attack_dice_problems(stats)

    def unit_condition(self, state: GameState, unit: Unit) -> UnitCondition:
        """How a unit as it started stands now (`outcome.unit_condition`, docs/game-end.md)."""
        return ending.unit_condition(state, unit)

    def outcome(self, state: GameState, start: GameState, turn: int) -> Outcome | None:
        """R002.3 / R002.22: the result the End Phase or a Crushing Triumph recorded."""
        return ending.outcome(state, start)

    def los_level(self, unit: Unit) -> str:
        """R002.40 tells surface models from flying and obscured ones."""
        return declaration.los_level(unit)

    def model_blocking(self, state: GameState):  # -> ModelBlocking | None
        """R002.41 / A002.21: other Surface models block Surface-to-Surface line of sight
        (`measures.model_blocking`)."""
        return measures.model_blocking(state)

    def range_band(self, unit: Unit, distance: float, options: Mapping[str, Any]) -> str | None:
        return self.range_table(unit, options).band(distance)

    def range_table(self, unit: Unit, options: Mapping[str, Any]) -> RangeBands:
        """Range Bands 1-4 of `range_band_inches` each, the same for every unit."""
        return bands(float(self.options(options)["range_band_inches"]))

    def weapon_reach(self, unit: Unit, weapon: str, options: Mapping[str, Any]) -> WeaponReach:
        """GEO002.7 / R002.14: the weapon's own arc, the Range Bands where it has Attack Dice,
        measured from its measuring point (T002.4) to the target's nearest point."""
        found = next((w for w in cards.card(unit).weapons if w.name == weapon), None)
        if found is None:
            return super().weapon_reach(unit, weapon, options)
        step = float(self.options(options)["range_band_inches"])
        firing_bands = tuple(
            FiringBand(f"RB{k + 1}", k * step, (k + 1) * step)
            for k, dice in enumerate(found.attack_dice)
            if dice > 0
        )
        measured_from = measures.weapon_measured_from(unit, found)
        return WeaponReach(weapon, (found.arc,), firing_bands, measured_from)  # type: ignore[arg-type]

    def unit_arcs(self, unit: Unit) -> tuple[ArcSpec, ...]:
        """The arcs of the unit's weapons (R002.14: batteries measured from the centre)."""
        arcs: dict[str, ArcSpec] = {}
        for weapon in unit.stats.get("weapons", ()):
            # R002.15: an FSA Rocket Battery is a Turret for line of sight and range
            arc = (
                TURRET_270
                if weapon.get("rocket_battery")
                else ARCS_BY_NAME[weapon.get("arc", "fore")]
            )
            arcs.setdefault(arc.name, arc)
        return tuple(arcs.values()) or self.conventions.arcs

    # ------------------------------------------------------------ play (see `play`, `combat`)

    def turn_sequence(self) -> TurnSequence:
        """R002.19 / R002.20 / R002.28: Field Orders, Initiative, the Squadron Activation
        Sequence (alternating), the End Phase."""
        return play.TURN_SEQUENCE

    def stage(self, state: GameState, position: TurnPosition) -> Stage | None:
        """R002.28: the active squadron and its segment of the Activation Sequence."""
        return sequence.stage(state)

    def play_order(self, state: GameState, position: TurnPosition) -> tuple[str, ...]:
        """G.5: the initiative winner activates first (the other side's go waits for it)."""
        return sequence.play_order(state)

    @property
    def has_combat(self) -> bool:
        return True

    def weapons(self, unit: Unit, options: Mapping[str, Any]) -> tuple[str, ...]:
        return combat.weapons_of(unit)

    def declare_attack(
        self,
        state: GameState,
        attacker: str,
        weapon: str,
        target: str,
        params: Mapping[str, Any] | None = None,
    ) -> Attack:
        """R002.36-R002.43 on the table as it stands (see `combat.declare`)."""
        return combat.declare(state, attacker, weapon, target, params)

    def resolve_attack(self, state: GameState, attack: Attack, dice: Dice) -> Resolution:
        return resolving.resolve(state, attack, dice)

    def attack_odds(self, state: GameState, attack: Attack) -> OddsReport:
        return odds_report.attack_odds(state, attack, self.id)

    def setup(self, state: GameState) -> GameState:
        return play.setup(state)

    def actions(
        self, state: GameState, position: TurnPosition, side: str
    ) -> tuple[ActionChoice, ...]:
        return play.actions(state, position, side)

    def apply(self, state: GameState, action: Action, dice: Dice) -> Resolution:
        return play.apply(state, action, dice)

    def action_odds(self, state: GameState, action: Action) -> OddsReport | None:
        return play.action_odds(state, action, self.id)

    def unit_status(self, state: GameState, unit: Unit) -> UnitStatus:
        return status.unit_status(state, unit)

    def unavailable(
        self, state: GameState, position: TurnPosition, side: str
    ) -> tuple[Unavailable, ...]:
        return status.unavailable(state, position, side)

    def pass_refused(
        self, state: GameState, position: TurnPosition, side: str
    ) -> Unavailable | None:
        """R002.19, R002.20, R002.28: a fleet passes only when no step is left to it."""
        return status.pass_refused(state, position, side)

    def status_fields(self, state: GameState, unit: Unit) -> tuple[Field, ...]:
        return by_hand.status_fields(state, unit)

    def set_status(self, state: GameState, unit: Unit, values: Mapping[str, Any]) -> GameState:
        return by_hand.set_status(state, unit, values)

    def adjustment_refused(
        self, before: GameState, after: GameState, position: TurnPosition
    ) -> str | None:
        return by_hand.adjustment_refused(before, after) or super().adjustment_refused(
            before, after, position
        )

    def describe_resolution(self, before: GameState, action: Action, events) -> str:
        return status.describe(before, action, events)

    def terrain_collides(self, unit: Unit, terrain: Terrain) -> bool:
        """T002.12, R002.35, A002.7: water hits soft and dense; land and the air hit dense."""
        return movement.terrain_collides(unit, terrain)

    def turning_rules(self, unit: Unit, options: Mapping[str, Any]):  # -> TurningRules
        """R002.11-R002.13, R002.30-R002.34, R002.45, R002.48: see `movement.turning_rules`."""
        return movement.turning_rules(unit, self.options(options))

    def move_activation(self, state: GameState, unit: Unit) -> Mapping[str, Any] | None:
        """R002.45, R002.48: the generator boost rolled for this unit this activation."""
        return generators.boost_of(state, unit.id)


RULE_SYSTEM = DystopianWars(
    end_reading="R002.22",
    id="dystopian-wars",
    title="Dystopian Wars 1.1",
    seed="002",
    background="sea",
    default_movement=MovementClass.NAVAL,
    conventions=MeasuringConventions(
        distance_from="centre",
        distance_to="nearest",
        arc_test="any",
        range_bands=bands(RANGE_BAND_INCHES),
        arcs=QUADRANTS,
        citations=(("range", "GEO002.7"), ("arcs", "GEO002.7"), ("line of sight", "R002.40")),
    ),
    stats_fields=STATS_FIELDS,
    option_fields=OPTION_FIELDS,
    free_table_moves=False,
    phases=("Field Orders", "Initiative", "Squadron Activation Sequence", "End Phase"),
    blocks_los=dw_blocks_los,
)
