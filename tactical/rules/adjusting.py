"""How a rule system's bookkeeping follows a table adjusted by hand.

`RuleSystem.adjusted`'s default, kept here: the rule state of the game so far,
with the entries of the units that were removed, added or given new stats
following the table (see `merged_rule_state`). And a unit's status values set by
hand (`RuleSystem.status_fields` / `set_status`): checked against their fields
(`checked_status`: a value over its maximum or below 0 is one clear message) and
told in words (`status_sentence`). And `RuleSystem.adjustment_refused`'s default
(`acting_unit_changed`): an adjustment must not take away a unit in the middle of its go.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from tactical.errors import UserError
from tactical.model import FrozenMap, GameState
from tactical.rules.schema import Field
from tactical.rules.status import OrderEntry
from tactical.rules.turns import TurnPosition


class _ActingOrderOf(Protocol):
    """A rule system as `acting_unit_changed` asks it (`RuleSystem.acting_order`); the
    protocol builds on this module, so it is named by what is asked of it."""

    def acting_order(self, state: GameState, position: TurnPosition) -> tuple[OrderEntry, ...]: ...


def merged_rule_state(before: GameState, after: GameState, fresh: GameState) -> dict[str, Any]:
    """`RuleSystem.adjusted`'s default: the keys of the old rule state whose values change
    as the units' entries follow the table, and the keys only `fresh` has (see there).
    Only what changes is given (a move changes nothing): `after.with_rule_state(**merged)`
    is the whole rule state."""
    old_ids = {unit.id for unit in before.units}
    new_ids = {unit.id for unit in after.units}
    removed, added = old_ids - new_ids, new_ids - old_ids
    restated = {
        unit.id
        for unit in after.units
        if unit.id in old_ids
        and before.unit(unit.id).stats is not unit.stats
        and before.unit(unit.id).stats != unit.stats
    }
    added = added | restated
    ids = old_ids | new_ids
    merged: dict[str, Any] = {}
    if removed or added:
        for key, value in after.rule_state.items():
            followed = _follow_units(value, fresh.rule_state.get(key), ids, removed, added)
            if followed is not value:
                merged[key] = followed
    for key, value in fresh.rule_state.items():
        if key not in after.rule_state:
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
        if not any(isinstance(item, str) and item in removed for item in value):
            return value
        return tuple(item for item in value if not (isinstance(item, str) and item in removed))
    return value


def acting_unit_changed(
    system: _ActingOrderOf, before: GameState, after: GameState, position: TurnPosition
) -> str | None:
    """`RuleSystem.adjustment_refused`'s default: a unit the rules name as acting now
    (`acting_order`) taken off the table or given to another side would leave its go with
    no one to finish it; the reason in words, or None."""
    try:
        order = system.acting_order(before, position)
    except UserError:
        return None
    for entry in order:
        if not entry.acting or not before.has_unit(entry.unit):
            continue
        if after.has_unit(entry.unit) and after.unit(entry.unit).side == entry.side:
            continue
        name = before.shown_names.get(entry.unit, entry.unit)
        return f"the {name} is acting now: finish or undo its go first"
    return None


# --------------------------------------------------------------------------- status set by hand


def checked_status(fields: Sequence[Field], values: Mapping[str, Any], who: str) -> dict[str, Any]:
    """`values` (keys of `fields`, `RuleSystem.status_fields`) checked against their fields:
    one UserError for the first wrong one, saying which value, what it takes and the rule."""
    known = {spec.name: spec for spec in fields}
    if not values:
        raise UserError(f"adjust {who}: no status value given{_settable(fields)}")
    checked = {}
    for key, value in values.items():
        spec = known.get(key)
        if spec is None:
            raise UserError(f"adjust {who}: {key!r} is not one of its values{_settable(fields)}")
        if not _fits(spec, value):
            why = f" ({spec.doc})" if spec.doc else ""
            raise UserError(
                f"adjust {who}: {spec.label} takes {_takes(spec)}, not {_shown(value)}{why}",
                spec_id=spec.spec_id,
            )
        checked[key] = value
    return checked


def status_sentence(fields: Sequence[Field], values: Mapping[str, Any]) -> str:
    """The values set, in words: "Shield fore 9 → 4, Weapons 4 → 2" (`fields` as they were
    before, their defaults the old values)."""
    known = {spec.name: spec for spec in fields}
    parts = [
        f"{known[key].label} {_shown(known[key].default)} → {_shown(value)}"
        for key, value in values.items()
        if known[key].default != value
    ]
    return ", ".join(parts) or "nothing changed"


def _fits(spec: Field, value: Any) -> bool:
    if spec.kind == "bool":
        return isinstance(value, bool)
    if spec.kind == "str":
        return isinstance(value, str) and (not spec.choices or value in spec.choices)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    if spec.kind == "int" and not float(value).is_integer():
        return False
    if not math.isfinite(value):
        return False
    return (spec.low is None or value >= spec.low) and (spec.high is None or value <= spec.high)


def _takes(spec: Field) -> str:
    if spec.kind == "bool":
        return "yes or no (true or false)"
    if spec.kind == "str":
        return "one of " + ", ".join(spec.choices or ()) if spec.choices else "a word"
    what = "a whole number" if spec.kind == "int" else "a number"
    if spec.low is not None and spec.high is not None:
        return f"{what} from {spec.low:g} to {spec.high:g}"
    if spec.low is not None:
        return f"{what} of at least {spec.low:g}"
    return what if spec.high is None else f"{what} of at most {spec.high:g}"


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _settable(fields: Sequence[Field]) -> str:
    if not fields:
        return ": it has none to set by hand"
    return " (its values: " + ", ".join(spec.label for spec in fields) + ")"
