"""A watched rule state's tables (`agents.reads`): one watched view per table read, noting
each entry read; a view hashes as its table; a table written after watching is read as it
is; the values a later table holds under the reads (`read_values`) are the entries, their
absence, or a mark where the key holds no table now."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tactical.agents.reads import WatchedTable, path, read_values, watching
from tactical.io import builtin_map, load_map
from tactical.model import FrozenMap


@pytest.fixture(scope="module")
def state():
    return load_map(builtin_map("heavy-combat"))


def _with(state, **rule_state):
    return replace(state, rule_state=FrozenMap(rule_state))


def test_a_table_read_twice_is_one_view_noting_each_entry(state):
    watched, reads = watching(_with(state, t=FrozenMap(x=1, y=2), n=3))
    first = watched.rule_state["t"]
    second = watched.rule_state.get("t")
    assert isinstance(first, WatchedTable) and second is first
    assert first.get("x") == 1 and second["y"] == 2 and first.get("z", 9) == 9
    assert reads.key() == (path("t", "x"), path("t", "y"), path("t", "z"))


def test_a_view_hashes_as_its_table_and_reading_it_whole_reads_its_key(state):
    table = FrozenMap(x=1, y=(2, 3))
    known = hash(table)
    watched, reads = watching(_with(state, t=table))
    assert hash(watched.rule_state["t"]) == known
    assert reads.key() == ("t",)


def test_a_table_written_after_watching_is_read_as_it_is(state):
    watched, reads = watching(_with(state, t=FrozenMap(x=1)))
    after = watched.with_rule_state(t=FrozenMap(x=5))
    table = after.rule_state["t"]
    assert type(table) is FrozenMap and table["x"] == 5
    assert after.rule_state["t"] is table
    assert reads.key() == ()
    assert watched.rule_state["t"]["x"] == 1  # the watched state's own: read
    assert reads.key() == (path("t", "x"),)


def test_read_values_reads_entries_their_absence_and_a_key_holding_no_table(state):
    keys = ("n", path("t", "x"), path("t", "gone"), path("n", "x"), "missing")
    values = read_values(_with(state, t=FrozenMap(x=1), n=3), keys)
    again = read_values(_with(state, t=FrozenMap(x=1, other=2), n=3), keys)
    assert values == again and values[0] == 3 and values[1] == 1
    assert len({values[2], values[3], values[4]}) == 2  # absent twice, no table once
    assert values[2] is values[4] and values[3] is not values[2]
    assert read_values(_with(state, t=FrozenMap(x=2), n=3), keys) != values


def test_a_state_updated_keeps_the_views_of_the_tables_it_did_not_write(state):
    watched, reads = watching(_with(state, t=FrozenMap(x=1), u=FrozenMap(y=2), n=3))
    t, u = watched.rule_state["t"], watched.rule_state["u"]
    after = watched.with_rule_state(u=FrozenMap(y=5), n=4)
    assert after.rule_state["t"] is t  # the same table, the same view
    assert after.rule_state["u"] is not u and after.rule_state["u"]["y"] == 5  # its own
    assert after.rule_state["t"]["x"] == 1
    assert reads.key() == (path("t", "x"),)  # the written table's reads are not noted


def test_a_watched_copy_is_the_same_table_with_its_worked_out_index_kept(state):
    plain = _with(state, n=1)
    first = plain.units[0]
    assert plain.unit(first.id) is first  # its units by id worked out
    watched, reads = watching(plain)
    assert watched.units is plain.units and watched.terrain is plain.terrain
    assert watched.__dict__["_units_by_id"] is plain.__dict__["_units_by_id"]
    assert watched.rule_state["n"] == 1 and reads.key() == ("n",)
    assert watched == plain  # (compared whole: every key read)
