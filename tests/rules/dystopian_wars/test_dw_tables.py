"""The tables of seed 002 (T002.1-T002.12), checked cell by cell against the SPEC."""

from __future__ import annotations

import pytest
from dw_builders import refused

from tactical.rules.dystopian_wars import tables
from tactical.rules.dystopian_wars.tables import (
    DIVING,
    FLYING,
    OBSCURED,
    SURFACE_LAND,
    SURFACE_NAVAL,
)


def test_T002_1_field_orders():
    orders = tables.FIELD_ORDERS
    assert sorted(orders) == [1, 2, 3, 4, 5, 6]
    assert (orders[1].share, orders[1].all_of) == (0.70, None)
    assert (orders[2].share, orders[2].all_of, orders[2].destroy_only) == (
        None,
        "large+massive",
        True,
    )
    assert (orders[3].share, orders[3].all_of) == (0.50, "medium")
    assert (orders[4].share, orders[4].all_of) == (None, "core-force")
    assert (orders[5].share, orders[5].all_of) == (0.50, "small")
    assert (orders[6].all_of, orders[6].capture_only) == ("fleet-commodore", True)
    assert "70%" in orders[1].text and "Medium" in orders[3].text and "Small" in orders[5].text
    assert "Capture the Fleet Commodore" in orders[6].text
    assert tables.DEFAULT_FIELD_ORDER == 1
    for roll in range(1, 7):
        assert tables.field_order(roll).number == roll
    with refused("T002.1"):
        tables.field_order(7)


def test_T002_2_tournament_limits():
    assert tables.TOURNAMENT_LIMITS == {
        "large+massive": 0.70,
        "medium": 0.70,
        "small": 0.40,
        "not-core-force": 0.50,
    }


def test_T002_3_fleet_commodore_options():
    options = tables.COMMODORE_OPTIONS
    assert [(o.option, o.reroll, o.within) for o in options.values()] == [
        ("a", "treacherous-terrain", 8.0),
        ("b", "critical-vs-enemy", 8.0),
        ("c", "critical-vs-own-commodore", None),
        ("d", "damage-repair", 8.0),
    ]


def test_T002_4_measurement_reference_points():
    points = tables.MEASUREMENT_POINTS
    assert points["naval"] == tables.MeasurementPoints("side-centre", "centre", "centre")
    assert points["armoured"] == tables.MeasurementPoints("front-corner", "edge", "centre")
    assert points["aerial"] == tables.MeasurementPoints("stand-front", "centre", "centre")
    assert points["rocket-battery"].batteries == "turret"


def test_T002_5_squadron_activation_sequence():
    steps = [(s.segment, s.step) for s in tables.ACTIVATION_SEQUENCE]
    assert steps == [
        ("Command", "1"),
        ("Movement", "2a"),
        ("Movement", "2b"),
        ("Combat", "3a"),
        ("Combat", "3b"),
        ("Combat", "3c"),
        ("Combat", "3d"),
        ("Boarding", "4"),
        ("Morale", "5"),
    ]
    assert tables.COMBAT_STEPS == (
        ("3b-ack-ack", False),
        ("3b-concussion", False),
        ("3c-i", True),
        ("3c-ii", True),
        ("3c-iii", False),
        ("3d", False),
    )


@pytest.mark.parametrize(
    ("row", "cells"),
    [
        ("tesla-coils", ("yes", "yes", "rb1", "rb1", "rb1")),
        ("rocket", ("yes", "yes", "rb1", "rb1", "rb1")),
        ("torpedo", ("yes", "no", "rb1-naval", "no", "rb1-naval")),
        ("auxiliary", ("no", "no", "rb1", "rb1", "rb1")),
    ],
)
def test_T002_6_target_permissions(row, cells):
    columns = (SURFACE_NAVAL, SURFACE_LAND, DIVING, FLYING, OBSCURED)
    raw = tables.TARGET_PERMISSIONS[row]
    assert [tables.permission(row, c) for c in columns] == list(cells)
    # the cells the booklet leaves to the base rules are marked so (external defaults)
    assert all(
        raw[c] == "base"
        for c, cell in zip(columns, cells, strict=True)
        if cell in ("yes", "no") and row != "torpedo"
    )
    assert tables.INDIRECT_FIRE_BANDS == ("RB3", "RB4") and tables.SPOTTER_RANGE == 32.0


@pytest.mark.parametrize(
    ("roll", "effects", "hard"),
    [
        (1, (), False),
        (2, ("chaos-and-disarray",), False),
        (3, ("chaos-and-disarray",), False),
        (4, ("chaos-and-disarray", "shredded-defences"), False),
        (5, ("chaos-and-disarray", "shredded-defences"), False),
        (6, ("chaos-and-disarray", "shredded-defences"), True),
    ],
)
def test_T002_7_ultrasonic_pulverising_generator(roll, effects, hard):
    result = tables.ultrasonic_result(roll)
    assert (result.effects, result.hard_pounding) == (effects, hard)


def test_T002_7_bad_roll():
    with refused("T002.7"):
        tables.ultrasonic_result(0)


def test_T002_8_tesla_generator():
    assert [tables.tesla_effect(r) for r in range(1, 7)] == [False] * 4 + [True] * 2
    assert tables.TESLA_REROLL_DOUBLES == (1, 6)
    with refused("T002.8"):
        tables.tesla_effect(7)


@pytest.mark.parametrize(
    ("kind", "needed"),
    [
        ("gunnery", 4),
        ("ack-ack", 4),
        ("concussion", 4),
        ("rocket", 5),
        ("torpedo", 5),
        ("bomb", None),
        ("mines", None),
    ],
)
def test_T002_9_guardian_saves(kind, needed):
    assert tables.guardian_save(kind) == needed


def test_T002_10_generators_summary():
    rows = {r.generator: r for r in tables.GENERATORS_SUMMARY}
    assert set(rows) == {"tesla", "tesla (alt)", "ultrasonic", "kinetic", "guardian"}
    assert "1D3" in rows["tesla"].effect and "1D6" in rows["kinetic"].effect
    assert "270" in rows["ultrasonic"].reach and "8" in rows["guardian"].reach
    assert tables.GENERATOR_RANGE == 8.0
    assert (tables.TESLA_BOOST_DIE, tables.KINETIC_BOOST_DIE) == (3, 6)


def test_T002_11_wing_sizes():
    assert tables.WING_SIZES == {
        "fighter": (3, 5),
        "dive-bomber": (3, 5),
        "torpedo-bomber": (3, 5),
        "recon": (1, 1),
    }
    assert tables.WING_FUEL == 6 and tables.WING_REACH == 4.0


def test_T002_12_collision_matrix():
    assert tables.COLLISIONS == {
        "water": {"soft": "collides", "dense": "collides"},
        "land": {"soft": "passes", "dense": "collides"},
        "air": {"soft": "passes", "dense": "collides (height permitting)"},
    }


def test_R002_36_weapon_classes():
    assert tables.ORDNANCE == ("gunnery", "rocket", "torpedo", "bomb")
    assert tables.AUXILIARY == ("ack-ack", "concussion")
    assert tables.WEAPON_CLASS["mines"] == "mines"
    assert tables.WEAPON_CLASS["bomb"] == "ordnance"
    assert tables.WEAPON_CLASS["concussion"] == "auxiliary"
