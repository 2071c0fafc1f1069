"""A computer player sees only what its side sees.

`decide_seeing(player, game)`: the player decides from its side's view of the game
(`session.views.viewed`: a cloaked enemy where it was last seen, its moves withheld), never
from the true game; the action it chose is then applied to the true game, where the rules
run. Where the rules hide nothing the view is the game itself and the decision is the very
one the player makes on it. Nothing here names a rule system.
"""

from __future__ import annotations

from tactical.agents.players import Decision, Player
from tactical.errors import UserError
from tactical.session.game import Game
from tactical.session.views import viewed


def decide_seeing(player: Player, game: Game) -> Decision:
    """`player`'s decision for the side to act, made from that side's view of `game`, with
    the true game after it (see the module docstring)."""
    seen = viewed(game, game.side_to_act)
    if seen is game:
        return player.decide(game)
    decision = player.decide(seen)
    try:
        after = game.apply(decision.action)
    except UserError as refused:
        # what the side could not see made its choice illegal on the true table: it passes
        return player.pass_decision(game, f"{decision.why}; refused: {refused}")
    return Decision(after.steps[-1].action, decision.why, after, decision.score)
