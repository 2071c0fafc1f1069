"""What a pure function of a game state read of its rule state: the key an expected effect
is remembered by.

An expected effect (`evaluation.attack_effect`, `expected_value`) is a pure function of
the state it is computed on. A later decision often asks it again on a state that differs
only in rule-state keys it never reads (which units have acted, a budget spent by another
unit): the same effect. So the first computation runs on a copy of the state whose rule
state notes every key read (`watching`), and the effect is remembered by the values of
just those keys, with the rest of the table (units, terrain, options) whole. A later state
that holds the same values under those keys gives the same reads, hence the same result.

The rule state's keys are watched at the top level: a key read (its value, or its
absence) is a dependency on its whole value; anything that reads the map whole
(iterating, comparing, hashing it) makes every key one. A key the computation wrote
first is its own, not a dependency, when read back. The states the computation derives
(`updated`) carry the watch, so the material count of every outcome (read from the
resolver's states) notes its reads too.

A key whose value is a table (a map: actions taken, by character) is watched one level
down too: an entry read (or its absence) is a dependency on that entry alone (`path`),
and reading the table whole (iterating, comparing, hashing it) on the whole key. A table
derived from the watched one (an entry set) keeps noting the reads of the entries it
did not set. So an attack that reads how many actions its own gunner took is not
computed again when another vessel acts.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping
from dataclasses import fields, replace
from operator import attrgetter
from typing import Any

from tactical.model import FrozenMap, GameState
from tactical.model.frozen import freeze

ALL: tuple[str, ...] = ("\x00every key",)  # the reads of a computation that read the map whole
_ABSENT = object()
_NOT_TABLE = object()  # a key read as a table whose value is no table (or absent) now
_IN = "\x00"  # between a key and an entry of its table in a read's name (`path`)


def path(key: str, entry: object) -> str:
    """The name of a read of one entry of the table under `key`."""
    return f"{key}{_IN}{entry}"


class Reads:
    """The rule-state keys one computation read (`every`: it read the map whole)."""

    __slots__ = ("every", "keys")

    def __init__(self) -> None:
        self.keys: set[str] = set()
        self.every = False

    def key(self) -> tuple[str, ...]:
        """The keys read, sorted (`ALL` when the map was read whole)."""
        return ALL if self.every else tuple(sorted(self.keys))


class _Watched(FrozenMap):
    """A table that notes what is read of it (`_read` a key, `_read_all` the whole): read
    whole where it is iterated, counted, hashed or compared."""

    __slots__ = ()

    def _read(self, key: object) -> None:
        raise NotImplementedError

    def _read_all(self) -> None:
        raise NotImplementedError

    def __contains__(self, key: object) -> bool:
        self._read(key)
        return key in self._data

    def __iter__(self) -> Iterator[str]:
        self._read_all()
        return iter(self._data)

    def __len__(self) -> int:
        self._read_all()
        return len(self._data)

    def __hash__(self) -> int:
        self._read_all()
        return super().__hash__()

    def __eq__(self, other: object) -> bool:
        self._read_all()
        if isinstance(other, _Watched):
            other._read_all()
        return super().__eq__(other)

    def __ne__(self, other: object) -> bool:
        # its own (not the inverse of a plain map's __eq__, which reads the data unwatched)
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal


class WatchedMap(_Watched):
    """A rule state that notes the reads of its keys not written since it was watched."""

    __slots__ = ("_reads", "_views", "_written")

    _reads: Reads
    _written: frozenset[str]
    # the watched view of each table read (`_table`), made once for the watched map and
    # the maps derived from it (`updated`), under the keys they have not written: those
    # hold the watched map's own tables, and a resolver replayed over every outcome reads
    # the same tables again and again
    _views: dict[str, WatchedTable]

    @classmethod
    def over(cls, base: Mapping[str, Any], reads: Reads) -> WatchedMap:
        watched = cls.__new__(cls)
        watched._data = dict(base._data) if isinstance(base, FrozenMap) else dict(FrozenMap(base))
        watched._hash = None
        watched._reads = reads
        watched._written = frozenset()
        watched._views = {}
        return watched

    def _read(self, key: object) -> None:
        if key not in self._written:
            self._reads.keys.add(str(key))

    def _read_all(self) -> None:
        self._reads.every = True

    def _table(self, key: str, value: Any) -> Any:
        """The value read under `key`: a table not written since watched comes back watched
        entry by entry (`WatchedTable`), its key not a dependency whole; any other value
        makes the key one."""
        if key not in self._written:
            if type(value) is FrozenMap:
                view = self._views.get(key)
                if view is None:
                    view = self._views[key] = WatchedTable.over(value, key, self._reads)
                return view
            self._reads.keys.add(str(key))
        return value

    def __getitem__(self, key: str) -> Any:
        value = self._data.get(key, _ABSENT)
        if value is _ABSENT:
            self._read(key)  # its absence read
            raise KeyError(key)
        return self._table(key, value)

    def get(self, key: str, default: Any = None) -> Any:
        value = self._data.get(key, _ABSENT)
        if value is _ABSENT:
            self._read(key)
            return default
        return self._table(key, value)

    def updated(self, changes: Mapping[str, Any]) -> FrozenMap:
        # `FrozenMap.updated`'s copy, made as a watched map at once
        data = dict(self._data)
        for key, value in changes.items():
            data[str(key)] = freeze(value)
        watched = WatchedMap.__new__(WatchedMap)
        watched._data = data
        watched._hash = None
        watched._reads = self._reads
        watched._written = self._written | {str(key) for key in changes}
        # the views shared with every state derived from the same watched one: a key not
        # written since holds the same table there, noting into the same reads, so it is
        # the same view (and the rules' memos keyed by the very tables read, a Field
        # Order's check after every replay, find it); a written key is never looked up
        watched._views = self._views
        return watched


class WatchedTable(_Watched):
    """The table under one rule-state key (`key`), noting the reads of its entries not set
    since it was watched (`path`), and of the whole key where it is read whole."""

    __slots__ = ("_key", "_reads", "_written")

    _key: str
    _reads: Reads
    _written: frozenset[str]

    @classmethod
    def over(
        cls, base: FrozenMap, key: str, reads: Reads, written: frozenset[str] = frozenset()
    ) -> WatchedTable:
        watched = cls.__new__(cls)
        watched._data = base._data
        watched._hash = base._hash  # the same table: its hash, once worked out, is kept
        watched._key = key
        watched._reads = reads
        watched._written = written
        return watched

    def _read(self, entry: object) -> None:
        if entry not in self._written:
            self._reads.keys.add(f"{self._key}{_IN}{entry}")  # `path`, inline

    def _read_all(self) -> None:
        self._reads.keys.add(self._key)

    def __getitem__(self, entry: str) -> Any:
        self._read(entry)
        return self._data[entry]

    def get(self, entry: str, default: Any = None) -> Any:
        if entry not in self._written:  # `_read`, inline: the rules' commonest read
            self._reads.keys.add(f"{self._key}{_IN}{entry}")
        return self._data.get(entry, default)

    def updated(self, changes: Mapping[str, Any]) -> FrozenMap:
        copy = super().updated(changes)
        written = self._written | {str(entry) for entry in changes}
        return WatchedTable.over(copy, self._key, self._reads, written)


def watching(state: GameState) -> tuple[GameState, Reads]:
    """A copy of `state` whose rule state notes its reads, and the reads it will note."""
    reads = Reads()
    watched = WatchedMap.over(state.rule_state, reads)
    if type(state) is not GameState:  # a subclass may hold more: the long way
        return replace(state, rule_state=watched), reads
    # the state's own quick copy (`with_rule_state`), which keeps what was worked out of
    # its table (units by id...: the same table), its rule state then the watched one
    copy = state.with_rule_state()
    copy.__dict__["rule_state"] = watched
    return copy, reads


def table_key(state: GameState) -> Hashable:
    """Everything of a state but its rule state, by value (a computation may read all of it)."""
    return _table_fields(state)


# every field of a state but its rule state (the roster too: it names the units), read
# as one tuple in their order
_table_fields = attrgetter(*(f.name for f in fields(GameState) if f.name != "rule_state"))


def read_values(state: GameState, keys: tuple[str, ...]) -> Hashable:
    """The values of `keys` in the state's rule state (absent ones marked); the whole rule
    state for `ALL`. A table entry's read (`path`) reads the entry (or its absence), or a
    mark where the key holds no table now (the computation read a table there)."""
    rule_state = state.rule_state
    if keys is ALL:
        return rule_state
    get = rule_state.get
    found = []
    for name, entry in _split(keys):  # a plain loop: asked for every remembered effect
        if entry is None:
            found.append(get(name, _ABSENT))
        else:
            table = get(name, _ABSENT)
            found.append(table.get(entry, _ABSENT) if isinstance(table, FrozenMap) else _NOT_TABLE)
    return tuple(found)


_SPLITS: dict[tuple[str, ...], tuple[tuple[str, str | None], ...]] = {}
MAX_SPLITS = 4096  # keys read, split (a pure function of the names: no game's state)


def _split(keys: tuple[str, ...]) -> tuple[tuple[str, str | None], ...]:
    """Each read's key and its table entry (None for a key read whole), worked out once
    per set of reads: the same few are read again for every decision."""
    found = _SPLITS.get(keys)
    if found is None:
        found = tuple(
            (key.split(_IN, 1)[0], key.split(_IN, 1)[1]) if _IN in key else (key, None)
            for key in keys
        )
        if len(_SPLITS) >= MAX_SPLITS:
            _SPLITS.clear()
        _SPLITS[keys] = found
    return found
