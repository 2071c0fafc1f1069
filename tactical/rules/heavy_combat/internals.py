"""Heavy Combat internal damage: a ship's queued internal hits rolled on its chart.

Shield overflow (R001.25) and specific-system hits (R001.37) queue up per ship
(`Queue`, `queued`); `internal_damage` resolves them in order on the race's
chart, a destroyed category rerolled (R001.34), with the catastrophic roll
(R001.35, T001.7), as one fold whose states merge up to the chart's symmetry
(`canonical_destroyed`: the categories without an effect, `effect_categories`,
are interchangeable) so that exact odds stay polynomial; `resolve_internals`
applies it to the duel (a wreck once every box is gone). `roll_event` is the
event every Heavy Combat roll logs.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

from tactical.dice import D6, Dice, Die, Distribution, fold_outcomes
from tactical.dice.core import ChanceStep, Subroll
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


def _destroyed_one(destroyed: tuple[int, ...], index: int) -> tuple[int, ...]:
    return (*destroyed[:index], destroyed[index] + 1, *destroyed[index + 1 :])


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


@dataclass(frozen=True, slots=True)
class _Chart:
    """A ship's internal damage chart and catastrophic threshold (read once per fold)."""

    boxes: tuple[int, ...]
    threshold: int

    @classmethod
    def of(cls, card: Profile) -> _Chart:
        return cls(card.boxes, catastrophic_threshold(card.internals))

    def hit(
        self, s: Internals, queue: Queue, extra: int, rule: str, rolled: tuple[Any, ...]
    ) -> Internals:
        """One box destroyed on the race's chart (R001.34): the 1d6, a destroyed category
        rerolled (one roll among the categories left, `tables.rerolled`); a wreck when no
        category has a box left (no roll). `queue` and `extra` are what is left after it."""
        first, faces, roll, _ = rolled
        if roll is None:
            entry: tuple[Any, ...] = ("wreck",)
            destroyed = s.destroyed
        else:
            index = roll - 1
            destroyed = _destroyed_one(s.destroyed, index)
            entry = ("hit", rule, first, faces, roll, CATEGORIES[index], destroyed[index])
        return Internals(destroyed, s.catastrophic, queue, extra, (*s.log, entry), s.who, s.table)

    def system_hit(self, s: Internals, system: str) -> Internals:
        """R001.37: a specific-system hit destroys one box of that system, if any is left."""
        index = CATEGORIES.index(system)
        if s.destroyed[index] >= self.boxes[index]:
            return s.but(log=(*s.log, ("no-effect", system)))
        destroyed = _destroyed_one(s.destroyed, index)
        entry = ("hit", "R001.37", None, None, None, system, destroyed[index])
        return s.but(destroyed=destroyed, log=(*s.log, entry))

    def catastrophe(self, s: Internals, roll: int | None) -> Internals:
        """R001.35: the first time the destroyed boxes reach round(3/4 x internals), 1d6 on
        T001.7 gives 7 - roll further hits (resolved next, on the chart). Once (A001.19)."""
        total = sum(s.destroyed)
        if s.catastrophic or total < self.threshold:
            return s
        assert roll is not None  # `roll_for` asked for it
        extra = catastrophic_losses(roll)
        entry = ("catastrophic", roll, extra, total, self.threshold)
        return Internals(s.destroyed, True, s.queue, extra, (*s.log, entry), s.who, s.table)

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
            return InternalRoll(_live(self.boxes, s.destroyed), False, s.who)
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
        return InternalRoll(live, catastrophe, s.who) if live or catastrophe else None

    def then(
        self, s: Internals, now: Any, rest: Queue, rolled: tuple[Any, ...] | None
    ) -> Internals:
        """The hit `now` resolved with its dice rolled (`roll_for`), `rest` still put off:
        a catastrophic hit, a chart hit or a specific-system hit (which may set off the
        catastrophic roll)."""
        rolled = rolled or _NO_ROLL
        if now is EXTRA:
            return self.hit(s, rest, s.extra - 1, "R001.35", rolled)
        if now is None:
            return s
        if isinstance(now, int):
            after = self.hit(s, rest, 0, "R001.25", rolled)
        else:
            after = self.system_hit(s.but(queue=rest), now)
        # no catastrophic roll asked for: the threshold is not reached (`roll_for`)
        return after if rolled[3] is None else self.catastrophe(after, rolled[3])


EXTRA = "catastrophic hit"  # what a step resolves while catastrophic hits are pending


@dataclass(frozen=True, slots=True)
class _Turn:
    """One step of the internal-hit fold: the queued hit it brings (`_Chart.turn`)."""

    chart: _Chart
    item: int | str | None

    def roll(self, s: Internals) -> InternalRoll | None:
        return self.chart.roll_for(s, self.chart.turn(s, self.item)[0])

    def then(self, s: Internals, rolled: tuple[Any, ...] | None) -> Internals:
        now, rest = self.chart.turn(s, self.item)
        return self.chart.then(s, now, rest, rolled)


@lru_cache(maxsize=1024)
def _step(chart: _Chart, item: int | str | None) -> ChanceStep:
    """The fold step bringing `item` (one object for equal charts and items: folds of the
    same hits share their first layers, `exact.remembering`)."""
    turn = _Turn(chart, item)
    return ChanceStep(turn.roll, turn.then)


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


def _internal_fold(
    card: Profile,
    ship: Ship,
    queue: Queue | int,
    who: str,
    detail: str,
    effects: tuple[str, ...],
) -> tuple[Internals, list[ChanceStep], Callable[[Internals], Hashable]]:
    """The fold of `internal_damage`: its first state, its steps (none when nothing is
    queued) and the key its states merge by.

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
    steps = [_step(chart, item) for item in items]
    if not ship.catastrophic and sum(ship.destroyed) + len(steps) >= chart.threshold:
        steps += [_step(chart, None)] * MAX_CATASTROPHIC
    by_count = detail == "count" and all(isinstance(item, int) for item in queue)
    return start, steps, _fold_key(card.boxes, effects, by_count)


@lru_cache(maxsize=64)
def _fold_key(
    boxes: tuple[int, ...], effects: tuple[str, ...], by_count: bool
) -> Callable[[Internals], Hashable]:
    """The key the internal-hit fold merges by: destroyed boxes up to the chart's symmetry
    (`canonical_destroyed`), or their number with `by_count`; one function for equal
    arguments, so that folds of the same hits are recognised as the same."""
    effect, other = _indices(effects)
    canonical: dict[tuple[int, ...], Hashable] = {}  # many states share their boxes

    def key(s: Internals) -> Hashable:
        d = s.destroyed
        found = canonical.get(d)
        if found is None:
            found = canonical[d] = (
                tuple(d[k] for k in effect),
                tuple(sorted((boxes[k], d[k]) for k in other)),
            )
        return found, s.catastrophic, s.queue, s.extra

    def count_key(s: Internals) -> Hashable:
        return sum(s.destroyed), s.catastrophic, s.queue, s.extra

    return count_key if by_count else key


def applied(
    duel: Duel, card: Profile, ship_id: str, internals: Internals
) -> tuple[Duel, tuple[Event, ...]]:
    """A ship's resolved internal hits written into the duel, with their events: boxes
    destroyed, catastrophic, a wreck once every box is gone (R001.34)."""
    ship = duel.ship(ship_id)
    events = list(internals.events)
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
