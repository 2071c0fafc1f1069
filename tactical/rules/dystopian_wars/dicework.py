"""Dice of seed 002 (R002.1) and the base game's dice mechanics (external, G.5).

Every function takes an injected `Dice` and is written so that the exact
enumerator can run it: loops that could re-roll for ever are bounded (with a
documented fallback), and pools are folds whose keys keep only what the outcome
depends on.

- `d6`, `two_d6`, `d3`: R002.1 (`1D3` is a d6 halved, rounded up: G.2).
- `attack_pool`: Attack Dice with exploding 6s (schema docstring); the pool stops
  re-rolling 6s once its hits reach `enough` (no outcome depends on more), so the
  process is finite and exactly enumerable. The first throw of all the dice is
  always rolled in full.
- `critical_roll`: 2D6 on the Critical Hit Table -> an opaque code `critical-N`.
- `roll_off`: both sides roll 1D6, ties re-rolled (A002.6, and the base game's
  initiative); after `ROLL_OFF_LIMIT` ties in a row a last 1D6 decides (1-3 the
  first side), which keeps the odds exactly symmetric.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from tactical.dice import D3, D6, Dice, Die
from tactical.dice.core import ChanceStep, DieStep, PureSteps, Subroll
from tactical.rules.base import Event
from tactical.rules.dystopian_wars.criticals import critical_name

ROLL_OFF_LIMIT = 20
UNTIL_CLEAR_LIMIT = 40  # attempts of "re-roll until neither Double 1 nor Double 6"


def d6(dice: Dice, who: str, what: str, spec_id: str = "R002.1") -> tuple[int, Event]:
    """One 1D6 and its event."""
    value = dice.roll(D6, who=who, what=what)
    return value, Event.of("roll", spec_id, who=who, what=what, die="1D6", result=value)


def d3(dice: Dice, who: str, what: str, spec_id: str = "R002.1") -> tuple[int, Event]:
    """One 1D3 (a d6 halved, rounded up) and its event."""
    value = dice.roll(D3, who=who, what=what)
    return value, Event.of("roll", spec_id, who=who, what=what, die="1D3", result=value)


@dataclass(frozen=True, slots=True)
class TwoDice:
    """A 2D6 roll: both dice and the total (R002.1)."""

    first: int
    second: int

    @property
    def total(self) -> int:
        return self.first + self.second

    @property
    def double(self) -> int | None:
        """The face of a double ("Double 1" / "Double 6"), None when the dice differ."""
        return self.first if self.first == self.second else None


def two_d6(dice: Dice, who: str, what: str, spec_id: str = "R002.1") -> tuple[TwoDice, Event]:
    """One 2D6 roll and its event (R002.1)."""
    first = dice.roll(D6, who=who, what=f"{what} (first die)")
    second = dice.roll(D6, who=who, what=f"{what} (second die)")
    roll = TwoDice(first, second)
    event = Event.of(
        "roll", spec_id, who=who, what=what, die="2D6", dice=(first, second), result=roll.total
    )
    return roll, event


# --------------------------------------------------------------------------- attack dice


@dataclass(frozen=True, slots=True)
class PoolRules:
    """How Attack Dice score (external defaults in the schema): hit on `hit_on`+, a 6 is
    `six_hits` hits and, when `exploding`, rolls one more die."""

    hit_on: int = 4
    six_hits: int = 2
    exploding: bool = True

    def hits(self, face: int) -> int:
        if face == 6:
            return self.six_hits
        return 1 if face >= self.hit_on else 0


@dataclass(frozen=True, slots=True)
class PoolState:
    """A pool being rolled: hits so far, 6s still to re-roll, and the faces rolled (the first
    throw, then the exploding dice)."""

    hits: int
    pending: int
    faces: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Pool:
    """A rolled pool: its hits, the faces and one event per die."""

    hits: int
    faces: tuple[int, ...]
    events: tuple[Event, ...]


def attack_pool(
    dice_count: int,
    rules: PoolRules,
    enough: int,
    dice: Dice,
    *,
    who: str = "",
    what: str = "attack dice",
    spec_id: str = "G.5",
    words: bool = True,
) -> Pool:
    """Roll `dice_count` Attack Dice; 6s explode while the hits are below `enough`
    (`words=False`: the same dice and hits, no events).

    The fold's key is (hits capped at `enough`, 6s still pending while below it),
    which is all the rest of the roll and the outcome depend on.
    """
    steps, key = pool_steps(dice_count, rules, enough, who, what)
    rolled = dice.fold(PoolState(0, 0, ()), steps, key=key)
    if not words:
        return Pool(rolled.hits, rolled.faces, ())
    events = _pool_events(rolled.faces, dice_count, rules, who, what, spec_id)
    return Pool(rolled.hits, rolled.faces, events)


def pool_steps(
    dice_count: int, rules: PoolRules, enough: int, who: str, what: str
) -> tuple[tuple[Callable[[PoolState, Dice], PoolState], ...], Callable[[PoolState], Any]]:
    """The fold steps and key `attack_pool` rolls `dice_count` Attack Dice by (G.5)."""
    return _pool_steps(dice_count, rules, max(1, enough), who, what)


@dataclass(frozen=True, slots=True)
class OneDie(Subroll):
    """One die and the labels it is rolled with, as a value (a fold step's dice,
    `ChanceStep`, G.1)."""

    die: Die
    who: str
    what: str

    def __call__(self, dice: Dice) -> int:
        return dice.roll(self.die, who=self.who, what=self.what)


@lru_cache(maxsize=1024)
def _pool_steps(
    dice_count: int, rules: PoolRules, enough: int, who: str, what: str
) -> tuple[tuple[Callable[[PoolState, Dice], PoolState], ...], Callable[[PoolState], Any]]:
    """`attack_pool`'s fold steps and key (G.5), made once per pool: the exact enumerator replays
    the roll once per outcome it reaches, each replay asking for the same steps (and the
    same step objects let an enumeration remember the layers they made, `remembering`)."""

    def key(pool: PoolState) -> tuple[int, int]:
        capped = min(pool.hits, enough)
        return capped, (pool.pending if pool.hits < enough else 0)

    def thrown(pool: PoolState, face: int) -> PoolState:
        pending = pool.pending + (1 if face == 6 and rules.exploding else 0)
        return PoolState(pool.hits + rules.hits(face), pending, (*pool.faces, face))

    shifted, exploded_keys = _pool_keys(rules, enough)

    def first_throw(index: int) -> DieStep:
        # a die always rolled, its face added to the pool: the exact enumerator convolves
        # the keys with its faces (the same states, weights and order as replaying it)
        return DieStep(D6, thrown, who=who, what=f"{what}: die {index}", shift=shifted)

    def exploded(pool: PoolState, face: int | None) -> PoolState:
        if face is None:  # no 6 left to re-roll, or enough hits already
            return pool
        pending = pool.pending - 1 + (1 if face == 6 else 0)
        return PoolState(pool.hits + rules.hits(face), pending, (*pool.faces, face))

    def explosion(index: int) -> ChanceStep:
        # a die rolled only while a 6 is pending below `enough`: the exact enumerator reads
        # the die once and calls `exploded` per state and face (the same states, weights,
        # order and count of replays as replaying the step)
        die = OneDie(D6, who, f"{what}: exploding die {index}")

        def roll(pool: PoolState) -> OneDie | None:
            return die if pool.pending and pool.hits < enough else None

        return ChanceStep(roll, exploded, exploded_keys)

    # every 6 adds at least one hit, so below `enough` there are fewer than `enough` of them
    explosions = enough if rules.exploding else 0
    steps = [first_throw(i + 1) for i in range(dice_count)]
    steps += [explosion(i + 1) for i in range(explosions)]
    # the steps read only the pool and the dice: the exact enumerator remembers the pool's
    # outcomes for every attack rolling it (whatever the target's Hull Points left)
    return PureSteps(steps), key


@lru_cache(maxsize=256)
def _pool_keys(
    rules: PoolRules, enough: int
) -> tuple[
    Callable[[tuple[int, int], int], tuple[int, int]],
    Callable[[PoolState, tuple[int, int], Sequence[int | None]], Sequence[tuple[int, int]]],
]:
    """The steps of `_pool_steps`'s folds on their keys (G.5): a die thrown (`DieStep.shift`)
    and an exploding die (`ChanceStep.keys`), each key's row of faces worked out once per
    pool rules and `enough` (the enumerator asks them for every key and face of every layer
    of every pool's fold, and pools of any size share them)."""
    full = (enough, 0)

    def shift(name: tuple[int, int], face: int) -> tuple[int, int]:
        capped, pending = name
        if capped >= enough:
            return full
        hits = capped + rules.hits(face)
        pending += 1 if face == 6 and rules.exploding else 0
        return min(hits, enough), (pending if hits < enough else 0)

    thrown_rows: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}

    def shifted(name: tuple[int, int], face: int) -> tuple[int, int]:
        """`key` of a die thrown, from the key before it (`DieStep.shift`)."""
        row = thrown_rows.get(name)
        if row is None:
            row = thrown_rows[name] = tuple(shift(name, value) for value in range(7))
        return row[face] if 0 <= face < 7 else shift(name, face)

    exploded_rows: dict[tuple[int, int], tuple[Sequence[int | None], tuple[tuple[int, int], ...]]]
    exploded_rows = {}

    def exploded_keys(
        pool: PoolState, name: tuple[int, int], faces: Sequence[int | None]
    ) -> Sequence[tuple[int, int]]:
        """`key` of `exploded` for each face (`ChanceStep.keys`), from the key before it: a
        pool that rolls holds fewer hits than `enough`, so its key is its hits and 6s
        pending; one that rolls nothing (`None`) stays as it was."""
        row = exploded_rows.get(name)
        if row is not None and row[0] == faces:
            return row[1]
        found = []
        for face in faces:
            if face is None:  # nothing rolled: the pool as it was
                found.append(name)
                continue
            hits = pool.hits + rules.hits(face)
            pending = pool.pending - 1 + (1 if face == 6 else 0)
            found.append((min(hits, enough), pending if hits < enough else 0))
        made = tuple(found)
        if pool.pending and pool.hits < enough:  # the key is the pool's numbers exactly
            exploded_rows[name] = (tuple(faces), made)
        return made

    return shifted, exploded_keys


@lru_cache(maxsize=1024)
def _pool_events(
    faces: tuple[int, ...], dice_count: int, rules: PoolRules, who: str, what: str, spec_id: str
) -> tuple[Event, ...]:
    """One event per die rolled (G.5): a pure function of the faces and the labels, asked
    again for the same faces by every later roll of an attack the exact odds enumerate."""
    return tuple(
        Event.of(
            "roll",
            spec_id,
            who=who,
            what=f"{what}: die {index + 1 if index < dice_count else f'x{index + 1 - dice_count}'}",
            die="1D6",
            result=face,
            hits=rules.hits(face),
        )
        for index, face in enumerate(faces)
    )


def linked_share(dice_count: int, rounding: str) -> int:
    """A002.17 (external): a linked model's contribution, half its AD rounded down (or up)."""
    return math.ceil(dice_count / 2) if rounding == "up" else dice_count // 2


# --------------------------------------------------------------------------- critical hits


def critical_code(total: int) -> str:
    """The Critical Hit Table entry for a 2D6 total, as an opaque code (external, G.5)."""
    return f"critical-{total}"


@dataclass(frozen=True, slots=True)
class CriticalRoll:
    total: int
    code: str
    events: tuple[Event, ...]


def critical_roll(
    dice: Dice, who: str, spec_id: str = "R002.1", *, words: bool = True
) -> CriticalRoll:
    """2D6 on the Critical Hit Table (external) -> `critical-N` (`words=False`: the same
    dice and code, no events)."""
    if not words:
        first = dice.roll(D6, who=who, what="Critical Hit Table (first die)")
        total = first + dice.roll(D6, who=who, what="Critical Hit Table (second die)")
        return CriticalRoll(total, critical_code(total), ())
    roll, event = two_d6(dice, who, "Critical Hit Table", spec_id)
    return _looked_up(roll.total, (event,))


def _looked_up(total: int, events: tuple[Event, ...]) -> CriticalRoll:
    """The Critical Hit Table's entry for a 2D6 total, after the events that rolled it."""
    code = critical_code(total)
    lookup = Event.of(
        "lookup",
        "G.5",
        table="Critical Hit Table",
        total=total,
        result=code,
        name=critical_name(code),
    )
    return CriticalRoll(total, code, (*events, lookup))


def critical_roll_rerolling_doubles(
    dice: Dice, who: str, mode: str, spec_id: str = "R002.46"
) -> CriticalRoll:
    """T002.8 / R002.46: 2D6 on the Critical Hit Table, re-rolling Double 1 and Double 6.

    `mode` "once": a re-rolled result stands; "until-clear": re-roll until neither
    double shows (bounded at `UNTIL_CLEAR_LIMIT` attempts, whose last result stands).
    The attempts are a fold keyed on the result so far (None while re-rolling).
    """
    attempts = 2 if mode == "once" else UNTIL_CLEAR_LIMIT

    def attempt(number: int):
        def step(found: CriticalRoll, source: Dice) -> CriticalRoll:
            if found.code:
                return found
            roll, event = two_d6(source, who, f"Critical Hit Table (attempt {number})", spec_id)
            if roll.double in (1, 6) and number < attempts:
                reroll = Event.of("reroll", spec_id, who=who, double=roll.double)
                return CriticalRoll(roll.total, "", (*found.events, event, reroll))
            return _looked_up(roll.total, (*found.events, event))

        return step

    steps = [attempt(n) for n in range(1, attempts + 1)]
    return dice.fold(CriticalRoll(0, "", ()), steps, key=lambda c: c.code)


# --------------------------------------------------------------------------- roll-offs


@dataclass(frozen=True, slots=True)
class RollOff:
    winner: str
    rolls: tuple[tuple[int, int], ...]
    events: tuple[Event, ...]


def roll_off(
    dice: Dice, first: str, second: str, what: str, spec_id: str, *, die_name: str = "1D6"
) -> RollOff:
    """Both sides roll (`die_name` "1D6" or "2D6"), the higher wins; ties re-roll (A002.6).

    The attempts are a fold keyed on the winner so far ("" while tied), so the exact
    odds merge every tie instead of following each one."""

    def total(source: Dice, side: str, label: str) -> tuple[int, Event]:
        if die_name == "2D6":
            roll, event = two_d6(source, side, label, spec_id)
            return roll.total, event
        return d6(source, side, label, spec_id)

    def attempt(number: int):
        def step(off: RollOff, source: Dice) -> RollOff:
            if off.winner:
                return off
            label = f"{what} (attempt {number})"
            ours, event_1 = total(source, first, label)
            theirs, event_2 = total(source, second, label)
            rolls = (*off.rolls, (ours, theirs))
            if ours == theirs:
                tie = Event.of("tie", "A002.6", what=what, rolls=(ours, theirs))
                return RollOff("", rolls, (*off.events, event_1, event_2, tie))
            winner = first if ours > theirs else second
            done = Event.of("roll-off", spec_id, what=what, rolls=(ours, theirs), winner=winner)
            return RollOff(winner, rolls, (*off.events, event_1, event_2, done))

        return step

    def tie_break(off: RollOff, source: Dice) -> RollOff:
        if off.winner:
            return off
        value, event = d6(source, first, f"{what} (tie-break)", spec_id)
        winner = first if value <= 3 else second
        done = Event.of("roll-off", spec_id, what=what, tie_break=value, winner=winner)
        return RollOff(winner, off.rolls, (*off.events, event, done))

    steps = [attempt(n) for n in range(1, ROLL_OFF_LIMIT + 1)] + [tie_break]
    return dice.fold(RollOff("", (), ()), steps, key=lambda off: off.winner)
