"""`tactical check` by the compiled kernels (numba, the optional `fast` extra): the same
bytes as the numpy code on every built-in map and on random column layouts (the text
written by `report_json_kernel`, the blockers ordered by `crossings_kernel`, GEO002.10),
the kernels really run where numba is installed, and a short command never imports it.
"""

from __future__ import annotations

import hashlib
import io
import subprocess
import sys
from contextlib import redirect_stdout

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tactical.cli import main
from tactical.geometry import compiled_kernels
from tactical.geometry.compiled_kernels import NO_JIT
from tactical.io.paths import builtin_map
from tactical.rules.report_json import Columns, RowLists, fixed, numbers, table, texts

pytest.importorskip("numba")  # the [fast] extra (in [test]: CI runs these)
from tactical.geometry import crossings_kernel  # (imports numba)
from tactical.rules import report_json_kernel

# sha256 of `tactical check` before the kernels, as tests/cli/test_check_columns.py pins them
BEFORE = {
    "battlefleet-mars json": "fee998782539eddcaeb706e4285e39fc7a27215bb72a2eb8185b47dd6b2d4f3a",
    "battlefleet-mars text": "e2eda761da803961a42d7f6187cd114b1314d2af75807478e2beed4da1bf3a75",
    "default json": "64e9217875b9d6b2061b44b4ab890adfa03489540b43347e66cac837b6aabf02",
    "default text": "a80e0acb41ba46944c445f32ff6a03756f978fdb85f8e7eca27d5ca4f91ef4df",
    "dense json": "21ef50d8759365ca5abc58b89c5c1d82028013dc0d69dd7d0548713d949bebfc",
    "dense text": "3afd4518207cdef980b377179ca0beeb57603e82bbb03015cb7fa3306cc95208",
    "dystopian-wars json": "bdf1b88d1e97bf144afe1c749a625cf63415cb77af0e8399ac32c5fde270b127",
    "stress-200 json": "b91a02287cd8a4b2546b5c9c86a3acdf0cde13006fe9a3f1693fd25f81f44fb6",
    "stress-200 text": "e5b8a3a5061fff0e7f3fa7b1cefb7b725d2e85ff5986eb9bf8250fb98f34929b",
}
FLAGS = {"text": (), "json": ("--json",)}  # (--witness writes pair by pair: no kernel)


@pytest.fixture
def kernels(monkeypatch):
    """Both kernels for a stream of any size (not only a big table's), their runs counted."""
    runs = {"order": 0, "text": 0}
    span_groups, write_rows = crossings_kernel.span_groups, report_json_kernel.write_rows

    def counted_order(*args):
        runs["order"] += 1
        return span_groups(*args)

    def counted_text(*args):
        runs["text"] += 1
        return write_rows(*args)

    monkeypatch.setattr(crossings_kernel, "span_groups", counted_order)
    monkeypatch.setattr(report_json_kernel, "write_rows", counted_text)
    monkeypatch.setattr(compiled_kernels, "COMPILED_PAIRS", 1)  # any table a big one
    monkeypatch.delenv(NO_JIT, raising=False)
    return runs


def _output(*args: str) -> bytes:
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="utf-8", newline="")
    with redirect_stdout(stream):
        assert main(["check", *args]) == 0
        stream.flush()
    return raw.getvalue()


@pytest.mark.parametrize("case", sorted(BEFORE))
def test_check_by_the_kernels_writes_what_it_wrote_before(kernels, case):
    name, kind = case.split()
    digest = hashlib.sha256(_output(str(builtin_map(name)), *FLAGS[kind])).hexdigest()
    assert digest == BEFORE[case]
    # the kernels ran, not the numpy code by a silent skip (on the other scenarios no line
    # crosses a piece)
    assert kernels["text"] > 0
    assert kernels["order"] > 0 or name not in ("dense", "stress-200")


def _build(seed: int, rows: int) -> Columns:
    """A random layout: constants (some not ASCII), numbers (ties among them: rows sent to
    the fallback), picks, and lists of entries of 0 to 20 bytes, lists side by side and
    first or last in the row."""
    rng = np.random.default_rng(seed)
    columns = Columns(rows)
    words = ["", "a", "bb", "ccc", "é", "0123456789abcdefghij", "x" * 8, "→ y"]
    for _ in range(rng.integers(1, 7)):
        kind = rng.integers(5)
        if kind == 0:
            columns.constant(str(rng.choice(words[1:])))
        elif kind == 1:
            values = np.round(rng.uniform(-1e4, 1e4, rows), rng.integers(1, 8))
            values[rng.random(rows) < 0.1] = 0.0000125  # below 1e-4: not vouched for
            columns.number(values)
        elif kind == 2:
            columns.bytes_of(*fixed(rng.uniform(-50, 50, rows), 2, plus=True))
        elif kind == 3:
            choices = table(list(rng.choice(words, rng.integers(1, 6))))
            columns.pick(choices, rng.integers(0, len(choices), rows))
        else:
            size = int(rng.integers(1, 6))
            names = [""] + [str(w) for w in rng.choice(words, size)]
            count = rng.integers(0, 5, rows).astype(np.intp)
            items = rng.integers(0, size, int(count.sum())).astype(np.intp)
            rest = [""] + [", " + name for name in names[1:]]
            columns.lists(table(names), table(rest), RowLists(count, items))
    return columns


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**32 - 1), rows=st.integers(1, 40))
def test_random_layouts_write_the_same_text_both_ways(kernels, seed, rows):
    written = [
        texts(_build(seed, rows), lambda k: f"<fallback {k}>", use_kernel)
        for use_kernel in (False, True)
    ]
    assert written[1] == written[0]
    assert isinstance(written[1], bytearray)


def test_the_hand_made_layouts_by_the_kernel(kernels):
    """Lists as wide as a cell, wider, empty; a row sent to the fallback with its lists."""
    short, short_rest = table(["", "abcdefgh", "x"]), table(["", ",abcdefg", ", x"])
    wide = table(["", "0123456789abcdefghij", "y"])
    wide_rest = table(["", ", 0123456789abcdefghij", ", y"])
    rows = Columns(4)
    rows.constant("<")
    rows.bytes_of(*fixed(np.array([1.0, 0.125, 2.5, 3.0]), 2))  # 0.125: a rounding tie
    rows.slots(short, short_rest, np.array([[1, 1, 2], [0, 0, 0], [2, 0, 0], [1, 2, 0]]))
    rows.constant("|" * 9)
    rows.slots(wide, wide_rest, np.array([[0, 0], [1, 2], [2, 1], [1, 0]]))
    rows.constant(">\n")
    assert texts(rows, lambda k: f"fallback {k}\n", True) == (
        b"<1.00abcdefgh,abcdefg, x|||||||||>\n"
        b"fallback 1\n"
        b"<2.50x|||||||||y, 0123456789abcdefghij>\n"
        b"<3.00abcdefgh, x|||||||||0123456789abcdefghij>\n"
    )
    none = Columns(3)
    none.number(np.array([1.5, -2.25, 0.0]))
    none.constant("\n")
    assert texts(none, str, True) == b"1.5\n-2.25\n0.0\n"
    assert texts(Columns(0), str, True) == b""
    assert kernels["text"] == 2
    assert numbers(np.array([1.5]))[1].all()


def test_only_a_big_table_streams_by_the_kernels(monkeypatch):
    """`report_blocks` asks for the kernels where the stream repays loading them: from
    COMPILED_PAIRS pairs, never with TACTICAL_NO_JIT set."""
    from tactical.io.maps import load_map
    from tactical.rules.measuring import TableGeometry

    table = TableGeometry.of(load_map(str(builtin_map("dense"))))
    pairs = len(table.units) ** 2
    monkeypatch.delenv(NO_JIT, raising=False)
    for least, expected in ((pairs + 1, False), (pairs, True)):
        monkeypatch.setattr(compiled_kernels, "COMPILED_PAIRS", least)
        assert all(block.use_kernel is expected for block in table.report_blocks())
    monkeypatch.setenv(NO_JIT, "1")
    assert not any(block.use_kernel for block in table.report_blocks())
    monkeypatch.setenv(NO_JIT, "0")  # "0" reads as not set: the kernels again
    assert all(block.use_kernel for block in table.report_blocks())


def test_a_short_command_never_imports_numba():
    """`tactical check` of a scenario (small blocks) and `--help` leave numba unloaded: its
    import alone (~0.2 s) would break the start-up budget."""
    script = (
        "import contextlib, io, sys\n"
        "from tactical.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['check', 'dense'])\n"
        "    main(['check', 'dense', '--json'])\n"
        "print('numba' in sys.modules, 'llvmlite' in sys.modules)\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    assert found.stdout.split() == ["False", "False"]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rows=st.integers(0, 30), hits=st.integers(0, 120))
def test_a_blocks_hits_split_into_pieces_and_models_alike_both_ways(seed, rows, hits):
    """The hits of a block's lines (sorted by line) as the pieces and the models in each
    line's way (R002.41), by the compiled pass and by numpy: the same lists."""
    from tactical.rules.measuring import _split_lists

    rng = np.random.default_rng(seed)
    pieces, models = int(rng.integers(0, 6)), int(rng.integers(1, 8))
    line = np.sort(rng.integers(0, max(rows, 1), hits if rows else 0)).astype(np.intp)
    piece = rng.integers(0, pieces + models, len(line)).astype(np.intp)
    model_units = rng.permutation(40)[:models].astype(np.intp)
    ways = [_split_lists(line, piece, pieces, model_units, rows, k) for k in (False, True)]
    for numpy_lists, kernel_lists in zip(*ways, strict=True):
        for numpy_part, kernel_part in zip(numpy_lists, kernel_lists, strict=True):
            assert numpy_part.dtype == kernel_part.dtype
            np.testing.assert_array_equal(kernel_part, numpy_part)
    terrain, blocking = ways[1]
    assert terrain.count.sum() + blocking.count.sum() == len(line)
    assert set(blocking.items.tolist()) <= set(model_units.tolist())
