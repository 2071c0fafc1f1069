"""`tactical check` written from the report columns (as text and as JSON): the same bytes as
the per-pair way (a `PairReport` each, its line of words or json.dumps), and the same
bytes as before the columns wrote them, on every built-in map and on a generated table of
400 ships (the check command's contract; GEO002.10 blocker order; R002.41 models in the
way).
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import io
import itertools
import json
import sys
from contextlib import redirect_stdout
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tactical.cli import main
from tactical.cli.check_words import Words, pair_line
from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.model import FrozenMap
from tactical.rules.measuring import TableGeometry
from tactical.rules.report_json import Columns, RowLists, fixed, numbers, table, texts

MAPS = ("battlefleet-mars", "cortex-space", "default", "dense", "dystopian-wars",
        "heavy-combat", "stress-200", "sw-d6-capital")  # fmt: skip
RULES = ("battlefleet-mars", "cortex-space", "dystopian-wars", "heavy-combat", "sw-d6-capital")

# sha256 of each output as `tactical check` wrote it before the text came from the columns
# (text, text with --witness, --json); the generated table is scripts/make_maps.py's
# 400-ship stress map
BEFORE = {
    (
        "battlefleet-mars",
        "text",
    ): "e2eda761da803961a42d7f6187cd114b1314d2af75807478e2beed4da1bf3a75",
    (
        "battlefleet-mars",
        "witness",
    ): "da4da848a639c99ae49ef8e306fd7469d01e8da804fc294c30de835cfd4f3923",
    (
        "battlefleet-mars",
        "json",
    ): "fee998782539eddcaeb706e4285e39fc7a27215bb72a2eb8185b47dd6b2d4f3a",
    ("cortex-space", "text"): "d6386c42f3e1ba37a2329b161c8205f44c923ed06dad8d9f7bac6a84f1f61f80",
    ("cortex-space", "witness"): "de0a36d86aa087cea5e2ae37d00afd0701a57609ee0e38149ab356b4e677c648",
    ("cortex-space", "json"): "d7a0fc2e03be089f7b2d19de869e736b56999014fccd5eb799136d4386b0208d",
    ("default", "text"): "a80e0acb41ba46944c445f32ff6a03756f978fdb85f8e7eca27d5ca4f91ef4df",
    ("default", "witness"): "b1c868ee10be6adc92e6d73534c7a6e406b82c5fac1e6896ae09f58d41b9bef2",
    ("default", "json"): "64e9217875b9d6b2061b44b4ab890adfa03489540b43347e66cac837b6aabf02",
    ("dense", "text"): "3afd4518207cdef980b377179ca0beeb57603e82bbb03015cb7fa3306cc95208",
    ("dense", "witness"): "1d04ea569658761ef25ee19fc0076b78f938444611e8c7c7f0567b98ae10fbf4",
    ("dense", "json"): "21ef50d8759365ca5abc58b89c5c1d82028013dc0d69dd7d0548713d949bebfc",
    ("dystopian-wars", "text"): "140415d5cd41771333d8d2de9239693c43367d7809758e2513c62fcc689f5f4a",
    (
        "dystopian-wars",
        "witness",
    ): "dacd0d9b52e48a52840adf62024354c32effa5e030e9fa7aa725be02f7fa992d",
    ("dystopian-wars", "json"): "bdf1b88d1e97bf144afe1c749a625cf63415cb77af0e8399ac32c5fde270b127",
    ("heavy-combat", "text"): "bcffd331b17db1da348ee5e5fa9f69be9d3d19af49120eb68e16b36f4047af59",
    ("heavy-combat", "witness"): "8ed58bc01d667bd62579dea37f1c98040c272ad0edbec6ceb180a276d83ef29a",
    ("heavy-combat", "json"): "792e2f56d6bd42dbad309ac0eab57efb4bc3442b48710330536b61ec7e1df71b",
    ("stress-200", "text"): "e5b8a3a5061fff0e7f3fa7b1cefb7b725d2e85ff5986eb9bf8250fb98f34929b",
    ("stress-200", "witness"): "1f79436e0803557caa6345a203b22311209a0b3d9ba4636f54866adabca18314",
    ("stress-200", "json"): "b91a02287cd8a4b2546b5c9c86a3acdf0cde13006fe9a3f1693fd25f81f44fb6",
    ("sw-d6-capital", "text"): "25436ad36c39a30498c58314642dd0bcece06fbdcdee36e4718b926baf7fbf4c",
    (
        "sw-d6-capital",
        "witness",
    ): "7dcf96f5658e8bbb44d58cf68ed265a9d7018e61d938111c08e739fa861f9d5b",
    ("sw-d6-capital", "json"): "4c6909430a24a6f2f1f56c436f122699ad68b8c1f9cc33b8b425793589b272e6",
    ("stress-400", "text"): "58987525ee62f16937f6352b679f8aadbf94c3983cc09bc6d1358112eeae5899",
    ("stress-400", "json"): "be14181a53ae23bb28b11eafac8866dc6e293185f46d7c43c08509b9b1ea4476",
}
FLAGS = {"text": (), "witness": ("--witness",), "json": ("--json",)}


def _output(*args: str) -> bytes:
    """What `tactical check ARGS` writes to stdout, as bytes (through a real byte stream,
    as a terminal or a pipe takes it)."""
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="utf-8", newline="")
    with redirect_stdout(stream):
        assert main(["check", *args]) == 0
        stream.flush()
    return raw.getvalue()


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.mark.parametrize("name", MAPS)
@pytest.mark.parametrize("kind", list(FLAGS))
def test_every_built_in_map_writes_what_it_wrote_before(name, kind):
    assert _digest(_output(str(builtin_map(name)), *FLAGS[kind])) == BEFORE[(name, kind)]


@pytest.fixture(scope="module")
def stress_400(tmp_path_factory) -> Path:
    """scripts/make_maps.py's stress map of 400 ships (deterministic), written afresh."""
    return _make_maps().write_stress_map(400, tmp_path_factory.mktemp("stress"))


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["text", "json"])
def test_a_generated_table_of_400_ships_writes_what_it_wrote_before(stress_400, kind):
    """159,600 pairs in three blocks, lines crossing up to a dozen pieces and ships."""
    assert _digest(_output(str(stress_400), *FLAGS[kind])) == BEFORE[("stress-400", kind)]


def _per_pair(geometry: TableGeometry, **filters) -> bytes:
    """The reference: each pair's `PairReport` in words (`pair_line`), a line each."""
    state = geometry.state
    reports = geometry.all_pairs(**filters)
    lines = [pair_line(r, state.shown_names, state.shown_terrain_names) + "\n" for r in reports]
    return "".join(lines).encode()


def _columns(geometry: TableGeometry, block_pairs: int = 1 << 16, **filters) -> bytes:
    words = Words(geometry)
    source, target = filters.get("source_id"), filters.get("target_id")
    blocks = geometry.report_blocks(source, target, pairs_per_block=block_pairs)
    return b"".join(words.text(block) for block in blocks)


def _fleet_on_stress_table(rules: str):
    """maps/stress-200.toml's 200 places and its 40 pieces of terrain, each place a ship of
    the rule system's example map in turn: every system's arcs, bands and blocking."""
    stress = load_map(builtin_map("stress-200"))
    ships = load_map(builtin_map(rules))
    units = tuple(
        dataclasses.replace(
            ships.units[k % len(ships.units)], id=f"ship-{k}", pose=unit.pose, base=unit.base
        )
        for k, unit in enumerate(stress.units)
    )
    return dataclasses.replace(
        ships, units=units, board=stress.board, terrain=stress.terrain, options=FrozenMap()
    )


@pytest.mark.parametrize("rules", RULES)
def test_text_from_columns_is_each_reports_line_in_every_rule_system(rules):
    """39,800 pairs a system, in blocks of one firer and of many: the lines written from the
    columns are those written a report at a time."""
    geometry = TableGeometry.of(_fleet_on_stress_table(rules))
    expected = _per_pair(geometry)
    assert _columns(geometry) == expected
    assert _columns(geometry, block_pairs=150) == expected
    first = geometry.state.units[3].id
    assert _columns(geometry, source_id=first) == _per_pair(geometry, source_id=first)
    assert _columns(geometry, target_id=first) == _per_pair(geometry, target_id=first)


def test_json_from_columns_is_each_reports_json_in_every_rule_system():
    for rules in RULES:
        geometry = TableGeometry.of(_fleet_on_stress_table(rules))
        reports = geometry.all_pairs()
        expected = ", ".join(json.dumps(r.as_json(), ensure_ascii=False) for r in reports)
        blocks = list(geometry.report_blocks(pairs_per_block=5000))
        assert b", ".join(b.json_text() for b in blocks) == expected.encode(), rules


def test_a_row_the_columns_cannot_vouch_for_is_written_the_per_pair_way():
    """A number on a rounding tie (0.125 is one; 2.675, a double a hair below 2.675, is too
    close to one to vouch for) goes to the fallback, whose text takes that row's place."""
    rows = Columns(4)
    rows.constant("<")
    rows.bytes_of(*fixed(np.array([1.0, 0.125, -0.001, 2.675]), 2))
    rows.pick(table(["", "x", "yy"]), np.array([1, 2, 0, 1]))
    rows.constant(">\n")
    written = texts(rows, lambda k: f"fallback {k}\n")
    assert written == b"<1.00x>\nfallback 1\n<-0.00>\nfallback 3\n"


def test_rows_with_long_lists_are_put_back_in_order():
    """Rows laid out in groups by the length of their lists (slots) come back in order."""
    rows = Columns(5)
    names = table(["", "a", "bb", "ccc"])
    rest = table(["", ", a", ", bb", ", ccc"])
    rows.constant("[")
    rows.slots(names, rest, np.array([[0, 0, 0], [1, 2, 3], [2, 0, 0], [3, 1, 0], [1, 0, 0]]))
    rows.constant("]\n")
    assert texts(rows, str) == b"[]\n[a, bb, ccc]\n[bb]\n[ccc, a]\n[a]\n"


def test_a_row_with_lists_the_columns_cannot_vouch_for_is_written_the_per_pair_way():
    """A row sent to the fallback drops its lists' entries too: its fallback text alone
    takes its place, between the rows laid out as cells around it."""
    rows = Columns(4)
    names = table(["", "alpha", "b", "a much longer name than the rest"])
    rest = table(["", ", alpha", ", b", ", a much longer name than the rest"])
    rows.constant("<")
    rows.bytes_of(*fixed(np.array([1.0, 0.125, 2.5, 3.0]), 2))  # 0.125: a rounding tie
    rows.constant(" [")
    rows.slots(names, rest, np.array([[1, 3, 2], [2, 1, 0], [0, 0, 0], [3, 0, 0]]))
    rows.constant("] [")
    rows.slots(names, rest, np.array([[2, 0], [1, 2], [1, 1], [0, 0]]))
    rows.constant("]\n")
    assert texts(rows, lambda k: f"fallback {k}\n") == (
        b"<1.00 [alpha, a much longer name than the rest, b] [b]\n"
        b"fallback 1\n"
        b"<2.50 [] [alpha, alpha]\n"
        b"<3.00 [a much longer name than the rest] []\n"
    )


def test_lists_given_as_counts_and_items_write_what_the_slot_matrix_writes():
    """A list a row as counts and items (no (P, K) matrix, as the reports hold them) lays
    out the same text as its slot matrix, and stands for that matrix."""
    slots = np.array([[0, 0, 0], [1, 2, 3], [2, 0, 0], [3, 1, 0], [1, 0, 0]])
    lists = RowLists(np.array([0, 3, 1, 2, 1]), np.array([0, 1, 2, 1, 2, 0, 0]))
    assert RowLists.of_slots(slots).count.tolist() == lists.count.tolist()
    assert RowLists.of_slots(slots).items.tolist() == lists.items.tolist()
    assert lists.matrix().tolist() == (slots - 1).tolist()
    empty = RowLists(np.zeros(2, dtype=np.intp), np.zeros(0, dtype=np.intp))
    assert empty.matrix().tolist() == [[-1], [-1]]
    names = table(["", "a", "bb", "ccc"])
    rest = table(["", ", a", ", bb", ", ccc"])
    written = []
    for add in (
        lambda rows: rows.slots(names, rest, slots),
        lambda rows: rows.lists(names, rest, lists),
    ):
        rows = Columns(5)
        rows.bytes_of(*fixed(np.array([1.0, 0.125, 2.5, 3.0, 4.0]), 2))  # 0.125: a tie
        rows.constant(" [")
        add(rows)
        rows.constant("]\n")
        written.append(texts(rows, lambda k: f"fallback {k}\n"))
    expected = b"1.00 []\nfallback 1\n2.50 [bb]\n3.00 [ccc, a]\n4.00 [a]\n"
    assert written == [expected, expected]


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.floats(-1e9, 1e9, allow_nan=False)
        | st.sampled_from([0.0, -0.0, 0.005, -0.005, 2.675, 0.125, 1e-9, -1e-9, 99.995]),
        min_size=1,
        max_size=40,
    ),
    st.sampled_from([(1, False), (2, False), (2, True)]),
)
def test_fixed_numbers_are_format_of_the_values(values, style):
    """Every number the byte matrix vouches for is format(v, ".2f") (".1f", "+.2f")."""
    decimals, plus = style
    chars, sure = fixed(np.array(values), decimals, plus)
    spec = f"{'+' if plus else ''}.{decimals}f"
    for value, row, ok in zip(values, chars, sure, strict=True):
        if ok:
            assert bytes(row[row != 0]).decode() == format(value, spec)
        else:
            assert not row.any()


def test_the_columns_vouch_for_ordinary_measurements():
    """Distances, bearings and margins of a table (a few thousand random ones, inches and
    degrees, with six decimals or fewer) are written by the columns, exactly: a row sent to
    the per-pair fallback is written the slow way, so the columns must vouch for nearly
    all, and only a value within four ulps of a rounding tie is left to the fallback."""
    rng = np.random.default_rng(7)
    values = np.concatenate(
        (rng.uniform(-400, 400, 4000), np.round(rng.uniform(0, 360, 1000), 3), [0.0, 100.0])
    )
    chars, sure = numbers(values)
    assert sure.mean() > 0.999
    written = [bytes(row[row != 0]).decode() for row in chars[sure]]
    assert written == [json.dumps(round(float(v), 6) or 0.0) for v in values[sure]]
    measured = values[:4000]  # (three decimals ending in 5 are ties for two: the fallback's)
    chars, sure = fixed(measured, 2, True)
    assert sure.mean() > 0.999
    written = [bytes(row[row != 0]).decode() for row in chars[sure]]
    assert written == [format(float(v), "+.2f") for v in measured[sure]]


INSIDE_TWO_PIECES = """
rules = "dystopian-wars"
[board]
width = 48
height = 48

[[terrain]]
id = "zeta"
kind = "obstructing"
height = "large"
polygon = [[8, 8], [14, 8], [14, 14], [8, 14]]

[[terrain]]
id = "alpha"
kind = "obstructing"
height = "large"
polygon = [[9, 9], [13, 9], [13, 16], [9, 16]]

[[unit]]
id = "a"
side = "A"
x = 10
y = 10
heading = 0
base = { shape = "circle", diameter = 1 }

[[unit]]
id = "b"
side = "B"
x = 11
y = 30
heading = 180
base = { shape = "circle", diameter = 1 }
"""


def test_a_line_from_inside_two_pieces_lists_both_as_geos_orders_them(tmp_path):
    """GEO002.10: from a centre inside two overlapping pieces both entries are at 0, a
    tie GEOS's distances break by id (alpha, then zeta); from outside, the line meets
    alpha first (it reaches 2" nearer). Both orders come from GEOS's measure."""
    path = tmp_path / "inside.toml"
    path.write_text(INSIDE_TWO_PIECES)
    pairs = json.loads(_output(str(path), "--json"))["pairs"]
    assert [(p["from"], p["blocked_by"]) for p in pairs] == [
        ("a", ["alpha", "zeta"]),
        ("b", ["alpha", "zeta"]),
    ]
    text = _output(str(path)).decode()  # alpha is the map's second obstructing piece
    assert text.count("LOS blocked by Obstructing terrain 2, Obstructing terrain 1;") == 2


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(1, 400),
    st.sampled_from([1, 5, 300, 40_000]),
    st.sampled_from(["spread", "ties", "close"]),
)
def test_pieces_are_ordered_by_line_then_by_value_as_lexsort_orders_them(
    seed, count, lines, values
):
    """The blocker order's sort (one sort of packed keys, checked): by line, then by value,
    whatever the values (equal ones, ones a grid step apart, far apart), as np.lexsort."""
    from tactical.geometry.crossings import _by_line_then

    rng = np.random.default_rng(seed)
    line = rng.integers(0, lines, count).astype(np.intp)
    value = {
        "spread": rng.normal(0.0, 1e3, count),
        "ties": rng.integers(0, 3, count).astype(float),
        "close": 0.5 + rng.integers(0, 4, count) * 1e-15,
    }[values]
    order = _by_line_then(line, value)
    expected = np.lexsort((value, line))
    assert sorted(order.tolist()) == list(range(count))
    assert line[order].tolist() == line[expected].tolist()
    assert value[order].tolist() == value[expected].tolist()


def test_a_blocks_crossings_are_counted_to_their_reports_from_row_and_target():
    """A block's crossings (R002.41 models and terrain) counted to the reports of every pair
    from its rows (row and target, the row's own unit left out) name the same lines as
    when each is looked up among some of the pairs only."""
    from tactical.geometry.matrix_blocks import matrix_row_blocks
    from tactical.rules.measuring import _hits_of

    table = TableGeometry.of(load_map(builtin_map("stress-200")))
    n = len(table.state.units)
    blocks = matrix_row_blocks(
        table.units, table.terrain, table.arcs, table.blocking, rows_per_block=3
    )
    found = 0
    for block in itertools.islice(blocks, 4):
        first, count = block.first, len(block.centre_distance)
        i = np.repeat(np.arange(first, first + count), n)
        j = np.tile(np.arange(n), count)
        i, j = i[i != j], j[i != j]
        line, piece = _hits_of(block, i, j, n)
        assert i[line].tolist() == (block.hit_row + first).tolist()
        assert j[line].tolist() == block.hit_target.tolist()
        assert piece.tolist() == block.hit_piece.tolist()
        some = np.arange(0, len(i), 3)  # every third pair: looked up in the block's table
        part_line, part_piece = _hits_of(block, i[some], j[some], n)
        kept = np.flatnonzero(line % 3 == 0)
        assert sorted(zip(some[part_line].tolist(), part_piece.tolist(), strict=True)) == sorted(
            zip(line[kept].tolist(), piece[kept].tolist(), strict=True)
        )
        found += len(line)
    assert found > 100  # the stress map's lines cross pieces and models


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 300), st.sampled_from([1, 4, 50]))
def test_a_span_is_shared_where_its_group_holds_two_or_more(seed, count, lines):
    """GEO002.10's groups of overlapping spans: a span is in a group of two or more exactly
    where it joins the one before it or the next one joins it."""
    from tactical.geometry.crossings import _joins, _sorted_by_line_then

    rng = np.random.default_rng(seed)
    line = rng.integers(0, lines, count).astype(np.intp)
    low = rng.uniform(0.0, 1.0, count)
    order, line, low = _sorted_by_line_then(line, low)
    high = low + rng.uniform(0.0, 0.05, count).take(order)
    joins = _joins(line, low, high)
    group = np.cumsum(~joins)
    sizes = np.bincount(group).take(group)
    assert (joins | np.r_[joins[1:], False]).tolist() == (sizes > 1).tolist()
    assert not joins[np.r_[True, line[1:] != line[:-1]]].any()  # never across two lines


def test_a_run_of_cells_put_as_one_value_lands_cell_by_cell():
    """The rows' fixed runs put whole through the overlapping view (`_runs_at`) land where
    putting each cell by its own index puts it, and touch nothing else."""
    from tactical.rules.report_json import _runs_at

    rng = np.random.default_rng(5)
    cells = rng.integers(1, 256, (50, 3 * 8), dtype=np.uint8)  # 50 runs of 3 cells of 8 bytes
    at = np.sort(rng.choice(np.arange(0, 400, 4), 50, replace=False))
    by_cell = np.zeros((410, 8), dtype=np.uint8)
    by_cell[(at[:, None] + np.arange(3)).reshape(-1)] = cells.reshape(-1, 8)
    whole = np.zeros((410, 8), dtype=np.uint8)
    _runs_at(whole, 3)[at] = cells.view("V24")[:, 0]
    assert whole.tolist() == by_cell.tolist()
    assert len(_runs_at(whole, 3)) == 408


def test_the_pieces_in_a_lines_way_are_in_the_order_geos_meets_them():
    """GEO002.10 on a crowded table (R002.41 bases of models and terrain): each blocked
    line's pieces in the order GEOS finds the line first meeting each, the spans of
    discs and of bases' boxes only sparing the exact measure where they part."""
    from tactical.geometry.los import order_along

    table = TableGeometry.of(load_map(builtin_map("stress-200")))
    n = len(table.state.units)
    rng = np.random.default_rng(9)
    i = rng.integers(0, n, 3000)
    j = (i + rng.integers(1, n, 3000)) % n
    line, piece = table.ordered_hits(i, j)
    crowded = np.flatnonzero(np.bincount(line, minlength=len(i)) >= 3)[:150]
    assert len(crowded) >= 50
    x, y = table.units.x, table.units.y
    for k in crowded.tolist():
        pieces = piece[line == k]
        expected = order_along(
            table.terrain, (x[i[k]], y[i[k]]), (x[j[k]], y[j[k]]), np.sort(pieces)
        )
        assert [table.terrain.ids[p] for p in pieces] == list(expected)


def test_lists_of_narrow_and_wide_entries_lay_out_in_whole_cells():
    """Entries of one list as wide as a cell (no zero byte in them), of another list as
    several cells, and runs of any length between them, come back as their text."""
    short = table(["", "abcdefgh", "x"])  # an entry of exactly one 8-byte cell
    short_rest = table(["", ",abcdefg", ", x"])
    wide = table(["", "0123456789abcdefghij", "y"])  # three cells an entry
    wide_rest = table(["", ", 0123456789abcdefghij", ", y"])
    rows = Columns(4)
    rows.constant("<")
    rows.slots(short, short_rest, np.array([[1, 1, 2], [0, 0, 0], [2, 0, 0], [1, 2, 0]]))
    rows.constant("|" * 9)  # a run longer than a cell
    rows.slots(wide, wide_rest, np.array([[0, 0], [1, 2], [2, 1], [1, 0]]))
    rows.constant(">\n")
    assert texts(rows, str) == (
        b"<abcdefgh,abcdefg, x|||||||||>\n"
        b"<|||||||||0123456789abcdefghij, y>\n"
        b"<x|||||||||y, 0123456789abcdefghij>\n"
        b"<abcdefgh, x|||||||||0123456789abcdefghij>\n"
    )


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(-(2**62), 2**62), min_size=1, max_size=50),
    st.sampled_from([1, 3, 1000, 3600, 1_000_000]),
)
def test_quotient_and_remainder_are_numpys_divmod(integers, divisor):
    """The digit groups' quotient and remainder (a quotient and a product, not np.divmod):
    np.divmod's numbers for any int64, negative ones too."""
    from tactical.rules.report_json import _divmod

    values = np.array(integers, dtype=np.int64)
    quotient, remainder = _divmod(values, divisor)
    expected = np.divmod(values, divisor)
    assert quotient.tolist() == expected[0].tolist()
    assert remainder.tolist() == expected[1].tolist()


def _make_maps():
    """scripts/make_maps.py as a module."""
    script = Path(__file__).resolve().parents[2] / "scripts" / "make_maps.py"
    spec = importlib.util.spec_from_file_location("make_maps_for_check", script)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_a_thinned_stress_table_keeps_its_ships_and_thins_what_blocks():
    """`make_maps.py --thin` (the benchmark's tables whose pairs write about as much at
    every size): at 500 ships lines are sqrt(2) times as long as at 250, so sqrt(2) times
    fewer pieces (71, not 100) and 2**(1/6) times fewer ships on the Surface; at 250 the
    thinned table is the stress table itself."""
    make_maps = _make_maps()
    thin, dense = make_maps.stress_state(500, thin=True), make_maps.stress_state(500)
    assert (thin.board, len(thin.units)) == (dense.board, 500)
    assert (len(thin.terrain), len(dense.terrain)) == (71, 100)
    surface = sum(u.stats["height_level"] == "surface" for u in thin.units) / 500
    assert abs(surface - 0.7 / 2 ** (1 / 6)) < 0.05 and surface < 0.66
    at_250 = make_maps.stress_state(250, thin=True)
    assert at_250.units == make_maps.stress_state(250).units
    assert at_250.terrain == make_maps.stress_state(250).terrain
