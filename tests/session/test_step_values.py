"""A step's game, step and dice made field by field (`Game.apply`'s fast path): the same
values as the dataclasses' own constructors and the plain seeded dice."""

from __future__ import annotations

from dataclasses import fields

from tactical.dice import D6, SeededDice
from tactical.io import builtin_map, load_map
from tactical.session.autoplay import next_game
from tactical.session.game import Game, Step, step_dice, step_seed


def test_step_dice_roll_as_the_seeded_dice_of_the_step_seed():
    for seed, number in ((0, 1), (7, 12), (123456, 999)):
        lazy, plain = step_dice(seed, number), SeededDice(step_seed(seed, number))
        assert lazy.seed == plain.seed
        assert [lazy.roll(D6) for _ in range(12)] == [plain.roll(D6) for _ in range(12)]
        assert lazy.rolls == plain.rolls
    assert step_dice(3, 4).rolls == ()  # nothing rolled: no seed worked out either


def test_a_step_and_its_game_hold_what_the_constructors_would():
    game = Game.new(load_map(builtin_map("battlefleet-mars")), 5)
    for _ in range(4):
        game = next_game(game)
    step = game.steps[-1]
    again = Step(**{f.name: getattr(step, f.name) for f in fields(Step)})
    assert all(getattr(again, f.name) is getattr(step, f.name) for f in fields(Step))
    made = {name: value for name, value in vars(step).items() if name != "words"}  # cached
    assert set(made) == {f.name for f in fields(Step)}
    rebuilt = Game(game.initial, game.seed, game.state, game.position, game.sides, game.steps)
    assert all(
        getattr(rebuilt, f.name) is getattr(game, f.name) for f in fields(Game) if f.name != "_memo"
    )
    assert (rebuilt.phase, rebuilt.side_to_act) == (game.phase, game.side_to_act)
