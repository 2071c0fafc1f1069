"""Reading back the plain documents a save holds of the dice records (`fair`, `sealed`).

Each reader raises a ValueError whose text names the key at fault ("head: 64 hex
digits"); a list's reader prefixes the item's place ("commitments[2].head: …"), so the
save's loader can say exactly what is wrong where.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def exact_object(value: object, *keys: str) -> tuple[Any, ...]:
    """The values of `keys`, in order, of `value`: an object with those keys and no other."""
    if not isinstance(value, dict) or set(value) != set(keys):
        raise ValueError(f"an object with {', '.join(keys[:-1])} and {keys[-1]}")
    return tuple(value[key] for key in keys)


def parsed_items(listed: list, key: str, parse: Callable[[object], T]) -> list[T]:
    """`parse` of each item of the list `listed` (at `key`), its error naming the item."""
    found = []
    for index, item in enumerate(listed):
        try:
            found.append(parse(item))
        except ValueError as error:
            raise ValueError(f"{key}[{index}].{error}") from None
    return found
