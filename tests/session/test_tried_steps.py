"""A computer player's trial of an action (`Game.tried`) is the step itself when it rolled
nothing and its resolver never asked for words (`model.worded.noting_words`): `apply` then
takes the trial's resolution instead of resolving the action again, the same state, events
and summary. A trial that rolled, or whose resolver asked, is not kept."""

from __future__ import annotations

from tactical.agents.candidates import candidates
from tactical.dice import SeededDice
from tactical.io import builtin_map, load_map
from tactical.model.worded import noting_words, unworded, worded
from tactical.session.forced import settle
from tactical.session.game import Game


def _activating() -> Game:
    """Dystopian Wars at the first activation of the turn (both field orders taken)."""
    game = settle(Game.new(load_map(builtin_map("dystopian-wars")), 5))
    for _ in range(2):
        game = settle(game.apply(candidates(game)[0].action))
    return game


def _first(game: Game, kind: str):
    return next(c.action for c in candidates(game) if c.action.kind == kind)


def test_a_trial_that_rolled_nothing_is_the_step():
    game = _activating()
    action = _first(game, "activate")
    declared, _ = game.completed(action)
    dice = SeededDice(1)
    trial = game.tried(declared, dice)
    assert dice.rolls == ()
    after = game.apply(action)
    assert after.state is trial.state  # taken, not resolved again
    fresh = _activating().apply(action)  # the same position, nothing tried
    assert fresh.state is not trial.state
    assert fresh.state == after.state
    mine, theirs = after.steps[-1], fresh.steps[-1]
    assert (mine.events, mine.summary, mine.rolls) == (theirs.events, theirs.summary, theirs.rolls)
    assert mine.words == theirs.words


def test_a_trial_that_rolled_is_not_kept():
    game = settle(Game.new(load_map(builtin_map("dystopian-wars")), 5))
    action = _first(game, "field-order")
    declared, _ = game.completed(action)
    dice = SeededDice(1)
    trial = game.tried(declared, dice)
    assert dice.rolls
    after = game.apply(action)
    assert after.state is not trial.state
    assert after.steps[-1].rolls != ()


def test_a_trial_whose_resolver_asked_for_words_is_not_kept():
    # Battlefleet Mars words its purchases only when they are read: it asks
    game = settle(Game.new(load_map(builtin_map("battlefleet-mars")), 5))
    action = _first(game, "purchase")
    declared, _ = game.completed(action)
    dice = SeededDice(1)
    trial = game.tried(declared, dice)
    assert dice.rolls == ()
    assert game.apply(action).state is not trial.state


def test_noting_words_notes_a_question_only_inside():
    with noting_words() as noted:
        assert not noted.asked
        assert worded() is False
        assert noted.asked
    assert worded() is True
    with noting_words() as quiet:
        pass
    assert not quiet.asked
    with unworded():
        assert worded() is False
    assert not quiet.asked  # a question after its block is not its
