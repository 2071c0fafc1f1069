"""A game's steps as a persistent line, and the tables around each step held lightly.

Memory and time linear in a game's length (opening, replaying, autosaving):

- *One list of steps.* `Game.apply` used to copy every earlier step into a new tuple,
  so a game of `n` steps held `n` tuples of up to `n` steps (a save of 16,000 hand
  adjustments took minutes and over a gigabyte to open). A `StepLine` is a length and a
  list it shares with the lines it grew from and into: `appended` puts the step at the
  list's end when this line is the longest to use it (play goes on), else starts a list
  of its own with a copy (a new line of play after an undo, or a second look ahead from
  the same game). It reads as a tuple of its steps; a line once made never changes.
- *A checkpoint every `CHECKPOINT_EVERY` steps, not a table per step.* A step holds the
  tables around it (`StepTables`) by weak reference only: while a game, a history's
  recent games or a recent rebuild holds them they are there; else they are rebuilt
  from the step's checkpoint (the game at the last multiple of `CHECKPOINT_EVERY` steps
  before it, which the step holds) by applying the steps between again, each with its
  own dice (`session.game.step_dice`): the same tables, roll for roll.
- *No reference cycle.* A step reaches the list it was put in only by weak reference,
  and its checkpoint is the game's table and position without the list, so a dropped
  game is freed by reference counting, not by the cyclic collector walking it. A list
  keeps alive the lists its steps were first put in (`_Items.earlier`: the list it was
  copied from), so a step read through any line still finds the steps before it; a step
  that outlived every line holding it finds them through the step before it (`previous`).
"""

from __future__ import annotations

import threading
import weakref
from abc import abstractmethod
from collections import deque
from collections.abc import Iterator, Sequence
from itertools import islice
from typing import TYPE_CHECKING, Any, TypeVar, overload

if TYPE_CHECKING:
    from tactical.model import GameState
    from tactical.session.game import Game, Step

CHECKPOINT_EVERY = 32  # steps between the games a line keeps whole
KEPT_REBUILT = 4 * CHECKPOINT_EVERY  # tables rebuilt lately, held so as not to rebuild again

_rebuilt: deque[GameState] = deque(maxlen=KEPT_REBUILT)

T = TypeVar("T")


class _Items(list):
    """A line's list of steps: weakly referable (a step's tables reach the steps before
    it so), with the lock of the lines sharing it and the lists its steps were first put
    in, held (`earlier`). Made by `_items`."""

    __slots__ = ("__weakref__", "earlier", "lock")
    earlier: tuple[_Items, ...]
    lock: threading.Lock


def _items(steps: Any, earlier: tuple[_Items, ...] | None = None) -> _Items:
    """A new list of `steps`; `earlier` the lists it keeps, by default the lists the
    steps' tables read (a line made from steps)."""
    items = _Items(steps)
    items.lock = threading.Lock()  # a computer player may look ahead in a thread
    if earlier is None:
        found: dict[int, _Items] = {}
        for step in items:
            first = step.tables._first_list() if step.tables is not None else None
            if first is not None and first is not items:
                found[id(first)] = first
        earlier = tuple(found.values())
    items.earlier = earlier
    return items


class Positional(Sequence[T]):
    """A sequence read one item at a time by its position (`_at`, from 0), indexed as a
    tuple is: a negative index counts from the end, one past either end is an IndexError,
    and a slice is a tuple of the items."""

    __slots__ = ()
    _what = "item"  # the IndexError's word ("step index out of range")

    @abstractmethod
    def _at(self, position: int) -> T: ...

    def _sliced(self, index: slice) -> tuple[T, ...]:
        return tuple(self._at(k) for k in range(*index.indices(len(self))))

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        if isinstance(index, slice):
            return self._sliced(index)
        length = len(self)
        position = index.__index__()
        if position < 0:
            position += length
        if not 0 <= position < length:
            raise IndexError(f"{self._what} index out of range")
        return self._at(position)


class StepLine(Positional["Step"]):
    """The first `len(self)` steps of a shared list (see the module docstring)."""

    __slots__ = ("_items", "_length")
    _what = "step"

    def __init__(self, steps: Sequence[Step] = ()) -> None:
        if isinstance(steps, StepLine):
            self._items, self._length = steps._items, steps._length
            return
        self._items: _Items = _items(steps, None if steps else ())
        self._length = len(self._items)

    @classmethod
    def _sharing(cls, items: _Items, length: int) -> StepLine:
        line = cls.__new__(cls)
        line._items, line._length = items, length
        return line

    def appended(self, step: Step) -> StepLine:
        """This line with `step` after its last (this line itself is unchanged)."""
        with self._items.lock:
            if len(self._items) == self._length:
                self._items.append(step)
                return StepLine._sharing(self._items, self._length + 1)
        fresh = _items(self._items[: self._length], (self._items,))
        fresh.append(step)
        return StepLine._sharing(fresh, self._length + 1)

    def prefix(self, length: int) -> StepLine:
        """The line's first `length` steps, sharing its list."""
        if not 0 <= length <= self._length:
            raise IndexError(f"a line of {self._length} steps has no prefix of {length}")
        return StepLine._sharing(self._items, length)

    def __len__(self) -> int:
        return self._length

    def _at(self, position: int) -> Step:
        return self._items[position]

    def _sliced(self, index: slice) -> tuple[Step, ...]:
        start, stop, stride = index.indices(self._length)
        return tuple(self._items[start:stop:stride])

    def __iter__(self) -> Iterator[Step]:
        return islice(self._items, self._length)

    def __reversed__(self) -> Iterator[Step]:
        # the list's own reverse iterator past the steps beyond this line (no Python-level
        # generator: the computer players read the turn's steps back for every decision);
        # both taken under the lock, so a step appended meanwhile is not counted
        items = self._items
        with items.lock:
            backwards = reversed(items)
            beyond = len(items) - self._length
        return islice(backwards, beyond, None)

    def __bool__(self) -> bool:
        return self._length > 0

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, StepLine) and other._items is self._items:
            return other._length == self._length
        if isinstance(other, StepLine | tuple | list):
            return len(other) == self._length and all(
                a is b for a, b in zip(self, other, strict=True)
            )
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # compared by its steps, like a tuple

    def __repr__(self) -> str:
        return f"StepLine({self._length} steps)"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its steps (a game sent to a computer player's process)."""
        return StepLine, (tuple(self),)


class Checkpoint:
    """The game a step's tables are rebuilt from (see the module docstring): its table
    and position (`game`, a game with no steps of its own) after `number` steps, the steps
    themselves read from the step's line (held so, the game holds no line back)."""

    __slots__ = ("game", "number")

    def __init__(self, game: Game) -> None:
        self.game = game.resumed(game.state, game.position, StepLine())
        self.number = game.step_number

    def after(self, prior: StepLine) -> Game:
        """The game at this checkpoint, its steps the first `number` of `prior`."""
        return self.game.resumed(self.game.state, self.game.position, prior.prefix(self.number))


class StepTables:
    """The tables before and after one step, held weakly, and what rebuilds them: the
    step's checkpoint (`anchor`, held), the list of the steps before it (held weakly: the
    list holds the step) and the step before it (`previous`, held)."""

    __slots__ = ("_after", "_before", "_held", "_length", "_list", "anchor", "previous")

    def __init__(
        self, before: GameState, after: GameState, anchor: Checkpoint | None, prior: StepLine
    ) -> None:
        self._before = weakref.ref(before)
        self._after = weakref.ref(after)
        self._held: tuple[GameState | None, ...] = ()
        self.anchor = anchor
        self._list: weakref.ref[_Items] | None = weakref.ref(prior._items)
        self._length = len(prior)
        self.previous: Step | None = prior._items[prior._length - 1] if prior._length else None

    def _first_list(self) -> _Items | None:
        """The list this step was first put in (or copied from), while it lives."""
        return self._list() if self._list is not None else None

    def prior(self) -> StepLine | None:
        """The steps before this one: from their list while it lives, else found back
        from the step before, one by one (a step that outlived every line holding it);
        None when they are not all here (steps from another process)."""
        items = self._first_list()
        if items is not None:
            return StepLine._sharing(items, self._length)
        found: list[Step] = []
        step = self.previous
        while step is not None:
            found.append(step)
            step = step.tables.previous if step.tables is not None else None
        found.reverse()
        return StepLine(found) if len(found) == self._length else None

    def before(self, step: Step) -> GameState | None:
        found = self._before()
        if found is None and self.anchor is not None:
            found = self._rebuild(step)[0]
        return found

    def after(self, step: Step) -> GameState | None:
        found = self._after()
        if found is None and self.anchor is not None:
            found = self._rebuild(step)[1]
        return found

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled with the tables still held and nothing to rebuild from (a game sent to a
        computer player's process: its checkpoints and earlier lines stay here)."""
        return _unpickled, (self._before(), self._after())

    def alive_after(self) -> GameState | None:
        """The table after the step when something still holds it (no rebuilding)."""
        return self._after()

    def _keep(self, before: GameState, after: GameState) -> None:
        self._before, self._after = weakref.ref(before), weakref.ref(after)
        _rebuilt.extend((before, after))

    def _rebuild(self, step: Step) -> tuple[GameState | None, GameState | None]:
        """The tables around `step` again: from the latest earlier table still held (at
        worst the checkpoint), each step between applied again as it was played."""
        prior = self.prior()
        anchor = self.anchor
        if prior is None or anchor is None:
            return None, None
        game = None
        for number in range(len(prior), anchor.number, -1):
            earlier = prior[number - 1]
            held = earlier.tables.alive_after() if earlier.tables is not None else None
            if held is not None:
                game = anchor.game.resumed(held, earlier.after, prior.prefix(number))
                break
        if game is None:
            game = anchor.after(prior)
        for earlier in prior[game.step_number :]:
            following = game.apply(earlier.action, forced=earlier.forced, fair=earlier.fair)
            if earlier.tables is not None:
                earlier.tables._keep(game.state, following.state)
            game = following
        after = game.apply(step.action, forced=step.forced, fair=step.fair).state
        self._keep(game.state, after)
        return game.state, after


def _unpickled(before: GameState | None, after: GameState | None) -> StepTables:
    tables = StepTables.__new__(StepTables)
    tables._held = (before, after)  # held here: nothing else does in the new process
    tables._before = (lambda: before) if before is None else weakref.ref(before)
    tables._after = (lambda: after) if after is None else weakref.ref(after)
    tables.anchor, tables._list, tables._length, tables.previous = None, None, 0, None
    return tables


def checkpoint_of(game: Game) -> Checkpoint:
    """The checkpoint the next step of `game` rebuilds its tables from (see the module
    docstring): `game` itself every `CHECKPOINT_EVERY` steps, else the last step's."""
    last = game.last_step
    anchor = last.tables.anchor if last is not None and last.tables is not None else None
    if anchor is not None and game.step_number % CHECKPOINT_EVERY:
        return anchor
    # also where the steps before came from another process; one per game value
    return game.derived("checkpoint of its steps", Checkpoint)
