"""What `tactical check` works out once a table rather than once a block: the entry tables
of its lists (the pieces and models in a line's way, GEO002.10 and R002.41) laid out once
for the compiled writer and for the numpy one, kept by the very tables, never another
table's.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tactical.cli.check_words import Words
from tactical.geometry import compiled_kernels
from tactical.geometry.compiled_kernels import NO_JIT
from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.rules import report_json
from tactical.rules.measuring import TableGeometry
from tactical.rules.report_json import entry_tables, table


def _pool(tables):
    return report_json._kept("pool", tables, report_json._entry_pool)


def test_read_only_entry_tables_are_packed_once():
    first, rest = entry_tables(['"a"', '"bb"'])
    assert not first.flags.writeable and not rest.flags.writeable
    packed = _pool((first, rest))
    assert _pool((first, rest)) is packed  # kept: the same tables
    lengths, pool, bases, slot = packed
    assert lengths.tolist() == [0, 3, 4, 0, 5, 6]  # "", "a", "bb", then after ", "
    assert bases.tolist() == [0, 3] and slot == 1
    assert pool.view(np.uint8)[4, :5].tobytes() == b', "a"'
    cells = report_json._kept("cells", (first, rest), report_json._entry_cells)
    assert cells.shape == (6, 8) and cells[5].tobytes() == b', "bb"\0\0'
    assert report_json._kept("cells", (first, rest), report_json._entry_cells) is cells


def test_tables_that_can_change_are_packed_afresh():
    names = table(["", "ab"]), table(["", ", ab"])
    before = _pool(names)
    names[0][1, 1] = 0  # written over: its entry now "a"
    after = _pool(names)
    assert after is not before
    assert before[0].tolist() == [0, 2, 0, 4] and after[0].tolist() == [0, 1, 0, 4]


def test_a_kept_table_made_writeable_again_is_packed_afresh():
    """A kept table whose owner makes it writeable again and writes it is not read from
    what was kept."""
    first, rest = entry_tables(['"ab"'])
    before = _pool((first, rest))
    first.flags.writeable = True
    first[1, 2] = ord("c")
    assert _pool((first, rest)) is not before
    assert _pool((first, rest))[1].view(np.uint8)[1, :4].tobytes() == b'"ac"'


def test_a_kept_pool_is_never_given_to_other_tables_under_the_same_ids():
    """An id is a table's only while it lives: a kept pool whose tables are not the very
    ones asked for (another table now at the same address) is not used."""
    old = entry_tables(['"old"'])
    new = entry_tables(['"new"', '"newer"'])
    report_json._KEPT[("pool", *(id(t) for t in new))] = (old, _pool(old))
    assert _pool(new)[0].tolist() == [0, 5, 7, 0, 7, 9]


def _small(state, count: int):
    return dataclasses.replace(state, units=state.units[:count])


def _renamed(state):
    """The same table, every unit and piece under another id and name."""
    units = tuple(
        dataclasses.replace(u, id=f"other-{k}", name=f"Other ship {k}")
        for k, u in enumerate(state.units)
    )
    terrain = tuple(
        dataclasses.replace(t, id=f"rock-{k}", name=f"Rock {k}")
        for k, t in enumerate(state.terrain)
    )
    return dataclasses.replace(state, units=units, terrain=terrain)


def _stream(geometry: TableGeometry) -> tuple[bytes, bytes, bool]:
    """The table's JSON list and its words, and whether the kernels wrote them."""
    words = Words(geometry)
    blocks = list(geometry.report_blocks(pairs_per_block=1000))
    json = b"".join(block.json_text(first=k == 0) for k, block in enumerate(blocks))
    text = b"".join(words.text(block) for block in blocks)
    return json, text, all(block.use_kernel for block in blocks)


def test_a_second_table_lists_its_own_names_by_the_kernel(monkeypatch):
    """Two tables streamed one after the other by the kernels: the second lists its own
    pieces and models in each line's way, byte for byte what the numpy code writes."""
    pytest.importorskip("numba")
    monkeypatch.setattr(compiled_kernels, "COMPILED_PAIRS", 1)  # any table a big one
    state = _small(load_map(str(builtin_map("stress-200"))), 40)
    other = _renamed(state)
    monkeypatch.setenv(NO_JIT, "1")
    expected = [_stream(TableGeometry.of(s)) for s in (state, other)]
    monkeypatch.delenv(NO_JIT)
    found = [_stream(TableGeometry.of(s)) for s in (state, other)]
    assert [f[2] for f in found] == [True, True] and [e[2] for e in expected] == [False, False]
    assert [f[:2] for f in found] == [e[:2] for e in expected]
    (json_a, text_a, _), (json_b, text_b, _) = found
    # lines blocked by pieces and by models: the entries really listed, by each table's names
    assert b'"blocked_by": ["dense-' in json_a and b'"blocked_by": ["rock-' in json_b
    assert b'{"name": "Other ship' in json_b and b"the model Other ship" in text_b
    assert b"the model Ship " in text_a
    assert b"dense-" not in json_b and b"Ship " not in text_b
