"""Dice that roll nothing: every die shows the face a rule system picks (G.1: a dice source
is an input, so a dry run injects one that is known in advance).

For the passes that must not depend on a roll: a declaration's legality check (no
declaration rolls) or the part of an upkeep whose roll cannot change what is asked (a
blazing hulk read as surviving). A fold runs its steps in order and a chance runs its
sub-roll once, on these same dice, as a recording source does.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from functools import reduce
from typing import Any

from tactical.dice import Die

Step = Callable[[Any, Any], Any]  # a fold step: (state, dice) -> the next state
Key = Callable[[Any], Hashable]  # what the exact enumerator would merge outcomes by


@dataclass(frozen=True, slots=True)
class FixedDice:
    """A `Dice` source whose every roll is `face(die)`, recording nothing."""

    face: Callable[[Die], int]

    def roll(self, die: Die, *, who: str = "", what: str = "") -> int:
        return self.face(die)

    def fold(self, initial: Any, steps: Iterable[Step], key: Key | None = None) -> Any:
        return reduce(lambda state, step: step(state, self), steps, initial)

    def chance(self, fn: Callable[[Any], Any], key: Key | None = None) -> Any:
        return fn(self)


FIRST_FACE = FixedDice(lambda die: die.values[0])  # each die on its first face as printed
