"""Turning rules from the rule systems: Dystopian Wars (R002.11-R002.13, R002.30-R002.35,
R002.45, R002.48, T002.12) and Star Wars D6 capital ships (R004.39, R004.50, R004.51, X004.21)."""

from __future__ import annotations

import pytest

from tactical.errors import UserError
from tactical.geometry.movement import parse_path, plan_path
from tactical.geometry.movement_spec import Pivot
from tactical.model import (
    FrozenMap,
    MovementClass,
    Pose,
    RectBase,
    SizeClass,
    Terrain,
    Unit,
)
from tactical.rules import registry

DW = registry.get("dystopian-wars")
SW = registry.get("sw-d6-capital")


def dw_unit(movement=MovementClass.NAVAL, **stats) -> Unit:
    values = {"move": 8.0, "min_move": 2.0, **stats}
    return Unit("u", "U", "A", Pose(10, 10, 0), RectBase(1.5, 4), movement, stats=FrozenMap(values))


def sw_unit(**stats) -> Unit:
    values = {"space": 4, **stats}
    return Unit(
        "s", "S", "A", Pose(10, 10, 0), RectBase(1, 3), MovementClass.SPACE, stats=FrozenMap(values)
    )


def violations(system, unit, path, options=None) -> list[str]:
    rules = system.turning_rules(unit, options or {})
    plan = plan_path(unit.pose, unit.base, parse_path(path), rules)
    return [v.rule for v in plan.violations]


def piece(kind: str, height: SizeClass = SizeClass.MEDIUM) -> Terrain:
    return Terrain("t", kind, height, polygon=((0, 0), (1, 0), (1, 1)))


# --------------------------------------------------------------------------- Dystopian Wars


@pytest.mark.parametrize(
    ("movement", "pivot"),
    [
        (MovementClass.NAVAL, Pivot.SIDE_CENTRE),
        (MovementClass.ARMOURED, Pivot.FRONT_CORNER),
        (MovementClass.AERIAL, Pivot.STAND_FRONT),
    ],
)
def test_pivot_by_movement_class_r002_11_to_r002_13(movement, pivot):
    """GEO002.2: the footprint point each movement class pivots on."""
    assert DW.turning_rules(dw_unit(movement), {}).pivot is pivot


def test_template_limits_and_minimum_move_r002_30_r002_34():
    rules = DW.turning_rules(dw_unit(), {})
    assert rules.max_turn_per_step == 45.0
    assert rules.min_straight_before_turn == 2.0
    assert rules.max_distance == 8.0
    assert rules.max_backwards == 2.0
    assert rules.snaking_straight == 1.0
    assert rules.disengage_rotation == 90.0
    assert violations(DW, dw_unit(), "F1 P45") == ["R002.30"]
    assert violations(DW, dw_unit(), "F2 P45 F6") == []
    assert violations(DW, dw_unit(), "F2 P50") == ["GEO002.8"]


def test_kinetic_generator_raises_the_minimum_move_r002_48_a002_9():
    """R002.48 / A002.9: roll 3 with Mv 8, MinMove 2: Mv 11, MinMove 5, at least
    max(5, 11/2 = 5.5) = 5.5" in all (half exact, as revised)."""
    unit = dw_unit(generators="kinetic")
    options = {"activation": {"kinetic": 3}}
    rules = DW.turning_rules(unit, options)
    assert rules.max_distance == 11.0
    assert rules.min_straight_before_turn == 5.0
    assert rules.min_total_distance == 5.5
    assert violations(DW, unit, "F4 P45 F4", options) == ["R002.30"]
    assert violations(DW, unit, "F5", options) == ["R002.48"]
    assert violations(DW, unit, "F5 P45 F1", options) == []
    assert violations(DW, unit, "F12", options) == ["GEO002.8"]


def test_half_rounding_option_a002_9():
    unit = dw_unit(generators="kinetic")
    down = DW.turning_rules(unit, {"activation": {"kinetic": 3}, "half_rounding": "down"})
    assert down.min_total_distance == 5.0  # max(5, floor(11/2) = 5)
    up = DW.turning_rules(unit, {"activation": {"kinetic": 3}, "half_rounding": "up"})
    # max(5, ceil(11/2) = 6): the reading in force before A002.9 was revised
    assert up.min_total_distance == 6.0


def test_tesla_generator_boost_r002_45():
    """R002.45: +1D3" Movement; at least half the boosted Movement (8 + 2 = 10 -> 5")."""
    unit = dw_unit(generators="tesla, guardian")
    options = {"activation": {"tesla": 2}}
    rules = DW.turning_rules(unit, options)
    assert rules.max_distance == 10.0
    assert rules.min_straight_before_turn == 2.0
    assert rules.min_total_distance == 5.0
    assert violations(DW, unit, "F4", options) == ["R002.45"]
    assert violations(DW, unit, "F5", options) == []


@pytest.mark.parametrize(
    ("stats", "activation", "words"),
    [
        ({}, {"kinetic": 3}, "no kinetic generator"),
        ({"generators": "kinetic"}, {"kinetic": 7}, "1D6 roll from 1 to 6"),
        ({"generators": "tesla"}, {"tesla": 4}, "1D3 roll from 1 to 3"),
        ({"generators": "tesla"}, {"kinetic": 2, "tesla": 1}, "no kinetic generator"),
    ],
)
def test_bad_boosts_are_clear_errors(stats, activation, words):
    with pytest.raises(UserError) as caught:
        DW.turning_rules(dw_unit(**stats), {"activation": activation})
    assert words in caught.value.describe()


def test_tesla_and_kinetic_boosts_together_r002_48():
    """R002.48 forbids only a second Kinetic Generator: Mv 8 + 2 + 1, MinMove 2 + 2."""
    unit = dw_unit(generators="kinetic,tesla")
    both = {"activation": {"kinetic": 2, "tesla": 1}}
    rules = DW.turning_rules(unit, both)
    assert (rules.max_distance, rules.min_straight_before_turn) == (11.0, 4.0)
    assert rules.min_total_distance == 5.5  # max(4, 11 / 2)
    with pytest.raises(UserError) as caught:  # the reading before the fix
        DW.turning_rules(unit, {**both, "tesla_with_kinetic": False})
    assert "at most one" in caught.value.describe()


def test_only_a_wing_is_lost_off_the_board_r002_59():
    """R002.59: a Tiny Flyer Wing is Lost off the table; other flying models are not (their
    move off it is refused); `lost_off_table = "flying"` plays the earlier reading."""
    assert DW.turning_rules(dw_unit(MovementClass.AERIAL, wing_type="fighter"), {}).lost_off_board
    assert not DW.turning_rules(dw_unit(MovementClass.AERIAL), {}).lost_off_board
    assert not DW.turning_rules(dw_unit(height_level="obscured"), {}).lost_off_board
    assert not DW.turning_rules(dw_unit(), {}).lost_off_board
    before = {"lost_off_table": "flying"}
    assert DW.turning_rules(dw_unit(MovementClass.AERIAL), before).lost_off_board
    assert DW.turning_rules(dw_unit(height_level="obscured"), before).lost_off_board
    assert not DW.turning_rules(dw_unit(), before).lost_off_board


@pytest.mark.parametrize(
    ("unit", "kind", "height", "collides"),
    [
        (dw_unit(), "soft", SizeClass.TINY, True),  # water hits soft (R002.35)
        (dw_unit(), "dense", SizeClass.SMALL, True),  # and dense (A002.7)
        (dw_unit(MovementClass.ARMOURED), "soft", SizeClass.TINY, False),  # land passes soft
        (dw_unit(MovementClass.ARMOURED), "dense", SizeClass.SMALL, True),
        (dw_unit(MovementClass.AERIAL), "soft", SizeClass.MASSIVE, False),
        (dw_unit(MovementClass.AERIAL), "dense", SizeClass.SMALL, False),  # below its height
        (dw_unit(MovementClass.AERIAL), "dense", SizeClass.LARGE, True),
        (dw_unit(height_level="flying"), "dense", SizeClass.MEDIUM, True),
    ],
)
def test_terrain_collision_matrix_t002_12(unit, kind, height, collides):
    assert DW.terrain_collides(unit, piece(kind, height)) is collides


# --------------------------------------------------------------------------- Star Wars D6


@pytest.mark.parametrize(
    ("speed", "distance", "turn"),
    [
        ("cautious", 2.0, 90.0),
        ("cruising", 4.0, 45.0),
        ("high", 8.0, 45.0),
        ("all-out", 16.0, 45.0),
    ],
)
def test_speeds_from_space_and_turn_limits_r004_50_r004_51(speed, distance, turn):
    rules = SW.turning_rules(sw_unit(speed=speed), {})
    assert rules.max_distance == distance
    assert rules.max_turn_per_move == turn
    assert rules.pivot is Pivot.CENTRE


def test_inches_per_space_scales_the_move_geo004_1():
    rules = SW.turning_rules(sw_unit(speed="cruising"), {"inches_per_space": 2.0})
    assert rules.max_distance == 8.0


def test_capital_ship_turning_180_degrees_x004_21():
    """X004.21: 180° takes 2 turns at Cautious and 4 at other speeds."""
    cautious = sw_unit(speed="cautious")
    assert violations(SW, cautious, "P90") == []
    assert violations(SW, cautious, "P90 P90") == ["R004.51"]
    cruising = sw_unit(speed="cruising")
    assert violations(SW, cruising, "F1 P45") == []
    assert violations(SW, cruising, "F1 P90") == ["R004.51"]
    assert violations(SW, cruising, "C-30 F1 C-30") == ["R004.51"]


def test_fighters_turn_freely_r004_51():
    assert SW.turning_rules(sw_unit(scale="starfighter"), {}).max_turn_per_move is None


def test_all_out_forbids_fire_r004_39():
    rules = SW.turning_rules(sw_unit(speed="all-out"), {})
    assert [n.rule for n in rules.notes] == ["R004.39"]
    assert SW.turning_rules(sw_unit(speed="high"), {}).notes == ()


def test_declared_speed_overrides_the_stat_and_bad_speeds_are_refused():
    rules = SW.turning_rules(sw_unit(speed="cruising"), {"activation": {"speed": "high"}})
    assert rules.max_distance == 8.0
    with pytest.raises(UserError, match="unknown speed 'ludicrous'"):
        SW.turning_rules(sw_unit(), {"activation": {"speed": "ludicrous"}})


def test_moving_past_the_speed_is_refused_r004_50():
    assert violations(SW, sw_unit(speed="cruising"), "F5") == ["R004.50"]
