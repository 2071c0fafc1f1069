"""Star Wars D6 capital ship combat (seed 004, SPEC §5) as a rule system.

Positions are in "Space" movement units (GEO004.1); on the table one Space unit
is `inches_per_space` inches (an option). Fire arcs are the four quadrants,
renamed front/right/rear/left (docs/architecture.md); weapon ranges are per weapon
("3-15/35/75", GEO004.2).

Modules: `tables` (T004.1-T004.20), `codes` (die codes, R004.1-R004.9),
`deck` (the Command Deck as unit stats), `options`, `condition` (what is
tracked per ship), `ledger` (rule_state), `initiative`, `command`, `repair`
(Damage Control), `combat` and `damage` (the Action Phase), `fighters`,
`maneuver` (moves as actions), `play` (the generic action protocol, with
`sequence`, `choices`, `handlers` and `odds`) and `movement` (speeds and turn
limits).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from tactical.dice import Dice
from tactical.model import GameState, MovementClass, Terrain, Unit
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
from tactical.rules.ending import UnitCondition
from tactical.rules.status import OrderEntry, Unavailable, UnitStatus
from tactical.rules.sw_d6_capital import by_hand, combat, maneuver, play, status
from tactical.rules.sw_d6_capital import outcome as ending
from tactical.rules.sw_d6_capital.deck import STATS_FIELDS, deck_of, parse_ranges
from tactical.rules.sw_d6_capital.deck import check_stats as check_deck
from tactical.rules.sw_d6_capital.deck import range_band as weapon_band
from tactical.rules.sw_d6_capital.deck import range_band_indices as weapon_band_indices
from tactical.rules.sw_d6_capital.options import OPTION_FIELDS
from tactical.rules.sw_d6_capital.tables import (
    ARC_SECTORS,
    FRONT,
    LEFT,
    RANGE_BANDS,
    REAR,
    RIGHT,
    SPEED_ORDER,
)

SW_ARCS = ARC_SECTORS
SPEEDS = SPEED_ORDER


def _no_line_of_sight(terrain: Terrain, viewer: Unit | None, target: Unit | None) -> bool:
    """Seed 004 has no line-of-sight rule (R004.29: any enemy in the arc may be targeted;
    GEO004.1-GEO004.7 ask for none), so nothing blocks it."""
    return False


@dataclass(frozen=True)
class SwD6Capital(RuleSystem):
    """Star Wars D6 capital ships with the SPEC's adopted readings."""

    def unit_condition(self, state: GameState, unit: Unit) -> UnitCondition:
        """How a unit as it started stands now (`outcome.unit_condition`, docs/game-end.md)."""
        return ending.unit_condition(state, unit)

    # ----------------------------------------------------------------- schema and geometry

    def check_stats(self, stats: Mapping[str, Any]) -> list[Problem]:
        """The Command Deck schema, die codes, ranges and weapon units (`deck`)."""
        return check_deck(stats)

    def terrain_collides(self, unit: Unit, terrain: Terrain) -> bool:
        """Only obstructing terrain (a planet) stops a ship; asteroids and debris are hazards
        to pilot through (GEO004.7, `maneuver`)."""
        return maneuver.terrain_collides(terrain)

    # ----------------------------------------------------------------- turn and combat hooks

    def turn_sequence(self) -> TurnSequence:
        """T004.1 / R004.10: Initiative, Command, Damage Control, Action, Movement."""
        return play.TURN_SEQUENCE

    def acting_order(self, state: GameState, position: TurnPosition) -> tuple[OrderEntry, ...]:
        """R004.14 / R004.25: the captains in Initiative order, who has gone, who acts now."""
        return status.acting_order(state, position)

    @property
    def has_combat(self) -> bool:
        return True

    def weapons(self, unit: Unit, options: Mapping[str, Any]) -> tuple[str, ...]:
        """R004.26: the unit's weapon units, `<arc>-<weapon type>`."""
        return tuple(weapon.id for weapon in deck_of(unit).weapons)

    def declare_attack(
        self,
        state: GameState,
        attacker: str,
        weapon: str,
        target: str,
        params: Mapping[str, Any] | None = None,
    ) -> Attack:
        prepared, _ = play.prepare(state, "Action")
        return combat.declare(prepared, attacker, weapon, target, params)

    def resolve_attack(self, state: GameState, attack: Attack, dice: Dice) -> Resolution:
        prepared, events = play.prepare(state, "Action")
        resolution = combat.resolve(prepared, attack, dice)
        return Resolution(resolution.state, events + resolution.events, resolution.summary)

    def attack_odds(self, state: GameState, attack: Attack) -> OddsReport:
        prepared, _ = play.prepare(state, "Action")
        return combat.attack_odds(prepared, attack, self.id)

    # ----------------------------------------------------------------- any declared action

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

    def weapon_reach(self, unit: Unit, weapon: str, options: Mapping[str, Any]) -> WeaponReach:
        """GEO004.2 / GEO004.3: the weapon unit's own arc and its ranges (Space units to
        inches); Point Blank below Short, nothing beyond Long."""
        found = next((w for w in deck_of(unit).weapons if w.id == weapon), None)
        if found is None:
            return super().weapon_reach(unit, weapon, options)
        scale = float(self.options(options)["inches_per_space"])
        low, short, medium, long = (limit * scale for limit in found.ranges)
        arc = next(a for a in SW_ARCS if a.name == found.arc)
        limits = (("point-blank", low), ("short", short), ("medium", medium), ("long", long))
        bands, start = [], 0.0
        for name, high in limits:
            if high > start or (name == "point-blank" and high > 0):
                bands.append(FiringBand(name, start, high))
            start = max(start, high)
        return WeaponReach(weapon, (arc,), tuple(bands))

    def unit_status(self, state: GameState, unit: Unit) -> UnitStatus:
        return status.unit_status(state, unit)

    def status_fields(self, state: GameState, unit: Unit) -> tuple[Field, ...]:
        return by_hand.status_fields(state, unit)

    def adjusted(self, before: GameState, after: GameState, fresh: GameState) -> GameState:
        return by_hand.adjusted(before, after, super().adjusted(before, after, fresh))

    def set_status(self, state: GameState, unit: Unit, values: Mapping[str, Any]) -> GameState:
        return by_hand.set_status(state, unit, values)

    def describe_resolution(self, before: GameState, action: Action, events) -> str:
        return status.describe(before, action, events)

    def unavailable(
        self, state: GameState, position: TurnPosition, side: str
    ) -> tuple[Unavailable, ...]:
        return status.unavailable(state, position, side)

    def pass_refused(
        self, state: GameState, position: TurnPosition, side: str
    ) -> Unavailable | None:
        """R004.10, R004.11: no pass while this turn's Initiative is still to be rolled."""
        return status.pass_refused(state, position, side)

    def range_band(self, unit: Unit, distance: float, options: Mapping[str, Any]) -> str | None:
        """GEO004.2: the band of the unit's longest-ranged weapon (Point Blank below Short)."""
        weapons = deck_of(unit).weapons
        if not weapons:
            return None
        scale = float(self.options(options)["inches_per_space"])
        longest = max((w.ranges for w in weapons), key=lambda ranges: ranges[3])
        return weapon_band(longest, distance / scale)

    def range_band_indices(
        self, unit: Unit, distances: np.ndarray, options: Mapping[str, Any]
    ) -> tuple[tuple[str | None, ...], np.ndarray]:
        """`range_band` of many distances at once (GEO004.2)."""
        weapons = deck_of(unit).weapons
        if not weapons:
            return (None,), np.zeros(len(distances), dtype=np.intp)
        scale = float(self.options(options)["inches_per_space"])
        longest = max((w.ranges for w in weapons), key=lambda ranges: ranges[3])
        found = weapon_band_indices(longest, np.asarray(distances, dtype=float) / scale)
        return (*RANGE_BANDS, None), found

    def turning_rules(self, unit: Unit, options: Mapping[str, Any]):  # -> TurningRules
        """R004.50, R004.51, T004.14: see `movement.turning_rules`."""
        from tactical.rules.sw_d6_capital import movement

        return movement.turning_rules(unit, self.options(options))


RULE_SYSTEM = SwD6Capital(
    end_reading=ending.SPEC_ID,
    id="sw-d6-capital",
    title="Star Wars D6 Capital Ship Combat",
    seed="004",
    background="space",
    default_movement=MovementClass.SPACE,
    conventions=MeasuringConventions(
        distance_from="centre",
        distance_to="centre",
        arc_test="centre",
        arcs=SW_ARCS,
        citations=(("range", "GEO004.2"), ("arcs", "GEO004.3"), ("line of sight", "R004.29")),
    ),
    stats_fields=STATS_FIELDS,
    option_fields=OPTION_FIELDS,
    free_table_moves=False,
    phases=("Initiative", "Command", "Damage Control", "Action", "Movement"),
    blocks_los=_no_line_of_sight,
)

__all__ = [
    "FRONT",
    "LEFT",
    "OPTION_FIELDS",
    "REAR",
    "RIGHT",
    "RULE_SYSTEM",
    "SPEEDS",
    "STATS_FIELDS",
    "SW_ARCS",
    "SwD6Capital",
    "parse_ranges",
]
