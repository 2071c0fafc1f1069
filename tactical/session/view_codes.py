"""Values of a side's view as plain JSON, and back: what a view sent over the wire is made of.

A side's view of a game (`session.views.viewed`) cannot be replayed from actions (the
actions withheld from the side are not in it), so where it must travel (online play,
`net.views`) or be fingerprinted (a hidden stretch refereed by its owner, `dice.sealed`),
its values are written as they are: plain JSON for a closed list of the model's immutable
value types (`_TYPES`). A tag names the type; a value of any other type is written as its
words (`{"$s": ...}`: an event's value the log only prints). `decode` builds only the
types listed, from fields the dataclasses check themselves, and refuses anything else
with a `ViewCodeError`: nothing read is evaluated or imported. `code` is the one text of
a value (compact, in field order) that both ends fingerprint alike.
"""

from __future__ import annotations

import dataclasses
import json
import weakref
from enum import Enum
from typing import Any

from tactical.dice.core import Roll
from tactical.dice.fair import FairRoll
from tactical.dice.sealed import answer
from tactical.geometry.shapes import CircleBase, Pose, RectBase
from tactical.model import FrozenMap, GameState, thaw
from tactical.model.board import Area, Board
from tactical.model.units import Circle, MovementClass, SizeClass, Terrain, TerrainKind, Unit
from tactical.rules.base import Action, Event
from tactical.rules.turns import Phase, TurnPosition
from tactical.session.game import Game, Step


class ViewCodeError(ValueError):
    """A value that `encode` would not have made."""


# the value types a view is made of, by the tag that names them on the wire
_TYPES: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        GameState, Board, Area, Terrain, Circle, Unit, Pose, RectBase, CircleBase,
        TurnPosition, Phase, Action, Event, Roll, FairRoll,
    )
}  # fmt: skip
_ENUMS: dict[str, type[Enum]] = {
    cls.__name__: cls for cls in (SizeClass, MovementClass, TerrainKind)
}
# a step's fields on the wire: what the log and the screen read (the resolver's outcome
# summary and the tables around the step stay on the server)
STEP_FIELDS = (
    "number", "action", "title", "side", "before", "after", "phase", "next_phase",
    "next_side", "events", "rolls", "by_session", "forced", "fair",
)  # fmt: skip
_FIELDS: dict[type, tuple[str, ...]] = {}


def _fields(cls: type) -> tuple[str, ...]:
    found = _FIELDS.get(cls)
    if found is None:
        found = tuple(f.name for f in dataclasses.fields(cls) if f.init)
        _FIELDS[cls] = found
    return found


def encode(value: Any) -> Any:
    """`value` as plain JSON values (see the module docstring)."""
    if isinstance(value, Enum):  # first: a StrEnum is a str too
        if type(value).__name__ in _ENUMS:
            return {"$e": type(value).__name__, "v": value.value}
        return {"$s": str(value)}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, tuple):
        return {"$t": [encode(item) for item in value]}
    if isinstance(value, frozenset):
        return {"$f": sorted((encode(item) for item in value), key=repr)}
    if isinstance(value, FrozenMap):
        return {"$m": [[key, encode(item)] for key, item in value.items()]}
    name = type(value).__name__
    if _TYPES.get(name) is type(value):
        return {"$d": name, "f": {key: encode(getattr(value, key)) for key in _fields(type(value))}}
    return {"$s": str(value)}


def decode(value: Any) -> Any:
    """The value `encode` made; ProtocolError for anything it would not make."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, list):
        raise ViewCodeError("a view holds no bare lists")
    if not isinstance(value, dict) or len(value) not in (1, 2):
        raise ViewCodeError("a view value of an unknown form")
    if "$t" in value:
        return tuple(decode(item) for item in list_of(value["$t"]))
    if "$f" in value:
        return frozenset(decode(item) for item in list_of(value["$f"]))
    if "$m" in value:
        pairs = list_of(value["$m"])
        if not all(isinstance(p, list) and len(p) == 2 and isinstance(p[0], str) for p in pairs):
            raise ViewCodeError("a view's table of an unknown form")
        return FrozenMap({key: decode(item) for key, item in pairs})
    if "$s" in value:
        return str(value["$s"])
    if "$e" in value:
        enum = _ENUMS.get(value["$e"])
        if enum is None:
            raise ViewCodeError(f"a view's value of an unknown kind {value['$e']!r}")
        try:
            return enum(value.get("v"))
        except ValueError:
            raise ViewCodeError(f"a view's {value['$e']} of an unknown value") from None
    cls = _TYPES.get(value.get("$d"))  # type: ignore[arg-type]
    fields = value.get("f")
    if cls is None or not isinstance(fields, dict) or set(fields) != set(_fields(cls)):
        raise ViewCodeError("a view's value of an unknown kind")
    try:
        return cls(**{key: decode(item) for key, item in fields.items()})
    except (TypeError, ValueError) as error:
        raise ViewCodeError(f"a view's {cls.__name__} that cannot be: {error}") from None


def list_of(value: Any) -> list:
    if not isinstance(value, list):
        raise ViewCodeError("a view's list of an unknown form")
    return value


class StepCodes:
    """Each step as a side reads it, encoded once (held as long as the step is)."""

    shared: StepCodes  # one for every caller that has none of its own

    def __init__(self) -> None:
        self._codes: weakref.WeakKeyDictionary[Step, str] = weakref.WeakKeyDictionary()

    def of(self, step: Step) -> str:
        text = self._codes.get(step)
        if text is None:
            document = {key: encode(getattr(step, key)) for key in STEP_FIELDS}
            document["words"] = step.words  # what the log says it did, made from the truth
            text = code(document)
            self._codes[step] = text
        return text


def code(document: Any) -> str:
    """The one text of an encoded value (compact, in the order written)."""
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"))


def view_answer(view: Game) -> str:
    """The fingerprint of what a side sees after the last step of `view`, its view of a
    game: that step as the side reads it, the table and the turn (`dice.sealed.answer`)."""
    step = view.last_step
    step_code = StepCodes.shared.of(step) if step is not None else ""
    return answer(step_code, code(encode(view.state)), code(encode(view.position)))


def answer_of(step_document: Any, state_document: Any, position_document: Any) -> str:
    """The same fingerprint from the parts as they were sent (a referee's report)."""
    return answer(code(step_document), code(state_document), code(position_document))


StepCodes.shared = StepCodes()


def action_text(action: Action) -> str:
    """An action's one text, what a commitment to it fingerprints (`dice.sealed.seal`)."""
    document = {"kind": action.kind, "actor": action.actor, "params": thaw(action.params)}
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
