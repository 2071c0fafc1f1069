"""The Initiative Phase (R004.11-R004.14): the contest, the bonus tracker, the Masterstroke.

Every captain rolls his Initiative die code plus his Initiative Bonus. Equal
totals re-roll among the tied captains (bonuses still added) until resolved;
a re-roll decides only the order inside the tied group (R004.11, "any draws
are rerolled"). The Masterstroke margin (R004.13, A004.4) is the winner's
final total against the best other total that competed with it: the best
total outside the top group, or inside it after its re-roll (A004.3: draws are
judged after bonuses).

Exact odds: one round of rolls is `contest_round`, a fold over the captains
keyed by (top total, captains at the top, best total outside them). Its exact
distribution is composed from each captain's own total distribution (the
enumerated `roll_code`): enumerating the round as one joint replay costs
(states x a nested roll) per captain and is out of reach with six captains,
while the composition is polynomial; the tests check the two agree exactly.
Re-rolls are composed the same way: a tied subset is the same contest among
fewer captains, and a tie of every captain repeats the contest itself, so its
outcomes are the round's other outcomes scaled by 1 / (1 - P(tie)) — the
exact value of "re-roll until resolved", which no finite replay could reach.
The odds name each captain by his place among the entries: captains with the same
code and bonus in the same places contest alike, so a tied group's re-roll is worked
out once for every group of alike captains, and named after each group's own.
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from tactical.dice import Dice, Distribution, enumerate_outcomes
from tactical.dice.exact import remembering
from tactical.rules.base import Event
from tactical.rules.sw_d6_capital.codes import CodeRoll, roll_code
from tactical.rules.sw_d6_capital.tables import PIPS_PER_DIE

MASTERSTROKE_MARGIN = 10  # R004.13


@dataclass(frozen=True, slots=True)
class Entry:
    """A captain in the contest: his ship, Initiative die code (pips), Initiative Bonus."""

    ship: str
    pips: int
    bonus: int

    @property
    def rolls_dice(self) -> bool:
        return self.pips >= PIPS_PER_DIE


@dataclass(frozen=True, slots=True)
class Round:
    """One round of Initiative rolls: totals in entry order and the summary the key keeps."""

    rolls: tuple[CodeRoll, ...]
    totals: tuple[int, ...]
    top: int
    leaders: tuple[str, ...]
    runner_up: int | None


def _round_key(round_: Round) -> Hashable:
    return round_.top, round_.leaders, round_.runner_up


def combine(
    top: int, leaders: tuple[Hashable, ...], runner_up: int | None, ship: Hashable, total: int
) -> tuple[int, tuple[Hashable, ...], int | None]:
    """One captain's total added to the round so far: (top total, captains on it, best
    total below it). The one rule both `contest_round` and `round_odds` apply (the odds
    name a captain by his place)."""
    if total > top:
        return total, (ship,), top if leaders else None
    if total == top:
        return top, (*leaders, ship), runner_up
    # (a comparison rather than max(): the exact odds make this call a great many times)
    return top, leaders, total if runner_up is None or total > runner_up else runner_up


def contest_round(entries: Sequence[Entry], dice: Dice, round_no: int = 1) -> Round:
    """R004.11: every captain in `entries` rolls Initiative + bonus once."""

    def roll_for(entry: Entry):
        def step(state: Round, source: Dice) -> Round:
            roll = roll_code(
                entry.pips, source, who=entry.ship, what=f"initiative round {round_no}"
            )
            total = roll.total + entry.bonus
            top, leaders, runner = combine(
                state.top, state.leaders, state.runner_up, entry.ship, total
            )
            return Round((*state.rolls, roll), (*state.totals, total), top, leaders, runner)

        return step

    start = Round((), (), -1, (), None)
    return dice.fold(start, [roll_for(entry) for entry in entries], key=_round_key)


@dataclass(frozen=True)
class Contest:
    """The resolved contest: the order (highest first), first-round totals, the winner's final
    total and the best total that competed with it (R004.13), and the rolls as events."""

    order: tuple[str, ...]
    totals: tuple[tuple[str, int], ...]
    winner_total: int
    runner_up: int | None
    events: tuple[Event, ...]

    @property
    def winner(self) -> str:
        return self.order[0]

    @property
    def margin(self) -> int | None:
        return None if self.runner_up is None else self.winner_total - self.runner_up

    @property
    def masterstroke(self) -> bool:
        """R004.13: the winner beat the next-highest total by 10 or more."""
        return self.margin is not None and self.margin >= MASTERSTROKE_MARGIN


def _max(a: int | None, b: int | None) -> int | None:
    if a is None:
        return b
    if b is None:
        return a
    return max(a, b)


def resolve_contest(entries: Sequence[Entry], dice: Dice, round_no: int = 1) -> Contest:
    """R004.11: roll, then re-roll every group of equal totals among itself until resolved."""
    entries = tuple(entries)
    played = contest_round(entries, dice, round_no)
    events: list[Event] = []
    for entry, roll, total in zip(entries, played.rolls, played.totals, strict=True):
        events.append(
            roll.event(
                entry.ship,
                f"initiative round {round_no}",
                "R004.11",
                bonus=entry.bonus,
                with_bonus=total,
            )
        )
    by_total: dict[int, list[Entry]] = {}
    for entry, total in zip(entries, played.totals, strict=True):
        by_total.setdefault(total, []).append(entry)
    order: list[str] = []
    winner_total, runner_up = played.top, played.runner_up
    for total in sorted(by_total, reverse=True):
        group = by_total[total]
        if len(group) == 1:
            order.append(group[0].ship)
            continue
        if not any(entry.rolls_dice for entry in group):
            # no dice to re-roll: the draw cannot be broken; table order stands
            events.append(Event.of("draw-stands", "R004.11", ships=tuple(e.ship for e in group)))
            order.extend(entry.ship for entry in group)
            if total == played.top:
                runner_up = total
            continue
        events.append(Event.of("draw", "A004.3", total=total, ships=tuple(e.ship for e in group)))
        sub = resolve_contest(group, dice, round_no + 1)
        events.extend(sub.events)
        order.extend(sub.order)
        if total == played.top:
            winner_total, runner_up = sub.winner_total, _max(sub.runner_up, played.runner_up)
    return Contest(
        tuple(order),
        tuple((entry.ship, total) for entry, total in zip(entries, played.totals, strict=True)),
        winner_total,
        runner_up,
        tuple(events),
    )


# --------------------------------------------------------------------------- exact odds


@lru_cache(maxsize=256)
def total_odds(entry: Entry) -> Distribution[int]:
    """One captain's Initiative total (roll + bonus), enumerating `roll_code` itself."""
    return enumerate_outcomes(lambda dice: roll_code(entry.pips, dice).total + entry.bonus)


RoundKey = tuple[int, tuple[str, ...], int | None]
# the captains of a contest as the odds see them: each one's (pips, bonus), in entry order
# (a captain's place stands for his ship: captains alike in the same places contest alike)
Signature = tuple[tuple[int, int], ...]


def round_weights(
    entries: Sequence[Entry], prefixes: dict | None = None
) -> tuple[dict[RoundKey, int], int]:
    """(weight of each (top, leaders, runner_up), common denominator) of one `contest_round`:
    the round's own `combine` folded over each captain's total distribution (`total_odds`,
    from `roll_code`), in integers.

    This is the fold `contest_round` performs under the enumerator, which would recompute
    each captain's nested roll once per state and is out of reach with six captains; the
    tests check the two agree exactly. `prefixes`, if given, remembers the fold after each
    run of first captains (`_round_folded`)."""
    entries = tuple(entries)
    states, denominator = _round_folded(_signature(entries), {} if prefixes is None else prefixes)
    ships = tuple(entry.ship for entry in entries)
    named = {
        (top, tuple(ships[place] for place in leaders), runner_up): weight
        for (top, leaders, runner_up), weight in states.items()
    }
    return named, denominator


def _signature(entries: Sequence[Entry]) -> Signature:
    return tuple((entry.pips, entry.bonus) for entry in entries)


def _round_folded(signature: Signature, prefixes: dict) -> tuple[dict[tuple, int], int]:
    """`round_weights` with each captain's place in the entries for his ship. `prefixes`
    remembers the fold after each run of first captains: the contests of tied groups share
    them (a group of the first four captains and another of the first three and the fifth
    fold the first three once; and so do groups whose first captains are alike, by place)."""
    done = len(signature)
    while done and signature[:done] not in prefixes:
        done -= 1
    states, denominator = prefixes[signature[:done]] if done else ({(-1, (), None): 1}, 1)
    for number in range(done, len(signature)):
        pips, bonus = signature[number]
        odds = total_odds(Entry("", pips, bonus))  # a captain's total whoever he is
        common = math.lcm(*(p.denominator for _, p in odds))
        counts = [(value, int(p * common)) for value, p in odds]
        denominator *= common
        states = _with_captain(states, counts, number)
        prefixes[signature[: number + 1]] = states, denominator
    return states, denominator


def _with_captain(
    states: dict[tuple, int], counts: list[tuple[int, int]], ship: Hashable
) -> dict[tuple, int]:
    """The round's states after one more captain's total (`counts`: each total's weight), by
    `combine`, in the order the enumeration reaches them.

    With the totals listed from the lowest (as the enumeration reaches them), `combine`
    moves a state (top, leaders, best below) in three ways, and each is added at once:
    every total at or below the best below leaves the state as it is; every total between
    the best below and the top makes (top, leaders, that total) whatever the best below
    was, so the states sharing (top, leaders) share those slots, each from its own best
    below up (a running sum over the totals); every total above the top makes the same
    state whatever the leaders and the best below (that total alone on top, the old top
    below it), so the states sharing a top share those slots. Each slot is made where the
    first state to reach it would have made it."""
    values = [value for value, _ in counts]
    following: dict[tuple, int] = {}
    get = following.get
    if not all(a < b for a, b in itertools.pairwise(values)):
        for (top, leaders, runner), weight in states.items():
            for value, count in counts:
                key = combine(top, leaders, runner, ship, value)
                following[key] = get(key, 0) + weight * count
        return following
    sizes = [count for _, count in counts]
    below_sums = list(itertools.accumulate(sizes))
    last = len(counts)
    # (top, leaders) -> [first total reached, end, slot of each total, weight from each total]
    between: dict[tuple[int, tuple[str, ...]], list] = {}
    above: dict[tuple[int, bool], list] = {}  # (top, any leader) -> [weight, slots]
    # where the totals at or below a best below end, and those below and at a top (by value)
    starts = {None: 0} | {value: bisect.bisect_right(values, value) for value in values}
    stops: dict[int, tuple[int, int]] = {}
    for state, weight in states.items():
        top, leaders, runner = state
        start = starts.get(runner)
        if start is None:
            start = starts[runner] = bisect.bisect_right(values, runner)
        if start:  # `combine` leaves the state as it is: its own slot
            following[state] = get(state, 0) + weight * below_sums[start - 1]
        bounds = stops.get(top)
        if bounds is None:
            stop = bisect.bisect_right(values, top)
            bounds = stops[top] = stop, stop - 1 if stop and values[stop - 1] == top else stop
        stop, end = bounds  # `end`: the totals below the top
        if start < end:
            group = between.get((top, leaders))
            if group is None:
                group = between[top, leaders] = [end, end, [None] * end, [0] * end]
            if start < group[0]:
                for index in range(start, group[0]):  # the slots no state of the group made
                    key = combine(top, leaders, runner, ship, values[index])
                    following.setdefault(key, 0)
                    group[2][index] = key
                group[0] = start
            group[3][start] += weight
        if end < stop:  # a total equal to the top
            key = combine(top, leaders, runner, ship, top)
            following[key] = get(key, 0) + weight * sizes[end]
        if stop == last:
            continue
        shared = above.get((top, bool(leaders)))
        if shared is None:
            slots = []
            for value, count in counts[stop:]:
                key = combine(top, leaders, runner, ship, value)
                following.setdefault(key, 0)
                slots.append((key, count))
            above[top, bool(leaders)] = [weight, slots]
        else:
            shared[0] += weight
    for first, end, slots, starting in between.values():
        running = 0
        for index in range(first, end):
            running += starting[index]
            following[slots[index]] += running * sizes[index]
    for weight, slots in above.values():
        for key, count in slots:
            following[key] += weight * count
    return following


def round_odds(entries: Sequence[Entry]) -> dict[RoundKey, Fraction]:
    """P(top, leaders, runner_up) of one `contest_round`, exactly (`round_weights`)."""
    weights, denominator = round_weights(entries)
    return {key: Fraction(weight, denominator) for key, weight in weights.items()}


Outcomes = tuple[int, dict[tuple[int, int, bool], int]]  # (denominator, numerators by place)


def top_outcomes(entries: Sequence[Entry]) -> dict[tuple[str, int, bool], Fraction]:
    """P(winner, winner's final total, beat every competitor by 10+) of `resolve_contest`.

    "Beat by 10+" is all a tied group's re-roll contributes to its parent: the parent's
    Masterstroke also needs the winner's final total against the best total outside the
    group (R004.13), which is why the final total is kept.
    """
    ships = tuple(entry.ship for entry in entries)
    # the rounds make and drop a great many small tuples, none in a cycle: composed as an
    # enumeration is made, without the cyclic collector's passes (`remembering`)
    with remembering():
        denominator, numerators = _top_weights(_signature(entries), {}, {})
    return {
        (ships[place], final, beat): Fraction(weight, denominator)
        for (place, final, beat), weight in numerators.items()
    }


def _top_weights(signature: Signature, memo: dict, prefixes: dict) -> Outcomes:
    """`top_outcomes` as integer numerators over one denominator, in the order the outcomes
    are first reached (exact, and far cheaper than Fractions), each captain named by his
    place; `memo` remembers the contest of each group (by its captains, alike groups once),
    `prefixes` the rounds' folds (`_round_folded`)."""
    if signature in memo:
        return memo[signature]
    ships = tuple(range(len(signature)))
    rollers = frozenset(k for k, alike in enumerate(signature) if Entry("", *alike).rolls_dice)
    weights, denominator = _round_folded(signature, prefixes)
    plain: dict[tuple[int, int, bool], int] = {}
    everyone_tied = 0
    # ties of some captains: by group, the weights of the best total outside the group
    # (whatever the group's own total: only its re-roll decides the final total)
    tied: dict[tuple[int, ...], dict[int, int]] = {}
    margin, get = MASTERSTROKE_MARGIN, plain.get  # the loop's, read once
    for (top, leaders, runner_up), weight in weights.items():
        if len(leaders) == 1:
            key = (leaders[0], top, runner_up is not None and top - runner_up >= margin)
            plain[key] = get(key, 0) + weight
            continue
        if rollers.isdisjoint(leaders):
            key = (leaders[0], top, False)
            plain[key] = get(key, 0) + weight
            continue
        if leaders == ships:
            everyone_tied += weight
            continue
        runners = tied.setdefault(leaders, {})
        runners[runner_up] = runners.get(runner_up, 0) + weight  # type: ignore[index]
    resolved = denominator - everyone_tied  # a full tie re-rolls: scale by 1 / (1 - P(tie))
    # every share over resolved x scale, scale the lcm of the tied groups' denominators
    subs = [
        (_top_weights(tuple(signature[k] for k in leaders), memo, prefixes), runners, leaders)
        for leaders, runners in tied.items()
    ]
    scale = math.lcm(*(sub_denominator for (sub_denominator, _), _, _ in subs))
    result = {key: weight * scale for key, weight in plain.items()}
    get = result.get
    for (sub_denominator, sub), runners, leaders in subs:
        values = sorted(runners)
        factor = scale // sub_denominator  # the runners' weights scaled once, not per outcome
        cumulative = list(itertools.accumulate(runners[v] * factor for v in values))
        overall = cumulative[-1]
        for (winner, final, beat), q in sub.items():
            clear = 0
            if beat:  # the best total outside the group at most the final total - 10
                index = bisect.bisect_right(values, final - margin)
                clear = cumulative[index - 1] if index else 0
            for flag, weight in ((True, clear), (False, overall - clear)):
                if weight:
                    key = (leaders[winner], final, flag)  # the group's place in this contest
                    result[key] = get(key, 0) + q * weight
    common = math.gcd(resolved * scale, *result.values())
    found = (resolved * scale // common, {key: w // common for key, w in result.items()})
    memo[signature] = found
    return found


def contest_odds(entries: Sequence[Entry]) -> Distribution[tuple[str, bool]]:
    """The exact distribution of (winner, Masterstroke) of the contest (R004.11, R004.13)."""
    if not entries:
        return Distribution(())
    outcomes = top_outcomes(entries)
    return Distribution.from_weights(
        ((winner, beat), p) for (winner, _total, beat), p in outcomes.items()
    )


# --------------------------------------------------------------------------- the tracker


def next_bonuses(bonuses: dict[str, int], winner: str) -> dict[str, int]:
    """R004.12 (A004.2): the winner's bonus grows by 1 while he keeps winning; every other
    captain's resets to 0 — bonus(t) = turns won in a row just before t."""
    return {ship: (bonus + 1 if ship == winner else 0) for ship, bonus in bonuses.items()}


def ordered(order: Sequence[str], direction: str) -> tuple[str, ...]:
    """R004.14: "highest-first" (firing) or "lowest-first" (orders, movement)."""
    return tuple(order) if direction == "highest-first" else tuple(reversed(order))
