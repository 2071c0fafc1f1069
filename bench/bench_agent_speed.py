"""Computer players' speed: greedy-vs-greedy games per second per core in every rule system.

Run: .venv/bin/pytest bench/bench_agent_speed.py --benchmark-enable -p no:cacheprovider -s
(BENCH_QUICK=1: one game of the first system, without the baseline, and one fresh game.)

Each round plays whole games of the built-in scenario (seeds 100 and 101, the games
tests/agents/test_same_choices.py holds every decision of) in this process, timed in CPU
seconds (the goal: at least 2 games a second per core, 0.5 s a game). The baseline, in
the same run and in the same rounds (one after the other, each first in every other
round, so that both see the same load and the same warm caches): the same games with the
expected effects not remembered between decisions (every candidate's effect enumerated
again, on an equal table or on one that differs only in what the effect never reads). The
other speed-ups (declarations and fire contexts worked out once per table, sums of dice
convolved, state read back without re-parsing, moves planned once per table, the
resolvers' words left out where only states are read, the garbage collector paused
for the whole game, the sub-rolls' outcomes kept for thousands of values and a Cortex
strike rolled as one, units' conditions and decks read back by identity) are in both.
Each system prints its games a second per core with a 95% interval over the rounds
(Student's t), and the machine's load, since CPU time on a loaded machine is longer too.

The second benchmark plays fresh games (seeds 300-305, each once) in fresh processes,
each timed in the child's own CPU seconds, with the child's wall time from start to exit
beside it: what a person meets on the play screen, with nothing remembered yet, and
every module compiled as an installed package has it (a first, untimed game leaves the
modules imported during a game compiled in a folder of its own).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

import pytest
from conftest import BUDGETS, FIGURES, RATIOS, quick

from tactical.agents import play_game
from tactical.agents.evaluation import Material
from tactical.io import builtin_map, load_map
from tactical.rules import registry

GAME_BUDGET = 0.5  # CPU seconds a game: 2 games a second per core
SEEDS = (100, 101)
FRESH_SEEDS = tuple(range(300, 306))  # games nothing in the process has seen
ROUNDS = 4  # an even number: each path first in half of them
T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36}  # Student's t, 95%


def game_seconds(rules_id: str) -> float:
    """CPU seconds a greedy-vs-greedy game, over the seeds."""
    state = load_map(builtin_map(rules_id))
    seeds = quick(SEEDS, SEEDS[:1])
    cpu = time.process_time()
    for seed in seeds:
        play_game(state, seed, {side: "greedy" for side in state.sides})
    return (time.process_time() - cpu) / len(seeds)


def rate(seconds: list[float]) -> tuple[float, float]:
    """Games a second per core: the mean over rounds and the half-width of its 95% interval
    (nan from one round)."""
    rates = [1 / s for s in seconds]
    mean = statistics.fmean(rates)
    if len(rates) < 2:
        return mean, float("nan")
    return mean, T95[len(rates) - 1] * statistics.stdev(rates) / len(rates) ** 0.5


@pytest.mark.parametrize("rules_id", registry.rule_ids())
def test_greedy_games_per_second(benchmark, monkeypatch, rules_id):
    timed: dict[str, list[float]] = {"remembered": [], "not remembered": []}
    forgetful = lambda self, head, state, compute: compute(state)  # noqa: E731  (the baseline's memo)
    kept = Material.remembered

    def forgetting() -> None:
        monkeypatch.setattr(Material, "remembered", forgetful)
        try:
            timed["not remembered"].append(game_seconds(rules_id))
        finally:
            monkeypatch.setattr(Material, "remembered", kept)

    def one_round() -> None:
        if quick(False, True):  # CI: the players' own path once is enough
            timed["remembered"].append(game_seconds(rules_id))
            return
        # each goes first in every other round: the first of a process fills the rule
        # systems' own caches (cards, sub-rolls) that the second then finds
        first = len(timed["remembered"]) % 2 == 0
        if first:
            timed["remembered"].append(game_seconds(rules_id))
        forgetting()
        if not first:
            timed["remembered"].append(game_seconds(rules_id))

    benchmark.pedantic(one_round, rounds=quick(ROUNDS, 1), iterations=1)
    assert all(s > 0 for runs in timed.values() for s in runs)
    if benchmark.stats is None or quick(False, True):  # ran once (CI), nothing timed
        return
    assert len(timed["remembered"]) == len(timed["not remembered"]) >= 1
    name = f"greedy game {rules_id}, CPU"
    FIGURES[name] = statistics.median(timed["remembered"])
    FIGURES[f"{name} (not remembered)"] = statistics.median(timed["not remembered"])
    BUDGETS[name] = GAME_BUDGET
    RATIOS.append((f"remembered effects {rules_id}", f"{name} (not remembered)", name, 0.9))
    load = os.getloadavg()[0] / (os.cpu_count() or 1)
    said = f"load {load:.1f} a core" + (", loaded" if load >= 0.5 else ", quiet")
    for label, seconds in timed.items():
        mean, half = rate(seconds)
        print(
            f"\n{rules_id} ({label}): {mean:.2f} ± {half:.2f} greedy games a second per core "
            f"(CPU, 95%, {len(seconds)} rounds; {said})"
        )


# A child plays one game in a process of its own: the imports and the map loaded first
# (not timed), then the game, timed in the child's own CPU seconds.
FRESH_GAME = """
import sys, time
from tactical.agents import play_game
from tactical.io import builtin_map, load_map
state = load_map(builtin_map(sys.argv[1]))
cpu = time.process_time()
play_game(state, int(sys.argv[2]), {side: "greedy" for side in state.sides})
print(time.process_time() - cpu)
"""


def fresh_game(rules_id: str, seed: int, bytecode: str | None = None) -> tuple[float, float]:
    """CPU seconds of one greedy game in a new process (the child's own clock) and the
    child's wall seconds from start to exit (imports and loading included). `bytecode`: a
    folder for the child's compiled modules (PYTHONPYCACHEPREFIX), so that a module it
    imports during the game is read compiled, as from an installed package, even where
    the environment forbids writing bytecode beside the sources (CI does)."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    if bytecode is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = bytecode
    wall = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", FRESH_GAME, rules_id, str(seed)],
        check=True, capture_output=True, text=True, env=env,
    )  # fmt: skip
    return float(done.stdout.split()[-1]), time.perf_counter() - wall


@pytest.fixture(scope="module")
def bytecode(tmp_path_factory) -> str:
    """A folder the fresh games' children keep their compiled modules in (outside the
    sources): an installed package has every module compiled, and a game that compiled
    the modules it imports on first use from source would be timed with that too."""
    return str(tmp_path_factory.mktemp("bytecode"))


@pytest.mark.parametrize("rules_id", registry.rule_ids())
def test_greedy_fresh_games_per_second(benchmark, rules_id, bytecode):
    """The way a person meets the computer on the play screen: a game never played before
    in a process that has played nothing, so no memo holds any of its tables or rolls.
    The warm benchmark above replays the same seeds, where memos keyed by value answer
    later rounds from the first; this one shows what those memos give a real game. A game
    of another seed is played first, untimed, only to leave every module it imports
    compiled (as an installed package has them)."""
    cpu: list[float] = []
    wall: list[float] = []
    seeds = iter(quick(FRESH_SEEDS, FRESH_SEEDS[:1]))
    if not quick(False, True):
        fresh_game(rules_id, FRESH_SEEDS[-1] + 1, bytecode)  # compiles; not timed

    def one_game() -> None:
        seconds, elapsed = fresh_game(rules_id, next(seeds), bytecode)
        cpu.append(seconds)
        wall.append(elapsed)

    benchmark.pedantic(one_game, rounds=quick(len(FRESH_SEEDS), 1), iterations=1)
    assert cpu and all(s > 0 for s in cpu) and all(w > s for w, s in zip(wall, cpu, strict=True))
    if benchmark.stats is None or quick(False, True):  # ran once (CI), nothing timed
        return
    FIGURES[f"fresh greedy game {rules_id}, CPU"] = statistics.median(cpu)
    mean, half = rate(cpu)
    load = os.getloadavg()[0] / (os.cpu_count() or 1)
    said = f"load {load:.1f} a core" + (", loaded" if load >= 0.5 else ", quiet")
    print(
        f"\n{rules_id} (fresh process, fresh seeds): {mean:.2f} ± {half:.2f} greedy games a "
        f"second per core (the game's CPU in the child, 95%, {len(cpu)} games; child wall "
        f"{statistics.median(wall):.2f} s median with start-up; {said})"
    )
