"""Star Wars D6 die codes `ND+P` with pip arithmetic (R004.1, R004.2)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tactical.errors import UserError

_CODE = re.compile(r"^\s*([0-9]+)\s*[dD]\s*(?:([+-])\s*([0-9]+))?\s*$")
# R004.1: far beyond any ship's code (a Star Destroyer's heaviest is about 10D), well short
# of what would make a roll, or its exact odds, take long
MAX_CODE_DICE = 100


@dataclass(frozen=True, order=True, slots=True)
class DieCode:
    """A die code held as pips: ND+P = 3N+P (R004.1, "3 pips = 1D").

    Sums and differences are taken in pips and shown normalised, P in {0,1,2}:
    2D+2 + 1D+2 = 4D+1.
    """

    pips: int

    @classmethod
    def of(cls, dice: int, plus: int = 0) -> DieCode:
        return cls(3 * dice + plus)

    @classmethod
    def parse(cls, text: str) -> DieCode:
        """'5D+2', '3D', '2D-1' -> DieCode (normalised on the way in)."""
        match = _CODE.match(text)
        if not match:
            raise UserError(
                f"cannot read die code {text!r}: expected ND or ND+P such as 5D+2",
                spec_id="R004.1",
            )
        dice, sign, plus = match.groups()
        if len(dice) > 4 or len(plus or "") > 4 or int(dice) + int(plus or 0) // 3 > MAX_CODE_DICE:
            raise UserError(
                f"die code {text.strip()[:20]!r} is too large: at most {MAX_CODE_DICE}D",
                spec_id="R004.1",
            )
        pips = int(plus or 0) * (-1 if sign == "-" else 1)
        return cls(3 * int(dice) + pips)

    @property
    def dice(self) -> int:
        return max(self.pips, 0) // 3

    @property
    def plus(self) -> int:
        return max(self.pips, 0) % 3

    @property
    def rollable(self) -> bool:
        """R004.1: a code of 0 pips or fewer cannot be rolled."""
        return self.pips > 0

    def __add__(self, other: DieCode | int) -> DieCode:
        extra = other.pips if isinstance(other, DieCode) else int(other)
        return DieCode(self.pips + extra)

    def __sub__(self, other: DieCode | int) -> DieCode:
        extra = other.pips if isinstance(other, DieCode) else int(other)
        return DieCode(self.pips - extra)

    def __str__(self) -> str:
        if self.pips <= 0:
            return f"{self.pips} pips"
        return f"{self.dice}D+{self.plus}" if self.plus else f"{self.dice}D"
