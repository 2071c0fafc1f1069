"""Dice: seeded and scripted sources that record every roll, notation, and exact odds.

See `core` (sources and the `Dice` protocol), `exact` (enumeration into a
`Distribution` with exact fractions), `notation` (the five systems' dice
expressions), `cortex` (step dice, R003.1) and `d6codes` (die codes, R004.1).
"""

from tactical.dice.core import (
    D3,
    D6,
    D10,
    D10Z,
    Dice,
    Die,
    RecordingDice,
    Roll,
    ScriptedDice,
    ScriptError,
    SeededDice,
    numbered_die,
)
from tactical.dice.cortex import StepDie, is_botch
from tactical.dice.d6codes import DieCode
from tactical.dice.exact import (
    Distribution,
    TooManyOutcomes,
    enumerate_outcomes,
    fold_outcomes,
    fraction_text,
    percent,
)
from tactical.dice.notation import (
    Expression,
    ExpressionRoll,
    expression_odds,
    parse_expression,
    roll_expression,
)

__all__ = [
    "D3",
    "D6",
    "D10",
    "D10Z",
    "Dice",
    "Die",
    "DieCode",
    "Distribution",
    "Expression",
    "ExpressionRoll",
    "RecordingDice",
    "Roll",
    "ScriptError",
    "ScriptedDice",
    "SeededDice",
    "StepDie",
    "TooManyOutcomes",
    "enumerate_outcomes",
    "expression_odds",
    "fold_outcomes",
    "fraction_text",
    "is_botch",
    "numbered_die",
    "parse_expression",
    "percent",
    "roll_expression",
]
