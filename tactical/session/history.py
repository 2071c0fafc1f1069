"""Undo, redo, goto and reset to the start of the activation, over immutable `Game` snapshots.

`History` keeps every snapshot of one line of play (`games[0]` is the start,
`games[k]` the game after step `k`) and a cursor. Undo and redo move the
cursor; a new action at the cursor discards the steps after it (the redo
line) and appends. Because each step rolls its own dice (`game.step_dice`),
a new action after an undo never shifts the rolls of any other step.

The activation boundary (`activation_start`) is generic: the activation is
the go of the *active side* — the side to act, unless that side has nothing
of the rule system's to declare (it can only pass while another side's
activation goes on: an alternating phase passes the go after every action),
in which case the side that acted last in this phase. It started with that
side's first action after the last action of any other side in the current
phase and turn (passes do not count: passing is waiting). Where a side keeps
the go, that is the last time the side to act or the phase changed.

Undo and redo also go by decision (`undo_decision`, `redo_decision`): back to before
the last step someone chose, with every step the game then took by itself
(`Step.forced`) and, in solo play, the computer's steps; the step slider (`goto`) still
reaches every step. `take_single` is the game's setting for the steps the game takes
by itself (`session.forced`): whether a step that is the only one open is taken too.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from tactical.errors import UserError
from tactical.model import GameState
from tactical.rules.base import Action
from tactical.session.forced import settled
from tactical.session.game import Game, Step


@dataclass(frozen=True, eq=False)
class History:
    """Snapshots of one line of play and a cursor (the game shown now)."""

    games: tuple[Game, ...]
    cursor: int
    take_single: bool = True  # a step that is the only one open is taken by the game

    def __post_init__(self) -> None:
        if not self.games:
            raise UserError("a history needs at least its starting game")
        if not 0 <= self.cursor < len(self.games):
            raise UserError(f"history cursor {self.cursor} is outside 0..{len(self.games) - 1}")

    @classmethod
    def start(cls, state: GameState, seed: int, take_single: bool = True) -> History:
        """A history holding only the start of a game on `state`."""
        return cls((Game.new(state, seed),), 0, take_single)

    # ----------------------------------------------------------------- reading

    @property
    def game(self) -> Game:
        """The game at the cursor."""
        return self.games[self.cursor]

    @property
    def first(self) -> Game:
        return self.games[0]

    @property
    def last(self) -> Game:
        """The game at the end of the line (the cursor's game when nothing is undone)."""
        return self.games[-1]

    @property
    def steps(self) -> tuple[Step, ...]:
        """Every step of the line, including the undone ones after the cursor."""
        return self.last.steps

    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(step.action for step in self.steps)

    @property
    def length(self) -> int:
        """Steps in the line."""
        return len(self.games) - 1

    @property
    def can_undo(self) -> bool:
        return self.cursor > 0

    @property
    def can_redo(self) -> bool:
        return self.cursor < self.length

    # ----------------------------------------------------------------- moving

    def apply(self, action: Action) -> History:
        """The action applied at the cursor; the undone steps after it are discarded."""
        following = self.game.apply(action)
        return replace(
            self, games=(*self.games[: self.cursor + 1], following), cursor=self.cursor + 1
        )

    def settle(self) -> History:
        """The steps the game takes by itself from the cursor, each a step of its own
        (`session.forced`); the same history when a decision is open."""
        taken = settled(self.game, self.take_single)
        if not taken:
            return self
        games = (*self.games[: self.cursor + 1], *taken)
        return replace(self, games=games, cursor=len(games) - 1)

    def with_take_single(self, take: bool) -> History:
        """The history with the setting for single-choice steps changed."""
        return replace(self, take_single=bool(take))

    def undo(self) -> History:
        if not self.can_undo:
            raise UserError("nothing to undo: this is the start of the game")
        return replace(self, cursor=self.cursor - 1)

    def redo(self) -> History:
        if not self.can_redo:
            raise UserError("nothing to redo: this is the latest step")
        return replace(self, cursor=self.cursor + 1)

    def undo_decision(self, computer: Collection[str] = ()) -> History:
        """Back to before the last step someone at the table chose: with it, every step
        after it that the game took by itself or the computer played (the sides in
        `computer`). Where no one chose anything yet, back to the start."""
        if not self.can_undo:
            raise UserError("nothing to undo: this is the start of the game")
        steps = self.games[self.cursor].steps
        index = self.cursor
        while index > 0 and _follows(steps[index - 1], computer):
            index -= 1
        return replace(self, cursor=max(0, index - 1))

    def redo_decision(self, computer: Collection[str] = ()) -> History:
        """Forward over the next step someone chose and every step that followed from it
        on its own (the mirror of `undo_decision`)."""
        if not self.can_redo:
            raise UserError("nothing to redo: this is the latest step")
        steps = self.last.steps
        index = self.cursor + 1
        while index < self.length and _follows(steps[index], computer):
            index += 1
        return replace(self, cursor=index)

    def goto(self, step: int) -> History:
        """The cursor at `step` (0 = the start, `length` = the latest step)."""
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= self.length:
            raise UserError(f"no step {step!r} to go to: steps run from 0 to {self.length}")
        return replace(self, cursor=step)

    def activation_start(self) -> int:
        """The step at which the current activation began (see the module docstring)."""
        return activation_start(self.games[: self.cursor + 1])

    def reset_activation(self) -> History:
        """Back to the start of the current activation (redo keeps the steps undone)."""
        return self.goto(self.activation_start())

    def truncated(self) -> History:
        """The line up to the cursor only (the redo steps dropped)."""
        return replace(self, games=self.games[: self.cursor + 1])


def _follows(step: Step, computer: Collection[str]) -> bool:
    """Whether a step followed on its own from the decision before it: the game took it,
    or the computer played it."""
    return bool(step.forced) or step.side in computer


def activation_start(games: Sequence[Game]) -> int:
    """Index of the snapshot where the activation of the last game's active side began."""
    current = games[-1]
    end = len(games) - 1
    in_phase = []  # steps of the current phase and turn, latest first
    for index in range(end, 0, -1):
        step = games[index].steps[-1]
        if (step.before.turn, step.before.phase) != (current.turn, current.position.phase):
            break
        in_phase.append((index, step))
    active = current.side_to_act
    if not current.rule_choices():
        acted = next((step.side for _, step in in_phase if not step.is_pass), None)
        active = acted or active
    start = end
    for index, step in in_phase:
        if step.is_pass:
            continue
        if step.side != active:
            break
        start = index - 1
    return start
