"""A000.E1: a laser shot or a missile salvo read for its units' conditions alone
(`read_for_conditions`, the computer players' material value) merges the outcomes that
leave every condition the same (not the CIWS survivors, not the laser strength lost); the
odds of the conditions stay those of every outcome apart, outcome by outcome, with fewer
replays, and the replay bound refuses the very attacks it refused."""

from __future__ import annotations

from dataclasses import replace

import pytest
from conditions_reading import assert_rolled_the_same, conditions_odds, least_bound

from tactical.dice import TooManyOutcomes, enumerate_outcomes
from tactical.io import builtin_map, load_map
from tactical.model import FrozenMap
from tactical.rules import registry
from tactical.rules.battlefleet_mars import chance
from tactical.rules.battlefleet_mars.outcome import record_results

START = load_map(builtin_map("battlefleet-mars"))
SYSTEM = registry.get(START.rules)
SALVO_AT_CATAPULT = ("deimos-base", "missiles", "ares-catapult", {"missiles": 6, "ciws": True})
NINE_AT_THE_BASE = ("ares-missiles", "missiles", "deimos-base", None)  # 9 missiles, CIWS


def _hurt(target: str, *results: str, **options: object):
    state = record_results(START, target, results)
    if options:
        state = replace(state, options=FrozenMap({**state.options, **options}))
    return state


CASES = {
    # CIWS survivors and L results (laser strength lost) merged away
    "salvo at the catapult": (START, SALVO_AT_CATAPULT),
    "nine missiles at the base": (START, NINE_AT_THE_BASE),
    # a record near crippling: most salvos cripple it, whatever else they did
    "salvo at a hurt catapult": (_hurt("ares-catapult", "B3"), SALVO_AT_CATAPULT),
    # no laser damage played: the room has no laser to lose
    "salvo, no laser damage": (
        _hurt("ares-catapult", "B1", laser_damage=False),
        SALVO_AT_CATAPULT,
    ),
    # B and L results of equal points merged, a miss and "-" merged
    "laser at the cruiser": (START, ("deimos-base", "laser", "ares-cruiser", None)),
    "laser at the base": (START, ("ares-cruiser", "laser", "deimos-base", None)),
    # a fighter destroyed or not (R000.10), whatever the result
    "laser at fighters": (START, ("mars-fighters", "laser", "ares-fighters", None)),
    "salvo at fighters": (START, ("deimos-base", "missiles", "ares-fighters", {"missiles": 4})),
}


def _attack(state, declared):
    attacker, weapon, target, params = declared
    return SYSTEM.declare_attack(state, attacker, weapon, target, params or {})


def _conditions_odds(state, declared, *, merged: bool):
    """The odds of every starting unit's condition after the attack, and the replays."""
    attack = _attack(state, declared)
    return conditions_odds(
        SYSTEM, state, attack, SYSTEM.resolve_attack, merged=merged, units=START.units
    )


def _least_bound(case: str, *, merged: bool) -> int:
    state, declared = CASES[case]
    attack = _attack(state, declared)
    return least_bound(
        SYSTEM, state, attack, SYSTEM.resolve_attack, merged=merged, units=START.units
    )


@pytest.mark.parametrize("case", sorted(CASES))
def test_A000_E1_merged_outcomes_leave_the_odds_of_every_condition_the_same(case):
    state, declared = CASES[case]
    apart, apart_runs = _conditions_odds(state, declared, merged=False)
    merged, merged_runs = _conditions_odds(state, declared, merged=True)
    assert merged.pairs == apart.pairs  # the same outcomes, order and odds
    assert len(apart.pairs) > 1  # the attack can change a condition
    if case == "salvo at fighters":  # no CIWS at fighters: nothing to merge
        assert merged_runs == apart_runs
    else:
        assert merged_runs < apart_runs


def test_A000_E1_the_salvos_that_merge_most():
    """The figures: a 6-missile salvo with CIWS at the catapult replays its resolver 8 times
    instead of 68, nine missiles at the base 11 instead of 132."""
    runs = {
        case: tuple(_conditions_odds(*CASES[case], merged=m)[1] for m in (False, True))
        for case in ("salvo at the catapult", "nine missiles at the base")
    }
    assert runs == {"salvo at the catapult": (68, 8), "nine missiles at the base": (132, 11)}


def test_A000_E1_a_rolled_attack_is_the_same_read_for_conditions():
    """Only an enumeration merges: rolled dice make the same rolls, state and summary."""
    for case in ("salvo at the catapult", "laser at the cruiser", "laser at fighters"):
        state, declared = CASES[case]
        assert_rolled_the_same(SYSTEM.resolve_attack, state, _attack(state, declared), range(4))


def test_A000_E1_merged_outcomes_are_refused_by_the_same_bounds():
    """The replays are counted as before (the salvo's own, more than the merged outcomes):
    a computer player's bound refuses the same attacks (nine missiles at the base need
    1,353, as before the merge)."""
    assert _least_bound("nine missiles at the base", merged=False) == 1353
    assert _least_bound("nine missiles at the base", merged=True) == 1353
    for case in ("salvo at the catapult", "laser at the cruiser"):
        least = _least_bound(case, merged=False)
        assert least > 10, case
        assert _least_bound(case, merged=True) == least, case


def test_R000_22_a_salvo_by_condition_is_refused_where_its_folds_were():
    """Nine missiles at a ship with CIWS 3, as a value: merged by condition, the sub-roll
    still needs its 2,783 replays (the folds inside keep the survivors apart)."""
    options = {"missile_to_hit": "auto", "missile_to_hit_score": 5}
    room = chance.Room(12, 4)
    for by_condition in (False, True):
        plan = chance.salvo_roll(
            9, 3, "ship", "ship", options, who="a", target="t", room=room, words=False,
            by_condition=by_condition,
        )  # fmt: skip

        def refused(bound, plan=plan):
            try:
                enumerate_outcomes(plan, key=plan.key, max_nodes=bound)
            except TooManyOutcomes:
                return True
            return False

        assert [refused(n) for n in (2782, 2783)] == [True, False], by_condition


def test_A000_E1_a_salvo_by_condition_is_another_value():
    """Merged or not, the salvo is two values (the sub-roll memory keeps them apart)."""
    options = {"missile_to_hit": "auto", "missile_to_hit_score": 5}
    plain = chance.salvo_roll(4, 3, "ship", "ship", options, room=chance.Room(5, 3), words=False)
    merged = chance.salvo_roll(
        4, 3, "ship", "ship", options, room=chance.Room(5, 3), words=False, by_condition=True
    )
    assert plain != merged
    found = enumerate_outcomes(merged, key=merged.key)
    assert len(found) < len(enumerate_outcomes(plain, key=plain.key))


def test_A000_E1_a_ship_without_its_room_is_never_merged_blind():
    """A shot or salvo at a ship whose room is not given merges by condition nothing more
    than it would without (a ship is never "destroyed": merging by that lost its damage)."""
    options = {"missile_to_hit": "auto", "missile_to_hit_score": 5}
    plain = chance.salvo_roll(3, 4, "ship", "ship", options, words=False)
    merged = chance.salvo_roll(3, 4, "ship", "ship", options, words=False, by_condition=True)
    assert len(enumerate_outcomes(merged, key=merged.key)) == len(
        enumerate_outcomes(plain, key=plain.key)
    )
    shot = chance.LaserRoll(6, 4, "ship", "a", "t")
    blind = chance.LaserRoll(6, 4, "ship", "a", "t", True, "ship", None)
    assert (
        len(enumerate_outcomes(blind, key=blind.key))
        == len(enumerate_outcomes(shot, key=shot.key))
        > 2
    )
