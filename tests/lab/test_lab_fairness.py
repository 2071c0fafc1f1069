"""`tactical lab fairness`: does the table's score predict the games? (R002.9)"""

from __future__ import annotations

import json
import math
import sqlite3

import numpy as np
import pytest

from tactical.cli import main
from tactical.io.maps import loads_map
from tactical.io.paths import builtin_map
from tactical.lab.fairness import layout_score, layouts, ranks, spearman, verdict
from tactical.threat.fairness import nearest_edge, score_layout


def test_ranks_share_ties():
    assert ranks([3.0, 1.0, 2.0, 2.0]).tolist() == [4.0, 1.0, 2.5, 2.5]


def test_spearman_and_its_interval():
    x = [1, 2, 3, 4, 5, 6, 7, 8]
    assert spearman(x, [v * v for v in x])["rho"] == pytest.approx(0.999999)
    found = spearman(x, [2, 1, 4, 3, 6, 5, 8, 7])
    rho = 1 - 6 * 8 / (8 * 63)  # eight swaps of neighbours: sum of d^2 = 8
    assert found["rho"] == pytest.approx(rho)
    low, high = found["interval"]
    spread = math.sqrt((1 + rho * rho / 2) / 5)
    assert low == pytest.approx(math.tanh(math.atanh(rho) - 1.959963984540054 * spread))
    assert low < rho < high < 1
    assert spearman(x, [1] * 8)["rho"] is None  # a constant: no correlation
    assert spearman(x[:3], x[:3])["rho"] is None  # too few


def test_layouts_put_the_first_fleet_on_both_sides_and_reproduce():
    found = layouts(str(builtin_map("dystopian-wars")), 3, 4, ("greedy", "greedy"), 7)
    again = layouts(str(builtin_map("dystopian-wars")), 3, 4, ("greedy", "greedy"), 7)
    assert [f.spec.key for f in found] == [f.spec.key for f in again]
    assert len({f.terrain_seed for f in found}) == 3
    state = loads_map(found[0].spec.map_text)
    a = sorted(u.name for u in state.units if u.side == "A")
    b = sorted(u.name.removesuffix(" (mirror)") for u in state.units if u.side == "B")
    assert a == b and state.terrain  # the same fleet, and a random table
    assert nearest_edge(state, "A") == "bottom" and nearest_edge(state, "B") == "top"
    assert layout_score(found[0].spec) == score_layout(state, "bottom")


def test_fairness_run_stores_each_layout_as_a_run_and_reports(tmp_path, capsys):
    db, page = tmp_path / "fair.sqlite", tmp_path / "fair.html"
    argv = ["lab", "fairness", "sw-d6-capital", "--layouts", "4", "--games", "2"]
    argv += ["--workers", "1", "--db", str(db), "--html", str(page), "--quiet", "--json"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["rules"] == "sw-d6-capital" and report["games"] == 8
    assert [r["layout"] for r in report["layouts"]] == [1, 2, 3, 4]
    with sqlite3.connect(db) as connection:
        runs = connection.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
        rows = connection.execute("SELECT run_id, winner FROM games").fetchall()
    assert runs == 4 and len(rows) == 8
    for row in report["layouts"]:
        winners = [w for run, w in rows if run == row["run"]]
        wins = sum(0.5 if w is None else float(w == "Rebels") for w in winners)
        assert row["first_score"] == pytest.approx(wins / len(winners))
    assert set(report["correlations"]) >= {"edge", "unfairness", "cover", "lanes"}
    assert report["written"] == [str(tmp_path / "fair-scatter.png"), str(page)]
    assert "fair-scatter.png" in page.read_text()
    # the same command again plays nothing more: every game is stored (the page it
    # wrote is replaced only with --force)
    assert main(argv) == 2 and "--force" in capsys.readouterr().err
    assert main([*argv, "--force"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 8
    # --report-only reads the file and plays nothing (6 layouts asked, 4 stored)
    only = ["lab", "fairness", "sw-d6-capital", "--layouts", "6", "--games", "2"]
    assert main([*only, "--db", str(db), "--report-only", "--json"]) == 0
    alone = json.loads(capsys.readouterr().out)
    assert alone["layouts"] == report["layouts"] and alone["written"] == []


def test_bad_input_is_one_line(capsys, tmp_path):
    db = str(tmp_path / "x.sqlite")
    assert main(["lab", "fairness", "default", "--layouts", "0", "--db", db]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--layouts 0" in err[0]
    assert not (tmp_path / "x.sqlite").exists()


def test_ranks_of_an_array_are_a_permutation():
    values = np.random.default_rng(1).normal(size=50)
    assert sorted(ranks(values).tolist()) == list(range(1, 51))


def test_the_verdict_names_what_predicts():
    def found(low):
        return {"rho": low + 0.1, "interval": [low, low + 0.2], "n": 10}

    none = {"rho": None, "interval": None, "n": 10}
    names = ("edge", "unfairness", "cover", "visibility", "lanes", "symmetry")
    quiet = {name: found(-0.1) for name in names}
    assert verdict(quiet).startswith("nothing in the score predicts")
    assert verdict({**quiet, "edge": found(0.2)}).startswith("the score predicts the games")
    said = verdict({**quiet, "cover": found(0.1), "visibility": none})
    assert said.startswith("the fairness figure does not predict") and "cover from" in said
