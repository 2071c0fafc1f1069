"""R003.7 / A003.E1: the hit-delivery step says how it moves a volley's key (`ChanceStep.keys`)
exactly as the volley it makes reads under that key, by volley and by condition, for a
vessel and a wing: the exact odds then make a volley only where its key is reached first."""

from __future__ import annotations

import pytest
from cortex_builders import BATTLESTAR, VIPER, table, unit, with_stats

from tactical.dice import exact
from tactical.rules.cortex_space import combat, gunnery

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
