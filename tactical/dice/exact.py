"""Exact odds from the very code that rolls (docs/architecture.md "Odds come from the same code").

`enumerate_outcomes(fn)` runs `fn(dice)` — typically a resolver followed by
the summary it reports — over every dice outcome, with exact `Fraction`
weights, and merges equal outcomes into a `Distribution`.

How: OpenSpiel-style chance nodes explored depth first by replay. `fn` is run
with a dice source that replays a prefix of results; the first roll past the
prefix stops the run and lists that die's outcomes, and each becomes a longer
prefix to replay. A `fold` (a chance process of steps over a state, see
`tactical.dice.core`) is one chance node whose outcomes are the fold's final
states: their distribution is propagated step by step, each step enumerated
the same way and states with an equal `key` merged, so independent per-missile
steps cost (states x faces) per step instead of multiplying out.

`fn` must be a pure function of the rolls it is given (resolvers are); it is
re-run once per node of the (merged) decision tree.

Two steps are read instead of replayed, with the same states, weights, order and count
of replays (so a bound refuses what it refused): a fold step that rolls one die
(`DieStep`) is called once per face, and when it says how it moves the fold's key
(`shift`: a total plus the die) only where a key is reached first, a convolution of
the sum with the die; a sub-roll given as a value (`Subroll`) is enumerated once per
value and remembered.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import gcd, lcm
from typing import Any, Generic, TypeVar

from tactical.dice.core import Dice, Die, DieStep, Subroll
from tactical.errors import UserError

S = TypeVar("S")
T = TypeVar("T")
U = TypeVar("U")

ONE = Fraction(1)
DEFAULT_MAX_NODES = 2_000_000


class TooManyOutcomes(UserError):
    """An exact enumeration that would visit more nodes than allowed."""


# --------------------------------------------------------------------------- distribution


@dataclass(frozen=True)
class Distribution(Generic[T]):
    """Outcomes with exact probabilities, in a fixed order (first reached first, or sorted)."""

    pairs: tuple[tuple[T, Fraction], ...]

    @classmethod
    def certain(cls, outcome: T) -> Distribution[T]:
        return cls(((outcome, ONE),))

    @classmethod
    def from_weights(cls, weights: Iterable[tuple[T, Fraction | int]]) -> Distribution[T]:
        """Merge equal outcomes and normalise the weights to probabilities."""
        merged: dict[Any, Fraction] = {}
        for outcome, weight in weights:
            merged[outcome] = merged.get(outcome, Fraction(0)) + Fraction(weight)
        total = sum(merged.values())  # 0 when there are no weights
        if total <= 0:
            raise ValueError("a distribution needs a positive total weight")
        return cls(tuple((outcome, weight / total) for outcome, weight in merged.items()))

    def __iter__(self) -> Iterator[tuple[T, Fraction]]:
        return iter(self.pairs)

    def __len__(self) -> int:
        return len(self.pairs)

    @property
    def outcomes(self) -> tuple[T, ...]:
        return tuple(outcome for outcome, _ in self.pairs)

    def as_dict(self) -> dict[T, Fraction]:
        return dict(self.pairs)

    @property
    def total(self) -> Fraction:
        return sum((p for _, p in self.pairs), Fraction(0))

    def probability(self, outcome: T) -> Fraction:
        """P(outcome); 0 for an outcome that cannot happen."""
        for candidate, p in self.pairs:
            if candidate == outcome:
                return p
        return Fraction(0)

    def where(self, predicate: Callable[[T], bool]) -> Fraction:
        """P(predicate(outcome))."""
        return sum((p for outcome, p in self.pairs if predicate(outcome)), Fraction(0))

    def map(self, fn: Callable[[T], U]) -> Distribution[U]:
        """The distribution of fn(outcome), equal images merged (first-reached order kept)."""
        return Distribution.from_weights((fn(outcome), p) for outcome, p in self.pairs)

    def expected(self, fn: Callable[[T], Fraction | int] | None = None) -> Fraction:
        """E[fn(outcome)] (E[outcome] for numeric outcomes)."""
        value = fn or (lambda outcome: outcome)
        return sum((Fraction(value(outcome)) * p for outcome, p in self.pairs), Fraction(0))

    def sorted(self, key: Callable[[T], Any] | None = None) -> Distribution[T]:
        order = key or (lambda outcome: outcome)
        return Distribution(tuple(sorted(self.pairs, key=lambda pair: order(pair[0]))))

    def rows(self, name: str = "outcome") -> list[dict[str, Any]]:
        """JSON rows: {name: outcome, "probability": "a/b", "percent": float}."""
        return [
            {name: outcome, "probability": fraction_text(p), "percent": percent(p)}
            for outcome, p in self.pairs
        ]


def fraction_text(value: Fraction) -> str:
    """'3/10', '1' or '0': exact and JSON-safe."""
    value = Fraction(value)
    return (
        str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    )


def percent(value: Fraction, places: int = 4) -> float:
    """A probability as a percentage, rounded for display (the fraction stays exact)."""
    return round(float(Fraction(value) * 100), places)


# --------------------------------------------------------------------------- enumeration


class _Branch(BaseException):
    """Raised by the replaying source at the first chance node past its prefix.

    `options` are (outcome, numerator, denominator) in integers: products of
    small integers are much cheaper than Fraction arithmetic on every node.
    A BaseException so that a resolver's own `except Exception` cannot swallow it.
    """

    def __init__(self, options: tuple[tuple[Any, int, int], ...]) -> None:
        super().__init__()
        self.options = options


@lru_cache(maxsize=256)
def _die_options(die: Die) -> tuple[tuple[int, int, int], ...]:
    """A die's outcomes: a die rerolled on some values is one roll among the others."""
    standing = die.standing_weights()
    sides = sum(count for _, count in standing)
    return tuple((value, count, sides) for value, count in standing)


def _as_options(pairs: tuple[tuple[Any, Fraction], ...]) -> tuple[tuple[Any, int, int], ...]:
    return tuple((value, p.numerator, p.denominator) for value, p in pairs)


class _Replay:
    """A dice source that replays a prefix of chance outcomes, then branches."""

    __slots__ = ("_max_nodes", "_pos", "_prefix")

    def __init__(self, prefix: tuple[Any, ...], max_nodes: int) -> None:
        self._prefix = prefix
        self._pos = 0
        self._max_nodes = max_nodes

    def roll(self, die: Die, **_labels: str) -> int:
        # the labels (who, what) name a roll in a record; a replay records nothing
        pos = self._pos
        if pos < len(self._prefix):
            self._pos = pos + 1
            return self._prefix[pos]
        raise _Branch(_die_options(die))

    def fold(
        self,
        initial: S,
        steps: Iterable[Callable[[S, Dice], S]],
        key: Callable[[S], Hashable] | None = None,
    ) -> S:
        pos = self._pos
        if pos < len(self._prefix):
            self._pos = pos + 1
            return self._prefix[pos]
        raise _Branch(_as_options(_fold_distribution(initial, steps, key, self._max_nodes)))

    def chance(self, fn: Callable[[Dice], T], key: Callable[[T], Hashable] | None = None) -> T:
        pos = self._pos
        if pos < len(self._prefix):
            self._pos = pos + 1
            return self._prefix[pos]
        if isinstance(fn, Subroll) and (key is None or getattr(key, "__self__", None) is fn):
            raise _Branch(_subroll_options(fn, key is not None, self._max_nodes))
        raise _Branch(_as_options(_enumerate(fn, key, self._max_nodes)))


# The outcomes of sub-rolls given as values (`Subroll`), by value, with the largest count of
# replays any enumeration made while finding them (its own, or one nested in it): a bound
# below that refuses the sub-roll, as enumerating it again would
_SUBROLLS: dict[tuple[Subroll, bool], tuple[tuple[tuple[Any, int, int], ...], int]] = {}
MAX_SUBROLLS = 1024


class _Peak(threading.local):
    """The largest count of replays of the enumerations finished so far in this thread (one,
    or a fold's steps together), where a sub-roll's enumeration reads what it needed."""

    value = 0


_PEAK = _Peak()


def _subroll_options(
    roll: Subroll, keyed: bool, max_nodes: int
) -> tuple[tuple[Any, int, int], ...]:
    """A sub-roll's outcomes, enumerated once per value; a bound below the replays it needed
    refuses it as the enumeration itself would (TooManyOutcomes)."""
    slot = (roll, keyed)
    found = _SUBROLLS.get(slot)
    if found is None:
        before, _PEAK.value = _PEAK.value, 0
        try:
            parts = _enumerate_parts(roll, roll.key if keyed else None, max_nodes)
            needed = _PEAK.value
        finally:
            _PEAK.value = max(before, _PEAK.value)
        options = _as_options(
            tuple(
                (outcome, sum(Fraction(n, d) for d, n in weights.items()))
                for outcome, weights in parts.values()
            )
        )
        if len(_SUBROLLS) >= MAX_SUBROLLS:
            _SUBROLLS.clear()
        found = _SUBROLLS[slot] = (options, needed)
    options, needed = found
    _PEAK.value = max(_PEAK.value, needed)
    if needed > max_nodes:
        raise _too_many(max_nodes)
    return options


def _too_many(max_nodes: int) -> TooManyOutcomes:
    return TooManyOutcomes(
        f"exact odds would need more than {max_nodes} replays; "
        "ask about fewer dice or a coarser outcome"
    )


def _enumerate_parts(
    fn: Callable[[Dice], T],
    key: Callable[[T], Hashable] | None,
    max_nodes: int,
    spent: list[int] | None = None,
) -> dict[Hashable, tuple[Any, dict[int, int]]]:
    """Depth-first replay; outcomes merged by key (first representative kept), in reach order.

    Each slot maps to its representative and its weight as {denominator: numerator}
    integer sums: products of small integers are far cheaper than Fraction
    arithmetic, so callers make Fractions (or common-denominator integers) once.
    `spent`, if given, is a running count of replays shared with the caller (a fold
    bounds all its steps' replays together) and is added to.
    """
    parts: dict[Hashable, tuple[Any, dict[int, int]]] = {}
    stack: list[tuple[tuple[Any, ...], int, int]] = [((), 1, 1)]
    nodes = 0 if spent is None else spent[0]
    while stack:
        prefix, numerator, denominator = stack.pop()
        nodes += 1
        if nodes > max_nodes:
            raise _too_many(max_nodes)
        try:
            outcome = fn(_Replay(prefix, max_nodes))  # type: ignore[arg-type]
        except _Branch as branch:
            for value, count, sides in reversed(branch.options):
                stack.append(((*prefix, value), numerator * count, denominator * sides))
            continue
        slot = outcome if key is None else key(outcome)
        entry = parts.get(slot)
        if entry is None:
            parts[slot] = (outcome, {denominator: numerator})
        else:
            by_denominator = entry[1]
            by_denominator[denominator] = by_denominator.get(denominator, 0) + numerator
    if spent is not None:
        spent[0] = nodes
    _PEAK.value = max(_PEAK.value, nodes)
    return parts


_START = object()  # the key of a fold's initial state, before any step has made one


def _die_step_layer(
    step: DieStep,
    current: dict[Hashable, list[Any]],
    key: Callable[[Any], Hashable] | None,
    max_nodes: int,
    spent: list[int],
) -> tuple[dict[Hashable, list[Any]], int]:
    """The next layer of a fold after a step that rolls one die (`DieStep`), and the
    scale of its weights, without replaying the step: `then` once per state and face,
    in the order replays reach them, so the same states stand for each key with the same
    weights; the replays are counted as if made (one meeting the die, one per face).
    A convolution of the layer with the die: a sum of dice costs states x faces calls."""
    options = _die_options(step.die)
    sides = options[0][2]  # every face of one die over the same number of faces
    then, shift = step.then, step.shift
    following: dict[Hashable, list[Any]] = {}
    nodes = spent[0]
    if shift is not None and key is not None:
        # keys convolved with the faces: `then` only where a key is reached first
        for name, (state, weight) in current.items():
            if name is _START:
                name = key(state)  # the first layer: its one state, by its key
            nodes += 1 + len(options)
            if nodes > max_nodes:
                raise _too_many(max_nodes)
            for value, count, _ in options:
                slot = shift(name, value)
                entry = following.get(slot)
                if entry is None:
                    following[slot] = [then(state, value), weight * count]
                else:
                    entry[1] += weight * count
        spent[0] = nodes
        _PEAK.value = max(_PEAK.value, nodes)
        return following, sides
    for state, weight in current.values():
        nodes += 1 + len(options)
        if nodes > max_nodes:
            raise _too_many(max_nodes)
        for value, count, _ in options:
            outcome = then(state, value)
            slot = outcome if key is None else key(outcome)
            entry = following.get(slot)
            if entry is None:
                following[slot] = [outcome, weight * count]
            else:
                entry[1] += weight * count
    spent[0] = nodes
    _PEAK.value = max(_PEAK.value, nodes)
    return following, sides


def _enumerate(
    fn: Callable[[Dice], T], key: Callable[[T], Hashable] | None, max_nodes: int
) -> tuple[tuple[T, Fraction], ...]:
    """`_enumerate_parts` with each outcome's weight as one exact Fraction."""
    return tuple(
        (outcome, sum(Fraction(n, d) for d, n in weights.items()))  # never empty
        for outcome, weights in _enumerate_parts(fn, key, max_nodes).values()
    )


def _replayed_layer(
    step: Callable[[Any, Dice], Any],
    current: dict[Hashable, list[Any]],
    key: Callable[[Any], Hashable] | None,
    max_nodes: int,
    spent: list[int],
) -> tuple[dict[Hashable, list[Any]], int]:
    """The next layer of a fold (states merged by key, integer weights) and the scale of its
    weights: each state's step enumerated by replay."""
    layer = [
        (
            weight,
            _enumerate_parts(lambda dice, state=state: step(state, dice), key, max_nodes, spent),
        )
        for state, weight in current.values()
    ]
    scale = lcm(
        *(
            part_denominator
            for _, parts in layer
            for _, weights in parts.values()
            for part_denominator in weights
        )
    )
    following: dict[Hashable, list[Any]] = {}
    for weight, parts in layer:
        for name, (result, weights) in parts.items():
            numerator = weight * sum(n * (scale // d) for d, n in weights.items())
            entry = following.get(name)
            if entry is None:
                following[name] = [result, numerator]
            else:
                entry[1] += numerator
    return following, scale


def _fold_distribution(
    initial: S,
    steps: Iterable[Callable[[S, Dice], S]],
    key: Callable[[S], Hashable] | None,
    max_nodes: int,
) -> tuple[tuple[S, Fraction], ...]:
    """Propagate a distribution over states through the steps, merging states by key.

    The weights of a layer are integer numerators over one shared denominator (the
    previous layer's, times the lcm of the denominators this step's enumerations
    reached), reduced by the numerators' common gcd after each step: exact, and far
    cheaper than Fraction arithmetic (a gcd per operation); Fractions are only made
    for the final states.
    Each step's enumeration already computes the key of every state it reaches,
    and those keys are reused for the merge rather than computed again.
    `max_nodes` bounds the replays of every step together: a key that merges too
    little makes the states multiply from step to step, and the fold must fail with
    TooManyOutcomes long before it fills the memory.
    """
    # the states reached by key: [a state standing for them, their weight]
    current: dict[Hashable, list[Any]] = {_START: [initial, 1]}
    denominator = 1
    spent = [0]
    for step in steps:
        if isinstance(step, DieStep):
            following, scale = _die_step_layer(step, current, key, max_nodes, spent)
        else:
            following, scale = _replayed_layer(step, current, key, max_nodes, spent)
        denominator *= scale
        # the numerators sum to the denominator, so their gcd divides it too
        common = gcd(*(entry[1] for entry in following.values()))
        denominator //= common
        for entry in following.values():
            entry[1] //= common
        current = following
    return tuple((state, Fraction(weight, denominator)) for state, weight in current.values())


def enumerate_outcomes(
    fn: Callable[[Dice], T],
    *,
    key: Callable[[T], Hashable] | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
) -> Distribution[T]:
    """The exact distribution of `fn(dice)` over every dice outcome.

    `key` merges outcomes that are equal under it (the first one reached
    stands for all); without it outcomes must be hashable and are compared
    whole. `max_nodes` bounds the replays (TooManyOutcomes beyond it).
    """
    return Distribution(_enumerate(fn, key, max_nodes))


def fold_outcomes(
    initial: S,
    steps: Iterable[Callable[[S, Dice], S]],
    *,
    key: Callable[[S], Hashable] | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
) -> Distribution[S]:
    """The exact distribution of the final state of a fold (see `Dice.fold`)."""
    return Distribution(_fold_distribution(initial, steps, key, max_nodes))
