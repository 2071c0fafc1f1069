"""The heaviest exact odds of each rule system stay exactly as they were, section by
section and outcome by outcome, as exact fractions in the order they are listed: a salvo
of nine missiles into a base's CIWS, a photon at range 1 into a ship with its shields
down (also with the 2d6 damage option), a six-railgun battery, heavy turbolasers, the
Initiative contest of six captains and a linked 20-dice broadside, against the record the
code wrote before these enumerations were made fast (tests/data/heaviest-odds.json,
`heaviest_record.py`).

Four of them are also in the record of unchanged odds (`test_odds_unchanged`), which
computes them: here the two records are checked to agree on them, and the others are
computed, so that no heavy enumeration runs twice in the suite."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from heaviest_record import HEAVIEST, report_rows

DATA = Path(__file__).resolve().parents[1] / "data"
RECORD = json.loads((DATA / "heaviest-odds.json").read_text())
# the heaviest odds the record of unchanged odds holds too (under the same names)
ALSO_RECORDED = (
    "heavy-combat photon at range 1, shields down",
    "cortex-space 6-railgun battery",
    "sw-d6-capital heavy turbolasers",
    "dystopian-wars 20-dice linked broadside",
)


def test_the_record_covers_every_rule_system():
    assert set(RECORD) == set(HEAVIEST)
    assert {name.split()[0] for name in RECORD} == {
        "battlefleet-mars",
        "heavy-combat",
        "cortex-space",
        "sw-d6-capital",
        "dystopian-wars",
    }


def test_the_two_records_agree_on_the_heaviest_attacks_both_hold():
    unchanged = json.loads((DATA / "odds-record.json").read_text())["heavy"]
    for name in ALSO_RECORDED:
        assert RECORD[name] == unchanged[name], name


@pytest.mark.parametrize("name", [name for name in HEAVIEST if name not in ALSO_RECORDED])
def test_the_heaviest_odds_are_unchanged(name):
    found = report_rows(HEAVIEST[name]())
    assert [section for section, _ in found] == [section for section, _ in RECORD[name]]
    for (section, rows), (_, expected) in zip(found, RECORD[name], strict=True):
        assert rows == expected, (name, section)
