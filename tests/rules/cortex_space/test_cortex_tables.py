"""Seed 003 tables T003.1-T003.20, checked cell by cell against the SPEC."""

from __future__ import annotations

import pytest

from tactical.dice import StepDie
from tactical.errors import UserError
from tactical.rules.cortex_space import tables as t
from tactical.rules.cortex_space.rolls import parse_step_die


def test_T003_1_step_ladder():
    expected = [
        "none", "d2", "d4", "d6", "d8", "d10", "d12", "d12+d2", "d12+d4", "d12+d6",
        "d12+d8", "d12+d10", "d12+d12", "d12+d12+d2",
    ]  # fmt: skip
    assert [t.ladder_die(step) for step in range(14)] == expected
    assert t.ladder_die(-3) == "none"
    assert [parse_step_die(name).step for name in expected[1:]] == list(range(1, 14))


def test_T003_2_difficulties_and_extraordinary_row():
    assert t.DIFFICULTIES == {
        "EASY": 3, "AVERAGE": 7, "HARD": 11, "FORMIDABLE": 15, "HEROIC": 19, "INCREDIBLE": 23,
    }  # fmt: skip
    assert [t.extraordinary_at(v) for v in t.DIFFICULTIES.values()] == [10, 14, 18, 22, 26, 30]
    assert t.difficulty_name(19) == "HEROIC" and t.difficulty_name(12) is None


def test_T003_3_obstacle_sizes_by_roll_and_by_strength():
    rows = [(r.d10, r.name, r.difficulty) for r in t.OBSTACLE_SIZES]
    assert rows == [
        ((1,), "Gigantic", 23),
        ((2, 3), "Colossal", 19),
        ((4, 5), "Huge", 15),
        ((6, 7), "Large", 11),
        ((8, 9), "Medium", 7),
        ((10,), "Small", 3),
    ]
    cases = {
        ("spacecraft", "d12+d8"): "Gigantic",
        ("spacecraft", "d12"): "Gigantic",
        ("spacecraft", "d10"): "Colossal",
        ("spacecraft", "d8"): "Colossal",
        ("spacecraft", "d6"): "Huge",
        ("spacecraft", "d4"): "Huge",
        ("spacecraft", "d2"): "Large",
        ("planetcraft", "d12"): "Large",
        ("planetcraft", "d10"): "Large",
        ("planetcraft", "d8"): "Medium",
        ("planetcraft", "d6"): "Medium",
        ("planetcraft", "d4"): "Small",
        ("planetcraft", "d2"): "Small",
        ("personal", "d12"): "Small",  # A003.10
    }
    for (scale, strength), name in cases.items():
        assert t.obstacle_size(scale, parse_step_die(strength)).name == name, (scale, strength)


def test_T003_4_obstacle_speed():
    rows = [(r.d8, r.name, r.modifier) for r in t.OBSTACLE_SPEEDS]
    assert rows == [
        ((1,), "Very High", 8),
        ((2, 3), "High", 4),
        ((4, 5), "Medium", 0),
        ((6, 7), "Slow", -4),
        ((8,), "Stationary", -8),
    ]
    expected = {0: -8, 1: -4, 2: -4, 3: 0, 5: 0, 6: 4, 8: 4, 9: 8, 30: 8}
    assert {s: t.obstacle_speed(s).modifier for s in expected} == expected
    with pytest.raises(UserError, match=r"R003\.16"):
        t.obstacle_speed(-1)


def test_T003_5_obstacle_direction():
    assert [(r.d6, r.name, r.modifier) for r in t.OBSTACLE_DIRECTIONS] == [
        ((1, 2), "toward", 4),
        ((3, 4), "perpendicular", 0),
        ((5, 6), "away", -4),
    ]
    with pytest.raises(UserError, match=r"R003\.16"):
        t.direction_row("sideways")


def test_A003_9_random_obstacle_reads_every_die_face():
    sizes = [t.random_obstacle_rows(d10, 1, 1)[0].name for d10 in range(1, 11)]
    assert sizes == ["Gigantic", "Colossal", "Colossal", "Huge", "Huge", "Large", "Large",
                     "Medium", "Medium", "Small"]  # fmt: skip
    speeds = [t.random_obstacle_rows(1, d8, 1)[1].modifier for d8 in range(1, 9)]
    assert speeds == [8, 4, 4, 0, 0, -4, -4, -8]
    directions = [t.random_obstacle_rows(1, 1, d6)[2].modifier for d6 in range(1, 7)]
    assert directions == [4, 4, 0, 0, -4, -4]


def test_T003_6_strafing_difficulty_by_strength():
    expected = {"d2": 15, "d4": 15, "d6": 11, "d8": 11, "d10": 7, "d12": 7, "d12+d6": 7}
    assert {d: t.strafing_difficulty(parse_step_die(d)) for d in expected} == expected


def test_T003_7_battle_damage_rows():
    assert [(r.low, r.high, r.system) for r in t.BATTLE_DAMAGE] == [
        (2, 5, "sensors damaged"),
        (6, 10, "sublight engines damaged"),
        (11, 15, "weapon damaged"),
        (16, 20, "weapon system destroyed"),
        (21, 25, "FTL engine destroyed"),
        (26, 30, "sublight engines destroyed"),
        (31, None, "widespread damage"),
    ]
    rows = {
        total: t.battle_damage_row(total)
        for total in (0, 1, 2, 5, 6, 10, 11, 15, 16, 20, 21, 25, 26, 30, 31, 99)
    }
    assert rows == {0: None, 1: None, 2: 0, 5: 0, 6: 1, 10: 1, 11: 2, 15: 2, 16: 3, 20: 3,
                    21: 4, 25: 4, 26: 5, 30: 5, 31: 6, 99: 6}  # fmt: skip


def test_T003_8_missile_locks():
    assert [(r.range, r.lock, r.turns) for r in t.MISSILE_LOCKS] == [
        ("personal", None, None),
        ("skirmish", None, None),
        ("capital", 3, 1),
        ("short DRADIS", 7, 2),
        ("long DRADIS", 11, 5),
    ]
    assert t.SHOOT_DOWN_DIFFICULTY == 15
    assert t.OUT_FLY_THRESHOLD == 15
    assert t.DISTRACT_OBSTACLE_DIFFICULTY == 7


def test_T003_9_group_fire_bonuses():
    ns = [1, 2, 3, 4, 5, 6]
    assert [t.group_attack_steps(n) for n in ns] == [0, 1, 2, 3, 4, 5]
    assert [t.wing_target_steps(n) for n in ns] == [0, 1, 1, 2, 2, 3]
    assert [t.fire_linked_steps(n) for n in [*ns, 8, 16]] == [0, 1, 1, 2, 2, 2, 3, 4]
    assert t.group_attack_steps(12) == 5
    assert (t.group_damage_steps(True, False), t.group_damage_steps(True, True)) == (1, 2)
    assert t.group_damage_steps(False, True) == 0
    with pytest.raises(UserError, match=r"R003\.45"):
        t.fire_linked_steps(0)


def test_T003_10_T003_11_T003_12_crew_and_helm_modifiers():
    order = ["botch", "failure", "success", "extraordinary"]
    assert [t.STATION_MODIFIER[o] for o in order] == [-1, 0, 1, 2]
    assert [t.HELM_ATTACK_MODIFIER[o] for o in order] == [-1, 0, 1, 2]
    assert [t.HELM_EVASIVE_MODIFIER[o] for o in order] == [-4, -2, -1, 0]


def test_T003_13_scale_chart_to_hit_with_restored_signs():
    scales = ["personal", "planetcraft", "spacecraft"]
    grid = [[t.to_hit_steps(a, b) for b in scales] for a in scales]
    assert grid == [[0, 1, 2], [-1, 0, 1], [-3, -1, 0]]
    printed = [[t.to_hit_steps(a, b, "printed") for b in scales] for a in scales]
    assert printed == [[0, 1, 2], [1, 0, 1], [3, -1, 0]]  # A003.1 as extracted


def test_T003_14_scale_chart_damage_lp_armor():
    scales = ["personal", "planetcraft", "spacecraft"]
    grid = [[(c.multiplies, c.factor) for c in (t.scale_damage(a, b) for b in scales)]
            for a in scales]  # fmt: skip
    assert grid == [
        [("none", 1), ("target", 2), ("target", 5)],
        [("damage", 2), ("none", 1), ("target", 2)],
        [("damage", 5), ("damage", 2), ("none", 1)],
    ]


def test_T003_15_called_shots_and_A003_2_vehicle_is_planetcraft():
    scales = ["personal", "planetcraft", "spacecraft"]
    grid = [[t.called_shot_resist(a, b) for b in scales] for a in scales]
    assert grid == [[7, 3, None], [11, 7, 3], [15, 11, 7]]


def test_T003_16_atmospheric_increments():
    assert t.ATMOSPHERIC_INCREMENT_FEET == {
        "skirmish": 1000, "capital": 5000, "short DRADIS": 10000, "long DRADIS": 25000,
    }  # fmt: skip


def test_T003_17_missile_blasts():
    rows = [(r.scale, r.weapon_type, r.damage, r.blast_feet) for r in t.MISSILE_BLASTS]
    assert rows == [
        ("planetcraft", "light", "4d2", 10),
        ("planetcraft", "medium", "4d4", 25),
        ("planetcraft", "heavy", "4d6", 50),
        ("spacecraft", "light", "4d4", 250),
        ("spacecraft", "medium", "4d4", 500),  # A003.33: as printed
        ("spacecraft", "heavy", "4d6", 1000),
        ("spacecraft", "extreme", "4d8", 2000),
    ]
    with pytest.raises(UserError, match=r"R003\.61"):
        t.missile_blast("planetcraft", "extreme")


def test_T003_18_scatter_direction_and_distance():
    assert [t.SCATTER[d] for d in range(1, 9)] == [
        ("long", 0), ("long and right", 45), ("right", 90), ("short and right", 135),
        ("short", 180), ("short and left", 225), ("left", 270), ("long and left", 315),
    ]  # fmt: skip
    assert t.scatter_feet(4, 0) == 4 and t.scatter_feet(7, 3) == 37  # A003.34


def test_T003_19_bombardment_targets():
    rows = [(r.kind, r.planetcraft, r.spacecraft, r.life_points, r.lp_scale, r.armor_wound)
            for r in t.STRUCTURES]  # fmt: skip
    assert rows == [
        ("area", 7, 11, None, None, None),
        ("small-building", 7, 23, 5, "planetcraft", 2),
        ("large-building", 3, 19, 10, "planetcraft", 5),
        ("small-city", None, 11, 25, "spacecraft", 1),
        ("large-city", None, 7, 50, "spacecraft", 2),
        ("megalopolis", None, 3, 150, "spacecraft", 5),
    ]
    assert t.bombardment_difficulty("small-building", "spacecraft") == 23
    with pytest.raises(UserError, match=r"R003\.65"):
        t.bombardment_difficulty("megalopolis", "planetcraft")
    with pytest.raises(UserError, match=r"R003\.65"):
        t.bombardment_difficulty("moon", "spacecraft")


def test_T003_20_crew_station_summary():
    rows = [(s.station, s.difficulty) for s in t.CREW_STATIONS_A]
    assert rows == [
        ("CO / XO", 11),
        ("Pilot", None),
        ("Tactical officer", None),
        ("DRADIS operator", 11),
        ("Communications", 7),
    ]
    assert "fire one weapon" in t.CREW_STATIONS_A[2].action
    assert StepDie(7).name == "d12+d2"
