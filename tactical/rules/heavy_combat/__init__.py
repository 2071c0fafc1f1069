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
and odds hooks); `hidden` (what a side may not see of a cloaked enemy, R001.29). The rule
system below is their declaration: each hook bound to the function that implements it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tactical.geometry.arcs_spec import QUADRANTS
from tactical.model import FrozenMap, Unit
from tactical.rules.base import MeasuringConventions, RuleSystem, WeaponReach, never_blocks_los
from tactical.rules.heavy_combat import duel_state, engagement, hidden
from tactical.rules.heavy_combat import outcome as ending
from tactical.rules.heavy_combat.ships import (
    OPTION_FIELDS,
    STATS_FIELDS,
    STEP_INCHES,
    check_stats,
    profile,
)
from tactical.rules.heavy_combat.weapons import weapons_of
from tactical.rules.protocol import hook, later

RULES_ID = "heavy-combat"


# what the player reads (`status`) and sets by hand (`by_hand`), the end (`ending`,
# docs/game-end.md): the standard hooks of each; the turn's and the attacks' own (the
# `HOOKS` of `turn` and `attacks`) below. Each module is imported when one of its hooks is
# first asked for (`tactical check` loads neither the turn nor the attacks)
@dataclass(frozen=True)
class HeavyCombat(RuleSystem, rules_id=RULES_ID, hooks_from=(".status", ".by_hand", ending)):
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

    check_stats = staticmethod(check_stats)
    # GEO001.7: three bands of `inches_per_range_step`, the same for every unit
    range_band = staticmethod(engagement.range_band)
    range_table = staticmethod(engagement.range_table)
    setup = staticmethod(duel_state.setup)
    actions = hook(".turn", "actions")
    apply = hook(".turn", "apply")
    weapons = hook(".turn", "weapon_names")
    declare_attack = hook(".attacks", "declare_attack")
    resolve_attack = hook(".attacks", "resolve_attack")
    attack_odds = hook(".attacks", "attack_odds")
    action_odds = hook(".attacks", "action_odds")
    attack_replays = hook(".attacks", "attack_replays")  # counted before the odds are enumerated
    # R001.29: a cloaked enemy stands where it was last seen, its course and its moves
    # withheld until its cloak drops
    view_for = staticmethod(hidden.view_for)
    withheld = staticmethod(hidden.withheld)

    def weapon_reach(self, unit: Unit, weapon: str, options: Mapping[str, Any]) -> WeaponReach:
        """T001.8 / GEO001.7: the in-plane facings the weapon fires through, as quadrants, out
        to band 3 (R001.21)."""
        reach = super().weapon_reach(unit, weapon, options)
        found = next((w for w in weapons_of(profile(unit)) if w.name == weapon), None)
        if found is None:
            return reach
        arcs = tuple(arc for arc in QUADRANTS if arc.name in found.arcs)
        return WeaponReach(weapon, arcs, reach.bands, reach.measured_from)


RULE_SYSTEM = HeavyCombat(
    end_reading=ending.SPEC_ID,
    id=RULES_ID,
    title="Revised Rules for Heavy Combat",
    seed="001",
    background="space",
    conventions=MeasuringConventions(
        range_bands=engagement.bands(STEP_INCHES),
        arcs=QUADRANTS,
        citations=(("range", "GEO001.7"), ("arcs", "GEO001.7"), ("line of sight", "GEO001.6")),
    ),
    stats_fields=STATS_FIELDS,
    option_fields=OPTION_FIELDS,
    free_table_moves=False,
    turn=later("tactical.rules.heavy_combat.turn", "TURN_SEQUENCE"),
    blocks_los=never_blocks_los,  # GEO001.6: the duel has no line of sight
)
