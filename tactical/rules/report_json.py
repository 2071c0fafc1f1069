"""Text of many pair reports at once, from columns: `json.dumps` of each report (the JSON of
`tactical check --json`) and the plain-words line of each (`tactical check`), byte for byte.

A block of P reports is laid out as a (P, W) byte matrix: each field a few columns,
right- or left-aligned with zero bytes as padding (neither text ever holds a zero
byte: json.dumps writes control characters as escapes, and the words are printable).
Dropping the zeros leaves the text. Lists of varying length (the pieces and models
in a line's way) take as many columns as the longest list of a row's kind: rows are
laid out in groups by how long their lists are (1, up to 3, up to 7... entries), so
that one crowded line does not widen every row, and put back in order.

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
_ROW_END = 1  # marks each row's end when groups of rows are put back in order (never in text)


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

    def _slots_used(self) -> list[np.ndarray]:
        """Per slots part, each row's count of entries."""
        used = []
        for part in self.parts:
            if part[0] == "slots":
                index = part[3]
                last = np.where(index > 0, np.arange(1, index.shape[1] + 1), 0)
                used.append(last.max(axis=1, initial=0))
        return used

    def matrix(self, rows: np.ndarray | None = None, laid: Sequence[int] = (), end: int = 0):
        """The (R, W) byte matrix of `rows` (all by default), zero-padded: a template row
        holding the constant texts copied to every row, then the columns that differ
        written in; each slots part `laid[s]` entries wide (all by default), and an
        `end` byte after each row when given."""
        pick = slice(None) if rows is None else rows
        count = self.rows if rows is None else len(rows)
        pieces, widths, s = [], [], 0
        for part in self.parts:
            kind = part[0]
            if kind == "slots":
                first, rest, index = part[1:]
                width = laid[s] if s < len(laid) else index.shape[1]
                s += 1
                for slot in range(width):
                    pieces.append(("pick", first if slot == 0 else rest, index[:, slot]))
                    widths.append(pieces[-1][1].shape[1])
                continue
            pieces.append(part)
            widths.append(part[1].shape[-1] if kind != "pick" else part[1].shape[1])
        template = np.zeros(sum(widths) + (1 if end else 0), dtype=np.uint8)
        if end:
            template[-1] = end
        at = 0
        for piece, width in zip(pieces, widths, strict=True):
            if piece[0] == "constant":
                template[at : at + width] = piece[1]
            at += width
        matrix = np.empty((count, len(template)), dtype=np.uint8)
        matrix[:] = template
        at = 0
        for piece, width in zip(pieces, widths, strict=True):
            if piece[0] == "columns":
                matrix[:, at : at + width] = piece[1][pick]
            elif piece[0] == "pick":
                matrix[:, at : at + width] = piece[1][piece[2][pick]]
            at += width
        return matrix


def texts(columns: Columns, fallback: Callable[[int], str]) -> bytes:
    """The rows' text, each row `columns` could not vouch for replaced by `fallback(k)`.

    Rows whose lists (slots) are short are laid out apart from those whose lists are long
    (up to 1, 3, 7... entries), each group in a matrix only as wide as it needs, then put
    back in order: the cost of a row follows its own length, not the longest row's."""
    used = columns._slots_used()
    # a row's group: per slots part, the bit length of its count of entries
    levels = [np.frexp(u.astype(float))[1].astype(np.int64) for u in used]
    key = np.zeros(columns.rows, dtype=np.int64)
    for level in levels:
        key = key * 64 + level
    groups, group_of = np.unique(key, return_inverse=True)
    bad = np.flatnonzero(~columns.ok)
    if len(groups) <= 1 and not len(bad):
        laid = [int(u.max(initial=0)) for u in used]
        return columns.matrix(laid=laid).tobytes().translate(None, b"\0")
    pieces = np.empty(columns.rows, dtype=object)
    for g in range(len(groups)):
        rows = np.flatnonzero(group_of.reshape(-1) == g) if len(groups) > 1 else None
        laid = [int((u if rows is None else u[rows]).max(initial=0)) for u in used]
        matrix = columns.matrix(rows, laid, end=_ROW_END)
        found = matrix.tobytes().translate(None, b"\0").split(bytes((_ROW_END,)))
        pieces[slice(None) if rows is None else rows] = found[:-1]
    for k in bad.tolist():
        pieces[k] = fallback(k).encode()
    return b"".join(pieces.tolist())
