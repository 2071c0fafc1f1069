"""Text of many pair reports at once, from columns: `json.dumps` of each report (the JSON of
`tactical check --json`) and the plain-words line of each (`tactical check`), byte for byte.

A block of P reports is laid out as a (P, W) byte matrix: each field a few columns,
right- or left-aligned with zero bytes as padding (neither text ever holds a zero
byte: json.dumps writes control characters as escapes, and the words are printable).
Dropping the zeros leaves the text. Lists of varying length (the pieces and models
in a line's way) are laid out as cells (`texts`): each row as many cells as its own
lists hold entries, so one crowded line widens no other row.

Numbers are printed as `json.dumps(round(value, 6))` prints them (`numbers`): for
|value| < 1e9 with round(value, 6) zero or at least 1e-4, that is the shortest
decimal of the rounded value, i.e. its six decimals without trailing zeros (any two
decimals of 15 significant digits are different doubles, so none shorter reads
back as the same number); or as `format(value, ".2f")` prints them (`fixed`). A
number this cannot vouch for (within a few ulps of a rounding tie, below 1e-4, huge,
not finite where a number is due) sends its report to the caller's fallback, so the
text is always exactly `json.dumps`'s (or `format`'s).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from tactical.geometry.compiled_kernels import available

__all__ = ["Columns", "RowLists", "entry_tables", "fixed", "numbers", "table", "text_of", "texts"]

_SCALE = 1e6  # six decimals (measuring._round)
_LIMIT = 1e15  # |value| * 1e6 below this: integers exact, fixed notation


def _digit_forms() -> np.ndarray:
    """(5000, 3) bytes: row form + k is the 3-digit group k (0-999) as text in one of five
    forms, a zero byte for each digit left out: all three digits (`_ALL`), leading zeros
    left out (`_LEAD`: 0 all left out), the same with 0 written "0" (`_LEAD_LAST`),
    trailing zeros left out (`_TRAIL`: 0 all left out), the same with the first digit
    always kept (`_TRAIL_ONE`)."""
    k = np.arange(1000)
    digits = np.stack((k // 100, k // 10 % 10, k % 10), axis=1) + ord("0")
    column = np.arange(3)
    lead = k[:, None] >= 10 ** (2 - column)
    trail = k[:, None] % 10 ** (3 - column) != 0
    kept = (
        np.ones((1000, 3), dtype=bool), lead, lead | (column == 2), trail, trail | (column == 0),
    )  # fmt: skip
    return np.concatenate([digits * shown for shown in kept]).astype(np.uint8)


_FORMS = _digit_forms()
_FORM_CELLS = _FORMS.view("V3")[:, 0]  # each form's three bytes as one value (`_values`)
_ALL, _LEAD, _LEAD_LAST, _TRAIL, _TRAIL_ONE = range(0, 5000, 1000)
_POWERS = 10 ** np.arange(1, 19, dtype=np.int64)
_EXPONENT_BITS = np.int64(0x7FF0000000000000)
_NULL = np.array([[0, 0, 0, 0], list(b"null")], dtype=np.uint8)
_ROW_END = 1  # marks a row left to the fallback (never in either text)
_CELL = 8  # bytes a cell of `texts`' layout of rows with lists


class RowLists(NamedTuple):
    """A list of entries a row, all rows' entries in one array: row k holds count[k] entries,
    after those of the rows before it (`items`, indices into a table of texts)."""

    count: np.ndarray
    items: np.ndarray

    @classmethod
    def of_slots(cls, index: np.ndarray) -> RowLists:
        """From a (P, K) matrix of table rows, a row's entries first and 0 after its last
        (table row 0 empty): item = table row - 1."""
        index = np.asarray(index)
        filled = index > 0
        return cls(filled.sum(axis=1, dtype=np.intp), index[filled] - 1)

    def matrix(self) -> np.ndarray:
        """(P, K): each row's items in order, -1 after its last (K at least 1)."""
        rows = len(self.count)
        starts = np.cumsum(self.count) - self.count
        slot = np.arange(len(self.items)) - np.repeat(starts, self.count)
        result = np.full((rows, max(int(self.count.max(initial=0)), 1)), -1, dtype=np.intp)
        result[np.repeat(np.arange(rows), self.count), slot] = self.items
        return result


def table(strings: Sequence[str]) -> np.ndarray:
    """(K, W) uint8: each string's UTF-8 bytes, zero-padded on the right."""
    encoded = [s.encode() for s in strings]
    width = max((len(e) for e in encoded), default=0)
    result = np.zeros((len(encoded), width), dtype=np.uint8)
    for k, e in enumerate(encoded):
        result[k, : len(e)] = np.frombuffer(e, dtype=np.uint8)
    return result


def entry_tables(texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """A list's entries as `Columns.lists` takes them, after an empty row: bare and after
    ", ". Read-only: every block of a stream lists from a table's same two, so the
    writers lay them out once a table (`_kept`)."""
    tables = table(["", *texts]), table(["", *(", " + t for t in texts)])
    for entries in tables:
        entries.flags.writeable = False
    return tables


def text_of(value) -> str:
    """One value as json.dumps writes it (ensure_ascii off, as `tactical check` writes)."""
    return json.dumps(value, ensure_ascii=False)


def _decimal_rows(
    sign: np.ndarray, integer: np.ndarray, fraction: Sequence[np.ndarray], sure: np.ndarray
) -> np.ndarray:
    """(P, W) bytes of each row's sign byte (0 for none), its non-negative integer part's
    digits (zero bytes before them), "." and its fraction's bytes; a row not `sure` all
    zeros. Every group of digits is one row of `_FORMS`, read with np.take (indexing a
    table by an array costs ten times as much), the digits left out already zero bytes:
    nothing is masked afterwards (each operation on a (P, 3) slice pays per row)."""
    digits = int(np.searchsorted(_POWERS, integer.max(initial=0), side="right")) + 1
    groups = -(-digits // 3)
    width = 3 * groups
    # a part is (P, W) bytes or P values of W bytes (`_FORM_CELLS` picked), copied as values
    parts = [
        part if part.ndim == 1 else _values(np.ascontiguousarray(part))
        for part in fraction
        if part.ndim == 1 or part.shape[1]
    ]
    tail = sum(part.dtype.itemsize for part in parts)
    result = np.empty((len(integer), width + 2 + tail), dtype=np.uint8)
    result[:, 0] = sign
    for g in range(groups):
        scale = 1000 ** (groups - 1 - g)
        group = integer // scale if scale > 1 else integer
        # leading zeros left out: a group with no digit above it is led by none
        form = _LEAD_LAST if scale == 1 else _LEAD
        if g:
            group = _divmod(group, 1000)[1]
            form = np.where(integer >= 1000 * scale, _ALL, form)
        _values(result[:, 1 + 3 * g : 4 + 3 * g])[...] = np.take(_FORM_CELLS, group + form)
    result[:, 1 + width] = ord(".")
    at = 2 + width
    for part in parts:
        _values(result[:, at : at + part.dtype.itemsize])[...] = part
        at += part.dtype.itemsize
    result[np.flatnonzero(~sure)] = 0
    return result


def _divmod(integers: np.ndarray, divisor: int) -> tuple[np.ndarray, np.ndarray]:
    """np.divmod(integers, divisor) for a positive int divisor, the same numbers: numpy
    divides integers by a constant several times faster than it takes a remainder (and
    its divmod costs more than both), so the remainder is the integers less a product."""
    quotient = integers // divisor
    remainder = quotient * divisor
    np.subtract(integers, remainder, out=remainder)
    return quotient, remainder


def _rounded(values: np.ndarray, scale: float) -> tuple[np.ndarray, np.ndarray]:
    """round(value * scale) as Python rounds (half to even, from the exact double), and
    whether that is vouched for: the product is finite and more than four ulps off a tie
    (an ulp read from the exponent's bits, as np.spacing gives it for a normal double, at
    a tenth of its cost)."""
    scaled = values * scale
    finite = np.abs(scaled) < _LIMIT  # also False for inf and nan
    safe = np.where(finite, scaled, 0.0)
    tie_gap = np.abs(np.abs(safe - np.floor(safe)) - 0.5)
    power = (np.abs(safe).view(np.int64) & _EXPONENT_BITS).view(np.float64)  # 2^exponent
    sure = finite & (tie_gap > power * 2.0**-50)  # 4 ulps = 4 x 2^(exponent - 52)
    return np.rint(safe).astype(np.int64), sure


def numbers(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`json.dumps(round(v, 6))` of each value (-0 written 0.0) as a (P, W) byte matrix, and
    a (P,) mask of the values it vouches for (the others' rows are left empty)."""
    values = np.asarray(values, dtype=float)
    whole, sure = _rounded(values, _SCALE)
    absolute = np.abs(whole)
    sure &= (absolute == 0) | (absolute >= 100)  # below 1e-4 repr switches to 1e-05 style
    absolute = np.where(sure, absolute, 0)
    integer, fraction = _divmod(absolute, 1_000_000)
    high, low = _divmod(fraction, 1000)
    # six decimals, trailing zeros left out but the first: the high group's where low is 0
    decimals = (
        np.take(_FORM_CELLS, high + np.where(low == 0, _TRAIL_ONE, _ALL)),
        np.take(_FORM_CELLS, low + _TRAIL),
    )
    sign = np.where(whole < 0, ord("-"), 0)
    return _decimal_rows(sign, integer, decimals, sure), sure


def fixed(values: np.ndarray, decimals: int, plus: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """`format(v, ".2f")` (`decimals` places; "+.2f" with `plus`) of each value as a (P, W)
    byte matrix, and a (P,) mask of the values it vouches for (the others' rows left
    empty). As `format`, a negative value keeps its sign when it rounds to zero ("-0.00")."""
    values = np.asarray(values, dtype=float)
    whole, sure = _rounded(values, 10.0**decimals)
    absolute = np.where(sure, np.abs(whole), 0)
    integer, fraction = _divmod(absolute, 10**decimals)
    digits = np.take(_FORMS, fraction + _ALL, axis=0)[:, 3 - decimals :]  # decimals <= 3
    sign = np.where(np.signbit(values), ord("-"), ord("+") if plus else 0)
    return _decimal_rows(sign, integer, (digits,), sure), sure


class Columns:
    """The text of P rows, built column by column; `texts()` joins each row's bytes."""

    def __init__(self, rows: int) -> None:
        self.rows = rows
        # ("constant", (W,)) texts, ("columns", (P, W)) bytes, ("pick", table, (P,)) and
        # ("slots", first, rest, RowLists) choices
        self.parts: list[tuple] = []
        self.ok = np.ones(rows, dtype=bool)

    def constant(self, text: str) -> None:
        """The same text on every row (laid once into the template row of `matrix`)."""
        self.parts.append(("constant", np.frombuffer(text.encode(), dtype=np.uint8)))

    def pick(self, choices: np.ndarray, index: np.ndarray) -> None:
        """Row k gets choices[index[k]] (a `table`)."""
        self.parts.append(("pick", choices, np.asarray(index)))

    def slots(self, first: np.ndarray, rest: np.ndarray, index: np.ndarray) -> None:
        """A list of up to K entries a row: row k gets first[index[k, 0]], then
        rest[index[k, s]] for each further slot (`table`s whose row 0 is empty; a row's
        entries come first, 0 after its last)."""
        self.lists(first, rest, RowLists.of_slots(index))

    def lists(self, first: np.ndarray, rest: np.ndarray, lists: RowLists) -> None:
        """A list a row: row k's first item i gets first[i + 1], each further one rest[i + 1]
        (`table`s whose row 0 is empty), as `slots` without a (P, K) matrix."""
        self.parts.append(("slots", first, rest, lists))

    def bytes_of(self, chars: np.ndarray, sure: np.ndarray, present=None) -> None:
        """Ready-made (P, W) bytes (`numbers`, `fixed`), rows not `sure` sent to the
        fallback; rows where `present` is False get nothing."""
        if present is not None:
            chars[~present] = 0
            sure = sure | ~present
        self.ok &= sure
        self.parts.append(("columns", chars))

    def number(self, values: np.ndarray, present: np.ndarray | None = None) -> None:
        """A number per row (`numbers`); rows where `present` is False get nothing."""
        self.bytes_of(*numbers(values), present)

    def number_or_null(self, values: np.ndarray, present: np.ndarray) -> None:
        """A number per row where `present`, `null` for an infinite value (Omni's margin)."""
        infinite = np.isinf(values)
        self.pick(_NULL, (infinite & present).astype(np.intp))
        self.number(np.where(infinite, 0.0, values), present & ~infinite)

    def segments(self, cell: int = 1, over_bytes: bool = False) -> list:
        """The parts cut at each slots part: [fixed, slots, fixed, ..., fixed], each fixed
        run as its (P, W) byte matrix (`_fixed_matrix`: W a whole number of `cell`s, at
        least one) and each slots part as it is."""
        cut: list = [[]]
        for part in self.parts:
            if part[0] == "slots":
                cut += [part, []]
            else:
                cut[-1].append(part)
        return [
            p if k % 2 else _fixed_matrix(p, self.rows, cell, over_bytes) for k, p in enumerate(cut)
        ]


def _fixed_matrix(parts: Sequence[tuple], count: int, cell: int, over_bytes: bool) -> np.ndarray:
    """The (P, W) byte matrix of parts without slots, zero-padded to whole cells of `cell`
    bytes (at least one; a `_byte_matrix` if `over_bytes`): a template row holding the
    constant texts copied to every row, then the columns that differ written in."""
    widths = [part[1].shape[-1] for part in parts]
    template = np.zeros(max(-(-sum(widths) // cell), 1) * cell, dtype=np.uint8)
    at = 0
    for part, width in zip(parts, widths, strict=True):
        if part[0] == "constant":
            template[at : at + width] = part[1]
        at += width
    shape = (count, len(template))
    matrix = _byte_matrix(*shape) if over_bytes else np.empty(shape, dtype=np.uint8)
    _values(matrix)[...] = _values(template[None, :])
    at = 0
    for part, width in zip(parts, widths, strict=True):
        if part[0] != "constant" and width:
            column = _values(matrix[:, at : at + width])
            if part[0] == "columns":
                column[...] = _values(np.ascontiguousarray(part[1]))
            else:  # a pick
                column[...] = np.take(_values(part[1]), part[2])
        at += width
    return matrix


def _values(matrix: np.ndarray) -> np.ndarray:
    """A (P, W) byte matrix (its rows' bytes contiguous, W > 0) as P values of one W-byte
    type, a view: numpy copies whole values at once, bytes one by one (several times
    slower, row after row of a few bytes)."""
    return matrix.view(np.dtype(f"V{matrix.shape[1]}"))[:, 0]


def texts(columns: Columns, fallback: Callable[[int], str], use_kernel: bool = False) -> bytearray:
    """The rows' text, each row `columns` could not vouch for replaced by `fallback(k)`
    (a bytearray: the text is made in place, and the blocks of a big table are large).

    Without lists (slots) the rows are one matrix whose zeros are dropped. With lists, each
    row is laid out as cells of `_CELL` bytes, in order: its fixed runs cut into cells,
    each entry of a list as many cells as its table's widest entry needs. A row's cells
    follow its own length, so one crowded line widens nothing else and nothing has to be
    put back in order: the zeros of the one (cells, `_CELL`) matrix are dropped and the
    text is there (narrow cells: few zeros to drop, each entry and run padded to a few
    bytes, not to the widest entry of any list). A row the columns cannot vouch for is
    left as one marker byte, where its fallback text goes.

    `use_kernel`: written by the compiled kernel where it may run (`_compiled_text`; the
    caller of a big stream asks), the same bytes."""
    bad = np.flatnonzero(~columns.ok)
    # the kernel writes words of 8 bytes in the machine's order: little-endian only
    if use_kernel and sys.byteorder == "little" and columns.rows and available():
        return _with_fallbacks(_compiled_text(columns), bad, fallback)
    lists = [part for part in columns.parts if part[0] == "slots"]
    if not lists:
        (matrix,) = columns.segments(over_bytes=True)  # the text itself
        matrix[bad] = 0
        matrix[bad, :1] = _ROW_END
        return _with_fallbacks(matrix, bad, fallback)
    # each fixed run as whole cells (at least one: the first holds a bad row's marker)
    runs = [m.reshape(columns.rows, -1, _CELL) for m in columns.segments(_CELL)[0::2]]
    # cells an entry of each list: its tables' widest entry, in whole cells
    spans = [-(-max(part[1].shape[1], part[2].shape[1], 1) // _CELL) for part in lists]
    used, items = [], []
    for part in lists:
        count, chosen = part[3]
        if len(bad):  # a bad row's entries left out: its fallback text has them
            chosen = chosen[np.repeat(columns.ok, count)]
            count = np.where(columns.ok, count, 0)
        used.append(count)
        items.append(chosen)
    per_row = sum(cells.shape[1] for cells in runs)
    per_row = per_row + sum(count * span for count, span in zip(used, spans, strict=True))
    start = np.cumsum(per_row) - per_row
    out = _byte_matrix(int(per_row.sum()), _CELL)
    # runs and entries are moved as values of whole cells (`_runs_at`), each to the place of
    # its first cell, one index a value
    at = start
    for k, cells in enumerate(runs):
        cells[bad] = 0
        if k == 0:
            cells[bad, 0, 0] = _ROW_END
        count = cells.shape[1]
        # a row's run is one value of its `count` cells, put at its first cell's place
        _runs_at(out, count)[at] = _values(cells.reshape(len(cells), -1))
        at = at + count
        runs[k] = cells = None  # placed: its memory back before the next is laid
        if k < len(lists):
            first, rest = lists[k][1:3]
            count, span = used[k], spans[k]  # a bad row's none
            starts = np.cumsum(count) - count  # each row's first entry among the items
            # entry e of a row goes to its row's place + e spans: the item's number times
            # the span + a shift a row
            place = np.arange(len(items[k])) * span + np.repeat(at - starts * span, count)
            # a row's first entry from `first`, the others from `rest`, as one table
            choices = _kept("cells", (first, rest), _entry_cells)
            chosen = items[k] + (1 + len(first))
            chosen[starts[count > 0]] -= len(first)
            # (an index assignment: np.put would copy a view of overlapping values first)
            _runs_at(out, span)[place] = np.take(_values(choices), chosen)
            at = at + count * span
    return _with_fallbacks(out, bad, fallback)


def _compiled_text(columns: Columns) -> bytearray:
    """The rows' text without its fallbacks (`texts`; a bad row one marker byte) by the
    compiled kernel: the fixed parts as one (P, W) matrix cut where each list goes, the
    lists' tables as one pool of texts without their zeros."""
    from tactical.rules import report_json_kernel as kernel  # imports numba

    fixed_parts, cuts, lists, width = [], [0], [], 0
    for part in columns.parts:
        if part[0] == "slots":  # each run before a list padded to whole words of 8 bytes
            fixed_parts.append(("constant", np.zeros(-width % 8, dtype=np.uint8)))
            width += -width % 8
            cuts.append(width // 8)  # list k goes after the fixed words before cuts[k + 1]
            lists.append(part)
        else:
            fixed_parts.append(part)
            width += part[1].shape[-1]
    words = _fixed_matrix(fixed_parts, columns.rows, 8, False).view(np.uint64)
    cuts.append(words.shape[1])
    tables = tuple(table for part in lists for table in part[1:3])
    lengths, pool, bases, slot = _kept("pool", tables, _entry_pool)
    counts = np.zeros((len(lists), columns.rows), dtype=np.intp)
    items = []
    for k, part in enumerate(lists):
        counts[k] = part[3].count
        items.append(np.asarray(part[3].items, dtype=np.intp))
        # the kernel reads without bounds tests: what numpy's indexing would refuse, refused
        first_rows = min(len(part[1]), len(part[2])) - 1
        if counts[k].sum() != len(items[k]) or not (items[k] < first_rows).all():
            raise IndexError("a list's counts and items do not match its tables")
    item_sizes = np.array([len(chosen) for chosen in items], dtype=np.intp)
    lists_at = (
        counts, np.concatenate(items or [np.zeros(0, np.intp)]),
        np.cumsum(item_sizes) - item_sizes, np.ascontiguousarray(bases[0::2]),
        np.ascontiguousarray(bases[1::2]),
    )  # fmt: skip
    size = kernel.text_length(words, *lists_at, lengths, columns.ok)
    # spare bytes: past the last byte, the zeros of a word or an entry's slot are written
    text = bytearray(size + 8 * slot)
    out = np.frombuffer(text, dtype=np.uint8)
    written = kernel.write_rows(
        out, words, np.asarray(cuts, dtype=np.intp), *lists_at, pool, lengths, columns.ok
    )
    if written != size:  # the two passes count alike by construction
        raise AssertionError(f"wrote {written} bytes of {size}")
    del out  # the view released: the spare bytes can go
    del text[size:]
    return text


def _entry_pool(tables: tuple[np.ndarray, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The lists' tables as the kernel reads them: each entry's length without its zeros, the
    entries as one pool of words of 8 bytes (its bytes first, zeros after: `slot` words an
    entry), and each table's first row in the pool."""
    slot = -(-max([table.shape[1] for table in tables], default=0) // 8) or 1
    nonzero = [table != 0 for table in tables]
    lengths = np.concatenate([kept.sum(axis=1) for kept in nonzero] or [np.zeros(0, np.intp)])
    pool = np.zeros((len(lengths), slot * 8), dtype=np.uint8)
    pool[np.arange(pool.shape[1]) < lengths[:, None]] = np.concatenate(
        [table[kept] for table, kept in zip(tables, nonzero, strict=True)]
        or [np.zeros(0, np.uint8)]
    )
    sizes = np.array([len(table) for table in tables], dtype=np.intp)
    return lengths, pool.view(np.uint64), np.cumsum(sizes) - sizes, slot


def _entry_cells(tables: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """A list's `first` and `rest` tables as one, each widened to the whole cells its widest
    entry needs (`texts`' layout)."""
    width = -(-max(tables[0].shape[1], tables[1].shape[1], 1) // _CELL) * _CELL
    return np.concatenate([_widened(table, width) for table in tables])


def _kept(kind: str, tables: tuple[np.ndarray, ...], make: Callable) -> Any:
    """`make(tables)`, kept for the very tables when none of them can be written (a table's
    names, the same for every block of its stream): worked out once a table, not once a
    block from all its units' names. Keyed by the tables' ids, each kept alive beside
    its value (an id is never reused while its object lives)."""
    key = (kind, *(id(table) for table in tables))
    frozen = not any(table.flags.writeable for table in tables)  # else it may change: afresh
    found = _KEPT.get(key) if frozen else None
    if found is not None and all(a is b for a, b in zip(found[0], tables, strict=True)):
        return found[1]
    value = make(tables)
    if frozen:
        if len(_KEPT) >= MAX_KEPT:
            _KEPT.clear()
        _KEPT[key] = (tables, value)
    return value


MAX_KEPT = 16  # values `_kept` keeps (a table's JSON and text lists, both layouts)
_KEPT: dict[tuple, tuple[tuple[np.ndarray, ...], Any]] = {}


def _runs_at(cells: np.ndarray, count: int) -> np.ndarray:
    """The (C, W) cell matrix `cells` as C - count + 1 overlapping values of `count` cells
    each, value k starting at cell k (a view): a run of cells is put in place as one
    value, not cell by cell through an index a cell."""
    width = cells.shape[1]
    return np.ndarray(
        shape=(max(len(cells) - count + 1, 0),), dtype=np.dtype(f"V{count * width}"),
        buffer=cells, strides=(width,),
    )  # fmt: skip


def _widened(choices: np.ndarray, width: int) -> np.ndarray:
    """A `table` zero-padded on the right to `width` columns."""
    widened = np.zeros((len(choices), width), dtype=np.uint8)
    widened[:, : choices.shape[1]] = choices
    return widened


def _byte_matrix(rows: int, width: int) -> np.ndarray:
    """A zero (rows, width) uint8 matrix over a bytearray: `_with_fallbacks` drops the zeros
    from the bytearray itself, without first copying the matrix into bytes."""
    return np.frombuffer(bytearray(rows * width), dtype=np.uint8).reshape(rows, width)


def _with_fallbacks(
    matrix: np.ndarray | bytearray, bad: np.ndarray, fallback: Callable[[int], str]
) -> bytearray:
    """The matrix's bytes (a `_byte_matrix`) without its zeros (a bytearray: the text
    already), each marker byte (a bad row's place) replaced by that row's fallback text,
    in order."""
    if isinstance(matrix, bytearray):
        text = matrix
    else:
        buffer = matrix
        while not isinstance(buffer, memoryview):  # the matrix, its flat array, their buffer
            buffer = buffer.base
        text = buffer.obj.translate(None, b"\0")
    if not len(bad):
        return text
    # the text between markers joined as views: one copy of the block, not a split's two
    view, joined, at = memoryview(text), [], 0
    for k in bad.tolist():
        found = text.index(_ROW_END, at)
        joined += [view[at:found], fallback(k).encode()]
        at = found + 1
    joined.append(view[at:])
    return bytearray().join(joined)
