"""An action completed with its choice's defaults once per game value: the very same
answer when asked again, a refusal raised every time, another game asked afresh."""

from __future__ import annotations

import pytest

from tactical.errors import UserError
from tactical.io import builtin_map, load_map
from tactical.rules.base import Action
from tactical.session.forced import settle
from tactical.session.game import Game


def _game() -> Game:
    return settle(Game.new(load_map(builtin_map("heavy-combat")), 7))


def test_the_same_action_is_completed_once_and_as_before():
    game = _game()
    choice = game.choices()[0]
    bare = Action(choice.kind, choice.actor)
    first = game.completed(bare)
    assert game.completed(Action(choice.kind, choice.actor)) is first
    assert first == game._completed(bare)  # worked out again: equal
    assert first[1] is choice or first[1].actor == choice.actor
    other = _game()
    assert other.completed(bare) is not first and other.completed(bare) == first


def test_a_refused_action_is_refused_every_time():
    game = _game()
    wrong = Action("no-such-kind", "nobody")
    for _ in range(2):
        with pytest.raises(UserError, match="not offered now"):
            game.completed(wrong)
