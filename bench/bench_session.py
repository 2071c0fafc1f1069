"""Session budgets on the 200-unit stress map: applying one action with its
autosave, undo/redo (with autosave), the move preview through the game, and the exact odds
of one attack via `Game.odds`; each against a naive baseline measured in the same run.

Run: .venv/bin/pytest bench/bench_session.py --benchmark-enable -p no:cacheprovider
Budgets: odds of one attack <= 16 ms (one 60 fps frame); move preview <= 12 ms (the
frame budget with the preview); apply + autosave <= 50 ms; undo + redo with their two
autosaves <= 50 ms.

Naive baselines: apply + save the whole state after every action (copy.deepcopy for
the undo snapshot and every unit written out, instead of the map once and the actions);
undo by replaying the game from its start; odds by sampling the resolver 2,000 times with
seeded dice (approximate, where `Game.odds` is exact).
"""

from __future__ import annotations

import copy
import json
from collections import Counter

import pytest
from conftest import RATIOS, quick, record

from tactical.dice import SeededDice
from tactical.errors import UserError
from tactical.io import builtin_map, load_map
from tactical.model import FrozenMap, thaw
from tactical.rules.base import Action
from tactical.session.autoplay import candidate_params, next_game
from tactical.session.controller import Session
from tactical.session.game import Game
from tactical.session.history import History
from tactical.session.saving import Autosave

SEED = 2026
ODDS_BUDGET = 0.016
PREVIEW_BUDGET = 0.012
APPLY_BUDGET = 0.050
UNDO_BUDGET = 0.050
HISTORY_STEPS = 20
SAMPLES = quick(2000, 50)

RATIOS.append(("apply+autosave vs whole-state saves", "apply: naive", "apply: session", 1))
RATIOS.append(("undo+redo vs replay from start", "undo: naive replay", "undo: session", 2))
RATIOS.append(("exact odds vs 2000 samples", "odds: naive sampling", "odds: Game.odds", 2))


@pytest.fixture(scope="module")
def stress_history() -> History:
    """The stress map (200 units, DW) a few steps into play."""
    history = History.start(load_map(builtin_map("stress-200")), SEED)
    game = history.game
    for _ in range(HISTORY_STEPS):
        game = next_game(game)
        history = History((*history.games, game), len(history.games))
    return history


@pytest.fixture(scope="module")
def attack_game(stress_history) -> tuple[Game, Action]:
    """A game on the stress map where the side to act may declare an attack with odds."""
    game = stress_history.game
    for _ in range(400):
        for choice in game.rule_choices():
            for params in candidate_params(choice):
                action = Action(choice.kind, choice.actor, params)
                try:
                    report = game.odds(action)
                except UserError:
                    continue
                if report is not None and "attack" in choice.kind:
                    return game, action
        game = next_game(game)
    pytest.skip("no attack with odds reached on the stress map")


def _next_action(game: Game) -> Action:
    """The action the stand-in takes next (found once, outside the timing)."""
    after = next_game(game)
    return after.steps[-1].action


# --------------------------------------------------------------------------- apply + autosave


def test_apply_with_autosave(benchmark, stress_history, tmp_path):
    action = _next_action(stress_history.game)
    session = Session(stress_history, Autosave(tmp_path / "auto.json"))

    def apply_once():
        session.history = stress_history
        session.apply(action)

    benchmark(apply_once)
    record("apply: session", benchmark, APPLY_BUDGET)


def test_apply_naive_whole_state_saves(benchmark, stress_history, tmp_path):
    action = _next_action(stress_history.game)
    game = stress_history.game
    path = tmp_path / "naive.json"

    def apply_naive():
        snapshot = copy.deepcopy(game.state)  # the undo snapshot of a mutable model
        following = game.apply(action)
        units = [
            {"id": u.id, "x": u.pose.x, "y": u.pose.y, "heading": u.pose.heading}
            | {"stats": thaw(u.stats)}
            for state in (snapshot, following.state)
            for u in state.units
        ]
        path.write_text(
            json.dumps({"units": units, "rule_state": thaw(following.state.rule_state)})
        )

    benchmark.pedantic(apply_naive, rounds=10)
    record("apply: naive", benchmark)


# --------------------------------------------------------------------------- undo / redo


def test_undo_redo_with_autosave(benchmark, stress_history, tmp_path):
    session = Session(stress_history, Autosave(tmp_path / "auto.json"))

    def undo_redo():
        session.undo()
        session.redo()

    benchmark(undo_redo)
    record("undo: session", benchmark, UNDO_BUDGET)


def test_undo_naive_replay(benchmark, stress_history):
    actions = stress_history.actions

    def replay_to_previous():
        game = stress_history.first
        for action in actions[:-1]:
            game = game.apply(action)
        return game

    benchmark.pedantic(replay_to_previous, rounds=3)
    record("undo: naive replay", benchmark)


# --------------------------------------------------------------------------- preview


def test_move_preview_through_the_game(benchmark, stress_history):
    game = stress_history.game
    movers = [u.id for u in game.state.units[:40]]
    turn = iter(range(10**9))
    game.preview_move(movers[0], "F2 P45 F2")  # the table is indexed once per state

    def preview():
        return game.preview_move(movers[next(turn) % len(movers)], "F2 P45 F2 S45 F2")

    benchmark(preview)
    record("preview: Game.preview_move", benchmark, PREVIEW_BUDGET)


# --------------------------------------------------------------------------- odds


def _fresh(game: Game) -> Game:
    """The same game with the choices the panel already asked for, but no odds computed yet:
    the first hover of each target."""
    choices = game.rule_choices()
    fresh = Game(game.initial, game.seed, game.state, game.position, game.sides, game.steps)
    fresh._memo["rule_choices"] = choices
    return fresh


def test_odds_of_one_attack(benchmark, attack_game):
    game, action = attack_game
    report = benchmark(lambda: _fresh(game).odds(action))
    assert report is not None
    record("odds: Game.odds", benchmark, ODDS_BUDGET)


def test_odds_naive_sampling(benchmark, attack_game):
    game, action = attack_game
    system = game.system

    def sample():
        counts: Counter = Counter()
        for k in range(SAMPLES):
            counts[repr(system.apply(game.state, action, SeededDice(k)).summary)] += 1
        return counts

    benchmark.pedantic(sample, rounds=quick(2, 1))
    record("odds: naive sampling", benchmark)


def test_odds_of_a_missile_salvo_battlefleet_mars(benchmark):
    """The heaviest BFM declaration: nine missiles through CIWS (R000.19-R000.24)."""
    game = Game.new(load_map(builtin_map("battlefleet-mars")), SEED)
    while not game.phase.alternating or game.side_to_act != "Ares":
        game = game.pass_go()
    action = Action("attack", "ares-missiles", FrozenMap(weapon="missiles", target="deimos-base"))
    report = benchmark(lambda: _fresh(game).odds(action))
    assert report is not None
    record("odds: BFM salvo via Game.odds", benchmark, ODDS_BUDGET)
