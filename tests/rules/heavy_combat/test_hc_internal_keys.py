"""The internal-hit fold's step on its keys: the exact enumerator makes a state only for a
key reached first, and reads every other outcome's key from the step's `keys`. That is
exact only if `keys` gives, for every state and outcome, the key of the state `then`
makes; and the key (one whole number) must merge states exactly as
`canonical_destroyed` does (R001.25, R001.34, R001.35, R001.37)."""

from __future__ import annotations

import itertools
import math

import pytest
from hc_builders import duel, ship_state, with_ship

from tactical.dice import Distribution
from tactical.dice.exact import enumerate_outcomes
from tactical.rules.heavy_combat import internals
from tactical.rules.heavy_combat.internals import (
    EFFECT_CATEGORIES,
    FAILING_EFFECT_CATEGORIES,
    Internals,
    canonical_destroyed,
    effect_losses,
    internal_losses_odds,
    internal_odds,
)
from tactical.rules.heavy_combat.ships import profile


@pytest.fixture
def checked_keys(monkeypatch):
    """Every call of a step's `keys` compared with the keys of the states `then` makes."""
    calls = []
    real = internals._Turn.keys

    def checking(turn, s, name, outcomes):
        found = real(turn, s, name, outcomes)
        assert name == turn.key(s)
        assert found == [turn.key(turn.then(s, outcome)) for outcome in outcomes]
        calls.append(len(outcomes))
        return found

    internals._step.cache_clear()  # steps made afresh, with the checking `keys`
    monkeypatch.setattr(internals._Turn, "keys", checking)
    yield calls
    monkeypatch.undo()
    internals._step.cache_clear()


@pytest.mark.parametrize("effects", [EFFECT_CATEGORIES, FAILING_EFFECT_CATEGORIES])
@pytest.mark.parametrize("detail", ["systems", "count"])
def test_the_keys_of_a_step_are_those_of_the_states_it_makes(checked_keys, effects, detail):
    """Chart hits past the catastrophic threshold (its roll, the hits it adds, a queued hit
    put off meanwhile), specific-system hits on a live and on a destroyed system, a wreck."""
    state = with_ship(duel({}, {"internals": 23}), "b", destroyed=(4, 3, 2, 4, 1, 0))
    card, ship = profile(state.unit("b")), ship_state(state, "b")
    for queue in ((5,), (2, "bridge", "sensors", 1)):
        found = internal_odds(card, ship, queue, who="b", detail=detail, effects=effects)
        assert found.total == 1
    assert sum(checked_keys) > 100  # every layer of both folds was checked


def test_the_fold_key_merges_states_exactly_as_the_canonical_destroyed_boxes():
    card = profile(duel({}, {"internals": 23}).unit("b"))
    assert card.boxes == (4, 4, 4, 4, 4, 3)  # three interchangeable rows without an effect
    for effects in (EFFECT_CATEGORIES, FAILING_EFFECT_CATEGORIES):
        key = internals._fold_key(card.boxes, effects, False)
        seen: dict = {}
        for destroyed in itertools.product(*(range(n + 1) for n in card.boxes)):
            state = Internals(destroyed, False)
            seen.setdefault(key(state), set()).add(canonical_destroyed(card, destroyed, effects))
        assert all(len(canonicals) == 1 for canonicals in seen.values())  # never merges more
        assert len(seen) == len(set().union(*seen.values()))  # nor less


def test_the_odds_of_internal_hits_equal_their_enumerated_resolution():
    """The fold read step by step by its keys, against the resolver replayed whole."""
    state = with_ship(duel({}, {"internals": 23}), "b", destroyed=(4, 4, 3, 2, 2, 1))
    card, ship = profile(state.unit("b")), ship_state(state, "b")
    fast = internal_odds(card, ship, (3,), who="b").map(
        lambda s: (canonical_destroyed(card, s.destroyed), s.catastrophic)
    )
    slow = enumerate_outcomes(
        lambda dice: internals.internal_damage(card, ship, (3,), dice, who="b"),
        key=lambda s: (canonical_destroyed(card, s.destroyed), s.catastrophic),
    ).map(lambda s: (canonical_destroyed(card, s.destroyed), s.catastrophic))
    assert isinstance(fast, Distribution) and fast.as_dict() == slow.as_dict()


@pytest.mark.parametrize("effects", [EFFECT_CATEGORIES, FAILING_EFFECT_CATEGORIES])
@pytest.mark.parametrize(
    ("destroyed", "queue"),
    [
        ((0, 0, 0, 0, 0, 0), (6,)),  # every row of capacity 4 interchangeable
        ((2, 2, 1, 2, 3, 1), (7,)),  # pools by boxes lost; the catastrophic roll and its hits
        ((1, 0, 1, 0, 0, 2), (2, "sensors", 2)),  # a specific-system hit told apart
        ((4, 4, 4, 3, 2, 1), (2,)),  # the last boxes, perhaps a wreck
    ],
)
def test_the_merged_odds_of_internal_hits_are_those_of_the_whole_fold(effects, destroyed, queue):
    """Interchangeable rows merged and their chance shared out again give, exactly, the
    boxes lost by each row with an effect, the others up to the chart's symmetry, and the
    catastrophic roll of the fold that tells every row apart (R001.34, R001.35)."""
    state = with_ship(duel({}, {"internals": 23}), "b", destroyed=destroyed)
    card, ship = profile(state.unit("b")), ship_state(state, "b")

    def told(s: Internals) -> tuple:
        lost = tuple(a - b for a, b in zip(s.destroyed, destroyed, strict=True))
        return (
            effect_losses(lost, effects),
            canonical_destroyed(card, s.destroyed, effects),
            s.catastrophic,
        )

    merged = internal_losses_odds(card, ship, queue, who="b", effects=effects)
    whole = internal_odds(card, ship, queue, who="b", effects=effects)
    assert merged.total == 1 and len(merged) == len(whole) > 1
    assert merged.map(told).as_dict() == whole.map(told).as_dict()
    assert all(s.log == () for s, _ in merged)  # final states without their logs


@pytest.mark.parametrize(
    ("losses", "told"),
    [
        ((0, 0, 1, 2, 4), (True, True, True, True, False)),
        ((1, 1, 1, 3), (True, False, True, False)),
        ((0, 2, 2, 4, 4), (True,) * 5),
        ((3, 3), (False, False)),
    ],
)
def test_a_merged_state_is_shared_out_as_every_ordering_of_its_losses(losses, told):
    """Each arrangement told apart gets as many shares as there are orderings of the
    pool's losses (equal losses counted apart) that show it: all of them counted alike."""
    counted: dict = {}
    for order in itertools.permutations(losses):
        shown = tuple(lost for lost, apart in zip(order, told, strict=True) if apart)
        counted[shown] = counted.get(shown, 0) + 1
    found = internals._arrangements(losses, told)
    assert sum(count for _, count in found) == math.factorial(len(losses))
    assert {
        tuple(lost for lost, apart in zip(placed, told, strict=True) if apart): count
        for placed, count in found
    } == counted
    assert all(sorted(placed) == sorted(losses) for placed, _ in found)
