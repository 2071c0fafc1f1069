"""Plumbing for small records, shared by every layer: a record's fields as a document, and
an attribute that reads through another (`unit.x` is `unit.pose.x`).

Both replace hand-written code that listed each field or forwarded each attribute by a
method of its own; what they return is the same, value for value and key for key.
"""

from __future__ import annotations

from dataclasses import fields
from functools import cache
from operator import attrgetter
from typing import Any


def field_dict(record: Any, *names: str) -> dict[str, Any]:
    """The dataclass `record`'s fields by name, in their declared order (or only `names`,
    in that order), each value as it stands: no copy and no conversion, unlike
    `dataclasses.asdict`, so a tuple stays a tuple and the dict is made in one pass."""
    return {name: getattr(record, name) for name in names or _field_names(type(record))}


@cache
def _field_names(kind: type) -> tuple[str, ...]:
    # a class's fields do not change: read once, not on every record (a log's every roll)
    return tuple(item.name for item in fields(kind))


def forward(path: str, doc: str | None = None) -> property:
    """A read-only property returning the attribute at dotted `path` of the instance:
    `x = forward("pose.x")` in a class body reads as `self.pose.x`. Its getter is
    `operator.attrgetter`, so reading it costs no more than a hand-written property."""
    return property(attrgetter(path), doc=doc)
