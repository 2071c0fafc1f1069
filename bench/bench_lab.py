"""Balance lab budgets, with real greedy-vs-greedy games:

- throughput per scenario: games per second per core, each built-in scenario's game
  played in this process (CPU seconds: what one core gives, whatever else runs);
- 2 workers >= 1.8x one: the same games in the local pool with one worker, then two;
- Ray's overhead <= 10% against the local pool: the same games on a local Ray instance
  with 2 CPUs (skipped without the [cluster] extra);
- memory per worker: the largest resident set of a pool worker during a run.

The pool and Ray rates are timed from the first result to the last (the workers' start,
an interpreter and its imports, is paid once per run, not per game), each backend run
in turns with the other (medians of 2 rounds). The machine's load average is printed
with the figures: on a shared machine the wall-clock ratios say more about the
neighbours than about the lab, so the CPU seconds a game costs the workers and the
main process are printed too (the speed-up 2 workers would give on 2 free cores).

Run: .venv/bin/pytest bench/bench_lab.py --benchmark-enable -p no:cacheprovider -s
"""

from __future__ import annotations

import os
import statistics
import time

import pytest
from conftest import FIGURES, RATIOS, quick

from tactical.io.paths import builtin_map
from tactical.lab import games
from tactical.lab.plan import chunk_size, chunked
from tactical.lab.pool import LocalPool
from tactical.lab.specs import build_spec

SCENARIOS = ("heavy-combat", "sw-d6-capital", "cortex-space", "battlefleet-mars", "dystopian-wars")
GAMES_PER_SCENARIO = quick(2, 1)
POOL_MAP = "sw-d6-capital"
POOL_GAMES = quick(20, 2)
POOL_SET = quick(("turn_limit=2",), ("turn_limit=1",))
MEMORY: dict[str, float] = {}
CPU: dict[str, float] = {}
CPU_BY: dict[str, dict[str, float]] = {}
ROUNDS = quick(2, 1)
RATIOS.append(("lab: 2 workers vs 1 (games/s)", "lab pool 1 worker", "lab pool 2 workers", 1.8))
RATIOS.append(
    ("lab: Ray vs pool, 2 CPUs (<= 10% slower)", "lab pool 2 (vs Ray)", "lab ray 2", 0.909)
)


def _spec(name: str, games_count: int, set_items=()):
    return build_spec(builtin_map(name), games_count, ("greedy", "greedy"), set_items, seed=16)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_games_per_second_per_core(scenario):
    spec = _spec(scenario, GAMES_PER_SCENARIO)
    cpu, wall = time.process_time(), time.perf_counter()
    played = [games.play_task(spec, task) for task in spec.tasks()]
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    steps = sum(r.steps for r in played)
    FIGURES[f"lab game {scenario} (CPU s)"] = cpu / len(played)
    print(
        f"\n{scenario}: {len(played) / cpu:.3f} games/s/core "
        f"({cpu / len(played):.2f} CPU s a game, {steps / len(played):.0f} steps, "
        f"{wall / len(played):.2f} s wall; load {_load()})"
    )


def _timed_run(backend, spec) -> float:
    """Seconds per game between the first result and the last. For a pool, also the
    CPU seconds its workers and the main process spent per game (`CPU`)."""
    tasks = list(spec.tasks())
    chunks = chunked(tasks, chunk_size(len(tasks), 2))
    stamps = []
    worker_cpu: dict[int, float] = {}
    main_cpu = time.process_time()
    for _ in backend.run(spec, chunks):
        stamps.append(time.perf_counter())
        for pid, (rss, cpu) in _worker_figures(getattr(backend, "pids", ())).items():
            MEMORY["worker"] = max(MEMORY.get("worker", 0.0), rss)
            worker_cpu[pid] = cpu
    CPU["workers"] = sum(worker_cpu.values()) / len(tasks)
    CPU["main"] = (time.process_time() - main_cpu) / len(tasks)
    assert len(stamps) == len(tasks)
    return (stamps[-1] - stamps[0]) / (len(stamps) - 1)


def _worker_figures(pids) -> dict[int, tuple[float, float]]:
    """Per worker: resident MB and CPU seconds so far."""
    import psutil

    found = {}
    for pid in pids:
        try:
            process = psutil.Process(pid)
            times = process.cpu_times()
            found[pid] = (process.memory_info().rss / 2**20, times.user + times.system)
        except psutil.Error:
            continue
    return found


def _alternating(runs: dict[str, object], spec, rounds: int = ROUNDS) -> dict[str, float]:
    """The median seconds per game of each backend, run in turns (A, B, A, B...) so that
    a change in the machine's load weighs on both alike. Backends are made per run."""
    times: dict[str, list[float]] = {name: [] for name in runs}
    cpu: dict[str, list[dict[str, float]]] = {name: [] for name in runs}
    for _ in range(rounds):
        for name, make in runs.items():
            times[name].append(_timed_run(make(), spec))
            cpu[name].append(dict(CPU))
    for name in runs:
        CPU_BY[name] = {
            key: statistics.median(c[key] for c in cpu[name]) for key in ("workers", "main")
        }
    return {name: statistics.median(values) for name, values in times.items()}


def test_two_workers_against_one():
    spec = _spec(POOL_MAP, POOL_GAMES, POOL_SET)
    found = _alternating(
        {
            "one": lambda: LocalPool(1, games.play_task),
            "two": lambda: LocalPool(2, games.play_task),
        },
        spec,
    )
    one, two = found["one"], found["two"]
    cpu_one, cpu_two = CPU_BY["one"], CPU_BY["two"]
    FIGURES["lab pool 1 worker"] = one
    FIGURES["lab pool 2 workers"] = two
    print(
        f"\npool on {POOL_MAP}: 1 worker {1 / one:.2f} games/s, 2 workers {1 / two:.2f} "
        f"games/s: {one / two:.2f}x (budget >= 1.8x; load {_load()}); "
        f"largest worker {MEMORY.get('worker', 0):.0f} MB resident\n"
        f"  CPU s a game: workers {cpu_one['workers']:.3f} (1) and {cpu_two['workers']:.3f} "
        f"(2), main process {cpu_one['main']:.4f} (1) and {cpu_two['main']:.4f} (2): "
        f"on 2 free cores 2 workers would give "
        f"{2 * cpu_one['workers'] / (cpu_two['workers'] + 2 * cpu_two['main']):.2f}x"
    )


def test_ray_overhead_against_the_pool():
    pytest.importorskip("ray", reason="Ray is not installed (pip install -e '.[cluster]')")
    from tactical.lab.cluster import RayCluster

    spec = _spec(POOL_MAP, POOL_GAMES, POOL_SET)
    cluster = RayCluster("auto", games.play_task, num_cpus=2)
    try:
        _timed_run(cluster, _spec(POOL_MAP, quick(4, 2), POOL_SET))  # Ray's workers start
        found = _alternating(
            {"ray": lambda: cluster, "pool": lambda: LocalPool(2, games.play_task)}, spec
        )
    finally:
        cluster.close()
    on_ray, on_pool = found["ray"], found["pool"]
    FIGURES["lab ray 2"] = on_ray
    FIGURES["lab pool 2 (vs Ray)"] = on_pool
    print(
        f"\nRay (2 CPUs) {1 / on_ray:.2f} games/s against the pool {1 / on_pool:.2f} games/s: "
        f"{100 * (on_ray / on_pool - 1):+.0f}% (budget <= +10%; load {_load()})"
    )


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.1f} (1 min), {five:.1f} (5 min) on {os.cpu_count()} cores"
