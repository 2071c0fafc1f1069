"""A Heavy Combat game on the built-in duel in which the Klingon cloaks, moves unseen for
three turns and decloaks: what the tests of hidden information (R001.29) play."""

from __future__ import annotations

from tactical.io import builtin_map, load_map
from tactical.model import FrozenMap
from tactical.rules.base import Action
from tactical.session.game import Game

FED, KLINGON, KRONOS = "Federation", "Klingon", "kronos"
MOVEMENT, RESULT = "Reaction movement", "Result"
# the Klingon's Reaction movement each turn: cloak (on from turn 2), three turns of moves
# unseen, then the cloak drops at the end of turn 4
PLAN = {
    1: (("cloak", {}),),
    2: (("close", {}),),
    3: (("rotate", {"to": "port"}),),
    4: (("retreat", {}), ("decloak", {})),
}
TRUE_MOVES = ("close IKS Kronos", "rotate IKS Kronos", "retreat IKS Kronos", "decloak IKS Kronos")


def start(seed: int = 7) -> Game:
    return Game.new(load_map(builtin_map("heavy-combat")), seed)


def act(game: Game, kind: str, **params) -> Game:
    actor = next(c.actor for c in game.choices() if c.kind == kind)
    return game.apply(Action(kind, actor, FrozenMap(params)))


def until(game: Game, phase: str) -> Game:
    """Roll power, resolve, pass: play on to the start of `phase`."""
    while game.phase_name != phase:
        kinds = {c.kind for c in game.choices()}
        if "roll_power" in kinds:
            game = act(game, "roll_power")
        elif "resolve" in kinds:
            game = act(game, "resolve")
        else:
            game = game.pass_go()
    return game


def movement(game: Game, turn: int, stop: str = RESULT) -> Game:
    """The turn's Reaction movement: the Klingon's plan, the Federation passes; on to the
    start of `stop` (the Result, not resolved)."""
    game = until(game, MOVEMENT)
    todo = list(PLAN[turn])
    while game.phase_name == MOVEMENT:
        if game.side_to_act == KLINGON and todo:
            kind, params = todo.pop(0)
            game = act(game, kind, **params)
        else:
            game = game.pass_go()
    return until(game, stop)


def played_turns(turns: int, seed: int = 7) -> list[Game]:
    """The game after each Result of turns 1..`turns` (and before it: pairs flattened)."""
    game, found = start(seed), []
    for turn in range(1, turns + 1):
        game = movement(game, turn)
        found.append(game)
        game = act(game, "resolve")
        found.append(game)
    return found
