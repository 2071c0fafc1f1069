"""The variants a lab run compares: the map's options changed by `--set` and `--against`.

`--set KEY=VALUE` changes the options of every variant; `--against KEY=VALUE` makes a
second variant that differs from the first by those values. Every key and value is
checked against the rule system's options schema (`RuleSystem.option_fields`), read
by the field's kind (a whole number, a number, true/false or a string), so an unknown
key or a value out of its range is a UserError before anything is played or written.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tactical.errors import UserError
from tactical.model.frozen import thaw
from tactical.rules.base import Field, RuleSystem

TRUE_WORDS = ("true", "yes", "on", "1")
FALSE_WORDS = ("false", "no", "off", "0")
AS_THE_MAP = "as the map"


@dataclass(frozen=True)
class Variant:
    """One set of options to play: a short label (what differs) and the options given to
    the map (the map's own `[options]` with the changes)."""

    label: str
    options: Mapping[str, Any]

    @property
    def options_json(self) -> str:
        """The options as canonical JSON: what the results store compares variants by (a
        table option, such as Cortex's structures, as plain JSON tables and arrays)."""
        return json.dumps(thaw(dict(self.options)), sort_keys=True, separators=(",", ":"))


def parse_assignment(text: str, system: RuleSystem, flag: str) -> tuple[str, Any]:
    """`KEY=VALUE` read against `system`'s options schema (UserError naming the flag)."""
    key, equals, raw = text.partition("=")
    key, raw = key.strip(), raw.strip()
    if not equals or not key:
        raise UserError(f"{flag} {text!r}: expected KEY=VALUE")
    fields = {f.name: f for f in system.option_fields}
    if key not in fields:
        known = ", ".join(sorted(fields)) or "none"
        raise UserError(
            f"{flag} {text!r}: {system.id} has no option {key!r} (its options: {known})"
        )
    spec = fields[key]
    value = _read_value(raw, spec, flag, text)
    problems = system.check_options({key: value})
    if problems:
        problem = problems[0]
        raise UserError(
            f"{flag} {text!r}: option {key} expects {problem.expected}", spec_id=problem.spec_id
        )
    return key, value


def _read_value(raw: str, spec: Field, flag: str, text: str) -> Any:
    if spec.kind == "bool":
        if raw.lower() in TRUE_WORDS:
            return True
        if raw.lower() in FALSE_WORDS:
            return False
    elif spec.kind == "int":
        try:
            return int(raw)
        except ValueError:
            pass
    elif spec.kind == "float":
        try:
            return float(raw)
        except ValueError:
            pass
    elif spec.kind == "str":
        return raw
    else:
        raise UserError(
            f"{flag} {text!r}: option {spec.name} is a table; set it in the map file instead"
        )
    raise UserError(
        f"{flag} {text!r}: option {spec.name} expects {spec.describe()}", spec_id=spec.spec_id
    )


def build_variants(
    system: RuleSystem,
    map_options: Mapping[str, Any],
    set_items: Sequence[str] = (),
    against_items: Sequence[str] = (),
) -> tuple[Variant, ...]:
    """The variants of a run: the map with `--set`, and with `--against` a second one."""
    changes = dict(parse_assignment(item, system, "--set") for item in set_items)
    base = {**dict(map_options), **changes}
    _check_whole(system, base, "--set")
    # a variant records every option in force, defaults included, so that its games
    # replay by the readings they were played under after a later default changes
    if not against_items:
        return (Variant(_label(changes), system.options(base)),)
    against = dict(parse_assignment(item, system, "--against") for item in against_items)
    other = {**base, **against}
    _check_whole(system, other, "--against")
    in_force = system.options(base)
    if system.options(other) == in_force:
        raise UserError(
            "--against " + " ".join(against_items) + ": the same options as the first "
            "variant; give a value that differs"
        )
    # each variant is named by the values it plays of the keys --against changes
    first = {key: in_force.get(key) for key in against}
    return (
        Variant(_label({**changes, **first}), in_force),
        Variant(_label({**changes, **against}), system.options(other)),
    )


def _check_whole(system: RuleSystem, options: Mapping[str, Any], flag: str) -> None:
    problems = system.check_options(options)
    if problems:
        problem = problems[0]
        raise UserError(
            f"{flag}: option {problem.key} expects {problem.expected}", spec_id=problem.spec_id
        )


def _label(changes: Mapping[str, Any]) -> str:
    if not changes:
        return AS_THE_MAP
    return ", ".join(f"{key}={_value_text(value)}" for key, value in changes.items())


def _value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value)) if abs(value) < 1e15 else str(value)
    return str(value)
