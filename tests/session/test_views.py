"""Each side's view of a game (`session.views`): in every rule system but Heavy Combat's
cloak nothing is hidden, so a side's view is the true state itself and nothing changes;
saves keep the whole truth, and `tactical replay --view SIDE` shows one side's view."""

from __future__ import annotations

from pathlib import Path

import pytest
from cloak_game import FED, KLINGON, TRUE_MOVES, played_turns
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tactical.agents import RandomPlayer
from tactical.cli import main
from tactical.io import builtin_map, load_map
from tactical.rules import registry
from tactical.session.game import Game
from tactical.session.log import game_log, side_log
from tactical.session.replay import Replay
from tactical.session.saving import save_game
from tactical.session.views import hides_anything, viewed

OTHERS = [rules for rules in registry.rule_ids() if rules != "heavy-combat"]


def random_game(rules: str, seed: int, steps: int) -> Game:
    game = Game.new(load_map(builtin_map(rules)), seed)
    player = RandomPlayer(seed)
    for _ in range(steps):
        if game.over:
            break
        game = player.decide(game).after
    return game


@pytest.mark.parametrize("rules", OTHERS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 30))
def test_a_system_that_hides_nothing_gives_every_side_the_true_state(rules, seed, steps):
    game = random_game(rules, seed, steps)
    system = game.system
    for side in (*game.sides, "someone else"):
        assert system.view_for(game.state, side) is game.state
        assert viewed(game, side) is game
        assert not hides_anything(game, side)
        assert side_log(game, side) is game_log(game)


def cloak_save(tmp_path: Path) -> Path:
    path = tmp_path / "cloak.json"
    save_game(played_turns(4)[-1], path)
    return path


def test_the_save_keeps_the_whole_truth(tmp_path):
    game = played_turns(4)[-1]
    path = cloak_save(tmp_path)
    replayed = Replay.open(path).frame(len(game.steps)).game
    assert replayed.state == game.state
    assert game_log(replayed).text() == game_log(game).text()


def replay_text(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["replay", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_replay_shows_one_sides_view_and_the_record_when_the_cloak_drops(tmp_path, capsys):
    path = str(cloak_save(tmp_path))
    code, both, _ = replay_text(capsys, path)
    assert code == 0
    assert replay_text(capsys, path, "--view", "both")[1] == both
    code, fed, _ = replay_text(capsys, path, "--view", FED)
    assert code == 0
    lines = fed.splitlines()
    hidden = [i for i, line in enumerate(lines) if "Klingon: (hidden movement)" in line]
    assert hidden
    for move in TRUE_MOVES:
        shown = [i for i, line in enumerate(lines) if move in line]
        assert shown and min(shown) > max(hidden)  # only once the cloak has dropped
    klingon = replay_text(capsys, path, "--view", KLINGON)[1]
    assert "hidden movement" not in klingon


def test_replay_refuses_a_side_the_game_does_not_have(tmp_path, capsys):
    path = str(cloak_save(tmp_path))
    code, out, err = replay_text(capsys, path, "--view", "Romulan")
    assert code == 2 and out == ""
    assert "Romulan" in err and FED in err and KLINGON in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
