"""Dice notation of all five systems: NdX, 1d10z, D3, D6 die codes (R004.1), Cortex (R003.1)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tactical.dice import (
    DieCode,
    ScriptedDice,
    SeededDice,
    StepDie,
    expression_odds,
    is_botch,
    parse_expression,
    roll_expression,
)
from tactical.errors import UserError


def test_plain_dice_and_constants():
    expression = parse_expression("2d6 + 1")
    assert expression.kind == "plain"
    assert expression.normalised == "2d6+1"
    rolled = roll_expression(expression, ScriptedDice([3, 4]))
    assert (rolled.results, rolled.total, rolled.botch) == ((3, 4), 8, None)
    assert roll_expression(parse_expression("2d6-1d4"), ScriptedDice([6, 6, 3])).total == 9


def test_d10_read_zero_to_nine_R000_1():
    expression = parse_expression("1d10z")
    odds = expression_odds(expression)
    assert [total for total, _ in odds.outcomes] == list(range(10))
    assert roll_expression(expression, ScriptedDice([0])).total == 0
    assert parse_expression("1D10").dice[0][1].values == tuple(range(1, 11))


def test_d3_is_a_halved_d6_G2():
    odds = expression_odds(parse_expression("d3"))
    assert odds.as_dict() == {
        (1, None): Fraction(1, 3),
        (2, None): Fraction(1, 3),
        (3, None): Fraction(1, 3),
    }


def test_die_code_pip_arithmetic_R004_1():
    """R004.1: 3 pips = 1D; 3D+2 + 3D = 6D+2; 2D+2 + 1D+2 = 3D+4 -> 4D+1."""
    assert str(DieCode.parse("3D+2") + DieCode.parse("3D")) == "6D+2"
    assert str(DieCode.parse("2D+2") + DieCode.parse("1D+2")) == "4D+1"
    assert str(DieCode.parse("4D") - 1) == "3D+2"
    assert not (DieCode.parse("1D") - 3).rollable
    expression = parse_expression("2D+2+1D+2")
    assert (expression.kind, expression.normalised, len(expression.dice), expression.constant) == (
        "die-code",
        "4D+1",
        4,
        1,
    )
    assert parse_expression("5D-1").normalised == "4D+2"


def test_die_code_of_zero_pips_cannot_be_rolled_R004_1():
    with pytest.raises(UserError, match=r"R004\.1"):
        parse_expression("1D-3")


def test_die_code_rolls_n_d6_plus_pips_R004_2():
    rolled = roll_expression(parse_expression("5D+2"), ScriptedDice([1, 2, 3, 4, 5]))
    assert rolled.total == 17
    odds = expression_odds(parse_expression("5D+2"))
    assert odds.outcomes[0][0] == 7 and odds.outcomes[-1][0] == 32
    assert odds.probability((7, None)) == Fraction(1, 6**5)


def test_cortex_step_dice_R003_1():
    """R003.1: 1..6 = d2..d12; 7 = d12+d2; 12 = d12+d12; 13 = d12+d12+d2; <= 0 no die."""
    assert StepDie(1).name == "d2"
    assert StepDie(6).name == "d12"
    assert StepDie(7).name == "d12+d2"
    assert StepDie(12).name == "d12+d12"
    assert StepDie(13).name == "d12+d12+d2"
    assert StepDie(0).dice == ()
    assert StepDie.from_sides((12, 4)) == StepDie(8)
    with pytest.raises(UserError, match=r"R003\.1"):
        StepDie.from_sides((8, 6))


def test_cortex_step_up_and_down_R003_2():
    assert StepDie(4).up(2).name == "d12"
    assert StepDie(6).up().name == "d12+d2"
    assert StepDie(2).down(3).dice == ()
    assert parse_expression("d8+2step").normalised == "d12"
    assert parse_expression("d12+1step").normalised == "d12+d2"
    assert parse_expression("d8+d6-1step").normalised == "d8+d4"
    with pytest.raises(UserError, match=r"R003\.1"):
        parse_expression("d4-3steps")
    with pytest.raises(UserError, match=r"R003\.2"):
        parse_expression("2d6+1step")


def test_R003_2_a_die_type_of_several_dice_is_stepped_in_brackets():
    """R003.1/R003.2: d12+d2 is one die type (step 7); stepped down twice it is d10 (the
    StepDie), written (d12+d2)-2step; unbracketed after a d12 the modifier is ambiguous."""
    assert parse_expression("(d12+d2)-2step").normalised == StepDie(7).down(2).name == "d10"
    assert parse_expression("d6+(d12+d12+d4)+1step").normalised == "d6+d12+d12+d6"
    assert parse_expression("d2-2step+d12").normalised == "d12"
    with pytest.raises(UserError, match=r"ambiguous.*\(d12\+d2\)-2step.*d2-2step\+d12"):
        parse_expression("d12+d2-2step")
    for bad in ("(2d6)", "(5D)+1", "((d8))", "(d8", "d8)", "(d8+d6)", "-(d8)"):
        with pytest.raises(UserError):
            parse_expression(bad)


def test_cortex_botch_every_die_a_one_R003_5():
    expression = parse_expression("d12+d4")
    assert expression.kind == "cortex"
    assert roll_expression(expression, ScriptedDice([1, 1])).botch is True
    assert roll_expression(expression, ScriptedDice([1, 2])).botch is False
    odds = expression_odds(expression)
    assert odds.where(lambda s: bool(s[1])) == Fraction(1, 48)
    assert is_botch((1, 1, 1)) and not is_botch(()) and not is_botch((1, 2))


@pytest.mark.parametrize(
    "text",
    ["", "2x", "d", "2d6 3", "5D+d6", "1d1", "101d6", "2d6++1", "d6steps", "+"],
)
def test_bad_expressions_say_what_is_wrong(text):
    with pytest.raises(UserError) as caught:
        parse_expression(text)
    assert caught.value.spec_id in ("G.2", "R004.1", "R003.2", "R003.1")


def test_odds_come_from_the_rolling_code_and_sum_to_one():
    for text in ("3d6", "1d10z+1", "4D+1", "d12+d2", "2d6-1d4"):
        odds = expression_odds(parse_expression(text))
        assert odds.total == 1
    three = expression_odds(parse_expression("3d6"))
    assert three.probability((10, None)) == Fraction(27, 216)
    assert three.expected(lambda s: s[0]) == Fraction(21, 2)


def test_seeded_expression_roll_is_repeatable():
    expression = parse_expression("10d10")
    first = roll_expression(expression, SeededDice(5))
    second = roll_expression(expression, SeededDice(5))
    assert first == second
    assert len(first.results) == 10
