"""A rule system's turn as data: its phases, where play stands (`TurnPosition`), and a
phase played as a sequence of its own steps (`Stage`); part of the rule-system protocol
(`tactical.rules.base`, which re-exports these names)."""

from __future__ import annotations

from dataclasses import dataclass, field

from tactical.errors import UserError
from tactical.model import FrozenMap


@dataclass(frozen=True, slots=True)
class Phase:
    """One phase of a turn. In an `alternating` phase the sides take turns acting,
    one action each, until every side has passed in a row."""

    name: str
    spec_id: str | None = None
    alternating: bool = False


@dataclass(frozen=True, slots=True)
class StageStep:
    """One step of a sequence a rule system plays inside a phase: its code as the rules
    number it ("2a"), its name and the rule that orders it."""

    code: str
    name: str
    spec_id: str | None = None


@dataclass(frozen=True, slots=True)
class Stage:
    """Where play stands inside the current phase, for a rule system that plays a phase as a
    sequence of its own (Dystopian Wars' Squadron Activation Sequence, R002.28): the steps,
    the index of the current one (None: between them) and who is at it, as `facts`
    (e.g. side and squadron)."""

    steps: tuple[StageStep, ...]
    current: int | None
    facts: FrozenMap = field(default_factory=FrozenMap)

    @property
    def step(self) -> StageStep | None:
        return self.steps[self.current] if self.current is not None else None


@dataclass(frozen=True, slots=True)
class TurnPosition:
    """Where play stands: turn number, phase index, index of the side to act, passes in a row."""

    turn: int = 1
    phase: int = 0
    side: int = 0
    passes: int = 0


@dataclass(frozen=True)
class TurnSequence:
    """A rule system's turn as phases; `advance` steps through them for a number of sides."""

    phases: tuple[Phase, ...]

    def start(self) -> TurnPosition:
        return TurnPosition()

    def phase(self, position: TurnPosition) -> Phase:
        return self.phases[position.phase]

    def advance(self, position: TurnPosition, sides: int, *, passed: bool = False) -> TurnPosition:
        """The position after the side to act has acted (or passed).

        A plain phase gives each side one go in order. An alternating phase
        hands the go to the next side after every action and ends when all
        sides have passed one after the other.
        """
        if sides < 1:
            raise UserError("a turn needs at least one side")
        if not self.phases:
            return TurnPosition(position.turn + 1)
        current = self.phases[position.phase]
        following = (position.side + 1) % sides
        if current.alternating:
            passes = position.passes + 1 if passed else 0
            if passes < sides:
                return TurnPosition(position.turn, position.phase, following, passes)
        elif following != 0:
            return TurnPosition(position.turn, position.phase, following, 0)
        if position.phase + 1 < len(self.phases):
            return TurnPosition(position.turn, position.phase + 1, 0, 0)
        return TurnPosition(position.turn + 1, 0, 0, 0)
