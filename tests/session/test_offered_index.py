"""The choices of one kind and actor, indexed once per game value (`Game._offered`): the
same choices in the same order as a search through every choice finds, for completing an
action, its odds and whether the session takes it (`is_session_action`)."""

from __future__ import annotations

import pytest

from tactical.errors import UserError
from tactical.io import builtin_map, load_map
from tactical.rules.base import Action
from tactical.session.forced import settle
from tactical.session.game import MOVE, PASS, Game


def _searched(choices, kind, actor):
    return [c for c in choices if c.kind == kind and c.actor == actor]


@pytest.mark.parametrize("rules", ["heavy-combat", "battlefleet-mars"])
def test_each_kind_and_actor_offers_what_a_search_finds(rules):
    game = settle(Game.new(load_map(builtin_map(rules)), 7))
    actors = {c.actor for c in game.choices()} | {u.id for u in game.state.units}
    kinds = {c.kind for c in game.choices()} | {MOVE, PASS, "no-such-kind"}
    assert game.choices()
    for kind in kinds:
        for actor in actors | set(game.sides):
            offered = game._offered(kind, actor)
            assert list(offered) == _searched(game.choices(), kind, actor)
            ruled = game._offered(kind, actor, rules_only=True)
            assert list(ruled) == _searched(game.rule_choices(), kind, actor)
            action = Action(kind, actor)
            by_session = kind in (MOVE, PASS, "adjust") and not ruled
            assert game.is_session_action(action) == by_session


def test_an_actor_that_is_no_value_is_offered_nothing():
    game = settle(Game.new(load_map(builtin_map("heavy-combat")), 7))
    odd = Action(PASS, ["not", "a", "side"])  # type: ignore[arg-type]
    assert list(game._offered(PASS, odd.actor)) == []
    assert game.is_session_action(odd)
    with pytest.raises(UserError):
        game.completed(odd)
