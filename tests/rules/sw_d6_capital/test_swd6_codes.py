"""D6 die codes and Command Deck values: R004.1-R004.9, R004.33 (and R004.54's scale)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from swd6_builders import ship

from tactical.dice import DieCode, ScriptedDice, SeededDice, enumerate_outcomes
from tactical.errors import UserError
from tactical.rules.sw_d6_capital.codes import (
    code_text,
    fighter_unit_scale,
    initiative_code,
    parse_code,
    roll_code,
    roll_opposed,
    scaled_damage,
    ship_defence,
)
from tactical.rules.sw_d6_capital.condition import initial_condition
from tactical.rules.sw_d6_capital.deck import deck_of, parse_ranges, range_band

D = DieCode.parse


def test_R004_1_pips_and_normalisation():
    assert D("3D+2").pips == 11
    assert str(D("3D+2") + D("3D")) == "6D+2"
    assert str(D("2D+2") + D("1D+2")) == "4D+1"
    assert code_text(14) == "4D+2"
    assert code_text(0) == "0D"
    assert code_text(-4) == "-1D+1"
    assert not DieCode(0).rollable and not DieCode(-3).rollable


def test_R004_1_bad_code_is_a_user_error():
    with pytest.raises(UserError) as error:
        parse_code("five dice", "hull")
    assert error.value.spec_id == "R004.1" and "hull" in error.value.message


def test_R004_2_rolling_sums_dice_and_adds_pips():
    roll = roll_code(D("3D+2"), ScriptedDice([6, 1, 4]), who="isd", what="test")
    assert roll.faces == (6, 1, 4) and roll.total == 13
    event = roll.event("isd", "test")
    assert event.spec_id == "R004.2" and event.get("code") == "3D+2"


def test_R004_1_code_of_no_pips_cannot_be_rolled():
    roll = roll_code(0, ScriptedDice([]))
    assert roll.total == 0 and roll.faces == ()
    assert roll_code(2, ScriptedDice([])).total == 2  # 0D+2 rolls no dice


def test_R004_3_minus_one_die_is_three_pips():
    assert (D("5D+1") - D("2D")).pips == D("3D+1").pips  # X004.9's CSO
    assert str(D("4D") - 3) == "3D"


@given(st.integers(1, 30), st.integers(0, 10_000))
def test_R004_2_roll_total_is_faces_plus_pips(pips, seed):
    roll = roll_code(pips, SeededDice(seed))
    assert len(roll.faces) == pips // 3
    assert roll.total == sum(roll.faces) + pips % 3
    assert all(1 <= face <= 6 for face in roll.faces)


def test_R004_2_exact_distribution_of_a_code():
    odds = enumerate_outcomes(lambda dice: roll_code(D("2D+1"), dice).total)
    assert odds.probability(3) == Fraction(1, 36)
    assert odds.probability(8) == Fraction(6, 36)
    assert odds.total == 1


@given(st.integers(0, 12), st.integers(0, 12), st.integers(0, 1_000))
def test_R004_34_opposed_rolls_give_each_total(first, second, seed):
    a, b = roll_opposed(first, second, SeededDice(seed))
    assert a.total == (sum(a.faces) + first % 3 if first else 0)
    assert b.total == (sum(b.faces) + second % 3 if second else 0)
    assert (len(a.faces), len(b.faces)) == (first // 3, second // 3)


def test_R004_34_opposed_margin_distribution_is_exact():
    margin = enumerate_outcomes(lambda dice: _margin(roll_opposed(6, 3, dice)))
    # 2D - 1D: P(margin = 11) = P(6,6 vs 1) = 1/216
    assert margin.probability(11) == Fraction(1, 216)
    assert margin.probability(-4) == Fraction(1, 216)  # 1+1 vs 6
    assert margin.total == 1


def _margin(rolls):
    return rolls[0].total - rolls[1].total


def test_R004_6_cso_is_the_capital_ship_operation_code():
    deck = deck_of(ship("isd", 0, 0, cso="5D+1"))
    assert deck.cso == D("5D+1")
    assert initial_condition(deck).current_cso(deck, 1) == 16


@pytest.mark.parametrize(
    ("tactics", "sensors", "rounding", "expected"),
    [
        ("4D", "5D", "half-pips", "4D+2"),  # 27 pips / 2 = 13.5 -> 14 (A004.1)
        ("4D", "5D", "odd-dice", "5D"),  # 9D / 2 -> 5D
        ("3D+1", "3D", "half-pips", "3D+1"),  # 19 / 2 -> 10 pips
        ("4D", "4D", "half-pips", "4D"),
    ],
)
def test_R004_7_initiative_code(tactics, sensors, rounding, expected):
    assert str(initiative_code(D(tactics), D(sensors), rounding)) == expected


def test_R004_7_initiative_from_the_deck():
    deck = deck_of(ship("c", 0, 0, tactics="4D", sensors="5D"))
    assert str(deck.initiative_code()) == "4D+2"
    assert str(deck.initiative_code("odd-dice")) == "5D"
    assert (
        str(deck_of(ship("d", 0, 0, initiative="5D", tactics="1D", sensors="1D")).initiative_code())
        == "5D"
    )
    with pytest.raises(UserError) as error:
        initiative_code(D("1D"), D("1D"), "banker")
    assert error.value.spec_id == "A004.1"


def test_R004_8_capital_ship_defence():
    assert ship_defence(D("1D"), D("5D+2")) == 14  # 6D+2 -> 2 x 6 + 2 (X004.5)
    assert ship_defence(D("2D+2"), D("4D+1")) == 14  # 6D+3 normalised to 7D -> 14 (A004.7)
    assert deck_of(ship("isd", 0, 0, maneuverability="1D", cso="5D+2")).ship_defence == 14


def test_R004_9_fighter_ship_defence():
    assert ship_defence(D("3D"), D("3D+2"), fighter=True) == 20  # X004.6
    fighter = ship("x", 0, 0, scale="starfighter", maneuverability="3D", cso="3D+2")
    assert deck_of(fighter).ship_defence == 20


def test_R004_33_scale_difference():
    assert str(scaled_damage(D("6D"), D("12D"), D("10D"))) == "8D"  # X004.16
    assert str(scaled_damage(D("9D"), D("6D"), D("12D"))) == "3D"  # X004.17
    assert scaled_damage(D("3D"), D("6D"), D("12D")).pips == -9  # no damage (A004.19)
    assert str(scaled_damage(D("5D"), D("7D+2"), D("12D"))) == "0D+2"


def test_R004_54_fighter_unit_scale():
    assert str(fighter_unit_scale(5)) == "7D+2"  # Section of TIE Interceptors (X004.18)
    assert str(fighter_unit_scale(9)) == "9D"  # Squadron of Y-wings
    squadron = deck_of(ship("y", 0, 0, scale="starfighter", unit_size="squadron"))
    assert squadron.is_unit and squadron.initial_strength == 9


def test_GEO004_2_weapon_ranges_and_bands():
    ranges = parse_ranges("3-15/35/75")
    assert ranges == (3.0, 15.0, 35.0, 75.0)
    assert range_band(ranges, 2.9) == "point-blank"
    assert range_band(ranges, 3) == "short"
    assert range_band(ranges, 15) == "short"
    assert range_band(ranges, 15.01) == "medium"
    assert range_band(ranges, 75) == "long"
    assert range_band(ranges, 75.5) is None
    for bad in ("3-15/35", "15-3/35/75", "x"):
        with pytest.raises(UserError) as error:
            parse_ranges(bad)
        assert error.value.spec_id == "GEO004.2"
