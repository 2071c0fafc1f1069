"""A game as one side knows it: its view of the table and the steps it may read.

`viewed(game, side)` is the game the screen draws for `side`, its log and its computer
player decide from: the rule system's view of the state (`RuleSystem.view_for`) and each
step as `side` may read it now (`RuleSystem.withheld`): a step withheld whole reads as
its side's go with `HIDDEN` in place of its action, and no rolls, events or words; a step
with some events withheld keeps the rest. Neither carries the tables around it (what a
step withheld would be read from). A game whose rule system hides nothing from `side` is
returned as it is: the same object, so nothing changes for it.

The true game stays the one that is played, saved and replayed: a viewed game is only
read (an action chosen from it is applied to the true game). Nothing here names a rule
system.
"""

from __future__ import annotations

import weakref

from tactical.rules.base import Action, StepFacts, Withheld
from tactical.session.game import Game, Step
from tactical.session.log_words import HIDDEN

# None: the game itself (a value holding its own key would never let it go)
_VIEWED: weakref.WeakKeyDictionary[Game, dict[str, Game | None]] = weakref.WeakKeyDictionary()
_SEEN_STEPS: weakref.WeakKeyDictionary[Step, dict[tuple[str, Withheld], Step]] = (
    weakref.WeakKeyDictionary()
)


def viewed(game: Game, side: str) -> Game:
    """`game` as `side` knows it (see the module docstring); cached per game value."""
    found = _VIEWED.get(game)
    if found is not None and side in found:
        return found[side] or game
    view = game.system.view_for(game.state, side)
    seen = None
    if view is not game.state:
        steps = tuple(seen_step(step, game, side) for step in game.steps)
        seen = Game(game.initial, game.seed, view, game.position, game.sides, steps)
    _VIEWED.setdefault(game, {})[side] = seen
    return seen or game


def hides_anything(game: Game, side: str) -> bool:
    """Whether `side`'s view of `game` differs from the true game now."""
    return viewed(game, side) is not game


def seen_step(step: Step, game: Game, side: str) -> Step:
    """`step` as `side` may read it in `game` (the step itself when nothing is withheld)."""
    if step.system is None:  # a hand adjustment: its sentence is the table's, for everyone
        return step
    facts = StepFacts(step.before.turn, step.phase.name, step.side, step.action, step.events)
    withheld = game.system.withheld(game.state, facts, side)
    if not withheld.anything:
        return step
    memo = _SEEN_STEPS.setdefault(step, {})
    key = (side, withheld)
    if key not in memo:
        memo[key] = _redacted(step, withheld)
    return memo[key]


def _redacted(step: Step, withheld: Withheld) -> Step:
    """`step` without what is withheld: no tables (nothing to read the rest from)."""
    whole = withheld.step
    return Step(
        number=step.number,
        action=Action(HIDDEN, step.side) if whole else step.action,
        title=withheld.words if whole else step.title,
        side=step.side,
        before=step.before,
        after=step.after,
        phase=step.phase,
        next_phase=step.next_phase,
        next_side=step.next_side,
        events=()
        if whole
        else tuple(e for i, e in enumerate(step.events) if i not in withheld.events),
        rolls=() if whole else step.rolls,
        summary=None,
        by_session=whole or step.by_session,
        forced="" if whole else step.forced,
        fair=step.fair,
    )
