"""A resolution read for its state only (`model.worded.unworded`, how the computer players
enumerate an attack) makes the very same states as one read for its events: a resolver
leaves out only words. Heavy Combat words its internal hits, Battlefleet Mars its CIWS rolls
and missile strikes, Cortex its gun strikes, only when they are read."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from tactical.dice import ScriptedDice, enumerate_outcomes
from tactical.io import builtin_map, load_map
from tactical.model import Board, FrozenMap, GameState, MovementClass, Pose, RectBase, Unit
from tactical.model.worded import unworded, worded
from tactical.rules import registry
from tactical.rules.base import Action
from tactical.rules.battlefleet_mars.combat import missile_salvo, settings
from tactical.rules.heavy_combat.duel import from_rule_state, to_rule_state

HC = registry.get("heavy-combat")


def _ship(ship_id: str, x: float, heading: float, side: str) -> Unit:
    pose = Pose(x, 24.0, heading)
    return Unit(ship_id, ship_id, side, pose, RectBase(1.5, 3.0), MovementClass.SPACE)


def _open_target() -> GameState:
    """Two powered ships face to face at range 2, the target's shields all down (every hit
    goes to the internal damage chart)."""
    units = (_ship("a", 20.0, 90.0, "A"), _ship("b", 38.0, 270.0, "B"))
    state = HC.setup(GameState("heavy-combat", Board(72, 48), options=FrozenMap(), units=units))
    for side in "ab":
        state = HC.apply(state, Action("roll_power", side, FrozenMap()), ScriptedDice([6, 6])).state
    duel = from_rule_state(state)
    target = duel.ship("b")
    down = replace(target, shield_damage=(30,) * len(target.shield_damage))
    return to_rule_state(state, duel.with_ship("b", down))


def test_unworded_resolutions_make_the_same_states_with_fewer_words():
    state = _open_target()
    attack = HC.declare_attack(state, "a", "phasers", "b", {"power": 2})

    def resolved(dice):
        resolution = HC.resolve_attack(state, attack, dice)
        return resolution.state, sum(e.kind == "internal" for e in resolution.events)

    def states(distribution) -> Counter:
        found: Counter = Counter()
        for (after, _), p in distribution.pairs:
            found[after] += p
        return found

    worded_out = enumerate_outcomes(resolved)
    with unworded():
        assert not worded()
        quiet = enumerate_outcomes(resolved)
    assert worded()  # set back after the block
    assert len(worded_out.pairs) > 1
    assert states(quiet) == states(worded_out)
    assert sum(hits for (_, hits), _ in worded_out.pairs) > 0  # the words it leaves out
    assert sum(hits for (_, hits), _ in quiet.pairs) == 0


@pytest.mark.parametrize("to_hit", ["auto", "roll"])
def test_an_unworded_missile_salvo_rolls_to_the_same_results(to_hit):
    options = {**settings(load_map(builtin_map("battlefleet-mars"))), "missile_to_hit": to_hit}

    def salvo(dice):
        fired = missile_salvo(3, 4, "ship", "fighter", options, dice, who="a", target="t")
        words = len(fired.volley.events) + len(fired.strikes.events)
        return (fired.volley.survivors, fired.strikes.results, fired.summary), words

    worded_out = enumerate_outcomes(salvo)
    with unworded():
        quiet = enumerate_outcomes(salvo)
    assert len(worded_out.pairs) > 1
    assert [(r, p) for (r, _), p in quiet.pairs] == [(r, p) for (r, _), p in worded_out.pairs]
    assert min(words for (_, words), _ in worded_out.pairs) > 0
    assert max(words for (_, words), _ in quiet.pairs) == 0


@pytest.mark.parametrize("attacker,weapon,target", [
    ("galactica", "railguns", "raider-1"),
    ("starbuck", "autocannons", "raider-2"),
])  # fmt: skip
def test_an_unworded_cortex_gun_attack_makes_the_same_states(attacker, weapon, target):
    cortex = registry.get("cortex-space")
    state = load_map(builtin_map("cortex-space"))
    attack = cortex.declare_attack(state, attacker, weapon, target, {})

    def resolved(dice):
        resolution = cortex.resolve_attack(state, attack, dice)
        return resolution.state, resolution.summary, len(resolution.events)

    worded_out = enumerate_outcomes(resolved, key=lambda found: found[:2])
    with unworded():
        quiet = enumerate_outcomes(resolved, key=lambda found: found[:2])
    assert len(worded_out.pairs) > 1
    assert [(o[:2], p) for o, p in quiet.pairs] == [(o[:2], p) for o, p in worded_out.pairs]
    assert sum(o[2] for o, _ in quiet.pairs) < sum(o[2] for o, _ in worded_out.pairs)


def test_the_flag_is_set_back_after_an_error():
    try:
        with unworded():
            raise ValueError("refused")
    except ValueError:
        pass
    assert worded()
