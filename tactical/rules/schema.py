"""The stats and options schema of a rule system: fields, their checks and defaults (part of
the rule-system protocol, `tactical.rules.base`)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from tactical.rules.status import label


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a value: the key (dotted path) and what was expected."""

    key: str
    expected: str
    spec_id: str | None = None


@dataclass(frozen=True)
class Field:
    """One key of a stats table or of the options table.

    `kind` is "int", "float", "str", "bool", "table" or "tables" (an array of
    tables, each checked against `fields`). `choices` limits strings; `low` and
    `high` bound numbers (inclusive).
    """

    name: str
    kind: Literal["int", "float", "str", "bool", "table", "tables"]
    required: bool = False
    default: Any = None
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] | None = None
    fields: tuple[Field, ...] = ()
    doc: str = ""
    spec_id: str | None = None
    title: str = ""  # the label a form shows; "" reads the name as words
    before: Any = None
    """For an option whose adopted reading was revised: the value that plays the reading in
    force before the revision. A save or lab game that does not record this option was
    played before it existed, so it replays with this value (`earlier_readings`); None for
    an option whose reading never changed."""
    choice_titles: tuple[str, ...] = ()
    """What a player reads for each of `choices`, in their order, where a listed value is a key
    ("A:battle-line" reads "battle line"); empty: the values read as words, units as names."""

    @property
    def label(self) -> str:
        """What a player reads for this field: its title, else its name as words."""
        return self.title or label(self.name)

    def describe(self) -> str:
        """What a valid value looks like, for error messages."""
        words = {
            "int": "a whole number",
            "float": "a number",
            "str": "a string",
            "bool": "true or false",
            "table": "a table",
            "tables": "an array of tables",
        }[self.kind]
        if self.choices:
            words = "one of " + ", ".join(repr(c) for c in self.choices)
        if self.low is not None and self.high is not None:
            words += f" from {_num(self.low)} to {_num(self.high)}"
        elif self.low is not None:
            words += f" >= {_num(self.low)}"
        elif self.high is not None:
            words += f" <= {_num(self.high)}"
        return words


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def checkable_params(fields: Sequence[Field], params: Mapping[str, Any]) -> dict[str, Any]:
    """The params a choice's schema can judge: keys it does not list are the rule system's to
    check (a declaration may take more than a panel shows), and a table without a schema of
    its own is checked as a table only."""
    known = {f.name: f for f in fields}
    checkable = {}
    for key, value in params.items():
        spec = known.get(key)
        if spec is None:
            continue
        if spec.kind == "table" and not spec.fields and isinstance(value, Mapping):
            value = {}
        checkable[key] = value
    return checkable


def check_fields(
    fields: Sequence[Field], values: Mapping[str, Any], prefix: str = ""
) -> list[Problem]:
    """Validate a table against a schema: unknown keys, missing keys, types, bounds, choices."""
    problems: list[Problem] = []
    known = {f.name: f for f in fields}
    for key in values:
        if key not in known:
            expected = "one of " + ", ".join(sorted(known)) if known else "no keys here"
            problems.append(Problem(f"{prefix}{key}", f"a known key ({expected})"))
    for spec in fields:
        path = f"{prefix}{spec.name}"
        if spec.name not in values:
            if spec.required:
                problems.append(Problem(path, f"{spec.describe()} (required)", spec.spec_id))
            continue
        value = values[spec.name]
        if not _has_kind(value, spec.kind):
            problems.append(Problem(path, spec.describe(), spec.spec_id))
            continue
        if spec.kind in ("int", "float"):
            if (
                # an int is compared exactly: a 400-digit one overflows a float (and isfinite)
                (isinstance(value, float) and not math.isfinite(value))
                or (spec.low is not None and value < spec.low)
                or (spec.high is not None and value > spec.high)
            ):
                problems.append(Problem(path, spec.describe(), spec.spec_id))
        elif spec.kind == "str" and spec.choices and value not in spec.choices:
            problems.append(Problem(path, spec.describe(), spec.spec_id))
        elif spec.kind == "str" and len(value) > (most := text_limit(spec)):
            problems.append(
                Problem(path, f"a text of at most {most} characters (this one has {len(value):,})")
            )
        elif spec.kind == "table":
            problems.extend(check_fields(spec.fields, value, f"{path}."))
        elif spec.kind == "tables":
            for index, item in enumerate(value):
                problems.extend(check_fields(spec.fields, item, f"{path}[{index}]."))
    return problems


MAX_NAME_TEXT = 80  # a name (a weapon's, a crew member's): drawn in panels and on cards
MAX_TEXT = 200  # any other text of a stats or options table (a list of rules, a faction)


def text_limit(spec: Field) -> int:
    """The most characters a text field holds: a name fewer than a list."""
    return MAX_NAME_TEXT if spec.name in ("name", "id") else MAX_TEXT


def _has_kind(value: Any, kind: str) -> bool:
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "float":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == "str":
        return isinstance(value, str)
    if kind == "table":
        return isinstance(value, Mapping)
    if kind == "tables":
        return isinstance(value, list | tuple) and all(isinstance(v, Mapping) for v in value)
    return False


def earlier_readings(fields: Sequence[Field], values: Mapping[str, Any]) -> dict[str, Any]:
    """`values` with every missing revised option set to the value that plays the reading in
    force before its revision (`Field.before`): how a game recorded before the revision,
    which could not name an option that did not exist yet, is played again as it was."""
    merged = dict(values)
    for spec in fields:
        if spec.name not in merged and spec.before is not None:
            merged[spec.name] = spec.before
    return merged


def with_defaults(fields: Sequence[Field], values: Mapping[str, Any]) -> dict[str, Any]:
    """`values` with every missing optional key set to its default (None defaults left out)."""
    merged = dict(values)
    for spec in fields:
        if spec.name not in merged and spec.default is not None:
            merged[spec.name] = spec.default
    return merged
