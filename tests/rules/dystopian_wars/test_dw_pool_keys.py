"""The Attack Dice pool's fold steps on their keys (G.5): a die thrown and an exploding die
move a pool's key as the pool itself does, so the exact enumerator makes a pool only
where a key is reached first and finds the same pools, weights and order as making them
all."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tactical.dice import D6
from tactical.dice.core import ChanceStep, DieStep, PureSteps
from tactical.dice.exact import fold_outcomes
from tactical.rules.dystopian_wars.dicework import PoolRules, PoolState, _pool_keys, _pool_steps

RULES = (PoolRules(4, 2, True), PoolRules(5, 2, True), PoolRules(4, 1, False))


def _key(pool: PoolState, enough: int) -> tuple[int, int]:
    return min(pool.hits, enough), (pool.pending if pool.hits < enough else 0)


@pytest.mark.parametrize("rules", RULES)
def test_G5_a_die_thrown_moves_the_key_as_the_pool(rules):
    for enough in (1, 3, 6):
        shifted, _ = _pool_keys(rules, enough)
        for hits in range(enough + 3):
            for pending in range(3):
                pool = PoolState(hits, pending, ())
                for face in D6.values:
                    thrown = PoolState(
                        hits + rules.hits(face),
                        pending + (1 if face == 6 and rules.exploding else 0),
                        (face,),
                    )
                    assert shifted(_key(pool, enough), face) == _key(thrown, enough)


def test_G5_an_exploding_die_moves_the_key_as_the_pool():
    rules = RULES[0]
    for enough in (2, 5):
        _, exploded_keys = _pool_keys(rules, enough)
        for hits in range(enough):
            for pending in (1, 2):
                pool = PoolState(hits, pending, ())
                faces = tuple(D6.values)
                expected = [
                    _key(PoolState(hits + rules.hits(f), pending - 1 + (f == 6), ()), enough)
                    for f in faces
                ]
                assert list(exploded_keys(pool, _key(pool, enough), faces)) == expected
                # asked again (the row remembered): the same
                assert list(exploded_keys(pool, _key(pool, enough), faces)) == expected
        # a pool that rolls nothing keeps its key
        done = PoolState(enough, 1, ())
        assert list(exploded_keys(done, _key(done, enough), (None,))) == [(enough, 0)]


def _without_keys(steps):
    """The same steps, the enumerator left to make every pool and key it."""
    plain = []
    for step in steps:
        if isinstance(step, DieStep):
            plain.append(replace(step, shift=None))
        elif isinstance(step, ChanceStep):
            plain.append(ChanceStep(step.roll, step.then))
        else:
            plain.append(step)
    return PureSteps(plain)


@pytest.mark.parametrize("rules", RULES)
def test_G5_a_pool_folds_alike_with_and_without_its_keys(rules):
    for dice, enough in ((1, 1), (3, 2), (5, 4), (8, 6)):
        steps, key = _pool_steps(dice, rules, enough, "", "AD vs ")
        start = PoolState(0, 0, ())
        keyed = fold_outcomes(start, steps, key=key, max_nodes=100_000).pairs
        plain = fold_outcomes(start, _without_keys(steps), key=key, max_nodes=100_000).pairs
        assert keyed == plain
        assert [pool.faces for pool, _ in keyed] == [pool.faces for pool, _ in plain]
