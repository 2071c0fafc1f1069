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

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from tactical.dice import D6, Dice, Die
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


def queue_length(queue: Queue) -> int:
    return sum(item if isinstance(item, int) else 1 for item in queue)


@dataclass(frozen=True, slots=True)
class Internals:
    """The internal-hit process: boxes destroyed per category, whether the catastrophic
    roll was made, the hits still queued, catastrophic hits still to resolve, and a compact
    log of what happened (`events` words it; kept plain because exact odds replay this
    process hundreds of thousands of times)."""

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
        return replace(self, **changes)


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
class _Chart:
    """A ship's internal damage chart and catastrophic threshold (read once per fold)."""

    boxes: tuple[int, ...]
    threshold: int

    @classmethod
    def of(cls, card: Profile) -> _Chart:
        return cls(card.boxes, catastrophic_threshold(card.internals))

    def hit(self, s: Internals, dice: Dice, rule: str) -> Internals:
        """One box destroyed on the race's chart (R001.34): 1d6, a destroyed category
        rerolled (the reroll is one roll among the categories left, `tables.rerolled`)."""
        live = _live(self.boxes, s.destroyed)
        if not live:
            return s.but(log=(*s.log, ("wreck",)))
        first = roll = dice.roll(D6, who=s.who, what="internal damage chart")
        faces = None
        if roll not in live:
            faces = live
            roll = dice.roll(_reroll_die(live), who=s.who, what="internal damage chart reroll")
        index = roll - 1
        destroyed = _destroyed_one(s.destroyed, index)
        entry = ("hit", rule, first, faces, roll, CATEGORIES[index], destroyed[index])
        return Internals(
            destroyed, s.catastrophic, s.queue, s.extra, (*s.log, entry), s.who, s.table
        )

    def system_hit(self, s: Internals, system: str) -> Internals:
        """R001.37: a specific-system hit destroys one box of that system, if any is left."""
        index = CATEGORIES.index(system)
        if s.destroyed[index] >= self.boxes[index]:
            return s.but(log=(*s.log, ("no-effect", system)))
        destroyed = _destroyed_one(s.destroyed, index)
        entry = ("hit", "R001.37", None, None, None, system, destroyed[index])
        return s.but(destroyed=destroyed, log=(*s.log, entry))

    def catastrophe(self, s: Internals, dice: Dice) -> Internals:
        """R001.35: the first time the destroyed boxes reach round(3/4 x internals), 1d6 on
        T001.7 gives 7 - roll further hits (resolved next, on the chart). Once (A001.19)."""
        total = sum(s.destroyed)
        if s.catastrophic or total < self.threshold:
            return s
        roll = dice.roll(D6, who=s.who, what="catastrophic damage")
        extra = catastrophic_losses(roll)
        entry = ("catastrophic", roll, extra, total, self.threshold)
        return Internals(s.destroyed, True, s.queue, extra, (*s.log, entry), s.who, s.table)

    def step(self, s: Internals, dice: Dice) -> Internals:
        """One step of the internal-hit fold: a catastrophic hit if any is pending, else the
        next queued hit (which may set off the catastrophic roll)."""
        if s.extra > 0:
            waiting = Internals(
                s.destroyed, s.catastrophic, s.queue, s.extra - 1, s.log, s.who, s.table
            )
            return self.hit(waiting, dice, "R001.35")
        if not s.queue:
            return s
        head, rest = s.queue[0], s.queue[1:]
        if isinstance(head, int):
            rest = (head - 1, *rest) if head > 1 else rest
            waiting = Internals(s.destroyed, s.catastrophic, rest, s.extra, s.log, s.who, s.table)
            return self.catastrophe(self.hit(waiting, dice, "R001.25"), dice)
        return self.catastrophe(self.system_hit(s.but(queue=rest), head), dice)


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
    if isinstance(queue, int):
        queue = queued((), queue)
    chart = _Chart.of(card)
    table = "T001.6" if card.chart == "klingon" else "T001.5"
    start = Internals(ship.destroyed, ship.catastrophic, queue, 0, (), who, table)
    steps = queue_length(queue)
    if not ship.catastrophic and sum(ship.destroyed) + steps >= chart.threshold:
        steps += MAX_CATASTROPHIC
    if steps == 0:
        return start
    effect, other = _indices(effects)
    boxes = card.boxes

    def key(s: Internals) -> Hashable:
        d = s.destroyed
        return (
            tuple(d[k] for k in effect),
            tuple(sorted((boxes[k], d[k]) for k in other)),
            s.catastrophic,
            s.queue,
            s.extra,
        )

    def count_key(s: Internals) -> Hashable:
        return sum(s.destroyed), s.catastrophic, s.queue, s.extra

    by_count = detail == "count" and all(isinstance(item, int) for item in queue)
    return dice.fold(start, [chart.step] * steps, key=count_key if by_count else key)


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
    events = list(internals.events)
    after = _wrecked(
        card,
        ship.evolve(destroyed=internals.destroyed, catastrophic=internals.catastrophic),
        events,
    )
    return duel.with_ship(ship_id, after), tuple(events)


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
