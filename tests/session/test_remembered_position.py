"""What a game value remembers of its position (its phase, whose go) is what a game built
afresh from the same table and position works out: `Game.apply` hands the next game what
it worked out for the step's record, never the game before's."""

from __future__ import annotations

from tactical.agents.candidates import candidates
from tactical.io import builtin_map, load_map
from tactical.session.game import Game


def _afresh(game: Game) -> Game:
    return Game(game.initial, game.seed, game.state, game.position, game.sides, game.steps)


def test_each_games_phase_and_side_are_its_own():
    game = Game.new(load_map(builtin_map("dystopian-wars")), 5)
    seen = set()
    for _ in range(12):
        after = game.apply(candidates(game)[0].action)
        step = after.steps[-1]
        fresh = _afresh(after)
        assert (after.phase, after.side_to_act) == (fresh.phase, fresh.side_to_act)
        assert (step.next_phase, step.next_side) == (fresh.phase, fresh.side_to_act)
        assert (step.phase, step.side) == (game.phase, game.side_to_act)
        seen.add((after.phase.name, after.side_to_act))
        game = after
    assert len(seen) > 2  # the phase or the side changed along the way
