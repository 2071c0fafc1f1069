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

Three steps are read instead of replayed, with the same states, weights, order and count
of replays (so a bound refuses what it refused): a fold step that rolls one die
(`DieStep`) is called once per face, and when it says how it moves the fold's key
(`shift`: a total plus the die) only where a key is reached first, a convolution of
the sum with the die; a sub-roll given as a value (`Subroll`) is enumerated once per
value and remembered; a fold step whose dice are such a sub-roll (`ChanceStep`) is
called once per outcome of its sub-roll, and when it says how it moves the fold's key
(`keys`) only where a key is reached first. A sub-roll given as a function (`Dice.chance`)
met again in one enumeration with the same code and the same captured values (a hit's
battle damage, from every state with the same Wound) is enumerated once (`_CHANCES`). A
fold whose steps read nothing but the state and the dice (`PureSteps`) met again with
the same first state, key and step objects is propagated once (`_FOLDS`), with the peak
of replays it needed.

The `Distribution` it returns lives in `tactical.dice.distribution`.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Hashable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import fields
from fractions import Fraction
from functools import lru_cache
from math import gcd, lcm
from types import FunctionType
from typing import Any, TypeVar

from tactical.dice.core import (
    ChanceStep,
    Dice,
    Die,
    DieStep,
    FoldKey,
    PureSteps,
    Steps,
    Subroll,
)
from tactical.dice.distribution import ONE as ONE
from tactical.dice.distribution import Distribution as Distribution
from tactical.dice.distribution import exact_sum as exact_sum
from tactical.dice.distribution import fraction_text as fraction_text
from tactical.dice.distribution import percent as percent
from tactical.errors import UserError

S = TypeVar("S")
T = TypeVar("T")

DEFAULT_MAX_NODES = 2_000_000


class TooManyOutcomes(UserError):
    """An exact enumeration that would visit more nodes than allowed."""


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

    def fold(self, initial: S, steps: Steps[S], key: FoldKey[S] | None = None) -> S:
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
        raise _Branch(_chance_options(fn, key, self._max_nodes))


# The outcomes of sub-rolls given as values (`Subroll`), by value, with the largest count of
# replays any enumeration made while finding them (its own, or one nested in it): a bound
# below that refuses the sub-roll, as enumerating it again would; and its own count, what
# a step rolling its dice itself would have replayed (`ChanceStep`)
_SUBROLLS: dict[tuple[Subroll, bool], tuple[tuple[tuple[Any, int, int], ...], int, int]] = {}
# Thousands: two computer players' Cortex games meet about 6,000 distinct hits delivered
# and come back to half their strikes; at 1,024 the memory started again eight times and
# found 4 of 123 volleys' strikes remembered (64 at 8,192, as many as without a bound).
MAX_SUBROLLS = 8192
# Sub-rolls refused at a bound (by value and bound), with the peak of replays their refused
# enumeration left: a computer player enumerates whole actions to a small bound, and the
# same sub-roll past it (a random obstacle's 480 outcomes) was replayed up to the bound
# every time only to be refused again
_REFUSED: dict[tuple[Subroll, bool, int], int] = {}


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
    return _subroll_found(roll, keyed, max_nodes)[0]


def _subroll_found(
    roll: Subroll, keyed: bool, max_nodes: int
) -> tuple[tuple[tuple[Any, int, int], ...], int, int]:
    """`_subroll_options`, with the replays it needed and those of its own enumeration."""
    slot = (roll, keyed)
    found = _SUBROLLS.get(slot)
    if found is None:
        refused = _REFUSED.get((roll, keyed, max_nodes))
        if refused is not None:  # refused at this bound before: again, without replaying it
            _PEAK.value = max(_PEAK.value, refused)
            raise _too_many(max_nodes)
        before, _PEAK.value = _PEAK.value, 0
        own = [0]
        try:
            parts = _enumerate_parts(roll, roll.key if keyed else None, max_nodes, own)
            needed = _PEAK.value
        except TooManyOutcomes:
            if len(_REFUSED) >= MAX_SUBROLLS:
                _REFUSED.clear()
            _REFUSED[roll, keyed, max_nodes] = _PEAK.value  # the peak its replays reached
            raise
        finally:
            _PEAK.value = max(before, _PEAK.value)
        options = tuple((outcome, *_reduced(weights)) for outcome, weights in parts.values())
        if len(_SUBROLLS) >= MAX_SUBROLLS:
            _SUBROLLS.clear()
        found = _SUBROLLS[slot] = (options, needed, own[0])
    _PEAK.value = max(_PEAK.value, found[1])
    if found[1] > max_nodes:
        raise _too_many(max_nodes)
    return found


class _Chances(threading.local):
    """The outcomes of the sub-rolls given as functions (`Dice.chance`) met during one
    enumeration (and those nested in it), by what the function and its key are: their code
    and what they capture (`_closure_slot`), with the replays each needed. A resolver that
    meets the same sub-roll from many states (a hit's battle damage, by the hit's Wound)
    enumerates it once; dropped when the outermost enumeration ends."""

    found: dict[Hashable, tuple[tuple[tuple[Any, int, int], ...], int]] | None = None


_CHANCES = _Chances()


def _chance_options(
    fn: Callable[[Dice], Any], key: Callable[[Any], Hashable] | None, max_nodes: int
) -> tuple[tuple[Any, int, int], ...]:
    """A sub-roll's outcomes (`Dice.chance`), enumerated once per `_closure_slot` in an
    enumeration; a bound below the replays it needed refuses it as enumerating it would."""
    memo = _CHANCES.found
    slot = None if memo is None else _closure_slot(fn)
    if slot is not None and key is not None:
        keyed = _closure_slot(key)
        slot = None if keyed is None else (slot, keyed)
    if slot is None:
        return _as_options(_enumerate(fn, key, max_nodes))
    assert memo is not None
    found = memo.get(slot)
    if found is None:
        before, _PEAK.value = _PEAK.value, 0
        try:
            options = _as_options(_enumerate(fn, key, max_nodes))
            needed = _PEAK.value
        finally:
            _PEAK.value = max(before, _PEAK.value)
        found = memo[slot] = (options, needed)
    _PEAK.value = max(_PEAK.value, found[1])
    if found[1] > max_nodes:
        raise _too_many(max_nodes)
    return found[0]


class _Same:
    """A captured object compared by identity (kept alive while remembered)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __hash__(self) -> int:
        return id(self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.value is self.value


_PLAIN = frozenset({int, str, bytes, bool, type(None)})  # (a float by identity: -0.0 == 0.0)


@lru_cache(maxsize=512)
def _whole_value(kind: type) -> bool:
    """A frozen dataclass compared on every field: equal values behave alike."""
    params = getattr(kind, "__dataclass_params__", None)
    if params is None or not (params.frozen and params.eq):
        return False
    return all(f.compare for f in fields(kind))


def _as_value(value: Any) -> Hashable:
    """What a captured value contributes to a slot: plain values and frozen dataclasses by
    value (with their type: 1 and True differ), tuples (named or not) and frozensets item
    by item, anything else by identity."""
    kind = type(value)
    if kind in _PLAIN or _whole_value(kind):
        return kind, value
    if kind is tuple or (isinstance(value, tuple) and hasattr(kind, "_fields")):  # named too
        return kind, tuple(_as_value(item) for item in value)
    if kind is frozenset:
        return kind, frozenset(_as_value(item) for item in value)
    return _Same(value)


def _closure_slot(fn: Any) -> Hashable | None:
    """A plain function as a value: its code and what it captures (defaults included);
    None for anything else, or when something captured cannot be hashed."""
    if type(fn) is not FunctionType:
        return None
    try:
        slot = (
            fn.__code__,
            tuple(_as_value(cell.cell_contents) for cell in fn.__closure__ or ()),
            _as_value(fn.__defaults__),
            _as_value(tuple(sorted((fn.__kwdefaults__ or {}).items()))),
        )
        hash(slot)
    except (TypeError, ValueError):  # an unhashable capture, or a cell not yet filled
        return None
    return slot


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


_UNROLLED = (((None, 1, 1),), 0, 1)  # a step that rolls nothing: one replay, one outcome


def _chance_step_layer(
    current: dict[Hashable, list[Any]], step: ChanceStep, key: Callable[[Any], Hashable] | None,
    spent: list[int], max_nodes: int,
) -> tuple[dict[Hashable, list[Any]], int]:  # fmt: skip
    """The next layer of a fold after a step whose dice are a sub-roll (`ChanceStep`), and
    the scale of its weights, without replaying the step: `then` once per state and
    outcome of its sub-roll (enumerated once per value), in the order replays reach them,
    so the same states stand for each key with the same weights; the replays are counted
    as if the step rolled the sub-roll's dice itself (the sub-roll's own replays). With
    the step's `keys`, `then` only where a key is reached first."""
    rolled = []
    nodes = spent[0]
    spreads: dict[int, Any] = {}  # by sub-roll outcomes: their lcm, then (outcomes, factors)
    seen: dict[int, tuple[Subroll, Any]] = {}  # this layer's sub-rolls by identity (alive)
    for name, (state, weight) in current.items():
        sub = step.roll(state)
        if sub is None:
            found = _UNROLLED
        else:  # many states roll the very same sub-roll: found without hashing it again
            known = seen.get(id(sub))
            if known is None or known[0] is not sub:
                known = seen[id(sub)] = (sub, _subroll_found(sub, True, max_nodes))
            found = known[1]
        options = found[0]
        nodes += found[2]
        if nodes > max_nodes:
            raise _too_many(max_nodes)
        rolled.append((name, state, weight, options))
        if id(options) not in spreads:
            spreads[id(options)] = lcm(*(d for _, _, d in options))
    spent[0] = nodes
    _PEAK.value = max(_PEAK.value, nodes)
    scale = lcm(*spreads.values())
    for slot, options in {id(options): options for _, _, _, options in rolled}.items():
        spreads[slot] = (
            tuple(outcome for outcome, _, _ in options),
            tuple(n * (scale // d) for _, n, d in options),
        )
    then, keys = step.then, step.keys
    following: dict[Hashable, list[Any]] = {}
    if keys is not None and key is not None:
        get = following.get
        for name, state, weight, options in rolled:
            if name is _START:
                name = key(state)  # the first layer: its one state, by its key
            outcomes, factors = spreads[id(options)]
            names = keys(state, name, outcomes)
            for outcome, factor, after in zip(outcomes, factors, names, strict=True):
                entry = get(after)
                if entry is None:  # the first state reached stands for its key
                    following[after] = [then(state, outcome), weight * factor]
                else:
                    entry[1] += weight * factor
        return following, scale
    for _, state, weight, options in rolled:
        outcomes, factors = spreads[id(options)]
        for outcome, factor in zip(outcomes, factors, strict=True):
            after = then(state, outcome)
            # the first state reached stands for its key
            following.setdefault(after if key is None else key(after), [after, 0])[1] += (
                weight * factor
            )
    return following, scale


def _enumerate(
    fn: Callable[[Dice], T], key: Callable[[T], Hashable] | None, max_nodes: int
) -> tuple[tuple[T, Fraction], ...]:
    """`_enumerate_parts` with each outcome's weight as one exact Fraction."""
    return tuple(
        (outcome, Fraction(*_reduced(weights)))
        for outcome, weights in _enumerate_parts(fn, key, max_nodes).values()
    )


def _reduced(weights: dict[int, int]) -> tuple[int, int]:
    """An outcome's weight, {denominator: numerator} summed (never empty), in lowest terms
    as (numerator, denominator): the sum of its Fractions, in integers."""
    if len(weights) == 1:
        ((denominator, numerator),) = weights.items()
    else:
        denominator = lcm(*weights)
        numerator = sum(n * (denominator // d) for d, n in weights.items())
    common = gcd(numerator, denominator)
    return numerator // common, denominator // common


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


# The final states of folds of `PureSteps`, by their first state, key and steps
# (`_fold_slot`, the very step objects, kept alive here), with the peak of replays their
# enumeration reached: a bound below it refuses the fold as enumerating it again would. A
# computer player weighs the same pool of dice in many attacks (an attack roll by every
# target's Hull Points left), each its own enumeration (`remembering`).
_FOLDS: dict[Hashable, tuple[tuple[tuple[Any, Fraction], ...], int]] = {}
MAX_FOLDS = 2048


class _Loose(threading.local):
    """How many folds took their first layers from an enumeration's memory (`_CHANCES`),
    whose count of replays leaves out the peaks of sub-rolls met in them: a fold found
    so is not remembered beyond its enumeration."""

    count = 0


_LOOSE = _Loose()


def _fold_distribution(
    initial: S,
    steps: Iterable[Callable[[S, Dice], S]],
    key: Callable[[S], Hashable] | None,
    max_nodes: int,
) -> tuple[tuple[S, Fraction], ...]:
    """`_folded`, remembered by its first state, key and steps when they read nothing else
    (`PureSteps`, `_FOLDS`): the same states, weights and order, refused at the same
    bounds."""
    pure = isinstance(steps, PureSteps)
    steps = tuple(steps)
    base = _fold_slot(initial, key)
    slot: Hashable | None = None
    if pure and base is not None:
        slot = (base, steps)
        try:
            found = _FOLDS.get(slot)
        except TypeError:  # a step that is not a value
            found, slot = None, None
        if found is not None:
            _PEAK.value = max(_PEAK.value, found[1])
            if found[1] > max_nodes:
                raise _too_many(max_nodes)
            return found[0]
    before, _PEAK.value = _PEAK.value, 0
    loose = _LOOSE.count
    try:
        pairs = _folded(initial, steps, key, max_nodes, base)
        peak = _PEAK.value
    finally:
        _PEAK.value = max(before, _PEAK.value)
    if slot is not None and _LOOSE.count == loose:
        if len(_FOLDS) >= MAX_FOLDS:
            _FOLDS.clear()
        _FOLDS[slot] = (pairs, peak)
    return pairs


def _folded(
    initial: S,
    steps: tuple[Callable[[S, Dice], S], ...],
    key: Callable[[S], Hashable] | None,
    max_nodes: int,
    base: Hashable | None,
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
    memo, done = _CHANCES.found, 0
    if memo is not None and base is not None:
        for done in range(len(steps), -1, -1):  # the longest run of these steps met before
            found = memo.get((base, steps[:done]))
            if found is not None or done == 0:
                break
        if found is not None:
            _LOOSE.count += 1
            current, denominator, spent = found[0], found[1], [found[2]]
            _PEAK.value = max(_PEAK.value, spent[0])
            if spent[0] > max_nodes:
                raise _too_many(max_nodes)
    for number in range(done, len(steps)):
        step = steps[number]
        if isinstance(step, DieStep):
            following, scale = _die_step_layer(step, current, key, max_nodes, spent)
        elif isinstance(step, ChanceStep):
            following, scale = _chance_step_layer(current, step, key, spent, max_nodes)
        else:
            following, scale = _replayed_layer(step, current, key, max_nodes, spent)
        denominator *= scale
        # the numerators sum to the denominator, so their gcd divides it too
        common = gcd(*(entry[1] for entry in following.values()))
        denominator //= common
        for entry in following.values():
            entry[1] //= common
        current = following
        if memo is not None and base is not None:
            memo[base, steps[: number + 1]] = (current, denominator, spent[0])
    return tuple((state, Fraction(weight, denominator)) for state, weight in current.values())


def _fold_slot(initial: Any, key: Callable[[Any], Hashable] | None) -> Hashable | None:
    """A fold's first state and key as a value (None when either cannot be one): folds of
    equal first states and keys whose steps begin alike (the same step objects) make the
    same first layers, remembered within an enumeration (`remembering`)."""
    # a plain function by its code and captures; any other key (a callable object) by
    # identity
    keyed = _closure_slot(key) if type(key) is FunctionType else _as_value(key)
    if key is not None and keyed is None:
        return None
    slot = ("fold", keyed, _as_value(initial))
    try:
        hash(slot)
    except TypeError:
        return None
    return slot


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
    with remembering():
        return Distribution(_enumerate(fn, key, max_nodes))


@contextmanager
def remembering() -> Iterator[None]:
    """Sub-rolls and the first layers of folds remembered for the outermost enumeration
    (`_CHANCES`), then forgotten: several enumerations inside one `with remembering():`
    share them (the internal hits of each damage roll of one shot)."""
    if _CHANCES.found is not None:  # nested in an enumeration: its memory
        yield
        return
    _CHANCES.found = {}
    # an enumeration makes and drops a great many small tuples, lists and dicts, none of
    # them in a cycle: the cyclic collector, set off by their number, would walk the whole
    # heap again and again for nothing (a quarter of the heaviest odds' time); reference
    # counting frees them as before, and the collector runs again afterwards
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        yield
    finally:
        _CHANCES.found = None
        if paused:
            gc.enable()


def fold_outcomes(
    initial: S,
    steps: Iterable[Callable[[S, Dice], S]],
    *,
    key: Callable[[S], Hashable] | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
) -> Distribution[S]:
    """The exact distribution of the final state of a fold (see `Dice.fold`)."""
    with remembering():
        return Distribution(_fold_distribution(initial, steps, key, max_nodes))
