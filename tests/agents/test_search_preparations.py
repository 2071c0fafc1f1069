"""Search's preparations and its expectation play-outs: `hints.weigh_preparations`
and `hints.playout_expectations`, both declared by Cortex Space, whose crew station rolls
and manoeuvres (R003.51-R003.54) change nothing at once and whose batteries of railguns
(R003.35) swing the material further than what a choice before them changes."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest

from tactical.agents import Budget, GreedyPlayer, SearchPlayer, hints, mirrored
from tactical.agents.evaluation import attack_effect, expected_value
from tactical.agents.players import how_found
from tactical.agents.search import expected_change, preparation
from tactical.io import builtin_map, load_map
from tactical.rules.base import Action
from tactical.session.game import PASS, Game

PREPARATIONS = {"station-roll", "evasive-manoeuvre", "attack-manoeuvre", "agility-defense"}


@cache
def battlestar_at_fire() -> Game:
    """Two Colonial fleets, played by a greedy player up to the first go on which a
    battlestar may fire its railguns and make its crew's station rolls."""
    state = load_map(builtin_map("cortex-space"))
    game = Game.new(mirrored(state, state.sides[0]), 0)
    greedy = GreedyPlayer(3)
    for _ in range(60):
        kinds = {scored.candidate.action.kind for scored in greedy.ranked(game)}
        if {"attack", "station-roll"} <= kinds:
            return game
        game = greedy.decide(game).after
    raise AssertionError("no battlestar fire in 60 steps")


def without(**changes) -> None:
    game = battlestar_at_fire()
    hints.register(game.rules, replace(hints.get(game.rules, game.system), **changes))


@pytest.fixture
def restore_hints():
    yield
    hints.unregister(battlestar_at_fire().rules)


def test_cortex_declares_expectation_play_outs_preparations_and_mean_overturns_others_do_not():
    game = battlestar_at_fire()
    declared = hints.get(game.rules, game.system)
    assert declared.playout_expectations and declared.weigh_preparations
    assert declared.overturn_errors == 0.0
    for rules in ("heavy-combat", "battlefleet-mars", "sw-d6-capital", "dystopian-wars"):
        other = Game.new(load_map(builtin_map(rules)), 0)
        found = hints.get(other.rules, other.system)
        assert not found.playout_expectations and not found.weigh_preparations, rules
        assert found.overturn_errors == 1.0, rules


def test_a_preparation_rolls_changes_no_material_and_aims_at_no_unit():
    """Of the battlestar's choices: the station roll and the three helm or pilot rolls;
    not the railguns (material now), the missile locks (aimed at a unit), the pass."""
    game = battlestar_at_fire()
    greedy = GreedyPlayer(3)
    now = greedy.material(game).value(game.state, game.side_to_act)
    ranked = greedy.ranked(game)
    marked = {s.candidate.action.kind for s in ranked if preparation(s, now)}
    assert marked == PREPARATIONS
    kinds = {s.candidate.action.kind for s in ranked}
    assert {"attack", "lock-missile"} <= kinds
    assert not any(preparation(s, now) for s in ranked if s.candidate.is_pass)
    # against another material count, a station roll "changes" it: not a preparation
    station = next(s for s in ranked if s.candidate.action.kind == "station-roll")
    assert not preparation(station, now + 0.01)


def test_search_plays_out_the_best_preparation_after_the_greedy_choice(restore_hints):
    game = battlestar_at_fire()
    search = SearchPlayer(4, Budget(playouts=4, seconds=None))
    offered = search.greedy.ranked(game)
    now = search.greedy.material(game).value(game.state, game.side_to_act)
    contenders = search.contenders(game)
    assert contenders[0].candidate.action == offered[0].candidate.action
    assert offered[0].candidate.action.kind == "attack"
    best_preparation = next(s for s in offered if preparation(s, now))
    assert contenders[-1].candidate.action == best_preparation.candidate.action
    assert sum(preparation(s, now) for s in contenders) == 1
    # a width of two: the greedy choice and the preparation
    narrow = SearchPlayer(4, Budget(playouts=4, seconds=None, width=2)).contenders(game)
    assert [s.candidate.action for s in narrow] == [
        offered[0].candidate.action,
        best_preparation.candidate.action,
    ]
    without(weigh_preparations=False)
    plain = SearchPlayer(4, Budget(playouts=4, seconds=None)).contenders(game)
    assert not any(preparation(s, now) for s in plain)
    assert plain[0].candidate.action == offered[0].candidate.action


def test_an_attack_in_a_play_out_counts_at_its_exact_expectation():
    """The railguns' step: the exact expected material over the attack resolver's
    outcomes, not where the sampled dice left it; a step that rolls nothing: as it is."""
    game = battlestar_at_fire()
    greedy = GreedyPlayer(3)
    material = greedy.material(game)
    side = game.side_to_act
    now = material.value(game.state, side)
    attack = greedy.ranked(game)[0].candidate.action
    after = game.apply(attack)
    effect = attack_effect(game, after.steps[-1].action, material, side, complete=False)
    assert effect is not None and effect.exact
    counted = expected_change(game, after, material, side)
    assert counted == pytest.approx(effect.expected - now)
    assert counted > 0.02  # the greedy player's best: several points of material
    realized = material.value(after.state, side) - now
    assert abs(counted - realized) > 1e-6  # the dice fell otherwise than the mean
    passed = game.apply(Action(PASS, side))
    assert not passed.steps[-1].rolls
    assert expected_change(game, passed, material, side) == material.value(passed.state, side) - now


@pytest.mark.parametrize("expectations", [True, False])
def test_a_play_outs_end_value_adds_the_expected_changes_of_its_steps(expectations, restore_hints):
    game = battlestar_at_fire()
    if not expectations:
        without(playout_expectations=False)
    search = SearchPlayer(4, Budget(playouts=1, seconds=None))
    material = search.greedy.material(game)
    side = game.side_to_act
    action = search.greedy.ranked(game)[0].candidate.action
    first, last, _ = search.play_out(game, action, side, material, (8, True))
    start = game.apply(action)
    assert first == material.value(start.state, side)
    end, total = start, first  # the same play-out by hand (the moving quick player)
    for _ in range(8):
        if end.over or end.turn != start.turn:
            break
        step = search.moving_rollout.decide(end).after
        total += expected_change(end, step, material, side)
        end = step
    assert end.step_number > start.step_number + 4
    if expectations:
        assert last == pytest.approx(total)
        assert last != pytest.approx(material.value(end.state, side))
    else:
        assert last == material.value(end.state, side)


def test_a_missile_lock_reads_as_no_material_change_whatever_the_dice():
    """A lock takes no strength when it is rolled (R003.38: the missile flies later): the
    why says so rather than "+0.0% (exact odds over 1 outcomes)"."""
    game = battlestar_at_fire()
    greedy = GreedyPlayer(3)
    material = greedy.material(game)
    side = game.side_to_act
    offered = next(s for s in greedy.ranked(game) if s.candidate.action.kind == "lock-missile")
    effect = expected_value(game, offered.candidate.action, material, side)
    assert effect.exact  # (the greedy player enumerates the best few so)
    lock = greedy.judged(game, offered.candidate, effect, material.value(game.state, side), 0, "")
    assert "no material change when it is rolled (the same whatever the dice)" in lock.why
    assert "+0.0%" not in lock.why
    assert how_found(12, True) == "exact odds over 12 outcomes"
    assert how_found(1, True) == "the same whatever the dice"
    assert how_found(1, False) == "1 sample roll"
    assert how_found(8, False) == "8 sample rolls"
