"""Whether play can go on from a game: what an adjustment by hand is checked against.

An adjustment changes the table under the rules' bookkeeping. The rule system refuses the
changes it knows would break it (`RuleSystem.adjustment_refused`: a unit in the middle of its
go); this is the check every rule system gets besides: after the adjustment the rules must
still say how the game stands (`outcome`) and what each side may do (`actions`), and the side
to act must be offered something while the game goes on. An adjustment that fails it is
refused with the rules' reason, so that it can never leave a game in which every step fails
and whose save does not reopen. Nothing here names a rule system.
"""

from __future__ import annotations

from tactical.errors import UserError
from tactical.rules.status import refusal_words
from tactical.session.game import Game

# what rule-system code raises on a table its bookkeeping no longer fits (a bug it would
# be, in play; an adjustment by hand is refused before it gets there)
BROKEN = (KeyError, ValueError, TypeError, AttributeError, IndexError, ArithmeticError)


def stuck_reason(game: Game) -> str | None:
    """Why play cannot go on from `game`, in plain words, or None when it can."""
    try:
        if game.over:
            return None
        for side in game.sides:
            game.system.actions(game.state, game.position, side)
        if not game.choices():
            return f"{game.side_to_act} would have nothing to do and the game would not be over"
    except UserError as error:
        return refusal_words(game.state, error).message
    except BROKEN:
        return "the rules could not go on from the table it leaves"
    return None
