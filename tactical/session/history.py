"""Undo, redo, goto and reset to the start of the activation, over immutable `Game` values.

`History` is one line of play (`games[0]` is the start, `games[k]` the game after step
`k`) and a cursor. It keeps the steps, not a game per step: the game at a step is made
again from the step's tables (`session.steps`), so memory grows with the length of the
game, not its square, and a few recent games are kept whole. Undo and redo move the
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

from collections.abc import Collection, Iterator, Sequence
from typing import Any

from tactical.dice.fair import FairRoll
from tactical.errors import UserError
from tactical.model import GameState
from tactical.rules.base import Action
from tactical.session.forced import settled
from tactical.session.game import Game, Step
from tactical.session.steps import Positional, StepLine

KEPT_RECENT = 64  # games a history keeps whole besides its checkpoints (undo stays instant)


class _Recent:
    """The games a history and the histories made from it visited or played last, keyed by
    the last step of each (a step belongs to one line of play only); at most `KEPT_RECENT`."""

    __slots__ = ("games",)

    def __init__(self) -> None:
        self.games: dict[Step | None, Game] = {}

    def get(self, key: Step | None) -> Game | None:
        return self.games.get(key)

    def keep(self, game: Game) -> None:
        key = game.last_step
        self.games.pop(key, None)
        self.games[key] = game
        while len(self.games) > KEPT_RECENT:
            del self.games[next(iter(self.games))]


class History:
    """The steps of one line of play and a cursor (the game shown now), immutable.

    Made from consecutive games (`games[0]` the first, each the one before after a step):
    only the first, the steps and a few recent games are kept; the game at any step is
    made again from its step's tables (`session.steps`: a checkpoint every few steps)."""

    __slots__ = ("_first", "_line", "_recent", "_shown", "cursor", "take_single")

    def __init__(self, games: Sequence[Game], cursor: int, take_single: bool = True) -> None:
        if not games:
            raise UserError("a history needs at least its starting game")
        recent = _Recent()
        for game in games[-KEPT_RECENT:]:
            recent.keep(game)
        self._set(games[0], StepLine(games[-1].steps), cursor, bool(take_single), recent)

    def _set(self, first: Game, line: StepLine, cursor: int, take: bool, recent: _Recent) -> None:
        length = len(line) - first.step_number
        if isinstance(cursor, bool) or not isinstance(cursor, int) or not 0 <= cursor <= length:
            raise UserError(f"history cursor {cursor} is outside 0..{length}")
        setter = object.__setattr__
        setter(self, "_first", first)
        setter(self, "_line", line)
        setter(self, "cursor", cursor)
        setter(self, "take_single", take)
        setter(self, "_recent", recent)
        setter(self, "_shown", None)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a History is immutable: {name} cannot be set")

    def _with(
        self, line: StepLine | None = None, cursor: int | None = None, take: bool | None = None
    ) -> History:
        made = History.__new__(History)
        made._set(
            self._first,
            self._line if line is None else line,
            self.cursor if cursor is None else cursor,
            self.take_single if take is None else take,
            self._recent,
        )
        return made

    @classmethod
    def start(cls, state: GameState, seed: int, take_single: bool = True) -> History:
        """A history holding only the start of a game on `state`."""
        return cls((Game.new(state, seed),), 0, take_single)

    @classmethod
    def of_line(cls, first: Game, last: Game, cursor: int, take_single: bool = True) -> History:
        """The history from `first` to `last` (a game played on from it), shown at `cursor`."""
        made = cls((first,), 0, take_single)
        made._recent.keep(last)
        return made._with(line=StepLine(last.steps), cursor=cursor)

    # ----------------------------------------------------------------- reading

    @property
    def game(self) -> Game:
        """The game at the cursor."""
        shown = self._shown
        if shown is None:
            shown = self.game_at(self.cursor)
            object.__setattr__(self, "_shown", shown)
        return shown

    def game_at(self, index: int) -> Game:
        """The game after step `index` of the history (0: its first game), made again from
        its step's tables when it is not among the recent games."""
        if index == 0:
            return self._first
        number = self._first.step_number + index
        step = self._line[number - 1]
        found = self._recent.get(step)
        if found is None:
            assert step.tables is not None
            state = step.tables.after(step)
            found = self._first.resumed(state, step.after, self._line.prefix(number))
            self._recent.keep(found)
        return found

    @property
    def games(self) -> Sequence[Game]:
        """Every game of the line, each made when asked for (`game_at`)."""
        return _Games(self)

    @property
    def first(self) -> Game:
        return self._first

    @property
    def last(self) -> Game:
        """The game at the end of the line (the cursor's game when nothing is undone)."""
        return self.game_at(self.length)

    @property
    def steps(self) -> Sequence[Step]:
        """Every step of the line, including the undone ones after the cursor."""
        return self._line

    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(step.action for step in self._line)

    @property
    def length(self) -> int:
        """Steps in the line."""
        return len(self._line) - self._first.step_number

    @property
    def can_undo(self) -> bool:
        return self.cursor > 0

    @property
    def can_redo(self) -> bool:
        return self.cursor < self.length

    # ----------------------------------------------------------------- moving

    def apply(self, action: Action, forced: str = "", fair: FairRoll | None = None) -> History:
        """The action applied at the cursor; the undone steps after it are discarded.
        `forced` and `fair` as `Game.apply` takes them (a step the game took by itself, dice
        from the players' nonces)."""
        following = self.game.apply(action, forced, fair)
        self._recent.keep(following)
        return self._with(line=StepLine(following.steps), cursor=self.cursor + 1)

    def settle(self) -> History:
        """The steps the game takes by itself from the cursor, each a step of its own
        (`session.forced`); the same history when a decision is open."""
        taken = settled(self.game, self.take_single)
        if not taken:
            return self
        for game in taken:
            self._recent.keep(game)
        return self._with(line=StepLine(taken[-1].steps), cursor=self.cursor + len(taken))

    def with_take_single(self, take: bool) -> History:
        """The history with the setting for single-choice steps changed."""
        return self._with(take=bool(take))

    def undo(self) -> History:
        if not self.can_undo:
            raise UserError("nothing to undo: this is the start of the game")
        return self._with(cursor=self.cursor - 1)

    def redo(self) -> History:
        if not self.can_redo:
            raise UserError("nothing to redo: this is the latest step")
        return self._with(cursor=self.cursor + 1)

    def undo_decision(self, computer: Collection[str] = ()) -> History:
        """Back to before the last step someone at the table chose: with it, every step
        after it that the game took by itself or the computer played (the sides in
        `computer`). Where no one chose anything yet, the game's own opening steps are
        nobody's to take back (nothing to undo), and a game only the computer has played
        goes back one step."""
        if not self.can_undo:
            raise UserError("nothing to undo: this is the start of the game")
        offset = self._first.step_number
        index = self.cursor
        while index > 0 and _follows(self._line[offset + index - 1], computer):
            index -= 1
        if index > 0:
            return self._with(cursor=index - 1)
        if all(step.forced for step in self._line[offset : offset + self.cursor]):
            raise UserError("nothing to undo: no one has chosen anything yet in this game")
        return self._with(cursor=self.cursor - 1)

    def redo_decision(self, computer: Collection[str] = ()) -> History:
        """Forward over the next step someone chose and every step that followed from it
        on its own (the mirror of `undo_decision`)."""
        if not self.can_redo:
            raise UserError("nothing to redo: this is the latest step")
        offset = self._first.step_number
        index = self.cursor + 1
        while index < self.length and _follows(self._line[offset + index], computer):
            index += 1
        return self._with(cursor=index)

    def goto(self, step: int) -> History:
        """The cursor at `step` (0 = the start, `length` = the latest step)."""
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= self.length:
            raise UserError(f"no step {step!r} to go to: steps run from 0 to {self.length}")
        return self._with(cursor=step)

    def activation_start(self) -> int:
        """The step at which the current activation began (see the module docstring)."""
        return _activation_start(self.game, self._first.step_number, self.cursor)

    def reset_activation(self) -> History:
        """Back to the start of the current activation (redo keeps the steps undone)."""
        return self.goto(self.activation_start())

    def truncated(self) -> History:
        """The line up to the cursor only (the redo steps dropped)."""
        return self._with(line=self._line.prefix(self._first.step_number + self.cursor))


class _Games(Positional[Game]):
    """A history's games, each made when asked for (`History.game_at`)."""

    _what = "game"

    def __init__(self, history: History) -> None:
        self._history = history

    def __len__(self) -> int:
        return self._history.length + 1

    def _at(self, position: int) -> Game:
        return self._history.game_at(position)

    def __iter__(self) -> Iterator[Game]:
        return (self._history.game_at(k) for k in range(len(self)))

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, _Games | tuple | list):
            return len(other) == len(self) and all(a is b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # compared by its games, like a tuple


def _follows(step: Step, computer: Collection[str]) -> bool:
    """Whether a step followed on its own from the decision before it: the game took it,
    or the computer played it."""
    return bool(step.forced) or step.side in computer


def activation_start(games: Sequence[Game]) -> int:
    """Index of the snapshot where the activation of the last game's active side began
    (`games`: consecutive games, each the one before after a step)."""
    current = games[-1]
    end = len(games) - 1
    return _activation_start(current, current.step_number - end, end)


def _activation_start(current: Game, offset: int, end: int) -> int:
    """`activation_start` for `current`, the game after step `end` of a history whose first
    game had played `offset` steps."""
    steps = current.steps
    in_phase = []  # steps of the current phase and turn, latest first
    for index in range(end, 0, -1):
        step = steps[offset + index - 1]
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
