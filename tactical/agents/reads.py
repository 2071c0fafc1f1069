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
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping
from dataclasses import fields, replace
from typing import Any

from tactical.model import FrozenMap, GameState

ALL: tuple[str, ...] = ("\x00every key",)  # the reads of a computation that read the map whole
_ABSENT = object()


class Reads:
    """The rule-state keys one computation read (`every`: it read the map whole)."""

    __slots__ = ("every", "keys")

    def __init__(self) -> None:
        self.keys: set[str] = set()
        self.every = False

    def key(self) -> tuple[str, ...]:
        """The keys read, sorted (`ALL` when the map was read whole)."""
        return ALL if self.every else tuple(sorted(self.keys))


class WatchedMap(FrozenMap):
    """A rule state that notes the reads of its keys not written since it was watched."""

    __slots__ = ("_reads", "_written")

    _reads: Reads
    _written: frozenset[str]

    @classmethod
    def over(cls, base: Mapping[str, Any], reads: Reads) -> WatchedMap:
        watched = cls.__new__(cls)
        watched._data = dict(base._data) if isinstance(base, FrozenMap) else dict(FrozenMap(base))
        watched._hash = None
        watched._reads = reads
        watched._written = frozenset()
        return watched

    def _read(self, key: object) -> None:
        if key not in self._written:
            self._reads.keys.add(str(key))

    def _read_all(self) -> None:
        self._reads.every = True

    def __getitem__(self, key: str) -> Any:
        self._read(key)
        return self._data[key]

    def get(self, key: str, default: Any = None) -> Any:
        self._read(key)
        return self._data.get(key, default)

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
        if isinstance(other, WatchedMap):
            other._read_all()
        return super().__eq__(other)

    def __ne__(self, other: object) -> bool:
        # its own (not the inverse of a plain map's __eq__, which reads the data unwatched)
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def updated(self, changes: Mapping[str, Any]) -> FrozenMap:
        copy = super().updated(changes)
        watched = WatchedMap.__new__(WatchedMap)
        watched._data = copy._data
        watched._hash = None
        watched._reads = self._reads
        watched._written = self._written | {str(key) for key in changes}
        return watched


def watching(state: GameState) -> tuple[GameState, Reads]:
    """A copy of `state` whose rule state notes its reads, and the reads it will note."""
    reads = Reads()
    return replace(state, rule_state=WatchedMap.over(state.rule_state, reads)), reads


def table_key(state: GameState) -> Hashable:
    """Everything of a state but its rule state, by value (a computation may read all of it)."""
    return tuple(getattr(state, name) for name in _TABLE_FIELDS)


# every field of a state but its rule state (the roster too: it names the units)
_TABLE_FIELDS = tuple(f.name for f in fields(GameState) if f.name != "rule_state")


def read_values(state: GameState, keys: tuple[str, ...]) -> Hashable:
    """The values of `keys` in the state's rule state (absent ones marked); the whole rule
    state for `ALL`."""
    rule_state = state.rule_state
    if keys is ALL:
        return rule_state
    return tuple(rule_state.get(key, _ABSENT) for key in keys)
