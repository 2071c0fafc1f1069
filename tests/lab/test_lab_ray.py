"""The lab on Ray: a local Ray instance (2 CPUs) gives the same games as the local pool."""

from __future__ import annotations

import sqlite3

import lab_scripted_games
import pytest
from lab_scripted_games import scripted_game

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
def cluster():
    from ray import cloudpickle

    from tactical.lab.cluster import RayCluster

    # the tests' game function travels by value (Ray's workers do not see tests/ on their path)
    cloudpickle.register_pickle_by_value(lab_scripted_games)
    started = RayCluster("auto", scripted_game, num_cpus=2)
    yield started
    started.close()


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
