"""Heavy Combat internal damage: a ship's queued internal hits rolled on its chart.

Shield overflow (R001.25) and specific-system hits (R001.37) queue up per ship
(`Queue`, `queued`); `internal_damage` resolves them in order on the race's
chart, a destroyed category rerolled (R001.34), with the catastrophic roll
(R001.35, T001.7), as one fold whose states merge up to the chart's symmetry
(`canonical_destroyed`: the categories without an effect, `effect_categories`,
are interchangeable) so that exact odds stay polynomial (`internal_losses_odds`, for a
weapon's odds, merges all the rows alike so far and shares the chance out again);
`resolve_internals` applies it to the duel (a wreck once every box is gone).
`roll_event` is the event every Heavy Combat roll logs.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

from tactical.dice import D6, Dice, Die, Distribution, fold_outcomes
from tactical.dice.core import ChanceStep, Subroll
from tactical.model.worded import worded
from tactical.rules.base import Event
from tactical.rules.heavy_combat.duel import Duel, Ship
from tactical.rules.heavy_combat.ships import Profile
from tactical.rules.heavy_combat.tables import (
    CATASTROPHIC_TABLE,
    CATEGORIES,
    catastrophic_losses,
    catastrophic_threshold,
    chart_category,
    rerolled,
)


def roll_event(spec_id: str, who: str, what: str, die: Die, result: int) -> Event:
    return Event.of("roll", spec_id, who=who, what=what, die=die.name, result=result)


# Categories the rules give an effect to (R001.31, R001.32, R001.12, R001.13); the chart's
# other rows (bridge, weapons, batteries) have none, so they are interchangeable for the odds
EFFECT_CATEGORIES: tuple[str, ...] = ("sensors", "impulse", "warp")
# with R001.38 in force (option system_failure, A001.27) Fire Control / Bridge and the
# weapons row stop systems too: only batteries stay interchangeable
FAILING_EFFECT_CATEGORIES: tuple[str, ...] = ("bridge", "sensors", "weapons", "impulse", "warp")
MAX_CATASTROPHIC = max(CATASTROPHIC_TABLE.values())


def effect_categories(failure: str) -> tuple[str, ...]:
    """The categories with an effect under the option `system_failure` (R001.38)."""
    return EFFECT_CATEGORIES if failure == "off" else FAILING_EFFECT_CATEGORIES


@lru_cache(maxsize=8)
def _indices(effects: tuple[str, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The chart indices of the categories with an effect, and of the others."""
    effect = tuple(CATEGORIES.index(c) for c in effects)
    return effect, tuple(k for k in range(len(CATEGORIES)) if k not in effect)


# Internal damage waiting to be resolved on one ship, in order: a whole number n is n hits
# on the chart (shield overflow, R001.25), a category name one specific-system hit (R001.37)
Queue = tuple[int | str, ...]


def queued(queue: Queue, item: int | str) -> Queue:
    """`queue` with `item` appended (consecutive chart hits counted together)."""
    if isinstance(item, int):
        if item <= 0:
            return queue
        if queue and isinstance(queue[-1], int):
            return (*queue[:-1], queue[-1] + item)
    return (*queue, item)


class Internals(NamedTuple):
    """The internal-hit process: boxes destroyed per category, whether the catastrophic
    roll was made, the hits still queued, catastrophic hits still to resolve, and a compact
    log of what happened (`events` words it; kept plain, and a named tuple, because exact
    odds make hundreds of thousands of these states)."""

    destroyed: tuple[int, ...]
    catastrophic: bool
    queue: Queue = ()
    extra: int = 0
    log: tuple[tuple[Any, ...], ...] = ()
    who: str = ""
    table: str = "T001.5"

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(e for entry in self.log for e in _logged(entry, self.who, self.table))

    def but(self, **changes: Any) -> Internals:
        return self._replace(**changes)


def _logged(entry: tuple[Any, ...], who: str, table: str) -> tuple[Event, ...]:
    """The events of one log entry of the internal-hit process."""
    what = entry[0]
    if what == "hit":
        _, rule, first, reroll_faces, roll, category, count = entry
        events = []
        if first is not None:
            events.append(roll_event("R001.34", who, "internal damage chart", D6, first))
        if reroll_faces is not None:
            events.append(
                Event.of(
                    "reroll", "R001.34", roll=first, system=chart_category(first), destroyed=True
                )
            )
            die = _reroll_die(reroll_faces)
            events.append(roll_event("R001.34", who, "internal damage chart reroll", die, roll))
        if first is not None:
            events.append(Event.of("lookup", table, roll=roll, system=category))
        events.append(Event.of("internal", rule, ship=who, system=category, destroyed=count))
        return tuple(events)
    if what == "catastrophic":
        _, roll, extra, total, threshold = entry
        return (
            roll_event("R001.35", who, "catastrophic damage", D6, roll),
            Event.of(
                "catastrophic",
                "T001.7",
                ship=who,
                destroyed=total,
                threshold=threshold,
                roll=roll,
                additional=extra,
            ),
        )
    if what == "wreck":
        return (Event.of("wreck", "R001.34", ship=who, rolled=False),)
    _, system = entry
    return (Event.of("no-effect", "R001.37", ship=who, system=system, already_destroyed=True),)


@lru_cache(maxsize=64)
def _reroll_die(live: frozenset[int]) -> Die:
    return rerolled(D6, live)


@lru_cache(maxsize=65536)
def _live(boxes: tuple[int, ...], destroyed: tuple[int, ...]) -> frozenset[int]:
    """The chart rolls (1-6) whose category still has boxes (R001.34)."""
    return frozenset(k + 1 for k in range(len(boxes)) if destroyed[k] < boxes[k])


@dataclass(frozen=True, slots=True)
class InternalRoll(Subroll):
    """The dice of one step of the internal-hit process, as a value: the chart's 1d6 with a
    destroyed category rerolled (R001.34) when `live` (the chart rolls whose category still
    has boxes) is not empty, then the catastrophic 1d6 (R001.35) when `catastrophe`.
    (first roll, live faces if rerolled, category roll, catastrophic roll), None where not
    rolled; what follows depends only on the last two."""

    live: frozenset[int]
    catastrophe: bool
    who: str = ""

    def __call__(self, dice: Dice) -> tuple[Any, ...]:
        first = roll = faces = None
        if self.live:
            first = roll = dice.roll(D6, who=self.who, what="internal damage chart")
            if roll not in self.live:
                faces = self.live
                roll = dice.roll(
                    _reroll_die(self.live), who=self.who, what="internal damage chart reroll"
                )
        catastrophic = None
        if self.catastrophe:
            catastrophic = dice.roll(D6, who=self.who, what="catastrophic damage")
        return first, faces, roll, catastrophic

    def key(self, outcome: tuple[Any, ...]) -> Hashable:
        return outcome[2], outcome[3]


_NO_ROLL = (None, None, None, None)


def _read(rolled: tuple[Any, ...] | None) -> tuple[int | None, int | None]:
    """What an outcome of an `InternalRoll` reads: the category the chart roll names
    (T001.5/T001.6; None unrolled: no category has a box left) and the further hits of the
    catastrophic roll (T001.7; None unrolled)."""
    _, _, roll, catastrophe = rolled or _NO_ROLL
    return (
        None if roll is None else roll - 1,
        None if catastrophe is None else catastrophic_losses(catastrophe),
    )


# `_read` of the outcomes of one sub-roll, by the outcomes' identity (the enumerator hands
# every state rolling alike the very same outcomes), each kept alive with its reading
_READINGS: dict[int, tuple[Sequence[Any], tuple[tuple[int | None, int | None], ...]]] = {}


def _readings(
    outcomes: Sequence[tuple[Any, ...] | None],
) -> tuple[tuple[int | None, int | None], ...]:
    found = _READINGS.get(id(outcomes))
    if found is None or found[0] is not outcomes:
        if len(_READINGS) >= 256:
            _READINGS.clear()
        found = _READINGS[id(outcomes)] = (outcomes, tuple(_read(o) for o in outcomes))
    return found[1]


@dataclass(frozen=True, slots=True)
class _Chart:
    """A ship's internal damage chart and catastrophic threshold (read once per fold)."""

    boxes: tuple[int, ...]
    threshold: int

    @classmethod
    def of(cls, card: Profile) -> _Chart:
        return cls(card.boxes, catastrophic_threshold(card.internals))

    def turn(self, s: Internals, item: int | str | None) -> tuple[Any, Queue]:
        """What a step of the internal-hit fold resolves, given the queued hit it brings
        (`item`: a chart hit, a system's name, or None past the queue): a pending
        catastrophic hit first (`EXTRA`), else the oldest hit put off meanwhile, else its
        own; with the hits still put off after it (its own joining them, in order)."""
        if s.extra > 0:
            return EXTRA, s.queue if item is None else queued(s.queue, item)
        if not s.queue:
            return item, ()
        head, rest = s.queue[0], s.queue[1:]
        if isinstance(head, int):
            head, rest = 1, ((head - 1, *rest) if head > 1 else rest)
        return head, rest if item is None else queued(rest, item)

    def roll_for(self, s: Internals, now: Any) -> InternalRoll | None:
        """The dice of the hit `now` resolved (`turn`): a chart roll for a catastrophic or a
        chart hit, the catastrophic roll when a queued hit reaches the threshold; None when
        nothing is rolled."""
        if now is EXTRA:
            return _internal_roll(_live(self.boxes, s.destroyed), False, s.who)
        if now is None:
            return None
        total = sum(s.destroyed)
        if isinstance(now, int):
            live = _live(self.boxes, s.destroyed)
            total += 1 if live else 0
        else:
            live = frozenset()
            index = CATEGORIES.index(now)
            total += 1 if s.destroyed[index] < self.boxes[index] else 0
        catastrophe = not s.catastrophic and total >= self.threshold
        return _internal_roll(live, catastrophe, s.who) if live or catastrophe else None

    def moved(
        self, s: Internals, now: Any, readings: Sequence[tuple[int | None, int | None]]
    ) -> list[tuple[int | None, bool, int]]:
        """What the hit `now` does for each outcome of its dice (`roll_for`, read by
        `_read`): the category that loses a box (None: none), whether the catastrophic roll
        has been made, and the catastrophic hits then pending.

        A catastrophic or a chart hit destroys a box of the category rolled (R001.34: a
        destroyed category rerolled, one roll among those left; none when no category has
        a box left, a wreck); a specific-system hit one box of its system, if any is left
        (R001.37); then, the first time the destroyed boxes reach round(3/4 x internals),
        the catastrophic 1d6 on T001.7 gives 7 - roll further hits, resolved next on the
        chart (R001.35, once: A001.19). `roll_for` asks for the catastrophic roll exactly
        when the hit reaches the threshold, so that roll is what sets it off."""
        catastrophic, extra = s.catastrophic, s.extra
        if now is None:
            return [(None, catastrophic, extra)] * len(readings)
        if now is EXTRA or not isinstance(now, str):
            extra = extra - 1 if now is EXTRA else 0
            return [
                (index, catastrophic, extra) if added is None else (index, True, added)
                for index, added in readings
            ]
        system = CATEGORIES.index(now)
        index = system if s.destroyed[system] < self.boxes[system] else None  # else no effect
        return [
            (index, catastrophic, extra) if added is None else (index, True, added)
            for _, added in readings
        ]

    def then(
        self, s: Internals, now: Any, rest: Queue, rolled: tuple[Any, ...] | None
    ) -> Internals:
        """The hit `now` resolved with its dice rolled (`roll_for`, `moved`), `rest` still
        put off, with what happened logged."""
        if now is None:
            return s
        rolled = rolled or _NO_ROLL
        ((index, catastrophic, extra),) = self.moved(s, now, (_read(rolled),))
        destroyed = s.destroyed
        if index is not None:
            destroyed = (*destroyed[:index], destroyed[index] + 1, *destroyed[index + 1 :])
        first, faces, roll, catastrophic_roll = rolled
        entry: tuple[Any, ...]
        if now is EXTRA or not isinstance(now, str):
            rule = "R001.35" if now is EXTRA else "R001.25"
            if index is None:
                entry = ("wreck",)
            else:
                entry = ("hit", rule, first, faces, roll, CATEGORIES[index], destroyed[index])
        elif index is None:
            entry = ("no-effect", now)
        else:
            entry = ("hit", "R001.37", None, None, None, now, destroyed[index])
        log = (*s.log, entry)
        if catastrophic and not s.catastrophic:
            total = sum(destroyed)
            log = (*log, ("catastrophic", catastrophic_roll, extra, total, self.threshold))
        return Internals(destroyed, catastrophic, rest, extra, log, s.who, s.table)


EXTRA = "catastrophic hit"  # what a step resolves while catastrophic hits are pending


@lru_cache(maxsize=4096)
def _internal_roll(live: frozenset[int], catastrophe: bool, who: str) -> InternalRoll:
    """One object for equal dice (many states roll alike)."""
    return InternalRoll(live, catastrophe, who)


@dataclass(frozen=True, slots=True)
class _Turn:
    """One step of the internal-hit fold: the queued hit it brings (`_Chart.turn`), and the
    key its fold merges states by (`_FoldKey`)."""

    chart: _Chart
    item: int | str | None
    key: _FoldKey

    def roll(self, s: Internals) -> InternalRoll | None:
        return self.chart.roll_for(s, self.chart.turn(s, self.item)[0])

    def then(self, s: Internals, rolled: tuple[Any, ...] | None) -> Internals:
        now, rest = self.chart.turn(s, self.item)
        return self.chart.then(s, now, rest, rolled)

    def keys(
        self, s: Internals, name: Hashable, outcomes: Sequence[tuple[Any, ...] | None]
    ) -> list[Hashable]:
        """The key of `then(s, outcome)` for each outcome, from `s`'s key and what the hit
        does (`moved`)."""
        now, rest = self.chart.turn(s, self.item)
        moves = self.chart.moved(s, now, _readings(outcomes))
        return self.key.after(s.destroyed, name, rest, moves)


@lru_cache(maxsize=1024)
def _step(chart: _Chart, item: int | str | None, key: _FoldKey) -> ChanceStep:
    """The fold step bringing `item` (one object for equal charts, items and keys: folds of
    the same hits share their first layers, `exact.remembering`)."""
    turn = _Turn(chart, item, key)
    return ChanceStep(turn.roll, turn.then, turn.keys)


def canonical_destroyed(
    card: Profile, destroyed: tuple[int, ...], effects: tuple[str, ...] = EFFECT_CATEGORIES
) -> Hashable:
    """Destroyed boxes up to the chart's symmetry: the categories without an effect are
    interchangeable when their capacities are equal (what the odds merge states by)."""
    effect, other = _indices(effects)
    return (
        tuple(destroyed[k] for k in effect),
        tuple(sorted((card.boxes[k], destroyed[k]) for k in other)),
    )


def internal_damage(
    card: Profile,
    ship: Ship,
    queue: Queue | int,
    dice: Dice,
    *,
    who: str,
    detail: str = "systems",
    effects: tuple[str, ...] = EFFECT_CATEGORIES,
) -> Internals:
    """The queued internal hits of one ship resolved in order (R001.25 chart hits,
    R001.34 rerolls, R001.35 catastrophic damage, R001.37 specific-system hits).

    One fold, a step per queued hit (plus room for the catastrophic hits when the threshold
    can be reached). Its states are merged by `canonical_destroyed`, so exact odds stay
    polynomial; with `detail="count"`, for a caller that only reports how many boxes are
    lost, by the number destroyed: a chart hit adds one box whichever system it finds, and
    the catastrophic roll looks only at that number (not so for a specific-system hit,
    which keeps the systems' detail). `effects` names the categories with an effect
    (`effect_categories`): the others merge."""
    start, steps, key = _internal_fold(card, ship, queue, who, detail, effects)
    return dice.fold(start, steps, key=key) if steps else start


def internal_branches(
    card: Profile,
    ship: Ship,
    queue: Queue | int,
    *,
    who: str,
    effects: tuple[str, ...],
    max_nodes: int,
) -> tuple[tuple[Internals, ...], bool]:
    """The states `internal_damage` (detail "systems") comes to under an exact enumeration,
    and whether they are branches of a roll: its very fold's final states (R001.25,
    R001.34, R001.35), found under the same bound (TooManyOutcomes where the enumeration
    would refuse the fold); its first state alone, not rolled, when nothing is queued."""
    start, steps, key = _internal_fold(card, ship, queue, who, "systems", effects)
    if not steps:
        return (start,), False
    return fold_outcomes(start, steps, key=key, max_nodes=max_nodes).outcomes, True


def internal_odds(
    card: Profile,
    ship: Ship,
    queue: Queue | int,
    *,
    who: str,
    detail: str = "systems",
    effects: tuple[str, ...] = EFFECT_CATEGORIES,
) -> Distribution[Internals]:
    """The exact distribution of `internal_damage`: its very fold, read by the enumerator."""
    start, steps, key = _internal_fold(card, ship, queue, who, detail, effects)
    return fold_outcomes(start, steps, key=key) if steps else Distribution.certain(start)


def internal_losses_odds(
    card: Profile,
    ship: Ship,
    queue: Queue | int,
    *,
    who: str,
    effects: tuple[str, ...] = EFFECT_CATEGORIES,
) -> Distribution[Internals]:
    """The exact distribution of what `internal_damage` destroys (R001.25, R001.34, R001.35,
    R001.37): the boxes lost by each category with an effect (`effects`), the others' up
    to the chart's symmetry (`canonical_destroyed`), and the catastrophic roll; as final
    states without their logs (what a weapon's odds read), each standing for its key in
    `internal_odds`, with the same chances.

    Its very fold, read by the enumerator, with more states merged: the chart finds each
    category that still has boxes with the same chance (R001.34), so categories of equal
    capacity that have lost as many boxes, and that no specific-system hit names
    (`_pools`), stay interchangeable to the end. The fold merges their arrangements; each
    merged state's chance is then shared among the arrangements it stands for, every
    ordering of a pool's losses alike (`_arrangements`)."""
    if isinstance(queue, int):
        queue = queued((), queue)
    pools = _pools(card, ship, queue)
    start, steps, key = _internal_fold(card, ship, queue, who, "systems", effects, pools)
    if not steps:
        return Distribution.certain(start)
    told = _fold_key(card.boxes, effects, False)  # the key of `internal_odds`
    effect = frozenset(_indices(effects)[0])
    members = _members(pools)
    folded = fold_outcomes(start, steps, key=key)
    common = math.lcm(*(p.denominator for _, p in folded))
    merged: dict[Hashable, list[Any]] = {}
    for state, p in folded:
        weight = p.numerator * (common // p.denominator)
        for destroyed, share in _arranged(state.destroyed, members, effect):
            final = state._replace(destroyed=destroyed, log=())
            slot = told(final)
            entry = merged.get(slot)
            if entry is None:
                merged[slot] = [final, weight * share]
            else:
                entry[1] += weight * share
    return Distribution.from_weights((final, weight) for final, weight in merged.values())


def _pools(card: Profile, ship: Ship, queue: Queue) -> tuple[Hashable, ...]:
    """Each category's pool of interchangeable categories: its capacity and the boxes it
    has lost (None for a category a specific-system hit names: told apart, R001.37)."""
    named = {CATEGORIES.index(item) for item in queue if isinstance(item, str)}
    return tuple(
        None if k in named else (card.boxes[k], ship.destroyed[k]) for k in range(len(card.boxes))
    )


@lru_cache(maxsize=64)
def _members(pools: tuple[Hashable, ...]) -> tuple[tuple[int, ...], ...]:
    """The categories of each pool of two or more, in chart order (a pool of one has
    nothing to share out)."""
    found: dict[Hashable, list[int]] = {}
    for k, pool in enumerate(pools):
        if pool is not None:
            found.setdefault(pool, []).append(k)
    return tuple(tuple(members) for members in found.values() if len(members) > 1)


def _arranged(
    destroyed: tuple[int, ...], members: tuple[tuple[int, ...], ...], effect: frozenset[int]
) -> list[tuple[tuple[int, ...], int]]:
    """The arrangements a merged state stands for, told apart by the categories with an
    effect, each with its share: how many of the orderings of each pool's losses
    (`_arrangements`, out of the same number for every state) give it."""
    found = [(destroyed, 1)]
    for pool in members:
        told = tuple(k in effect for k in pool)
        ways = _arrangements(tuple(sorted(destroyed[k] for k in pool)), told)
        found = [
            (_placed(before, pool, losses), share * count)
            for before, share in found
            for losses, count in ways
        ]
    return found


def _placed(
    destroyed: tuple[int, ...], pool: tuple[int, ...], losses: tuple[int, ...]
) -> tuple[int, ...]:
    """`destroyed` with the categories of `pool` given `losses`, in order."""
    after = list(destroyed)
    for k, lost in zip(pool, losses, strict=True):
        after[k] = lost
    return tuple(after)


@lru_cache(maxsize=4096)
def _arrangements(
    losses: tuple[int, ...], told: tuple[bool, ...]
) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The orderings of a pool's losses over its categories, by what they show of the
    categories told apart (the others' losses in ascending order), with how many orderings
    show each: every ordering of the pool counted alike (equal losses counted apart, as
    `itertools.permutations` lists them), all n! of them.

    Drawn in order for the categories told apart, each loss among the copies left of it
    (so many ways to draw it), the others then in every order ((n - drawn)! ways): each
    showing is listed once, not once per ordering."""
    apart = told.count(True)
    untold = math.factorial(len(told) - apart)
    found: list[tuple[tuple[int, ...], int]] = []

    def draw(shown: tuple[int, ...], ways: int, left: dict[int, int]) -> None:
        if len(shown) == apart:
            # `left` lists the losses in ascending order: the others' order
            drawn, others = iter(shown), iter([lost for lost, n in left.items() for _ in range(n)])
            placed = tuple(next(drawn if kept else others) for kept in told)
            found.append((placed, ways * untold))
            return
        for lost, copies in left.items():
            if copies:
                left[lost] = copies - 1
                draw((*shown, lost), ways * copies, left)
                left[lost] = copies

    draw((), 1, dict(sorted(Counter(losses).items())))
    return tuple(found)


def _internal_fold(
    card: Profile,
    ship: Ship,
    queue: Queue | int,
    who: str,
    detail: str,
    effects: tuple[str, ...],
    pools: tuple[Hashable, ...] | None = None,
) -> tuple[Internals, list[ChanceStep], Callable[[Internals], Hashable]]:
    """The fold of `internal_damage`: its first state, its steps (none when nothing is
    queued) and the key its states merge by (`pools`: the categories it merges, as
    `_FoldKey`).

    A step per queued hit, each bringing its hit, and room for the catastrophic hits: the
    state holds only the hits put off while catastrophic hits go first (R001.35), so the
    folds of 3, 6 ... 18 chart hits on one ship make the same first layers."""
    if isinstance(queue, int):
        queue = queued((), queue)
    chart = _Chart.of(card)
    table = "T001.6" if card.chart == "klingon" else "T001.5"
    start = Internals(ship.destroyed, ship.catastrophic, (), 0, (), who, table)
    items: list[int | str] = []
    for item in queue:
        items.extend([1] * item if isinstance(item, int) else [item])
    by_count = detail == "count" and all(isinstance(item, int) for item in queue)
    key = _fold_key(card.boxes, effects, by_count, None if by_count else pools)
    steps = [_step(chart, item, key) for item in items]
    if not ship.catastrophic and sum(ship.destroyed) + len(steps) >= chart.threshold:
        steps += [_step(chart, None, key)] * MAX_CATASTROPHIC
    return start, steps, key


class _FoldKey:
    """The key the internal-hit fold merges by: destroyed boxes up to the chart's symmetry
    (`canonical_destroyed`), or their number with `by_count`; whether the catastrophic roll
    was made; the hits put off; the catastrophic hits pending. One object for equal
    arguments (`_fold_key`), so that folds of the same hits are recognised as the same.

    All four as one whole number (a step's keys are then sums, `after`): the boxes count
    those of each category with an effect, and of the others how many categories of each
    capacity have lost each number of boxes (the interchangeable categories), in mixed
    radix, so equal exactly when `canonical_destroyed` is; the hits put off by the order
    this key first met them. Given `pools` (a label per category, None for one told
    apart), the categories of each pool are the interchangeable ones instead."""

    __slots__ = ("_boxes", "_bump", "_by_count", "_counted", "_effect", "_other", "_queues")

    def __init__(
        self,
        boxes: tuple[int, ...],
        effects: tuple[str, ...],
        by_count: bool,
        pools: tuple[Hashable, ...] | None = None,
    ) -> None:
        self._by_count = by_count
        if pools is None:  # the categories without an effect pooled by capacity
            no_effect = _indices(effects)[1]
            pools = tuple(boxes[k] if k in no_effect else None for k in range(len(boxes)))
        effect = tuple(k for k, pool in enumerate(pools) if pool is None)
        other = tuple(k for k, pool in enumerate(pools) if pool is not None)
        weight, place = 1, {}
        for k in effect:
            place[k] = weight
            weight *= boxes[k] + 1
        counted = {}  # (pool, boxes lost) of the pooled categories: how many, in radix
        for pair in sorted({(pools[k], lost) for k in other for lost in range(boxes[k] + 2)}):
            counted[pair] = weight
            weight *= len(other) + 1
        # _bump[k][lost]: what a box more on category k adds, when it has lost `lost`
        self._bump = tuple(
            (1,) * (boxes[k] + 1)
            if by_count
            else (place[k],) * (boxes[k] + 1)
            if k in place
            else tuple(
                counted[pools[k], lost + 1] - counted[pools[k], lost]
                for lost in range(boxes[k] + 1)
            )
            for k in range(len(boxes))
        )
        self._boxes = sum(boxes) + 1 if by_count else weight  # above every number of boxes
        self._counted = counted
        self._effect = tuple((k, place[k]) for k in effect)
        self._other = tuple((k, pools[k]) for k in other)
        self._queues: dict[Queue, int] = {}

    def _queue(self, queue: Queue) -> int:
        found = self._queues.get(queue)
        if found is None:
            found = self._queues[queue] = len(self._queues)
        return found

    def __call__(self, s: Internals) -> Hashable:
        d = s.destroyed
        if self._by_count:
            number = sum(d)
        else:
            number = sum(d[k] * weight for k, weight in self._effect)
            number += sum(self._counted[pool, d[k]] for k, pool in self._other)
        head = (self._queue(s.queue) * (MAX_CATASTROPHIC + 1) + s.extra) * 2 + s.catastrophic
        return head * self._boxes + number

    def after(
        self,
        destroyed: tuple[int, ...],
        name: Hashable,
        rest: Queue,
        moves: Sequence[tuple[int | None, bool, int]],
    ) -> list[Hashable]:
        """The keys after these moves (`_Chart.moved`) of a state with `destroyed` boxes and
        key `name`, `rest` still put off."""
        scale, bump = self._boxes, self._bump
        number = name % scale  # type: ignore[operator]
        head = self._queue(rest) * (MAX_CATASTROPHIC + 1)
        return [
            ((head + extra) * 2 + catastrophic) * scale
            + (number if index is None else number + bump[index][destroyed[index]])
            for index, catastrophic, extra in moves
        ]


@lru_cache(maxsize=64)
def _fold_key(
    boxes: tuple[int, ...],
    effects: tuple[str, ...],
    by_count: bool,
    pools: tuple[Hashable, ...] | None = None,
) -> _FoldKey:
    return _FoldKey(boxes, effects, by_count, pools)


def applied(
    duel: Duel, card: Profile, ship_id: str, internals: Internals
) -> tuple[Duel, tuple[Event, ...]]:
    """A ship's resolved internal hits written into the duel, with their events: boxes
    destroyed, catastrophic, a wreck once every box is gone (R001.34)."""
    ship = duel.ship(ship_id)
    # the log worded only where events are read: a computer player's enumeration reads
    # the states alone, and wording every roll is a sixth of its work (`model.worded`)
    events = list(internals.events) if worded() else []
    after = _wrecked(
        card,
        ship.evolve(destroyed=internals.destroyed, catastrophic=internals.catastrophic),
        events,
    )
    return duel.with_ship(ship_id, after), tuple(events)


def resolve_internals(
    duel: Duel,
    cards: Mapping[str, Profile],
    ship_id: str,
    queue: Queue,
    dice: Dice,
    detail: str = "systems",
    effects: tuple[str, ...] = EFFECT_CATEGORIES,
) -> tuple[Duel, tuple[Event, ...]]:
    """One ship's queued internal hits applied: boxes destroyed, catastrophic, wreck
    (`detail` and `effects` as for `internal_damage`)."""
    if not queue:
        return duel, ()
    card, ship = cards[ship_id], duel.ship(ship_id)
    internals = internal_damage(
        card, ship, queue, dice, who=ship_id, detail=detail, effects=effects
    )
    return applied(duel, card, ship_id, internals)


def _wrecked(card: Profile, ship: Ship, events: list[Event]) -> Ship:
    if ship.out is None and sum(ship.destroyed) >= card.internals:
        events.append(Event.of("wreck", "R001.34", internals=card.internals))
        return ship.evolve(out="wreck")
    return ship


def effect_losses(
    lost: tuple[int, ...], effects: tuple[str, ...] = EFFECT_CATEGORIES
) -> tuple[int, ...]:
    """The boxes lost of each category with an effect (`effects` order)."""
    return tuple(lost[k] for k in _indices(effects)[0])
