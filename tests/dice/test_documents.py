"""Reading the dice records back from a save: each mistake named by its key."""

from __future__ import annotations

import pytest

from tactical.dice.documents import exact_object, parsed_items
from tactical.dice.fair import Commitment, FairLedger


def test_exact_object_gives_the_values_in_the_keys_order():
    assert exact_object({"b": 2, "a": 1}, "a", "b") == (1, 2)


@pytest.mark.parametrize(
    "value", [["a", "b", "c"], {"a": 1, "b": 2}, {"a": 1, "b": 2, "c": 3, "d": 4}]
)
def test_exact_object_refuses_anything_but_those_keys(value):
    with pytest.raises(ValueError, match=r"^an object with a, b and c$"):
        exact_object(value, "a", "b", "c")


def test_parsed_items_names_the_item_at_fault():
    def parse(item: object) -> int:
        if not isinstance(item, int):
            raise ValueError("value: a whole number")
        return item

    assert parsed_items([1, 2], "counts", parse) == [1, 2]
    with pytest.raises(ValueError, match=r"^counts\[1\]\.value: a whole number$"):
        parsed_items([1, "two"], "counts", parse)


def test_a_ledger_names_the_commitment_and_key_at_fault():
    head = "ab" * 32
    good = Commitment("A", head, 1).document()
    bad = {**good, "head": "not hex"}
    with pytest.raises(ValueError, match=r"^commitments\[1\]\.head: 64 hex digits$"):
        FairLedger.from_document({"commitments": [good, bad], "players": ["A"]})
    with pytest.raises(ValueError, match=r"^commitments\[0\]\.an object with party, head"):
        FairLedger.from_document({"commitments": [{"party": "A"}], "players": ["A"]})
