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
limits). The rule system below is their declaration: each hook bound to the function that
implements it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tactical.model import Unit
from tactical.rules.base import (
    FiringBand,
    MeasuringConventions,
    RuleSystem,
    WeaponReach,
    never_blocks_los,
    with_defaults,
)
from tactical.rules.protocol import hook, later
from tactical.rules.sw_d6_capital import deck, movement
from tactical.rules.sw_d6_capital import outcome as ending
from tactical.rules.sw_d6_capital.deck import STATS_FIELDS, deck_of, parse_ranges
from tactical.rules.sw_d6_capital.options import OPTION_FIELDS
from tactical.rules.sw_d6_capital.tables import (
    ARC_SECTORS,
    FRONT,
    LEFT,
    REAR,
    RIGHT,
    SPEED_ORDER,
)

RULES_ID = "sw-d6-capital"
SW_ARCS = ARC_SECTORS
SPEEDS = SPEED_ORDER


# the turn's actions (`play`), what the player reads (`status`) and sets by hand
# (`by_hand`), the end (`ending`, docs/game-end.md): the standard hooks of each; an attack's
# (`combat`'s `HOOKS`) below. Each module is imported when one of its hooks is first asked
# for (`tactical check` loads neither the turn nor the attacks)
@dataclass(frozen=True)
class SwD6Capital(
    RuleSystem, rules_id=RULES_ID, hooks_from=(".play", ".status", ".by_hand", ending)
):
    """Star Wars D6 capital ships with the SPEC's adopted readings."""

    # the Command Deck schema, die codes, ranges and weapon units (`deck`)
    check_stats = staticmethod(deck.check_stats)
    # GEO004.2: the band of the unit's longest-ranged weapon; R004.50, R004.51, T004.14: the
    # declared speed and its turn limit; GEO004.7: only obstructing terrain (a planet) stops
    # a ship, asteroids and debris are hazards to pilot through
    range_band = staticmethod(deck.ship_range_band)
    range_band_indices = staticmethod(deck.ship_range_band_indices)
    turning_rules = staticmethod(movement.turning_rules)
    terrain_collides = hook(".maneuver", "terrain_collides")
    # the turn (T004.1 / R004.10): Initiative, Command, Damage Control, Action, Movement; the
    # captains in Initiative order (R004.14 / R004.25); no pass while this turn's Initiative
    # is still to be rolled (R004.10, R004.11)
    acting_order = hook(".status", "acting_order")
    pass_refused = hook(".status", "pass_refused")
    weapons = staticmethod(deck.weapon_units)
    # a ship's condition kept when its deck is set by hand
    adjusted = hook(".by_hand", "adjusted")
    declare_attack = hook(".combat", "declare_in_action_phase")
    resolve_attack = hook(".combat", "resolve_in_action_phase")
    attack_odds = hook(".combat", "odds_in_action_phase")

    def weapon_reach(self, unit: Unit, weapon: str, options: Mapping[str, Any]) -> WeaponReach:
        """GEO004.2 / GEO004.3: the weapon unit's own arc and its ranges (Space units to
        inches); Point Blank below Short, nothing beyond Long."""
        found = next((w for w in deck_of(unit).weapons if w.id == weapon), None)
        if found is None:
            return super().weapon_reach(unit, weapon, options)
        scale = float(with_defaults(OPTION_FIELDS, options)["inches_per_space"])
        low, short, medium, long = (limit * scale for limit in found.ranges)
        arc = next(a for a in SW_ARCS if a.name == found.arc)
        limits = (("point-blank", low), ("short", short), ("medium", medium), ("long", long))
        bands, start = [], 0.0
        for name, high in limits:
            if high > start or (name == "point-blank" and high > 0):
                bands.append(FiringBand(name, start, high))
            start = max(start, high)
        return WeaponReach(weapon, (arc,), tuple(bands))


RULE_SYSTEM = SwD6Capital(
    end_reading=ending.SPEC_ID,
    id=RULES_ID,
    title="Star Wars D6 Capital Ship Combat",
    seed="004",
    background="space",
    conventions=MeasuringConventions(  # centre to centre, a target in arc by its centre
        arcs=SW_ARCS,
        citations=(("range", "GEO004.2"), ("arcs", "GEO004.3"), ("line of sight", "R004.29")),
    ),
    stats_fields=STATS_FIELDS,
    option_fields=OPTION_FIELDS,
    free_table_moves=False,
    turn=later("tactical.rules.sw_d6_capital.play", "TURN_SEQUENCE"),
    # R004.29: any enemy in the arc may be targeted; GEO004.1-GEO004.7 ask for no line of sight
    blocks_los=never_blocks_los,
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
