"""SW D6 capital combat: what a player reads, checked whole (issue 19).

Every event a shot logs, every roll's label, the facts and sections of its odds report,
damaged controls on the Gunnery code, the shield tie-break on an arc line and the
choice of a weapon unit by name among same-named mounts.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from swd6_builders import ISD, NOWHERE, SYSTEM, TURBOLASER, duel, with_condition

from tactical.dice import ScriptedDice
from tactical.errors import UserError
from tactical.model import Pose
from tactical.rules.sw_d6_capital import combat
from tactical.rules.sw_d6_capital.condition import Effect

HIT = [3] * 8  # 8D of Gunnery (4D Fire Control + 4D battery): 24 against 15


def _isd_at_nowhere(distance=20, **target):
    return duel(ISD, {**NOWHERE, **target}, distance)


def test_R004_26_to_R004_38_a_shot_logs_every_step():
    """ISD turbolasers at 20" (medium, Difficulty 15): 8D rolls 24 and hits; Damage 5D (15)
    against hull 5D + front shields 3 pips = 6D (13): margin 2, shields drained (R004.35)."""
    state = _isd_at_nowhere()
    dice = ScriptedDice([*HIT, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 3])
    attack = SYSTEM.declare_attack(state, "a", "turbolasers", "t", {})
    resolution = SYSTEM.resolve_attack(state, attack, dice)
    assert [event.as_dict() for event in resolution.events] == [
        {"kind": "declare", "spec_id": "R004.26", "attacker": "a",
         "weapon": "front-turbolasers", "target": "t", "arc": "front", "batch": 1},
        {"kind": "range", "spec_id": "GEO004.2", "distance": 20.0, "space_units": 20.0,
         "band": "medium"},
        {"kind": "battery", "spec_id": "R004.31", "battery": "4D", "to_damage": "0D",
         "to_gunnery": "4D", "cap": "2D"},
        {"kind": "difficulty", "spec_id": "R004.30", "range_difficulty": 15,
         "target_order": "steady", "ship_defence": 14, "location": None, "difficulty": 15},
        {"kind": "gunnery-code", "spec_id": "R004.28", "code": "8D", "fire_control": 12,
         "battery": 12, "batch_map": 0, "order_map": 0, "damage_control_map": 0,
         "shields_map": 0, "disrupted": 0, "crew": 0, "controls_damaged": 0,
         "fire_control_loss": 0, "command": 0},
        {"kind": "roll", "spec_id": "R004.28", "who": "a", "what": "front-turbolasers gunnery",
         "code": "8D", "faces": [3] * 8, "total": 24},
        {"kind": "to-hit", "spec_id": "R004.5", "roll": 24, "difficulty": 15, "hit": True},
        {"kind": "damage-code", "spec_id": "R004.33", "code": "5D", "resistance": "6D",
         "struck_arc": "front", "damage_damage": 15, "damage_battery": 0, "damage_scale": 0,
         "resistance_hull": 15, "resistance_hull_penalty": 0, "resistance_shields": 3},
        {"kind": "roll", "spec_id": "R004.34", "who": "a", "what": "damage vs t", "code": "5D",
         "faces": [3] * 5, "total": 15},
        {"kind": "roll", "spec_id": "R004.34", "who": "t", "what": "hull and shields",
         "code": "6D", "faces": [2, 2, 2, 2, 2, 3], "total": 13},
        {"kind": "margin", "spec_id": "R004.34", "damage": 15, "resistance": 13, "margin": 2},
        {"kind": "lookup", "spec_id": "T004.6", "margin": 2, "result": "shields-drained"},
        {"kind": "shields-drained", "spec_id": "R004.38",
         "until": "the next Damage Control phase"},
        {"kind": "outcome", "spec_id": "R004.35", "target": "t", "result": "shields-drained",
         "level": "none", "effect": None, "destroyed": False},
    ]  # fmt: skip
    labels = [(roll.who, roll.what) for roll in dice.rolls]
    assert (
        labels
        == [("a", "front-turbolasers gunnery")] * 8
        + [("a", "damage vs t")] * 5
        + [("t", "hull and shields")] * 6
    )


def test_R004_5_a_miss_logs_the_roll_and_the_outcome_only():
    state = _isd_at_nowhere()
    resolution = SYSTEM.resolve_attack(
        state, SYSTEM.declare_attack(state, "a", "turbolasers", "t", {}), ScriptedDice([1] * 8)
    )
    assert [event.as_dict() for event in resolution.events[-2:]] == [
        {"kind": "to-hit", "spec_id": "R004.5", "roll": 8, "difficulty": 15, "hit": False},
        {"kind": "outcome", "spec_id": "R004.35", "target": "t", "result": "miss",
         "level": "none", "effect": None, "destroyed": False},
    ]  # fmt: skip
    assert resolution.summary.result == "miss"


def test_R004_35_to_R004_37_odds_report_facts_and_sections():
    """8D against 15 misses only on 14 or less: 2995 of the 6^8 rolls (3003 ways for the
    dice over 1 to total at most 6, less the 8 with one die at 7)."""
    state = _isd_at_nowhere()
    attack = SYSTEM.declare_attack(state, "a", "turbolasers", "t", {})
    report = SYSTEM.attack_odds(state, attack).as_dict()
    assert (report["rules"], report["attacker"], report["weapon"], report["target"]) == (
        "sw-d6-capital", "a", "front-turbolasers", "t",
    )  # fmt: skip
    assert report["params"] == {"arc": "front", "battery_damage": 0, "location": "none", "batch": 1}
    hit = 1 - Fraction(2995, 6**8)
    assert report["facts"] == {
        "distance": 20.0, "space_units": 20.0, "band": "medium", "arc": "front",
        "range_difficulty": 15, "target_order": "steady", "ship_defence": 14, "location": None,
        "difficulty": 15, "gunnery": "8D", "battery": "4D", "battery_damage": "0D",
        "battery_cap": "2D", "batch": 1, "damage": "5D", "resistance": "6D",
        "struck_arc": "front", "ion": False, "hit_probability": "1676621/1679616",
        "hit_percent": 99.8217,
    }  # fmt: skip
    assert Fraction(report["facts"]["hit_probability"]) == hit
    sections = {s["name"]: s for s in report["distributions"]}
    assert [(s["name"], s["spec_id"]) for s in report["distributions"]] == [
        ("result", "R004.35"),
        ("damage_level", "R004.36"),
        ("effect", "R004.37"),
        ("destroyed", "R004.35"),
    ]
    results = {
        row["result"]: Fraction(row["probability"]) for row in sections["result"]["outcomes"]
    }
    assert results["miss"] == 1 - hit
    assert list(results) == [
        "miss", "no-effect", "shields-drained", "light", "heavy", "severe", "destroyed",
    ]  # fmt: skip
    levels = {
        row["level"]: Fraction(row["probability"]) for row in sections["damage_level"]["outcomes"]
    }
    assert levels["none"] == results["miss"] + results["no-effect"] + results["shields-drained"]
    assert levels["destroyed"] == results["destroyed"]
    effects = {
        row["effect"]: Fraction(row["probability"]) for row in sections["effect"]["outcomes"]
    }
    assert effects["none"] == levels["none"] + levels["destroyed"]
    assert sum(effects.values()) == 1
    assert sections["destroyed"]["outcomes"] == [
        {"destroyed": False, **_row(1 - results["destroyed"])},
        {"destroyed": True, **_row(results["destroyed"])},
    ]


def _row(probability: Fraction) -> dict:
    return {
        "probability": f"{probability.numerator}/{probability.denominator}",
        "percent": round(float(probability * 100), 4),
    }


def test_T004_9_damaged_controls_cost_the_gunnery_code_3D():
    state = _isd_at_nowhere()
    state = with_condition(state, "a", effects=(Effect("controls-damaged", "severe", pips=9),))
    facts = combat.fire_facts(state, "a", "front-turbolasers", "t", {})
    assert dict(facts.gfc_terms)["controls_damaged"] == -9
    assert facts.gfc_pips == 24 - 9
    report = SYSTEM.attack_odds(state, SYSTEM.declare_attack(state, "a", "turbolasers", "t", {}))
    assert report.facts["gunnery"] == "5D"


@pytest.mark.parametrize(
    ("shields", "struck"),
    [((2, 0, 0, 2), "front"), ((0, 0, 0, 0), "front"), ((1, 0, 0, 5), "left"),
     ((4, 0, 0, 3), "front")],
)  # fmt: skip
def test_GEO004_4_on_an_arc_line_the_better_shielded_arc_faces_the_shot(shields, struck):
    """The ISD lies on the Nowhere's front/left line: the better-shielded of the two resists;
    with equal shields, the first of front, right, rear, left."""
    state = duel(ISD, NOWHERE, 20, target_heading=225.0)
    state = with_condition(state, "t", shield_arcs=shields)
    facts = combat.fire_facts(state, "a", "front-turbolasers", "t", {})
    assert facts.struck_arc == struck
    assert dict(facts.resistance_terms)["shields"] == max(shields[0], shields[3])


TWIN = {
    **ISD,
    "weapons": [{**TURBOLASER, "arc": "front"}, {**TURBOLASER, "arc": "rear"}],
}


def _moved(state, x, y):
    return state.replace_unit(state.unit("a").moved_to(Pose(x, y, 0.0)))


def test_R004_26_a_weapon_named_plainly_is_the_mount_whose_arc_holds_the_target():
    """Two Turbolasers mounts (front, rear): the name alone picks the one that can fire;
    with neither in arc, the first, and the arc refusal says where the target lies."""
    ahead = duel(TWIN, NOWHERE, 20)
    assert SYSTEM.declare_attack(ahead, "a", "turbolasers", "t", {}).weapon == "front-turbolasers"
    behind = _moved(ahead, 30, 60)
    assert SYSTEM.declare_attack(behind, "a", "turbolasers", "t", {}).weapon == "rear-turbolasers"
    aside = _moved(ahead, 10, 30)
    with pytest.raises(UserError) as refused:
        SYSTEM.declare_attack(aside, "a", "turbolasers", "t", {})
    assert refused.value.message == ("'t' is not in 'a''s front arc (it lies in right)")
    assert refused.value.spec_id == "R004.29"
    with pytest.raises(UserError) as unknown:
        SYSTEM.declare_attack(ahead, "a", "blasters", "t", {})
    assert unknown.value.message == (
        "'a' has no weapon 'blasters': its weapon units are front-turbolasers, rear-turbolasers"
    )
