"""The shortcuts the computer players' speed rests on give what the long way gives: the
CIWS and damage rolls as `DieStep`s (R000.22, R000.13) move the fold's key as `shift`
says and enumerate to the odds of the same steps replayed; every unit's condition in one
call (A000.E1) is each unit's own; an attack declared on this very state resolves as one
checked again does."""

from __future__ import annotations

from fractions import Fraction

from tactical.dice import D10Z, ScriptedDice, SeededDice, enumerate_outcomes
from tactical.dice.core import DieStep
from tactical.io import builtin_map, load_map
from tactical.model.worded import unworded
from tactical.rules import registry
from tactical.rules.base import Attack
from tactical.rules.battlefleet_mars import chance, combat
from tactical.rules.battlefleet_mars import outcome as bfm_outcome
from tactical.rules.battlefleet_mars.tables import ciws_threshold

SHIP_OPTIONS = {"missile_to_hit": "auto", "missile_to_hit_score": 5}


def _replayed(steps):
    """The same steps as plain functions of a dice source (what the enumerator replays)."""
    return [lambda state, dice, step=step: step(state, dice) for step in steps]


class _Capture:
    """A dice source that records a fold's steps and rolls them with seeded dice."""

    def __init__(self) -> None:
        self.steps: list = []
        self.keys: list = []
        self.inner = SeededDice(3)

    def fold(self, initial, steps, key=None):
        self.steps.append(tuple(steps))
        self.keys.append(key)
        return self.inner.fold(initial, steps, key)

    def roll(self, die, **labels):
        return self.inner.roll(die, **labels)


def test_the_ciws_steps_shift_the_survivor_count_as_they_roll():
    capture = _Capture()
    chance.ciws_fire(4, 5, capture, target="t")
    (steps,), (key,) = capture.steps, capture.keys
    assert all(isinstance(step, DieStep) and step.die == D10Z for step in steps)
    volleys = [chance.CiwsVolley((), ()), chance.CiwsVolley((1, 3), ())]
    for k, step in enumerate(steps, start=1):
        for volley in volleys:
            for face in range(10):
                after = step.then(volley, face)
                assert key(after) == step.shift(key(volley), face)
                survives = (k,) if face > ciws_threshold(4, k) else ()
                assert after.survivors == (*volley.survivors, *survives)


def test_a_salvo_enumerates_to_the_odds_of_its_steps_replayed():
    def salvo(dice, *, replay: bool):
        if not replay:
            return chance.missile_salvo(4, 3, "ship", "fighter", SHIP_OPTIONS, dice).summary

        class Replaying:  # the same salvo, each fold's steps replayed (no DieStep shortcut)
            def __init__(self, inner):
                self.inner = inner

            def fold(self, initial, steps, key=None):
                return self.inner.fold(initial, _replayed(steps), key)

            def roll(self, die, **labels):
                return self.inner.roll(die, **labels)

            def chance(self, fn, key=None):
                return fn(self)  # the salvo's folds rolled here, their steps replayed

        return chance.missile_salvo(4, 3, "ship", "fighter", SHIP_OPTIONS, Replaying(dice)).summary

    fast = enumerate_outcomes(lambda dice: salvo(dice, replay=False))
    slow = enumerate_outcomes(lambda dice: salvo(dice, replay=True))
    assert fast.pairs == slow.pairs
    assert sum(p for _, p in fast.pairs) == Fraction(1)
    assert len(fast.pairs) > 2


def test_a_seeded_salvo_rolls_the_same_dice_under_the_same_names():
    scripted = [9, 0, 9, 9, 3, 7, 2]  # CIWS for 4 missiles, then each survivor's damage
    dice = ScriptedDice(list(scripted))
    salvo = chance.missile_salvo(4, 3, "ship", "ship", SHIP_OPTIONS, dice, who="a", target="t")
    assert salvo.volley.survivors == (1, 3, 4)
    assert len(salvo.strikes.results) == 3
    assert [r.what for r in dice.rolls] == [
        "CIWS vs missile 1",
        "CIWS vs missile 2",
        "CIWS vs missile 3",
        "CIWS vs missile 4",
        "missile 1 damage",
        "missile 3 damage",
        "missile 4 damage",
    ]
    assert [r.who for r in dice.rolls] == ["t"] * 4 + ["a"] * 3


def test_every_condition_at_once_is_each_units_own():
    start = registry.get("battlefleet-mars").setup(load_map(builtin_map("battlefleet-mars")))
    hit = bfm_outcome.record_results(start, "ares-cruiser", ("B2", "L1"))
    gone = hit.without_unit("mars-fighters")
    for state in (start, hit, gone):
        together = bfm_outcome.unit_conditions(state, start.units)
        alone = [bfm_outcome.unit_condition(state, unit) for unit in start.units]
        assert together == alone
    cruiser = [u.id for u in start.units].index("ares-cruiser")
    assert bfm_outcome.unit_conditions(hit, start.units)[cruiser].lost > 0
    assert bfm_outcome.unit_conditions(start, start.units)[cruiser].lost == 0


def test_an_attack_declared_here_resolves_as_one_checked_again():
    state = registry.get("battlefleet-mars").setup(load_map(builtin_map("battlefleet-mars")))
    attack = combat.declare(state, "deimos-base", "missiles", "ares-cruiser", {"missiles": 3})
    again = Attack(attack.attacker, attack.weapon, attack.target, attack.params)
    with unworded():
        fast = combat.resolve(state, attack, SeededDice(11))
        slow = combat.resolve(state, again, SeededDice(11))
    assert fast.state == slow.state and fast.summary == slow.summary
    assert fast.state != state


def test_an_attack_read_for_its_state_alone_leaves_out_its_words_only():
    state = registry.get("battlefleet-mars").setup(load_map(builtin_map("battlefleet-mars")))
    attacks = [
        combat.declare(state, "deimos-base", "missiles", "ares-cruiser", {"missiles": 5}),
        combat.declare(state, "deimos-base", "missiles", "ares-fighters", {"missiles": 3}),
        combat.declare(state, "ares-cruiser", "laser", "mars-fighters", {}),
        combat.declare(state, "deimos-base", "laser", "ares-cruiser", {}),
    ]
    changed = 0
    for attack in attacks:
        for seed in range(12):
            worded = combat.resolve(state, attack, SeededDice(seed))
            with unworded():
                bare = combat.resolve(state, attack, SeededDice(seed))
            assert bare.state == worded.state and bare.summary == worded.summary
            assert worded.events and not bare.events
            changed += bare.state != state
    assert changed > 12  # hits, records, lowered lasers and losses among them
