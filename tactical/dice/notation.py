"""Dice notation of all five systems (G.2, docs/architecture.md `tactical roll`).

An expression is terms joined by `+` and `-` (spaces and case ignored):

- `NdX` / `dX` — N dice numbered 1..X (`2d6`, `1D10` read 1-10); `d3` is a d6
  halved and rounded up (G.2); `NdXz` reads 0..X-1 (`1d10z`, R000.1);
- `ND` — a Star Wars D6 die code of N dice; with whole-number terms it is pip
  arithmetic, normalised before rolling (`5D+2`, `2D+2+1D+2` = `4D+1`, R004.1);
- `dX` step dice alone (`d8`, `d12+d4`) are a Cortex roll: the result
  reports a botch when every die shows 1 (R003.5); `+Nstep` / `-Nstep`
  steps the one die type written right before it up or down (`d8+2step` =
  d12, `d12+1step` = d12+d2, `d8+d6-1step` = d8+d4, R003.1, R003.2). A die
  type of several dice (R003.1: d12+d2 is one die type, step 7) is written in
  brackets to step it: `(d12+d2)-2step` = d10. Unbracketed, a modifier after
  a die that follows a d12 (`d12+d2-2step`) could mean either and is refused,
  naming both spellings (`(d12+d2)-2step`, or `d2-2step+d12` for the d2 alone);
- a whole number adds (or subtracts) a constant.

Die codes do not mix with other dice, and step modifiers apply to step dice
only. Every die is rolled through a `Dice` source, so `roll_expression` both
rolls (seeded, recorded) and, under `expression_odds`, enumerates exactly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Literal

from tactical.dice.core import D3, D6, Dice, Die, DieStep, numbered_die
from tactical.dice.cortex import STEP_SIDES, StepDie, is_botch
from tactical.dice.d6codes import DieCode
from tactical.dice.exact import DEFAULT_MAX_NODES, Distribution, TooManyOutcomes, enumerate_outcomes
from tactical.errors import UserError

MAX_DICE = 100
MAX_SIDES = 1000
EXPECTED = "terms like 2d6, 1d10z, d3, 5D+2, d12+d4, d8+1step, (d12+d2)-2step, joined by + or -"
_OPEN = re.compile(r"(?P<sign>[+-]?)\(")

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
    group: int = 0  # the bracketed die type a die belongs to / a step modifier applies to


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
        if any(t.group for t in terms):
            _brackets_error(text)
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
    if any(t.group for t in terms):
        _brackets_error(text)
    return _plain_expression(text, terms)


def _scan(text: str, compact: str) -> list[_Term]:
    if not compact:
        raise UserError(f"empty dice expression: expected {EXPECTED}", spec_id="G.2")
    terms: list[_Term] = []
    position = 0
    groups = 0
    open_group = 0  # the bracket being read (0: none)
    closed_group = 0  # the bracket that just closed (a step modifier may follow it)
    group_sign = 0
    while position < len(compact):
        opening = _OPEN.match(compact, position)
        if opening:
            if open_group or (terms and not opening.group("sign")):
                _unreadable(text, compact, position)
            groups += 1
            open_group, closed_group = groups, 0
            group_sign = -1 if opening.group("sign") == "-" else 1
            position = opening.end()
            continue
        if compact[position] == ")":
            if not open_group or not terms or terms[-1].group != open_group:
                _unreadable(text, compact, position)
            open_group, closed_group = 0, open_group
            position += 1
            continue
        match = _TERM.match(compact, position)
        first_in_group = open_group and (not terms or terms[-1].group != open_group)
        if (
            not match
            or match.end() == position
            or (terms and not match.group("sign") and not first_in_group)
            or (first_in_group and match.group("sign"))
        ):
            _unreadable(text, compact, position)
        sign = group_sign if first_in_group else (-1 if match.group("sign") == "-" else 1)
        if match.group("sides") is not None:
            count = int(match.group("count") or 1)
            sides = int(match.group("sides"))
            if not 1 <= count <= MAX_DICE or not 2 <= sides <= MAX_SIDES:
                raise UserError(
                    f"dice expression {text!r}: {match.group(0).lstrip('+-')} needs 1 to "
                    f"{MAX_DICE} dice of 2 to {MAX_SIDES} sides",
                    spec_id="G.2",
                )
            terms.append(
                _Term(sign, "dice", count, sides, bool(match.group("zero")), group=open_group)
            )
        elif match.group("steps") is not None and not open_group:
            if closed_group:
                target = closed_group
            elif terms and terms[-1].kind in ("dice", "step") and not terms[-1].group:
                target = 0
            else:
                raise UserError(
                    f"dice expression {text!r}: a step modifier must follow a die", spec_id="R003.2"
                )
            terms.append(_Term(sign, "step", steps=int(match.group("steps")), group=target))
        elif match.group("code") is not None and not open_group:
            terms.append(_Term(sign, "code", count=int(match.group("code"))))
        elif match.group("number") is not None and not open_group:
            terms.append(_Term(sign, "number", count=int(match.group("number"))))
        else:
            _brackets_error(text)
        if terms[-1].kind != "step":
            closed_group = 0
        position = match.end()
    if open_group:
        raise UserError(f"dice expression {text!r}: a bracket is not closed", spec_id="R003.2")
    return terms


def _unreadable(text: str, compact: str, position: int) -> None:
    raise UserError(
        f"cannot read dice expression {text!r} at {compact[position:]!r}: expected {EXPECTED}",
        spec_id="G.2",
    )


def _brackets_error(text: str) -> None:
    raise UserError(
        f"dice expression {text!r}: brackets hold one Cortex die type of several step dice, "
        "e.g. (d12+d2)-2step",
        spec_id="R003.2",
    )


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
    """R003.1/R003.2: one StepDie per die (or bracketed die type), modifiers applied to it."""
    steps: list[StepDie] = []
    group_sides: list[int] = []
    for index, term in enumerate(terms):
        if term.kind == "dice" and term.group:
            group_sides.append(term.sides)
            ends = index + 1 == len(terms) or terms[index + 1].group != term.group
            if ends or terms[index + 1].kind == "step":
                steps.append(StepDie.from_sides(tuple(group_sides)))
                group_sides = []
        elif term.kind == "dice":
            steps.append(StepDie.from_sides((term.sides,)))
        else:
            if not term.group:
                _refuse_ambiguous_step(text, terms, index)
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


def _refuse_ambiguous_step(text: str, terms: list[_Term], index: int) -> None:
    """R003.1 makes d12+d2 one die type (step 7) as well as two dice: a step modifier after a
    die that follows an unbracketed d12 could step either, so the spelling must say which."""
    die = index - 1
    while terms[die].kind == "step":
        die -= 1
    before = terms[die - 1] if die > 0 else None
    if before is None or before.kind != "dice" or before.group or before.sides != 12:
        return
    end = index
    while end < len(terms) and terms[end].kind == "step" and not terms[end].group:
        end += 1
    modifier = text_of_steps(terms[die + 1 : end])
    single = f"d{terms[die].sides}"
    first = die
    while first > 0 and terms[first - 1].kind == "dice" and terms[first - 1].sides == 12:
        first -= 1
    chain = ["d12"] * (die - first)
    joined = "+".join([*chain, single])
    raise UserError(
        f"dice expression {text!r} is ambiguous: write ({joined}){modifier} to step the die "
        f"type {joined}, or {single}{modifier}+{'+'.join(chain)} to step the {single} alone",
        spec_id="R003.2",
    )


def text_of_steps(terms: list[_Term]) -> str:
    """'+1step' / '-2step' for step modifier terms."""
    return "".join(f"{'-' if t.sign < 0 else '+'}{t.steps}step" for t in terms)


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
    key = _total_and_ones if expression.reports_botch else _total_only
    start = _Progress(expression.constant, (), True)
    final = dice.fold(start, _expression_steps(expression, who), key=key)
    botch = is_botch(final.results) if expression.reports_botch else None
    return ExpressionRoll(expression, final.results, final.total, botch)


@lru_cache(maxsize=64)
def _expression_steps(expression: Expression, who: str) -> tuple[DieStep, ...]:
    """A step per die of the expression, each a die added to the sum (`DieStep`: the exact
    enumerator convolves the sum with the die instead of replaying the step). Made once
    per expression: the enumerator replays `roll_expression` once per total."""

    def step_for(index: int, sign: int, die: Die) -> DieStep:
        def then(progress: _Progress, value: int) -> _Progress:
            return _Progress(
                progress.total + sign * value,
                (*progress.results, value),
                progress.all_ones and value == 1,
            )

        shift = shift_ones(sign) if expression.reports_botch else shift_total(sign)
        return DieStep(die, then, who, f"{expression.normalised} die {index}", shift)

    return tuple(step_for(index, sign, die) for index, (sign, die) in enumerate(expression.dice, 1))


def shift_total(sign: int):
    """The key of `_total_only` after a die (`DieStep.shift`): the total plus the die."""
    if sign > 0:
        return lambda total, value: total + value
    return lambda total, value: total - value


def shift_ones(sign: int):
    """The key of `_total_and_ones` after a die: the total and whether all are ones."""
    return lambda slot, value: (slot[0] + sign * value, slot[1] and value == 1)


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
