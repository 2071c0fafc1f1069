"""A deterministic stand-in player for scripted games, tests and benchmarks.

It knows no rule system: at each go it takes the first attack it may make,
else the first other action of the rule system's that applies, else passes.
Parameters come from each choice's defaults, and where a required field has
no default, from its listed choices in order (the first target that is in
range, say). Each unit attacks at most once per turn (a rule system whose
attacks are otherwise unlimited still reaches the end of the phase), and
the session's free table moves are never made (a stand-in has nowhere to go).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice, product
from typing import Any

from tactical.errors import UserError
from tactical.model import FrozenMap
from tactical.rules.base import Action, ActionChoice
from tactical.session.game import Game

ATTACK = "attack"
MAX_TRIES = 24  # parameter combinations tried per choice
MAX_STEPS = 5000


def candidate_params(choice: ActionChoice) -> Iterator[FrozenMap]:
    """Parameter sets for a choice: defaults, and the listed choices of the fields without one."""
    fixed: dict[str, Any] = {}
    open_fields = []
    for spec in choice.fields:
        if spec.default is not None:
            fixed[spec.name] = spec.default
        elif spec.required and spec.choices:
            open_fields.append(spec)
    if not open_fields:
        yield FrozenMap(fixed)
        return
    names = [spec.name for spec in open_fields]
    for values in islice(product(*(spec.choices or () for spec in open_fields)), MAX_TRIES):
        yield FrozenMap({**fixed, **dict(zip(names, values, strict=True))})


def next_game(game: Game) -> Game:
    """The game after the stand-in's action for the side to act."""
    this_turn = [s.action for s in game.steps if s.before.turn == game.turn and not s.by_session]
    attacked = {action.actor for action in this_turn if action.kind == ATTACK}
    offered = game.rule_choices()
    ordered = [c for c in offered if c.kind == ATTACK] + [c for c in offered if c.kind != ATTACK]
    for choice in ordered:
        if choice.kind == ATTACK and choice.actor in attacked:
            continue
        for params in candidate_params(choice):
            action = Action(choice.kind, choice.actor, params)
            if choice.actor not in game.sides and action in this_turn:
                continue
            try:
                return game.apply(action)
            except UserError:
                continue
    return game.pass_go()


def play_turns(game: Game, turns: int = 2, max_steps: int = MAX_STEPS) -> Game:
    """Play with the stand-in until `turns` full turns are over (the start of turn `turns + 1`)
    or the game is."""
    for _ in range(max_steps):
        if game.turn > turns or game.over:  # a game that is over takes no more actions
            return game
        game = next_game(game)
    raise UserError(
        f"the scripted game did not finish {turns} turns in {max_steps} steps "
        f"(stuck at turn {game.turn}, {game.phase_name}, {game.side_to_act} to act)"
    )
