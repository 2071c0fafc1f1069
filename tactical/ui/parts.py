"""A screen built of parts that own their own state: its attributes that are a part's.

The window and the tests call the play screen (`screen.next_go()`, `screen.game_path`);
what they reach is one of its parts' own (the flow of play's, the files'). `forwards`
names such attributes once, part by part, on the screen's class: each is read (and set)
on its part, so the screen stays a list of its parts and not a copy of their methods.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

Kind = TypeVar("Kind", bound=type)


class Forward:
    """A class attribute standing for `obj.<part>.<name>` (read, and set, on the part)."""

    def __init__(self, part: str, name: str) -> None:
        self.part = part
        self.name = name

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        return getattr(getattr(obj, self.part), self.name)

    def __set__(self, obj: Any, value: Any) -> None:
        setattr(getattr(obj, self.part), self.name, value)


def forwards(**parts: str) -> Callable[[Kind], Kind]:
    """A class decorator: `part="a b c=d"` makes `a` and `b` the part's own `a` and `b`,
    and `c` its `d`."""

    def declare(cls: Kind) -> Kind:
        for part, names in parts.items():
            for entry in names.split():
                name, _, attribute = entry.partition("=")
                if name in cls.__dict__:
                    raise TypeError(f"{cls.__name__}.{name} is its own: it is no {part}'s")
                setattr(cls, name, Forward(part, attribute or name))
        return cls

    return declare
