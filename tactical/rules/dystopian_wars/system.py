"""The Dystopian Wars 1.1 rule system object (seed 002), assembled last from the modules of
this package: none of them imports it (they read `declaration`), the package re-exports it
and the registry finds it there. It is their declaration: each hook bound to the function
that implements it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tactical.geometry.arcs_spec import QUADRANTS
from tactical.model import FrozenMap, GameState, Unit
from tactical.rules.base import (
    FiringBand,
    MeasuringConventions,
    RuleSystem,
    TurnPosition,
    WeaponReach,
)
from tactical.rules.dystopian_wars import cards, declaration, measures, movement
from tactical.rules.protocol import hook, later

RULES_ID = "dystopian-wars"


# the turn's actions (`play`), what the player reads (`status`) and sets by hand
# (`by_hand`), how a unit stands at the end (`outcome`): the standard hooks of each, each
# module imported when one of its hooks is first asked for (`tactical check` reads only
# how the system measures, and so loads neither its turn nor its combat)
@dataclass(frozen=True)
class DystopianWars(
    RuleSystem, rules_id=RULES_ID, hooks_from=(".play", ".status", ".by_hand", ".outcome")
):
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

    # the schema, then each weapon's Attack Dice band by band (G.5)
    check_stats = staticmethod(declaration.check_stats)
    # measuring (GEO002.7): Range Bands 1-4; the arcs of the unit's weapons (R002.14); line
    # of sight by Height Level (R002.40) and through other Surface models (R002.41, A002.21)
    range_band = staticmethod(declaration.range_band)
    range_table = staticmethod(declaration.range_table)
    unit_arcs = staticmethod(declaration.unit_arcs)
    los_level = staticmethod(declaration.los_level)
    model_blocking = staticmethod(measures.model_blocking)
    # moving: T002.12, R002.35, A002.7 (water hits soft and dense, land and the air dense);
    # R002.11-R002.13, R002.30-R002.34, R002.45, R002.48 (templates, the generator boost)
    terrain_collides = staticmethod(movement.terrain_collides)
    turning_rules = staticmethod(movement.turning_rules)
    move_activation = hook(".generators", "move_activation")
    # the move action's own plan (GEO002.8, R002.35), which a preview reads
    planned_move = hook(".maneuver", "planned_move")
    # the turn (R002.19 / R002.20 / R002.28): Field Orders, Initiative, the Squadron
    # Activation Sequence, the End Phase; the initiative winner activates first (G.5); a
    # fleet passes only when no step is left to it
    stage = hook(".sequence", "stage")
    play_order = hook(".sequence", "play_order")
    pass_refused = hook(".status", "pass_refused")
    # attacks: R002.36-R002.43 declared on the table as it stands, resolved and their odds
    weapons = hook(".combat", "weapons_of")
    declare_attack = hook(".resolving", "declare_attack")
    resolve_attack = hook(".resolving", "resolve")
    attack_odds = hook(".odds_report", "attack_odds")
    # the end: R002.3 / R002.22, the result the End Phase or a Crushing Triumph recorded
    outcome = hook(".outcome", "outcome")
    unit_conditions = hook(".outcome", "unit_conditions")  # the players' batch of conditions

    def weapon_reach(self, unit: Unit, weapon: str, options: Mapping[str, Any]) -> WeaponReach:
        """GEO002.7 / R002.14: the weapon's own arc, the Range Bands where it has Attack Dice,
        measured from its measuring point (T002.4) to the target's nearest point."""
        found = next((w for w in cards.card(unit).weapons if w.name == weapon), None)
        if found is None:
            return super().weapon_reach(unit, weapon, options)
        step = float(declaration.settings(options)["range_band_inches"])
        firing_bands = tuple(
            FiringBand(f"RB{k + 1}", k * step, (k + 1) * step)
            for k, dice in enumerate(found.attack_dice)
            if dice > 0
        )
        measured_from = measures.weapon_measured_from(unit, found)
        return WeaponReach(weapon, (found.arc,), firing_bands, measured_from)  # type: ignore[arg-type]

    def adjustment_refused(
        self, before: GameState, after: GameState, position: TurnPosition
    ) -> str | None:
        """R002.28: the squadron being activated keeps its models until its activation is
        over (`by_hand.adjustment_refused`); then the protocol's own check."""
        from tactical.rules.dystopian_wars import by_hand  # here: loaded on first use

        return by_hand.adjustment_refused(before, after) or super().adjustment_refused(
            before, after, position
        )


RULE_SYSTEM = DystopianWars(
    end_reading="R002.22",
    id=RULES_ID,
    title="Dystopian Wars 1.1",
    seed="002",
    background="sea",
    conventions=MeasuringConventions(
        distance_to="nearest",
        arc_test="any",
        range_bands=declaration.bands(declaration.RANGE_BAND_INCHES),
        arcs=QUADRANTS,
        citations=(("range", "GEO002.7"), ("arcs", "GEO002.7"), ("line of sight", "R002.40")),
    ),
    stats_fields=declaration.STATS_FIELDS,
    option_fields=declaration.OPTION_FIELDS,
    free_table_moves=False,
    turn=later("tactical.rules.dystopian_wars.sequence", "TURN_SEQUENCE"),
    blocks_los=declaration.dw_blocks_los,
)
