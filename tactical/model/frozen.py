"""Deeply immutable containers for the free-form parts of the model (unit stats, options)."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator, Mapping
from typing import Any


class FrozenMap(Mapping[str, Any]):
    """An immutable, hashable mapping whose nested tables and arrays are frozen too."""

    __slots__ = ("_data", "_hash")

    def __init__(self, data: Mapping[str, Any] | None = None, **kwargs: Any) -> None:
        if not kwargs and type(data) is FrozenMap:  # frozen already: its table copied
            self._data = dict(data._data)
            self._hash = data._hash
            return
        # a plain dict is read as it is (copied below); any other mapping through its own
        # reads (a watched rule state notes them)
        merged = data if not kwargs and type(data) is dict else dict(data or {}, **kwargs)
        # plain keys and values frozen as they are, without a call each (rule systems make
        # thousands of small tables a game)
        frozen = _FROZEN
        self._data = {
            k if type(k) is str else str(k): v if type(v) in frozen else freeze(v)
            for k, v in merged.items()
        }
        self._hash: int | None = None

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    # the dict's own lookups: Mapping's generic ones go through __getitem__ and KeyError
    # (a rule system asks a unit's stats thousands of times as a game starts)
    def get(self, key: str, default: Any = None) -> Any:
        return self._data.get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(tuple(sorted(self._data.items(), key=lambda item: item[0])))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenMap):
            return self._data == other._data
        if isinstance(other, Mapping):
            return dict(self._data) == dict(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"FrozenMap({self._data!r})"

    def set(self, key: str, value: Any) -> FrozenMap:
        """A copy with one key replaced."""
        return self.updated({key: value})

    def updated(self, changes: Mapping[str, Any]) -> FrozenMap:
        """A copy with some keys set: only the new values are frozen (the kept ones are
        already; freezing them again walks every nested tuple, which made rule-state
        updates the agents' largest cost)."""
        data = dict(self._data)
        for key, value in changes.items():
            data[str(key)] = freeze(value)
        copy = FrozenMap.__new__(FrozenMap)
        copy._data = data
        copy._hash = None
        return copy


def freeze(value: Any) -> Any:
    """Turn dicts into FrozenMaps and lists into tuples, recursively."""
    kind = type(value)
    if kind in _FROZEN:
        return value
    if kind is tuple:
        # a tuple already frozen through and through is kept as it is: rule-state updates
        # hand back the tuples they read, and copying them again was most of their cost
        # (looked through in a plain loop: a generator's frame per element cost more)
        for v in value:
            if type(v) not in _FROZEN:
                break
        else:
            return value
        made = tuple(freeze(v) for v in value)
        # nested tuples frozen already come back as themselves: so does the whole
        for new, old in zip(made, value, strict=True):
            if new is not old:
                return made
        return value
    if isinstance(value, FrozenMap):
        return value
    if isinstance(value, Mapping):
        return FrozenMap(value)
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    return value


# values that are frozen as they are (exact types: a subclass takes the long way)
_FROZEN = frozenset({str, int, float, bool, type(None), FrozenMap})


def thaw(value: Any) -> Any:
    """The inverse of `freeze`: plain dicts and lists, for writing files."""
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [thaw(v) for v in value]
    return value


def remembered(memo: dict[int, tuple[Any, Any]], value: Any, make: Any, most: int) -> Any:
    """`make(value)`, remembered in `memo` by the value's identity for an immutable value
    asked for again and again (a unit's stat card): an identity costs nothing to look up
    where hashing a value may cost more than the rest. Each value is kept beside what was
    made of it, so its id is not reused while remembered; `memo` starts again at `most`."""
    found = memo.get(id(value))
    if found is not None and found[0] is value:
        return found[1]
    made = make(value)
    if len(memo) >= most:
        memo.clear()
    memo[id(value)] = (value, made)
    return made


def memo_of(table: dict[int, tuple[Any, dict]], owner: Any, most: int = 32) -> dict:
    """The memo `table` keeps for the immutable `owner` (a game state, say), new when the
    owner is new: by its id, with a weak reference beside it (an id is not trusted once its
    owner is gone), a few owners at a time. For pure functions of an owner and a small key
    that a resolver asks again and again while its owner lives (the exact enumerator
    resolves the same attack on the same state once per outcome)."""
    held = table.get(id(owner))
    if held is None or held[0]() is not owner:
        if len(table) > most:
            table.clear()
        held = (weakref.ref(owner), {})
        table[id(owner)] = held
    return held[1]


class LastAsked:
    """`make(value)` remembered for the last value asked, by identity: for a pure function
    of an immutable value that a caller asks again and again in a row (the exact odds
    replay one roll once per outcome, on the very same objects). One entry, so nothing
    outlives the next question; (value, made) kept in one tuple, read whole or not at
    all."""

    __slots__ = ("_last", "_make")

    def __init__(self, make: Callable[[Any], Any]) -> None:
        self._make = make
        self._last: tuple[Any, Any] = (_NOTHING, None)

    def __call__(self, value: Any) -> Any:
        last = self._last
        if last[0] is value:
            return last[1]
        made = self._make(value)
        self._last = (value, made)  # one tuple assigned: never a value beside another's
        return made


def last_asked(make: Callable[[Any], Any]) -> LastAsked:
    """`make` remembered for the last value asked (`LastAsked`)."""
    return LastAsked(make)


_NOTHING = object()  # asked nothing yet: no value is this one


KEPT_HASH = "_hash"  # where an immutable value keeps its hash once worked out (`kept_hash`)


def kept_hash(value: Any, names: tuple[str, ...]) -> int:
    """The hash of `value`'s fields `names` (as its dataclass's own would be), worked out
    once and kept in the (immutable) instance: the agents key their memos by whole states
    and units, hashed again and again. Never pickled (`without_kept_hash`)."""
    mine = value.__dict__
    found = mine.get(KEPT_HASH)
    if found is None:
        found = hash(tuple(mine[name] for name in names))
        mine[KEPT_HASH] = found
    return found


def without_kept_hash(value: Any) -> dict[str, Any]:
    """`value`'s fields for pickling, its kept hash left out (a string's hash differs from
    process to process)."""
    return {name: item for name, item in value.__dict__.items() if name != KEPT_HASH}
