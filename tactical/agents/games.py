"""Whole games between agents: the public entry point for tests, benchmarks and a lab.

    from tactical.agents import play_game
    record = play_game(load_map("maps/heavy-combat.toml"), seed=7,
                       players={"Federation": "greedy", "Klingon": "search"})
    record.outcome.winner, record.turns, record.losses, record.log_text

Nothing here names a rule system.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from tactical.agents.evaluation import Material
from tactical.agents.levels import make_player
from tactical.agents.players import Decision, Player
from tactical.agents.sight import decide_seeing
from tactical.errors import UserError
from tactical.geometry.shapes import Pose
from tactical.model import FrozenMap, GameState
from tactical.rules.ending import Outcome
from tactical.session.forced import settled
from tactical.session.game import Game
from tactical.session.log import game_log
from tactical.session.movement import plans_remembered

MAX_STEPS = 20_000


@dataclass(frozen=True)
class GameRecord:
    """A finished game between agents.

    `outcome` is how it ended (`Outcome`: winner or None for a draw, score per side,
    reason, SPEC id); `turns` the turn it ended in; `steps` the number of actions;
    `losses` per side the share of its starting strength lost (the material measure,
    0 to 1) and `damage_dealt` per side the enemies' strength it took (in the rule
    system's strength units); `whys` the one-line reason of every step, by step: an agent's
    decision, or the game's reason for a step it took by itself ("no choice: ...");
    `game` the final `Game` (its log: `log_text`); `refused` the decisions the session
    refused (always 0: a player only returns an action the rules accepted).
    """

    outcome: Outcome
    turns: int
    steps: int
    losses: Mapping[str, float]
    damage_dealt: Mapping[str, float]
    players: Mapping[str, str]
    seed: int
    whys: tuple[tuple[int, str, str], ...] = ()
    refused: int = 0
    game: Game | None = field(default=None, compare=False, repr=False)

    @property
    def winner(self) -> str | None:
        return self.outcome.winner

    @property
    def log_text(self) -> str:
        return game_log(self.game).text() if self.game is not None else ""


def players_for(
    game: Game, players: Mapping[str, str | Player], seed: int, **search: Any
) -> dict[str, Player]:
    """A player per side: levels by name become players seeded from the game's seed and
    the side's seat (so swapping seats swaps the dice of the agents too)."""
    found: dict[str, Player] = {}
    for index, side in enumerate(game.sides):
        wanted = players.get(side, "greedy")
        if isinstance(wanted, Player):
            found[side] = wanted
        else:
            found[side] = make_player(str(wanted), seed * 31 + index, **search)
    unknown = set(players) - set(game.sides)
    if unknown:
        raise UserError(
            f"no side {sorted(unknown)[0]!r} in this game: its sides are {', '.join(game.sides)}"
        )
    return found


def with_options(state: GameState, **options: Any) -> GameState:
    """The map with some `[options]` set (a shorter game for a test, say)."""
    return replace(state, options=FrozenMap({**state.options, **options}))


def mirrored(state: GameState, side: str) -> GameState:
    """The map with `side`'s fleet on both sides: the other side's units replaced by a copy
    of `side`'s, turned half a circle about the table's centre (each copy stands where the
    original would if the table were turned round). A fair fight between two players:
    seat-swapped games on it measure the players, not the scenario's balance.

    The copies keep their stats and names (with " (mirror)"), take the other side's name
    and ids prefixed "mirror-"; the sides keep their order. UserError for a side not in
    the map, or a map with other than two sides."""
    sides = state.sides
    if side not in sides:
        raise UserError(f"no side {side!r} in this map: its sides are {', '.join(sides)}")
    if len(sides) != 2:
        raise UserError(f"a mirrored map needs two sides, this one has {len(sides)}")
    other = sides[1] if side == sides[0] else sides[0]
    width, height = state.board.width, state.board.height
    kept = [unit for unit in state.units if unit.side == side]
    copies = [
        replace(
            unit,
            id=f"mirror-{unit.id}",
            name=f"{unit.name} (mirror)",
            side=other,
            pose=Pose(width - unit.pose.x, height - unit.pose.y, unit.pose.heading + 180.0),
        )
        for unit in kept
    ]
    units = kept + copies if side == sides[0] else copies + kept
    return replace(state, units=tuple(units), title=f"{state.title} ({side} against {side})")


def play_game(
    state: GameState,
    seed: int,
    players: Mapping[str, str | Player] | None = None,
    *,
    max_steps: int = MAX_STEPS,
    on_step: Callable[[Game], None] | None = None,
    **search: Any,
) -> GameRecord:
    """Play a whole game between agents from a loaded map and return its record.

    `players` maps a side to a level ("random", "greedy", "search") or a `Player`
    (sides left out play greedy); `search` options (playouts, seconds, width, horizon)
    set the budget of the search players (e.g. `playouts=8, seconds=None` for a
    deterministic quick game). The same state, seed and players give the same game.
    The steps the rules leave no choice for are taken by the game itself, as on the play
    screen (`session.forced`): a player is asked only where there is a decision.
    UserError when the game does not end within `max_steps` actions. `on_step`, when
    given, sees the game after each step as it is played (to read a step's tables while
    they are still held, instead of playing the game again).
    """
    game = Game.new(state, seed)
    seats = players_for(game, players or {}, seed, **search)
    whys: list[tuple[int, str, str]] = []
    game = _settled(game, whys, on_step)
    # a move's plan is kept for the next tables where nothing near its path changed
    with collector_paused(), plans_remembered():
        game = _played(game, seats, whys, max_steps, on_step)
    outcome = game.outcome
    assert outcome is not None
    return record_of(game, outcome, seats, seed, tuple(whys))


def _played(
    game: Game,
    seats: Mapping[str, Player],
    whys: list[tuple[int, str, str]],
    max_steps: int,
    on_step: Callable[[Game], None] | None,
) -> Game:
    """The game played on from `game` to its end by its seats; UserError past `max_steps`."""
    for _ in range(max_steps):
        if game.over:
            return game
        side = game.side_to_act
        decision: Decision = decide_seeing(seats[side], game)  # from its side's view
        whys.append((decision.after.step_number, side, decision.why))
        if on_step is not None:
            on_step(decision.after)
        game = _settled(decision.after, whys, on_step)
    raise UserError(
        f"the game did not end in {max_steps} steps (turn {game.turn}, {game.phase_name})"
    )


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector paused while a game is played, and running again after
    it, even on an error. A decision makes and drops a great many small values, none in a
    cycle: reference counting frees them, and the collector's passes, set off by their
    number, walked the whole heap for nothing (a tenth to a quarter of a greedy game).
    Paused for the whole game rather than step by step: each step's end set off a pass
    over what the step kept (7% of a Dystopian Wars game), for a few megabytes at most."""
    running = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if running:
            _kept_as_old()
            gc.enable()


def _kept_as_old() -> None:
    """Every object the collector tracks handed to its oldest generation as it is (`gc.freeze`
    then `gc.unfreeze`: two moves of its lists, nothing walked). After a paused game its young
    generation holds everything the game made and kept, and the collector's first pass after
    it walked all of that (2-4% of a Dystopian Wars game) to find nothing: a game makes no
    garbage cycle (reference counting frees the rest), and what it keeps lives on. A cycle
    would be found by the next full pass. Not where objects are frozen already: unfreezing
    would let go of a caller's own."""
    if gc.get_freeze_count() == 0:
        gc.freeze()
        gc.unfreeze()


def _settled(
    game: Game, whys: list[tuple[int, str, str]], on_step: Callable[[Game], None] | None = None
) -> Game:
    """The game after the steps it takes by itself; each one's why is the game's reason."""
    games = settled(game)
    for after in games:
        step = after.steps[-1]
        whys.append((step.number, step.side, f"no choice: {step.forced}"))
        if on_step is not None:
            on_step(after)
    return games[-1] if games else game


def record_of(
    game: Game, outcome: Outcome, seats: Mapping[str, Player], seed: int, whys: tuple = ()
) -> GameRecord:
    material = Material(game)
    losses = material.losses(game.state)
    strength = material.total_strength
    dealt = {
        side: sum(losses.get(other, 0.0) * strength.get(other, 0.0)
                  for other in game.sides if other != side)
        for side in game.sides
    }  # fmt: skip
    return GameRecord(
        outcome=outcome,
        turns=outcome.turn,
        steps=game.step_number,
        losses={side: losses.get(side, 0.0) for side in game.sides},
        damage_dealt=dealt,
        players={side: seat.level for side, seat in seats.items()},
        seed=seed,
        whys=whys,
        game=game,
    )
