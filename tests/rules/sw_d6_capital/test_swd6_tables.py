"""Tables T004.1-T004.20 cell by cell, and R004.4 (difficulty names)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tactical.errors import UserError
from tactical.rules.sw_d6_capital import RULE_SYSTEM, movement, tables
from tactical.rules.sw_d6_capital.tables import (
    BLAZING_HULK,
    DESTROYED,
    EXPLODES,
    HEAVY,
    LIGHT,
    NO_CHANGE,
    NO_EFFECT,
    NONE,
    ONE_STEP,
    REPAIRED,
    SEVERE,
    SHIELDS_1D,
    SHIELDS_DRAINED,
    STRUCTURAL_DAMAGE,
)


def test_T004_1_turn_sequence_and_orderings():
    assert [(name, rule, order) for name, rule, order in tables.TURN_SEQUENCE] == [
        ("Initiative", "R004.11", None),
        ("Command", "R004.15", "lowest-first"),
        ("Damage Control", "R004.19", None),
        ("Action", "R004.25", "highest-first"),
        ("Movement", "R004.50", "lowest-first"),
    ]
    assert RULE_SYSTEM.phases == ("Initiative", "Command", "Damage Control", "Action", "Movement")


def test_T004_2_orders():
    steady, evasive, full = (tables.ORDER_TABLE[o] for o in tables.ORDERS)
    assert (steady.title, steady.fighter_title) == ("Steady As She Goes", "Fly Casual")
    assert (steady.adds_ship_defence, steady.difficulty_bonus, steady.map_dice) == (False, 0, 0)
    assert (evasive.adds_ship_defence, evasive.difficulty_bonus, evasive.map_dice) == (True, 0, 1)
    assert (full.adds_ship_defence, full.difficulty_bonus, full.map_dice) == (True, 10, 2)
    assert (steady.may_fire, evasive.may_fire, full.may_fire) == (True, True, False)
    assert tables.incoming_difficulty(15, "steady", 14) == 15
    assert tables.incoming_difficulty(15, "evasive", 14) == 29
    assert tables.incoming_difficulty(15, "full-evasion", 14) == 39


# T004.2a exactly as printed: margin -> pips
T004_2A = {
    -9: -3, -8: -2, -7: -2, -6: -2, -5: -1, -3: -1, -2: 0, -1: 0,
    0: 0, 2: 0, 3: 1, 5: 1, 6: 2, 9: 3, 12: 4, 13: 4,
}  # fmt: skip


@pytest.mark.parametrize(("margin", "pips"), sorted(T004_2A.items()))
def test_T004_2a_command_tracker_cells(margin, pips):
    assert tables.command_tracker(margin) == pips


@given(st.integers(-60, 60))
def test_T004_2a_one_pip_per_full_three_points(margin):
    pips = tables.command_tracker(margin)
    assert abs(pips) == abs(margin) // 3
    assert pips == 0 or (pips > 0) == (margin > 0)


def test_T004_3_damage_states():
    rows = {level: tables.DAMAGE_STATES[level] for level in (LIGHT, HEAVY, SEVERE, DESTROYED)}
    assert [rows[lvl].crew_penalty for lvl in (LIGHT, HEAVY, SEVERE)] == [1, 2, 3]
    assert [rows[lvl].repair_difficulty for lvl in (LIGHT, HEAVY, SEVERE)] == [10, 20, 30]
    assert [rows[lvl].passenger_damage for lvl in (LIGHT, HEAVY, SEVERE, DESTROYED)] == [
        1,
        3,
        6,
        12,
    ]
    assert rows[LIGHT].casualties == (1, 0, 0)
    assert rows[HEAVY].casualties == (3, 2, 1)
    assert rows[SEVERE].casualties == (6, 4, 2)
    assert tables.SHIELD_REPAIR_DIFFICULTY == 10
    # "Difficulties stack: Lightly Damaged + 2D of shields = 30"
    assert tables.repair_difficulty(LIGHT, 6) == 30
    assert tables.repair_difficulty(None, 11) == 40  # 3D+2 -> 4 started dice (A004.12)
    assert tables.crew_penalty_dice(NONE) == 0


@pytest.mark.parametrize(
    ("roll", "damage", "shields", "prefer", "outcome"),
    [
        (20, True, False, "damage", REPAIRED),
        (19, True, False, "damage", ONE_STEP),
        (10, True, False, "damage", ONE_STEP),  # failing by exactly 10 (A004.13)
        (9, True, False, "damage", NO_CHANGE),  # by 11
        (15, True, True, "shields", SHIELDS_1D),
        (15, True, True, "damage", ONE_STEP),
        (15, False, True, "damage", SHIELDS_1D),
        (5, False, True, "damage", NO_CHANGE),
    ],
)
def test_T004_4_damage_control_outcome(roll, damage, shields, prefer, outcome):
    assert tables.damage_control_outcome(roll, 20, damage, shields, prefer) == outcome


def test_T004_4_strict_reading_of_success():
    assert tables.damage_control_outcome(20, 20, True, False, meet_or_beat=False) == ONE_STEP


@pytest.mark.parametrize(
    ("band", "battery", "cap"),
    [
        ("point-blank", 12, 12),
        ("short", 12, 9),
        ("medium", 12, 6),
        ("long", 12, 3),
        ("long", 6, 0),  # floor 0D
        ("short", 11, 8),  # 3D+2 -> 2D+2 (X004.15)
    ],
)
def test_T004_5_battery_caps(band, battery, cap):
    assert tables.battery_damage_cap(battery, band) == cap


def test_T004_5_deck_limitation_takes_the_minimum_A004_38():
    assert tables.battery_damage_cap(12, "point-blank", 6) == 6
    assert tables.battery_damage_cap(12, "long", 6) == 3


@pytest.mark.parametrize(
    ("margin", "result"),
    [
        (-1, NO_EFFECT),
        (0, SHIELDS_DRAINED),
        (3, SHIELDS_DRAINED),
        (4, LIGHT),
        (8, LIGHT),
        (9, HEAVY),
        (12, HEAVY),
        (13, SEVERE),
        (15, SEVERE),
        (16, DESTROYED),
        (40, DESTROYED),
    ],
)
def test_T004_6_capital_damage_chart(margin, result):
    assert tables.capital_damage_result(margin) == result


def test_T004_7_lightly_damaged_rows():
    rows = [(e.face, e.code, e.dice, e.moves) for e in tables.LIGHT_EFFECTS]
    assert rows == [
        (1, "maneuverability", 1, 1),
        (2, "sensors-damaged", 0, 0),
        (3, "weapons-damaged", 1, 0),
        (4, "hyperdrive-damaged", 0, 0),
        (5, "shields-blown", 1, 0),
        (6, "engines-damaged", 0, 1),
    ]
    sensors = tables.effect_entry(LIGHT, 2)
    assert [tables.sub_effect(sensors, f) for f in range(1, 7)] == [("sensor-suite", 1)] * 3 + [
        ("fire-control", 1)
    ] * 3


def test_T004_8_heavily_damaged_rows():
    rows = [(e.face, e.code, e.dice, e.moves) for e in tables.HEAVY_EFFECTS]
    assert rows == [
        (1, "maneuverability", 2, 2),
        (2, "sensors-damaged", 0, 0),
        (3, "weapons-badly-damaged", 0, 0),
        (4, "hyperdrive-damaged", 0, 0),
        (5, "shields-blown", 2, 0),
        (6, "engines-damaged", 0, 2),
    ]
    sensors = tables.effect_entry(HEAVY, 2)
    assert [tables.sub_effect(sensors, f) for f in (1, 3, 4, 6)] == [
        ("sensor-suite", 2),
        ("sensor-suite", 2),
        ("fire-control", 2),
        ("fire-control", 2),
    ]
    weapons = tables.effect_entry(HEAVY, 3)
    assert [tables.sub_effect(weapons, f)[0] for f in range(1, 7)] == [
        "weapons-inoperative"
    ] * 3 + ["weapons-destroyed"] * 3


def test_T004_9_severely_damaged_rows():
    rows = [(e.face, e.code) for e in tables.SEVERE_EFFECTS]
    assert rows == [
        (1, "dead-in-space"),
        (2, "overloaded-reactor"),
        (3, "disabled-hyperdrive"),
        (4, "disabled-weapons"),
        (5, "controls-damaged"),
        (6, "sensors-destroyed"),
    ]
    assert tables.effect_entry(SEVERE, 5).dice == 3  # -3D to all skill rolls
    assert tables.effect_entry(SEVERE, 6).dice == 4  # Fire Control -4D
    disabled = tables.effect_entry(SEVERE, 4)
    assert [tables.sub_effect(disabled, f)[0] for f in range(1, 7)] == [
        "weapons-severely-damaged"
    ] * 4 + ["all-weapons-destroyed"] * 2


def test_T004_10_catastrophic_damage():
    assert [tables.catastrophic_result(f) for f in range(1, 7)] == [STRUCTURAL_DAMAGE] * 3 + [
        BLAZING_HULK
    ] * 2 + [EXPLODES]


T004_11 = {  # current -> (Lightly, Heavily, Severely, Destroyed)
    NONE: (LIGHT, HEAVY, SEVERE, DESTROYED),
    LIGHT: (HEAVY, HEAVY, SEVERE, DESTROYED),
    HEAVY: (SEVERE, SEVERE, SEVERE, DESTROYED),
    SEVERE: (DESTROYED, DESTROYED, DESTROYED, DESTROYED),
}


@pytest.mark.parametrize("current", list(T004_11))
def test_T004_11_escalation_cells(current):
    """A004.16: Lightly + Lightly -> Heavily (the LIGHT row)."""
    news = (LIGHT, HEAVY, SEVERE, DESTROYED)
    assert tuple(tables.escalate(current, new) for new in news) == T004_11[current]


def test_T004_11_drained_and_ionization_never_change_the_level():
    assert tables.escalate(HEAVY, SHIELDS_DRAINED) == HEAVY
    assert tables.escalate(LIGHT, "ionization") == LIGHT


def test_T004_12_targeted_locations():
    expected = {
        "manoeuvring": (1, 1, 5),
        "sensors": (2, 2, 6),
        "weapons": (3, 3, 4),
        "hyperdrive": (4, 4, 3),
        "shields": (5, 5, 2),
        "engines": (6, 6, 1),
    }
    for location, faces in expected.items():
        assert tuple(tables.location_face(location, lvl) for lvl in (LIGHT, HEAVY, SEVERE)) == (
            faces
        )
    assert tables.effect_entry(SEVERE, tables.location_face("manoeuvring", SEVERE)).code == (
        "controls-damaged"
    )
    assert tables.effect_entry(SEVERE, tables.location_face("shields", SEVERE)).code == (
        "overloaded-reactor"
    )
    assert tables.effect_entry(SEVERE, tables.location_face("engines", SEVERE)).code == (
        "dead-in-space"
    )


@pytest.mark.parametrize(
    ("lost", "limit"),
    [
        (0, "all-out"),
        (1, "high"),
        (2, "cruising"),
        (3, "cautious"),
        (4, "stationary"),
        (6, "stationary"),
    ],
)
def test_T004_13_lost_moves(lost, limit):
    assert tables.lost_moves_limit(lost) == limit
    assert tables.drives_destroyed(lost) == (lost >= 5)


def test_T004_14_speeds_match_the_movement_rules():
    assert tables.SPEED_MULTIPLIERS == movement.SPEED_MULTIPLIERS
    assert tables.SPEED_MULTIPLIERS["all-out"] == 4.0
    assert tables.CAPITAL_MAX_TURN["cautious"] == movement.SLOW_TURN == 90.0
    assert tables.CAPITAL_MAX_TURN["high"] == movement.FAST_TURN == 45.0


@pytest.mark.parametrize(
    ("margin", "dice"),
    [(0, 1), (4, 1), (5, 2), (8, 2), (9, 3), (12, 3), (13, 4), (16, 4), (17, 5), (20, 5), (21, 6),
     (24, 6), (25, 7), (28, 7), (29, 8)],
)  # fmt: skip
def test_T004_15_ionization_chart(margin, dice):
    assert tables.ionization_dice(margin) == dice


def test_T004_15b_controls_dead_degree():
    assert [tables.controls_dead_degree(d) for d in range(1, 10)] == [
        None,
        None,
        None,
        None,
        LIGHT,
        HEAVY,
        SEVERE,
        DESTROYED,
        DESTROYED,
    ]


def test_T004_16_unit_sizes():
    assert tables.UNIT_SIZES == {
        "single": (1, 0),
        "element": (2, 3),
        "section": (3, 5),
        "flight": (4, 6),
        "squadron": (12, 9),
    }


@pytest.mark.parametrize(
    ("margin", "result", "loss"),
    [
        (-1, NO_EFFECT, 0),
        (0, "disrupted", 0),
        (3, "disrupted", 0),
        (4, "light-losses", 1),
        (8, "light-losses", 1),
        (9, "heavy-losses", 2),
        (12, "heavy-losses", 2),
        (13, "severe-losses", 3),
        (15, "severe-losses", 3),
        (16, "catastrophic-losses", 4),
    ],
)
def test_T004_17_unit_damage_chart(margin, result, loss):
    assert tables.unit_damage_result(margin) == (result, loss)


T004_18 = [
    (1, 19, 1), (20, 39, 2), (40, 59, 3), (60, 79, 4), (80, 99, 5),
    (100, 279, 6), (280, 459, 7), (460, 639, 8), (640, 819, 9), (820, 999, 10),
    (1_000, 2_799, 11), (2_800, 4_599, 12), (4_600, 6_399, 13), (6_400, 8_199, 14),
    (8_200, 9_999, 15), (10_000, 27_999, 16), (28_000, 45_999, 17), (46_000, 63_999, 18),
    (64_000, 81_999, 19), (82_000, 99_999, 20), (100_000, 189_999, 21),
    (190_000, 279_999, 22), (280_000, 369_999, 23), (370_000, 459_999, 24),
    (460_000, 549_999, 25), (550_000, 639_999, 26), (640_000, 729_999, 27),
    (730_000, 819_999, 28), (820_000, 909_999, 29), (910_000, 999_999, 30),
]  # fmt: skip


@pytest.mark.parametrize(("low", "high", "difficulty"), T004_18)
def test_T004_18_command_difficulty_rows(low, high, difficulty):
    assert tables.command_difficulty(low) == difficulty
    assert tables.command_difficulty(high) == difficulty


def test_T004_18_heroic_and_bad_crew():
    """A004.29: Heroic "31 and up" is 31 for any crew of 1,000,000 or more."""
    assert tables.command_difficulty(1_000_000) == 31
    assert tables.command_difficulty(5_000_000) == 31
    with pytest.raises(UserError, match="crew"):
        tables.command_difficulty(0)


def test_T004_19_range_difficulty_defaults():
    assert tables.RANGE_DIFFICULTY_DEFAULTS == {
        "point-blank": 5,
        "short": 10,
        "medium": 15,
        "long": 20,
    }
    options = RULE_SYSTEM.options({})
    assert [options[f"range_{b}"] for b in ("point_blank", "short", "medium", "long")] == [
        5,
        10,
        15,
        20,
    ]


def test_T004_20_repair_actions_cap():
    # ND+P -> N actions; max DC roll (2N)D+P; MAP -(1 + a)D
    assert tables.max_repair_actions(17) == 5  # 5D+2
    assert tables.max_repair_actions(10) == 3  # 3D+1 (A004.10)
    assert tables.max_repair_actions(2) == 0
    assert tables.damage_control_map(0) == 1
    assert tables.damage_control_map(5) == 6


@pytest.mark.parametrize(
    ("value", "name"),
    [(1, "very-easy"), (5, "very-easy"), (6, "easy"), (10, "easy"), (11, "moderate"),
     (15, "moderate"), (16, "difficult"), (20, "difficult"), (21, "very-difficult"),
     (30, "very-difficult"), (31, "heroic"), (45, "heroic")],
)  # fmt: skip
def test_R004_4_difficulty_names(value, name):
    assert tables.difficulty_name(value) == name


def test_R004_4_named_difficulty_is_the_top_of_its_band():
    assert tables.named_difficulty("easy") == 10
    assert tables.named_difficulty("moderate") == 15
    assert tables.named_difficulty("heroic") == 31
    with pytest.raises(UserError) as error:
        tables.named_difficulty("trivial")
    assert error.value.spec_id == "R004.4"


def test_R004_5_success_meets_or_beats():
    assert tables.succeeds(15, 15)
    assert not tables.succeeds(14, 15)
    assert not tables.succeeds(15, 15, meet_or_beat=False)
    assert tables.succeeds(16, 15, meet_or_beat=False)
