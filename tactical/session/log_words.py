"""The game log's text: each entry as one line of plain words.

`Log.text()` (the exported `.txt` log, `tactical replay`, the replay's status line)
is read by players, so it reads as words, not as code: a unit by its name, a key as
words ("laser strength 6", not `laser_strength=6`), yes / no for true / false,
"none" for nothing. A step's action line also says what the step did in the rule
system's own words (`Step.words`). The line is a function of the entry's values,
the unit names of the table around it and those words only: the same seed and the
same actions give the same text (docs/architecture.md "Reliability").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from tactical.rules import registry
from tactical.rules.status import words

# a unit id inside a label ("laser to-hit vs ares-cruiser"): bounded by neither a word
# character nor a hyphen on either side
_ID_EDGE = r"(?<![\w-]){}(?![\w-])"
# an adjustment's action line: its parameters are code (op delete, x 12.5); the sentence of
# its event, on the line after, says what changed in words (`session.adjust`). No side
# before it: an adjustment is nobody's go (whose go it is does not change)
ADJUSTED = "Table adjusted by hand"
# the action of a step a side may not read yet (`session.views`): its line says only whose
# go it was and what is hidden, "Klingon: (hidden movement)"
HIDDEN = "hidden"


def entry_line(
    step: int, entry: str, values: Mapping[str, Any], names: Mapping[str, str], said: str
) -> str:
    """One log entry as a line (see the module docstring)."""
    head = f"#{step}"
    if entry == "start":
        title = f' "{values["title"]}"' if values["title"] else ""
        return f"{head} Start: {_rules_title(values['rules'])},{title}, seed {values['seed']}"
    if entry == "phase":
        return (
            f"{head} Turn {values['turn']}, {values['phase']}{_cite(values['spec_id'])}: "
            f"{values['side']} to act"
        )
    if entry == "action":
        if values["kind"] == "adjust":  # what changed is its event's sentence, the next line
            return f"{head} {ADJUSTED} {_when(values)}"
        if values["kind"] == HIDDEN:
            return f"{head} {values['side']}: ({values['title']}) {_when(values)}"
        shown = dict(values["params"])
        actor = names.get(values["actor"], values["actor"])
        what = words(values["kind"])
        params = _pairs(shown, names)
        # what the step did, unless it only repeats the action ("Mars: pass")
        done = f" — {_named(said, names)}" if said and said != f"{actor}: {what}" else ""
        who = "" if values["actor"] == values["side"] else f" {actor}"  # a side's own step
        # a step no one chose: the game took it, and says why
        taken = f" — taken by the game: {values['forced']}" if values.get("forced") else ""
        return (
            f"{head} {values['side']}: {what}{who}{', ' + params if params else ''} "
            f"{_when(values)}{done}{taken}"
        )
    if entry == "roll":
        who = names.get(values["who"], values["who"]) if values["who"] else "the table"
        what = f" for {_named(values['what'], names)}" if values["what"] else ""
        return (
            f"{head}   {who} rolls {values['result']}{what} "
            f"(a {values['die']}, {values['faces']} faces)"
        )
    if entry == "end":
        return f"{head} Game over: {values['result']}{_cite(values['spec_id'])}"
    data = values["data"]
    if values["kind"] == "adjust" and set(data) == {"change"}:
        return f"{head}   {data['change']}"  # names its units and pieces already
    pairs = _pairs(_worded(data), names)
    kind = words(values["kind"]) + _cite(values["spec_id"])
    return f"{head}   {kind}{': ' + pairs if pairs else ''}"


def _when(values: Mapping[str, Any]) -> str:
    return f"(turn {values['turn']}, {values['phase']})"


def _worded(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """An event's data with the stored code of its result or effect read by the `name`
    the rule system gives it beside the code (a table result's name, say)."""
    if "name" not in data or not ({"result", "effect"} & set(data)):
        return data
    return {
        key: data["name"] if key in ("result", "effect") else value
        for key, value in data.items()
        if key != "name"
    }


def _rules_title(rules_id: str) -> str:
    try:
        return registry.get(rules_id).title
    except Exception:  # a log of a rule system not installed here: its id
        return rules_id


def _pairs(values: Mapping[str, Any], names: Mapping[str, str]) -> str:
    return ", ".join(
        f"{_key(str(key), names)} {_value(value, names)}" for key, value in values.items()
    )


def _key(key: str, names: Mapping[str, str]) -> str:
    """A key as words; one naming a unit's value ("deimos-base.missiles") by the unit's name."""
    unit_id, dot, rest = key.partition(".")
    if dot and unit_id in names:
        return f"{names[unit_id]} {words(rest)}"
    return words(key)


def _value(value: Any, names: Mapping[str, str]) -> str:
    """A value as a player reads it: a unit by its name, yes / no, none, lists and tables
    ("key value" pairs) in brackets."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, Mapping):
        inner = _pairs(value, names)
        return f"({inner})" if inner else "none"
    if isinstance(value, list | tuple):  # in brackets: its commas are not the pairs'
        if len(value) < 2:
            return _value(value[0], names) if value else "none"
        return "(" + ", ".join(_value(item, names) for item in value) + ")"
    text = str(value)
    if text in names:
        return names[text]
    scoped = SIDE_KEY.fullmatch(text)
    if scoped:  # a key of one side's ("A:battle-line", a squadron): its name, as words
        return _named(words(scoped[1]), names) if scoped[1] not in names else names[scoped[1]]
    return words(text) if "_" in text else _named(text, names) if text else "none"


SIDE_KEY = re.compile(r"[^:\s]+:([a-z][\w-]*)")


def _named(text: str, names: Mapping[str, str]) -> str:
    """`text` with the unit ids it quotes read as the units' names."""
    for unit_id in sorted((i for i in names if i in text), key=len, reverse=True):
        name = names[unit_id].replace("\\", "\\\\")  # a name is no pattern
        text = re.sub(_ID_EDGE.format(re.escape(unit_id)), name, text)
    return text


def label_words(label: str, names: Mapping[str, str]) -> str:
    """A roll's label ("AD vs markgraf: die 1") as words, the unit ids it quotes read as
    the units' names ("AD vs Markgraf Class Battleship: die 1"): the rest of it has its
    dashes, underscores and dots as spaces, as `words` does, the names stay as written."""
    quoted = sorted((i for i in names if i in label), key=len, reverse=True)
    if not quoted:
        return words(label)
    pattern = "|".join(_ID_EDGE.format(re.escape(unit_id)) for unit_id in quoted)
    parts = re.split(f"({pattern})", label)  # odd parts are the ids
    text = "".join(
        names[part] if index % 2 else re.sub(r"[_.-]", " ", part)
        for index, part in enumerate(parts)
    )
    return " ".join(text.split())


def _cite(spec_id: str | None) -> str:
    return f" ({spec_id})" if spec_id else ""
