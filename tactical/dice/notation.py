"""Dice notation of all five systems (G.2, DESIGN.md `tactical roll`).

An expression is terms joined by `+` and `-` (spaces and case ignored):

- `NdX` / `dX` — N dice numbered 1..X (`2d6`, `1D10` read 1-10); `d3` is a d6
  halved and rounded up (G.2); `NdXz` reads 0..X-1 (`1d10z`, R000.1);
- `ND` — a Star Wars D6 die code of N dice; with whole-number terms it is pip
  arithmetic, normalised before rolling (`5D+2`, `2D+2+1D+2` = `4D+1`, R004.1);
- `dX` step dice alone (`d8`, `d12+d4`) are a Cortex roll: the result
  reports a botch when every die shows 1 (R003.5); `+Nstep` / `-Nstep`
  after a die steps it up or down (`d8+2step` = d12, `d12+1step` = d12+d2,
  R003.1, R003.2);
- a whole number adds (or subtracts) a constant.

Die codes do not mix with other dice, and step modifiers apply to step dice
only. Every die is rolled through a `Dice` source, so `roll_expression` both
rolls (seeded, recorded) and, under `expression_odds`, enumerates exactly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from tactical.dice.core import D3, D6, Dice, Die, numbered_die
from tactical.dice.cortex import STEP_SIDES, StepDie, is_botch
from tactical.dice.d6codes import DieCode
from tactical.dice.exact import DEFAULT_MAX_NODES, Distribution, TooManyOutcomes, enumerate_outcomes
from tactical.errors import UserError

MAX_DICE = 100
MAX_SIDES = 1000
EXPECTED = "terms like 2d6, 1d10z, d3, 5D+2, d12+d4, d8+1step, joined by + or -"

_TERM = re.compile(
    r"(?P<sign>[+-]?)(?:"
    r"(?P<count>\d*)d(?P<sides>\d+)(?P<zero>z?)(?![a-z\d])"
    r"|(?P<code>\d+)d(?![a-z\d])"
    r"|(?P<steps>\d+)steps?(?![a-z\d])"
    r"|(?P<number>\d+)(?![a-z\d])"
    r")"
)

Kind = Literal["plain", "die-code", "cortex"]


@dataclass(frozen=True)
class Expression:
    """A parsed expression: one (sign, die) per physical die, plus a constant."""

    text: str
    kind: Kind
    dice: tuple[tuple[int, Die], ...]
    constant: int
    normalised: str

    @property
    def reports_botch(self) -> bool:
        return self.kind == "cortex"


@dataclass(frozen=True)
class ExpressionRoll:
    """One roll of an expression: each die's result in order, the total, and the botch flag.

    `botch` is None unless the expression is a Cortex roll (R003.5).
    """

    expression: Expression
    results: tuple[int, ...]
    total: int
    botch: bool | None

    @property
    def summary(self) -> tuple[int, bool | None]:
        return self.total, self.botch


@dataclass(frozen=True)
class _Term:
    sign: int
    kind: str
    count: int = 0
    sides: int = 0
    zero: bool = False
    steps: int = 0


def parse_expression(text: str) -> Expression:
    """Read an expression (see the module docstring); a UserError says what is wrong."""
    lowered = re.sub(r"(\d)\s+(steps?)\b", r"\1\2", text.lower())
    if re.search(r"[a-z\d]\s+[a-z\d]", lowered):
        raise UserError(
            f"cannot read dice expression {text!r}: terms must be joined by + or - "
            f"(expected {EXPECTED})",
            spec_id="G.2",
        )
    compact = re.sub(r"\s+", "", lowered)
    terms = _scan(text, compact)
    codes = [t for t in terms if t.kind == "code"]
    dice = [t for t in terms if t.kind == "dice"]
    if codes and dice:
        raise UserError(
            f"dice expression {text!r} mixes a D6 die code with other dice: "
            "write die codes alone (5D+2) or dice alone (2d6+1)",
            spec_id="R004.1",
        )
    if codes:
        return _die_code_expression(text, terms)
    cortex = (
        dice
        and all(t.kind in ("dice", "step") for t in terms)
        and all(t.count == 1 and t.sides in STEP_SIDES and not t.zero and t.sign > 0 for t in dice)
    )
    if any(t.kind == "step" for t in terms) and not cortex:
        raise UserError(
            f"dice expression {text!r}: step modifiers apply to Cortex step dice only "
            "(single d2..d12 added together, e.g. d8+d6+1step)",
            spec_id="R003.2",
        )
    if cortex:
        return _cortex_expression(text, terms)
    return _plain_expression(text, terms)


def _scan(text: str, compact: str) -> list[_Term]:
    if not compact:
        raise UserError(f"empty dice expression: expected {EXPECTED}", spec_id="G.2")
    terms: list[_Term] = []
    position = 0
    while position < len(compact):
        match = _TERM.match(compact, position)
        if not match or match.end() == position or (terms and not match.group("sign")):
            raise UserError(
                f"cannot read dice expression {text!r} at {compact[position:]!r}: "
                f"expected {EXPECTED}",
                spec_id="G.2",
            )
        sign = -1 if match.group("sign") == "-" else 1
        if match.group("sides") is not None:
            count = int(match.group("count") or 1)
            sides = int(match.group("sides"))
            if not 1 <= count <= MAX_DICE or not 2 <= sides <= MAX_SIDES:
                raise UserError(
                    f"dice expression {text!r}: {match.group(0).lstrip('+-')} needs 1 to "
                    f"{MAX_DICE} dice of 2 to {MAX_SIDES} sides",
                    spec_id="G.2",
                )
            terms.append(_Term(sign, "dice", count, sides, bool(match.group("zero"))))
        elif match.group("code") is not None:
            terms.append(_Term(sign, "code", count=int(match.group("code"))))
        elif match.group("steps") is not None:
            if not terms or terms[-1].kind != "dice":
                raise UserError(
                    f"dice expression {text!r}: a step modifier must follow a die", spec_id="R003.2"
                )
            terms.append(_Term(sign, "step", steps=int(match.group("steps"))))
        else:
            terms.append(_Term(sign, "number", count=int(match.group("number"))))
        position = match.end()
    return terms


def _die_code_expression(text: str, terms: list[_Term]) -> Expression:
    code = DieCode(0)
    for term in terms:
        pips = 3 * term.count if term.kind == "code" else term.count
        code = code + term.sign * pips
    if not code.rollable:
        raise UserError(
            f"dice expression {text!r} comes to {code}: a die code of 0 pips or fewer "
            "cannot be rolled",
            spec_id="R004.1",
        )
    if code.dice > MAX_DICE:
        raise UserError(f"dice expression {text!r}: at most {MAX_DICE}D", spec_id="R004.1")
    return Expression(text, "die-code", ((1, D6),) * code.dice, code.plus, str(code))


def _cortex_expression(text: str, terms: list[_Term]) -> Expression:
    steps: list[StepDie] = []
    for term in terms:
        if term.kind == "dice":
            steps.append(StepDie.from_sides((term.sides,)))
        else:
            steps[-1] = steps[-1].up(term.sign * term.steps)
    dice = tuple((1, die) for step in steps for die in step.dice)
    if not dice:
        raise UserError(
            f"dice expression {text!r} steps every die below d2: nothing to roll",
            spec_id="R003.1",
        )
    if len(dice) > MAX_DICE:
        raise UserError(f"dice expression {text!r}: at most {MAX_DICE} dice", spec_id="R003.1")
    normalised = "+".join(die.name for _, die in dice)
    return Expression(text, "cortex", dice, 0, normalised)


def _plain_expression(text: str, terms: list[_Term]) -> Expression:
    dice: list[tuple[int, Die]] = []
    constant = 0
    parts: list[str] = []
    for term in terms:
        if term.kind == "number":
            constant += term.sign * term.count
            continue
        die = (
            D3
            if term.sides == 3 and not term.zero
            else numbered_die(term.sides, zero_based=term.zero)
        )
        dice.extend([(term.sign, die)] * term.count)
        parts.append(f"{'-' if term.sign < 0 else '+'}{term.count}{die.name}")
    if len(dice) > MAX_DICE:
        raise UserError(f"dice expression {text!r}: at most {MAX_DICE} dice", spec_id="G.2")
    if not dice:
        raise UserError(f"dice expression {text!r} has no dice: expected {EXPECTED}", spec_id="G.2")
    if constant:
        parts.append(f"{constant:+d}")
    normalised = "".join(parts).lstrip("+")
    return Expression(text, "plain", tuple(dice), constant, normalised)


# --------------------------------------------------------------------------- rolling


@dataclass(frozen=True, slots=True)
class _Progress:
    total: int
    results: tuple[int, ...]
    all_ones: bool


def roll_expression(expression: Expression, dice: Dice, *, who: str = "") -> ExpressionRoll:
    """Roll every die of the expression through `dice` (each roll recorded by the source)."""

    def step_for(index: int, sign: int, die: Die):
        def step(progress: _Progress, source: Dice) -> _Progress:
            value = source.roll(die, who=who, what=f"{expression.normalised} die {index}")
            return _Progress(
                progress.total + sign * value,
                (*progress.results, value),
                progress.all_ones and value == 1,
            )

        return step

    steps = [step_for(index, sign, die) for index, (sign, die) in enumerate(expression.dice, 1)]
    key = _total_and_ones if expression.reports_botch else _total_only
    final = dice.fold(_Progress(expression.constant, (), True), steps, key=key)
    botch = is_botch(final.results) if expression.reports_botch else None
    return ExpressionRoll(expression, final.results, final.total, botch)


def _total_and_ones(progress: _Progress) -> tuple[int, bool]:
    return progress.total, progress.all_ones


def _total_only(progress: _Progress) -> int:
    return progress.total


def expression_odds(expression: Expression) -> Distribution[tuple[int, bool | None]]:
    """Exact distribution of (total, botch) from `roll_expression` itself, sorted by total."""
    width = 1
    work = 0
    for _, die in expression.dice:
        work += width * die.sides
        width += die.high - die.low
    if work * 2 > DEFAULT_MAX_NODES:
        raise TooManyOutcomes(
            f"exact odds of {expression.normalised!r} would take about {work} steps; "
            "use fewer or smaller dice",
            spec_id="G.2",
        )
    distribution = enumerate_outcomes(lambda dice: roll_expression(expression, dice).summary)
    return distribution.sorted(key=lambda summary: (summary[0], bool(summary[1])))


def mean(distribution: Distribution[tuple[int, bool | None]]) -> Fraction:
    """The expected total of an expression's distribution."""
    return distribution.expected(lambda summary: summary[0])
