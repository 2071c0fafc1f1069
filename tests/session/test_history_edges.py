"""History at its edges: truncating after an undo, a phase where the side to act may
only pass, and the messages a player reads."""

from __future__ import annotations

import pytest

from tactical.errors import UserError
from tactical.io import builtin_map, load_map
from tactical.rules.base import Action
from tactical.session.autoplay import next_game
from tactical.session.game import Game
from tactical.session.history import History, activation_start

SEED = 99


@pytest.fixture(scope="module")
def bfm_map():
    return load_map(builtin_map("battlefleet-mars"))


def test_truncated_after_an_undo_drops_the_redo_steps(bfm_map):
    history = History.start(bfm_map, SEED)
    for _ in range(3):
        history = history.apply(Action("pass", history.game.side_to_act))
    undone = history.undo().undo()
    cut = undone.truncated()
    assert cut.games == history.games[:2]
    assert (cut.cursor, cut.length) == (1, 1)
    assert cut.game is history.games[1] and not cut.can_redo


def test_activation_starts_now_when_the_side_to_act_may_only_pass_and_nobody_acted():
    """Heavy Combat, step 17: a new phase where the side to act has nothing of the rules to
    declare, and no step yet in this phase: the activation starts at the current game."""
    game = Game.new(load_map(builtin_map("heavy-combat")), SEED)
    games = [game]
    while len(games) < 18:
        games.append(next_game(games[-1]))
    current = games[-1]
    assert not current.rule_choices()
    assert all(
        (g.steps[-1].before.turn, g.steps[-1].before.phase)
        != (current.turn, current.position.phase)
        for g in games[-1:]
    )
    assert activation_start(games) == 17
    assert History(tuple(games), 17).reset_activation().cursor == 17


def test_history_refusals_read_whole(bfm_map):
    game = Game.new(bfm_map, SEED)
    with pytest.raises(UserError, match=r"^a history needs at least its starting game$"):
        History((), 0)
    with pytest.raises(UserError, match=r"^history cursor 2 is outside 0\.\.0$"):
        History((game,), 2)
    history = History.start(bfm_map, SEED)
    with pytest.raises(UserError, match=r"^nothing to undo: this is the start of the game$"):
        history.undo()
    with pytest.raises(UserError, match=r"^nothing to redo: this is the latest step$"):
        history.redo()
    two = history.apply(Action("pass", history.game.side_to_act))
    with pytest.raises(UserError, match=r"^history cursor -1 is outside 0\.\.1$"):
        History(two.games, -1)
