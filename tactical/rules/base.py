"""The rule-system protocol and its values, under one name: import from here.

A rule system is a package under `tactical.rules` that builds one `RuleSystem`
and registers it by id (see `tactical.rules.registry`). Everything it tells the
rest of the tool is data or a pure function: how it measures, which arcs it
names, how it validates unit stats and options, how units may move, and
its turn sequence, and its resolvers.

Resolvers (docs/architecture.md "The rule-system protocol"): a resolver is a pure function of
(state, declared action, dice) returning a `Resolution` — the events (every
roll, threshold, table lookup and outcome, each citing its SPEC id), the new
state, and a small hashable `summary` of the outcome. Odds are the exact
distribution of that summary, computed by running the same resolver under
`tactical.dice.enumerate_outcomes`. The generic attack hooks
(`weapons`, `declare_attack`, `resolve_attack`, `attack_odds`) let the
front ends ask any rule system without naming it; a system without combat
resolvers says so with a UserError.

The parts live in their own modules and are re-exported here: the protocol itself
(`tactical.rules.protocol`: `RuleSystem` and its defaults), the values it passes
(`tactical.rules.values`: events, actions, attacks, odds reports, hidden information), its
default words (`tactical.rules.wording`), how a system measures
(`tactical.rules.conventions`: range bands, measuring conventions, a weapon's reach),
its stats and options schema (`tactical.rules.schema`: fields, checks, defaults) and its
turn as data (`tactical.rules.turns`: phases, positions, stages).
"""

from __future__ import annotations

from tactical.rules.conventions import (
    REACH_PROBE_LIMIT,
    FiringBand,
    MeasuringConventions,
    ModelBlocking,
    PlannedMove,
    RangeBand,
    RangeBands,
    WeaponReach,
    bands_from_limits,
)
from tactical.rules.protocol import (
    NoCombatResolvers,
    RuleSystem,
    default_blocks_los,
    kept_rule_state,
    never_blocks_los,
    options_check,
    turn_limit_field,
    validated_options,
)
from tactical.rules.schema import Field, Problem, check_fields, checkable_params, with_defaults
from tactical.rules.turns import Phase, Stage, StageStep, TurnPosition, TurnSequence
from tactical.rules.values import (
    LAST_SEEN_KEY,
    NOTHING_WITHHELD,
    Action,
    ActionChoice,
    Attack,
    AttackParams,
    Event,
    OddsReport,
    OddsSection,
    Resolution,
    StepFacts,
    Withheld,
    attack_declaration,
    last_seen,
    probability_row,
)
from tactical.rules.wording import default_description, default_status, status_changes, unit_name

# the protocol's names, with those of its parts (`protocol`, `values`, `wording`,
# `conventions`, `schema`, `turns`)
__all__ = [
    "LAST_SEEN_KEY",
    "NOTHING_WITHHELD",
    "REACH_PROBE_LIMIT",
    "Action",
    "ActionChoice",
    "Attack",
    "AttackParams",
    "Event",
    "Field",
    "FiringBand",
    "MeasuringConventions",
    "ModelBlocking",
    "NoCombatResolvers",
    "OddsReport",
    "OddsSection",
    "Phase",
    "PlannedMove",
    "Problem",
    "RangeBand",
    "RangeBands",
    "Resolution",
    "RuleSystem",
    "Stage",
    "StageStep",
    "StepFacts",
    "TurnPosition",
    "TurnSequence",
    "WeaponReach",
    "Withheld",
    "attack_declaration",
    "bands_from_limits",
    "check_fields",
    "checkable_params",
    "default_blocks_los",
    "default_description",
    "default_status",
    "kept_rule_state",
    "last_seen",
    "never_blocks_los",
    "options_check",
    "probability_row",
    "status_changes",
    "turn_limit_field",
    "unit_name",
    "validated_options",
    "with_defaults",
]
