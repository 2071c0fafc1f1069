"""One lab game: the map of a variant, on its table, played by the agents; and its replay.

This is the only module of the lab that calls the agents (`tactical.agents.play_game`).
A game is a pure function of the run and its task: the map's TOML text with the
variant's options, the random table of its pair (R002.9, seeded by the task's terrain
seed, kept clear of the units), the AI levels of its seat, and its seed. So any stored
game can be played again, step for step, into a normal save (`replay_stored`).

Figures kept per side: the outcome's score, the share of the side's starting
strength it lost and the enemy strength it took (the agents' material measure, from
the rule system's `unit_condition`), the units it lost (destroyed or crippled), and
the damage it had dealt by the end of each turn (the table at each change of turn, taken
as the game is played: a game is played once, and stored from the run that played it).
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from tactical import agents
from tactical.agents.evaluation import Material
from tactical.errors import UserError
from tactical.geometry.zones import Zone
from tactical.io.maps import loads_map
from tactical.lab.plan import GameResult, GameTask, RunSpec, SideResult, UnitFate
from tactical.lab.store import Store
from tactical.lab.variants import Variant
from tactical.lab.version import code_version
from tactical.model import FrozenMap, GameState, Unit
from tactical.rules import registry
from tactical.rules.schema import earlier_readings
from tactical.session.game import Game
from tactical.session.saving import save_game
from tactical.session.terrain_setup import MIN_GAP, seeded_setup

# `search` thinks by a fixed number of play-outs, not by the clock: a lab game must
# replay the same on any machine and under any load
SEARCH_BUDGET: dict[str, Any] = {"playouts": 64, "seconds": None}
CLASS_STATS = ("type", "class")  # stats keys a unit's class is read from, before its name


def ai_levels() -> tuple[str, ...]:
    return tuple(agents.LEVELS)


# --------------------------------------------------------------------------- the table


@functools.lru_cache(maxsize=8)
def _loaded(map_text: str, source: str) -> GameState:
    return loads_map(map_text, source)


def variant_state(spec: RunSpec, variant: Variant, terrain_seed: int | None) -> GameState:
    """The map with the variant's options, on its random table when the run lays one."""
    state = replace(_loaded(spec.map_text, spec.map_source), options=FrozenMap(variant.options))
    if terrain_seed is None:
        return state
    setup = seeded_setup(state.board, terrain_seed, avoid=unit_keepouts(state))
    return state.with_terrain(setup.terrain)


def unit_keepouts(state: GameState) -> tuple[Zone, ...]:
    """A box around each unit's base, `MIN_GAP` wider: random terrain is laid around the
    units where the map placed them, never under them."""
    boxes = []
    for unit in state.units:
        x0, y0, x1, y1 = unit.footprint.bounds
        boxes.append(Zone(unit.id, x0 - MIN_GAP, y0 - MIN_GAP, x1 + MIN_GAP, y1 + MIN_GAP))
    return tuple(boxes)


def unit_class(unit: Unit) -> str:
    """What the report groups units by: the class their stats name, else their name."""
    for key in CLASS_STATS:
        value = unit.stats.get(key)
        if isinstance(value, str) and value:
            return value
    return unit.name or unit.id


def check_playable(spec: RunSpec) -> None:
    """UserError unless every variant starts a game that can end (an outcome rule, and not
    over before the first action)."""
    system = registry.get(spec.rules)
    if not callable(getattr(system, "outcome", None)):
        raise UserError(
            f"{spec.map_source}: rule system {spec.rules!r} has no rule for how a game ends; "
            "the lab needs games with a result"
        )
    for variant in spec.variants:
        game = Game.new(variant_state(spec, variant, None), 0)
        ended = game.outcome
        if ended is not None:
            raise UserError(
                f"{spec.map_source} ({variant.label}): the game is over before it starts: "
                f"{ended.headline()}",
                spec_id=ended.spec_id,
            )


# --------------------------------------------------------------------------- playing


def play_task(spec: RunSpec, task: GameTask) -> GameResult:
    """Play one game of the run (see the module docstring)."""
    started = time.perf_counter()
    state = variant_state(spec, spec.variants[task.variant], task.terrain_seed)
    players = spec.players_by_side(task.seat)
    turn_ends = TurnEnds()
    record = agents.play_game(state, task.seed, players, on_step=turn_ends, **SEARCH_BUDGET)
    game = record.game
    assert game is not None
    outcome = record.outcome
    material = Material(game)
    by_turn = damage_by_turn(game, material, turn_ends.tables)
    system = game.system
    fates = tuple(
        UnitFate(unit.id, unit_class(unit), unit.side, system.unit_condition(game.state, unit).out)
        for unit in game.initial.units
    )
    sides = tuple(
        SideResult(
            side=side,
            ai=players[side],
            score=float(outcome.score(side)),
            losses=float(record.losses.get(side, 0.0)),
            damage=float(record.damage_dealt.get(side, 0.0)),
            units_lost=sum(1 for fate in fates if fate.side == side and fate.lost),
            damage_by_turn=by_turn[side],
        )
        for side in spec.sides
    )
    return GameResult(
        variant=task.variant,
        number=task.number,
        seed=task.seed,
        seat=task.seat,
        terrain_seed=task.terrain_seed,
        winner=outcome.winner,
        reason=outcome.why,
        spec_id=outcome.spec_id,
        turns=record.turns,
        steps=record.steps,
        sides=(sides[0], sides[1]),
        units=fates,
        seconds=time.perf_counter() - started,
        code_version=code_version(),
    )


class TurnEnds:
    """The table at the end of each turn, taken as the game is played (`play_game`'s
    `on_step`): each step's table is read while the game just played holds it."""

    def __init__(self) -> None:
        self.tables: list[GameState] = []
        self._seen = 0  # steps looked at so far

    def __call__(self, game: Game) -> None:
        for step in game.steps[self._seen :]:
            if step.after.turn != step.before.turn:
                table = step.state_after
                assert table is not None  # a step an agent took, never a hand adjustment
                self.tables.append(table)
        self._seen = game.step_number


def damage_by_turn(
    game: Game, material: Material, turn_ends: Sequence[GameState]
) -> dict[str, tuple[float, ...]]:
    """Per side, the enemy strength it had taken by the end of each turn played, from the
    tables at the ends of its turns (`TurnEnds`) and its last table."""
    sides = game.sides
    strength = material.total_strength
    ends = list(turn_ends)
    if not ends or ends[-1] is not game.state:
        ends.append(game.state)  # the turn the game ended in
    series: dict[str, list[float]] = {side: [] for side in sides}
    for state in ends:
        losses = material.losses(state)
        for side in sides:
            series[side].append(round(sum(losses[o] * strength[o] for o in sides if o != side), 6))
    return {side: tuple(values) for side, values in series.items()}


# --------------------------------------------------------------------------- replaying


@dataclass(frozen=True)
class StoredGame:
    """A stored game and what is needed to play it again."""

    id: int
    spec: RunSpec
    task: GameTask
    winner: str | None
    turns: int
    steps: int
    code_version: str


def stored_game(store: Store, game_id: int) -> StoredGame:
    """The stored game `game_id` (UserError when there is none)."""
    row = store.game(game_id)
    if row is None:
        count = store.count()
        raise UserError(
            f"{str(store.path)!r}: no game {game_id} (games are numbered 1 to {count})"
            if count
            else f"{str(store.path)!r}: no games stored yet"
        )
    variants = store.variants(int(row["run_id"]))
    spec = RunSpec(
        map_text=row["map_text"],
        map_source=row["map_source"],
        rules=row["rules"],
        title=row["title"],
        sides=(row["side_a"], row["side_b"]),
        variants=tuple(
            Variant(v["label"], played_options(row["rules"], json.loads(v["options"])))
            for v in variants
        ),
        players=(row["player_1"], row["player_2"]),
        terrain=row["terrain"],
        seed=int(row["run_seed"]),
        games=int(row["games"]),
    )
    task = GameTask(
        int(row["variant"]),
        int(row["number"]),
        int(row["seed"]),
        int(row["seat"]),
        None if row["terrain_seed"] is None else int(row["terrain_seed"]),
    )
    return StoredGame(
        game_id,
        spec,
        task,
        row["winner"],
        int(row["turns"]),
        int(row["steps"]),
        row["code_version"],
    )


def played_options(rules: str, options: dict[str, Any]) -> dict[str, Any]:
    """The options a stored game was played under. A run records every option in force;
    one stored before a reading was revised lacks the revised option, and its games were
    played by the earlier reading (`Field.before`)."""
    return earlier_readings(registry.get(rules).option_fields, options)


def replay_stored(stored: StoredGame, output: Path) -> str:
    """Play the stored game again and write it as a save; UserError (nothing written)
    when it no longer plays the same (the rules or the agents changed since)."""
    spec, task = stored.spec, stored.task
    state = variant_state(spec, spec.variants[task.variant], task.terrain_seed)
    record = agents.play_game(state, task.seed, spec.players_by_side(task.seat), **SEARCH_BUDGET)
    played = (record.outcome.winner, record.turns, record.steps)
    if played != (stored.winner, stored.turns, stored.steps):
        raise UserError(
            f"game {stored.id} plays differently now ({_result_text(record.outcome.winner)} "
            f"in turn {record.turns} after {record.steps} steps; stored: "
            f"{_result_text(stored.winner)} in turn {stored.turns} after {stored.steps} "
            f"steps): it was played by {stored.code_version}, this is {code_version()}; "
            "nothing was written"
        )
    assert record.game is not None
    save_game(record.game, output)
    return record.outcome.headline()


def _result_text(winner: str | None) -> str:
    return "a draw" if winner is None else f"{winner} won"
