"""R003.7 / A003.E1: the hit-delivery step says how it moves a volley's key (`ChanceStep.keys`)
exactly as the volley it makes reads under that key, by volley and by condition, for a
vessel and a wing, a hit that rolls and one that does not: the exact odds then make a
volley only where its key is reached first. And `delivery_rolls` says which hits roll."""

from __future__ import annotations

import pytest
from cortex_builders import BATTLESTAR, RAIDER, VIPER, table, unit, with_stats

from tactical.dice import ScriptedDice, SeededDice, enumerate_outcomes, exact
from tactical.rules.cortex_space import combat, damage, gunnery

BASESTAR = with_stats(BATTLESTAR, strength="d12+d8", agility="d4", pilot="d6", armor_wound=2)
WING = {
    "scale": "planetcraft",
    "life_points": 14,
    "members": [{"id": "v1", "wound": 9}, {"id": "v2"}],
}
CASES = {
    "battery on a hurt basestar": (
        table(
            unit("galactica", 10, 24, "A", **BATTLESTAR),
            unit("basestar", 40, 24, "B", diameter=4, **with_stats(BASESTAR, wound=28)),
        ),
        ("galactica", "railguns", "basestar", {"battery": 3}),
    ),
    "viper on a raider (no roll)": (
        table(unit("viper", 10, 10, "A", **VIPER), unit("raider", 12, 10, "B", **RAIDER)),
        ("viper", "autocannons", "raider", {}),
    ),
    "viper on a wing of two": (
        table(
            unit("viper", 10, 10, "A", **VIPER),
            unit("wing", 12, 10, "B", **WING),
            wing_damage="random",
        ),
        ("viper", "autocannons", "wing", {}),
    ),
}


def _outcomes(roll) -> list:
    return [outcome for outcome, _, _ in exact._subroll_found(roll, True, 10**6)[0]]


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_R003_7_delivery_keys_are_the_keys_of_the_volleys_made(case):
    state, (attacker, weapon, target, params) = case
    plan = gunnery.plan_gun(state, combat.declare(state, attacker, weapon, target, params))
    initial, (strike, _) = gunnery._volley_steps(plan)
    wing = plan.receiver.wing
    folds = [
        (gunnery.volley_key, gunnery._volley_steps(plan)[1][1]),
        (gunnery._condition_keys(wing), gunnery._condition_steps(plan)[1]),
    ]
    strikes = [
        (gunnery.volley_key, gunnery._volley_steps(plan)[1][0]),
        (gunnery._condition_keys(wing), gunnery._condition_steps(plan)[0]),
    ]
    for key, step in strikes:  # the strike's step too
        rolled = _outcomes(step.roll(initial))
        made = [key(step.then(initial, outcome)) for outcome in rolled]
        assert step.keys(initial, key(initial), rolled) == made
    checked = 0
    for struck in _outcomes(strike.roll(initial)):
        volley = strike.then(initial, struck)
        for key, delivery in folds:
            sub = delivery.roll(volley)
            outcomes = [None] if sub is None else _outcomes(sub)
            made = [key(delivery.then(volley, outcome)) for outcome in outcomes]
            assert delivery.keys(volley, key(volley), outcomes) == made
            checked += len(outcomes)
    assert checked > 20


def _hit(target, receiver, dice):
    return damage.deliver(target, receiver, 3, 5, "planetcraft", dice, words=False)


def test_R003_25_and_R003_34_delivery_rolls_says_which_hits_roll():
    fresh = damage.Target((damage.Track(0, 0, 14),), _SYSTEMS)
    half = damage.Target((damage.Track(7, 0, 14),), _SYSTEMS)
    gone = damage.Target((damage.Track(14, 0, 14),), _SYSTEMS)
    pair = damage.Target((damage.Track(0, 0, 14), damage.Track(0, 0, 14)), _SYSTEMS)
    craft = _receiver(spacecraft=True)
    cases = [
        (fresh, craft, False),
        (half, craft, True),  # R003.25: past half the Life Points, battle damage
        (half, _receiver(), False),  # not a spacecraft
        (gone, craft, False),
        (pair, _receiver(wing=True, allocation="random"), True),  # R003.34
        (pair, _receiver(wing=True), False),  # the first fighter takes it
    ]
    for target, receiver, rolls in cases:
        assert damage.delivery_rolls(target, receiver) is rolls
        if rolls:
            with pytest.raises(AssertionError):
                _hit(target, receiver, damage.NO_DICE)
        else:
            assert _hit(target, receiver, damage.NO_DICE) == _hit(
                target, receiver, ScriptedDice([])
            )


_SYSTEMS = damage.Systems(0, 0, False, True, False, 6, ())


def _receiver(*, spacecraft=False, wing=False, allocation="first"):
    scale = "spacecraft" if spacecraft else "planetcraft"
    return damage.Receiver("t", scale, 0, 0, spacecraft, wing, True, True, True, allocation)


@pytest.mark.parametrize("words", [False, True])
def test_R003_25_a_delivery_made_ready_before_its_roll_delivers_as_deliver(words):
    """`Delivery` does `deliver`'s work before the battle-damage roll once (`landing_of`),
    then the roll: the same outcomes, events and odds, and the same rolls."""
    half = damage.Target((damage.Track(7, 0, 14),), _SYSTEMS_WITH_WEAPONS)
    pair = damage.Target((damage.Track(0, 0, 14), damage.Track(3, 0, 14)), _SYSTEMS)
    cases = [
        (half, _receiver(spacecraft=True)),
        (pair, _receiver(wing=True, allocation="random")),
        (pair, _receiver(wing=True)),
    ]
    for target, receiver in cases:
        hit = gunnery.Delivery(target, receiver, 3, 5, "spacecraft", words)

        def delivered(dice, target=target, receiver=receiver):
            return damage.deliver(target, receiver, 3, 5, "spacecraft", dice, words=words)

        assert enumerate_outcomes(hit).pairs == enumerate_outcomes(delivered).pairs
        for seed in range(3):
            rolled, called = SeededDice(seed), SeededDice(seed)
            assert hit(rolled) == delivered(called) and rolled.rolls == called.rolls


_SYSTEMS_WITH_WEAPONS = damage.Systems(
    0, 0, False, True, False, 6, (damage.WeaponState("guns", 2, 0, False),)
)
