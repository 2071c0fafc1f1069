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

The rest of seed 002 lives in the modules of this package: `schema` (the stats and options
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
`actions`, `apply` and odds, dispatching to them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tactical.dice import Dice
from tactical.geometry.arcs_spec import (
    AFT,
    BROADSIDES,
    CHANNEL,
    FORE,
    OMNI,
    PORT,
    QUADRANTS,
    STARBOARD,
    TURRET_270,
    ArcSpec,
)
from tactical.model import FrozenMap, GameState, MovementClass, SizeClass, Terrain, Unit
from tactical.rules.base import (
    Action,
    ActionChoice,
    Attack,
    Field,
    FiringBand,
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
)
from tactical.rules.dystopian_wars.schema import (
    OPTION_EXTRA_FIELDS,
    STATS_EXTRA_FIELDS,
    WEAPON_EXTRA_FIELDS,
    attack_dice_problems,
)
from tactical.rules.ending import Outcome, UnitCondition
from tactical.rules.status import Unavailable, UnitStatus

RANGE_BAND_INCHES = 8.0  # external default: four bands of 8"

ARCS_BY_NAME: dict[str, ArcSpec] = {
    "fore": FORE,
    "starboard": STARBOARD,
    "aft": AFT,
    "port": PORT,
    "turret": TURRET_270,
    "port broadside": BROADSIDES[0],
    "starboard broadside": BROADSIDES[1],
    "channel": CHANNEL,
    "all-round": OMNI,
}

HEIGHT_LEVELS = ("surface", "diving", "flying", "obscured")
WEAPON_KINDS = ("gunnery", "rocket", "torpedo", "bomb", "ack-ack", "concussion", "mines")

STATS_FIELDS = (
    Field("move", "float", default=6.0, low=0, high=60, doc="Movement in inches"),
    Field(
        "min_move",
        "float",
        default=0.0,
        low=0,
        high=60,
        doc="Minimum Move (R002.30)",
        spec_id="R002.30",
    ),
    Field("height_level", "str", default="surface", choices=HEIGHT_LEVELS, spec_id="R002.40"),
    Field(
        "generators", "str", default="", doc="comma-separated: tesla, kinetic, guardian, ultrasonic"
    ),
    Field("shield_generator", "bool", default=False),
    Field("fleet_commodore", "bool", default=False, spec_id="R002.10"),
    Field("squadron", "str", default=""),
    Field(
        "weapons",
        "tables",
        default=(),
        fields=(
            Field("name", "str", required=True),
            Field("kind", "str", required=True, choices=WEAPON_KINDS, spec_id="R002.36"),
            Field("arc", "str", default="fore", choices=tuple(ARCS_BY_NAME)),
            Field(
                "attack_dice",
                "str",
                default="",
                doc="AD per range band 1-4, e.g. '8-6-4-2'; each at most 100",
                spec_id="G.5",
            ),
            *WEAPON_EXTRA_FIELDS,
        ),
    ),
    *STATS_EXTRA_FIELDS,
)

OPTION_FIELDS = (
    Field(
        "range_band_inches",
        "float",
        default=RANGE_BAND_INCHES,
        low=1,
        high=48,
        doc="length of each of Range Bands 1-4 (base game, external)",
    ),
    Field(
        "command_distance",
        "float",
        default=10.0,
        low=0,
        high=72,
        spec_id="A002.3",
        doc="Command Distance (base game, external)",
    ),
    Field(
        "guardian_measure",
        "str",
        default="nearest",
        choices=("nearest", "centre"),
        spec_id="A002.11",
    ),
    Field(
        "half_rounding",
        "str",
        default="exact",
        choices=("exact", "up", "down"),
        spec_id="A002.9",
        before="up",
        doc='"at least half" the boosted Movement: exact (Mv 11: 5.5" is enough), or rounded '
        "up or down; games recorded before this reading was revised: up",
    ),
    Field(
        "tesla_with_kinetic",
        "bool",
        default=True,
        spec_id="R002.48",
        before=False,
        doc="a model may roll both its Tesla and its Kinetic boost in one activation (only a "
        "second Kinetic Generator is forbidden); games recorded before this was fixed: false, "
        "one boost",
    ),
    Field(
        "lost_off_table",
        "str",
        default="wing",
        choices=("wing", "flying"),
        spec_id="R002.59",
        before="flying",
        doc="who is Lost leaving the table: a Tiny Flyer Wing only (any other model may not "
        "leave it), or any flying model with its whole squadron; games recorded before this "
        "was fixed: flying",
    ),
    Field(
        "fc_option_b_measure_from",
        "str",
        default="firer",
        choices=("firer", "target"),
        spec_id="A002.4",
    ),
    Field(
        "models_block",
        "str",
        default="all",
        choices=("all", "larger", "none"),
        before="none",
        doc="which other Surface models block line of sight between two Surface models: "
        "all, only those of the target's size class or bigger, or none (Auxiliary weapons "
        "ignore models); games recorded before this reading was revised: none",
        spec_id="A002.21",
    ),
    *OPTION_EXTRA_FIELDS,
)


def _bands(band_inches: float) -> RangeBands:
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
        from tactical.rules.dystopian_wars import outcome

        return outcome.unit_condition(state, unit)

    def outcome(self, state: GameState, start: GameState, turn: int) -> Outcome | None:
        """R002.3 / R002.22: the result the End Phase or a Crushing Triumph recorded."""
        from tactical.rules.dystopian_wars import outcome

        return outcome.outcome(state, start)

    def los_level(self, unit: Unit) -> str:
        """R002.40 tells surface models from flying and obscured ones."""
        return "air" if _level(unit) in ("flying", "obscured") else "surface"

    def model_blocking(self, state: GameState):  # -> ModelBlocking | None
        """R002.41 / A002.21: other Surface models block Surface-to-Surface line of sight
        (`measures.model_blocking`)."""
        from tactical.rules.dystopian_wars import measures

        return measures.model_blocking(state)

    def range_band(self, unit: Unit, distance: float, options: Mapping[str, Any]) -> str | None:
        return self.range_table(unit, options).band(distance)

    def range_table(self, unit: Unit, options: Mapping[str, Any]) -> RangeBands:
        """Range Bands 1-4 of `range_band_inches` each, the same for every unit."""
        return _bands(float(self.options(options)["range_band_inches"]))

    def weapon_reach(self, unit: Unit, weapon: str, options: Mapping[str, Any]) -> WeaponReach:
        """GEO002.7 / R002.14: the weapon's own arc, the Range Bands where it has Attack Dice,
        measured from its measuring point (T002.4) to the target's nearest point."""
        from tactical.rules.dystopian_wars.cards import card
        from tactical.rules.dystopian_wars.measures import weapon_measured_from

        found = next((w for w in card(unit).weapons if w.name == weapon), None)
        if found is None:
            return super().weapon_reach(unit, weapon, options)
        step = float(self.options(options)["range_band_inches"])
        bands = tuple(
            FiringBand(f"RB{k + 1}", k * step, (k + 1) * step)
            for k, dice in enumerate(found.attack_dice)
            if dice > 0
        )
        return WeaponReach(weapon, (found.arc,), bands, weapon_measured_from(unit, found))  # type: ignore[arg-type]

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
        from tactical.rules.dystopian_wars import play

        return play.TURN_SEQUENCE

    def stage(self, state: GameState, position: TurnPosition) -> Stage | None:
        """R002.28: the active squadron and its segment of the Activation Sequence."""
        from tactical.rules.dystopian_wars import sequence

        return sequence.stage(state)

    def play_order(self, state: GameState, position: TurnPosition) -> tuple[str, ...]:
        """G.5: the initiative winner activates first (the other side's go waits for it)."""
        from tactical.rules.dystopian_wars import sequence

        return sequence.play_order(state)

    @property
    def has_combat(self) -> bool:
        return True

    def weapons(self, unit: Unit, options: Mapping[str, Any]) -> tuple[str, ...]:
        from tactical.rules.dystopian_wars import combat

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
        from tactical.rules.dystopian_wars import combat

        return combat.declare(state, attacker, weapon, target, params)

    def resolve_attack(self, state: GameState, attack: Attack, dice: Dice) -> Resolution:
        from tactical.rules.dystopian_wars import resolving

        return resolving.resolve(state, attack, dice)

    def attack_odds(self, state: GameState, attack: Attack) -> OddsReport:
        from tactical.rules.dystopian_wars import odds_report

        return odds_report.attack_odds(state, attack, self.id)

    def setup(self, state: GameState) -> GameState:
        from tactical.rules.dystopian_wars import play

        return play.setup(state)

    def actions(
        self, state: GameState, position: TurnPosition, side: str
    ) -> tuple[ActionChoice, ...]:
        from tactical.rules.dystopian_wars import play

        return play.actions(state, position, side)

    def apply(self, state: GameState, action: Action, dice: Dice) -> Resolution:
        from tactical.rules.dystopian_wars import play

        return play.apply(state, action, dice)

    def action_odds(self, state: GameState, action: Action) -> OddsReport | None:
        from tactical.rules.dystopian_wars import play

        return play.action_odds(state, action, self.id)

    def unit_status(self, state: GameState, unit: Unit) -> UnitStatus:
        from tactical.rules.dystopian_wars import status

        return status.unit_status(state, unit)

    def unavailable(
        self, state: GameState, position: TurnPosition, side: str
    ) -> tuple[Unavailable, ...]:
        from tactical.rules.dystopian_wars import status

        return status.unavailable(state, position, side)

    def pass_refused(
        self, state: GameState, position: TurnPosition, side: str
    ) -> Unavailable | None:
        """R002.19, R002.20, R002.28: a fleet passes only when no step is left to it."""
        from tactical.rules.dystopian_wars import status

        return status.pass_refused(state, position, side)

    def status_fields(self, state: GameState, unit: Unit) -> tuple[Field, ...]:
        from tactical.rules.dystopian_wars import by_hand

        return by_hand.status_fields(state, unit)

    def set_status(self, state: GameState, unit: Unit, values: Mapping[str, Any]) -> GameState:
        from tactical.rules.dystopian_wars import by_hand

        return by_hand.set_status(state, unit, values)

    def adjustment_refused(
        self, before: GameState, after: GameState, position: TurnPosition
    ) -> str | None:
        from tactical.rules.dystopian_wars import by_hand

        return by_hand.adjustment_refused(before, after) or super().adjustment_refused(
            before, after, position
        )

    def describe_resolution(self, before: GameState, action: Action, events) -> str:
        from tactical.rules.dystopian_wars import status

        return status.describe(before, action, events)

    def terrain_collides(self, unit: Unit, terrain: Terrain) -> bool:
        """T002.12, R002.35, A002.7: water hits soft and dense; land and the air hit dense."""
        from tactical.rules.dystopian_wars import movement

        return movement.terrain_collides(unit, terrain)

    def turning_rules(self, unit: Unit, options: Mapping[str, Any]):  # -> TurningRules
        """R002.11-R002.13, R002.30-R002.34, R002.45, R002.48: see `movement.turning_rules`."""
        from tactical.rules.dystopian_wars import movement

        return movement.turning_rules(unit, self.options(options))

    def move_activation(self, state: GameState, unit: Unit) -> Mapping[str, Any] | None:
        """R002.45, R002.48: the generator boost rolled for this unit this activation."""
        from tactical.rules.dystopian_wars import generators

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
        range_bands=_bands(RANGE_BAND_INCHES),
        arcs=QUADRANTS,
        citations=(("range", "GEO002.7"), ("arcs", "GEO002.7"), ("line of sight", "R002.40")),
    ),
    stats_fields=STATS_FIELDS,
    option_fields=OPTION_FIELDS,
    free_table_moves=False,
    phases=("Field Orders", "Initiative", "Squadron Activation Sequence", "End Phase"),
    blocks_los=dw_blocks_los,
)
