"""The decision bench of search's overturn rule (`hints.overturn_errors`):
`bench/bench_search_decisions.py replay`, on decisions whose worth is known."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from bench_search_decisions import choice, mean_gain, replay


def decision(rows: list[list[float]], scores: list[float] | None = None) -> dict:
    return {"rows": rows, "scores": scores or [0.5] * len(rows[0])}


def test_a_sure_gain_is_taken_at_any_spread_asked_and_counted_at_its_worth():
    rows = [[0.1 * r, 0.1 * r + 0.02] for r in range(40)]  # always 0.02 ahead
    for errors in (0.0, 1.0, 3.0):
        verdict = replay([decision(rows)], playouts=6, errors=errors, draws=20)
        assert verdict.decisions == 1
        assert verdict.overturned == 1.0 and verdict.wrongly == 0.0
        assert verdict.gain == pytest.approx(0.02)


def test_a_gain_of_nothing_is_taken_only_by_the_mean_and_then_wrongly():
    """Contender 1 is worth what the greedy choice is, give or take 0.1 a round: on three
    rounds its mean gain is positive about half the time; above one standard error far
    less often. Each overturn is wrong (the held-out rounds: no gain)."""
    noise = [0.1, -0.1] * 20
    rows = [[0.0, d] for d in noise]
    loose = replay([decision(rows)], playouts=6, errors=0.0, draws=400)
    strict = replay([decision(rows)], playouts=6, errors=1.0, draws=400)
    assert 0.3 < loose.overturned < 0.7
    assert strict.overturned < loose.overturned / 2
    assert loose.wrongly == loose.overturned and strict.wrongly == strict.overturned
    assert loose.gain < 0 and strict.gain <= 0  # what is left over is below even


def test_search_chooses_the_best_mean_gain_in_the_draw_and_keeps_greedys_otherwise():
    sample = [[0.0, 0.01, 0.03], [0.0, 0.02, 0.01], [0.0, 0.0, 0.02]]
    assert choice(sample, 3, [0.5, 0.4, 0.4], errors=0.0) == 2
    assert choice(sample, 3, [0.5, 0.4, 0.4], errors=10.0) == 0
    assert choice([[0.0, 0.004], [0.0, 0.004]], 2, [0.5, 0.4], errors=0.0) == 0  # margin
    assert choice([[0.0, 0.004], [0.0, 0.004]], 2, [0.5, 0.5], errors=0.0) == 1  # a tie's
    assert mean_gain([[0.1, 0.3], [0.2, 0.2], [0.0, None]], 1) == pytest.approx(0.1)
