"""Seed 001 tables (T001.1-T001.8) cell by cell, and the arithmetic rules behind them."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tactical.dice import enumerate_outcomes
from tactical.rules.heavy_combat import tables as t


def test_T001_1_power_costs():
    assert dict(t.COSTS) == {
        "photon": 1,
        "disruptors": 1,
        "cloak": 1,
        "close": 1,
        "retreat": 1,
        "lateral": 2,
        "reinforce": 2,
        "countermeasures": 2,
        "flash_detect": 10,
        "repair": 1,
        "rotate": 0,
    }
    assert t.PHASER_POINT_COST == 1  # p points -> base damage p
    assert (t.REPAIR_LIMIT, t.REPAIR_LIMIT_WARP_LOST, t.REPAIR_POINTS_PER_SYSTEM) == (2, 1, 3)
    assert (t.PHOTON_INTERVAL, t.DISRUPTOR_INTERVAL, t.LATERAL_INTERVAL) == (2, 3, 2)
    assert (t.MAX_CLOAK_TURNS, t.ROTATION_TURNS_PER_STEP) == (10, 2)


@pytest.mark.parametrize(
    ("band", "name", "multiplier", "photon", "disruptor"),
    [(1, "Close", 3, None, None), (2, "Medium", 2, None, None), (3, "Max", 1, 3, 2)],
)
def test_T001_2_range_bands_and_to_hit(band, name, multiplier, photon, disruptor):
    assert t.RANGE_NAMES[band] == name
    assert t.multiplier(band) == multiplier
    assert t.PHOTON_TO_HIT[band] == photon
    assert t.DISRUPTOR_TO_HIT[band] == disruptor


def test_T001_2_auto_hits_and_thresholds():
    assert t.hits_at_least(1, None)
    assert [t.hits_at_least(r, 3) for r in range(1, 7)] == [False, False, True, True, True, True]
    assert [t.hits_at_least(r, 2) for r in range(1, 7)] == [False, True, True, True, True, True]


def test_R001_7_multiplier_is_4_minus_range_and_nothing_beyond_3():
    assert [t.multiplier(r) for r in (1, 2, 3)] == [3, 2, 1]
    assert t.MAX_RANGE == 3
    with pytest.raises(ValueError):
        t.multiplier(4)


def test_T001_3_specific_chart_cell_by_cell():
    expected = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 7, 9: 8, 10: 9, 11: 10, 12: None}
    for total, result in expected.items():
        assert t.specific_result("2d6", total) == result
    assert [t.specific_result("d10", r) for r in range(1, 11)] == list(range(1, 11))


def test_T001_3_probabilities_after_rerolls_from_the_dice():
    """The 2d6 sum die rerolled on 12 gives the T001.3 row: 1/35 ... 6/35 ... 2/35."""

    def chart(dice):
        roll = dice.roll(t.TWO_D6)
        if t.specific_result("2d6", roll) is None:
            roll = dice.roll(t.rerolled(t.TWO_D6, frozenset(range(2, 12))))
        return t.specific_result("2d6", roll)

    distribution = enumerate_outcomes(chart).as_dict()
    weights = [1, 2, 3, 4, 5, 6, 5, 4, 3, 2]
    assert distribution == {r: Fraction(w, 35) for r, w in zip(range(1, 11), weights, strict=True)}


def test_T001_4_direction_table():
    assert dict(t.DIRECTION_TABLE) == {
        1: "fore",
        2: "aft",
        3: "port",
        4: "starboard",
        5: "dorsal",
        6: "ventral",
    }


def test_T001_5_federation_chart():
    chart = t.CHARTS["federation"]
    assert dict(chart) == {
        1: "Fire Control / Bridge / Auxiliary Bridge",
        2: "Sensors",
        3: "Phasers / Photons",
        4: "Impulse",
        5: "Batteries",
        6: "Warp Core",
    }
    assert [t.chart_category(r) for r in range(1, 7)] == [
        "bridge",
        "sensors",
        "weapons",
        "impulse",
        "batteries",
        "warp",
    ]


def test_T001_6_klingon_chart():
    assert dict(t.CHARTS["klingon"]) == {
        1: "Fire Control / Bridge / Auxiliary Bridge",
        2: "Sensors",
        3: "Armor / Cloak / Disruptors / Photons",
        4: "Impulse",
        5: "Batteries",
        6: "Warp",
    }


def test_T001_7_catastrophic_table():
    assert {r: t.catastrophic_losses(r) for r in range(1, 7)} == {
        1: 6,
        2: 5,
        3: 4,
        4: 3,
        5: 2,
        6: 1,
    }


def test_T001_8_weapon_arcs_cell_by_cell():
    """A001.17: the forward launcher's "all forward arcs" are Fore, Dorsal and Ventral."""
    facings = ("fore", "aft", "port", "starboard", "dorsal", "ventral")
    rows = {
        "phasers": (t.PHASER_ARCS, "✓✓✓✓✓✓"),
        "forward launcher": (t.launcher_arcs(1), "✓–––✓✓"),
        "aft launcher": (t.launcher_arcs(2), "–✓––✓✓"),
        "Klingon HC disruptors": (t.KLINGON_DISRUPTOR_ARCS, "✓–––✓✓"),
    }
    for name, (arcs, cells) in rows.items():
        for facing, cell in zip(facings, cells, strict=True):
            assert (facing in arcs) == (cell == "✓"), (name, facing)
    assert (
        t.launcher_arcs(3) == t.FORWARD_LAUNCHER_ARCS and t.launcher_arcs(4) == t.AFT_LAUNCHER_ARCS
    )


def test_R001_2_rounding_half_up_and_splits():
    assert t.round_half_up(Fraction(69, 4)) == 17  # 17.25 -> 17
    assert t.round_half_up(Fraction(33, 2)) == 17  # 16.5 -> 17 (A001.5)
    assert t.round_half_up(Fraction(7, 4)) == 2
    assert t.split(9) == (5, 4) and t.split(8) == (4, 4) and t.split(1) == (1, 0)
    assert t.halve(16) == 8 and t.halve(9) == 5
    assert t.backlash(18) == 5 and t.backlash(6) == 2 and t.backlash(3) == 1  # 4.5, 1.5, .75
    assert t.catastrophic_threshold(22) == 17  # A001.5: 16.5 -> 17


def test_R001_6_conversion_wastes_an_odd_point():
    assert t.converted_points(4) == (2, 0)
    assert t.converted_points(8) == (4, 0)
    assert t.converted_points(5) == (2, 1)
    assert t.converted_points(1) == (0, 1)


def test_GEO001_3_facing_steps_and_adjacency():
    assert t.facing_steps("port", "starboard") == 2
    assert t.facing_steps("port", "dorsal") == 1
    assert t.facing_steps("fore", "fore") == 0
    assert t.adjacent("fore", "ventral") and not t.adjacent("fore", "aft")
    assert t.between("port", "starboard") == ("dorsal", "ventral", "fore", "aft")
    assert t.between("dorsal", "ventral") == ("fore", "aft", "port", "starboard")
    assert t.between("port", "fore") == ()


def test_rerolled_die_keeps_the_multiplicity_of_the_allowed_faces():
    die = t.rerolled(t.TWO_D6, frozenset({7, 2}))
    assert sorted(die.standing().values) == [2, 7, 7, 7, 7, 7, 7]
    assert die.values == t.TWO_D6.values  # G.1: the reroll is made with the whole die
