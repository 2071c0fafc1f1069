"""Tables T000.1-T000.6 cell by cell against their formulas; GEO000.1-GEO000.4."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tactical.rules.battlefleet_mars.tables import (
    NO_EFFECT,
    ciws_destroys,
    ciws_strength,
    ciws_threshold,
    damage_result,
    destroys,
    half_up,
    laser_damage_total,
    laser_hits,
    lp_cost,
    max_range,
    missile_damage_total,
    range_bracket,
    range_units,
    to_hit_threshold,
)

LS_COLUMNS = (6, 5, 4, 3, 2, 1, 0)

# T000.1 as printed in SPEC §1.3 (range 11 down to 0; "-" = cannot hit)
T000_1 = {
    11: "9 9 - - - - -",
    10: "8 8 9 9 - - -",
    9: "7 7 8 8 9 9 -",
    8: "6 6 7 7 8 8 9",
    7: "5 5 6 6 7 7 8",
    6: "4 4 5 5 6 6 7",
    5: "3 3 4 4 5 5 6",
    4: "2 2 3 3 4 4 5",
    3: "1 1 2 2 3 3 4",
    2: "0 0 1 1 2 2 3",
    1: "0 0 0 0 1 1 2",
    0: "0 0 0 0 0 0 1",
}

# T000.2 as printed: total -> (v. Ship/Ftr/Msl, v. Base)
T000_2 = {
    -2: ("-", "-"),
    -1: ("B1", "-"),
    0: ("L1", "-"),
    1: ("B1", "L1"),
    2: ("L1", "L1"),
    3: ("iL", "iL"),
    4: ("R", "R"),
    5: ("L2", "L1"),
    6: ("B2", "L2"),
    7: ("L3", "L2"),
    8: ("B3", "L3"),
    9: ("L4", "L3"),
    10: ("B4", "L4"),
    11: ("D", "D"),
}

# T000.3 as printed: missile k -> max score per CS column 6..0
T000_3 = {
    1: "9 8 7 6 5 4 3",
    2: "8 7 6 5 4 3 2",
    3: "7 6 5 4 3 2 1",
    4: "6 5 4 3 2 1 0",
    5: "5 4 3 2 1 0 0",
    6: "4 3 2 1 0 0 0",
    7: "3 2 1 0 0 0 0",
    8: "2 1 0 0 0 0 0",
    9: "1 0 0 0 0 0 0",
    10: "0 0 0 0 0 0 0",
}


def _cell(text: str) -> int | None:
    return None if text == "-" else int(text)


@pytest.mark.parametrize("range_r", sorted(T000_1))
def test_T000_1_every_cell_is_R000_5(range_r):
    """R000.7: T000.1 is exactly R000.5 for R 11..0, LS 6..0 (84 cells).

    A000.3: the printed minimum score is N = R - ceil(LS/2) + 1, a negative N shown as 0.
    """
    printed = [_cell(c) for c in T000_1[range_r].split()]
    computed = [to_hit_threshold(range_r, ls) for ls in LS_COLUMNS]
    assert computed == printed


def test_R000_4_greater_than_agrees_with_the_threshold_form_R000_5():
    """A000.3: "score greater than R - ceil(LS/2)" and "minimum score N" are the same rule."""
    for ls in range(7):
        for range_r in range(15):
            needed = to_hit_threshold(range_r, ls)
            for roll in range(10):
                expected = needed is not None and roll >= needed
                assert laser_hits(roll, range_r, ls) is expected


def test_R000_4_half_strength_rounds_up():
    assert [half_up(ls) for ls in range(7)] == [0, 1, 1, 2, 2, 3, 3]


@pytest.mark.parametrize("total", sorted(T000_2))
def test_T000_2_every_cell(total):
    """A000.4: the non-monotonic table is reproduced as printed (B/L alternate, iL/R at 3/4)."""
    ship, base = T000_2[total]
    assert damage_result(total, "ship") == ship
    assert damage_result(total, "base") == base


def test_T000_2_edges_R000_9_A000_5():
    """11+ is D in both columns; below -2 (unreachable) is treated as no effect."""
    assert damage_result(15, "ship") == damage_result(15, "base") == "D"
    assert damage_result(-3, "ship") == damage_result(-7, "base") == NO_EFFECT
    assert "B1" not in {damage_result(t, "base") for t in range(-2, 12)}  # R000.12 observation


@pytest.mark.parametrize("k", sorted(T000_3))
def test_T000_3_every_cell_is_R000_22(k):
    printed = [int(c) for c in T000_3[k].split()]
    assert [ciws_threshold(cs, k) for cs in LS_COLUMNS] == printed


def test_T000_3_nth_row_stays_at_zero():
    assert all(ciws_threshold(cs, k) == 0 for cs in range(7) for k in range(10, 40))
    with pytest.raises(ValueError):
        ciws_threshold(3, 0)


def test_T000_4_derived_range_limits_R000_6():
    expected = {
        6: (3, 11, 3, 15),
        5: (3, 11, 2, 14),
        4: (2, 10, 1, 13),
        3: (2, 10, 0, 12),
        2: (1, 9, -1, 11),
        1: (1, 9, -2, 10),
        0: (0, 8, -2, 9),
    }
    for ls, (half, reach, lowest, highest) in expected.items():
        assert half_up(ls) == half
        assert max_range(ls) == reach
        assert to_hit_threshold(reach, ls) == 9
        assert to_hit_threshold(reach + 1, ls) is None
        assert laser_damage_total(0, ls, reach) == lowest
        assert laser_damage_total(9, ls, 0) == highest


def test_T000_5_effect_by_target_type_R000_10_R000_11_R000_12():
    """A000.12: "an L result" destroying missiles is any of L1-L4 (iL, R and D also destroy)."""
    fighter_killers = {"iL", "R", "D"}
    missile_killers = {"L1", "L2", "L3", "L4", "iL", "R", "D"}
    for code in ("-", "B1", "B2", "B3", "B4", "L1", "L2", "L3", "L4", "iL", "R", "D"):
        assert destroys(code, "fighter") is (code in fighter_killers)
        assert destroys(code, "missile") is (code in missile_killers)
        assert destroys(code, "ship") is None
        assert destroys(code, "base") is None


def test_T000_6_logistics_conversion_R000_15():
    assert lp_cost(3, 0) == 1 and lp_cost(0, 6) == 1
    assert lp_cost(4, 0) == 2  # A000.10: whole LP, unused capacity lost
    assert lp_cost(3, 7) == 3
    assert lp_cost(1, 1, "fractional") == Fraction(1, 3) + Fraction(1, 6)


def test_R000_8_damage_total_and_R000_13_missile_total():
    assert laser_damage_total(5, 4, 7) == 5 + 4 - 2
    assert [missile_damage_total(d) for d in range(10)] == list(range(1, 11))
    assert "D" not in {damage_result(missile_damage_total(d), "ship") for d in range(10)}


def test_R000_20_ciws_strength_never_below_zero():
    assert ciws_strength(6) == 6
    assert ciws_strength(0) == 0
    assert ciws_strength(-2) == 0


def test_R000_22_threshold_zero_still_kills_on_zero_A000_6():
    assert ciws_destroys(0, 0, 4)
    assert not ciws_destroys(1, 0, 4)


def test_GEO000_1_range_units_rounding():
    assert range_units(0.0) == 0
    assert range_units(0.99) == 0
    assert range_units(3.0) == 3
    assert range_units(2.9999999999) == 3  # float noise at a whole unit
    assert range_units(11.99) == 11
    assert range_units(7.0, 2.0) == 3
    assert range_units(3.2, rounding="ceil") == 4
    assert range_units(3.0, rounding="ceil") == 3
    assert range_units(3.5, rounding="nearest") == 4
    assert range_units(3.49, rounding="nearest") == 3
    with pytest.raises(ValueError):
        range_units(1.0, rounding="up")


def test_GEO000_2_range_brackets():
    assert [range_bracket(r) for r in range(12)] == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]


def test_GEO000_4_range_twelve_is_out_of_reach_for_every_strength():
    assert all(to_hit_threshold(r, ls) is None for ls in range(7) for r in range(12, 20))


@given(st.floats(min_value=0, max_value=200), st.floats(min_value=0.1, max_value=12))
def test_range_units_floor_brackets_the_distance(distance, unit):
    r = range_units(distance, unit)
    assert r * unit <= distance + 1e-6
    assert distance < (r + 1) * unit + 1e-6
