"""The names players read (`GameState.shown_names`), shared by states with the same roster
and units' names: the same as worked out afresh, and each state's its own copy."""

from __future__ import annotations

from dataclasses import replace

from tactical.io import builtin_map, load_map
from tactical.model import state as states


def test_names_shared_between_states_are_the_ones_worked_out_and_copies():
    first = load_map(builtin_map("dystopian-wars"))
    unit = first.units[0]
    renamed = replace(first, units=(unit.__class__(**{**_fields(unit), "name": "Ship 1"}),
                                    *first.units[1:]))  # fmt: skip
    fewer = first.without_unit(first.units[1].id)
    for state in (first, replace(first, rule_state=first.rule_state), renamed, fewer):
        assert state.shown_names == state._shown_names()
    a, b = replace(first, rule_state=first.rule_state), replace(first, rule_state=first.rule_state)
    assert a.shown_names == b.shown_names and a.shown_names is not b.shown_names
    a.shown_names[unit.id] = "changed by a caller"
    assert b.shown_names[unit.id] == first._shown_names()[unit.id]
    assert renamed.shown_names[unit.id] != first.shown_names[unit.id]
    assert fewer.shown_names[first.units[1].id] == first.shown_names[first.units[1].id]
    assert len(states._SHOWN) <= states.MAX_SHOWN


def _fields(unit):
    return {name: getattr(unit, name) for name in states.Unit.__dataclass_fields__}
