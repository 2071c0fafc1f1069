"""Die codes as the Command Deck uses them (R004.1-R004.9, R004.33).

`roll_code` rolls `ND+P` as N d6 plus P (R004.2, no Wild Die) through a
`Dice.fold` whose key is the running sum, so the exact enumerator merges equal
sums: a 12D roll costs 12 steps of at most 67 states instead of 6^12 leaves.
When only the fact of the roll matters (passenger damage, a GM baseline), the
key is constant and the whole roll is one state.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tactical.dice import D6, Dice, DieCode
from tactical.dice.core import DieStep
from tactical.errors import UserError
from tactical.rules.base import Event
from tactical.rules.sw_d6_capital.tables import FIGHTER_SCALE_PIPS, PIPS_PER_DIE


def parse_code(text: str, where: str = "die code") -> DieCode:
    """'5D+2' -> DieCode; a UserError naming `where` otherwise (R004.1)."""
    if isinstance(text, DieCode):
        return text
    try:
        return DieCode.parse(str(text))
    except UserError:
        raise UserError(
            f"{where}: cannot read die code {text!r}: expected ND or ND+P such as 5D+2",
            spec_id="R004.1",
        ) from None


def code_text(pips: int) -> str:
    """A die code's normalised text; '0D' for zero and '-1D+1' style for negatives."""
    if pips == 0:
        return "0D"
    if pips < 0:
        return "-" + code_text(-pips)
    dice, plus = divmod(pips, PIPS_PER_DIE)
    return f"{dice}D+{plus}" if plus else f"{dice}D"


@dataclass(frozen=True, slots=True)
class CodeRoll:
    """One die code rolled: the code (pips), each d6 face, and the total (faces + pips)."""

    pips: int
    faces: tuple[int, ...]
    total: int

    @property
    def code(self) -> str:
        return code_text(self.pips)

    def event(self, who: str, what: str, spec_id: str = "R004.2", **extra: object) -> Event:
        return Event.of(
            "roll",
            spec_id,
            who=who,
            what=what,
            code=self.code,
            faces=self.faces,
            total=self.total,
            **extra,
        )


def _sum_key(state: tuple[tuple[int, ...], int]) -> int:
    return state[1]


def _no_key(state: tuple[tuple[int, ...], int]) -> int:
    return 0


def roll_code(
    pips: int | DieCode, dice: Dice, *, who: str = "", what: str = "", exact: bool = True
) -> CodeRoll:
    """R004.2: roll ND+P = N d6 + P. A code of 0 pips or less cannot be rolled (R004.1): its
    result is 0 with no dice. `exact=False` when nothing depends on the total."""
    pips = pips.pips if isinstance(pips, DieCode) else int(pips)
    if pips <= 0:
        return CodeRoll(pips, (), 0)
    count, plus = divmod(pips, PIPS_PER_DIE)
    if count == 0:
        return CodeRoll(pips, (), plus)

    # a die added to the total: the exact enumerator convolves instead of replaying it
    one_die = DieStep(D6, _add_face, who, what, _plus if exact else _nothing)
    faces, total = dice.fold(((), 0), [one_die] * count, key=_sum_key if exact else _no_key)
    return CodeRoll(pips, faces, total + plus)


def _add_face(state: tuple[tuple[int, ...], int], face: int) -> tuple[tuple[int, ...], int]:
    return (*state[0], face), state[1] + face


def _plus(total: int, face: int) -> int:
    """`_sum_key` after a die (`DieStep.shift`)."""
    return total + face


def _minus(margin: int, face: int) -> int:
    return margin - face


def _nothing(_key: int, _face: int) -> int:
    """`_no_key` after a die."""
    return 0


def roll_opposed(
    first: int,
    second: int,
    dice: Dice,
    *,
    who: tuple[str, str] = ("", ""),
    what: tuple[str, str] = ("", ""),
) -> tuple[CodeRoll, CodeRoll]:
    """Two die codes rolled against each other (R004.34: Damage vs Resistance) as one fold
    keyed by the difference of the totals, so the enumerator merges every pair of rolls
    with the same margin (12D vs 10D: 22 steps of at most ~130 states)."""
    first, second = max(first, 0), max(second, 0)
    counts = (first // PIPS_PER_DIE, second // PIPS_PER_DIE)

    def die_of(side: int) -> DieStep:
        def then(state, face: int):
            faces, margin = state
            updated = list(faces)
            updated[side] = (*faces[side], face)
            return tuple(updated), margin + (face if side == 0 else -face)

        # a die added to (or taken from) the margin: convolved, not replayed
        return DieStep(D6, then, who[side], what[side], _plus if side == 0 else _minus)

    steps = [die_of(0)] * counts[0] + [die_of(1)] * counts[1]
    (faces_a, faces_b), _margin = dice.fold((((), ()), 0), steps, key=lambda state: state[1])
    return (
        CodeRoll(first, faces_a, sum(faces_a) + first % PIPS_PER_DIE if first > 0 else 0),
        CodeRoll(second, faces_b, sum(faces_b) + second % PIPS_PER_DIE if second > 0 else 0),
    )


# --------------------------------------------------------------------------- derived values


def initiative_code(tactics: DieCode, sensors: DieCode, rounding: str = "half-pips") -> DieCode:
    """R004.7: (Captain Tactics + Crew Sensors) / 2.

    "half-pips" (A004.1, adopted): ceil(pips / 2), normalised — 4D + 5D = 27 pips -> 14 =
    4D+2. "odd-dice" (the alternative): halve the dice and round up to whole dice, 9D -> 5D.
    """
    total = tactics.pips + sensors.pips
    if rounding == "half-pips":
        return DieCode(math.ceil(total / 2))
    if rounding == "odd-dice":
        return DieCode(PIPS_PER_DIE * math.ceil(total / (2 * PIPS_PER_DIE)))
    raise UserError(
        f"unknown initiative rounding {rounding!r}: expected 'half-pips' or 'odd-dice'",
        spec_id="A004.1",
    )


def ship_defence(maneuverability: DieCode, cso: DieCode, fighter: bool = False) -> int:
    """R004.8 / R004.9: normalise(Maneuverability + CSO) = ND+P -> 2N+P for capital ships,
    3N+P for starfighters and freighters (A004.7: 6D+3 is 7D -> 14)."""
    total = maneuverability + cso
    per_die = 3 if fighter else 2
    return per_die * total.dice + total.plus


def scaled_damage(damage: DieCode, attacker_scale: DieCode, target_scale: DieCode) -> DieCode:
    """R004.33 / A004.19: Damage + (attacker scale - target scale), a full die code with pips.
    A result of 0 pips or less does no damage."""
    return DieCode(damage.pips + attacker_scale.pips - target_scale.pips)


def fighter_unit_scale(strength_pips: int, base_scale: DieCode | None = None) -> DieCode:
    """R004.54 / R004.55: a fighter unit's Scale = the fighters' Scale (6D) + current Strength."""
    base = base_scale.pips if base_scale is not None else FIGHTER_SCALE_PIPS
    return DieCode(base + strength_pips)
