"""The search level's sums, exactly (what a wrong change to `agents.search`
would slip past: its mutation run left the paired-gain test, the control variate and the
play-out's values unchecked)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from agent_scenarios import battle_at_combat, fire_phase

from tactical.agents import Budget, GreedyPlayer, SearchPlayer, hints
from tactical.agents.players import signed
from tactical.agents.search import (
    TIE,
    beats_one_step,
    choose,
    clearly_better,
    estimate,
    mean_gains,
    reseeded,
)
from tactical.session.game import Game


def test_a_gain_counts_only_above_its_standard_error_with_the_sample_variance():
    """Mean 1.1 over [0, 0.3, 3]: the sample variance 5.46 / 2 gives a standard error of
    0.954, below the mean; the population variance, or the error not divided by the
    count, would not."""
    assert clearly_better([0.0, 0.3, 3.0], margin=0.5)
    # [0, 0, 3]: mean 1.0 and standard error exactly 1.0: not above it
    assert not clearly_better([0.0, 0.0, 3.0], margin=0.5)
    assert not clearly_better([0.0, 0.3, 3.0], margin=1.1)  # not above the margin


def test_a_gain_needs_two_play_outs_and_a_mean_strictly_above_the_margin():
    """One play-out has no spread: never a gain, however large. Two are enough. A mean
    equal to the margin is not above it, even with no spread at all."""
    assert not clearly_better([5.0])
    assert not clearly_better([])
    assert clearly_better([1.0, 1.2])
    assert not clearly_better([0.5, 0.5], margin=0.5)
    assert clearly_better([0.5, 0.5], margin=0.4)


def test_the_mean_gains_of_candidates_none_played_rank_last():
    assert mean_gains([[1.0, 2.0], [], [-3.0]]) == [1.5, -math.inf, -3.0]


# a gain of 1.1 a standard error of 0.954 (above one error, under two), and a small sure one
# between the two margins (TIE_MARGIN 0.001 < 0.0033 < SEARCH_MARGIN 0.005)
WIDE = [0.0, 0.3, 3.0]
SMALL = [0.003, 0.003, 0.004]


def test_beating_the_one_step_look_clears_its_margin_and_the_hinted_errors():
    """Scored lower by the one-step look (not tied): a gain must clear SEARCH_MARGIN and
    `errors` standard errors, one by default; tied: only the small TIE_MARGIN."""
    assert beats_one_step(WIDE, tied=False)
    assert beats_one_step(WIDE, tied=False, errors=1.0)
    assert not beats_one_step(WIDE, tied=False, errors=2.0)
    assert not beats_one_step(WIDE, tied=True, errors=2.0)
    assert not beats_one_step(SMALL, tied=False)
    assert beats_one_step(SMALL, tied=True)
    assert not beats_one_step([0.0, 0.0, 0.0], tied=True)


def test_search_chooses_the_best_mean_gain_that_beats_the_greedy_choice():
    """Index 0 is the greedy choice, its own gains nothing. The best mean gain wins where
    it beats the one-step look (one standard error by default); equal gains go to the
    earlier candidate; otherwise the greedy choice stays."""
    greedy = [0.0, 0.0, 0.0]
    assert choose([greedy, WIDE], [0.5, 0.4]) == 1
    assert choose([greedy, WIDE], [0.5, 0.4], errors=2.0) == 0
    assert choose([greedy, [0.1, 0.2, 0.3], WIDE], [0.5, 0.4, 0.4]) == 2  # mean 1.1 > 0.2
    assert choose([greedy, WIDE, list(WIDE)], [0.5, 0.4, 0.4]) == 1
    assert choose([greedy, [-1.0, -1.0]], [0.5, 0.5]) == 0


def test_search_weighs_a_small_gain_only_where_the_one_step_look_was_tied():
    """Tied: the best candidate scored within TIE of the greedy choice (the greedy
    choice's score, not another candidate's), the limit itself within it."""
    greedy = [0.0, 0.0, 0.0]
    assert choose([greedy, SMALL], [0.5, 0.5]) == 1
    assert choose([greedy, SMALL], [TIE, 0.0]) == 1  # exactly TIE lower: still tied
    assert choose([greedy, SMALL], [0.5, 0.49]) == 0
    assert choose([greedy, [0.0] * 3, SMALL], [0.5, 0.45, 0.45]) == 0
    assert choose([greedy, [0.0] * 3, SMALL], [0.5, 0.45, 0.5]) == 2


def test_a_play_outs_value_replaces_the_candidates_own_roll_by_its_expectation():
    """The control variate: the anchor plus what the later steps changed."""
    assert estimate(0.1, (0.2, 0.5)) == pytest.approx(0.4)
    assert estimate(None, (0.2, 0.5)) == 0.5
    assert estimate(0.1, None) is None


def test_a_reseeded_game_keeps_its_position_and_history_with_other_dice():
    game = fire_phase()
    other = reseeded(game, 12345)
    assert other.seed == 12345 != game.seed
    assert other.steps == game.steps and other.state == game.state
    assert other.step_number == game.step_number and other.turn == game.turn
    assert other.initial == game.initial and other.sides == game.sides
    assert other.position == game.position


@pytest.mark.parametrize("steps", [0, 40])
def test_a_play_out_returns_the_material_after_the_candidate_and_at_its_end(steps):
    """For the side that chose: right after the candidate, where the play-out stopped,
    and whether it saw the turn end (with no steps it cannot have)."""
    game = fire_phase()
    search = SearchPlayer(4, Budget(playouts=1, seconds=None))
    material = search.greedy.material(game)
    side = game.side_to_act
    action = GreedyPlayer(1).decide(game).action
    first, last, complete = search.play_out(game, action, side, material, (steps, True))
    after = game.apply(action)
    assert first == material.value(after.state, side)
    end = after  # the same play-out by hand: the quick player is a function of the game
    for _ in range(steps):
        if end.over or end.turn != after.turn:
            break
        end = search.rollout.decide(end).after
    assert last == material.value(end.state, side)
    assert complete is (end.over or end.turn != after.turn)
    assert complete is (steps > 0)  # a Heavy Combat turn is about 12 steps


def test_the_anchor_is_the_exact_expectation_of_a_roll_made_at_once_only():
    """An attack rolled as it is declared: its exact expected material (the greedy
    player's enumeration); a declaration rolled later, a pass: none."""
    game = battle_at_combat()
    search = SearchPlayer(4, Budget(playouts=1, seconds=None))
    material = search.greedy.material(game)
    side = game.side_to_act
    ranked = search.greedy.ranked(game)
    attack = next(s for s in ranked if s.candidate.action.kind == "attack")
    assert attack.effect is not None and attack.effect.exact
    assert search.anchor(game, attack, material, side) == attack.effect.expected
    passing = next(s for s in ranked if s.candidate.is_pass)
    assert search.anchor(game, passing, material, side) is None
    later = fire_phase()  # Heavy Combat: the fire is rolled at the turn's Result
    fire = next(s for s in search.greedy.ranked(later) if s.later)
    assert search.anchor(later, fire, search.greedy.material(later), later.side_to_act) is None


def scripted(monkeypatch, search: SearchPlayer, actions: list, values: dict) -> dict[int, int]:
    """Play-outs that return `values[k]`, round by round, for the k-th of `actions` (no
    anchor): the counts played, by candidate."""
    played: dict[int, int] = {}

    def play_out(sampled: Game, action, side, material, reach=None):
        k = actions.index(action)
        played[k] = played.get(k, 0) + 1
        return 0.0, values[k][played[k] - 1], True

    monkeypatch.setattr(search, "play_out", play_out)
    monkeypatch.setattr(search, "anchor", lambda *args: None)
    return played


def test_search_chooses_by_the_mean_paired_gain_and_says_so(monkeypatch):
    """Rounds = play-outs // candidates, each candidate's values over the same dice; the
    best mean gain over the greedy choice wins when above its standard error, and the
    decision's value and why carry the chosen candidate's mean and counts."""
    game = fire_phase()
    search = SearchPlayer(4, Budget(playouts=9, seconds=None, width=3))
    contenders = search.contenders(game)
    assert len(contenders) == 3
    values = {0: [0.0, 0.0, 0.0], 1: [0.02, 0.03, 0.04], 2: [0.05, -0.05, 0.0]}
    titles = [s.candidate.choice.title for s in contenders]
    actions = [s.candidate.action for s in contenders]
    assert len(set(map(repr, actions))) == 3
    played = scripted(monkeypatch, search, actions, values)
    decision = search.decide(game)
    assert played == {0: 3, 1: 3, 2: 3}
    assert decision.action == actions[1]
    assert decision.score == pytest.approx(0.03)
    now = search.greedy.material(game).value(game.state, game.side_to_act)
    gain = signed(0.03 - now)  # from here: the balance itself reads as nothing to a player
    assert f"expected material gain {gain} over 3 play-outs (9 for 3 choices" in decision.why
    assert f"+3.0% more than the one-step choice ({titles[0]})" in decision.why
    values[1] = [0.02, -0.02, 0.03]  # mean 0.01 below its standard error 0.015: kept
    played.clear()
    decision = search.decide(game)
    assert decision.action == actions[0]
    assert "none of the others did better" in decision.why


def test_search_overturns_on_the_mean_where_the_rule_system_hints_so(monkeypatch):
    """`hints.overturn_errors` of 0: a mean gain above the margin replaces the greedy
    choice however its play-outs spread (the same values the default keeps it for)."""
    game = fire_phase()
    search = SearchPlayer(4, Budget(playouts=9, seconds=None, width=3))
    contenders = search.contenders(game)
    actions = [s.candidate.action for s in contenders]
    values = {0: [0.0, 0.0, 0.0], 1: [0.02, -0.02, 0.03], 2: [0.0, 0.01, -0.02]}
    played = scripted(monkeypatch, search, actions, values)
    assert search.decide(game).action == actions[0]  # mean 0.01, standard error 0.015
    hints.register(game.rules, replace(hints.get(game.rules, game.system), overturn_errors=0))
    try:
        played.clear()
        decision = search.decide(game)
    finally:
        hints.unregister(game.rules)
    assert decision.action == actions[1]
    assert decision.score == pytest.approx(0.01)
    assert "+1.0% more than the one-step choice" in decision.why


def test_search_gains_are_differences_from_the_greedy_choice_in_the_same_round(monkeypatch):
    """Paired: each candidate's value minus the greedy choice's in that round (not its
    plain value): a candidate level with a greedy choice that is already ahead is no
    gain. Then the greedy choice stays, its mean the decision's value."""
    game = fire_phase()
    search = SearchPlayer(4, Budget(playouts=6, seconds=None, width=2))
    contenders = search.contenders(game)
    actions = [s.candidate.action for s in contenders]
    scripted(monkeypatch, search, actions, {0: [0.10, 0.20, 0.30], 1: [0.10, 0.20, 0.30]})
    decision = search.decide(game)
    assert decision.action == actions[0]
    assert decision.score == pytest.approx(0.2)
    assert decision.after.steps[-1].action == decision.action
    assert decision.after.step_number == game.step_number + 1


def test_search_out_of_time_before_any_play_out_takes_the_greedy_choice():
    """The clock is read before each round: with none left, the greedy player's best by
    its one look, and the why says so."""
    game = fire_phase()
    ticks = iter([0.0, 5.0, 5.0, 5.0])
    search = SearchPlayer(4, Budget(playouts=8, seconds=1.0, width=3), clock=lambda: next(ticks))
    greedy = GreedyPlayer(4).ranked(game)[0]
    decision = search.decide(game)
    assert decision.action == greedy.candidate.action
    assert decision.why.endswith("| search: no play-out in time, the best by one look")
    assert decision.score == greedy.score
    assert decision.after.steps[-1].action == decision.action


def test_a_clear_call_is_the_greedy_choice_applied_with_its_score():
    game = fire_phase()
    search = SearchPlayer(4, Budget(playouts=8, seconds=None, width=1))
    greedy = GreedyPlayer(4).ranked(game)[0]
    decision = search.decide(game)
    assert decision.action == greedy.candidate.action
    assert decision.score == greedy.score
    assert decision.after.steps[-1].action == decision.action
    assert decision.why.endswith("| search: a clear call, no other choice scored within 5%")
