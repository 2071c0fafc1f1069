"""The record plumbing every layer shares: a dataclass's fields as a document, and an
attribute read through another."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tactical.records import field_dict, forward


@dataclass(frozen=True)
class _Shot:
    range: float
    dice: tuple[int, ...]
    who: str = "A"


class _Holder:
    def __init__(self, shot: _Shot) -> None:
        self.shot = shot

    dice = forward("shot.dice")
    range = forward("shot.range", "How far, in inches.")


def test_field_dict_lists_every_field_in_declared_order_values_as_they_stand():
    dice = (3, 5)
    shot = _Shot(12.5, dice)
    found = field_dict(shot)
    assert list(found) == ["range", "dice", "who"]
    assert found == {"range": 12.5, "dice": (3, 5), "who": "A"}
    assert found["dice"] is dice  # no copy: a tuple stays the very tuple


def test_field_dict_with_names_gives_those_only_in_that_order():
    assert list(field_dict(_Shot(1.0, ()), "who", "range")) == ["who", "range"]


def test_forward_reads_through_and_cannot_be_set():
    holder = _Holder(_Shot(8.0, (6,)))
    assert (holder.range, holder.dice) == (8.0, (6,))
    holder.shot = _Shot(2.0, ())
    assert holder.range == 2.0  # read each time, never kept
    with pytest.raises(AttributeError):
        holder.range = 3.0
    assert _Holder.range.__doc__ == "How far, in inches."
