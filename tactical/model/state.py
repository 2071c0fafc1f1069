"""The state of a table: what a map file holds, plus what play adds later."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from functools import cached_property

from tactical.model.board import Board
from tactical.model.frozen import FrozenMap, kept_hash, without_kept_hash
from tactical.model.units import Terrain, Unit, numbered_names, terrain_names


@dataclass(frozen=True)
class GameState:
    """Board, terrain and units under one rule system. Immutable: every change makes a new one."""

    rules: str
    board: Board
    title: str = ""
    options: FrozenMap = field(default_factory=FrozenMap)
    terrain: tuple[Terrain, ...] = ()
    units: tuple[Unit, ...] = ()
    # what a rule system tracks beyond the units (initiative bonuses, range band,
    # per-turn budgets...): plain values under keys the system documents. Maps
    # start with none; saved games keep it.
    rule_state: FrozenMap = field(default_factory=FrozenMap)
    # every unit's id and name since play began, in the map's order, those removed in play
    # too (filled at the first removal: until then the units are the whole roster; a unit
    # deleted by hand leaves it, `struck_off`). Units sharing a name are numbered from it
    # (`shown_names`), so a number never changes. Not part of what a table is (equality,
    # hashing): a map saved and loaded again is equal.
    roster: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    def unit(self, unit_id: str) -> Unit:
        """The unit with this id; KeyError if there is none."""
        found = self._units_by_id.get(unit_id)
        if found is None:
            raise KeyError(unit_id)
        return found

    def has_unit(self, unit_id: str) -> bool:
        return unit_id in self._units_by_id

    def unit_or_none(self, unit_id: str) -> Unit | None:
        """The unit with this id, None if there is none (one lookup for `has_unit` and `unit`)."""
        return self._units_by_id.get(unit_id)

    @cached_property
    def _units_by_id(self) -> dict[str, Unit]:
        """The units by id, the first of an id where a table lists it twice (the agents
        ask a state hundreds of thousands of times a game whether a unit is on it)."""
        found: dict[str, Unit] = {}
        for unit in self.units:
            found.setdefault(unit.id, unit)
        return found

    def terrain_piece(self, terrain_id: str) -> Terrain:
        for piece in self.terrain:
            if piece.id == terrain_id:
                return piece
        raise KeyError(terrain_id)

    def __hash__(self) -> int:
        """The hash of what a table is (every field but the roster), worked out once."""
        return kept_hash(self, _HASHED)

    def __getstate__(self) -> dict[str, object]:
        return without_kept_hash(self)

    def replace_unit(self, unit: Unit) -> GameState:
        """A copy with the unit of the same id replaced. Made field by field rather than
        through `dataclasses.replace` (a resolver replaces a unit after every roll the
        computer players enumerate); the units by id carried over with the one changed."""
        if not self.has_unit(unit.id):
            raise KeyError(unit.id)
        units = tuple(unit if u.id == unit.id else u for u in self.units)
        if type(self) is not GameState:  # a subclass may hold more: the long way
            return replace(self, units=units)
        mine = self.__dict__
        copy = object.__new__(GameState)
        made = copy.__dict__
        for name in _FIELDS:
            made[name] = mine[name]
        made["units"] = units
        by_id = dict(self._units_by_id)
        by_id[unit.id] = unit  # every unit of that id is the new one: the first too
        made["_units_by_id"] = by_id
        return copy

    def without_unit(self, unit_id: str) -> GameState:
        """A copy without that unit; the roster keeps it (and its number, `shown_names`)."""
        return replace(
            self,
            units=tuple(u for u in self.units if u.id != unit_id),
            roster=self._full_roster(),
        )

    def struck_off(self, unit_id: str) -> GameState:
        """A copy without that unit and off the roster: a unit deleted by hand (setting up or
        adjusting the table) was a correction, not a loss, so its siblings' numbers close up
        (`shown_names`). A unit removed in play goes by `without_unit`."""
        return replace(
            self,
            units=tuple(u for u in self.units if u.id != unit_id),
            roster=tuple(entry for entry in self.roster if entry[0] != unit_id),
        )

    def _full_roster(self) -> tuple[tuple[str, str], ...]:
        """The roster, each unit on the table under its name now (renamed by hand), and after
        it in their order the units not on it yet."""
        if not self.roster:
            return tuple((u.id, u.name) for u in self.units)
        current = {u.id: u.name for u in self.units}
        kept = tuple((unit_id, current.get(unit_id, name)) for unit_id, name in self.roster)
        listed = {unit_id for unit_id, _ in self.roster}
        return kept + tuple((u.id, u.name) for u in self.units if u.id not in listed)

    @cached_property
    def shown_names(self) -> dict[str, str]:
        """Each unit's name as a player reads it, by id (units removed in play included):
        its own name, numbered where two or more units of the roster share it ("Attacker
        Class Frigate 1", "... 2", in the roster's order, so a unit keeps its number when
        a sibling is destroyed, and in a replay; a number that would read as another
        unit's own name is skipped; a name already ending in a number takes its own in
        brackets, "Ship 1 (2)", not "Ship 1 2"); its id when it has no name."""
        # a pure function of the roster and the units' ids and names, which most states
        # share with the one they came from (a roll changes a unit's stats): worked out once
        # for them, each state given its own copy
        key = (self.roster, tuple([(u.id, u.name) for u in self.units]))
        try:
            found = _SHOWN.get(key)
        except TypeError:  # a roster or name that is no value (never made so): the long way
            return self._shown_names()
        if found is None:
            found = self._shown_names()
            if len(_SHOWN) >= MAX_SHOWN:
                _SHOWN.clear()
            _SHOWN[key] = found
        return dict(found)

    def _shown_names(self) -> dict[str, str]:
        """`shown_names` worked out."""
        roster = self._full_roster()
        names = numbered_names([(unit_id, name) for unit_id, name in roster if name])
        return {unit_id: names.get(unit_id, unit_id) for unit_id, _ in roster}

    @cached_property
    def shown_terrain_names(self) -> dict[str, str]:
        """Each terrain piece's name as a player reads it, by id (`terrain_names`: its own
        name, else its kind in words and a number, never its id)."""
        return terrain_names(self.terrain)

    def with_rule_state(self, **changes: object) -> GameState:
        """A copy with some rule-state keys set. Made field by field rather than through
        `dataclasses.replace` (a resolver sets its rule state after every roll the computer
        players enumerate), and the same table keeps what was worked out from its units,
        terrain and roster (`TABLE_CACHES`): none of them changed."""
        current = self.rule_state
        if not isinstance(current, FrozenMap):  # built by hand with a plain mapping
            current = FrozenMap(current)
        if type(self) is not GameState:  # a subclass may hold more: the long way
            return replace(self, rule_state=current.updated(changes))
        mine = self.__dict__
        copy = object.__new__(GameState)
        made = copy.__dict__
        for name in _FIELDS:
            made[name] = mine[name]
        made["rule_state"] = current.updated(changes)
        for known in TABLE_CACHES:
            if known in mine:
                made[known] = mine[known]
        return copy

    def with_terrain(self, terrain: tuple[Terrain, ...]) -> GameState:
        return replace(self, terrain=tuple(terrain))

    @property
    def sides(self) -> tuple[str, ...]:
        """Sides in order of first appearance."""
        seen: dict[str, None] = {}
        for unit in self.units:
            seen.setdefault(unit.side, None)
        return tuple(seen)


_FIELDS = tuple(f.name for f in fields(GameState))
# the fields a state's equality and hash compare (the roster is not one), in order
_HASHED = tuple(f.name for f in fields(GameState) if f.compare)
# the names players read (`GameState.shown_names`) by the roster and the units' ids and
# names, bounded; the entries are never handed out, only copies
_SHOWN: dict[tuple[object, ...], dict[str, str]] = {}
MAX_SHOWN = 64
# what a state works out from its units, terrain and roster only (its cached properties):
# a copy with another rule state keeps them (`GameState.with_rule_state`)
TABLE_CACHES = ("_units_by_id", "shown_names", "shown_terrain_names")
