"""Computer players' speed: greedy-vs-greedy games per second per core in every rule system.

Run: .venv/bin/pytest bench/bench_agent_speed.py --benchmark-enable -p no:cacheprovider
(BENCH_QUICK=1: one game of the first system.)

Each round plays whole games of the built-in scenario (seeds 100 and 101, the games
tests/agents/test_same_choices.py holds every decision of) in this process; the figure
is the time of one game, CPU and wall (the goal: at least 2 games a second per core,
0.5 s a game). The baseline, in the same run: the same games with the expected effects
not remembered between decisions (every candidate's effect enumerated again on an equal
table), so the ratio is what remembering them saves; the other speed-ups (sums of dice
convolved, sub-rolls enumerated once per value, state read back without re-parsing) are
in both.
"""

from __future__ import annotations

import time

import pytest
from conftest import BUDGETS, FIGURES, RATIOS, quick

from tactical.agents import play_game
from tactical.agents.evaluation import Material
from tactical.io import builtin_map, load_map
from tactical.rules import registry

GAME_BUDGET = 0.5  # seconds a game: 2 games a second per core
SEEDS = (100, 101)


def games(rules_id: str) -> tuple[float, float]:
    """CPU and wall seconds a game, over the seeds."""
    state = load_map(builtin_map(rules_id))
    seeds = quick(SEEDS, SEEDS[:1])
    cpu, wall = time.process_time(), time.perf_counter()
    for seed in seeds:
        play_game(state, seed, {side: "greedy" for side in state.sides})
    return (time.process_time() - cpu) / len(seeds), (time.perf_counter() - wall) / len(seeds)


@pytest.mark.parametrize("remembered", [True, False], ids=["remembered", "not-remembered"])
@pytest.mark.parametrize("rules_id", registry.rule_ids())
def test_greedy_games_per_second(benchmark, monkeypatch, rules_id, remembered):
    if not remembered:
        monkeypatch.setattr(Material, "remembered", lambda self, key, compute: compute())
    times: list[tuple[float, float]] = []
    benchmark.pedantic(lambda: times.append(games(rules_id)), rounds=quick(2, 1), iterations=1)
    name = f"greedy game {rules_id}{'' if remembered else ' (not remembered)'}"
    assert times and all(cpu > 0 and wall > 0 for cpu, wall in times)
    if benchmark.stats is not None:  # figures a game (a round plays every seed)
        cpu = min(t[0] for t in times)
        FIGURES[name] = min(t[1] for t in times)
        FIGURES[f"{name}, CPU"] = cpu
        if remembered:
            BUDGETS[name] = BUDGETS[f"{name}, CPU"] = GAME_BUDGET
        if remembered:
            # (a system whose tables rarely repeat gains little: a ratio near 1 is no fault)
            RATIOS.append(
                (f"remembered effects {rules_id}", f"greedy game {rules_id} (not remembered)",
                 f"greedy game {rules_id}", 0.9)
            )  # fmt: skip
            print(f"\n{rules_id}: {1 / cpu:.2f} greedy games a second per core (CPU)")
