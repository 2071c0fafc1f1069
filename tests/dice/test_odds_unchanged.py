"""Exact odds stay exactly as they were: every outcome's probability, in the order the
outcomes are listed, for plain dice pools, the heaviest attacks of the rule systems (a
photon at range 1 into a ship with its shields down, a six-railgun battery, a linked
20-dice broadside, heavy turbolasers) and the ordinary attacks and rolls offered in a
greedy game of each built-in scenario, against the record written by the code before
sums of dice were convolved (tests/data/odds-record.json, `odds_record.py`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from odds_record import HEAVY, POOLS, heavy_reports, ordinary_reports, pool_rows

from tactical.rules import registry

RECORD = json.loads((Path(__file__).resolve().parents[1] / "data" / "odds-record.json").read_text())


def test_the_record_covers_every_pool_heavy_attack_and_rule_system():
    assert set(RECORD["pools"]) == set(POOLS)
    assert set(RECORD["heavy"]) == set(HEAVY)
    assert set(RECORD["ordinary"]) == set(registry.rule_ids())
    assert all(len(rows) >= 10 for rows in RECORD["ordinary"].values())


def test_plain_pools_are_unchanged():
    found = pool_rows()
    for text in POOLS:
        assert found[text] == RECORD["pools"][text], text


def test_the_heaviest_attacks_are_unchanged():
    found = heavy_reports()
    for name in HEAVY:
        assert found[name] == RECORD["heavy"][name], name


@pytest.mark.parametrize("rules_id", registry.rule_ids())
def test_ordinary_attacks_and_rolls_are_unchanged(rules_id):
    found = ordinary_reports(rules_id)
    expected = RECORD["ordinary"][rules_id]
    for mine, theirs in zip(found, expected, strict=False):
        assert mine == theirs, (theirs["step"], theirs["action"])
    assert len(found) == len(expected)
