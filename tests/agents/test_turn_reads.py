"""This turn's actions and table moves, gathered once per game value: the same answers as
reading the steps back one by one."""

from __future__ import annotations

from tactical.agents import play_game
from tactical.agents.players import GreedyPlayer, Player
from tactical.io import builtin_map, load_map
from tactical.rules.base import Action
from tactical.session.game import MOVE


def _scanned(game, action) -> bool:
    for step in reversed(game.steps):
        if step.before.turn != game.turn:
            return False
        made = step.action
        if (made.actor, made.kind, made.params) == (action.actor, action.kind, action.params):
            return True
    return False


def test_made_this_turn_and_table_moves_read_the_steps_of_this_turn():
    state = load_map(builtin_map("heavy-combat"))
    games = []
    play_game(state, 100, {side: "random" for side in state.sides}, on_step=games.append)
    assert len(games) > 10
    said = 0
    for game in games[:: max(1, len(games) // 40)]:
        for step in list(game.steps)[-6:]:
            assert GreedyPlayer.made_this_turn(game, step.action) == _scanned(game, step.action)
            said += GreedyPlayer.made_this_turn(game, step.action)
        never = Action("nothing-of-the-kind", "nobody")
        assert not GreedyPlayer.made_this_turn(game, never)
        moved = {
            s.action.actor
            for s in game.steps
            if s.by_session and s.action.kind == MOVE and s.before.turn == game.turn
        }
        assert Player.table_moved(game) == moved
        Player.table_moved(game).add("changed by a caller")  # a copy: the kept set stays
        assert Player.table_moved(game) == moved
    assert said > 0


def test_the_turns_actions_are_the_same_asked_out_of_order_and_on_a_fork():
    from tactical.agents import players
    from tactical.session.autoplay import next_game

    state = load_map(builtin_map("heavy-combat"))
    games = []
    play_game(state, 101, {side: "random" for side in state.sides}, on_step=games.append)
    players._RUNS.clear()
    picked = games[::7][::-1] + games[::5]  # later games first, then in order
    fork = next_game(games[len(games) // 2])  # a line of its own from an earlier game
    assert fork.steps._items is not games[-1].steps._items
    for game in [*picked, fork, next_game(fork)]:
        run = players._turn_run(game)
        scanned = []
        for step in reversed(game.steps):
            if step.before.turn != game.turn:
                break
            scanned.append(step.action)
        assert run.made == frozenset((a.actor, a.kind, a.params) for a in scanned)
        assert run.moved == players._table_moved_read(game)
