"""The declaration form's pure side: typed text and picked values to a checked `Action`.

Nothing here draws: a field's text parsed to its value (`parse_value`), the
values of a form turned into the `Action` of an `ActionChoice` and checked
against the same schema the session checks (`check_fields`, `with_defaults`),
a value shown back as text (`format_value`), and which fields name units or a
path drawn on the table.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tactical.errors import UserError
from tactical.model import FrozenMap
from tactical.rules.base import (
    Action,
    ActionChoice,
    Field,
    Problem,
    check_fields,
    checkable_params,
    with_defaults,
)

PATH_FIELD = "path"  # the session's (and some rule systems') move declaration: drawn, not typed
TRUE_WORDS = ("yes", "true", "y", "on", "1")
FALSE_WORDS = ("no", "false", "n", "off", "0")
CODE_WORD = re.compile(r"[a-z0-9]+(?:[_-][a-z0-9]+)+")  # a key, not words


def parse_value(field: Field, text: str) -> Any:
    """The value typed as `text` for `field`, or None when left empty and not required.

    UserError naming the field, what it expects (`Field.describe`) and its SPEC id
    when the text is not such a value (wrong kind, out of bounds, not a listed choice).
    """
    stripped = text.strip()
    if not stripped:
        if field.required:
            raise _bad(field, text, "required")
        return None
    value = _parse_kind(field, stripped)
    if check_fields((field,), checkable_params((field,), {field.name: value})):
        raise _bad(field, text)
    return value


def _parse_kind(field: Field, text: str) -> Any:
    kind = field.kind
    if kind == "str":
        return text
    if kind == "bool":
        word = text.lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
        raise _bad(field, text)
    if kind == "int":
        try:
            return int(text)
        except ValueError:
            raise _bad(field, text) from None
    if kind == "float":
        try:
            number = float(text)
        except ValueError:
            raise _bad(field, text) from None
        if not math.isfinite(number):
            raise _bad(field, text)
        return number
    try:
        return tomllib.loads("v = " + text)["v"]
    except tomllib.TOMLDecodeError:
        raise _bad(field, text, "inline TOML") from None


def _bad(field: Field, text: str, note: str = "") -> UserError:
    extra = f", {note}" if note else ""
    return UserError(
        f"{field.name}: expected {field.describe()}{extra}; got {text.strip()!r}",
        spec_id=field.spec_id,
    )


def value_problems(choice: ActionChoice, values: Mapping[str, Any]) -> tuple[Problem, ...]:
    """What keeps `values` (defaults filled) from being a declaration of `choice`."""
    params = with_defaults(choice.fields, _given(values))
    return tuple(check_fields(choice.fields, checkable_params(choice.fields, params)))


def action_from_values(choice: ActionChoice, values: Mapping[str, Any]) -> Action:
    """The `Action` declaring `choice` with `values` (None meaning not given; defaults filled).

    UserError listing every problem (key, what was expected, SPEC id) when the values
    do not fit the choice's fields.
    """
    problems = value_problems(choice, values)
    if problems:
        raise UserError(
            f"{choice.title}: " + "; ".join(problem_text(p) for p in problems),
            spec_id=problems[0].spec_id,
        )
    params = with_defaults(choice.fields, _given(values))
    return Action(choice.kind, choice.actor, FrozenMap(params))


def key_words(key: str) -> str:
    """A field's key (a dotted path of names) as words: "deimos-base.other_lp" reads
    "deimos-base other lp"."""
    return " ".join(part.replace("_", " ") for part in key.split("."))


def choice_words(value: str) -> str:
    """A listed value as a drop-down shows it: a key ("front-turbolasers", "take_default")
    as words, anything else as it is."""
    if CODE_WORD.fullmatch(value):
        return " ".join(value.replace("_", " ").replace("-", " ").split())
    return value


def problem_text(problem: Problem) -> str:
    cited = f" ({problem.spec_id})" if problem.spec_id else ""
    return f"{key_words(problem.key)}: expected {problem.expected}{cited}"


def _given(values: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in values.items() if value is not None}


def unit_fields(choice: ActionChoice, unit_ids: Sequence[str]) -> tuple[str, ...]:
    """Names of the str fields of `choice` whose listed values are unit ids (a target...).

    An empty string among them reads "none" and does not count against it.
    """
    units = set(unit_ids)
    names = []
    for spec in choice.fields:
        listed = [c for c in spec.choices or () if c != ""]
        if spec.kind == "str" and listed and all(c in units for c in listed):
            names.append(spec.name)
    return tuple(names)


def is_move_choice(choice: ActionChoice) -> bool:
    """Whether the choice declares a path drawn on the table (a str field "path", not listed)."""
    return any(
        spec.name == PATH_FIELD and spec.kind == "str" and not spec.choices
        for spec in choice.fields
    )


def choice_label(choice: ActionChoice) -> str:
    """A choice's row in the list: its title and the rule allowing it."""
    return f"{choice.title} ({choice.spec_id})" if choice.spec_id else choice.title


def format_value(value: Any) -> str:
    """A value as its field's text entry shows it (tables as inline TOML)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return str(value)
    return _inline_toml(value)


def _inline_toml(value: Any) -> str:
    if isinstance(value, Mapping):
        inner = ", ".join(f"{_toml_key(k)} = {_inline_toml(v)}" for k, v in value.items())
        return "{ " + inner + " }" if inner else "{}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_inline_toml(v) for v in value) + "]"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return format_value(value)


def _toml_key(key: Any) -> str:
    text = str(key)
    return text if text.replace("-", "").replace("_", "").isalnum() else _inline_toml(text)


def is_fixed(spec: Field) -> bool:
    """Whether a field can hold one value only, its default: the choice's title already says
    it (the weapon of "Markgraf: Main turrets"), and a row of it (an attack's number) would
    be a click that decides nothing."""
    if spec.default is None:
        return False
    if spec.choices is not None:
        return tuple(spec.choices) == (spec.default,)
    return spec.low is not None and spec.low == spec.high == spec.default


def form_fields(choice: ActionChoice) -> tuple[Field, ...]:
    """The fields the form shows: all but the optional tables (their defaults apply) and the
    fields fixed to their one value (`is_fixed`)."""
    return tuple(
        spec
        for spec in choice.fields
        if (spec.kind not in ("table", "tables") or spec.required) and not is_fixed(spec)
    )


MOST_LISTED = 8  # a tooltip lists this many of a field's values, then says how many more


def choice_text(spec: Field, value: str, naming: Callable[[str], str] = lambda value: "") -> str:
    """A listed value as a player reads it: the title the rule system gives it, a unit's
    name, a key as words, an empty string as "(none)"."""
    titles = spec.choice_titles
    if titles and spec.choices and value in spec.choices:
        index = list(spec.choices).index(value)
        if index < len(titles) and titles[index]:
            return titles[index]
    return naming(value) or (choice_words(value) if value != "" else NO_VALUE)


def expects_text(spec: Field, naming: Callable[[str], str] = lambda value: "") -> str:
    """What a valid value looks like, as a player reads it (`Field.describe`, with its listed
    values by their names)."""
    if not spec.choices:
        return spec.describe()
    listed = [choice_text(spec, value, naming) for value in spec.choices]
    more = len(listed) - MOST_LISTED
    shown = ", ".join(listed[:MOST_LISTED]) + (f" and {more} more" if more > 0 else "")
    return f"one of {shown}"


def field_tooltip(spec: Field, naming: Callable[[str], str] = lambda value: "") -> str:
    parts = [spec.doc] if spec.doc else []
    parts.append(f"expects {expects_text(spec, naming)}" + ("" if spec.required else " (optional)"))
    if spec.spec_id:
        parts.append(spec.spec_id)
    return f"{spec.label}: " + " · ".join(parts)


UNSET = "—"  # the drop-down entry of a field with no value yet
NO_VALUE = "(none)"  # how a listed empty string reads


def menu_options(spec: Field, naming: Callable[[str], str] = lambda value: "") -> dict[str, Any]:
    """Drop-down labels -> values: the listed values as they read (a unit by its name, a key
    as words), led by an unset entry when there is no default to show."""
    options: dict[str, Any] = {}
    if spec.default is None:
        options[UNSET] = None
    values = list(spec.choices or ())
    labels = [choice_text(spec, v, naming) for v in values]
    for value, label in zip(values, labels, strict=True):
        if labels.count(label) > 1 and label != value:
            label = f"{label} ({choice_words(value)})"  # two units of one name: their ids
        while label in options:
            label += " "
        options[label] = value
    return options


def unique_labels(choices: Sequence[ActionChoice]) -> tuple[str, ...]:
    """The list's rows: pygame_gui reports a picked row by its text, so equal titles (two
    models of one class) are told apart by their actor, in words, then by a number."""
    labels: list[str] = []
    for choice in choices:
        label = choice_label(choice)
        if label in labels:
            label = f"{label} ({choice_words(choice.actor)})"
        number = 2
        base = label
        while label in labels:
            label = f"{base} #{number}"
            number += 1
        labels.append(label)
    return tuple(labels)


def unique_titles(titles: Sequence[str]) -> tuple[str, ...]:
    """Titles told apart by a number where two are equal (the list reports rows by text)."""
    found: list[str] = []
    for title in titles:
        label, number = title, 2
        while label in found:
            label = f"{title} #{number}"
            number += 1
        found.append(label)
    return tuple(found)
