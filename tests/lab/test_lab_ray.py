"""The lab on Ray: a local Ray instance (2 CPUs) gives the same games as the local pool."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import lab_scripted_games
import pytest
from lab_scripted_games import KILL_MARKER_ENV, killing_game, scripted_game

from tactical.errors import UserError
from tactical.lab.pool import LocalPool
from tactical.lab.runner import run_games
from tactical.lab.store import Store

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install -e '.[cluster]')")

pytestmark = pytest.mark.slow


def _rows(path):
    with sqlite3.connect(path) as connection:
        return sorted(
            connection.execute(
                "SELECT variant, number, seed, seat, winner, turns, score_a, damage_b FROM games"
            ).fetchall()
        )


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    from ray import cloudpickle

    from tactical.lab.cluster import RayCluster

    # the tests' game function travels by value (Ray's workers do not see tests/ on their path)
    cloudpickle.register_pickle_by_value(lab_scripted_games)
    # Ray's workers inherit the environment of the instance started here
    marker = tmp_path_factory.mktemp("ray") / "killed"
    os.environ[KILL_MARKER_ENV] = str(marker)
    started = RayCluster("auto", scripted_game, num_cpus=2)
    yield started
    started.close()
    os.environ.pop(KILL_MARKER_ENV, None)


def test_ray_and_the_local_pool_give_the_same_games(cluster, tmp_path, make_spec):
    spec = make_spec(games=30)
    on_ray, on_pool = tmp_path / "ray.sqlite", tmp_path / "pool.sqlite"
    with Store.open(on_ray) as store:
        outcome = run_games(spec, store, cluster, cluster.cpus, False)
    with Store.open(on_pool) as store:
        run_games(spec, store, LocalPool(2, scripted_game, "fork"), 2, False)
    assert cluster.cpus == 2
    assert outcome.played == 60
    assert _rows(on_ray) == _rows(on_pool)
    assert len(_rows(on_ray)) == 60


def test_an_unreachable_ray_address_is_a_user_error():
    from tactical.lab.cluster import RayCluster

    with pytest.raises(UserError, match="cannot reach a Ray cluster"):
        RayCluster("127.0.0.1:1", scripted_game)


def test_real_ai_games_are_the_same_on_ray_and_in_the_pool(cluster, tmp_path, monkeypatch):
    """Greedy-vs-greedy games of the duel map with random terrain: the same seeds give the
    same games (steps, turns, damage by turn) on Ray as in the local pool (spawned)."""
    from tactical.io import builtin_map
    from tactical.lab import games
    from tactical.lab.specs import build_spec

    spec = build_spec(
        builtin_map("heavy-combat"),
        3,
        ("greedy", "random"),
        set_items=["turn_limit=3"],
        terrain="random",
        seed=5,
    )
    monkeypatch.setattr(cluster, "play", games.play_task)
    on_ray, on_pool = tmp_path / "ray.sqlite", tmp_path / "pool.sqlite"
    with Store.open(on_ray) as store:
        run_games(spec, store, cluster, cluster.cpus, False)
    with Store.open(on_pool) as store:
        run_games(spec, store, LocalPool(2, games.play_task), 2, False)
    columns = "variant, number, seed, seat, winner, turns, steps, ai_a, ai_b, damage_by_turn"
    with sqlite3.connect(on_ray) as a, sqlite3.connect(on_pool) as b:
        ray_rows = sorted(a.execute(f"SELECT {columns} FROM games").fetchall())
        pool_rows = sorted(b.execute(f"SELECT {columns} FROM games").fetchall())
    assert len(ray_rows) == 3
    assert ray_rows == pool_rows
    assert {(r[3], r[7], r[8]) for r in ray_rows} == {
        (0, "greedy", "random"),
        (1, "random", "greedy"),
    }


def test_a_ray_worker_killed_mid_task_costs_no_game(cluster, tmp_path, make_spec, monkeypatch):
    """A game ends its Ray worker process: Ray runs the task again, every game is stored
    once."""
    monkeypatch.setattr(cluster, "play", killing_game)
    spec = make_spec(games=12)
    db = tmp_path / "results.sqlite"
    with Store.open(db) as store:
        outcome = run_games(spec, store, cluster, cluster.cpus, False)
    assert Path(os.environ[KILL_MARKER_ENV]).exists(), "no worker was killed"
    assert outcome.played == 24
    with Store.open(tmp_path / "pool.sqlite") as store:
        run_games(spec, store, LocalPool(2, scripted_game, "fork"), 2, False)
    assert _rows(db) == _rows(tmp_path / "pool.sqlite")


def test_lab_run_with_ray_auto_attaches_to_the_cluster_on_this_machine(cluster, tmp_path):
    """`tactical lab run --ray auto` in another process finds the running instance (2 CPUs)
    and stores its games like the pool does."""
    import subprocess
    import sys

    from tactical.io import builtin_map

    db = tmp_path / "results.sqlite"
    command = [
        sys.executable, "-m", "tactical", "lab", "run", str(builtin_map("heavy-combat")),
        "--games", "4", "--set", "turn_limit=2", "--ray", "auto", "--db", str(db), "--quiet",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    assert "4 of 4 games done (4 played now on Ray (2 CPUs)" in done.stdout
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 4
