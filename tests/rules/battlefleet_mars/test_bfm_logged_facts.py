"""Battlefleet Mars: what a player reads, checked whole.

Every event a resolution logs (kind, rule, values), every roll's label, every fact and
section of an odds report, every refusal's message, and the ranges of the every-pair
odds under each rounding option.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from bfm_builders import duel, table, unit

from tactical.dice import Distribution, ScriptedDice, enumerate_outcomes
from tactical.errors import UserError
from tactical.rules import registry
from tactical.rules.battlefleet_mars.combat import (
    all_pair_odds,
    measure,
    range_matrix,
    resolve,
    settings,
    survivor_damage,
)
from tactical.rules.battlefleet_mars.tables import damage_result

BFM = registry.get("battlefleet-mars")
CODES_IN_ORDER = ["B1", "B2", "B3", "B4", "L1", "L2", "L3", "L4", "iL", "R", "D"]


def _events(resolution):
    return [event.as_dict() for event in resolution.events]


def _resolve(state, weapon, rolls, **params):
    dice = ScriptedDice(rolls)
    attack = BFM.declare_attack(state, "a", weapon, "t", params)
    return BFM.resolve_attack(state, attack, dice), dice


def _labels(dice):
    return [(roll.who, roll.what, roll.result) for roll in dice.rolls]


def _report(state, weapon="laser", **params):
    return BFM.attack_odds(state, BFM.declare_attack(state, "a", weapon, "t", params)).as_dict()


def _rows(label, pairs):
    return [
        {label: outcome, "probability": probability, "percent": percent}
        for outcome, probability, percent in pairs
    ]


# --------------------------------------------------------------------------- laser log


def test_R000_4_to_R000_10_a_laser_hit_on_a_fighter_group_logs_every_step():
    """LS 4 at 5": needs 4+ (5 - ceil(4/2) = 3 to beat); T = 1 + 4 - floor(5/3) = 4 -> R,
    which destroys one fighter of the group (R000.10)."""
    state = duel({"type": "ship", "laser_strength": 4}, {"type": "fighter", "count": 3}, 5)
    resolution, dice = _resolve(state, "laser", [9, 1])
    assert _events(resolution) == [
        {"kind": "declare", "spec_id": "R000.3", "attacker": "a", "weapon": "laser", "target": "t"},
        {
            "kind": "range",
            "spec_id": "GEO000.1",
            "distance": 5.0,
            "range": 5,
            "unit_inches": 1.0,
            "rounding": "floor",
        },
        {"kind": "threshold", "spec_id": "R000.5", "laser_strength": 4, "range": 5, "needed": 4},
        {"kind": "roll", "spec_id": "R000.1", "who": "a", "what": "laser to-hit", "die": "d10z",
         "result": 9},
        {"kind": "to-hit", "spec_id": "R000.4", "roll": 9, "range": 5, "hit": True},
        {"kind": "roll", "spec_id": "R000.1", "who": "a", "what": "laser damage", "die": "d10z",
         "result": 1},
        {"kind": "damage-total", "spec_id": "R000.8", "roll": 1, "laser_strength": 4,
         "range_term": 1, "total": 4},
        {"kind": "lookup", "spec_id": "T000.2", "total": 4, "column": "ship", "result": "R"},
        {"kind": "outcome", "spec_id": "R000.10", "target": "t", "result": "R", "destroyed": True},
    ]  # fmt: skip
    assert _labels(dice) == [("a", "laser to-hit vs t", 9), ("a", "laser damage vs t", 1)]
    assert resolution.summary == "R"
    assert resolution.state.unit("t").stats["count"] == 2


def test_R000_4_a_laser_miss_logs_the_miss_and_rolls_no_damage():
    state = duel({"type": "ship", "laser_strength": 4}, {"type": "ship", "laser_strength": 1}, 5)
    resolution, dice = _resolve(state, "laser", [3])
    assert _events(resolution)[-2:] == [
        {"kind": "to-hit", "spec_id": "R000.4", "roll": 3, "range": 5, "hit": False},
        {"kind": "outcome", "spec_id": "R000.4", "target": "t", "result": "miss"},
    ]
    assert resolution.summary == "miss" and resolution.state == state
    assert len(dice.rolls) == 1


def test_R000_11_a_laser_L_result_destroys_the_last_missile_of_a_group():
    state = duel({"type": "ship", "laser_strength": 4}, {"type": "missile", "count": 1}, 0)
    resolution, _ = _resolve(state, "laser", [0, 3])  # T = 3 + 4 - 0 = 7 -> L3
    assert _events(resolution)[-1] == {
        "kind": "outcome", "spec_id": "R000.11", "target": "t", "result": "L3", "destroyed": True,
    }  # fmt: skip
    assert not resolution.state.has_unit("t")
    spared, _ = _resolve(state, "laser", [0, 4])  # T = 8 -> B3
    assert spared.events[-1].as_dict()["destroyed"] is False
    assert spared.state == state


def test_GEO000_1_the_logged_range_keeps_six_decimals():
    state = table(
        unit("a", 10, 10, "A", type="ship", laser_strength=4),
        unit("t", 13, 13, "B", type="ship", laser_strength=1),
    )
    resolution, _ = _resolve(state, "laser", [0])
    assert _events(resolution)[1]["distance"] == 4.242641  # 3 * sqrt(2)
    assert _report(state)["facts"]["distance"] == 4.242641


def test_R000_12_a_ship_keeps_its_result_code_for_the_base_game():
    state = duel({"type": "base"}, {"type": "ship", "laser_strength": 3}, 0)
    resolution, _ = _resolve(state, "laser", [0, 1])
    assert _events(resolution)[-2:] == [
        {"kind": "outcome", "spec_id": "R000.12", "target": "t", "result": "L3"},
        {"kind": "laser-damage", "spec_id": "A000.11", "target": "t", "laser_strength": 3,
         "lowered_to": 0, "printed": 3},
    ]  # fmt: skip


# --------------------------------------------------------------------------- missile log


def test_R000_18_to_R000_22_a_salvo_logs_ciws_then_each_survivor_and_the_group_leaves():
    """CS 3 thresholds 6, 5 (R000.22); missile 1 shot down, missile 2 strikes T = 4 + 1;
    a group that fires all its missiles leaves the table (R000.18)."""
    state = duel({"type": "missile", "count": 2}, {"type": "ship", "laser_strength": 3})
    resolution, dice = _resolve(state, "missiles", [0, 9, 4])
    assert _events(resolution) == [
        {"kind": "declare", "spec_id": "R000.18", "attacker": "a", "weapon": "missiles",
         "target": "t", "missiles": 2},
        {"kind": "ciws-declared", "spec_id": "R000.19", "target": "t", "used": True,
         "ciws_strength": 3},
        {"kind": "roll", "spec_id": "R000.1", "who": "t", "what": "CIWS vs missile 1",
         "die": "d10z", "result": 0},
        {"kind": "ciws", "spec_id": "R000.22", "missile": 1, "roll": 0, "threshold": 6,
         "destroyed": True},
        {"kind": "roll", "spec_id": "R000.1", "who": "t", "what": "CIWS vs missile 2",
         "die": "d10z", "result": 9},
        {"kind": "ciws", "spec_id": "R000.22", "missile": 2, "roll": 9, "threshold": 5,
         "destroyed": False},
        {"kind": "roll", "spec_id": "R000.1", "who": "a", "what": "missile 2 damage",
         "die": "d10z", "result": 4},
        {"kind": "damage-total", "spec_id": "R000.13", "missile": 2, "roll": 4, "total": 5},
        {"kind": "lookup", "spec_id": "T000.2", "total": 5, "column": "ship", "result": "L2"},
        {"kind": "outcome", "spec_id": "R000.12", "target": "t", "ciws_destroyed": 1,
         "results": ["L2"], "destroyed": None},
        {"kind": "laser-damage", "spec_id": "A000.11", "target": "t", "laser_strength": 3,
         "lowered_to": 1, "printed": 3},
    ]  # fmt: skip
    assert _labels(dice) == [
        ("t", "CIWS vs missile 1", 0),
        ("t", "CIWS vs missile 2", 9),
        ("a", "missile 2 damage", 4),
    ]
    assert not resolution.state.has_unit("a")
    assert resolution.state.unit("t").stats == {
        "type": "ship", "laser_strength": 1, "printed_laser_strength": 3,
    }  # fmt: skip


def test_R000_18_a_group_firing_some_of_its_missiles_keeps_the_rest():
    state = duel({"type": "missile", "count": 3}, {"type": "ship", "laser_strength": 3})
    resolution, _ = _resolve(state, "missiles", [9, 9], missiles=2, ciws=False)
    assert resolution.state.unit("a").stats["count"] == 1


def test_R000_17_a_launcher_spends_its_magazine_and_counts_the_launch():
    state = duel(
        {"type": "base", "launch_capacity": 2, "missiles": 3}, {"type": "ship", "laser_strength": 1}
    )
    resolution, _ = _resolve(state, "missiles", [9, 9], missiles=2, ciws=False)
    assert dict(resolution.state.unit("a").stats) == {
        "type": "base", "launch_capacity": 2, "missiles": 1, "launched": 2,
    }  # fmt: skip


def test_A000_8_R000_10_rolled_missile_hits_on_a_fighter_group():
    """With the to-hit option, each survivor rolls (5+ here) before its damage; iL kills a
    fighter (R000.10), so one of the two fighters is removed."""
    state = duel(
        {"type": "missile", "count": 2},
        {"type": "fighter", "count": 2},
        missile_to_hit="roll",
        missile_to_hit_score=5,
    )
    resolution, dice = _resolve(state, "missiles", [7, 2, 3])
    assert _events(resolution)[1:] == [
        {"kind": "ciws-declared", "spec_id": "R000.19", "target": "t", "used": False,
         "ciws_strength": None},
        {"kind": "roll", "spec_id": "R000.1", "who": "a", "what": "missile 1 to-hit",
         "die": "d10z", "result": 7},
        {"kind": "to-hit", "spec_id": "A000.8", "missile": 1, "roll": 7, "needed": 5},
        {"kind": "roll", "spec_id": "R000.1", "who": "a", "what": "missile 1 damage",
         "die": "d10z", "result": 2},
        {"kind": "damage-total", "spec_id": "R000.13", "missile": 1, "roll": 2, "total": 3},
        {"kind": "lookup", "spec_id": "T000.2", "total": 3, "column": "ship", "result": "iL"},
        {"kind": "roll", "spec_id": "R000.1", "who": "a", "what": "missile 2 to-hit",
         "die": "d10z", "result": 3},
        {"kind": "to-hit", "spec_id": "A000.8", "missile": 2, "roll": 3, "needed": 5},
        {"kind": "outcome", "spec_id": "R000.10", "target": "t", "ciws_destroyed": 0,
         "results": ["iL", "miss"], "destroyed": True},
    ]  # fmt: skip
    assert _labels(dice) == [
        ("a", "missile 1 to-hit", 7),
        ("a", "missile 1 damage", 2),
        ("a", "missile 2 to-hit", 3),
    ]
    assert resolution.summary.target_destroyed is True
    assert resolution.state.unit("t").stats["count"] == 1


def test_R000_11_a_salvo_that_kills_a_missile_group_says_so():
    state = duel({"type": "missile", "count": 1}, {"type": "missile", "count": 1})
    resolution, _ = _resolve(state, "missiles", [4])  # T = 5 -> L2 (any L destroys)
    assert _events(resolution)[-1] == {
        "kind": "outcome", "spec_id": "R000.11", "target": "t", "ciws_destroyed": 0,
        "results": ["L2"], "destroyed": True,
    }  # fmt: skip
    assert resolution.state.units == ()


# --------------------------------------------------------------------------- odds reports


def test_T000_2_R000_10_laser_report_on_a_fighter_group():
    """LS 4 at 5": hit 6 in 10; T = d + 3 for d = 0..9, each 6/100; D twice (T 11, 12);
    the fighter dies to iL, R or D (R000.10): 12/50."""
    state = duel({"type": "ship", "laser_strength": 4}, {"type": "fighter", "count": 3}, 5)
    report = _report(state)
    assert report["rules"] == "battlefleet-mars"
    assert (report["attacker"], report["weapon"], report["target"]) == ("a", "laser", "t")
    assert report["params"] == {}
    assert report["facts"] == {
        "distance": 5.0, "range": 5, "range_unit_inches": 1.0, "range_rounding": "floor",
        "laser_strength": 4, "needed": 4, "max_range": 10, "range_term": 1,
        "hit_probability": "3/5", "hit_percent": 60.0, "target_type": "fighter",
        "column": "ship",
    }  # fmt: skip
    results = [("miss", "2/5", 40.0)] + [
        (code, "3/50", 6.0) for code in ("B2", "B3", "B4", "L2", "L3", "L4", "iL", "R")
    ]
    assert report["distributions"] == [
        {"name": "result", "spec_id": "T000.2",
         "outcomes": _rows("result", [*results, ("D", "3/25", 12.0)])},
        {"name": "destroyed", "spec_id": "R000.10",
         "outcomes": _rows("destroyed", [(False, "19/25", 76.0), (True, "6/25", 24.0)])},
    ]  # fmt: skip


def test_R000_11_laser_report_on_a_missile_group_and_none_on_a_ship():
    missile = duel({"type": "ship", "laser_strength": 6}, {"type": "missile"}, 0)
    report = _report(missile)
    destroyed = report["distributions"][1]
    assert (destroyed["name"], destroyed["spec_id"]) == ("destroyed", "R000.11")
    # LS 6 at 0 hits on any roll; T = d + 6: L3 (7), L4 (9) and D (11+) destroy: 7 in 10
    assert destroyed["outcomes"][1] == {"destroyed": True, "probability": "7/10", "percent": 70.0}
    base = duel({"type": "ship", "laser_strength": 2}, {"type": "base"}, 6)
    # needs 6+ (6 - 1 to beat); T = d + 2 - 2 = d: 0 is "-" on the base column
    rows = _report(base)["distributions"][0]["outcomes"]
    assert [row["result"] for row in rows[:3]] == ["miss", "-", "L1"]
    ship = duel({"type": "ship", "laser_strength": 6}, {"type": "ship", "laser_strength": 1}, 6)
    assert [d["name"] for d in _report(ship)["distributions"]] == ["result"]
    outcomes = [row["result"] for row in _report(ship)["distributions"][0]["outcomes"]]
    assert outcomes == sorted(
        outcomes, key=lambda r: -1 if r == "miss" else CODES_IN_ORDER.index(r)
    )
    assert outcomes[0] == "miss"


def test_R000_13_R000_22_salvo_report_facts_and_sections():
    """Two missiles at CS 3: CIWS kills missile 1 on 0-6 (7/10), missile 2 on 0-5 (6/10);
    0.7 missiles expected to survive, each striking T = d + 1 (R000.13)."""
    state = duel({"type": "missile", "count": 2}, {"type": "ship", "laser_strength": 3})
    report = _report(state, "missiles")
    assert report["params"] == {"missiles": 2, "ciws": True}
    assert report["facts"] == {
        "missiles": 2, "ciws": True, "ciws_strength": 3, "ciws_thresholds": [6, 5],
        "expected_survivors": "7/10",
        "expected_results": {code: "7/100" for code in CODES_IN_ORDER[:-1]},
        "missile_to_hit": "auto", "target_type": "ship", "column": "ship",
    }  # fmt: skip
    assert report["distributions"] == [
        {"name": "ciws_destroyed", "spec_id": "R000.22", "outcomes": _rows(
            "missiles", [(0, "3/25", 12.0), (1, "23/50", 46.0), (2, "21/50", 42.0)])},
        {"name": "survivor_damage", "spec_id": "R000.13", "outcomes": _rows(
            "result", [(code, "1/10", 10.0) for code in CODES_IN_ORDER[:-1]])},
    ]  # fmt: skip


def test_A000_8_R000_10_salvo_report_on_fighters_with_rolled_hits():
    """Hit on 5+ (1/2), then iL or R (T 3, 4: 2 in 10) kills: 1/10 a missile; the fighter
    survives two at (9/10)^2."""
    state = duel(
        {"type": "missile", "count": 3},
        {"type": "fighter", "count": 2},
        missile_to_hit="roll",
        missile_to_hit_score=5,
    )
    report = _report(state, "missiles", missiles=2)
    assert report["params"] == {"missiles": 2, "ciws": False}
    assert report["facts"] == {
        "missiles": 2, "ciws": False, "ciws_strength": None, "ciws_thresholds": [],
        "expected_survivors": "2",
        "expected_results": {code: "1/10" for code in CODES_IN_ORDER[:-1]},
        "missile_to_hit": "roll", "target_type": "fighter", "column": "ship",
    }  # fmt: skip
    names = [(d["name"], d["spec_id"]) for d in report["distributions"]]
    assert names == [
        ("ciws_destroyed", "R000.22"),
        ("survivor_damage", "R000.13"),
        ("target_destroyed", "R000.10"),
    ]
    assert report["distributions"][1]["outcomes"][:2] == _rows(
        "result", [("miss", "1/2", 50.0), ("B1", "1/20", 5.0)]
    )
    assert report["distributions"][2]["outcomes"] == _rows(
        "destroyed", [(False, "81/100", 81.0), (True, "19/100", 19.0)]
    )


def test_R000_11_salvo_report_on_a_missile_group_cites_its_rule():
    state = duel({"type": "missile", "count": 1}, {"type": "missile", "count": 1})
    report = _report(state, "missiles")
    assert report["distributions"][-1] == {
        "name": "target_destroyed",
        "spec_id": "R000.11",
        "outcomes": _rows("destroyed", [(False, "2/5", 40.0), (True, "3/5", 60.0)]),
    }  # T = d + 1 = 1..10 on the ship column: L1, iL, R, L2, L3, L4 destroy (6 in 10)


def test_R000_13_a_salvo_on_a_base_reads_the_base_column():
    state = duel({"type": "missile", "count": 1}, {"type": "base"})
    report = _report(state, "missiles", ciws=False)
    assert report["rules"] == "battlefleet-mars"
    by_hand = Distribution.from_weights((damage_result(d + 1, "base"), 1) for d in range(10))
    survivor = report["distributions"][1]
    assert {row["result"]: Fraction(row["probability"]) for row in survivor["outcomes"]} == (
        by_hand.as_dict()
    )


def test_R000_13_survivor_damage_reads_the_target_column():
    base = survivor_damage("base", settings(duel({}, {})))
    by_hand = Distribution.from_weights((damage_result(d + 1, "base"), 1) for d in range(10))
    assert base.as_dict() == by_hand.as_dict()
    assert base.probability("L1") == Fraction(3, 10)  # T 1, 2 and 5 on the base column


# --------------------------------------------------------------------------- refusals


STATE = duel({"type": "base", "missiles": 2, "launch_capacity": 1}, {"type": "miner"}, 3)


@pytest.mark.parametrize(
    ("state", "args", "message", "spec_id"),
    [
        (STATE, ("zz", "laser", "t", {}),
         "unknown attacking unit 'zz': units on this map are a, t", None),
        (table(), ("zz", "laser", "t", {}),
         "unknown attacking unit 'zz': units on this map are none", None),
        (STATE, ("a", "laser", "zz", {}), "unknown target unit 'zz': units on this map are a, t",
         None),
        (STATE, ("a", "laser", "a", {}), "unit 'a' cannot attack itself", "R000.3"),
        (STATE, ("a", "phaser", "t", {}),
         "unknown weapon 'phaser' for unit 'a': it can attack with laser, missiles", "R000.3"),
        (duel({"type": "miner"}, {"type": "base"}), ("a", "missiles", "t", {}),
         "weapon 'missiles' for unit 'a': it can attack with laser", "R000.3"),
        (STATE, ("a", "laser", "t", {"missiles": 2}),
         "a laser attack takes no missiles (declaration parameters: none)", None),
        (STATE, ("a", "missiles", "t", {"speed": 1, "zeta": 2}),
         "a missiles attack takes no speed, zeta (declaration parameters: missiles, ciws)", None),
        (STATE, ("a", "missiles", "t", {"ciws": "yes"}), "ciws must be true or false, not 'yes'",
         "A000.15"),
        (STATE, ("a", "missiles", "t", {"missiles": 0}),
         "a missile attack declares a whole number of missiles >= 1, not 0", "R000.18"),
        (STATE, ("a", "missiles", "t", {"missiles": True}),
         "a missile attack declares a whole number of missiles >= 1, not True", "R000.18"),
        (STATE, ("a", "missiles", "t", {"missiles": 3}),
         "cannot declare 3 missiles: 'a' has 2 missile(s)", "R000.18"),
        (duel({"type": "base", "launch_capacity": 1, "missiles": 5, "launched": 1},
              {"type": "miner"}), ("a", "missiles", "t", {"missiles": 2}),
         "cannot declare 2 missiles: 'a' may launch 2 missiles a turn (twice its launch "
         "capacity 1), 1 already launched", "R000.17"),
        (duel({"type": "missile", "count": 2}, {"type": "miner"}),
         ("a", "missiles", "t", {"missiles": 3}),
         "cannot declare 3 missiles: 'a' has 2 missile(s)", "R000.18"),
        (duel({"type": "base", "launch_capacity": 1}, {"type": "miner"}),
         ("a", "missiles", "t", {}), "'a' has no missiles to declare: it carries none", "R000.18"),
        (duel({"type": "base", "launch_capacity": 1, "missiles": 5, "launched": 2},
              {"type": "miner"}), ("a", "missiles", "t", {}),
         "'a' has no missiles to declare: its launches this turn are used up", "R000.17"),
        (duel({"type": "missile"}, {"type": "fighter"}), ("a", "missiles", "t", {"ciws": True}),
         "target 't' is a fighter: only the target ship or base may use CIWS", "R000.25"),
        (duel({"type": "ship", "laser_strength": 2}, {"type": "miner"}, 20),
         ("a", "laser", "t", {}),
         "target 't' is out of laser range of 'a': range 20 (20.00\") is beyond 9 for laser "
         "strength 2", "R000.6"),
        (duel({"type": "fighter"}, {"type": "miner"}, 9), ("a", "laser", "t", {}),
         "target 't' is out of laser range of 'a': range 9 (9.00\") is beyond 8 for laser "
         "strength 0", "R000.6"),
    ],
)  # fmt: skip
def test_refusals_say_what_and_cite_the_rule(state, args, message, spec_id):
    with pytest.raises(UserError) as refused:
        BFM.declare_attack(state, *args)
    assert (refused.value.message, refused.value.spec_id) == (message, spec_id)


def test_R000_6_a_strength_0_laser_still_reaches_its_own_range():
    """A000.14: fighters fire at strength 0, not at a default of 1."""
    state = duel({"type": "fighter"}, {"type": "miner"}, 2)
    report = _report(state)
    assert (report["facts"]["laser_strength"], report["facts"]["max_range"]) == (0, 8)


def test_odds_keep_the_declared_parameters():
    state = duel({"type": "missile", "count": 3}, {"type": "ship", "laser_strength": 3})
    report = _report(state, "missiles", missiles=1, ciws=False)
    assert report["params"] == {"missiles": 1, "ciws": False}
    assert report["facts"]["missiles"] == 1
    assert report["distributions"][0]["outcomes"] == _rows("missiles", [(0, "1", 100.0)])


# --------------------------------------------------------------------------- every pair


@pytest.mark.parametrize("rounding", ["floor", "ceil", "nearest"])
@pytest.mark.parametrize("unit_inches", [1.0, 2.5])
def test_GEO000_1_range_matrix_is_measure_for_every_pair(rounding, unit_inches):
    """Distances on and either side of a whole range unit, and a half one."""
    spots = [(10, 10), (13, 14), (10, 12.5), (10 + 7.5, 10), (30, 10.0000001), (10, 10)]
    units = tuple(unit(f"u{k}", x, y) for k, (x, y) in enumerate(spots))
    options = settings(table(range_rounding=rounding, range_unit_inches=unit_inches))
    ranges = range_matrix(units, options)
    assert np.issubdtype(ranges.dtype, np.integer)
    expected = [[measure(a, b, options).range for b in units] for a in units]
    assert ranges.tolist() == expected
    assert range_matrix((), options).shape == (0, 0)


@pytest.mark.parametrize("rounding", ["floor", "ceil", "nearest"])
def test_all_pair_odds_hold_every_legal_attack_and_its_exact_odds(rounding):
    """Each (attacker, weapon, target) the declaration accepts with its defaults, and
    nothing else; laser odds from the pair's own range, salvo odds whole."""
    state = table(
        unit("dry", 40, 30, "B", type="base", launch_capacity=1, missiles=2, launched=2),
        unit("one", 11, 30, "A", type="missile", count=1),
        unit("base", 10, 10, "A", type="base", launch_capacity=2, missiles=3),
        unit("ftr", 14.5, 10, "A", type="fighter", count=2),
        unit("cat", 16, 14, "B", type="catapult", laser_strength=3),
        unit("msl", 12, 12, "B", type="missile", count=4),
        unit("far", 19.5, 10, "B", type="miner"),
        range_rounding=rounding,
    )
    every = all_pair_odds(state)
    legal = set()
    for attacker, target in itertools.permutations([u.id for u in state.units], 2):
        for weapon in ("laser", "missiles"):
            try:
                BFM.declare_attack(state, attacker, weapon, target)
            except UserError:
                continue
            legal.add((attacker, weapon, target))
    assert set(every) == legal
    assert ("base", "laser", "far") in legal and ("cat", "laser", "far") in legal
    assert not any(a == "dry" and w == "missiles" for a, w, _ in legal)
    assert ("one", "missiles", "base") in legal
    for (attacker, weapon, target), distribution in every.items():
        attack = BFM.declare_attack(state, attacker, weapon, target)
        direct = enumerate_outcomes(lambda dice, a=attack: resolve(state, a, dice).summary)
        assert distribution.as_dict() == direct.as_dict(), (attacker, weapon, target)
