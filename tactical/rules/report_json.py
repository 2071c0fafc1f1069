"""`json.dumps` of many pair reports at once, the same text byte for byte, from columns.

A block of P reports is laid out as a (P, W) byte matrix: each field a few columns,
right- or left-aligned with zero bytes as padding (JSON text never holds a zero
byte: json.dumps writes control characters as escapes). Dropping the zeros leaves
the text. Numbers are printed as `json.dumps(round(value, 6))` prints them: for
|value| < 1e9 with round(value, 6) zero or at least 1e-4, that is the shortest
decimal of the rounded value, i.e. its six decimals without trailing zeros (any two
decimals of 15 significant digits are different doubles, so none shorter reads
back as the same number). A number this cannot vouch for (within a few ulps of a
rounding tie, below 1e-4, huge, not finite where a number is due) sends its report
to `json.dumps`, so the text is always exactly `json.dumps`'s.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np

__all__ = ["Columns", "numbers", "table", "text_of", "texts"]

_SCALE = 1e6  # six decimals (measuring._round)
_LIMIT = 1e15  # |value| * 1e6 below this: integers exact, fixed notation
# every 3-digit group as text, and how many of its digits remain once trailing zeros go
_GROUPS = np.array([list(f"{k:03d}".encode()) for k in range(1000)], dtype=np.uint8)
_KEPT = np.array([len(f"{k:03d}".rstrip("0")) for k in range(1000)], dtype=np.int64)
_POWERS = 10 ** np.arange(1, 19, dtype=np.int64)
_NULL = np.array([[0, 0, 0, 0], list(b"null")], dtype=np.uint8)


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


def numbers(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`json.dumps(round(v, 6))` of each value (-0 written 0.0) as a (P, W) byte matrix, and
    a (P,) mask of the values it vouches for (the others' rows are left empty)."""
    values = np.asarray(values, dtype=float)
    scaled = values * _SCALE
    magnitude = np.abs(scaled)
    finite = magnitude < _LIMIT  # also False for inf and nan
    safe = np.where(finite, scaled, 0.0)
    # round half to even, as Python's round: trusted where the product is clearly off a tie
    tie_gap = np.abs(np.abs(safe - np.floor(safe)) - 0.5)
    sure = finite & (tie_gap > 4.0 * np.spacing(np.abs(safe)))
    whole = np.rint(safe).astype(np.int64)
    absolute = np.abs(whole)
    sure &= (absolute == 0) | (absolute >= 100)  # below 1e-4 repr switches to 1e-05 style
    absolute = np.where(sure, absolute, 0)
    integer, fraction = absolute // 1_000_000, absolute % 1_000_000
    digits = int(np.searchsorted(_POWERS, integer.max(initial=0), side="right")) + 1
    groups = -(-digits // 3)
    int_chars = np.concatenate(
        [_GROUPS[(integer // 1000 ** (groups - 1 - g)) % 1000] for g in range(groups)], axis=1
    )
    width = 3 * groups
    shown = _POWERS.searchsorted(integer, side="right") + 1  # digits of the integer part
    int_chars[np.arange(width)[None, :] < (width - shown)[:, None]] = 0
    high, low = fraction // 1000, fraction % 1000
    kept = np.where(low != 0, 3 + _KEPT[low], np.maximum(_KEPT[high], 1))
    frac_chars = np.concatenate((_GROUPS[high], _GROUPS[low]), axis=1)
    frac_chars[np.arange(6)[None, :] >= kept[:, None]] = 0
    sign = np.where(sure & (whole < 0), ord("-"), 0).astype(np.uint8)[:, None]
    point = np.full((len(values), 1), ord("."), dtype=np.uint8)
    result = np.concatenate((sign, int_chars, point, frac_chars), axis=1)
    result[~sure] = 0
    return result, sure


class Columns:
    """The text of P rows, built column by column; `texts()` joins each row's bytes."""

    def __init__(self, rows: int) -> None:
        self.rows = rows
        self.parts: list[np.ndarray] = []  # (W,) constant texts, (P, W) columns
        self.ok = np.ones(rows, dtype=bool)

    def constant(self, text: str) -> None:
        """The same text on every row (laid once into the template row of `matrix`)."""
        self.parts.append(np.frombuffer(text.encode(), dtype=np.uint8))

    def pick(self, choices: np.ndarray, index: np.ndarray) -> None:
        """Row k gets choices[index[k]] (a `table`)."""
        self.parts.append(choices[index])

    def number(self, values: np.ndarray, present: np.ndarray | None = None) -> None:
        """A number per row (`numbers`); rows where `present` is False get nothing."""
        chars, sure = numbers(values)
        if present is not None:
            chars[~present] = 0
            sure |= ~present
        self.ok &= sure
        self.parts.append(chars)

    def number_or_null(self, values: np.ndarray, present: np.ndarray) -> None:
        """A number per row where `present`, `null` for an infinite value (Omni's margin)."""
        infinite = np.isinf(values)
        self.pick(_NULL, (infinite & present).astype(np.intp))
        self.number(np.where(infinite, 0.0, values), present & ~infinite)

    def matrix(self) -> np.ndarray:
        """The (P, W) byte matrix of the rows, zero-padded: a template row holding the
        constant texts copied to every row, then the columns that differ written in."""
        widths = [p.shape[-1] for p in self.parts]
        template = np.zeros(sum(widths), dtype=np.uint8)
        at = 0
        for part, width in zip(self.parts, widths, strict=True):
            if part.ndim == 1:
                template[at : at + width] = part
            at += width
        matrix = np.empty((self.rows, len(template)), dtype=np.uint8)
        matrix[:] = template
        at = 0
        for part, width in zip(self.parts, widths, strict=True):
            if part.ndim == 2:
                matrix[:, at : at + width] = part
            at += width
        return matrix


def texts(columns: Columns, fallback) -> bytes:
    """The rows' text, each row `columns` could not vouch for replaced by `fallback(k)`."""
    matrix = columns.matrix()
    pieces, start = [], 0
    for k in [*np.flatnonzero(~columns.ok).tolist(), len(matrix)]:
        # the padding goes, the text stays
        pieces.append(matrix[start:k].tobytes().translate(None, b"\0"))
        if k < len(matrix):
            pieces.append(fallback(k).encode())
        start = k + 1
    return b"".join(pieces) if len(pieces) > 1 else pieces[0]
