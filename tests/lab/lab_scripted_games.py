"""Small game functions the lab tests inject into the runner in place of real AI games.

They are pure functions of the run and the task (the seed decides everything), quick,
and module-level so that worker processes and Ray tasks can import them by name.
`killing_game` ends its own worker process the first time it reaches game number
`KILL_AT` (a marker file, named by the environment, remembers that it did).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

from tactical.lab.plan import GameResult, GameTask, RunSpec, SideResult, UnitFate

KILL_MARKER_ENV = "TACTICAL_LAB_TEST_KILL_MARKER"
KILL_AT = 5


def scripted_game(spec: RunSpec, task: GameTask) -> GameResult:
    """A 'game' decided by its seed: side A wins 60% of the time in variant 0, 40% in 1."""
    rng = random.Random(task.seed * 7 + task.variant)
    first, second = spec.sides
    players = spec.players_by_side(task.seat)
    bias = 0.6 if task.variant == 0 else 0.4
    roll = rng.random()
    winner = first if roll < bias * 0.9 else (None if roll < bias else second)
    turns = rng.randint(2, 6)
    damage = [round(rng.uniform(0, 10), 3) for _ in range(2)]
    by_turn = [tuple(round(d * (t + 1) / turns, 3) for t in range(turns)) for d in damage]
    lost = [rng.random() for _ in range(2)]
    units_lost = [rng.randint(0, 3) for _ in range(2)]
    sides = (
        SideResult(first, players[first], damage[0], lost[0], damage[0], units_lost[0], by_turn[0]),
        SideResult(
            second, players[second], damage[1], lost[1], damage[1], units_lost[1], by_turn[1]
        ),
    )
    units = (
        UnitFate("a1", "cruiser", first, rng.random() < 0.5),
        UnitFate("b1", "cruiser", second, rng.random() < 0.5),
        UnitFate("b2", "fighter", second, rng.random() < 0.7),
    )
    return GameResult(
        variant=task.variant,
        number=task.number,
        seed=task.seed,
        seat=task.seat,
        terrain_seed=task.terrain_seed,
        winner=winner,
        reason="scripted",
        spec_id=None,
        turns=turns,
        steps=turns * 4,
        sides=sides,
        units=units,
        code_version="test",
    )


def killing_game(spec: RunSpec, task: GameTask) -> GameResult:
    """`scripted_game`, except that it kills its own worker once, at game `KILL_AT`."""
    marker = Path(os.environ[KILL_MARKER_ENV])
    if task.number == KILL_AT and not marker.exists():
        marker.write_text(str(os.getpid()))
        os._exit(9)
    return scripted_game(spec, task)


def failing_game(spec: RunSpec, task: GameTask) -> GameResult:
    if task.number == 3:
        raise ValueError("a bug in game 3")
    return scripted_game(spec, task)


def slow_game(spec: RunSpec, task: GameTask) -> GameResult:
    """`scripted_game` taking 20 ms, so that a worker is caught in the middle of a chunk."""
    import time

    time.sleep(0.02)
    return scripted_game(spec, task)


def map_units_game(spec: RunSpec, task: GameTask) -> GameResult:
    """`scripted_game` whose units are the map's own (ids and classes as a real game stores
    them), each lost by the seed's draw."""
    from dataclasses import replace

    from tactical.io.maps import loads_map
    from tactical.lab.games import unit_class

    rng = random.Random(task.seed * 11 + task.variant)
    state = loads_map(spec.map_text, spec.map_source)
    units = tuple(
        UnitFate(unit.id, unit_class(unit), unit.side, rng.random() < 0.5) for unit in state.units
    )
    return replace(scripted_game(spec, task), units=units)


class SerialPool:
    """A backend that plays every game in this process, in order (no worker to start):
    what the tests that run `lab run` many times put in place of `LocalPool`."""

    def __init__(self, workers: int, play, start_method: str | None = None) -> None:
        self.play = play

    def run(self, spec: RunSpec, chunks):
        for chunk in chunks:
            for task in chunk:
                yield self.play(spec, task)
