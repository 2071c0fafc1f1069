"""Online play over loopback: a server and two players play a whole game in each rule
system, and the result is the game played on one screen with the same nonces."""

from __future__ import annotations

import pytest

from tactical.cli import main
from tactical.dice.fair import check_rolls
from tactical.io.saves import dumps_save
from tactical.rules import registry
from tactical.session.digest import game_digest
from tactical.session.history import History
from tactical.session.log import game_log
from tactical.session.saving import Autosave, saved_game
from tests.net.online import caught_up, join, play_until, serve, short_map


@pytest.mark.slow
@pytest.mark.parametrize("rules", registry.rule_ids())
def test_a_game_played_online_is_the_game_played_on_one_screen_with_the_same_nonces(rules):
    server = serve(rules)
    players = {side: join(server, side) for side in server.session.game.sides}
    try:
        made = play_until(server, players, seconds=150)
        assert server.session.game.over, f"{rules}: not over after {made} decisions"
        assert caught_up(server, *players.values())
        truth = server.session.game
        for player in players.values():
            assert game_digest(player.game) == game_digest(truth)
            assert player.problems == []
            assert game_log(player.game).text() == game_log(truth).text()
        # the same actions, on one screen, each step with the nonces the players sent
        history = History.start(short_map(rules), 7)
        for step in truth.steps:
            history = history.apply(step.action, step.forced, step.fair)
        ledger = server.session.fair
        assert dumps_save(saved_game(history, ledger)) == dumps_save(saved_game(truth, ledger))
        assert game_log(history.game).text() == game_log(truth).text()
        # every roll came from both players' nonces, in the chain's order
        rolled = [(s.number, s.fair, bool(s.rolls)) for s in truth.steps]
        assert any(fair is not None for _, fair, _ in rolled)
        start = ledger.commitments[0].from_step  # the steps the game took before serving
        assert all(fair is not None for number, fair, dice in rolled if dice and number >= start)
        assert all(len(fair.fresh) == 2 for _, fair, _ in rolled if fair is not None)
        assert check_rolls(ledger, rolled) is None
    finally:
        for player in players.values():
            player.close()
        server.stop()


def test_the_dice_differ_from_the_seed_s_and_follow_the_nonces(tmp_path, capsys):
    """A step's dice come from the nonces, not from the game's seed: the same action with
    other nonces rolls other dice (over many steps, some result differs)."""
    server = serve("heavy-combat")
    players = {
        side: join(server, side, autosave=Autosave(tmp_path / f"{side}.json"))
        for side in server.session.game.sides
    }
    try:
        play_until(server, players, seconds=60)
        truth = server.session.game
        fair_steps = [s for s in truth.steps if s.fair is not None]
        assert len(fair_steps) >= 3
        history = server.session.history
        differ = 0
        for step in fair_steps:
            before = history.game_at(step.number - history.first.step_number - 1)
            by_seed = before.apply(step.action, step.forced).last_step
            again = before.apply(step.action, step.forced, step.fair).last_step
            assert again.results == step.results  # the nonces make the dice, every time
            differ += by_seed.results != step.results
        assert differ > 0
        # each player's own copy, autosaved as it went, passes `tactical verify`
        for player in players.values():
            assert player.autosave is not None
            assert main(["verify", str(player.autosave.path)]) == 0
            out = capsys.readouterr().out
            assert out.startswith("all ") and "rolls check out" in out, out
    finally:
        for player in players.values():
            player.close()
        server.stop()
