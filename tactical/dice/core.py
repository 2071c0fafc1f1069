"""Dice as injected values: die specs, roll records, seeded and scripted sources.

G.1: every random value is an input. A resolver never draws on its own; it is
given a `Dice` source and asks it for each roll by die, for whom and for what.
`SeededDice` draws from its own `random.Random(seed)` (never the global one),
`ScriptedDice` replays a given sequence (test vectors, saved logs), and
`tactical.dice.exact` enumerates every outcome with exact weights. All three
answer the same two questions:

- `roll(die, who=, what=) -> int` — one die;
- `fold(initial, steps, key=) -> state` — a chance process made of steps
  `step(state, dice) -> state`. Played out one step after the other here; the
  exact enumerator instead propagates a distribution over states and merges
  states whose `key` is equal (the resolver's promise: what it does next, and
  what it finally reports, depends on the state only through `key`). That is
  what keeps a nine-missile CIWS salvo polynomial instead of 10^9 leaves.

`chance(fn, key=)` is a fold of one step: a sub-roll whose result matters
only through `key(result)`.

Three shapes the exact enumerator reads without replaying (the same results, far
cheaper): a fold step that adds one die (`DieStep`: a sum of dice is convolved, G.2), a
sub-roll given as a value (`Subroll`: enumerated once per value), and a fold step whose
dice are such a sub-roll (`ChanceStep`).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, runtime_checkable

from tactical.errors import UserError
from tactical.records import field_dict

S = TypeVar("S")
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Die:
    """One physical die: its name and the value each face reads (equally likely faces).

    A D3 is a d6 read halved and rounded up (G.2): six faces reading 1,1,2,2,3,3.

    `reroll` names the values on which the die is rolled again (G.1: "reroll" consumes
    the next value of the sequence): R001.34 a destroyed chart category, T001.3 a 12.
    A recording source rolls the whole die again while it shows one of them, recording
    every roll, so that every physical sequence replays; in distribution that is one
    roll among the faces that stand, which is what the exact enumerator uses.
    """

    name: str
    values: tuple[int, ...]
    reroll: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        if self.reroll and all(value in self.reroll for value in self.values):
            raise ValueError(f"{self.name}: a die rerolled on every face never stops")

    @property
    def sides(self) -> int:
        return len(self.values)

    @property
    def low(self) -> int:
        return min(self.values)

    @property
    def high(self) -> int:
        return max(self.values)

    def weights(self) -> tuple[tuple[int, int], ...]:
        """(value, number of faces reading it) in ascending value order."""
        counts: dict[int, int] = {}
        for value in self.values:
            counts[value] = counts.get(value, 0) + 1
        return tuple(sorted(counts.items()))

    def standing_weights(self) -> tuple[tuple[int, int], ...]:
        """`weights` of the values that stand (not rerolled): the distribution of a roll."""
        return tuple((value, count) for value, count in self.weights() if value not in self.reroll)

    def standing(self) -> Die:
        """The die reduced to the faces that stand (a roll among them, no reroll)."""
        return Die(self.name, tuple(v for v in self.values if v not in self.reroll))

    def __str__(self) -> str:
        return self.name


def numbered_die(sides: int, *, zero_based: bool = False) -> Die:
    """A die numbered 1..sides, or 0..sides-1 when `zero_based` (`1d10z`, R000.1)."""
    if sides < 1:
        raise UserError(f"a die needs at least one face, not {sides}")
    if zero_based:
        return Die(f"d{sides}z", tuple(range(sides)))
    return Die(f"d{sides}", tuple(range(1, sides + 1)))


D6 = numbered_die(6)
D10 = numbered_die(10)  # read 1-10 (A001.9)
D10Z = numbered_die(10, zero_based=True)  # read 0-9 (G.2, R000.1)
D3 = Die("d3", (1, 1, 2, 2, 3, 3))  # a d6 halved, rounded up (G.2)

# Rerolls of one die in a row before a recording source rolls among the standing faces
# only (same distribution): a seeded source then always ends; a reroll of a d6 with one
# standing face runs this long once in 10^15 rolls.
MAX_REROLLS = 200


class PureSteps(tuple):
    """A fold's steps (G.1) that read nothing but the state and the dice given them: no
    setting read from around the call (such as `model.worded`). The exact enumerator
    remembers such a fold's outcomes beyond one enumeration, by its first state, key and
    these very step objects; other steps are propagated again in each enumeration."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class DieStep:
    """A fold step that rolls one die and nothing else: `then(state, value)` makes the next
    state from the die's value and rolls nothing (a die added to a sum, G.2).

    A recording source rolls it like any step; the exact enumerator reads the die's faces
    and calls `then` once per face, instead of replaying the step to find its roll: the
    same states, weights and order, at a fraction of the cost.

    `shift`, when given, is the step on the fold's keys: `key(then(state, value))` equals
    `shift(key(state), value)` (a total plus the die, say). The enumerator then convolves
    the keys with the die's faces and calls `then` only for a key not reached before.
    """

    die: Die
    then: Callable[[Any, int], Any]
    who: str = ""
    what: str = ""
    shift: Callable[[Any, int], Any] | None = None

    def __call__(self, state: Any, dice: Dice) -> Any:
        return self.then(state, dice.roll(self.die, who=self.who, what=self.what))


class Subroll(ABC):
    """A sub-roll given as a value, for `Dice.chance`: a frozen dataclass whose fields are
    everything the roll depends on, called with a dice source, with its own `key`.

    Equal sub-rolls roll alike, so the exact enumerator enumerates each once and remembers
    its outcomes (an agent weighs the same attack on many tables that differ elsewhere).
    Pass it with its own key: `dice.chance(roll, key=roll.key)`.
    """

    @abstractmethod
    def __call__(self, dice: Dice) -> Any: ...

    def key(self, outcome: Any) -> Hashable:
        """What the rest of the resolver reads of the outcome (the whole outcome here)."""
        return outcome


@dataclass(frozen=True, slots=True)
class ChanceStep:
    """A fold step whose dice are one sub-roll given as a value (`Subroll`, G.1), or none:
    `roll(state)` names the sub-roll (None when the step rolls nothing) and
    `then(state, outcome)` makes the next state from its outcome (None without a roll),
    rolling nothing itself.

    A recording source rolls it like any step (the sub-roll's dice, in their order); the
    exact enumerator reads the sub-roll's outcomes (enumerated once per value) and calls
    `then` once per outcome instead of replaying the step: the same states, weights and
    order, and the replays counted as if the sub-roll's dice were rolled in the step.

    `keys`, when given, is the step on the fold's keys (as `DieStep.shift`):
    `keys(state, key(state), outcomes)` lists `key(then(state, outcome))` for each outcome,
    in order (None stands for no roll). The enumerator then calls `then` only where a key
    is reached first: many states' outcomes meet in one key, and a key is far cheaper to
    make than a state.
    """

    roll: Callable[[Any], Subroll | None]
    then: Callable[[Any, Any], Any]
    keys: Callable[[Any, Hashable, Sequence[Any]], Sequence[Hashable]] | None = None

    def __call__(self, state: Any, dice: Dice) -> Any:
        sub = self.roll(state)
        return self.then(state, None if sub is None else dice.chance(sub, key=sub.key))


@dataclass(frozen=True, slots=True)
class Roll:
    """The record of one die rolled: for whom, for what, which die (and its faces), the result."""

    who: str
    what: str
    die: str
    faces: int
    result: int

    def as_dict(self) -> dict[str, Any]:
        """Every field by name, in order, as a log entry lists the roll."""
        return field_dict(self)


@runtime_checkable
class Dice(Protocol):
    """What a resolver may ask of a dice source (see the module docstring)."""

    def roll(self, die: Die, *, who: str = "", what: str = "") -> int: ...

    def fold(self, initial: S, steps: Steps[S], key: FoldKey[S] | None = None) -> S: ...

    def chance(self, fn: Callable[[Dice], T], key: Callable[[T], Hashable] | None = None) -> T: ...


# a fold's steps, each `step(state, dice) -> state`, and the key it merges states by
Steps = Iterable[Callable[[S, Dice], S]]
FoldKey = Callable[[S], Hashable]


class RecordingDice(ABC):
    """Base of the sources that produce one actual result per roll and record it."""

    def __init__(self) -> None:
        self._rolls: list[Roll] = []

    @property
    def rolls(self) -> tuple[Roll, ...]:
        """Every roll so far, in order."""
        return tuple(self._rolls)

    @abstractmethod
    def _draw(self, die: Die, who: str, what: str) -> int:
        """The next result for `die` (recorded by `roll`)."""

    def roll(self, die: Die, *, who: str = "", what: str = "") -> int:
        result = self._draw(die, who, what)
        self._rolls.append(Roll(who, what, die.name, die.sides, result))
        rerolls = 0
        while result in die.reroll:
            rerolls += 1
            again = die if rerolls < MAX_REROLLS else die.standing()
            result = self._draw(again, who, what)
            self._rolls.append(Roll(who, what, again.name, again.sides, result))
        return result

    def fold(self, initial: S, steps: Steps[S], key: FoldKey[S] | None = None) -> S:
        state = initial
        for step in steps:
            state = step(state, self)
        return state

    def chance(self, fn: Callable[[Dice], T], key: Callable[[T], Hashable] | None = None) -> T:
        return fn(self)


class SeededDice(RecordingDice):
    """Reproducible random dice: the same seed gives the same rolls (a private Random)."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.seed = seed
        # made at the first roll: seeding costs more than many a resolution that rolls
        # nothing (the computer players try every candidate once with seeded dice)
        self._rng: random.Random | None = None

    def _draw(self, die: Die, who: str, what: str) -> int:
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random(self.seed)
        return die.values[rng.randrange(die.sides)]


class ScriptError(UserError):
    """A scripted dice sequence that does not fit the rolls asked for (G.1)."""


class ScriptedDice(RecordingDice):
    """Results given in consumption order (G.1); an error when one is missing or impossible."""

    def __init__(self, results: Sequence[int]) -> None:
        super().__init__()
        self._results = tuple(results)
        self._next = 0

    @property
    def remaining(self) -> tuple[int, ...]:
        return self._results[self._next :]

    def _draw(self, die: Die, who: str, what: str) -> int:
        label = " ".join(part for part in (who, what) if part) or "a roll"
        if self._next >= len(self._results):
            raise ScriptError(
                f"scripted dice exhausted after {len(self._results)} results: "
                f"no result left for {die.name} ({label})",
                spec_id="G.1",
            )
        value = self._results[self._next]
        if value not in die.values:
            raise ScriptError(
                f"scripted result {value} is not a face of {die.name} "
                f"({die.low}-{die.high}) for {label}",
                spec_id="G.1",
            )
        self._next += 1
        return value
