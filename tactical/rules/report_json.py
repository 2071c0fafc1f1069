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
from collections.abc import Callable, Sequence

import numpy as np

__all__ = ["Columns", "fixed", "numbers", "table", "text_of", "texts"]

_SCALE = 1e6  # six decimals (measuring._round)
_LIMIT = 1e15  # |value| * 1e6 below this: integers exact, fixed notation
# every 3-digit group as text, and how many of its digits remain once trailing zeros go
_GROUPS = np.array([list(f"{k:03d}".encode()) for k in range(1000)], dtype=np.uint8)
_KEPT = np.array([len(f"{k:03d}".rstrip("0")) for k in range(1000)], dtype=np.int64)
_POWERS = 10 ** np.arange(1, 19, dtype=np.int64)
_NULL = np.array([[0, 0, 0, 0], list(b"null")], dtype=np.uint8)
_ROW_END = 1  # marks a row left to the fallback (never in either text)


def table(strings: Sequence[str]) -> np.ndarray:
    """(K, W) uint8: each string's UTF-8 bytes, zero-padded on the right."""
    encoded = [s.encode() for s in strings]
    width = max((len(e) for e in encoded), default=0)
    result = np.zeros((len(encoded), width), dtype=np.uint8)
    for k, e in enumerate(encoded):
        result[k, : len(e)] = np.frombuffer(e, dtype=np.uint8)
    return result


def text_of(value) -> str:
    """One value as json.dumps writes it (ensure_ascii off, as `tactical check` writes)."""
    return json.dumps(value, ensure_ascii=False)


def _integer_chars(integer: np.ndarray) -> np.ndarray:
    """(P, W): each non-negative integer's digits, right-aligned, zeros before."""
    digits = int(np.searchsorted(_POWERS, integer.max(initial=0), side="right")) + 1
    groups = -(-digits // 3)
    chars = np.concatenate(
        [_GROUPS[(integer // 1000 ** (groups - 1 - g)) % 1000] for g in range(groups)], axis=1
    )
    width = 3 * groups
    shown = _POWERS.searchsorted(integer, side="right") + 1  # digits of the integer part
    chars[np.arange(width)[None, :] < (width - shown)[:, None]] = 0
    return chars


def _rounded(values: np.ndarray, scale: float) -> tuple[np.ndarray, np.ndarray]:
    """round(value * scale) as Python rounds (half to even, from the exact double), and
    whether that is vouched for: the product is finite and clearly off a tie."""
    scaled = values * scale
    finite = np.abs(scaled) < _LIMIT  # also False for inf and nan
    safe = np.where(finite, scaled, 0.0)
    tie_gap = np.abs(np.abs(safe - np.floor(safe)) - 0.5)
    sure = finite & (tie_gap > 4.0 * np.spacing(np.abs(safe)))
    return np.rint(safe).astype(np.int64), sure


def numbers(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`json.dumps(round(v, 6))` of each value (-0 written 0.0) as a (P, W) byte matrix, and
    a (P,) mask of the values it vouches for (the others' rows are left empty)."""
    values = np.asarray(values, dtype=float)
    whole, sure = _rounded(values, _SCALE)
    absolute = np.abs(whole)
    sure &= (absolute == 0) | (absolute >= 100)  # below 1e-4 repr switches to 1e-05 style
    absolute = np.where(sure, absolute, 0)
    integer, fraction = absolute // 1_000_000, absolute % 1_000_000
    int_chars = _integer_chars(integer)
    high, low = fraction // 1000, fraction % 1000
    kept = np.where(low != 0, 3 + _KEPT[low], np.maximum(_KEPT[high], 1))
    frac_chars = np.concatenate((_GROUPS[high], _GROUPS[low]), axis=1)
    frac_chars[np.arange(6)[None, :] >= kept[:, None]] = 0
    sign = np.where(sure & (whole < 0), ord("-"), 0).astype(np.uint8)[:, None]
    point = np.full((len(values), 1), ord("."), dtype=np.uint8)
    result = np.concatenate((sign, int_chars, point, frac_chars), axis=1)
    result[~sure] = 0
    return result, sure


def fixed(values: np.ndarray, decimals: int, plus: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """`format(v, ".2f")` (`decimals` places; "+.2f" with `plus`) of each value as a (P, W)
    byte matrix, and a (P,) mask of the values it vouches for (the others' rows left
    empty). As `format`, a negative value keeps its sign when it rounds to zero ("-0.00")."""
    values = np.asarray(values, dtype=float)
    whole, sure = _rounded(values, 10.0**decimals)
    absolute = np.where(sure, np.abs(whole), 0)
    unit = 10**decimals
    int_chars = _integer_chars(absolute // unit)
    fraction = absolute % unit
    frac_chars = np.stack(
        [(fraction // 10 ** (decimals - 1 - d)) % 10 + ord("0") for d in range(decimals)], axis=1
    ).astype(np.uint8)
    negative = np.signbit(values)
    sign = np.where(negative, ord("-"), ord("+") if plus else 0).astype(np.uint8)[:, None]
    point = np.full((len(values), 1), ord("."), dtype=np.uint8)
    result = np.concatenate((sign, int_chars, point, frac_chars), axis=1)
    result[~sure] = 0
    return result, sure


class Columns:
    """The text of P rows, built column by column; `texts()` joins each row's bytes."""

    def __init__(self, rows: int) -> None:
        self.rows = rows
        # ("constant", (W,)) texts, ("columns", (P, W)) bytes, ("pick", table, (P,)) and
        # ("slots", first, rest, (P, K)) choices
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
        self.parts.append(("slots", first, rest, np.asarray(index)))

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
    matrix[:] = template
    at = 0
    for part, width in zip(parts, widths, strict=True):
        if part[0] == "columns":
            matrix[:, at : at + width] = part[1]
        elif part[0] == "pick":
            matrix[:, at : at + width] = part[1][part[2]]
        at += width
    return matrix


def texts(columns: Columns, fallback: Callable[[int], str]) -> bytearray:
    """The rows' text, each row `columns` could not vouch for replaced by `fallback(k)`
    (a bytearray: the text is made in place, and the blocks of a big table are large).

    Without lists (slots) the rows are one matrix whose zeros are dropped. With lists, each
    row is laid out as cells of one width, in order: its fixed runs cut into cells, each
    entry of a list one cell. A row's cells follow its own length, so one crowded line
    widens nothing else and nothing has to be put back in order: the zeros of the one
    (cells, width) matrix are dropped and the text is there. A row the columns cannot
    vouch for is left as one marker byte, where its fallback text goes."""
    bad = np.flatnonzero(~columns.ok)
    lists = [part for part in columns.parts if part[0] == "slots"]
    if not lists:
        (matrix,) = columns.segments(over_bytes=True)  # the text itself
        matrix[bad] = 0
        matrix[bad, :1] = _ROW_END
        return _with_fallbacks(matrix, bad, fallback)
    width = max(8, *(max(part[1].shape[1], part[2].shape[1]) for part in lists))
    # each fixed run as whole cells (at least one: the first holds a bad row's marker)
    runs = [m.reshape(columns.rows, -1, width) for m in columns.segments(width)[0::2]]
    used = []
    for part in lists:
        index = part[3]
        count = (index > 0).sum(axis=1)
        count[bad] = 0
        used.append(count)
    per_row = sum(cells.shape[1] for cells in runs) + sum(used)
    start = np.cumsum(per_row) - per_row
    out = _byte_matrix(int(per_row.sum()), width)
    at = start
    for k, cells in enumerate(runs):
        cells[bad] = 0
        if k == 0:
            cells[bad, 0, 0] = _ROW_END
        _windows(out, cells.shape[1])[at] = cells.reshape(columns.rows, -1)
        at = at + cells.shape[1]
        runs[k] = cells = None  # placed: its memory back before the next is laid
        if k < len(lists):
            first, rest, index = lists[k][1:]
            count = used[k]  # a bad row's none
            row = np.repeat(np.arange(columns.rows), count)
            slot = np.arange(len(row)) - np.repeat(np.cumsum(count) - count, count)
            # a row's first entry from `first`, the others from `rest`, as one table
            choices = np.concatenate((_widened(first, width), _widened(rest, width)))
            chosen = index[row, slot] + np.where(slot > 0, len(first), 0)
            out[at[row] + slot] = np.take(choices, chosen, axis=0)
            at = at + count
    return _with_fallbacks(out, bad, fallback)


def _windows(cells: np.ndarray, count: int) -> np.ndarray:
    """Every run of `count` consecutive cells of a (C, W) matrix as one row of a writable
    view (overlapping rows): a row's run of cells is then written as one piece, not cell
    by cell."""
    rows, width = cells.shape
    shape = (max(rows - count + 1, 0), count * width)
    return np.lib.stride_tricks.as_strided(cells, shape=shape, strides=(width, 1))


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
    matrix: np.ndarray, bad: np.ndarray, fallback: Callable[[int], str]
) -> bytearray:
    """The matrix's bytes (a `_byte_matrix`) without its zeros, each marker byte (a bad
    row's place) replaced by that row's fallback text, in order."""
    buffer = matrix
    while not isinstance(buffer, memoryview):  # the matrix, its flat array, their buffer
        buffer = buffer.base
    text = buffer.obj.translate(None, b"\0")
    if not len(bad):
        return text
    pieces = text.split(bytes((_ROW_END,)))
    joined = [pieces[0]]
    for k, piece in zip(bad.tolist(), pieces[1:], strict=True):
        joined += [fallback(k).encode(), piece]
    return bytearray().join(joined)
