"""Cortex space combat: what a player reads, checked whole: every event of an
attack, every roll's label, and the facts and sections of its odds report."""

from __future__ import annotations

from fractions import Fraction

from cortex_builders import RAIDER, SYSTEM, VIPER, table, unit

from tactical.dice import ScriptedDice
from tactical.rules.cortex_space import combat


def _duel():
    return table(unit("viper", 10, 10, "A", **VIPER), unit("raider", 15, 10, "B", **RAIDER))


def test_R003_7_an_attack_logs_every_step():
    """Agility d10 + Gunnery d8 rolls 12 against the raider's d10 + d8 defense 7: a hit,
    basic damage 5 (3 Stun, 2 Wound, A003.6), the autocannons' d8 rolls 6: Wound 8."""
    state = _duel()
    attack = combat.declare(state, "viper", "autocannons", "raider")
    dice = ScriptedDice([12, 7, 6])
    resolution = combat.resolve(state, attack, dice)
    assert [event.as_dict() for event in resolution.events] == [
        {"kind": "declare", "spec_id": "R003.7", "attacker": "viper", "weapon": "autocannons",
         "target": "raider", "battery": 1, "fighters": 1, "gunner": None},
        {"kind": "range", "spec_id": "GEO003.1", "distance": 5.0, "band": "skirmish",
         "weapon_range": "skirmish"},
        {"kind": "attack-pool", "spec_id": "R003.2", "pool": "d10 + d8", "steps": 0},
        {"kind": "defense", "spec_id": "R003.7", "source": "defense roll", "value": "d10 + d8"},
        {"kind": "roll", "spec_id": "R003.1", "who": "viper", "what": "attack 1",
         "die": "d10+d8", "result": 12},
        {"kind": "total", "spec_id": "R003.3", "who": "viper", "what": "attack 1", "total": 12,
         "botch": False},
        {"kind": "roll", "spec_id": "R003.1", "who": "raider", "what": "defense",
         "die": "d10+d8", "result": 7},
        {"kind": "total", "spec_id": "R003.3", "who": "raider", "what": "defense", "total": 7,
         "botch": False},
        {"kind": "attack", "spec_id": "R003.7", "number": 1, "attack": 12, "botch": False,
         "defense": 7, "hit": True, "extraordinary": False, "basic": 5},
        {"kind": "damage-die", "spec_id": "R003.7", "die": "d8", "steps": 0},
        {"kind": "roll", "spec_id": "R003.1", "who": "viper", "what": "damage 1", "die": "d8",
         "result": 6},
        {"kind": "total", "spec_id": "R003.3", "who": "viper", "what": "damage 1", "total": 6,
         "botch": False},
        {"kind": "basic-damage", "spec_id": "R003.7", "basic": 5, "stun": 3, "wound": 2,
         "die": 6},
        {"kind": "damage", "spec_id": "R003.7", "target": "raider", "stun": 3, "wound": 8,
         "total_stun": 3, "total_wound": 8, "life_points": 14},
        {"kind": "outcome", "spec_id": "R003.7", "target": "raider", "hits": 1,
         "extraordinary": 0, "stun": 3, "wound": 8, "destroyed": False, "battle_damage": []},
    ]  # fmt: skip
    assert [(roll.who, roll.what, roll.result) for roll in dice.rolls] == [
        ("viper", "attack 1", 12),
        ("raider", "defense", 7),
        ("viper", "damage 1", 6),
    ]


def test_R003_7_odds_report_facts_and_sections():
    state = _duel()
    attack = combat.declare(state, "viper", "autocannons", "raider")
    report = SYSTEM.attack_odds(state, attack).as_dict()
    assert (report["rules"], report["attacker"], report["weapon"], report["target"]) == (
        "cortex-space", "viper", "autocannons", "raider",
    )  # fmt: skip
    assert report["params"] == {"battery": 1}
    assert report["facts"] == {
        "distance": 5.0, "band": "skirmish", "weapon_kind": "gun", "weapon_range": "skirmish",
        "attack_pool": "d10 + d8", "steps": 0, "modifiers": [], "defense": "d10 + d8",
        "damage_die": "d8", "battery": 1, "any_hit_probability": "687/1280",
        "any_hit_percent": 53.6719,
    }  # fmt: skip
    assert [(s["name"], s["spec_id"]) for s in report["distributions"]] == [
        ("hits", "R003.7"),
        ("extraordinary", "R003.5"),
        ("wound", "R003.7"),
        ("stun", "R003.7"),
        ("destroyed", "R003.7"),
    ]
    sections = {
        s["name"]: {row[next(iter(row))]: Fraction(row["probability"]) for row in s["outcomes"]}
        for s in report["distributions"]
    }
    assert sections["hits"] == {0: Fraction(593, 1280), 1: Fraction(687, 1280)}
    assert sections["extraordinary"] == {0: Fraction(1139, 1280), 1: Fraction(141, 1280)}
    assert sections["wound"][0] == sections["hits"][0]  # every hit wounds (A003.6)
    assert sections["stun"][0] == Fraction(859, 1600)
    assert sections["destroyed"] == {False: Fraction(25557, 25600), True: Fraction(43, 25600)}
    for name, distribution in sections.items():
        assert sum(distribution.values()) == 1, name
