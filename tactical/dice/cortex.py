"""Cortex step dice (SPEC §4.1): step index <-> dice, step up/down, botch detection."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tactical.dice.core import Die, numbered_die
from tactical.errors import UserError

STEP_SIDES = (2, 4, 6, 8, 10, 12)  # step 1 = d2 ... step 6 = d12 (T003.1)
_STEP_OF_SIDES = {sides: index for index, sides in enumerate(STEP_SIDES, start=1)}
D12 = numbered_die(12)


def step_of_sides(sides: int) -> int:
    """The step index of a single die: d2 -> 1 ... d12 -> 6 (R003.1)."""
    if sides not in _STEP_OF_SIDES:
        raise UserError(
            f"d{sides} is not a Cortex step die: expected one of "
            + ", ".join(f"d{s}" for s in STEP_SIDES),
            spec_id="R003.1",
        )
    return _STEP_OF_SIDES[sides]


@dataclass(frozen=True, order=True, slots=True)
class StepDie:
    """A Cortex die type as its step index `s` (R003.1).

    1..6 are d2..d12; from 7 on, floor(s/6) d12s plus d(2*(s mod 6)) when
    s mod 6 > 0 (7 = d12+d2, 12 = d12+d12, 13 = d12+d12+d2); s <= 0 is no die.
    """

    step: int

    @property
    def dice(self) -> tuple[Die, ...]:
        if self.step <= 0:
            return ()
        if self.step <= 6:
            return (numbered_die(STEP_SIDES[self.step - 1]),)
        twelves, rest = divmod(self.step, 6)
        extra = (numbered_die(2 * rest),) if rest else ()
        return (D12,) * twelves + extra

    @property
    def name(self) -> str:
        return "+".join(die.name for die in self.dice) or "no die"

    def up(self, steps: int = 1) -> StepDie:
        """Stepped up by `steps` (R003.2; a negative count steps down)."""
        return StepDie(self.step + steps)

    def down(self, steps: int = 1) -> StepDie:
        """Stepped down by `steps` (R003.2)."""
        return StepDie(self.step - steps)

    def __str__(self) -> str:
        return self.name

    @classmethod
    def from_sides(cls, sides: Sequence[int]) -> StepDie:
        """'d12+d4' given as (12, 4): any number of d12s then at most one smaller step die."""
        if not sides:
            return cls(0)
        *twelves, last = sides
        if any(s != 12 for s in twelves):
            raise UserError(
                "a Cortex step die is d12s followed by at most one smaller die, not "
                + "+".join(f"d{s}" for s in sides),
                spec_id="R003.1",
            )
        return cls(6 * len(twelves) + step_of_sides(last))


def is_botch(results: Sequence[int]) -> bool:
    """R003.5: a botch is every die rolled showing 1 (no dice rolled is no botch)."""
    return bool(results) and all(value == 1 for value in results)
