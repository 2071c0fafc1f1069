"""The computer players choose as they did: every decision of fixed greedy-vs-greedy games
(two seeds a rule system, whole games of the built-in scenario) and of a search player's
first turn, with its score and its reason, and the table they end on, against the record
written by the code before the players were made faster (tests/data/agent-decisions.json,
`decision_record.py`). Caching an effect, checking a declaration once and not freezing
an unchanged state again must change none of it. (Battlefleet Mars' games were recorded
again when its missile salvos at ships came to be weighed by their damage: folded into one
record per survivor count, they had been weighed as if every missile rolled 0.)
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from decision_record import games, record_game

RECORD = Path(__file__).resolve().parents[1] / "data" / "agent-decisions.json"
RECORDED = {(r["rules"], r["seed"], r["search"]): r for r in json.loads(RECORD.read_text())}


def test_the_record_covers_every_game():
    assert set(RECORDED) == set(games())
    assert all(len(r["decisions"]) >= 10 for r in RECORDED.values())


@pytest.mark.parametrize(("rules_id", "seed", "search"), games())
def test_every_decision_is_the_recorded_one(rules_id, seed, search):
    expected = RECORDED[(rules_id, seed, search)]
    found = record_game(rules_id, seed, search)
    for number, (mine, theirs) in enumerate(
        zip(found["decisions"], expected["decisions"], strict=False)
    ):
        assert mine == theirs, f"decision {number} differs"
    assert len(found["decisions"]) == len(expected["decisions"])
    assert found == expected
