"""How a rule system's bookkeeping follows a table adjusted by hand (issue 14).

`RuleSystem.adjusted`'s default, kept here: the rule state of the game so far,
with the entries of the units that were removed, added or given new stats
following the table (see `merged_rule_state`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tactical.model import FrozenMap, GameState


def merged_rule_state(before: GameState, after: GameState, fresh: GameState) -> dict[str, Any]:
    """`RuleSystem.adjusted`'s default: the old rule state with the units' entries following
    the table (see there)."""
    old_ids = {unit.id for unit in before.units}
    new_ids = {unit.id for unit in after.units}
    removed, added = old_ids - new_ids, new_ids - old_ids
    restated = {
        unit.id
        for unit in after.units
        if unit.id in old_ids and before.unit(unit.id).stats != unit.stats
    }
    added = added | restated
    ids = old_ids | new_ids
    merged: dict[str, Any] = {}
    for key, value in after.rule_state.items():
        merged[key] = _follow_units(value, fresh.rule_state.get(key), ids, removed, added)
    for key, value in fresh.rule_state.items():
        merged.setdefault(key, value)
    return merged


def _follow_units(value: Any, fresh: Any, ids: set[str], removed: set[str], added: set[str]) -> Any:
    if isinstance(value, Mapping):
        keyed = any(key in ids for key in value) or (
            isinstance(fresh, Mapping) and any(key in ids for key in fresh)
        )
        if not keyed:
            return value
        kept = {key: item for key, item in value.items() if key not in removed}
        if isinstance(fresh, Mapping):
            kept.update({key: fresh[key] for key in added if key in fresh})
        return FrozenMap(kept)
    if isinstance(value, tuple) and any(isinstance(item, str) and item in ids for item in value):
        return tuple(item for item in value if not (isinstance(item, str) and item in removed))
    return value
