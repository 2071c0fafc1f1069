"""Checks shared by the rule systems' tests of `read_for_conditions` (the computer players
read an attack for its units' conditions alone, and a resolver may merge the outcomes that
leave every condition the same): the odds of every condition with the resolver's replays
counted, the fewest replays an enumeration is allowed, and a rolled attack that is the
same inside the flag as outside it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import nullcontext

from tactical.dice import SeededDice, TooManyOutcomes, enumerate_outcomes
from tactical.model.worded import conditions_only, read_for_conditions, unworded

MOST_REPLAYS = 4096  # the bounds searched: every attack of these tests needs fewer


def conditions_odds(
    system,
    state,
    attack,
    resolve: Callable,
    *,
    merged: bool,
    max_nodes: int = 2_000_000,
    units=None,
):
    """The odds of every unit's condition (`units`: the state's own by default) after
    `resolve(state, attack, dice)`, read for conditions (`merged`) or not, and how many
    times the resolver ran."""
    units = state.units if units is None else units
    runs = [0]

    def conditions(dice):
        runs[0] += 1
        return tuple(system.unit_conditions(resolve(state, attack, dice).state, units))

    with unworded(), read_for_conditions() if merged else nullcontext():
        found = enumerate_outcomes(conditions, max_nodes=max_nodes)
    return found, runs[0]


def least_bound(system, state, attack, resolve: Callable, *, merged: bool, units=None) -> int:
    """The fewest replays `conditions_odds` is allowed without being refused."""

    def refused(max_nodes: int) -> bool:
        try:
            conditions_odds(
                system, state, attack, resolve, merged=merged, max_nodes=max_nodes, units=units
            )
        except TooManyOutcomes:
            return True
        return False

    low, high = 1, MOST_REPLAYS  # refused below low, not at high
    while low < high:
        middle = (low + high) // 2
        if refused(middle):
            low = middle + 1
        else:
            high = middle
    return low


def assert_rolled_the_same(resolve: Callable, state, attack, seeds: Iterable[int]) -> None:
    """Only an enumeration merges: seeded dice make the same rolls, state and summary
    inside `read_for_conditions` as outside it, and the flag is set only inside."""
    for seed in seeds:
        plain, read = SeededDice(seed), SeededDice(seed)
        with unworded():
            expected = resolve(state, attack, plain)
        with unworded(), read_for_conditions():
            assert conditions_only()
            found = resolve(state, attack, read)
        assert found.state == expected.state and found.summary == expected.summary
        assert read.rolls == plain.rolls
    assert not conditions_only()
