"""A side's view of an online game as sent over the wire, and read back on the other end.

While the rules hide something from a side (`RuleSystem.view_for`: a cloaked enemy ship,
R001.29), the server cannot send that side's client the actions of the game: replayed,
they would give the hidden course away. It sends the game as the side knows it instead
(`session.views.viewed`): the table of the view, the turn position, and every step as
the side may read it now, a step withheld whole reading as "Klingon: (hidden movement)"
with no action, events or rolls. The client draws and decides from that game as it
stands; it cannot replay it, and does not need to: the next change comes as a view too,
and once nothing is hidden any more the server sends the whole game again (the record
of the hidden moves appears).

The values are written by `session.view_codes` (a closed list of value types, nothing
evaluated on reading). Each step is encoded once (`StepCodes`), and a client is sent the
steps from the first one that differs from those it holds, so a long game costs the
server the new steps only.
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tactical.model import GameState
from tactical.net.protocol import ProtocolError
from tactical.rules import registry
from tactical.rules.turns import TurnPosition
from tactical.session.game import Game, Step
from tactical.session.view_codes import (
    STEP_FIELDS,
    StepCodes,
    ViewCodeError,
    decode,
    encode,
    list_of,
)

_PARTS: weakref.WeakKeyDictionary[Game, ViewParts] = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class ViewParts:
    """A view's table, turn and start as they are sent (encoded), its steps apart."""

    initial: Any
    seed: int
    state: Any
    position: Any
    sides: tuple[str, ...]

    @classmethod
    def of(cls, view: Game) -> ViewParts:
        """The parts of `view`, encoded once per view (every client of a side is sent them)."""
        found = _PARTS.get(view)
        if found is None:
            found = _PARTS[view] = cls(
                encode(view.initial),
                view.seed,
                encode(view.state),
                encode(view.position),
                view.sides,
            )
        return found

    @classmethod
    def read(cls, message: Mapping[str, Any]) -> ViewParts:
        """The parts of a view message (a referee's report), checked to decode."""
        try:
            parts = cls(
                message["initial"],
                int(message["seed"]),
                message["state"],
                message["position"],
                tuple(str(side) for side in message["sides"]),
            )
            if not isinstance(decode(parts.state), GameState):
                raise ViewCodeError("a view without its table")
            if not isinstance(decode(parts.position), TurnPosition):
                raise ViewCodeError("a view without its turn")
        except (KeyError, TypeError, ValueError) as error:
            raise ProtocolError(f"a view that cannot be read ({error})") from None
        return parts


def view_fields(view: Game, sent: Sequence[str]) -> tuple[dict[str, Any], list[str]]:
    """The fields of a `view` message carrying `view` (a side's `viewed` game) to a client
    that holds the steps `sent` (their codes): the steps from the first one that differs,
    and the codes the client holds after it."""
    steps = step_codes(view)
    return view_message(ViewParts.of(view), steps, sent), steps


def step_codes(view: Game) -> list[str]:
    """The codes of a view's steps (each encoded once, `StepCodes.shared`)."""
    return [StepCodes.shared.of(step) for step in view.steps]


def view_message(parts: ViewParts, steps: Sequence[str], sent: Sequence[str]) -> dict[str, Any]:
    """The fields of a `view` message: `parts`, and the steps (codes) from the first one that
    differs from those the client holds (`sent`)."""
    first = 0
    for first, (old, new) in enumerate(zip(sent, steps, strict=False)):  # noqa: B007
        if old != new:
            break
    else:
        first = min(len(sent), len(steps))
    return {
        "initial": parts.initial,
        "seed": parts.seed,
        "state": parts.state,
        "position": parts.position,
        "sides": list(parts.sides),
        "from": first,
        "steps": [json.loads(text) for text in steps[first:]],
    }


def read_view(message: Mapping[str, Any], held: Sequence[Step]) -> Game:
    """The game a `view` message carries, its steps from `from` on replacing those held."""
    try:
        initial, state = decode(message["initial"]), decode(message["state"])
        position = decode(message["position"])
        sides = tuple(str(side) for side in message["sides"])
        first = int(message["from"])
        seed = int(message["seed"])
        documents = list_of(message["steps"])
    except (KeyError, TypeError, ValueError) as error:  # ViewCodeError among them
        raise ProtocolError(f"a view message that cannot be read ({error})") from None
    if not isinstance(initial, GameState) or not isinstance(state, GameState):
        raise ProtocolError("a view without its tables")
    if not isinstance(position, TurnPosition) or not 0 <= first <= len(held):
        raise ProtocolError("a view whose steps do not follow those held")
    system = registry.get(state.rules)
    steps = [*held[:first], *(_step(document, system) for document in documents)]
    return Game(initial, seed, state, position, sides, tuple(steps))


def _step(document: Any, system: Any) -> Step:
    if not isinstance(document, dict) or set(document) != {*STEP_FIELDS, "words"}:
        raise ProtocolError("a view's step of an unknown form")
    try:
        values = {key: decode(document[key]) for key in STEP_FIELDS}
    except ViewCodeError as error:
        raise ProtocolError(f"a view's step that cannot be read ({error})") from None
    try:
        step = Step(**values, system=system)
    except (TypeError, ValueError) as error:
        raise ProtocolError(f"a view's step that cannot be: {error}") from None
    step.__dict__["words"] = str(document["words"])  # no tables here to make them from
    return step
