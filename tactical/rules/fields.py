"""Compact builders of the `Field` records a rule system declares for its unit stats and map
options (`tactical.rules.schema`): the builder names the kind, the call says only what
differs (name, default, bounds or choices, the SPEC id, the words a player reads).

    whole("lp_limit", 4, 0, 99, "R000.16")
    choice("geometry", ("table", "categorical"), "GEO001.7", "range and facings ...")

Each returns the very `Field` the long form builds, so what a map may hold, its defaults and
its messages stay the same.
"""

from __future__ import annotations

from typing import Any, Literal

from tactical.rules.schema import Field

_FIRST: Any = object()  # `choice`'s default: the first choice, the reading the SPEC adopts


def number(
    name: str,
    default: float | None,
    low: float,
    high: float,
    spec_id: str | None = None,
    doc: str = "",
    *,
    kind: Literal["int", "float"] = "float",
    **more: Any,
) -> Field:
    """A number (inches, a ratio) from `low` to `high` (None: no default, the reader supplies
    one); `more`: any other keyword of `Field`."""
    return Field(name, kind, default=default, low=low, high=high, doc=doc, spec_id=spec_id, **more)


def whole(*args: Any, **more: Any) -> Field:
    """A whole number: `number`'s arguments."""
    return number(*args, kind="int", **more)


def flag(
    name: str, default: bool | None, spec_id: str | None = None, doc: str = "", **more: Any
) -> Field:
    """True or false; `more` as for `whole`."""
    return Field(name, "bool", default=default, doc=doc, spec_id=spec_id, **more)


def choice(
    name: str,
    choices: tuple[str, ...],
    spec_id: str | None = None,
    doc: str = "",
    *,
    default: str | None = _FIRST,
    **more: Any,
) -> Field:
    """One of `choices`, the first by default (None: no default); `more` as for `whole`."""
    first = choices[0] if default is _FIRST else default
    return Field(name, "str", default=first, choices=choices, doc=doc, spec_id=spec_id, **more)


def text(
    name: str, default: str | None = "", spec_id: str | None = None, doc: str = "", **more: Any
) -> Field:
    """Free text (a name, a comma-separated list), "" by default; `more` as for `whole`."""
    return Field(name, "str", default=default, doc=doc, spec_id=spec_id, **more)
