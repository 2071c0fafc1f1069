"""The record of a stretch of hidden moves refereed by their owner (`dice.sealed`): the
commitments and answers as a save keeps them, read back exactly, and refused in words
when malformed."""

from __future__ import annotations

import pytest

from tactical.dice.fair import Commitment, FairLedger
from tactical.dice.sealed import SealedStep, SealedStretch, answer, fresh_salt, seal

HEX = "ab" * 32


def test_a_commitment_fixes_the_move_and_depends_on_the_salt():
    salt = fresh_salt()
    assert seal("close", salt) == seal("close", salt)
    assert seal("close", salt) != seal("retreat", salt)
    assert seal("close", salt) != seal("close", fresh_salt())
    assert len(seal("close", salt)) == 64 and answer("a", "b") != answer("ab", "")


def test_a_ledger_with_a_stretch_reads_back_and_a_grown_stretch_replaces_itself():
    ledger = FairLedger((Commitment("server", HEX, 1),), ("Klingon",))
    first = SealedStretch("Klingon", "Federation", (SealedStep(13, HEX, HEX),))
    grown = first.with_step(SealedStep(14, HEX)).with_salts({13: HEX})
    ledger = ledger.with_sealed(first).with_sealed(grown)
    assert ledger.sealed == (grown,)
    assert grown.steps[0].salt == HEX and grown.steps[1].salt == ""
    assert FairLedger.from_document(ledger.document()) == ledger


@pytest.mark.parametrize(
    ("stretch", "expected"),
    [
        ({"referee": "K", "seen_by": "F"}, "an object with referee, seen_by and steps"),
        ({"referee": "", "seen_by": "F", "steps": []}, "referee: a side's name"),
        ({"referee": "K", "seen_by": "F", "steps": [{"step": 0, "answer": HEX}]}, "step number"),
        ({"referee": "K", "seen_by": "F", "steps": [{"step": 3, "answer": "x"}]}, "64 hex"),
        (
            {"referee": "K", "seen_by": "F", "steps": [{"step": 3, "answer": HEX, "salt": HEX}]},
            "salt: only with a commitment",
        ),
        (
            {
                "referee": "K",
                "seen_by": "F",
                "steps": [{"step": 3, "answer": HEX}, {"step": 5, "answer": HEX}],
            },
            "one after another",
        ),
    ],
)
def test_a_bad_stretch_says_what_it_should_be(stretch, expected):
    document = {
        "commitments": [{"party": "server", "head": HEX, "from_step": 1}],
        "players": ["K"],
        "sealed": [stretch],
    }
    with pytest.raises(ValueError, match=expected):
        FairLedger.from_document(document)
