"""Heavy Combat fire: what a player reads, checked whole: every event of a shot,
its roll's label, and the facts and sections of its odds report."""

from __future__ import annotations

from hc_builders import HC, duel

from tactical.dice import ScriptedDice

FIRE_FACTS = {
    "range": 2, "multiplier": 2, "firer_facing": "fore", "in_arc": True,
    "target_facing": "fore", "split_to": None, "halved": False, "procedure": "weapon",
    "needed": None, "bypass_shields": None, "mode": "general", "system": None,
}  # fmt: skip


def test_R001_17_R001_28_a_photon_shot_logs_every_step():
    """Facing each other at 18" (range 2, x2): the photon hits automatically, 1d6 = 4 x 2 = 8
    points, all taken by the fore shield (27 boxes)."""
    state = duel(distance=18.0)
    attack = HC.declare_attack(state, "a", "photon-1", "b", {})
    dice = ScriptedDice([4])
    resolution = HC.resolve_attack(state, attack, dice)
    assert [event.as_dict() for event in resolution.events] == [
        {"kind": "fire", "spec_id": "R001.17", "firer": "a", "weapon": "photon-1",
         "target": "b", **FIRE_FACTS, "power": 1},
        {"kind": "to-hit", "spec_id": "R001.17", "range": 2, "automatic": True, "hit": True},
        {"kind": "roll", "spec_id": "A001.6", "who": "a", "what": "photon-1 damage", "die": "d6",
         "result": 4},
        {"kind": "damage", "spec_id": "R001.17", "roll": 4, "multiplier": 2, "raw": 8},
        {"kind": "shield", "spec_id": "R001.28", "facing": "fore", "points": 8, "total": 8,
         "capacity": 27, "overflow": 0},
    ]  # fmt: skip
    assert [(roll.who, roll.what, roll.result) for roll in dice.rolls] == [
        ("a", "photon-1 damage", 4)
    ]


def test_R001_15_a_phaser_shot_is_its_power_times_the_multiplier():
    state = duel(distance=18.0)
    attack = HC.declare_attack(state, "a", "phasers", "b", {"power": 2})
    resolution = HC.resolve_attack(state, attack, ScriptedDice([]))
    assert [event.as_dict() for event in resolution.events[1:]] == [
        {"kind": "to-hit", "spec_id": "R001.15", "range": 2, "automatic": True, "hit": True},
        {"kind": "damage", "spec_id": "R001.15", "points": 2, "multiplier": 2, "raw": 4},
        {"kind": "shield", "spec_id": "R001.28", "facing": "fore", "points": 4, "total": 4,
         "capacity": 27, "overflow": 0},
    ]  # fmt: skip


def test_R001_17_photon_odds_report_facts_and_sections():
    """2, 4, ... 12 points on the fore shield, 1/6 each (7 expected); nothing reaches the
    internals of an empty 27-box shield."""
    state = duel(distance=18.0)
    report = HC.attack_odds(state, HC.declare_attack(state, "a", "photon-1", "b", {})).as_dict()
    assert (report["rules"], report["attacker"], report["weapon"], report["target"]) == (
        "heavy-combat", "a", "photon-1", "b",
    )  # fmt: skip
    assert report["params"] == {"power": 1, "mode": "general"}
    assert report["facts"] == {
        **FIRE_FACTS, "power": 1, "weapon": "photon-1", "distance": 18.0,
        "hit_probability": "1", "hit_percent": 100.0, "expected_internals": "0",
        "reinforcement": {}, "countermeasures": 0, "shield": "0/27",
        "expected_shield_damage": "7",
    }  # fmt: skip
    sixth = {"probability": "1/6", "percent": 16.6667}
    assert report["distributions"] == [
        {"name": "hit", "spec_id": "R001.17",
         "outcomes": [{"hit": True, "probability": "1", "percent": 100.0}]},
        {"name": "shield_damage", "spec_id": "R001.28",
         "outcomes": [{"points": 2 * face, **sixth} for face in range(1, 7)]},
        {"name": "internals", "spec_id": "R001.25",
         "outcomes": [{"boxes": 0, "probability": "1", "percent": 100.0}]},
    ]  # fmt: skip
