"""`report_json.texts` compiled: each row's bytes written straight to their place in the
text, the zero bytes of its fixed runs left out as they are copied and its lists'
entries copied from their texts without zeros (no cell layout, no pass dropping zeros
afterwards). The same bytes as the numpy code; imported only for a big block (this
module imports numba at its top). `split_lists`: a block's blockers cut into its two
lists (pieces, models) in one pass, as `measuring._split_lists` does with numpy.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["split_lists", "text_length", "write_rows"]

# each byte's low seven bits, and a one in each byte: the tests of eight bytes at once
_LOW = np.uint64(0x7F7F7F7F7F7F7F7F)
_ONES = np.uint64(0x0101010101010101)


@njit(cache=True, inline="always")
def _zero_bytes(word):  # pragma: no cover - compiled
    """The zero bytes of a word of 8, each marked by its top bit (exact, no carries)."""
    return ~(((word & _LOW) + _LOW) | word | _LOW)


@njit(cache=True, inline="always")
def _put_word(text, at, word):  # pragma: no cover - compiled
    """The 8 bytes of a word (little-endian, as the arrays hold it) at text[at:] (one store
    once compiled)."""
    base = np.uintp(at)  # unsigned: no wrap-around test of a negative index a byte
    for offset in range(8):
        text[base + np.uintp(offset)] = np.uint8((word >> np.uint64(8 * offset)) & np.uint64(0xFF))


@njit(cache=True)
def text_length(
    words, counts, items, item_start, first_base, rest_base, entry_length, ok
):  # pragma: no cover - compiled
    """The length `write_rows` writes (the same arguments): the text is then made at its
    size at once, not in a larger buffer copied."""
    lists = len(item_start)
    at_item = item_start.copy()
    length = 0
    rows, width = words.shape  # words of 8 bytes
    for row in range(rows):
        if not ok[row]:
            length += 1
            for k in range(lists):
                at_item[k] += counts[k, row]
            continue
        for column in range(width):
            zeros = _zero_bytes(words[row, column]) >> np.uint64(7)
            length += 8 - ((zeros * _ONES) >> np.uint64(56))
        for k in range(lists):
            for slot in range(counts[k, row]):
                base = first_base[k] if slot == 0 else rest_base[k]
                length += entry_length[base + items[at_item[k]] + 1]
                at_item[k] += 1
    return length


@njit(cache=True)
def write_rows(
    text,
    words,
    cuts,
    counts,
    items,
    item_start,
    first_base,
    rest_base,
    pool,
    entry_length,
    ok,
):  # pragma: no cover - compiled
    """Writes the rows one after another into `text` (`text_length` bytes and a word's
    spare at its end) and returns the length written. Row r: its fixed bytes, words
    words[r, cuts[k]:cuts[k + 1]] (zeros left out) before list k, then list k's
    entries: the i-th item of list k (items[item_start[k] + ...]) is pool entry
    first_base[k] + i + 1 for a row's first entry, rest_base[k] + i + 1 after it, its
    entry_length bytes first in its slot of words. A row not `ok` is one marker byte (1),
    where its fallback text goes; its entries are skipped. Places are unsigned: numba
    tests no negative index, and the byte stores of a word merge into one."""
    lists = len(item_start)
    at_item = item_start.copy()
    at = np.uintp(0)
    one = np.uintp(1)
    for row in range(words.shape[0]):
        if not ok[row]:
            text[at] = 1
            at += one
            for k in range(lists):
                at_item[k] += counts[k, row]
            continue
        for k in range(lists + 1):
            for column in range(cuts[k], cuts[k + 1]):
                word = words[row, column]
                if _zero_bytes(word) == 0:  # eight bytes, none left out
                    _put_word(text, at, word)
                    at += np.uintp(8)
                    continue
                for offset in range(8):
                    byte = np.uint8((word >> np.uint64(8 * offset)) & np.uint64(0xFF))
                    text[at] = byte  # a zero is written over by the next byte
                    at += np.uintp(byte != 0)
            if k == lists:
                break
            for slot in range(counts[k, row]):
                base = first_base[k] if slot == 0 else rest_base[k]
                entry = base + items[at_item[k]] + 1
                at_item[k] += 1
                for word in range(pool.shape[1]):  # whole words: the zeros after it are
                    _put_word(text, at + np.uintp(8 * word), pool[entry, word])  # written over
                at += np.uintp(entry_length[entry])
    return at


@njit(cache=True)
def split_lists(line, piece, pieces, model_units, rows):  # pragma: no cover - compiled
    """`measuring._split_lists` in one pass: the (line, piece) hits, in order, as the
    table's pieces in each line's way (piece < `pieces`: count a line, pieces) and the
    models whose bases block it (count a line, `model_units[piece - pieces]`)."""
    models = 0
    for k in range(len(piece)):
        models += piece[k] >= pieces
    terrain_count = np.zeros(rows, dtype=np.intp)
    model_count = np.zeros(rows, dtype=np.intp)
    terrain_items = np.empty(len(piece) - models, dtype=np.intp)
    model_items = np.empty(models, dtype=np.intp)
    terrain = 0
    model = 0
    for k in range(len(piece)):
        found = piece[k]
        if found >= pieces:
            model_items[model] = model_units[found - pieces]
            model_count[line[k]] += 1
            model += 1
        else:
            terrain_items[terrain] = found
            terrain_count[line[k]] += 1
            terrain += 1
    return terrain_count, terrain_items, model_count, model_items
