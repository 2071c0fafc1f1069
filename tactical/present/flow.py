"""The flow of play in words and order: what the panel lists first, what the rules refuse
now, and what the status line says after a step, a pass or the steps the game took.

Pure functions of the session's values; the play screen shows what they return. The
steps the rules leave no choice for are the session's (`tactical.session.forced`): here
they are only said. Nothing here names a rule system.
"""

from __future__ import annotations

from collections.abc import Sequence

from tactical.errors import UserError
from tactical.model import GameState
from tactical.rules.base import ActionChoice
from tactical.rules.status import Unavailable
from tactical.session.game import PASS, Game, Step

MOVE_KEYS = (
    'drag the end or W/S ±1" (Shift 0.1"), A/D turn (Shift 5°), C rotate, Backspace takes'
    " back a step; Enter or Move confirms, Esc cancels"
)


def ordered_choices(
    choices: Sequence[ActionChoice], selected: str | None, sides: Sequence[str]
) -> tuple[ActionChoice, ...]:
    """The side's choices as the panel lists them: the selected unit's first, then the
    sides' own, then the rest; a pass last (it ends the go)."""
    first = [c for c in choices if c.actor == selected]
    side = [c for c in choices if c.actor != selected and c.actor in sides]
    rest = [c for c in choices if c.actor != selected and c.actor not in sides]
    ordered = first + side + rest
    return tuple([c for c in ordered if c.kind != PASS] + [c for c in ordered if c.kind == PASS])


def unavailable_now(game: Game) -> tuple[Unavailable, ...]:
    """The actions of the phase the side to act cannot take now, with the rules' reasons
    (greyed on the panel); none where the rules cannot say."""
    try:
        return game.system.unavailable(game.state, game.position, game.side_to_act)
    except UserError:
        return ()


def steps_words(steps: Sequence[Step], passed: str, then: str) -> str:
    """Steps that came after the one the status line names, each said once: the sides that
    passed (each followed by `passed`), then the other steps' titles (after `then`); ""
    when none."""
    sides = list(dict.fromkeys(s.side for s in steps if s.is_pass))
    titles = list(dict.fromkeys(s.title for s in steps if not s.is_pass))
    words = " · " + ", ".join(sides) + passed if sides else ""
    return words + (f" · {then}" + ", ".join(titles) if titles else "")


def taken_words(taken: Sequence[Step]) -> str:
    """The steps the game took by itself after the last decision, for the status line
    ("" when none): the sides that passed, then the steps that were the only ones open."""
    return steps_words(
        taken, " passed: nothing was open to them", "taken for you (the only step open): "
    )


def passed_words(step: Step, game: Game, taken: str) -> str:
    """The status line after a pass: who passed, what the game then took, where play stands."""
    return (
        f"{step.side} passed{taken} · turn {game.turn}, {game.phase_name}: "
        f"{game.side_to_act} to act"
    )


def take_single_words(take: bool, taken: str) -> str:
    """The status line after "Take forced steps for me" is turned on or off."""
    on = "on: a step that is the only one open is taken for you"
    state = on if take else "off: you click every step yourself"
    return f"Take forced steps for me: {state}{taken}"


def moving_words(name: str) -> str:
    """The status line as the move tool opens on a unit."""
    return f'moving {name}: drag ahead, W/S ±1", A/D turn, Enter confirms, Esc cancels'


def menu_name(state: GameState, value: str) -> str:
    """A unit's name for its id ("" for anything else): how the drop-downs list units."""
    unit = state.unit(value) if value and state.has_unit(value) else None
    return state.shown_names[value] if unit is not None and unit.name else ""
