"""Parameter sets for checking that what a rule system offers, it accepts."""

from __future__ import annotations

from tactical.dice import SeededDice
from tactical.errors import UserError
from tactical.model import FrozenMap
from tactical.rules.base import Action, ActionChoice
from tactical.session import autoplay
from tactical.session.game import Game


def variants(choice: ActionChoice) -> list[FrozenMap]:
    """The stand-in's parameters, then each listed value and each bound of each field."""
    first = dict(next(iter(autoplay.candidate_params(choice))))
    found = [FrozenMap(first)]
    for spec in choice.fields:
        for value in spec.choices or ():
            if first.get(spec.name) != value:
                found.append(FrozenMap({**first, spec.name: value}))
        if spec.kind == "int" and spec.low is not None and spec.high is not None:
            found.extend(FrozenMap({**first, spec.name: int(v)}) for v in (spec.low, spec.high))
    return found


def refusals_over_two_turns(game: Game) -> tuple[list[tuple], int, set[str]]:
    """Every choice offered while the stand-in plays two turns, applied with each of its
    `variants`: the refusals (turn, phase, action, why), how many were tried, and the kinds."""
    refused: list[tuple] = []
    applied = 0
    kinds: set[str] = set()
    while game.turn <= 2:
        for choice in game.rule_choices():
            for params in variants(choice):
                action = Action(choice.kind, choice.actor, params)
                try:
                    game.system.apply(game.state, action, SeededDice(5))
                except UserError as error:
                    refused.append((game.turn, game.phase_name, action, error.describe()))
                applied += 1
                kinds.add(choice.kind)
        game = autoplay.next_game(game)
    return refused, applied, kinds
