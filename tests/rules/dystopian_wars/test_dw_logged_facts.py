"""Dystopian Wars combat: what a player reads, checked whole: every event of an
attack, every roll's label, and the facts and sections of its odds report."""

from __future__ import annotations

from dw_builders import DW, GUNS, duel

from tactical.dice import ScriptedDice
from tactical.rules.dystopian_wars import combat, resolving

TWO_GUNS = dict(GUNS, attack_dice="2-2-2-2")
TARGET = {"damage_rating": 1, "critical_rating": 2, "hull_points": 3}


def _rows(label, pairs):
    return [
        {label: outcome, "probability": probability, "percent": percent}
        for outcome, probability, percent in pairs
    ]


def test_G5_R002_36_an_attack_logs_every_step():
    """Two dice at RB1 (6" from the centre, T002.6), both 6s: 2 hits each (exploding dice
    stop once the outcome is decided); at CR 2 a critical: 2D6 = 5, critical-5."""
    state = duel({"weapons": [TWO_GUNS]}, TARGET)
    attack = combat.declare(state, "a", "Guns", "t")
    dice = ScriptedDice([6, 6, 2, 3])
    resolution = resolving.resolve_declared(state, attack, dice)
    assert [event.as_dict() for event in resolution.events] == [
        {"kind": "declare", "spec_id": "R002.36", "attacker": "a", "weapon": "Guns",
         "weapon_kind": "gunnery", "weapon_class": "ordnance", "target": "t", "counter": False,
         "indirect": False, "linked": [], "combined": []},
        {"kind": "range", "spec_id": "R002.14", "distance": 6.0, "band": "RB1",
         "measured_from": "centre", "arc": "all-round"},
        {"kind": "permission", "spec_id": "T002.6", "weapon": "gunnery",
         "target_column": "surface-naval", "band": "RB1"},
        {"kind": "pool", "spec_id": "A002.17", "contributions": [["a", "Guns", 2, "full"]],
         "dice": 2},
        {"kind": "roll", "spec_id": "G.5", "who": "a", "what": "AD vs t: die 1", "die": "1D6",
         "result": 6, "hits": 2},
        {"kind": "roll", "spec_id": "G.5", "who": "a", "what": "AD vs t: die 2", "die": "1D6",
         "result": 6, "hits": 2},
        {"kind": "hits", "spec_id": "G.5", "who": "a", "target": "t", "dice": 2, "hit_on": 4,
         "hits": 4, "faces": [6, 6]},
        {"kind": "roll", "spec_id": "R002.1", "who": "t", "what": "Critical Hit Table",
         "die": "2D6", "dice": [2, 3], "result": 5},
        {"kind": "lookup", "spec_id": "G.5", "table": "Critical Hit Table", "total": 5,
         "result": "critical-5", "name": "Critical Hit Table 5"},
        {"kind": "damage", "spec_id": "G.5", "target": "t", "hits": 2, "damage_rating": 1,
         "critical_rating": 2, "result": "critical", "hull_lost": 2},
    ]  # fmt: skip
    assert [(roll.who, roll.what, roll.result) for roll in dice.rolls] == [
        ("a", "AD vs t: die 1", 6),
        ("a", "AD vs t: die 2", 6),
        ("t", "Critical Hit Table (first die)", 2),
        ("t", "Critical Hit Table (second die)", 3),
    ]


def test_G5_odds_report_facts_and_sections():
    """Each die: miss 1/2, one hit (4, 5) 1/3, a 6 (two hits) 1/6; hits count up to CR 2:
    0 hits 1/4, 1 hit 2 x 1/2 x 1/3 = 1/3, 2 or more 5/12; 7/6 hits expected."""
    state = duel({"weapons": [TWO_GUNS]}, TARGET)
    report = DW.attack_odds(state, combat.declare(state, "a", "Guns", "t")).as_dict()
    assert (report["rules"], report["attacker"], report["weapon"], report["target"]) == (
        "dystopian-wars", "a", "Guns", "t",
    )  # fmt: skip
    assert report["facts"] == {
        "distance": 6.0, "range_band": "RB1", "measured_from": "centre", "arc": "all-round",
        "weapon_kind": "gunnery", "weapon_class": "ordnance", "attack_dice": 2,
        "pool": [["a", "Guns", 2, "full"]], "hit_on": 4, "six_hits": 2, "exploding": True,
        "hits_counted_up_to": 2, "expected_hits": "7/6", "damage_rating": 1,
        "critical_rating": 2, "hull_points_left": 3, "shield_dice": 0, "guardian": None,
        "save_on": 4, "target_column": "surface-naval", "wing_size": 0,
        "allowed_by": "T002.6", "indirect": False, "spotter": None, "counter": False,
    }  # fmt: skip
    thirds = [("1/4", 25.0), ("1/3", 33.3333), ("5/12", 41.6667)]
    assert report["distributions"] == [
        {"name": "hits", "spec_id": "G.5",
         "outcomes": _rows("hits", [(n, *p) for n, p in zip((0, 1, 2), thirds, strict=True)])},
        {"name": "result", "spec_id": "G.5", "outcomes": _rows(
            "result", [(r, *p) for r, p in zip(("no effect", "damage", "critical"), thirds,
                                                 strict=True)])},
        {"name": "hull_points_lost", "spec_id": "G.5", "outcomes": _rows(
            "hull_points", [(n, *p) for n, p in zip((0, 1, 2), thirds, strict=True)])},
        {"name": "destroyed", "spec_id": "G.5", "outcomes": _rows("destroyed",
                                                                 [(False, "1", 100.0)])},
    ]  # fmt: skip
